"""Squares and their names, in the style of python-chess.

Squares are numbered ``rank * 8 + file`` whatever the board size (a1 = 0, b1 = 1, a2 = 8), so a
square means the same on every board; :meth:`minichess.Board.squares` lists those of one board.

>>> square_name(square(2, 3))
'c4'
>>> parse_square("b2")
9
"""

from __future__ import annotations

from minichess.errors import InvalidMoveError

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
