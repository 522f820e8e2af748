"""Helpers of the IMCS tests: servers the tests start themselves on 127.0.0.1 (in the test's
event loop, or as a ``minichess imcs-server`` process), and raw connections that check what
the server sends byte for byte."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from minichess.move import Move
from minichess.protocols.imcs.client import GameReport, ImcsClient, ServerClocks
from minichess.protocols.imcs.games import Timing
from minichess.protocols.imcs.passwords import HashCost, Throttle
from minichess.protocols.imcs.server import ImcsServer, ServerConfig

FAST_HASH = HashCost(n_log2=4, r=1, p=1)
"""Password hashes cheap enough for tests (the stored form and the checks are the same)."""
TIMEOUT = 5.0
"""Seconds a test waits for any one reply."""

START_PROMPT = (b"\r\n1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n\r\n"
                b"? 05:00.000 05:00.000\r\n")
"""White's first prompt with the default clocks, byte for byte (as the issue quotes it)."""


KING_CAPTURE = {"W": ["a2a3", "a3b4", "a1a6"], "B": ["b5b4", "a5b4"]}
"""1. a3 b4 2. axb4 axb4 3. Rxa6: White's rook takes the king."""
def random_mover(seed: int) -> Callable[[ServerClocks], Awaitable[Move]]:
    """A chooser that plays random legal moves."""
    rng = random.Random(seed)

    async def choose(view: ServerClocks) -> Move:
        return rng.choice(view.board.legal_moves)

    return choose


async def king_capture(white: Peer, black: Peer) -> None:
    """Play 1. a3 b4 2. axb4 axb4 3. Rxa6 through raw connections."""
    for number, move in enumerate(KING_CAPTURE["W"]):
        await white.prompt()
        await white.send(f"{move[:2]}-{move[2:]}")
        if number < len(KING_CAPTURE["B"]):
            await black.prompt()
            await black.send(KING_CAPTURE["B"][number])


def config(**changes: Any) -> ServerConfig:
    """A server configuration for tests: any free port, a database in memory, cheap hashes,
    no login throttling unless asked for."""
    settings: dict[str, Any] = {
        "host": "127.0.0.1", "port": 0, "db": ":memory:", "hash_cost": FAST_HASH,
        "account_throttle": Throttle(free=10**9), "address_throttle": Throttle(free=10**9),
        "stop_grace": 0.0,
    }
    settings.update(changes)
    return ServerConfig(**settings)


def timing(first_move: float = 60.0, flag_grace: float = 10.0) -> Timing:
    """The referee's limits in seconds."""
    return Timing(round(first_move * 1000), round(flag_grace * 1000))


@contextlib.asynccontextmanager
async def running(**changes: Any) -> AsyncIterator[ImcsServer]:
    """A server in this event loop, stopped at the end."""
    server = ImcsServer(config(**changes))
    await server.start()
    try:
        yield server
    finally:
        await server.stop(grace=0)


