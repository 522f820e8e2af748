"""A game on the server: the referee between two connections, with the original's clocks.

Each turn the side to move gets its prompt (:func:`~.protocol.turn_prompt`) and the server
waits for its line. White's first move is free: not charged, but it must come within the
first-move limit (60 s). Every other line is charged the time from its prompt to its arrival;
a line that arrives after the clock ran out loses on time, and a silent side loses on time
when its clock has been out for the flag grace (10 s). An illegal or unreadable move is
answered (``- illegal move a1-a6``) and the prompt comes again, the clock still running.

A legal move is stored, then the opponent gets ``! a2-a3``; at the end the result and the new
ratings are stored, then both sides get the two result lines (the side whose turn it was first)
and their connections close. A side that closes its connection loses at once ``on opponent
disconnect`` (while it is the other side's turn too, unless it still has lines waiting).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from minichess.board import Board
from minichess.move import Move
from minichess.notation.massey import format_state
from minichess.outcome import Termination
from minichess.pieces import BLACK, WHITE, Color
from minichess.protocols.imcs.connection import EOF, Connection
from minichess.protocols.imcs.feed import Feed, GameEnded, GameStarted, MovePlayed, RatingsChanged
from minichess.protocols.imcs.protocol import (
    DISCONNECT,
    RESIGNATION,
    TIME,
    IllegalMove,
    InvalidMove,
    MoveInput,
    OverlongLine,
    Resign,
    color_letter,
    end_lines,
    move_text,
    read_move,
    turn_prompt,
)
from minichess.protocols.imcs.store import ABORTED, GameRow, MoveRow, Store
from minichess.variants import VariantDefinition

log = logging.getLogger("minichess.imcs")

_TERMINATIONS = {
    RESIGNATION: Termination.RESIGNATION.value,
    TIME: Termination.TIME_FORFEIT.value,
    DISCONNECT: Termination.FORFEIT.value,
}
ABORT_LINE = "X game aborted: {reason}"
"""What both players get when the server stops their game (the original's fatal-error line
also starts with ``X``)."""


@dataclass
class Seat:
    """A player in a game: name, connection and clock (milliseconds left)."""

    name: str
    conn: Connection
    clock_ms: int


@dataclass(frozen=True)
class Timing:
    """The referee's time limits, in milliseconds."""

    first_move_ms: int = 60_000
    """How long White's first (free) move may take."""
    flag_grace_ms: int = 10_000
    """How long after its clock ran out a silent side is declared lost."""


class _Timeout:
    pass


class _OpponentGone:
    pass


TIMEOUT = _Timeout()
OPPONENT_GONE = _OpponentGone()


def result_text(winner: Color | None) -> str:
    """``1-0``, ``0-1`` or ``1/2-1/2``."""
    return "1/2-1/2" if winner is None else "1-0" if winner == WHITE else "0-1"


