"""A position as plain data, and the checks that make it a valid position of a variant.

Every notation that reads positions (FEN, Massey's state text) produces a :class:`Setup` and
has it checked here, so the rules of what a valid position is live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minichess.errors import InvalidFenError
from minichess.pieces import BLACK, COLOR_NAMES, KING, PAWN, WHITE, Color, Piece
from minichess.squares import Square, square_name, square_rank
from minichess.variants.definition import Royalty, VariantDefinition


@dataclass
class Setup:
    """Pieces on squares, side to move, reserves and move counters."""

    placement: dict[Square, Piece]
    turn: Color = WHITE
    reserves: dict[Piece, int] = field(default_factory=dict)
    halfmove_clock: int = 0
    fullmove_number: int = 1

    @property
    def ply(self) -> int:
        """Plies played since the game's start, as the move counters tell."""
        return 2 * (self.fullmove_number - 1) + (1 if self.turn == BLACK else 0)


def validate_setup(variant: VariantDefinition, setup: Setup) -> None:
    """Raise InvalidFenError saying what is wrong if ``setup`` is no valid ``variant`` position.

    Check legality (a side not to move left in check) is tested by the board, which has the
    compiled attack tables.
    """
    for sq, piece in setup.placement.items():
        letter = piece.symbol().upper()
        if letter not in variant.pieces:
            raise InvalidFenError(
                f"{square_name(sq)}: {variant.name} has no piece {piece.symbol()!r}"
                f" (its pieces: {''.join(variant.pieces)})"
            )
        if piece.piece_type == PAWN:
            _check_pawn_rank(variant, sq, piece.color)
    for color in (WHITE, BLACK):
        _check_kings(variant, setup, color)
    if setup.reserves and not variant.has_reserves:
        raise InvalidFenError(f"{variant.name} has no reserves, but the position gives one")
    for piece, count in setup.reserves.items():
        if piece.piece_type in (PAWN, KING):
            raise InvalidFenError(f"a reserve cannot hold {piece.symbol()!r} (only Q, R, B, N)")
        if piece.symbol().upper() not in variant.pieces:
            raise InvalidFenError(f"{variant.name} has no piece {piece.symbol()!r} to reserve")
        if not 0 <= count < 64:
            raise InvalidFenError(f"reserve count {count} of {piece.symbol()!r} is out of range")
    if setup.halfmove_clock < 0:
        raise InvalidFenError(f"halfmove clock {setup.halfmove_clock} is negative")
    if setup.fullmove_number < 1:
        raise InvalidFenError(f"fullmove number {setup.fullmove_number} must be at least 1")


def _check_pawn_rank(variant: VariantDefinition, sq: Square, color: Color) -> None:
    rank = square_rank(sq)
    home, last = (0, variant.ranks - 1) if color == WHITE else (variant.ranks - 1, 0)
    if rank == home:
        raise InvalidFenError(
            f"{square_name(sq)}: a {COLOR_NAMES[color].lower()} pawn cannot stand on its own"
            " back rank"
        )
    if rank == last and variant.promotion:
        raise InvalidFenError(
            f"{square_name(sq)}: a {COLOR_NAMES[color].lower()} pawn on the last rank would have"
            " been promoted"
        )


def _check_kings(variant: VariantDefinition, setup: Setup, color: Color) -> None:
    kings = [sq for sq, p in setup.placement.items() if p == Piece(KING, color)]
    name = COLOR_NAMES[color]
    if variant.royalty == Royalty.CHECK and len(kings) != 1:
        raise InvalidFenError(f"{name} has {len(kings)} kings; {variant.name} needs exactly one")
    if variant.royalty == Royalty.CAPTURE:
        if len(kings) > 1:
            raise InvalidFenError(f"{name} has {len(kings)} kings; {variant.name} allows one")
        if not kings and color != setup.turn:
            raise InvalidFenError(
                f"{name} has no king but has just moved; in {variant.name} a side without a"
                " king has lost and the game ended"
            )
