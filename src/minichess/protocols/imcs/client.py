"""An asyncio client of any IMCS 2.5 server, and the game loop that plays a
:class:`~minichess.players.Player` (the engine at any level, an external UCI engine, a
person) through it.

    client = await ImcsClient.connect("127.0.0.1", 3589)
    await client.login("alice", "secret", register=True)
    game_id = await client.offer("W", 300, 300)
    start = await client.wait_for_start()
    report = await client.play(start, player_chooser(EnginePlayer(level=5)), game_id=game_id)

The game loop keeps its own board, reads the opponent's moves (``! a2-a3``), and on each
prompt compares its board with the server's state block (taking the server's if they differ),
reads both clocks from the ``?`` line and asks the chooser for a move. The engine is given the
clock the server reports, less a margin for the network, so it never loses on time; a chooser
that fails or returns an illegal move is replaced by a random legal move for that turn. Lines
the loop does not know are skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

from minichess.board import Board
from minichess.errors import MinichessError
from minichess.game import Game, TimeControl
from minichess.move import Move
from minichess.notation.massey import format_state, parse_state
from minichess.pieces import BLACK, WHITE, Color
from minichess.players import EnginePlayer, Player
from minichess.protocols.imcs.protocol import (
    CAUSES,
    EOL,
    decode,
    move_text,
    parse_clock,
)
from minichess.variants import VariantDefinition, get_variant

log = logging.getLogger("minichess.imcs.client")

NETWORK_MARGIN = 0.25
"""Seconds kept back from the clock for the network and the server."""
STOP_WAIT = 30.0
"""Seconds to wait for a player still thinking when its game has ended."""
_STATE_HEADER = re.compile(r"^\d+ [WB]$")
_RESULT = re.compile(r"^(230|231|232) (.*)$")
_OFFER = re.compile(
    r"^ (\d+) (\S+) ([WB?]) (\d+:\d\d) (\d+:\d\d) (\S+) \[offer\](?: variant=(\S+))?$")
_TOURNAMENT = re.compile(r"^ (\d+) (\S+) (\S+) (\S+) (\S+) (\w+) round (\d+)/(\d+) (\d+) players$")
_IN_PROGRESS = re.compile(r"^ (\d+) (\S+) (\S+) \((\S+)/(\S+)\)\s+\[in-progress\]$")


class ImcsError(MinichessError):
    """The server refused a request or broke the protocol: the message quotes its line."""

    def __init__(self, message: str, line: str | None = None) -> None:
        super().__init__(message)
        self.line = line

    @property
    def code(self) -> str | None:
        """The reply's code (``401``), if the server sent one."""
        return self.line.split()[0] if self.line and self.line[:1].isdigit() else None


class ConnectionClosed(ImcsError):
    """The server closed the connection."""


class OfferCountermanded(ImcsError):
    """An offer was withdrawn before anyone took it (``421``)."""


@dataclass(frozen=True)
class ListedOffer:
    """An offer in a ``list`` reply."""

    id: int
    name: str
    color: str
    my_ms: int
    opponent_ms: int
    rating: str
    variant: str = "minitchess"


@dataclass(frozen=True)
class ListedGame:
    """A game in progress in a ``list`` reply."""

    id: int
    white: str
    black: str
    white_rating: str
    black_rating: str


@dataclass(frozen=True)
class ListedTournament:
    """A tournament in a ``tournaments`` reply (our server's)."""

    id: int
    name: str
    format: str
    variant: str
    time: str
    status: str
    """``open``, ``running``, ``finished`` or ``cancelled``."""
    round: int
    rounds: int
    players: int


@dataclass(frozen=True)
class GameStart:
    """``105 W 5:00 5:00 game starts``: one's colour and the clocks."""

    color: Color
    own_ms: int
    opponent_ms: int


@dataclass
class GameReport:
    """How a game went, from the client's side."""

    game_id: int | None
    color: Color
    variant: str
    game: Game
    """The moves, with players and result in its headers."""
    result: str = "*"
    """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` when it was aborted."""
    text: str = ""
    """The server's words: ``W wins on opponent time``, ``draw``, ``game aborted: ...``."""
    complaints: list[str] = field(default_factory=list)
    """``- illegal move`` / ``- invalid move`` replies to our moves (none, normally)."""

    @property
    def score(self) -> float | None:
        """1, 1/2 or 0 for us; None if aborted."""
        if self.result == "1/2-1/2":
            return 0.5
        if self.result not in ("1-0", "0-1"):
            return None
        return 1.0 if (self.result == "1-0") == (self.color == WHITE) else 0.0


