"""Build the compiled core's arrays: a position array from a plain description of a position,
and an undo stack."""

from __future__ import annotations

import numpy as np

from minichess.core import layout as L
from minichess.core.makemove import UNDO_FIELDS, compute_hash


def new_position(
    tab: np.ndarray,
    placement: dict[int, int],
    turn: int,
    reserves: dict[int, int] | None = None,
    halfmove: int = 0,
    ply: int = 0,
) -> np.ndarray:
    """A position array: ``placement`` maps squares to piece codes (colour * 8 + type)."""
    pos = np.zeros(L.POS_SIZE, dtype=np.int64)
    for square, code in placement.items():
        pos[L.MAILBOX + square] = code
        bit = np.int64(1) << np.int64(square)
        pos[L.BB + code] |= bit
        pos[L.BB + (code & 8)] |= bit
    for code, count in (reserves or {}).items():
        pos[L.RESERVE + code] = count
    pos[L.STM] = turn
    pos[L.HALFMOVE] = halfmove
    pos[L.PLY] = ply
    pos[L.HASH] = compute_hash(pos, tab)
    return pos


def new_undo_stack(capacity: int) -> np.ndarray:
    """Room for ``capacity`` moves of undo data (see ``makemove.py``)."""
    return np.zeros((capacity, UNDO_FIELDS), dtype=np.int64)
