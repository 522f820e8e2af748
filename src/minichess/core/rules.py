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
    F_REENTRY,
    F_REPETITION,
    F_ROYALTY,
    F_SLIDES,
    FLAGS,
    HALFMOVE,
    HASH,
    KING,
    KNIGHT,
    LEAP,
    M_BOARD,
    MAILBOX,
    MASKS,
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
    EVERYWHERE,
    GEN_ALL,
    GEN_CAPTURES,
    GEN_DROPS,
    GEN_QUIETS,
    attacked_squares,
    attackers,
    generate,
    generate_or_count,
    generate_pseudo_legal,
    in_check,
    move_set,
    piece_moves,
    slider_attacks,
    square_attacked,
)
from minichess.core.position import UNDO_HASH, make_move, play, take_back, unmake_move

ROYALTY_CAPTURE = 1
ROYALTY_CHECK = 2
LOSS = -1
DRAW = 0


@leaf_kernel
def end_code(reason, result):
    """Pack a game end: ``reason`` (END_*) and ``result`` (-1, 0, 1) for the side to move."""
    return reason * 4 + result + 1


@leaf_kernel
def _pinned_moves(pos, tab, buf, n, kinds, count_only, ksq, occ, candidates, allowed):
    """The moves of those of ``candidates`` (the side to move's pieces) that shield its king
    on ``ksq`` from an enemy slider (pinned pieces): along the line between king and slider,
    or taking the slider, and to ``allowed`` squares; returns the new ``n`` and the pinned
    pieces. Each shield stands on one line through the king, so leaving its square along that
    line exposes the king to nothing."""
    colour = pos[STM]
    pinned = 0
    for kind in (SLIDE_ORTHOGONAL, SLIDE_DIAGONAL):
        snipers = 0
        for piece_type in range(2, 7):
            if tab[FLAGS, F_SLIDES + piece_type] & kind:
                snipers |= pos[BB + (1 - colour) * 8 + piece_type]
        if snipers == 0:
            continue
        seen = slider_attacks(tab, kind, ksq, occ)
        shields = seen & candidates
        while shields != 0:
            shield = shields & -shields
            shields ^= shield
            behind = occ ^ shield
            from_king = slider_attacks(tab, kind, ksq, behind)
            pinner = from_king & ~seen & snipers  # on the shield's line: seen only without it
            if pinner == 0:
                continue
            pinned |= shield
            line = (from_king & slider_attacks(tab, kind, ctz(pinner), behind)) | pinner
            if line & allowed != 0:
                n = generate_or_count(pos, tab, buf, n, kinds, count_only, shield, line & allowed)
    return n, pinned


@leaf_kernel
def _neighbour_zones(pos, tab, colour, occ):
    """Squares a move by ``colour`` must not touch (from or to) for its enemies' attacks to
    stay as they are, where some enemy pieces move differently without a neighbour (chess36
    knights): around such a piece without neighbours, every square (a piece arriving there
    changes its moves); with one neighbour, that neighbour's square (it may leave). With two
    or more, no single move can leave it alone. EVERYWHERE when such a piece also slides."""
    zones = 0
    if tab[FLAGS, F_ANY_ISOLATED] == 0:
        return zones
    for piece_type in range(2, 7):
        if tab[FLAGS, F_ISOLATED + piece_type] == 0:
            continue
        if tab[FLAGS, F_SLIDES + piece_type] | tab[FLAGS, F_SLIDES + piece_type + 8] != 0:
            return EVERYWHERE
        pieces = pos[BB + (1 - colour) * 8 + piece_type]
        while pieces != 0:
            around = tab[NEIGHBOURS, ctz(pieces)]
            if around & occ == 0:
                zones |= around
            elif around & occ & (around & occ) - 1 == 0:
                zones |= around & occ
            pieces &= pieces - 1
    return zones


