"""Compiled legality, game-end detection and perft, on top of move generation and make/unmake."""

import numpy as np

from minichess.core.bits import popcount
from minichess.core.jit import allocating_kernel, kernel
from minichess.core.layout import (
    BB,
    BISHOP,
    END_CHECKMATE,
    END_FIFTY_MOVES,
    END_INSUFFICIENT_MATERIAL,
    END_KING_CAPTURED,
    END_MOVE_LIMIT,
    END_NO_LEGAL_MOVES,
    END_NONE,
    END_REPETITION,
    END_STALEMATE,
    F_COMPULSORY,
    F_FIFTY,
    F_MINOR_DRAW,
    F_MOVE_LIMIT,
    F_NO_MOVES,
    F_REPETITION,
    F_ROYALTY,
    FLAGS,
    HALFMOVE,
    HASH,
    KING,
    KNIGHT,
    MAX_MOVES,
    PAWN,
    PLY,
    QUEEN,
    RESERVE,
    ROOK,
    STM,
)
from minichess.core.movegen import (
    GEN_ALL,
    GEN_CAPTURES,
    GEN_QUIETS,
    generate,
    generate_pseudo_legal,
    in_check,
)
from minichess.core.position import UNDO_HASH, make_move, unmake_move

ROYALTY_CAPTURE = 1
ROYALTY_CHECK = 2
LOSS = -1
DRAW = 0


@kernel
def end_code(reason, result):
    """Pack a game end: ``reason`` (END_*) and ``result`` (-1, 0, 1) for the side to move."""
    return reason * 4 + result + 1


@kernel
def left_in_check(pos, tab):
    """After a move: whether the side that just moved left its royal king attacked."""
    return tab[FLAGS, F_ROYALTY] == ROYALTY_CHECK and in_check(pos, tab, 1 - pos[STM])


@kernel
def _keep_legal(pos, tab, buf, start, end, undo, sp):
    """Drop the moves in ``buf[start:end]`` that leave the king in check; return the new end."""
    kept = start
    for i in range(start, end):
        make_move(pos, tab, buf[i], undo, sp)
        illegal = in_check(pos, tab, 1 - pos[STM])
        unmake_move(pos, tab, undo, sp)
        if not illegal:
            buf[kept] = buf[i]
            kept += 1
    return kept


@kernel
def generate_legal(pos, tab, buf, undo, sp):
    """Write the legal moves into ``buf`` from index 0 and return how many there are.

    Game ends are not looked at here; ``undo[sp]`` is used as scratch space.
    """
    if tab[FLAGS, F_ROYALTY] != ROYALTY_CHECK:
        return generate_pseudo_legal(pos, tab, buf, 0, False)
    if tab[FLAGS, F_COMPULSORY] != 0:
        n = generate(pos, tab, buf, 0, GEN_CAPTURES, False)
        n = _keep_legal(pos, tab, buf, 0, n, undo, sp)
        if n != 0:
            return n
        n = generate(pos, tab, buf, 0, GEN_QUIETS, False)
        return _keep_legal(pos, tab, buf, 0, n, undo, sp)
    n = generate(pos, tab, buf, 0, GEN_ALL, False)
    return _keep_legal(pos, tab, buf, 0, n, undo, sp)


@kernel
def count_legal(pos, tab, buf, undo, sp):
    """How many legal moves there are (by popcount where no check test is needed)."""
    if tab[FLAGS, F_ROYALTY] != ROYALTY_CHECK:
        return generate_pseudo_legal(pos, tab, buf, 0, True)
    return generate_legal(pos, tab, buf, undo, sp)


@kernel
def insufficient_material(pos):
    """Apart from kings, the material on the board and in the reserves is at most one minor."""
    minors = 0
    for colour in range(2):
        base = colour * 8
        for piece_type in (PAWN, ROOK, QUEEN):
            if pos[BB + base + piece_type] != 0 or pos[RESERVE + base + piece_type] != 0:
                return False
        minors += popcount(pos[BB + base + KNIGHT] | pos[BB + base + BISHOP])
        minors += pos[RESERVE + base + KNIGHT] + pos[RESERVE + base + BISHOP]
    return minors <= 1


@kernel
def is_threefold(pos, undo, sp):
    """Whether the position after ``sp`` moves of ``undo`` occurred twice before."""
    h = pos[HASH]
    seen = 1
    oldest = max(sp - pos[HALFMOVE], 0)
    k = sp - 2
    while k >= oldest:
        if undo[k, UNDO_HASH] == h:
            seen += 1
            if seen >= 3:
                return True
        k -= 2
    return False


