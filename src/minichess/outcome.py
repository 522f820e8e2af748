"""How a game ended: the termination reason and the winner.

>>> from minichess import Board
>>> Board("csc111", "4/2k1/1q2/K3 w - - 0 1").outcome()
Outcome(termination=<Termination.CHECKMATE: 'checkmate'>, winner=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from minichess.core import layout
from minichess.core.rules import end_reason, end_result
from minichess.pieces import WHITE, Color, color_name


class Termination(Enum):
    """Why a game ended."""

    KING_CAPTURED = "king capture"
    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    NO_LEGAL_MOVES = "no legal move"
    MOVE_LIMIT = "move limit"
    INSUFFICIENT_MATERIAL = "insufficient material"
    FIFTY_MOVES = "50-move rule"
    THREEFOLD_REPETITION = "threefold repetition"
    TIME_FORFEIT = "time forfeit"
    RESIGNATION = "resignation"
    FORFEIT = "forfeit"
    """A player failed: it crashed, sent an illegal move or no move at all."""


WHITE_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
"""White's points for each result of a finished game (Black's are 1 minus them)."""

_CORE_REASONS = {
    layout.END_KING_CAPTURED: Termination.KING_CAPTURED,
    layout.END_MOVE_LIMIT: Termination.MOVE_LIMIT,
    layout.END_CHECKMATE: Termination.CHECKMATE,
    layout.END_STALEMATE: Termination.STALEMATE,
    layout.END_NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    layout.END_INSUFFICIENT_MATERIAL: Termination.INSUFFICIENT_MATERIAL,
    layout.END_FIFTY_MOVES: Termination.FIFTY_MOVES,
    layout.END_REPETITION: Termination.THREEFOLD_REPETITION,
}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winner`` is WHITE, BLACK or None for a draw."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``'1-0'``, ``'0-1'`` or ``'1/2-1/2'``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"

    @classmethod
    def from_core(cls, code: int, turn: Color) -> Outcome:
        """Decode a game end reported by the core for the side to move ``turn``."""
        result = end_result(code)
        winner = None if result == 0 else (turn if result > 0 else not turn)
        return cls(_CORE_REASONS[end_reason(code)], winner)

    def __str__(self) -> str:
        if self.winner is None:
            return f"draw by {self.termination.value}"
        return f"{color_name(self.winner)} wins by {self.termination.value}"