@leaf_kernel
def _check_blocks(pos, tab, ksq, checker, occ):
    """The squares between the king on ``ksq`` and a lone ``checker`` (a bitboard) on which
    a piece blocks the check: none unless the checker attacks by sliding only."""
    csq = ctz(checker)
    moves = move_set(tab, pos[MAILBOX + csq] & 7, csq, occ)
    if (tab[LEAP + moves, csq] >> ksq) & 1 != 0:
        return 0
    slides = tab[FLAGS, F_SLIDES + moves]
    for kind in (SLIDE_ORTHOGONAL, SLIDE_DIAGONAL):
        if slides & kind:
            from_king = slider_attacks(tab, kind, ksq, occ)
            if from_king & checker != 0:
                return from_king & slider_attacks(tab, kind, csq, occ)
    return 0


@kernel(INT(POSITION, TABLES, MOVES, INT, INT, UNDO, INT))
def _keep_legal(pos, tab, buf, start, end, undo, sp):
    """Try each move in ``buf[start:end]`` on the board; keep those that do not leave the
    king attacked, packed from ``start``, and return how many were kept."""
    colour = pos[STM]
    kept = start
    for i in range(start, end):
        move = buf[i]
        make_move(pos, tab, move, undo, sp)
        legal = not in_check(pos, tab, colour)
        unmake_move(pos, tab, undo, sp)
        if legal:
            buf[kept] = move
            kept += 1
    return kept - start


@kernel(INT(POSITION, TABLES, MOVES, UNDO, INT, INT, BOOL))
def legal_moves_of_kinds(pos, tab, buf, undo, sp, kinds, count_only):
    """Legal moves of the given ``kinds`` (GEN_* bits) where the king is royal, written into
    ``buf`` from index 0 (or only counted); returns their number.

    Most moves are known legal from where they go and are counted by popcount: a piece must go
    where it resolves the check (anywhere when there is none), and a pinned one stay on its
    line; the king must go where no enemy attacks. Only the moves touching the zones where an
    enemy piece's moves may change (see ``_neighbour_zones``) and drops are tried on the board
    one by one."""
    colour = pos[STM]
    king = pos[BB + colour * 8 + KING]
    if king == 0:
        return generate_or_count(pos, tab, buf, 0, kinds, count_only, EVERYWHERE, EVERYWHERE)
    ksq = ctz(king)
    own = pos[BB + colour * 8]
    theirs = pos[BB + (1 - colour) * 8]
    occ = own | theirs
    zones = _neighbour_zones(pos, tab, colour, occ)
    plain_king = king & zones == 0
    if plain_king:
        # the squares the king may not go to, and whether it is in check now
        danger = attacked_squares(pos, tab, 1 - colour, occ ^ king)
        checked = danger & king != 0
    else:
        checked = square_attacked(pos, tab, ksq, 1 - colour)
    resolving = EVERYWHERE
    if checked:
        checkers = attackers(pos, tab, ksq, 1 - colour, occ)
        resolving = 0
        if checkers & (checkers - 1) == 0:
            resolving = checkers | _check_blocks(pos, tab, ksq, checkers, occ)
    tried = zones & own
    moves = kinds & ~GEN_DROPS
    n = 0
    pinned = 0
    if resolving != 0:
        # a piece in a zone has all its moves tried below, pinned or not
        n, pinned = _pinned_moves(pos, tab, buf, n, moves, count_only, ksq, occ,
                                  own & ~tried, resolving & ~zones)
    free = own & ~tried & ~king & ~pinned
    if free != 0 and resolving != 0:
        n = generate_or_count(pos, tab, buf, n, moves, count_only, free, resolving & ~zones)
    if plain_king:
        safe = ~danger & ~zones & tab[MASKS, M_BOARD]
        n = piece_moves(tab, buf, n, KING, ksq, occ, theirs & safe, ~occ & safe, moves, count_only)
    start = 0 if count_only else n
    end = start
    if tried != 0:
        end = generate(pos, tab, buf, end, moves, tried, EVERYWHERE)
    if zones != 0:
        end = generate(pos, tab, buf, end, moves, own & ~tried, zones)
    if kinds & GEN_DROPS and tab[FLAGS, F_REENTRY] != 0:
        end = generate(pos, tab, buf, end, GEN_DROPS, king, EVERYWHERE)
    if end == start:
        return n
    return n + _keep_legal(pos, tab, buf, start, end, undo, sp)


