"""Compiled legality, game-end detection and perft, on top of move generation and make/unmake."""

import numpy as np

from minichess.core.bits import ctz, popcount
from minichess.core.jit import (
    BOOL,
    INT,
    MOVES,
    POSITION,
    TABLES,
    UNDO,
    allocating_kernel,
    kernel,
    leaf_kernel,
)
from minichess.core.layout import (
    BB,
    BISHOP,
    DROP,
    END_CHECKMATE,
    END_FIFTY_MOVES,
    END_INSUFFICIENT_MATERIAL,
    END_KING_CAPTURED,
    END_MOVE_LIMIT,
    END_NO_LEGAL_MOVES,
    END_NONE,
    END_REPETITION,
    END_STALEMATE,
    F_ANY_ISOLATED,
    F_COMPULSORY,
    F_FIFTY,
    F_ISOLATED,
    F_MINOR_DRAW,
    F_MOVE_LIMIT,
    F_NO_MOVES,
    F_REPETITION,
    F_ROYALTY,
    F_SLIDES,
    FLAGS,
    HALFMOVE,
    HASH,
    KING,
    KNIGHT,
    MAX_MOVES,
    NEIGHBOURS,
    PAWN,
    PLY,
    QUEEN,
    RESERVE,
    ROOK,
    SLIDE_DIAGONAL,
    SLIDE_ORTHOGONAL,
    STM,
)
from minichess.core.movegen import (
    GEN_ALL,
    GEN_CAPTURES,
    GEN_QUIETS,
    generate,
    generate_pseudo_legal,
    in_check,
    slider_attacks,
    square_attacked,
)
from minichess.core.position import UNDO_HASH, make_move, unmake_move

ROYALTY_CAPTURE = 1
ROYALTY_CHECK = 2
LOSS = -1
DRAW = 0


@leaf_kernel
def end_code(reason, result):
    """Pack a game end: ``reason`` (END_*) and ``result`` (-1, 0, 1) for the side to move."""
    return reason * 4 + result + 1


@kernel(INT(POSITION, TABLES, INT))
def _suspects(pos, tab, colour):
    """Squares a move must touch (from or to) to possibly leave ``colour``'s king attacked,
    when that king is not in check now: the king itself, pieces pinned against it, and the
    neighbourhoods of enemy pieces whose moves depend on their neighbours (chess36 knights).
    Any other move leaves every enemy attack on the king as it was."""
    king = pos[BB + colour * 8 + KING]
    ksq = ctz(king)
    other = 1 - colour
    occ = pos[BB] | pos[BB + 8]
    own = pos[BB + colour * 8] ^ king
    suspects = king
    for kind in (SLIDE_ORTHOGONAL, SLIDE_DIAGONAL):
        snipers = 0
        for piece_type in range(2, 7):
            if tab[FLAGS, F_SLIDES + piece_type] & kind:
                snipers |= pos[BB + other * 8 + piece_type]
        if snipers == 0:
            continue
        shields = slider_attacks(tab, kind, ksq, occ) & own
        while shields != 0:
            shield = shields & -shields
            if slider_attacks(tab, kind, ksq, occ ^ shield) & snipers != 0:
                suspects |= shield
            shields ^= shield
    for piece_type in range(2, 7):
        if tab[FLAGS, F_ISOLATED + piece_type] == 0:
            continue
        if tab[FLAGS, F_SLIDES + piece_type] | tab[FLAGS, F_SLIDES + piece_type + 8] != 0:
            return -1  # its attacks may change with any move: suspect everything
        pieces = pos[BB + other * 8 + piece_type]
        while pieces != 0:
            sq = ctz(pieces)
            suspects |= tab[NEIGHBOURS, sq] | (pieces & -pieces)
            pieces &= pieces - 1
    return suspects


@kernel(INT(POSITION, TABLES, MOVES, INT, UNDO, INT, BOOL))
def _keep_legal(pos, tab, buf, end, undo, sp, count_only):
    """Remove the moves in ``buf[:end]`` that leave the king attacked and return how many are
    left (with ``count_only`` the buffer is left as it is). Only suspect moves are tried."""
    colour = pos[STM]
    suspects = -1 if in_check(pos, tab, colour) else _suspects(pos, tab, colour)
    king = pos[BB + colour * 8 + KING]
    plain_king_moves = tab[FLAGS, F_ANY_ISOLATED] == 0
    kept = 0
    for i in range(end):
        move = buf[i]
        origin = 1 << (move & 63)
        touched = origin | (1 << ((move >> 6) & 63))
        legal = True
        if origin == king and plain_king_moves and move & DROP == 0:
            # the king is safe where no enemy attacks, with the king lifted off its square
            pos[BB + colour * 8] ^= king
            legal = not square_attacked(pos, tab, (move >> 6) & 63, 1 - colour)
            pos[BB + colour * 8] ^= king
        elif touched & suspects != 0 or move & DROP != 0:
            make_move(pos, tab, move, undo, sp)
            legal = not in_check(pos, tab, colour)
            unmake_move(pos, tab, undo, sp)
        if legal:
            if not count_only:
                buf[kept] = move
            kept += 1
    return kept


