"""Compiled in-place make/unmake with incremental Zobrist hashing.

``undo[sp]`` keeps what a move needs to be taken back: the move, the captured piece code, the
halfmove clock and the hash before the move. Row ``sp`` of ``undo`` therefore also holds the
hash of the position after ``sp`` moves, which the repetition rule reads.
"""

from minichess.core.jit import INT, NONE, POSITION, TABLES, UNDO, kernel, leaf_kernel
from minichess.core.layout import (
    BB,
    DROP,
    F_REENTRY,
    FLAGS,
    HALFMOVE,
    HASH,
    KING,
    MAILBOX,
    PAWN,
    PLY,
    RESERVE,
    STM,
    ZOBRIST,
    ZOBRIST_MISC,
    ZOBRIST_RESERVE,
)

UNDO_MOVE = 0
UNDO_CAPTURED = 1
UNDO_HALFMOVE = 2
UNDO_HASH = 3
UNDO_FIELDS = 4
NULL_MOVE = 0
"""The move code of a null move (a1 to a1: never a real move)."""


@leaf_kernel
def play(pos, tab, move, undo, sp):
    """Play ``move`` (pseudo-legal for the side to move) in place, saving undo data at ``sp``.

    Compiled into the caller (for the hottest loops); ``make_move`` is the same as a kernel."""
    colour = pos[STM]
    other = 1 - colour
    undo[sp, UNDO_MOVE] = move
    undo[sp, UNDO_HALFMOVE] = pos[HALFMOVE]
    undo[sp, UNDO_HASH] = pos[HASH]
    h = pos[HASH]
    to = (move >> 6) & 63
    to_bit = 1 << to
    kind = (move >> 12) & 7
    if move & DROP:
        code = colour * 8 + kind
        h ^= tab[ZOBRIST_RESERVE + code, pos[RESERVE + code]]
        pos[RESERVE + code] -= 1
        pos[BB + code] |= to_bit
        pos[BB + colour * 8] |= to_bit
        pos[MAILBOX + to] = code
        h ^= tab[ZOBRIST + code, to]
        undo[sp, UNDO_CAPTURED] = 0
        pos[HALFMOVE] += 1
    else:
        origin = move & 63
        code = pos[MAILBOX + origin]
        captured = pos[MAILBOX + to]
        undo[sp, UNDO_CAPTURED] = captured
        if captured != 0:
            pos[BB + captured] ^= to_bit
            pos[BB + other * 8] ^= to_bit
            h ^= tab[ZOBRIST + captured, to]
            captured_type = captured & 7
            if tab[FLAGS, F_REENTRY] != 0 and captured_type != PAWN and captured_type != KING:
                count = pos[RESERVE + captured] + 1
                pos[RESERVE + captured] = count
                h ^= tab[ZOBRIST_RESERVE + captured, count]
        new_code = code if kind == 0 else colour * 8 + kind
        origin_bit = 1 << origin
        pos[BB + code] ^= origin_bit
        pos[BB + new_code] ^= to_bit
        pos[BB + colour * 8] ^= origin_bit | to_bit
        pos[MAILBOX + origin] = 0
        pos[MAILBOX + to] = new_code
        h ^= tab[ZOBRIST + code, origin] ^ tab[ZOBRIST + new_code, to]
        if captured != 0 or code & 7 == PAWN:
            pos[HALFMOVE] = 0
        else:
            pos[HALFMOVE] += 1
    pos[STM] = other
    pos[PLY] += 1
    pos[HASH] = h ^ tab[ZOBRIST_MISC, 0]


@leaf_kernel
def take_back(pos, tab, undo, sp):
    """Take back the move saved at ``undo[sp]`` (compiled into the caller, see ``play``)."""
    move = undo[sp, UNDO_MOVE]
    other = pos[STM]
    colour = 1 - other
    to = (move >> 6) & 63
    to_bit = 1 << to
    kind = (move >> 12) & 7
    if move & DROP:
        code = colour * 8 + kind
        pos[RESERVE + code] += 1
        pos[BB + code] ^= to_bit
        pos[BB + colour * 8] ^= to_bit
        pos[MAILBOX + to] = 0
    else:
        origin = move & 63
        origin_bit = 1 << origin
        new_code = pos[MAILBOX + to]
        code = new_code if kind == 0 else colour * 8 + PAWN
        pos[BB + new_code] ^= to_bit
        pos[BB + code] ^= origin_bit
        pos[BB + colour * 8] ^= origin_bit | to_bit
        pos[MAILBOX + origin] = code
        captured = undo[sp, UNDO_CAPTURED]
        pos[MAILBOX + to] = captured
        if captured != 0:
            pos[BB + captured] ^= to_bit
            pos[BB + other * 8] ^= to_bit
            captured_type = captured & 7
            if tab[FLAGS, F_REENTRY] != 0 and captured_type != PAWN and captured_type != KING:
                pos[RESERVE + captured] -= 1
    pos[STM] = colour
    pos[PLY] -= 1
    pos[HALFMOVE] = undo[sp, UNDO_HALFMOVE]
    pos[HASH] = undo[sp, UNDO_HASH]


@kernel(NONE(POSITION, TABLES, INT, UNDO, INT))
def make_move(pos, tab, move, undo, sp):
    """Play ``move`` (pseudo-legal for the side to move) in place, saving undo data at ``sp``."""
    play(pos, tab, move, undo, sp)


@kernel(NONE(POSITION, TABLES, UNDO, INT))
def unmake_move(pos, tab, undo, sp):
    """Take back the move saved at ``undo[sp]``."""
    take_back(pos, tab, undo, sp)


@kernel()
def make_null_move(pos, tab, undo, sp):
    """Pass the move to the opponent (for null-move pruning); undo data at ``sp``."""
    undo[sp, UNDO_MOVE] = NULL_MOVE
    undo[sp, UNDO_CAPTURED] = 0
    undo[sp, UNDO_HALFMOVE] = pos[HALFMOVE]
    undo[sp, UNDO_HASH] = pos[HASH]
    pos[STM] = 1 - pos[STM]
    pos[PLY] += 1
    pos[HALFMOVE] += 1
    pos[HASH] ^= tab[ZOBRIST_MISC, 0]


@kernel()
def unmake_null_move(pos, undo, sp):
    """Take back the null move saved at ``undo[sp]``."""
    pos[STM] = 1 - pos[STM]
    pos[PLY] -= 1
    pos[HALFMOVE] = undo[sp, UNDO_HALFMOVE]
    pos[HASH] = undo[sp, UNDO_HASH]


@kernel(INT(POSITION, TABLES))
def compute_hash(pos, tab):
    """The Zobrist key of a position computed from scratch (make/unmake keep it up to date)."""
    h = 0
    for sq in range(64):
        code = pos[MAILBOX + sq]
        if code != 0:
            h ^= tab[ZOBRIST + code, sq]
    for code in range(16):
        for count in range(1, pos[RESERVE + code] + 1):
            h ^= tab[ZOBRIST_RESERVE + code, count]
    if pos[STM] == 1:
        h ^= tab[ZOBRIST_MISC, 0]
    return h
