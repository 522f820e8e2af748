"""A position as plain data, and the checks that make it a valid position of a variant.

Every notation that reads positions (FEN, Massey's state text) produces a :class:`Setup` and
has it checked here, so the rules of what a valid position is live in one place. The compiled
core's array of a position is built here too (:func:`position_array`).

>>> from minichess.pieces import Piece
>>> from minichess.squares import parse_square
>>> from minichess.variants import get_variant
>>> pieces = {"a1": "K", "a2": "q", "d4": "k"}
>>> setup = Setup({parse_square(sq): Piece.from_symbol(letter) for sq, letter in pieces.items()},
...               turn=BLACK)
>>> validate_setup(get_variant("csc111"), setup)
Traceback (most recent call last):
...
minichess.errors.InvalidFenError: White is in check but it is not White's move
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from minichess.core import layout
from minichess.core.arrays import new_position
from minichess.core.movegen import in_check
from minichess.core.tables import variant_tables
from minichess.errors import InvalidFenError
from minichess.pieces import BLACK, KING, PAWN, WHITE, Color, Piece, color_name
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


def mailbox_placement(mailbox: Sequence[int] | np.ndarray) -> dict[Square, Piece]:
    """The pieces of a mailbox (piece codes by square number, a1 = 0 and a2 = 8, 0 where a
    square is empty), by square.

    >>> {square_name(sq): piece.symbol() for sq, piece in mailbox_placement([0, 0, 14]).items()}
    {'c1': 'k'}"""
    return {sq: Piece.from_code(int(code)) for sq, code in enumerate(mailbox) if code}


def validate_setup(variant: VariantDefinition, setup: Setup) -> None:
    """Raise InvalidFenError saying what is wrong if ``setup`` is no valid ``variant`` position:
    pieces the variant has, pawns off the back and promotion ranks, the kings the variant
    needs, reserves, move counters and, where checks count, no side left in check that is not
    to move."""
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
    _check_not_left_in_check(variant, setup)


def position_array(tables: np.ndarray, setup: Setup) -> np.ndarray:
    """The compiled core's position array of ``setup`` in the variant whose tables are
    ``tables``."""
    return new_position(
        tables,
        {sq: piece.code for sq, piece in setup.placement.items()},
        0 if setup.turn == WHITE else 1,
        {piece.code: count for piece, count in setup.reserves.items()},
        setup.halfmove_clock,
        setup.ply,
    )


def _check_pawn_rank(variant: VariantDefinition, sq: Square, color: Color) -> None:
    rank = square_rank(sq)
    home, last = (0, variant.ranks - 1) if color == WHITE else (variant.ranks - 1, 0)
    if rank == home:
        raise InvalidFenError(
            f"{square_name(sq)}: a {color_name(color).lower()} pawn cannot stand on its own"
            " back rank"
        )
    if rank == last and variant.promotion:
        raise InvalidFenError(
            f"{square_name(sq)}: a {color_name(color).lower()} pawn on the last rank would have"
            " been promoted"
        )


def _check_kings(variant: VariantDefinition, setup: Setup, color: Color) -> None:
    kings = [sq for sq, p in setup.placement.items() if p == Piece(KING, color)]
    name = color_name(color)
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


def _check_not_left_in_check(variant: VariantDefinition, setup: Setup) -> None:
    """The side that has just moved may not have left its king in check (where checks count)."""
    if variant.royalty != Royalty.CHECK:
        return
    tables = variant_tables(variant)
    array = position_array(tables, setup)
    if in_check(array, tables, 1 - array[layout.STM]):
        side = color_name(not setup.turn)
        raise InvalidFenError(f"{side} is in check but it is not {side}'s move")
