"""Passwords stored as salted slow hashes (scrypt), and the throttle that slows down guessing.

A stored password reads ``scrypt$<log2 n>$<r>$<p>$<salt hex>$<hash hex>``, so a hash made with
any cost is checked with the cost it was made with.

>>> stored = hash_password("hunter2", cost=HashCost(n_log2=4))
>>> verify_password("hunter2", stored), verify_password("hunter3", stored)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class HashCost:
    """scrypt's parameters: ``2 ** n_log2`` iterations over blocks of ``128 * r`` bytes."""

    n_log2: int = 14
    r: int = 8
    p: int = 1


DEFAULT_COST = HashCost()
"""About 50 ms and 16 MB per hash."""
SALT_BYTES = 16
HASH_BYTES = 32


def hash_password(password: str, cost: HashCost = DEFAULT_COST) -> str:
    """A new salted hash of ``password`` to store."""
    salt = os.urandom(SALT_BYTES)
    digest = _scrypt(password, salt, cost)
    return f"scrypt${cost.n_log2}${cost.r}${cost.p}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (in constant time)."""
    try:
        scheme, n_log2, r, p, salt, digest = stored.split("$")
        cost = HashCost(int(n_log2), int(r), int(p))
        expected = bytes.fromhex(digest)
        salt_bytes = bytes.fromhex(salt)
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    return hmac.compare_digest(_scrypt(password, salt_bytes, cost), expected)


def _scrypt(password: str, salt: bytes, cost: HashCost) -> bytes:
    return hashlib.scrypt(password.encode("utf-8", "surrogateescape"), salt=salt,
                          n=1 << cost.n_log2, r=cost.r, p=cost.p,
                          maxmem=256 * cost.r * (1 << cost.n_log2) + (1 << 20), dklen=HASH_BYTES)


@dataclass
class Throttle:
    """Slows down password guessing on keys (the server keeps one throttle for accounts and
    one, more lenient, for addresses: a class behind one router shares an address).

    Each key remembers its wrong passwords of the last ``window`` seconds. Once a key has
    ``free`` of them, an attempt on it waits ``base * 2 ** (failures - free)`` seconds, at most
    ``longest``, before it is checked, and attempts on the same key wait one after the other
    (the server holds a lock per key), so that guessing runs at most one attempt per delay
    however many connections it uses. A right password clears the account's failures.
    """

    free: int = 5
    base: float = 0.25
    longest: float = 4.0
    window: float = 900.0
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def delay(self, key: str) -> float:
        """Seconds an attempt on ``key`` waits before it is checked."""
        excess = self._recent(key, time.monotonic()) - self.free
        return 0.0 if excess < 0 else min(self.base * 2.0 ** excess, self.longest)

    def failed(self, key: str) -> None:
        """Count a wrong password against ``key``."""
        now = time.monotonic()
        self._failures.setdefault(key, deque(maxlen=64)).append(now)
        if len(self._failures) > 100_000:
            self._forget_old(now)

    def succeeded(self, key: str) -> None:
        """Clear the failures of ``key`` (a right password for an account)."""
        self._failures.pop(key, None)

    def _recent(self, key: str, now: float) -> int:
        failures = self._failures.get(key)
        if not failures:
            return 0
        while failures and failures[0] < now - self.window:
            failures.popleft()
        return len(failures)

    def _forget_old(self, now: float) -> None:
        for key in [k for k, times in self._failures.items() if times[-1] < now - self.window]:
            del self._failures[key]