def run(coroutine: Coroutine, timeout: float = 60.0) -> Any:
    """Run a test's scenario in a new event loop, failing it after ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


class Peer:
    """A raw client: it sends bytes and checks exactly what comes back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, greeting: bool = True) -> Peer:
        """Connect (and check the greeting)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        peer = cls(reader, writer)
        if greeting:
            await peer.expect(b"100 imcs 2.5\r\n")
        return peer

    @classmethod
    async def logged_in(cls, port: int, name: str, password: str = "pw") -> Peer:
        """Connect and log in as ``name`` (registering the name if it is new)."""
        peer = await cls.open(port)
        reply = await peer.ask(f"me {name} {password}")
        if reply.startswith("400"):
            reply = await peer.ask(f"register {name} {password}")
        assert reply in (f"201 hello {name}", f"202 hello new user {name}")
        return peer

    async def send(self, *lines: str | bytes, end: bytes = b"\r\n") -> None:
        """Send lines, each followed by ``end``."""
        for line in lines:
            self.writer.write((line.encode() if isinstance(line, str) else line) + end)
        await self.writer.drain()

    async def expect(self, data: bytes, timeout: float = TIMEOUT) -> None:
        """The next bytes are exactly ``data``."""
        got = await asyncio.wait_for(self.reader.readexactly(len(data)), timeout)
        assert got == data

    async def line(self, timeout: float = TIMEOUT) -> str:
        """The next line (up to ``\\r\\n``, which is cut off)."""
        raw = await asyncio.wait_for(self.reader.readuntil(b"\r\n"), timeout)
        return raw[:-2].decode()

    async def ask(self, command: str, timeout: float = TIMEOUT) -> str:
        """Send a command; the first line of the reply."""
        await self.send(command)
        return await self.line(timeout)

    async def rows(self, timeout: float = TIMEOUT) -> list[str]:
        """The lines of a multi-line reply up to the final ``.`` (not included)."""
        rows = []
        while (row := await self.line(timeout)) != ".":
            rows.append(row)
        return rows

    async def prompt(self, timeout: float = TIMEOUT) -> tuple[list[str], str, str]:
        """The lines before a turn's prompt, the state block and the ``?`` line."""
        before = []
        while (line := await self.line(timeout)) != "":
            before.append(line)
        state = await self.line(timeout)
        return before, state + "\n", await self.line(timeout)

    async def closed(self, timeout: float = TIMEOUT) -> bytes:
        """What comes until the server closes the connection."""
        return await asyncio.wait_for(self.reader.read(), timeout)

    def close(self) -> None:
        """Close our side."""
        self.writer.close()


async def game(port: int, white: str = "alice", black: str = "bob", times: str = "",
               timeout: float = TIMEOUT) -> tuple[Peer, Peer, int]:
    """Two registered players and a game between them (White offered, Black accepted), with
    the start lines read (each within ``timeout`` seconds)."""
    offerer = await Peer.logged_in(port, white)
    accepter = await Peer.logged_in(port, black)
    reply = await offerer.ask(f"offer W {times}".strip())
    game_id = int(re.match(r"103 (\d+) game waiting for offer acceptance", reply)[1])
    assert (await accepter.ask(f"accept {game_id}", timeout)).startswith("106 B ")
    assert (await offerer.line(timeout)).startswith("105 W ")
    return offerer, accepter, game_id


async def client(port: int, name: str) -> ImcsClient:
    """One of our clients, connected and registered as ``name``."""
    connected = await ImcsClient.connect("127.0.0.1", port)
    await connected.login(name, "pw", register=True)
    return connected


async def play(port: int, white_choice, black_choice, times: str = "",
               variant: str = "minitchess") -> tuple[GameReport, GameReport, int]:
    """A game between two of our clients: alice (White, the offerer) and bob."""
    alice, bob = await client(port, "alice"), await client(port, "bob")
    seconds = [int(t) for t in times.split()]
    game_id = await alice.offer("W", *seconds, variant=variant)
    waiting = asyncio.ensure_future(alice.wait_for_start())
    start = await bob.accept(game_id, variant=variant)
    white, black = await asyncio.gather(
        alice.play(await waiting, white_choice, variant, game_id, "bob"),
        bob.play(start, black_choice, variant, game_id, "alice"))
    return white, black, game_id


# --- a server process ---------------------------------------------------------------------------


class ServerProcess:
    """``minichess imcs-server`` as a process of its own (on any free port)."""

    def __init__(self, db: Path, *args: str, **environment: str) -> None:
        command = [sys.executable, "-m", "minichess.cli.main", "imcs-server", "--port", "0",
                   "--db", str(db), "--hash-cost", "4", *args]
        env = dict(os.environ, PYTHONUNBUFFERED="1", **environment)
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True, env=env)
        self.port = self._wait_for_port()

    def _wait_for_port(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        lines = []
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"IMCS server on [\d.]+:(\d+)", line)
            if match:
                return int(match[1])
        self.process.kill()
        raise AssertionError(f"the server did not start: {''.join(lines)}")

    def kill(self) -> None:
        """SIGKILL, and wait for the end."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM; the exit status."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.wait(30)
        finally:
            self.process.stderr.close()
