"""minichess: rules, move generation, notation and engine for small-board chess variants.

>>> import minichess
>>> board = minichess.Board("minitchess")
>>> len(board.legal_moves)
7
"""

from minichess.board import Board
from minichess.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPgnError,
    MinichessError,
    UnknownVariantError,
)
from minichess.game import Game, TimeControl, parse_time_control
from minichess.move import Move
from minichess.outcome import Outcome, Termination
from minichess.pieces import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, Piece
from minichess.squares import parse_square, square, square_name
from minichess.variants import VARIANTS, get_variant

__version__ = "0.1.0"

__all__ = [
    "BISHOP",
    "BLACK",
    "KING",
    "KNIGHT",
    "PAWN",
    "QUEEN",
    "ROOK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Game",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPgnError",
    "MinichessError",
    "Move",
    "Outcome",
    "Piece",
    "Termination",
    "TimeControl",
    "UnknownVariantError",
    "get_variant",
    "parse_square",
    "parse_time_control",
    "square",
    "square_name",
]
