"""The IMCS-compatible server: asyncio, SQLite, and an in-process API.

    server = ImcsServer(ServerConfig(port=0, db="imcs.db"))
    await server.start()               # listening on server.port
    async with server.feed.subscribe() as events:   # games, moves, ends, rating changes
        ...
    await server.stop()                # games in progress finish or are recorded as aborted

The server keeps the offers and games in progress in memory (``entries``, in the order
``list`` shows them) and everything else in its :class:`~.store.Store`. Each connection is
served by a :class:`~.session.Session`; a game by a :class:`~.games.LiveGame`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from minichess.protocols.imcs.connection import Connection
from minichess.protocols.imcs.feed import Feed
from minichess.protocols.imcs.games import LiveGame, Seat, Timing
from minichess.protocols.imcs.house import HouseBot
from minichess.protocols.imcs.passwords import (
    DEFAULT_COST,
    HashCost,
    Throttle,
    hash_password,
    verify_password,
)
from minichess.protocols.imcs.protocol import DEFAULT_PORT, format_offer_time
from minichess.protocols.imcs.records import game_pgn
from minichess.protocols.imcs.store import GameRow, Store
from minichess.protocols.imcs.tournaments import Director
from minichess.variants import VariantDefinition

log = logging.getLogger("minichess.imcs")

COUNTERMANDED = "countermanded"
"""What an offer's answer is when it is withdrawn (``clean``, the server stopping)."""
BUSY_LINE = "503 server busy, come back later"
STOPPING_LINE = "503 server shutdown, come back later"


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/minichess/imcs.db`` (``~/.local/share/minichess/imcs.db``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "minichess" / "imcs.db"


@dataclass
class ServerConfig:
    """How the server runs. Times in milliseconds are the referee's; the defaults are the
    original server's."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    """0: any free port (see :attr:`ImcsServer.port`)."""
    db: str | Path | None = None
    """The SQLite file; None: :func:`default_db_path` (see :attr:`db_path`)."""
    admins: tuple[str, ...] = ()
    house_bots: tuple[int, ...] = ()
    """Levels of the house bots (one account and one open offer each)."""
    house_time_ms: tuple[int, int] = (300_000, 300_000)
    house_games: int = 2
    """Games each house bot plays at once at most."""
    timing: Timing = field(default_factory=Timing)
    max_line: int = 1024
    """Longest line read (bytes); longer ones are answered as bad input."""
    queue_lines: int = 64
    write_timeout: float = 30.0
    max_connections: int = 1000
    hash_cost: HashCost = DEFAULT_COST
    hash_threads: int = 2
    account_throttle: Throttle = field(default_factory=Throttle)
    """Slows down guessing the password of one account."""
    address_throttle: Throttle = field(default_factory=lambda: Throttle(free=25))
    """Slows down guessing from one address (more lenient: a class may share one)."""
    stop_grace: float = 60.0
    """Seconds games in progress get to finish when the server stops."""
    tournament_grace: float = 120.0
    """Default seconds a tournament player has to come to a game before forfeiting it."""

    @property
    def db_path(self) -> str | Path:
        """The SQLite file of the server's data."""
        return self.db or default_db_path()


@dataclass(eq=False)
class Offer:
    """An open offer: a logged-in connection waiting for an opponent."""

    id: int
    name: str
    color: str
    """``W``, ``B`` or ``?``: the offerer's colour."""
    my_ms: int
    opponent_ms: int
    variant: VariantDefinition
    conn: Connection
    answer: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop()
                                   .create_future())
    """Resolved with the LiveGame when the offer is taken, or COUNTERMANDED."""
    claimed: bool = False
    """Held for a tournament game of its player (not listed)."""
    taken: bool = False
    """Its game is starting: no one else may take or withdraw it."""