Chooser = Callable[["ServerClocks"], Awaitable[Move | None]]
"""Chooses a move for the position of a game (None: resign)."""


class ServerClocks:
    """A view of the client's game whose clocks are those the server's ``?`` line gave
    (one's own less ``margin`` seconds), for players that read clocks from a Game."""

    def __init__(self, game: Game, color: Color, own_ms: int, opponent_ms: int,
                 initial_ms: int, margin: float = NETWORK_MARGIN) -> None:
        self._game = game
        own = max(own_ms / 1000 - margin, 0.001)
        self._remaining = {color: own, not color: opponent_ms / 1000}
        self.clock = TimeControl(max(initial_ms / 1000, 0.001))

    def remaining(self, color: Color) -> float:
        """Seconds on ``color``'s clock."""
        return self._remaining[color]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def player_chooser(player: Player) -> Chooser:
    """A chooser that runs ``player.choose_move`` in a thread (the engine's search releases
    the interpreter, so the connection stays served meanwhile). When the game ends while the
    player thinks, the engine is stopped and the thread waited for, so that the player is
    free for the next game."""

    async def choose(view: ServerClocks) -> Move | None:
        thinking = asyncio.ensure_future(asyncio.to_thread(player.choose_move, cast(Game, view)))
        try:
            return await asyncio.shield(thinking)
        except asyncio.CancelledError:
            if isinstance(player, EnginePlayer):
                player.engine.stop()
            await asyncio.wait({thinking}, timeout=STOP_WAIT)
            raise

    return choose