@kernel
def _end_before_moves(pos, tab):
    """King captured or move limit reached: the ends decided before looking at the moves."""
    if tab[FLAGS, F_ROYALTY] == ROYALTY_CAPTURE and pos[BB + pos[STM] * 8 + KING] == 0:
        return end_code(END_KING_CAPTURED, LOSS)
    limit = tab[FLAGS, F_MOVE_LIMIT]
    if limit != 0 and pos[PLY] >= limit:
        return end_code(END_MOVE_LIMIT, DRAW)
    return END_NONE


@kernel
def _end_after_moves(pos, tab, undo, sp):
    """Insufficient material, 50-move rule and repetition, in that order."""
    if tab[FLAGS, F_MINOR_DRAW] != 0 and insufficient_material(pos):
        return end_code(END_INSUFFICIENT_MATERIAL, DRAW)
    fifty = tab[FLAGS, F_FIFTY]
    if fifty != 0 and pos[HALFMOVE] >= fifty:
        return end_code(END_FIFTY_MOVES, DRAW)
    if tab[FLAGS, F_REPETITION] != 0 and is_threefold(pos, undo, sp):
        return end_code(END_REPETITION, DRAW)
    return END_NONE


@kernel
def rule_end(pos, tab, undo, sp):
    """Every game end except having no legal move (cheap: perft and search use it)."""
    code = _end_before_moves(pos, tab)
    if code != END_NONE:
        return code
    return _end_after_moves(pos, tab, undo, sp)


@kernel
def game_end(pos, tab, buf, undo, sp):
    """The game end in the position after ``sp`` moves (END_NONE while the game goes on).

    Order: king captured, move limit, no legal move, insufficient material, 50-move rule,
    repetition.
    """
    code = _end_before_moves(pos, tab)
    if code != END_NONE:
        return code
    if count_legal(pos, tab, buf, undo, sp) == 0:
        result = tab[FLAGS, F_NO_MOVES]
        if tab[FLAGS, F_ROYALTY] != ROYALTY_CHECK:
            return end_code(END_NO_LEGAL_MOVES, result)
        if in_check(pos, tab, pos[STM]):
            return end_code(END_CHECKMATE, LOSS)
        return end_code(END_STALEMATE, result)
    return _end_after_moves(pos, tab, undo, sp)


@kernel
def tree_moves(pos, tab, buf, undo, sp):
    """Moves to walk a game tree with: pseudo-legal (legality is tested after making each),
    except where compulsory capture meets check legality and only legal captures oblige."""
    if tab[FLAGS, F_ROYALTY] == ROYALTY_CHECK and tab[FLAGS, F_COMPULSORY] != 0:
        return generate_legal(pos, tab, buf, undo, sp)
    return generate_pseudo_legal(pos, tab, buf, 0, False)


@allocating_kernel
def new_move_stack(depth):
    """Move buffers for a search or perft ``depth`` plies deep."""
    return np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)


@allocating_kernel
def perft(pos, tab, depth, undo, sp):
    """Leaf nodes ``depth`` plies below the position (a finished game has no moves).

    The last ply is counted in bulk; the tree is walked with an explicit stack.
    """
    if rule_end(pos, tab, undo, sp) != END_NONE:
        return 0
    if depth <= 0:
        return 1
    moves = new_move_stack(depth)
    if depth == 1:
        return count_legal(pos, tab, moves[0], undo, sp)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    count[0] = tree_moves(pos, tab, moves[0], undo, sp)
    check_rules = tab[FLAGS, F_ROYALTY] == ROYALTY_CHECK
    nodes = 0
    ply = 0
    while True:
        if index[ply] == count[ply]:
            if ply == 0:
                break
            ply -= 1
            unmake_move(pos, tab, undo, sp + ply)
            continue
        move = moves[ply, index[ply]]
        index[ply] += 1
        make_move(pos, tab, move, undo, sp + ply)
        if check_rules and in_check(pos, tab, 1 - pos[STM]):
            unmake_move(pos, tab, undo, sp + ply)
            continue
        if rule_end(pos, tab, undo, sp + ply + 1) != END_NONE:
            unmake_move(pos, tab, undo, sp + ply)
            continue
        if ply + 2 == depth:
            nodes += count_legal(pos, tab, moves[ply + 1], undo, sp + ply + 1)
            unmake_move(pos, tab, undo, sp + ply)
            continue
        ply += 1
        count[ply] = tree_moves(pos, tab, moves[ply], undo, sp + ply)
        index[ply] = 0
    return nodes
