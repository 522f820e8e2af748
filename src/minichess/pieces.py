"""Colours, piece types, pieces and squares, in the style of python-chess.

Squares are numbered ``rank * 8 + file`` whatever the board size (a1 = 0, b1 = 1, a2 = 8), so a
square means the same on every board; ``squares(variant)`` lists those that exist on one.
"""

from __future__ import annotations

from dataclasses import dataclass

from minichess.core import layout
from minichess.errors import InvalidMoveError

Color = bool
WHITE: Color = True
BLACK: Color = False
COLOR_NAMES = {WHITE: "White", BLACK: "Black"}

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

Square = int
FILE_NAMES = "abcdefgh"


def square(file_index: int, rank_index: int) -> Square:
    """The square on file ``file_index`` and rank ``rank_index`` (both from 0)."""
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    """File index (0 for the a-file)."""
    return sq & 7


def square_rank(sq: Square) -> int:
    """Rank index (0 for rank 1)."""
    return sq >> 3


def square_name(sq: Square) -> str:
    """Name of a square, e.g. ``'c3'``."""
    return f"{FILE_NAMES[sq & 7]}{(sq >> 3) + 1}"


def parse_square(name: str) -> Square:
    """The square called ``name`` (``'a1'`` .. ``'h8'``); raises InvalidMoveError otherwise."""
    if len(name) != 2 or name[0] not in FILE_NAMES or name[1] not in "12345678":
        raise InvalidMoveError(f"{name!r} is not a square name (a1 .. h8)")
    return square(FILE_NAMES.index(name[0]), int(name[1]) - 1)


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
