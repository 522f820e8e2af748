"""Colours, piece types and pieces, in the style of python-chess (squares: ``squares.py``).

>>> Piece.from_symbol("n")
Piece(piece_type=2, color=False)
>>> color_name(WHITE)
'White'
"""

from __future__ import annotations

from dataclasses import dataclass

from minichess.core import layout
from minichess.errors import InvalidMoveError

Color = bool
WHITE: Color = True
BLACK: Color = False
COLOR_NAMES = {WHITE: "White", BLACK: "Black"}


def color_name(color: Color) -> str:
    """``'White'`` or ``'Black'``."""
    return COLOR_NAMES[color]


PieceType = int
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = (
    layout.PAWN, layout.KNIGHT, layout.BISHOP, layout.ROOK, layout.QUEEN, layout.KING,
)
PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
PIECE_SYMBOLS = layout.PIECE_LETTERS.lower()  # ".pnbrqk"
PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
UNICODE_PIECES = {
    "P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
    "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚",
}


def piece_type_from_symbol(symbol: str) -> PieceType:
    """Piece type of a letter in either case (``'n'`` -> KNIGHT)."""
    index = PIECE_SYMBOLS.find(symbol.lower())
    if len(symbol) != 1 or index <= 0:
        raise InvalidMoveError(f"{symbol!r} is not a piece letter (one of PNBRQK)")
    return index


@dataclass(frozen=True)
class Piece:
    """A piece of a colour."""

    piece_type: PieceType
    color: Color

    def symbol(self) -> str:
        """``'P'`` for a white pawn, ``'p'`` for a black one."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color == WHITE else letter

    def unicode_symbol(self) -> str:
        """The chess figurine of the piece."""
        return UNICODE_PIECES[self.symbol()]

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a letter: upper case White, lower case Black."""
        return cls(piece_type_from_symbol(symbol), symbol.isupper())

    @property
    def code(self) -> int:
        """The compiled core's piece code (colour * 8 + type)."""
        return (0 if self.color == WHITE else 8) + self.piece_type

    @classmethod
    def from_code(cls, code: int) -> Piece:
        """The piece of a core piece code."""
        return cls(code & 7, code < 8)

    def __str__(self) -> str:
        return self.symbol()
