"""The fields of a move code (``layout``: ``from | to << 6 | piece << 12 | DROP``), read by
name in compiled code.

>>> code = 8 | 16 << 6          # a2a3 on the 8-wide square numbering
>>> move_origin(code), move_target(code), move_piece(code), is_drop(code)
(8, 16, 0, False)
"""

from minichess.core.jit import leaf_kernel
from minichess.core.layout import DROP


@leaf_kernel
def move_origin(move):
    """The square the piece leaves (for a drop, the square it is dropped on)."""
    return move & 63


@leaf_kernel
def move_target(move):
    """The square the piece goes to."""
    return (move >> 6) & 63


@leaf_kernel
def move_piece(move):
    """The promotion type of a pawn move or the type of a dropped piece; 0 for other moves."""
    return (move >> 12) & 7


@leaf_kernel
def is_drop(move):
    """Whether the move brings a piece back from the reserve."""
    return move & DROP != 0


@leaf_kernel
def from_to(move):
    """The origin and target squares in one number below 4096 (history tables' index)."""
    return move & 0xFFF