class LiveGame:
    """A game in progress between ``white`` and ``black``; :meth:`run` referees it and
    returns the stored, finished game."""

    def __init__(self, game_id: int, variant: VariantDefinition, white: Seat, black: Seat,
                 store: Store, feed: Feed, timing: Timing = Timing(),
                 tournament: int | None = None, round_number: int | None = None) -> None:
        self.id = game_id
        self.variant = variant
        self.seats = {WHITE: white, BLACK: black}
        self.store = store
        self.feed = feed
        self.timing = timing
        self.tournament = tournament
        self.round = round_number
        self.board = Board(variant)
        self.started = time.time()
        self.moves: list[str] = []
        self.task: asyncio.Task[GameRow] | None = None
        self.on_end: Callable[[GameRow], None] | None = None
        """Called with the stored result of a game that ended (not aborted) before the players
        hear of it (a tournament's next round is paired by then)."""
        self.state = format_state(self.board)
        """Massey's state text of the position now."""
        self._first_move = True
        self._mover: Color = WHITE
        self._running: tuple[Color, float] | None = None
        """The side whose clock runs and when its prompt went out (``time.monotonic()``); None
        during White's free first move and between a move and the next prompt."""
        self._relayed: dict[Color, list[str]] = {WHITE: [], BLACK: []}
        """Lines for a side that go out with the next lines it gets (``! a2-a3`` goes out with
        the prompt that follows it: one write)."""

    @property
    def white(self) -> Seat:
        """White's seat."""
        return self.seats[WHITE]

    @property
    def black(self) -> Seat:
        """Black's seat."""
        return self.seats[BLACK]

    def start(self) -> asyncio.Task[GameRow]:
        """Record the game and start refereeing it in a task."""
        self.store.start_game(GameRow(self.id, self.variant.name, self.white.name,
                                      self.black.name, self.white.clock_ms, self.black.clock_ms,
                                      self.started, tournament=self.tournament,
                                      round=self.round))
        self.feed.publish(GameStarted(
            self.id, self.variant.name, self.white.name, self.black.name,
            self.store.rating(self.white.name, self.variant.name),
            self.store.rating(self.black.name, self.variant.name),
            self.white.clock_ms, self.black.clock_ms, self.board.fen(), self.state,
            self.tournament, self.round))
        self.task = asyncio.ensure_future(self.run())
        return self.task

    async def run(self) -> GameRow:
        """Referee until the game ends; a cancelled game is recorded as aborted."""
        try:
            while True:
                ending = await self._turn()
                if ending is not None:
                    return await self._finish(*ending)
        except asyncio.CancelledError:
            await self._abort("server shutdown")
            raise
        except Exception:
            log.exception("game %d failed", self.id)
            return await self._abort("server error")

    # --- turns --------------------------------------------------------------------------------

    async def _turn(self) -> tuple[Color | None, str, str | None] | None:
        """One prompt and the line that answers it; the end (winner, termination, cause) if
        the game ended."""
        color = self._mover = self.board.turn
        mover, other = self.seats[color], self.seats[not color]
        prompt = turn_prompt(self.state, mover.clock_ms, other.clock_ms)
        if not await mover.conn.send(*self._take_relayed(color), *prompt):
            return self._loss(color, DISCONNECT)
        started = time.monotonic()
        self._running = None if self._first_move else (color, started)
        limit = self.timing.first_move_ms if self._first_move else (
            mover.clock_ms + self.timing.flag_grace_ms)
        line = await self._wait_line(mover.conn, other.conn, limit / 1000)
        used = 0 if self._first_move else round((time.monotonic() - started) * 1000)
        self._running = None
        mover.clock_ms = max(mover.clock_ms - used, 0)
        if line is OPPONENT_GONE:
            return self._loss(not color, DISCONNECT)
        if line is TIMEOUT or (not self._first_move and mover.clock_ms == 0):
            return self._loss(color, TIME)
        if line is EOF:
            return self._loss(color, DISCONNECT)
        answer: MoveInput
        if isinstance(line, OverlongLine):
            answer = InvalidMove(line.head.decode("utf-8", "surrogateescape"))
        else:
            answer = read_move(self.board, line)
        if isinstance(answer, Resign):
            return self._loss(color, RESIGNATION)
        if isinstance(answer, IllegalMove | InvalidMove):
            await mover.conn.send(answer.reply())
            return None
        return await self._play(answer, used)

    async def _play(self, move: Move, used: int
                    ) -> tuple[Color | None, str, str | None] | None:
        text = move_text(move, self.variant)
        san = self.board.san(move) if self.feed.subscribers else ""
        self.board.push(move)
        self.state = format_state(self.board)
        self._first_move = False
        self.moves.append(text)
        self.store.add_move(self.id, MoveRow(len(self.moves), text, used, self.white.clock_ms,
                                             self.black.clock_ms))
        if self.feed.subscribers:  # the SAN and the FEN only for someone who reads them
            self.feed.publish(MovePlayed(self.id, len(self.moves), text, san, self.board.fen(),
                                         self.state, self.white.clock_ms, self.black.clock_ms,
                                         move.uci()))
        self._relayed[self.board.turn].append(f"! {text}")
        outcome = self.board.outcome()
        if outcome is None:
            return None
        return outcome.winner, outcome.termination.value, None

    def _loss(self, loser: Color, cause: str) -> tuple[Color | None, str, str | None]:
        return (not loser), _TERMINATIONS[cause], cause

    async def _wait_line(self, conn: Connection, other: Connection, timeout: float):
        """The mover's next line; TIMEOUT after ``timeout`` seconds; OPPONENT_GONE as soon as
        the other side has closed its connection and has no line left to read."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        line = asyncio.ensure_future(conn.next_line())
        try:
            while True:
                if other.gone:
                    return OPPONENT_GONE
                watched: set[asyncio.Future[Any]] = {line}
                watch = None if other.eof.is_set() else asyncio.ensure_future(other.eof.wait())
                if watch is not None:
                    watched.add(watch)
                done, _ = await asyncio.wait(watched, timeout=max(end - loop.time(), 0),
                                             return_when=asyncio.FIRST_COMPLETED)
                if watch is not None:
                    watch.cancel()
                if line in done:
                    return line.result()
                if not done:
                    return TIMEOUT
        finally:
            line.cancel()

    # --- the end ------------------------------------------------------------------------------

    async def _finish(self, winner: Color | None, termination: str, cause: str | None
                      ) -> GameRow:
        result = result_text(winner)
        announce, code_line = end_lines(winner, cause)
        row = self.store.finish_game(self.id, result, termination, announce[2:], rated=True)
        self._publish_end(row, (announce, code_line))
        if self.on_end is not None:
            self.on_end(row)
        for side in (self._mover, not self._mover):  # the side whose turn it was first
            await self.seats[side].conn.send(*self._take_relayed(side), announce, code_line)
        self._close()
        log.info("game %d: %s %s %s (%s)", self.id, self.white.name, result, self.black.name,
                 announce[2:])
        return row

    async def _abort(self, reason: str) -> GameRow:
        row = self.store.finish_game(self.id, "*", ABORTED, f"aborted: {reason}", rated=False)
        self._publish_end(row, ())
        for seat in self.seats.values():
            await seat.conn.send(ABORT_LINE.format(reason=reason))
        self._close()
        log.info("game %d aborted: %s", self.id, reason)
        return row

    def _take_relayed(self, color: Color) -> list[str]:
        lines, self._relayed[color] = self._relayed[color], []
        return lines

    def _publish_end(self, row: GameRow, lines: tuple[str, ...]) -> None:
        white_rating = (row.white_rating or 0) + (row.white_change or 0)
        black_rating = (row.black_rating or 0) + (row.black_change or 0)
        self.feed.publish(GameEnded(self.id, row.result or "*", row.termination or "",
                                    row.reason or "", lines, white_rating, black_rating,
                                    *self.clocks()))
        if row.white_change or row.black_change:
            self.feed.publish(RatingsChanged(row.variant, {row.white: white_rating,
                                                           row.black: black_rating}))

    def _close(self) -> None:
        for seat in self.seats.values():
            seat.conn.close()

    # --- for observers ------------------------------------------------------------------------

    def clocks(self) -> tuple[int, int]:
        """(White's, Black's) milliseconds left, as of the last move."""
        return self.white.clock_ms, self.black.clock_ms

    def running_clock(self) -> tuple[Color, int] | None:
        """The side whose clock runs now and the milliseconds it has used on this turn; None
        while no clock runs (White's free first move, the moment between a move and the next
        prompt, the end)."""
        if self._running is None:
            return None
        color, since = self._running
        return color, round((time.monotonic() - since) * 1000)

    def to_dict(self) -> dict:
        """The game as it stands, JSON-ready (for a board that starts watching mid-game):
        ``white_ms`` and ``black_ms`` as of the last move, ``running`` the side whose clock has
        been running for ``elapsed_ms`` since."""
        running = self.running_clock()
        return {"game_id": self.id, "variant": self.variant.name, "white": self.white.name,
                "black": self.black.name, "moves": list(self.moves), "fen": self.board.fen(),
                "state": self.state, "turn": color_letter(self.board.turn),
                "white_ms": self.white.clock_ms, "black_ms": self.black.clock_ms,
                "running": None if running is None else color_letter(running[0]),
                "elapsed_ms": 0 if running is None else running[1], "started": self.started,
                "tournament": self.tournament, "round": self.round}