@leaf_kernel
def _legal_moves(pos, tab, buf, undo, sp, count_only):
    """Legal moves into ``buf`` (or only their number, where no check test is needed)."""
    if tab[FLAGS, F_ROYALTY] != ROYALTY_CHECK:
        return generate_pseudo_legal(pos, tab, buf, 0, count_only)
    if tab[FLAGS, F_COMPULSORY] != 0:
        n = generate(pos, tab, buf, 0, GEN_CAPTURES, False)
        n = _keep_legal(pos, tab, buf, n, undo, sp, count_only)
        if n != 0:
            return n
        n = generate(pos, tab, buf, 0, GEN_QUIETS, False)
        return _keep_legal(pos, tab, buf, n, undo, sp, count_only)
    n = generate(pos, tab, buf, 0, GEN_ALL, False)
    return _keep_legal(pos, tab, buf, n, undo, sp, count_only)


@kernel(INT(POSITION, TABLES, MOVES, UNDO, INT))
def generate_legal(pos, tab, buf, undo, sp):
    """Write the legal moves into ``buf`` from index 0 and return how many there are.

    Game ends are not looked at here; ``undo[sp]`` is used as scratch space.
    """
    return _legal_moves(pos, tab, buf, undo, sp, False)


@kernel(INT(POSITION, TABLES, MOVES, UNDO, INT))
def count_legal(pos, tab, buf, undo, sp):
    """How many legal moves there are (by popcount where no check test is needed)."""
    return _legal_moves(pos, tab, buf, undo, sp, True)


@leaf_kernel
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


@leaf_kernel
def earlier_occurrences(pos, undo, sp, enough):
    """How often (up to ``enough``) the position after ``sp`` moves occurred before, within
    the plies since the last capture or pawn move."""
    h = pos[HASH]
    seen = 0
    oldest = max(sp - pos[HALFMOVE], 0)
    k = sp - 2
    while k >= oldest and seen < enough:
        if undo[k, UNDO_HASH] == h:
            seen += 1
        k -= 2
    return seen


@leaf_kernel
def _end_before_moves(pos, tab):
    """King captured or move limit reached: the ends decided before looking at the moves."""
    if tab[FLAGS, F_ROYALTY] == ROYALTY_CAPTURE and pos[BB + pos[STM] * 8 + KING] == 0:
        return end_code(END_KING_CAPTURED, LOSS)
    limit = tab[FLAGS, F_MOVE_LIMIT]
    if limit != 0 and pos[PLY] >= limit:
        return end_code(END_MOVE_LIMIT, DRAW)
    return END_NONE


@leaf_kernel
def _end_after_moves(pos, tab, undo, sp):
    """Insufficient material, 50-move rule and repetition, in that order."""
    if tab[FLAGS, F_MINOR_DRAW] != 0 and insufficient_material(pos):
        return end_code(END_INSUFFICIENT_MATERIAL, DRAW)
    fifty = tab[FLAGS, F_FIFTY]
    if fifty != 0 and pos[HALFMOVE] >= fifty:
        return end_code(END_FIFTY_MOVES, DRAW)
    if tab[FLAGS, F_REPETITION] != 0 and earlier_occurrences(pos, undo, sp, 2) == 2:
        return end_code(END_REPETITION, DRAW)
    return END_NONE


@kernel(INT(POSITION, TABLES, UNDO, INT))
def rule_end(pos, tab, undo, sp):
    """Every game end except having no legal move (cheap: perft and search use it)."""
    code = _end_before_moves(pos, tab)
    if code != END_NONE:
        return code
    return _end_after_moves(pos, tab, undo, sp)


@kernel(INT(POSITION, TABLES, MOVES, UNDO, INT))
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
        return end_code(END_STALEMATE if result == DRAW else END_NO_LEGAL_MOVES, result)
    return _end_after_moves(pos, tab, undo, sp)


@allocating_kernel(UNDO(INT))
def new_move_stack(depth):
    """Move buffers for a search or perft ``depth`` plies deep."""
    return np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)


@allocating_kernel(INT(POSITION, TABLES, INT, UNDO, INT))
def perft(pos, tab, depth, undo, sp):
    """Leaf nodes ``depth`` plies below the position (a finished game has no moves).

    The last ply is counted in bulk; the tree is walked with an explicit stack.
    """
    if depth <= 0:
        return 1
    if rule_end(pos, tab, undo, sp) != END_NONE:
        return 0
    moves = new_move_stack(depth)
    if depth == 1:
        return count_legal(pos, tab, moves[0], undo, sp)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    count[0] = generate_legal(pos, tab, moves[0], undo, sp)
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
        if rule_end(pos, tab, undo, sp + ply + 1) != END_NONE:
            unmake_move(pos, tab, undo, sp + ply)
            continue
        if ply + 2 == depth:
            nodes += count_legal(pos, tab, moves[ply + 1], undo, sp + ply + 1)
            unmake_move(pos, tab, undo, sp + ply)
            continue
        ply += 1
        count[ply] = generate_legal(pos, tab, moves[ply], undo, sp + ply)
        index[ply] = 0
    return nodes
