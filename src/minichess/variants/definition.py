"""The data that describes a variant: board, pieces, and rule switches.

A variant is a :class:`VariantDefinition`. The compiled core reads nothing else, so a new
variant is a new definition, never new kernel code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

Offset = tuple[int, int]
"""A step as (file delta, rank delta), seen from White."""

ORTHOGONAL: tuple[Offset, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[Offset, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KING_STEPS: tuple[Offset, ...] = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS: tuple[Offset, ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2),
)


class Royalty(IntEnum):
    """What the king means in a variant."""

    NONE = 0
    """The king is an ordinary piece (antichess)."""
    CAPTURE = 1
    """Moving into check is legal; capturing the king wins (minitchess)."""
    CHECK = 2
    """Ordinary chess legality: no move may leave one's own king attacked."""


class Result(IntEnum):
    """A result from the point of view of the side to move."""

    LOSS = -1
    DRAW = 0
    WIN = 1


@dataclass(frozen=True)
class MoveSet:
    """How a piece moves: leaps and slides that may capture, and steps that may not.

    All offsets are symmetric sets (a piece attacks back along the offsets it moves by).
    """

    leaps: tuple[Offset, ...] = ()
    """Single jumps or steps that move or capture."""
    slides: tuple[Offset, ...] = ()
    """Directions of unlimited slides that move or capture (only ORTHOGONAL/DIAGONAL)."""
    quiet_steps: tuple[Offset, ...] = ()
    """Single steps onto an empty square only (they never capture)."""


@dataclass(frozen=True)
class PieceDefinition:
    """A piece type of a variant."""

    moves: MoveSet
    isolated_moves: MoveSet | None = None
    """Replaces ``moves`` while none of the 8 squares around the piece is occupied."""


@dataclass(frozen=True, eq=False)
class VariantDefinition:
    """Everything the rules core needs to know about one variant."""

    name: str
    title: str
    files: int
    ranks: int
    start_fen: str
    pieces: dict[str, PieceDefinition]
    """Piece letter (upper case, from ``PNBRQK``) to its definition; absent letters do not occur."""
    royalty: Royalty
    aliases: tuple[str, ...] = ()
    pawn_double_step: bool = False
    promotion: str = "Q"
    """Letters a pawn may become on the last rank; empty: pawns never promote and stay there."""
    compulsory_capture: bool = False
    no_moves: Result = Result.LOSS
    """Result for the side to move when it has no legal move (and, if royal, is not in check).
    A checkmated player always loses."""
    move_limit: int = 0
    """Plies after which the game is drawn (checked before anything but a king capture); 0: none."""
    fifty_move_plies: int = 0
    """Halfmove clock at which the game is drawn; 0: no such rule."""
    repetition: bool = False
    """Threefold repetition draws (automatically)."""
    minor_piece_draw: bool = False
    """Drawn when, apart from kings, the material (board and reserves) is nothing or one minor."""
    king_reentry: bool = False
    """chess36: captured pieces go to their owner's reserve and a king one rank before the
    opponent's back rank may drop one onto the empty square ahead of it."""
    default_clock: float | None = None
    """Seconds for the whole game per player, where the rules give a clock."""
    pyffish_name: str | None = None
    """Name of the same rules in Fairy-Stockfish, where it has them."""
    decisions: tuple[str, ...] = field(default=())
    """Decisions this project took where the source rules are silent (documented in docs)."""

    @property
    def has_reserves(self) -> bool:
        """Whether positions of this variant carry reserves (FEN brackets)."""
        return self.king_reentry