@leaf_kernel
def _legal_moves(pos, tab, buf, undo, sp, count_only):
    """Legal moves into ``buf`` (or only their number, by popcount where it can be)."""
    if tab[FLAGS, F_ROYALTY] != ROYALTY_CHECK:
        return generate_pseudo_legal(pos, tab, buf, 0, count_only)
    if tab[FLAGS, F_COMPULSORY] != 0:
        n = legal_moves_of_kinds(pos, tab, buf, undo, sp, GEN_CAPTURES, count_only)
        if n != 0:
            return n
        return legal_moves_of_kinds(pos, tab, buf, undo, sp, GEN_QUIETS, count_only)
    return legal_moves_of_kinds(pos, tab, buf, undo, sp, GEN_ALL, count_only)


@kernel(INT(POSITION, TABLES, MOVES, UNDO, INT, BOOL))
def legal_moves(pos, tab, buf, undo, sp, count_only):
    """Write the legal moves into ``buf`` from index 0 and return how many there are; with
    ``count_only`` only count them (by popcount where no check test is needed).

    Game ends are not looked at here; ``undo[sp]`` is used as scratch space.
    """
    return _legal_moves(pos, tab, buf, undo, sp, count_only)


@leaf_kernel
def generate_legal(pos, tab, buf, undo, sp):
    """``legal_moves``: write them into ``buf`` and return how many there are."""
    return legal_moves(pos, tab, buf, undo, sp, False)


@leaf_kernel
def count_legal(pos, tab, buf, undo, sp):
    """``legal_moves``: only count them."""
    return legal_moves(pos, tab, buf, undo, sp, True)


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


@leaf_kernel
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


@kernel(INT(POSITION, TABLES, INT, UNDO, INT, UNDO, UNDO))
def _walk(pos, tab, depth, undo, sp, moves, stack):
    """perft in the buffers it made: ``moves[ply]`` holds the moves at each ply, ``stack``
    how many there are (row 0) and which is being searched (row 1)."""
    if depth <= 0:
        return 1
    if game_end(pos, tab, moves[0], undo, sp) != END_NONE:
        return 0
    if depth == 1:
        return count_legal(pos, tab, moves[0], undo, sp)
    stack[0, 0] = generate_legal(pos, tab, moves[0], undo, sp)
    stack[1, 0] = 0
    nodes = 0
    ply = 0
    while True:
        if stack[1, ply] == stack[0, ply]:
            if ply == 0:
                break
            ply -= 1
        else:
            move = moves[ply, stack[1, ply]]
            stack[1, ply] += 1
            play(pos, tab, move, undo, sp + ply)
            if rule_end(pos, tab, undo, sp + ply + 1) == END_NONE:
                if ply + 2 < depth:
                    ply += 1
                    stack[0, ply] = generate_legal(pos, tab, moves[ply], undo, sp + ply)
                    stack[1, ply] = 0
                    continue
                nodes += _legal_moves(pos, tab, moves[ply + 1], undo, sp + ply + 1, True)
        take_back(pos, tab, undo, sp + ply)
    return nodes


@allocating_kernel(INT(POSITION, TABLES, INT, UNDO, INT))
def perft(pos, tab, depth, undo, sp):
    """Leaf nodes ``depth`` plies below the position (a finished game has no moves).

    The last ply is counted in bulk; the tree is walked with an explicit stack.
    """
    size = max(depth, 1)
    stack = np.zeros((2, size), dtype=np.int64)
    moves = np.zeros((size + 1, MAX_MOVES), dtype=np.int64)
    return _walk(pos, tab, depth, undo, sp, moves, stack)