class ImcsClient:
    """A connection to an IMCS server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 greeting: str, host: str = "", port: int = 0) -> None:
        self._reader = reader
        self._writer = writer
        self.greeting = greeting
        self.host = host
        self.port = port
        self.name: str | None = None

    @classmethod
    async def connect(cls, host: str, port: int, timeout: float = 10.0) -> ImcsClient:
        """Connect and read the greeting (``100 imcs 2.5``)."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, limit=1 << 20), timeout)
        except (TimeoutError, OSError) as error:
            raise ImcsError(f"cannot connect to {host}:{port}: {error or 'timed out'}") from None
        client = cls(reader, writer, "", host, port)
        greeting = await client.read_line(timeout)
        if not greeting.startswith("100 "):
            client.close()
            raise ImcsError(f"{host}:{port} is not an IMCS server: {greeting!r}", greeting)
        client.greeting = greeting
        return client

    # --- lines --------------------------------------------------------------------------------

    async def read_line(self, timeout: float | None = None) -> str:
        """The next line without its end (``\\r\\n`` or ``\\n``)."""
        try:
            raw = await asyncio.wait_for(self._reader.readline(), timeout)
        except TimeoutError:
            raise ImcsError(f"no answer from the server in {timeout:g} seconds") from None
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(f"connection lost: {error}") from None
        if not raw:
            raise ConnectionClosed("the server closed the connection")
        return decode(raw).rstrip("\r\n")

    async def send(self, line: str) -> None:
        """Send one line."""
        try:
            self._writer.write((line + EOL).encode())
            await self._writer.drain()
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(f"connection lost: {error}") from None

    async def request(self, line: str, timeout: float = 30.0) -> str:
        """Send a command and return the first line of the reply."""
        await self.send(line)
        return await self.read_line(timeout)

    async def request_lines(self, line: str, expected: str, timeout: float = 30.0
                            ) -> tuple[str, list[str]]:
        """Send a command whose reply has several lines (code ``expected``): its first line
        and the lines up to the final ``.``."""
        header = await self.request(line, timeout)
        if not header.startswith(expected + " "):
            raise ImcsError(f"{line.split()[0]}: {header}", header)
        rows = []
        while (row := await self.read_line(timeout)) != ".":
            rows.append(row[1:] if row.startswith("..") else row)
        return header, rows

    def close(self) -> None:
        """Close the connection."""
        self._writer.close()

    async def quit(self) -> None:
        """Say goodbye and close."""
        with contextlib.suppress(ImcsError):
            await self.request("quit", timeout=5)
        self.close()

    # --- commands -----------------------------------------------------------------------------

    async def login(self, name: str, password: str, register: bool = False) -> None:
        """Log in as ``name``; with ``register``, register the name first if it is new."""
        reply = await self.request(f"me {name} {password}")
        if reply.startswith("400") and register:
            reply = await self.request(f"register {name} {password}")
        if not reply.startswith(("201 ", "202 ")):
            raise ImcsError(f"cannot log in as {name}: {reply}", reply)
        self.name = name

    async def list_games(self, every_variant: bool = False
                         ) -> tuple[list[ListedOffer], list[ListedGame]]:
        """The open offers and the games in progress."""
        _, rows = await self.request_lines("list all" if every_variant else "list", "211")
        offers, games = [], []
        for row in rows:
            if match := _OFFER.match(row):
                offers.append(ListedOffer(int(match[1]), match[2], match[3],
                                          _offer_ms(match[4]), _offer_ms(match[5]), match[6],
                                          match[7] or "minitchess"))
            elif match := _IN_PROGRESS.match(row):
                games.append(ListedGame(int(match[1]), *match.groups()[1:]))
        return offers, games

    async def ratings(self, variant: str | None = None) -> list[tuple[str, int]]:
        """(name, rating): the top ten, and one's own."""
        command = "ratings" if variant is None else f"ratings variant={variant}"
        _, rows = await self.request_lines(command, "212")
        table = []
        for row in rows:
            name, _, rating = row.strip().rpartition(" ")
            if rating.lstrip("-").isdigit():
                table.append((name, int(rating)))
        return table

    async def tournaments(self) -> list[ListedTournament]:
        """The tournaments (a server of ours; ImcsError from another)."""
        _, rows = await self.request_lines("tournaments", "218")
        listed = []
        for row in rows:
            if match := _TOURNAMENT.match(row):
                number, name, form, variant, time, status, *counts = match.groups()
                listed.append(ListedTournament(int(number), name, form, variant, time, status,
                                               *map(int, counts)))
        return listed

    async def offer(self, color: str = "?", my_seconds: int | None = None,
                    opponent_seconds: int | None = None, variant: str | None = None) -> int:
        """Offer a game; its id. Then :meth:`wait_for_start`."""
        words = ["offer", color]
        if my_seconds is not None:
            words.append(str(my_seconds))
            if opponent_seconds is not None:
                words.append(str(opponent_seconds))
        if variant is not None and get_variant(variant).name != "minitchess":
            words.append(f"variant={get_variant(variant).name}")
        reply = await self.request(" ".join(words))
        match = re.match(r"^103 (\d+) ", reply)
        if match is None:
            raise ImcsError(f"offer refused: {reply}", reply)
        return int(match[1])

    async def wait_for_start(self, timeout: float | None = None) -> GameStart:
        """Wait until someone accepts the offer (or a tournament game starts)."""
        while True:
            line = await self.read_line(timeout)
            start = _start(line)
            if start is not None:
                return start
            if line.startswith("421"):
                raise OfferCountermanded("the offer was countermanded", line)

    async def accept(self, game_id: int, color: str | None = None,
                     variant: str | None = None) -> GameStart:
        """Accept the offer ``game_id``."""
        words = ["accept", str(game_id)]
        if color is not None:
            words.append(color)
        if variant is not None and get_variant(variant).name != "minitchess":
            words.append(f"variant={get_variant(variant).name}")
        reply = await self.request(" ".join(words))
        start = _start(reply)
        if start is None:
            raise ImcsError(f"cannot accept game {game_id}: {reply}", reply)
        return start

    # --- playing ------------------------------------------------------------------------------

    async def play(self, start: GameStart, choose: Chooser,
                   variant: str | VariantDefinition = "minitchess", game_id: int | None = None,
                   opponent: str | None = None, on_line: Callable[[str], None] | None = None
                   ) -> GameReport:
        """Play the game that ``start`` began until the server ends it."""
        definition = get_variant(variant)
        names = {start.color: self.name or "?", not start.color: opponent or "?"}
        headers = {"Event": f"IMCS game {game_id}" if game_id is not None else "IMCS game",
                   "Site": f"IMCS {self.host}:{self.port}",
                   "Date": datetime.datetime.now(datetime.UTC).strftime("%Y.%m.%d"),
                   "White": names[WHITE], "Black": names[BLACK]}
        if start.own_ms == start.opponent_ms:
            headers["TimeControl"] = str(start.own_ms // 1000)
        return await _GameLoop(self, start, choose, definition, game_id, headers,
                               on_line).run()


class _GameLoop:
    def __init__(self, client: ImcsClient, start: GameStart, choose: Chooser,
                 variant: VariantDefinition, game_id: int | None, headers: dict[str, str],
                 on_line: Callable[[str], None] | None) -> None:
        self.client = client
        self.start = start
        self.choose = choose
        self.variant = variant
        self.report = GameReport(game_id, start.color, variant.name,
                                 Game(variant, headers=headers))
        self.on_line = on_line or (lambda line: None)
        self.state: str | None = None
        self.moved = False
        self.rejected: set[Move] = set()
        """Our moves the server refused in this position."""

    @property
    def game(self) -> Game:
        return self.report.game

    async def run(self) -> GameReport:
        pending: asyncio.Future[str] | None = None
        while True:
            line = await (pending or self.client.read_line())
            pending = None
            self.on_line(line)
            if line.startswith("! "):
                self._opponent_moved(line[2:].strip())
            elif _STATE_HEADER.match(line):
                await self._read_state(line)
            elif line.startswith("? "):
                pending = await self._turn(line)
            elif line.startswith("- "):
                self.report.complaints.append(line)
                if self.moved:
                    self.rejected.add(self.game.pop())
                    self.moved = False
            elif line.startswith("= "):
                self.report.text = line[2:]
            elif match := _RESULT.match(line):
                self._finish(match[1], match[2])
                return self.report
            elif line.startswith("X"):
                self.report.text = line[1:].strip()
                self.game.headers["Result"] = "*"
                self.game.headers["Termination"] = "aborted"
                return self.report

    def _opponent_moved(self, text: str) -> None:
        self.moved = False
        self.rejected.clear()
        try:
            self.game.push(self.game.board.parse_uci(text))
        except MinichessError as error:
            log.warning("cannot follow the opponent's move %s (%s); waiting for the state",
                        text, error)

    async def _read_state(self, header: str) -> None:
        rows = []
        for _ in range(self.variant.ranks + self.variant.has_reserves):
            rows.append(await self.client.read_line())
            self.on_line(rows[-1])
        self.state = "\n".join([header, *rows]) + "\n"

    async def _turn(self, line: str) -> asyncio.Future[str] | None:
        """Answer a prompt; a line that came meanwhile (the game ended while we thought)."""
        self.moved = False
        own_ms, opponent_ms = (parse_clock(text) for text in line.split()[1:3])
        self._check_state()
        board = self.game.board
        view = ServerClocks(self.game, board.turn, own_ms, opponent_ms,
                            max(self.start.own_ms, self.start.opponent_ms))
        choice = asyncio.ensure_future(self._choose(view))
        incoming = asyncio.ensure_future(self.client.read_line())
        done, _ = await asyncio.wait({choice, incoming}, return_when=asyncio.FIRST_COMPLETED)
        if choice not in done:
            choice.cancel()
            return incoming
        move = choice.result()
        if move is None:
            await self.client.send("resign")
        else:
            await self.client.send(move_text(move, self.variant))
            self.game.push(move)
            self.moved = True
        return incoming

    async def _choose(self, view: ServerClocks) -> Move | None:
        board = self.game.board
        try:
            move = await self.choose(view)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a broken player must not lose the game by itself
            log.warning("the player failed (%s); playing a random move", error)
            move = random.choice(board.legal_moves)
        if move is not None and (not board.is_legal(move) or move in self.rejected):
            log.warning("the player chose %s, which is illegal here; playing a random move",
                        move)
            allowed = [m for m in board.legal_moves if m not in self.rejected]
            move = random.choice(allowed) if allowed else None
        return move

    def _check_state(self) -> None:
        """Take the server's position if ours differs from it."""
        if self.state is None or format_state(self.game.board) == self.state:
            return
        log.warning("our board differs from the server's; taking the server's position")
        board = Board(self.variant)
        board.set_setup(parse_state(self.variant, self.state))
        headers = dict(self.game.headers, SetUp="1")
        self.report.game = Game(self.variant, board.fen(), headers=headers)

    def _finish(self, code: str, text: str) -> None:
        self.report.text = text
        winner = None if code == "230" else WHITE if code == "231" else BLACK
        self.report.result = "1/2-1/2" if winner is None else "1-0" if winner == WHITE else "0-1"
        game = self.game
        if game.is_game_over():
            return
        cause = next((cause for cause in CAUSES if text.endswith(f"on opponent {cause}")), None)
        if winner is not None and cause is not None:
            ending = {"resignation": game.resign, "time": game.forfeit_on_time,
                      "disconnect": game.forfeit}[cause]
            ending(not winner)
        else:
            game.headers["Result"] = self.report.result


def _start(line: str) -> GameStart | None:
    match = re.match(r"^(105 W|106 B) (\d+:\d\d) (\d+:\d\d) game starts", line)
    if match is None:
        return None
    color = WHITE if match[1] == "105 W" else BLACK
    return GameStart(color, _offer_ms(match[2]), _offer_ms(match[3]))


def _offer_ms(text: str) -> int:
    minutes, _, seconds = text.partition(":")
    return (int(minutes) * 60 + int(seconds)) * 1000

