"""A game: a board with its move record in SAN, PGN headers, and optional chess clocks.

>>> game = Game("antichess", clock=TimeControl(300, increment=2))
>>> game.push("e3", seconds=4.5)
Move.from_uci('e2e3')
>>> game.remaining(WHITE)
297.5
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from minichess.board import Board
from minichess.errors import IllegalMoveError, MinichessError
from minichess.move import Move
from minichess.outcome import Outcome, Termination
from minichess.pieces import BLACK, WHITE, Color
from minichess.variants import VariantDefinition, get_variant

_TIME_CONTROL = re.compile(r"^(?P<base>[\d.:]+)(?:\+(?P<increment>\d+(?:\.\d+)?))?$")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")


@dataclass(frozen=True)
class TimeControl:
    """Seconds each player has for the whole game, and seconds added after each of its moves."""

    initial: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not self.initial > 0:
            raise MinichessError(f"a clock needs a positive time, not {self.initial} seconds")
        if not self.increment >= 0:
            raise MinichessError(f"the increment cannot be negative ({self.increment} seconds)")

    @classmethod
    def default_for(cls, variant: str | VariantDefinition) -> TimeControl | None:
        """The clock the rules of ``variant`` give (antichess: 5 minutes); None if none."""
        seconds = get_variant(variant).default_clock
        return None if seconds is None else cls(seconds)

    def __str__(self) -> str:
        """The PGN ``TimeControl`` form: ``300``, or ``300+2`` with an increment."""
        base = _seconds_text(self.initial)
        return f"{base}+{_seconds_text(self.increment)}" if self.increment else base


def parse_time_control(text: str) -> TimeControl:
    """Read ``300`` (seconds), ``5:00`` (minutes:seconds, also ``1:30:00``), each optionally with
    ``+`` an increment in seconds: ``10+0.1``, ``5:00+2``."""
    match = _TIME_CONTROL.match(text.strip())
    parts = match["base"].split(":") if match else []
    if not match or len(parts) > 3 or not all(_NUMBER.match(part) for part in parts):
        raise MinichessError(
            f"cannot read time control {text!r}: expected seconds (300) or minutes:seconds"
            " (5:00), optionally + an increment in seconds (10+0.1, 5:00+2)"
        )
    initial = 0.0
    for part in parts:
        initial = initial * 60 + float(part)
    return TimeControl(initial, float(match["increment"] or 0))


class Game:
    """A game of ``variant`` from ``fen`` (its start position when None).

    With a ``clock`` each side has its own remaining time: a move's time is deducted from the
    mover's clock and then the increment is added. A side whose time runs out loses.
    ``headers`` are PGN tag pairs (``{"White": "...", "Event": "..."}``).

    Play through :meth:`push` and :meth:`pop`, not on ``board`` directly, so that the record
    and the clocks follow.
    """

    def __init__(
        self,
        variant: str | VariantDefinition = "minitchess",
        fen: str | None = None,
        clock: TimeControl | None = None,
        headers: dict[str, str] | None = None,
    ):
        self.board = Board(variant, fen)
        self.start_fen: str = self.board.fen()
        self.clock = clock
        self.headers: dict[str, str] = dict(headers or {})
        self._sans: list[str] = []
        self._clock_log: list[tuple[float, float]] = []
        self._remaining = {WHITE: clock.initial, BLACK: clock.initial} if clock else {}
        self._ending: Outcome | None = None
        self._turn_started = time.monotonic()

    @property
    def variant(self) -> VariantDefinition:
        """The variant played."""
        return self.board.variant

    @property
    def moves(self) -> list[Move]:
        """The moves played, in order."""
        return list(self.board.move_stack)

    @property
    def san_moves(self) -> list[str]:
        """The moves played, in SAN."""
        return list(self._sans)

    @property
    def clock_log(self) -> list[tuple[float, float]]:
        """(White's, Black's) remaining seconds after each move; empty without clocks."""
        return list(self._clock_log)

    def remaining(self, color: Color) -> float | None:
        """``color``'s remaining seconds, not counting the turn now running; None without clocks."""
        return self._remaining.get(color)

    # --- playing ------------------------------------------------------------------------------

    def push(self, move: Move | str, seconds: float | None = None) -> Move | None:
        """Play ``move`` (a Move or text in any notation) and return it; return None when it
        came too late and was not played.

        ``seconds`` is the time the mover used; when None, the wall time since the previous move
        (or the start of the game). If that time exceeds the mover's clock, the move comes too
        late: it is not played, the mover loses on time and None is returned. Raises
        InvalidMoveError for unreadable text, IllegalMoveError for an illegal move or once the
        game is over.

        >>> game = Game(clock=TimeControl(60))
        >>> game.push("b3", seconds=61) is None
        True
        >>> game.outcome()
        Outcome(termination=<Termination.TIME_FORFEIT: 'time forfeit'>, winner=False)
        """
        self._require_not_over(str(move))
        if isinstance(move, str):
            move = self.board.parse_move(move)
        san = self.board.san(move)
        if self.clock is not None and not self._charge_clock(self.clock, seconds):
            return None
        self.board.push(move)
        self._sans.append(san)
        if self.clock is not None:
            self._clock_log.append((self._remaining[WHITE], self._remaining[BLACK]))
        self._turn_started = time.monotonic()
        return move

    def pop(self) -> Move:
        """Take back the last move, with its clock time; also undoes a resignation or a time
        forfeit. IndexError when no move has been played."""
        move = self.board.pop()
        self._sans.pop()
        if self.clock is not None:
            self._clock_log.pop()
            white, black = self._clock_log[-1] if self._clock_log else (self.clock.initial,) * 2
            self._remaining = {WHITE: white, BLACK: black}
        self._ending = None
        self._turn_started = time.monotonic()
        return move

    def resign(self, color: Color) -> None:
        """``color`` resigns and loses."""
        self._end(Termination.RESIGNATION, color)

    def forfeit_on_time(self, color: Color) -> None:
        """Record that ``color``'s time ran out (``color`` loses), e.g. as an outside clock says."""
        self._end(Termination.TIME_FORFEIT, color)

    def forfeit(self, color: Color) -> None:
        """``color`` loses because it failed to play (crashed, illegal move, no answer)."""
        self._end(Termination.FORFEIT, color)

    def turn_seconds(self) -> float:
        """Seconds the side to move has spent on the turn now running (0 once the game is over).
        """
        return 0.0 if self.is_game_over() else time.monotonic() - self._turn_started

    def check_time(self) -> float | None:
        """The side to move's remaining seconds, counting the turn now running; a side whose time
        has run out loses on time. None without clocks; the clocks stop when the game ends."""
        if self.clock is None:
            return None
        turn = self.board.turn
        if self.is_game_over():
            return self._remaining[turn]
        live = self._remaining[turn] - (time.monotonic() - self._turn_started)
        if live < 0:
            self._remaining[turn] = live
            self.forfeit_on_time(turn)
        return live

    # --- the end ------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """A resignation or time forfeit if there was one, else how the rules ended the game
        (None while it goes on)."""
        return self._ending or self.board.outcome()

    def is_game_over(self) -> bool:
        """Whether the game has ended (by the rules, resignation or time)."""
        return self.outcome() is not None

    def result(self) -> str:
        """``'1-0'``, ``'0-1'``, ``'1/2-1/2'`` or ``'*'`` while the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def _require_not_over(self, what: str) -> None:
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMoveError(f"{what} is not possible: the game is over ({outcome})")

    def _end(self, termination: Termination, loser: Color) -> None:
        self._require_not_over(termination.value)
        self._ending = Outcome(termination, not loser)

    def _charge_clock(self, clock: TimeControl, seconds: float | None) -> bool:
        """Deduct the mover's time and add the increment; False if the time ran out."""
        if seconds is None:
            seconds = time.monotonic() - self._turn_started
        if seconds < 0:
            raise MinichessError(f"a move cannot take negative time ({seconds} seconds)")
        turn = self.board.turn
        self._remaining[turn] -= seconds
        if self._remaining[turn] < 0:
            self.forfeit_on_time(turn)
            return False
        self._remaining[turn] += clock.increment
        return True

    def __repr__(self) -> str:
        return f"Game({self.variant.name!r}, fen={self.board.fen()!r}, result={self.result()!r})"


def _seconds_text(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else str(seconds)