class ImcsServer:
    """An IMCS 2.5 server with ratings, observers, history, tournaments and house bots."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.feed = Feed()
        self._store: Store | None = None
        self.entries: dict[int, Offer | LiveGame] = {}
        """Open offers and games in progress by id, in the order ``list`` shows them."""
        self.sessions: set = set()
        self.stopping = False
        self.admins = set(self.config.admins)
        self.host: str = self.config.host
        """The address the server listens on (once started)."""
        self.port: int = self.config.port
        """The port the server listens on (once started: the one chosen for port 0)."""
        self._server: asyncio.Server | None = None
        self._hashing = ThreadPoolExecutor(self.config.hash_threads,
                                           thread_name_prefix="imcs-hash")
        self._key_locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._stopped = asyncio.Event()
        self._hurry = asyncio.Event()
        self._house: list[HouseBot] = []
        self.director = Director(self)

    # --- life ---------------------------------------------------------------------------------

    async def start(self, sock: socket.socket | None = None) -> None:
        """Open the database (recording games a crash interrupted as aborted), listen (on the
        configuration's address, or on ``sock``, a socket already bound), and start the house
        bots and the tournaments in progress."""
        self._store = Store(self.config.db_path)
        aborted = self.store.abort_unfinished("server stopped during the game")
        if aborted:
            log.warning("games in progress at the last stop recorded as aborted: %s",
                        ", ".join(map(str, aborted)))
        backlog = min(max(self.config.max_connections, 128), 4096)  # a crowd at once
        if sock is None:
            self._server = await asyncio.start_server(self._serve, self.config.host,
                                                      self.config.port, backlog=backlog)
        else:
            self._server = await asyncio.start_server(self._serve, sock=sock, backlog=backlog)
        self.host, self.port = self._server.sockets[0].getsockname()[:2]
        log.info("IMCS server listening on %s:%d (database %s)", self.host, self.port,
                 self.store.path)
        self.director.load()
        await self._start_house_bots()

    @property
    def store(self) -> Store:
        """The server's storage (once started)."""
        if self._store is None:
            raise RuntimeError("the server has not been started")
        return self._store

    async def serve_forever(self) -> None:
        """Wait until the server has stopped (by :meth:`stop` or the ``stop`` command)."""
        await self._stopped.wait()

    async def stop(self, grace: float | None = None, notify: Connection | None = None) -> None:
        """Stop: refuse new connections, countermand the offers, give games in progress
        ``grace`` seconds (default: the configuration's) to finish and record the others as
        aborted, then close every connection (after telling ``notify``: ``205 server
        stopped``) and the database. Called again while stopping, it ends the grace at once
        (a second Ctrl-C)."""
        if self.stopping:
            self._hurry.set()
            await self._stopped.wait()
            return
        self.stopping = True
        log.info("stopping")
        for bot in self._house:
            bot.stop()
        for offer in self.offers():
            self.withdraw(offer)
        self.director.stop()
        games = [entry.task for entry in self.entries.values()
                 if isinstance(entry, LiveGame) and entry.task is not None]
        if games:
            ended = asyncio.ensure_future(asyncio.wait(games))
            hurry = asyncio.ensure_future(self._hurry.wait())
            await asyncio.wait({ended, hurry}, return_when=asyncio.FIRST_COMPLETED,
                               timeout=self.config.stop_grace if grace is None else grace)
            ended.cancel()
            hurry.cancel()
        for task in games:
            task.cancel()
        await asyncio.gather(*games, return_exceptions=True)
        await asyncio.gather(*(bot.wait() for bot in self._house), return_exceptions=True)
        if notify is not None:
            await notify.send("205 server stopped")
        for session in list(self.sessions):
            session.conn.close()
        if self._server is not None:
            self._server.close()  # (not wait_closed: a session may be the one stopping)
        self._hashing.shutdown(wait=False)
        self.store.close()
        self._stopped.set()
        log.info("stopped")

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from minichess.protocols.imcs.session import Session

        conn = Connection(reader, writer, self.config.max_line, self.config.queue_lines,
                          self.config.write_timeout)
        if self.stopping or len(self.sessions) >= self.config.max_connections:
            await conn.send(STOPPING_LINE if self.stopping else BUSY_LINE)
            conn.close()
            await conn.wait_closed()
            return
        session = Session(self, conn)
        self.sessions.add(session)
        try:
            await session.run()
        except Exception:
            log.exception("session %s failed", conn.peer)
        finally:
            self.sessions.discard(session)
            conn.close()
            await conn.wait_closed()

    # --- accounts -----------------------------------------------------------------------------

    async def hash(self, password: str) -> str:
        """A salted slow hash of ``password`` (computed off the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hashing, hash_password, password,
                                          self.config.hash_cost)

    async def check_password(self, name: str, password: str, address: str) -> bool | None:
        """Whether ``password`` is ``name``'s (None: no such player). Guessing is slowed
        down per account and per address (see :class:`~.passwords.Throttle`)."""
        stored = self.store.password_hash(name)
        if stored is None:
            return None
        throttles = ((self.config.account_throttle, f"account:{name}"),
                     (self.config.address_throttle, f"address:{address}"))
        slowed = tuple(key for throttle, key in throttles if throttle.delay(key))
        async with self._locked(slowed):
            delay = max(throttle.delay(key) for throttle, key in throttles)
            if delay:
                await asyncio.sleep(delay)
            loop = asyncio.get_running_loop()
            right = await loop.run_in_executor(self._hashing, verify_password, password, stored)
        for throttle, key in throttles:
            if not right:
                throttle.failed(key)
            elif throttle is self.config.account_throttle:
                throttle.succeeded(key)
        return right

    @contextlib.asynccontextmanager
    async def _locked(self, keys: tuple[str, ...]):
        """Hold a lock per key (in order), so that attempts on one key run one at a time."""
        held: list[str] = []
        acquired: list[asyncio.Lock] = []
        try:
            for key in sorted(keys):
                lock, users = self._key_locks.get(key, (asyncio.Lock(), 0))
                self._key_locks[key] = (lock, users + 1)
                held.append(key)
                await lock.acquire()
                acquired.append(lock)
            yield
        finally:
            for lock in acquired:
                lock.release()
            for key in held:
                lock, users = self._key_locks[key]
                if users <= 1:
                    del self._key_locks[key]
                else:
                    self._key_locks[key] = (lock, users - 1)

    async def ensure_account(self, name: str, password: str | None = None) -> str | None:
        """Make sure the player ``name`` exists; with ``password``, set it. The password
        made up for a new account without one (None if the account was there)."""
        if self.store.password_hash(name) is not None:
            if password is not None:
                self.store.set_password(name, await self.hash(password))
            return None
        made_up = password or secrets.token_urlsafe(12)
        self.store.add_player(name, await self.hash(made_up))
        return made_up

    # --- offers and games ---------------------------------------------------------------------

    def offers(self) -> list[Offer]:
        """The open offers, oldest first."""
        return [entry for entry in self.entries.values() if isinstance(entry, Offer)]

    def live_games(self) -> list[LiveGame]:
        """The games in progress, oldest first."""
        return [entry for entry in self.entries.values() if isinstance(entry, LiveGame)]

    def add_offer(self, offer: Offer) -> None:
        """Open ``offer``: listed, unless a tournament game of its player takes it."""
        self.entries[offer.id] = offer
        if self.stopping:
            self.withdraw(offer)
        else:
            self.director.offer_made(offer)

    def withdraw(self, offer: Offer) -> None:
        """Take ``offer`` back (countermanded, or its player went away), unless its game is
        already starting."""
        if offer.taken:
            return
        self.entries.pop(offer.id, None)
        self.director.offer_withdrawn(offer)
        if not offer.answer.done():
            offer.answer.set_result(COUNTERMANDED)

    def clean(self, name: str) -> int:
        """Countermand every open offer of ``name``; how many there were."""
        mine = [offer for offer in self.offers() if offer.name == name and not offer.claimed]
        for offer in mine:
            self.withdraw(offer)
        return len(mine)

    async def start_game(self, game_id: int, variant: VariantDefinition, white: Seat,
                         black: Seat, announce: list[tuple[Connection, str]],
                         offers: tuple[Offer, ...] = (), tournament: int | None = None,
                         round_number: int | None = None,
                         on_end: Callable[[GameRow], None] | None = None) -> LiveGame:
        """Send the start lines ``announce`` (in order), then start refereeing; the offers
        the game came from learn of it. ``on_end`` gets the result of a game that ends (not
        one aborted) before its players do."""
        for conn, line in announce:
            await conn.send(line)
        game = LiveGame(game_id, variant, white, black, self.store, self.feed,
                        self.config.timing, tournament, round_number)
        game.on_end = on_end
        for offer in offers:
            self.entries.pop(offer.id, None)
        self.entries[game_id] = game
        task = game.start()
        task.add_done_callback(lambda _: self.entries.pop(game_id, None))
        for offer in offers:
            if not offer.answer.done():
                offer.answer.set_result(game)
        log.info("game %d begins: %s (W, %s) vs %s (B, %s), %s", game_id, white.name,
                 format_offer_time(white.clock_ms), black.name, format_offer_time(black.clock_ms),
                 variant.name)
        return game

    def pgn(self, game_id: int) -> str | None:
        """The stored game ``game_id`` as PGN (None if there is none)."""
        return game_pgn(self.store, game_id, site=f"IMCS {self.host}:{self.port}")

    # --- house bots ---------------------------------------------------------------------------

    async def _start_house_bots(self) -> None:
        for level in self.config.house_bots:
            name = f"house-{level}"
            password = secrets.token_urlsafe(16)
            await self.ensure_account(name, password)
            bot = HouseBot(name, password, level, "127.0.0.1" if self.host in ("0.0.0.0", "::")
                           else self.host, self.port, self.config.house_time_ms,
                           self.config.house_games)
            bot.start()
            self._house.append(bot)

