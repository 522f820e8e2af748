"""The compiled search: principal-variation alpha-beta with quiescence, on an explicit stack.

One call searches the root to a fixed depth inside a window; iterative deepening, aspiration
windows and time control are driven from Python (``engine.py``). Numba cannot cache recursive
functions, so each ply is a frame of ``frames`` and the recursion is a small state machine:
ENTER a node, pick the NEXT move and descend, come back AFTER_CHILD (or AFTER_NULL) and go on.

Techniques: transposition table, move ordering (hash move, captures by victim and attacker,
killers, history), check extension, null-move pruning (where the variant allows it), late-move
reductions with re-search, mate-distance pruning; scores in centipawns for the side to move,
with ``MATE - plies`` for a forced win.
"""

from collections.abc import Callable
from functools import cache

import numpy as np

from minichess.core.bits import prefetch
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import (
    BB,
    BISHOP,
    DROP,
    F_COMPULSORY,
    F_NO_MOVES,
    F_REPETITION,
    FLAGS,
    HASH,
    KNIGHT,
    MAILBOX,
    MAX_MOVES,
    QUEEN,
    ROOK,
    STM,
)
from minichess.core.makemove import make_null_move, play, take_back, unmake_null_move
from minichess.core.movegen import GEN_CAPTURES, in_check
from minichess.core.rules import (
    END_NONE,
    checks_legality,
    earlier_occurrences,
    legal_moves,
    moves_of_kinds,
    prepare_rules,
    rule_end,
)
from minichess.engine.evaluation import evaluate, piece_value

MATE = 30000
MATE_BOUND = MATE - 1000
"""Scores beyond this are forced wins or losses."""
INFINITE = 32000
MAX_PLY = 128
EVAL_CACHE_ENTRIES = 1 << 14

# control array: set by the caller, read and updated by the search
C_STOP = 0  # set to 1 (from another thread) to stop at once
C_NODES = 1  # nodes searched so far
C_NODE_LIMIT = 2  # stop when this many nodes are searched (0: no limit)
C_SELDEPTH = 3
C_NOISE = 4  # evaluation noise amplitude in centipawns (weaker levels)
C_SEED = 5
C_NULL_MOVE = 6  # 1 where null-move pruning is sound enough for the variant
C_ABORTED = 7  # 1 when the last search was stopped before it finished
C_TT_GENERATION = 8
C_QUIESCENCE_PLIES = 9  # quiescence ends with the static evaluation after this many plies
C_REDUCTIONS = 10  # 1 to reduce late quiet moves (late-move reductions)
CONTROL_SIZE = 16

# frame fields
F_ALPHA, F_BETA, F_DEPTH, F_BEST, F_BEST_MOVE, F_COUNT, F_NEXT, F_STATE = range(8)
F_QUIESCENCE, F_DONE, F_STAGE, F_CHECK, F_ORIGINAL_ALPHA, F_MOVE, F_REDUCTION = range(8, 15)
F_HASH_MOVE, F_NULL, F_PV_LENGTH = range(15, 18)
FRAME_FIELDS = 18

ENTER, NEXT, AFTER_CHILD, AFTER_NULL = range(4)
STAGE_FULL, STAGE_REDUCED, STAGE_NULL_WINDOW = range(3)

BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 1, 2, 3



@kernel()
def tt_store(tt, key, move, score, depth, bound, ply, generation):
    """Store a search result, replacing an older or shallower entry."""
    slot = key & (tt.shape[0] - 1)
    old = tt[slot, 1]
    if tt[slot, 0] == key or (old >> 42) & 255 != generation or (old >> 32) & 255 <= depth:
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        if tt[slot, 0] == key and move == 0:
            move = old & 0xFFFF
        tt[slot, 0] = key
        tt[slot, 1] = (
            (move & 0xFFFF)
            | ((score + 32768) << 16)
            | (max(depth, 0) << 32)
            | (bound << 40)
            | (generation << 42)
        )
    return 0


@leaf_kernel
def tt_entry(tt, key):
    """The stored data for ``key`` (0 when there is none)."""
    slot = key & (tt.shape[0] - 1)
    return tt[slot, 1] if tt[slot, 0] == key else 0


@leaf_kernel
def tt_score(data, ply):
    """The score of a table entry, as seen from a node ``ply`` plies below the root."""
    score = ((data >> 16) & 0xFFFF) - 32768
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@kernel()
def static_eval(pos, tab, weights, evals, scratch, control):
    """Evaluation plus the weaker levels' deterministic noise (``scratch``: unused features).

    ``evals`` remembers the evaluations of recently seen positions by their key: the search
    reaches many positions again by other move orders, and evaluating is a large part of it."""
    key = pos[HASH]
    slot = key & (evals.shape[0] - 1)
    if evals[slot, 0] == key:
        score = evals[slot, 1]
    else:
        score = evaluate(pos, tab, weights, scratch)
        evals[slot, 0] = key
        evals[slot, 1] = score
    amplitude = control[C_NOISE]
    if amplitude > 0:
        mixed = (key ^ control[C_SEED]) * 0x9E3779B97F4A7C15
        score += ((mixed >> 32) & 0xFFFF) % (2 * amplitude + 1) - amplitude
    return score


@leaf_kernel
def end_score(pos, tab, undo, sp, ply):
    """The score of a game end reported by the rules (not "no legal move"), or INFINITE."""
    code = rule_end(pos, tab, undo, sp)
    if code == END_NONE:
        return INFINITE
    result = (code & 3) - 1
    return result * (MATE - ply)


@leaf_kernel
def no_moves_score(pos, tab, ply, checked):
    """Score for the side to move when it has no legal move."""
    if checked != 0:
        return -(MATE - ply)
    return tab[FLAGS, F_NO_MOVES] * (MATE - ply)


@leaf_kernel
def has_pieces(pos):
    """Whether the side to move has a piece other than pawns and king (null move is safer)."""
    base = BB + pos[STM] * 8
    pieces = pos[base + KNIGHT] | pos[base + BISHOP] | pos[base + ROOK] | pos[base + QUEEN]
    return 1 if pieces != 0 else 0


@leaf_kernel
def is_capture(pos, move):
    """Whether ``move`` takes a piece."""
    return 1 if move & DROP == 0 and pos[MAILBOX + ((move >> 6) & 63)] != 0 else 0


@kernel()
def score_moves(pos, tab, weights, moves, order, count, hash_move, ply, killers, history, colour):
    """Ordering keys: hash move, captures (best victim, cheapest attacker), promotions,
    killers, then quiet moves by history."""
    for i in range(count):
        move = moves[i]
        if move == hash_move:
            key = 1 << 40
        elif is_capture(pos, move):
            victim = piece_value(pos, weights, (move >> 6) & 63)
            attacker = piece_value(pos, weights, move & 63)
            key = (1 << 32) + victim * 64 - attacker
        elif move & DROP == 0 and (move >> 12) & 7 != 0:
            key = (1 << 31) + ((move >> 12) & 7)
        elif move == killers[ply, 0]:
            key = 1 << 30
        elif move == killers[ply, 1]:
            key = (1 << 30) - 1
        else:
            key = history[colour, move & 0xFFF]
        order[i] = key
    return 0


@leaf_kernel
def pick_next(moves, order, start, count):
    """Move the best remaining move (by ``order``) to ``start`` and return it."""
    best = start
    for i in range(start + 1, count):
        if order[i] > order[best]:
            best = i
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        order[start], order[best] = order[best], order[start]
    return moves[start]


@leaf_kernel
def quiescence_moves(pos, tab, buf, undo, sp, checked, check_legality):
    """Moves searched in quiescence: every legal move where the side must move that way anyway
    (in check, or captures are compulsory and there is one), else the legal captures. -1 where
    captures are compulsory but there is none: the side stands pat."""
    if checked != 0 or tab[FLAGS, F_COMPULSORY] != 0:
        n = legal_moves(pos, tab, buf, undo, sp, False, check_legality)
        if checked == 0 and n > 0 and is_capture(pos, buf[0]) == 0:
            return -1
        return n
    return moves_of_kinds(pos, tab, buf, undo, sp, GEN_CAPTURES, False, check_legality)


def search(pos: np.ndarray, tab: np.ndarray, weights: np.ndarray, undo: np.ndarray, sp0: int,
           depth: int, alpha: int, beta: int, tt: np.ndarray, evals: np.ndarray,
           killers: np.ndarray, history: np.ndarray, pv: np.ndarray,
           control: np.ndarray) -> int:
    """Search the position to ``depth`` plies in the window (alpha, beta); return the score.

    ``pv[0]`` receives the principal variation, ended by a 0. Stops early when
    ``control[C_STOP]`` is set or the node limit is reached, with ``control[C_ABORTED] = 1``;
    the result is then not to be trusted.
    """
    frames = np.zeros((MAX_PLY + 1, FRAME_FIELDS), dtype=np.int64)
    moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    order = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    scratch = np.zeros(1)
    compiled = search_kernel(checks_legality(tab))
    return int(compiled(pos, tab, weights, undo, sp0, depth, alpha, beta, tt, evals, killers,
                        history, pv, control, frames, moves, order, scratch))


@cache
def search_kernel(check_legality: bool) -> Callable[..., int]:
    """``search``'s compiled work for variants whose king is royal (``check_legality``) or
    not, with the rules it calls compiled first; the caller makes its buffers."""
    prepare_rules(check_legality)
    return _search_with_check if check_legality else _search_no_check


@kernel()  # these two are compiled on first use: a program plays few kinds of variant
def _search_no_check(pos, tab, weights, undo, sp0, depth, alpha, beta, tt, evals, killers,
                     history, pv, control, frames, moves, order, scratch):
    """``search`` where the king is not royal."""
    return _search(pos, tab, weights, undo, sp0, depth, alpha, beta, tt, evals, killers,
                   history, pv, control, frames, moves, order, scratch, False)


@kernel()
def _search_with_check(pos, tab, weights, undo, sp0, depth, alpha, beta, tt, evals, killers,
                       history, pv, control, frames, moves, order, scratch):
    """``search`` where the king is royal."""
    return _search(pos, tab, weights, undo, sp0, depth, alpha, beta, tt, evals, killers,
                   history, pv, control, frames, moves, order, scratch, True)


@leaf_kernel
def _search(pos, tab, weights, undo, sp0, depth, alpha, beta, tt, evals, killers, history, pv,
            control, frames, moves, order, scratch, check_legality):
    """``search`` in its buffers: a stack frame and the moves with their ordering keys per
    ply, and a scratch array for the evaluation."""
    repetition_rule = tab[FLAGS, F_REPETITION] != 0
    generation = control[C_TT_GENERATION]
    control[C_ABORTED] = 0
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    frames[0, F_DEPTH] = depth
    ply = 0
    ret = 0
    while True:
        f = frames[ply]
        sp = sp0 + ply
        state = f[F_STATE]
        returning = False
        if state == ENTER:
            control[C_NODES] += 1
            if control[C_NODES] & 1023 == 0 and (
                control[C_STOP] != 0
                or (control[C_NODE_LIMIT] > 0 and control[C_NODES] >= control[C_NODE_LIMIT])
            ):
                control[C_ABORTED] = 1
            if ply > control[C_SELDEPTH]:
                control[C_SELDEPTH] = ply
            f[F_PV_LENGTH] = 0
            f[F_BEST_MOVE] = 0
            pv[ply, 0] = 0
            if control[C_ABORTED] != 0:
                ret = 0
                returning = True
            elif ply > 0:
                ret = end_score(pos, tab, undo, sp, ply)
                if ret != INFINITE:
                    returning = True
                elif repetition_rule and earlier_occurrences(pos, undo, sp, 1) == 1:
                    ret = 0
                    returning = True
                elif ply >= MAX_PLY - 1:
                    ret = static_eval(pos, tab, weights, evals, scratch, control)
                    returning = True
                else:
                    # mate-distance pruning: nothing here beats a mate found nearer the root
                    f[F_ALPHA] = max(f[F_ALPHA], -(MATE - ply))
                    f[F_BETA] = min(f[F_BETA], MATE - ply - 1)
                    if f[F_ALPHA] >= f[F_BETA]:
                        ret = f[F_ALPHA]
                        returning = True
            if not returning:
                checked = 1 if check_legality and in_check(pos, tab, pos[STM]) else 0
                f[F_CHECK] = checked
                if checked != 0 and f[F_QUIESCENCE] == 0:
                    f[F_DEPTH] += 1
                f[F_ORIGINAL_ALPHA] = f[F_ALPHA]
                f[F_BEST] = -INFINITE
                f[F_DONE] = 0
                f[F_NEXT] = 0
                if f[F_DEPTH] <= 0 and f[F_QUIESCENCE] == 0:
                    f[F_QUIESCENCE] = 1
                # below the frontier nothing is ever stored: a lookup there would cost a
                # memory access per node for the rare position also searched at full depth
                data = tt_entry(tt, pos[HASH]) if f[F_DEPTH] >= 0 else 0
                f[F_HASH_MOVE] = data & 0xFFFF if data != 0 else 0
                pv_node = f[F_BETA] - f[F_ALPHA] > 1
                if data != 0 and ply > 0 and not pv_node and (data >> 32) & 255 >= max(
                    f[F_DEPTH], 0
                ):
                    stored = tt_score(data, ply)
                    bound = (data >> 40) & 3
                    if (
                        bound == BOUND_EXACT
                        or (bound == BOUND_LOWER and stored >= f[F_BETA])
                        or (bound == BOUND_UPPER and stored <= f[F_ALPHA])
                    ):
                        ret = stored
                        returning = True
            quiescence = f[F_QUIESCENCE] != 0
            if not returning and quiescence and -f[F_DEPTH] >= control[C_QUIESCENCE_PLIES]:
                ret = static_eval(pos, tab, weights, evals, scratch, control)
                returning = True
            if not returning and quiescence:
                may_stand = f[F_CHECK] == 0 and tab[FLAGS, F_COMPULSORY] == 0
                if may_stand:  # standing pat may already be enough: no moves needed then
                    stand = static_eval(pos, tab, weights, evals, scratch, control)
                    if stand >= f[F_BETA]:
                        ret = stand
                        returning = True
                    else:
                        f[F_BEST] = stand
                        f[F_ALPHA] = max(f[F_ALPHA], stand)
                if not returning:
                    n = quiescence_moves(pos, tab, moves[ply], undo, sp, f[F_CHECK],
                                         check_legality)
                    f[F_COUNT] = n
                    if n < 0:
                        ret = static_eval(pos, tab, weights, evals, scratch, control)
                        returning = True
                    elif n == 0:
                        ret = f[F_BEST] if may_stand else no_moves_score(pos, tab, ply, f[F_CHECK])
                        returning = True
            elif not returning:
                if (
                    control[C_NULL_MOVE] != 0
                    and ply > 0
                    and f[F_CHECK] == 0
                    and f[F_NULL] == 0
                    and f[F_DEPTH] >= 2
                    and not pv_node
                    and has_pieces(pos) != 0
                    and static_eval(pos, tab, weights, evals, scratch, control) >= f[F_BETA]
                ):
                    make_null_move(pos, tab, undo, sp)
                    child = frames[ply + 1]
                    child[:] = 0
                    child[F_ALPHA] = -f[F_BETA]
                    child[F_BETA] = -f[F_BETA] + 1
                    child[F_DEPTH] = f[F_DEPTH] - 3 - f[F_DEPTH] // 4
                    child[F_NULL] = 1
                    f[F_STATE] = AFTER_NULL
                    ply += 1
                    continue
                n = legal_moves(pos, tab, moves[ply], undo, sp, False, check_legality)
                if n == 0:
                    ret = no_moves_score(pos, tab, ply, f[F_CHECK])
                    returning = True
                f[F_COUNT] = n
            if not returning:
                score_moves(pos, tab, weights, moves[ply], order[ply], f[F_COUNT],
                            f[F_HASH_MOVE], ply, killers, history, pos[STM])
                f[F_STATE] = NEXT
                continue
        elif state == AFTER_NULL:
            unmake_null_move(pos, undo, sp)
            if control[C_ABORTED] != 0:
                ret = 0
                returning = True
            elif -ret >= f[F_BETA]:
                ret = f[F_BETA] if -ret > MATE_BOUND else -ret
                returning = True
            else:
                n = legal_moves(pos, tab, moves[ply], undo, sp, False, check_legality)
                if n == 0:
                    ret = no_moves_score(pos, tab, ply, f[F_CHECK])
                    returning = True
                else:
                    f[F_COUNT] = n
                    score_moves(pos, tab, weights, moves[ply], order[ply], n,
                                f[F_HASH_MOVE], ply, killers, history, pos[STM])
                    f[F_STATE] = NEXT
                    continue
        elif state == AFTER_CHILD:
            score = -ret
            move = f[F_MOVE]
            research = (
                control[C_ABORTED] == 0
                and f[F_STAGE] != STAGE_FULL
                and score > f[F_ALPHA]
                and (f[F_STAGE] == STAGE_REDUCED or score < f[F_BETA])
            )
            if not research:
                take_back(pos, tab, undo, sp)
            if control[C_ABORTED] != 0:
                ret = 0
                returning = True
            elif research:
                # a reduced or null-window search beat alpha: search again, wider or deeper
                child = frames[ply + 1]
                child[:] = 0
                child[F_QUIESCENCE] = f[F_QUIESCENCE]
                if f[F_STAGE] == STAGE_REDUCED:
                    f[F_STAGE] = STAGE_NULL_WINDOW
                    child[F_ALPHA] = -f[F_ALPHA] - 1
                    child[F_BETA] = -f[F_ALPHA]
                else:
                    f[F_STAGE] = STAGE_FULL
                    child[F_ALPHA] = -f[F_BETA]
                    child[F_BETA] = -f[F_ALPHA]
                child[F_DEPTH] = f[F_DEPTH] - 1
                ply += 1
                continue
            else:
                f[F_DONE] += 1
                if score > f[F_BEST]:
                    f[F_BEST] = score
                    if score > f[F_ALPHA]:
                        f[F_BEST_MOVE] = move
                        pv[ply, 0] = move
                        length = 1
                        while pv[ply + 1, length - 1] != 0 and length < MAX_PLY:
                            pv[ply, length] = pv[ply + 1, length - 1]
                            length += 1
                        pv[ply, length] = 0
                        f[F_ALPHA] = score
                        if score >= f[F_BETA]:
                            if f[F_QUIESCENCE] == 0 and is_capture(pos, move) == 0:
                                if killers[ply, 0] != move:
                                    killers[ply, 1] = killers[ply, 0]
                                    killers[ply, 0] = move
                                entry = move & 0xFFF
                                history[pos[STM], entry] = min(
                                    history[pos[STM], entry] + f[F_DEPTH] * f[F_DEPTH], 1 << 24
                                )
                            f[F_NEXT] = f[F_COUNT]  # cut off
                f[F_STATE] = NEXT
                continue
        else:  # NEXT
            if f[F_NEXT] < f[F_COUNT]:
                move = pick_next(moves[ply], order[ply], f[F_NEXT], f[F_COUNT])
                f[F_NEXT] += 1
                quiet = is_capture(pos, move) == 0 and (move >> 12) & 7 == 0
                play(pos, tab, move, undo, sp)
                if f[F_QUIESCENCE] == 0:  # the child looks up its table entry first thing
                    prefetch(tt, pos[HASH] & (tt.shape[0] - 1))
                f[F_MOVE] = move
                child = frames[ply + 1]
                child[:] = 0
                child[F_QUIESCENCE] = f[F_QUIESCENCE]
                new_depth = f[F_DEPTH] - 1
                if f[F_DONE] == 0 or f[F_QUIESCENCE] != 0:
                    f[F_STAGE] = STAGE_FULL
                    child[F_ALPHA] = -f[F_BETA]
                    child[F_BETA] = -f[F_ALPHA]
                    child[F_DEPTH] = new_depth
                else:
                    reduction = 0
                    if (
                        control[C_REDUCTIONS] != 0
                        and f[F_DEPTH] >= 3
                        and f[F_DONE] >= 3
                        and quiet
                        and f[F_CHECK] == 0
                        and move != killers[ply, 0]
                        and move != killers[ply, 1]
                    ):
                        reduction = 1 + (1 if f[F_DONE] >= 8 else 0) + (1 if f[F_DEPTH] >= 8 else 0)
                    f[F_STAGE] = STAGE_REDUCED if reduction > 0 else STAGE_NULL_WINDOW
                    child[F_ALPHA] = -f[F_ALPHA] - 1
                    child[F_BETA] = -f[F_ALPHA]
                    child[F_DEPTH] = new_depth - reduction
                f[F_STATE] = AFTER_CHILD
                ply += 1
                continue
            # all moves searched
            ret = f[F_BEST]
            if f[F_QUIESCENCE] == 0:
                if f[F_BEST] >= f[F_BETA]:
                    bound = BOUND_LOWER
                elif f[F_BEST] > f[F_ORIGINAL_ALPHA]:
                    bound = BOUND_EXACT
                else:
                    bound = BOUND_UPPER
                tt_store(tt, pos[HASH], f[F_BEST_MOVE], f[F_BEST], f[F_DEPTH], bound, ply,
                         generation)
            returning = True
        if returning:
            if ply == 0:
                return ret
            frames[ply, F_STATE] = ENTER
            ply -= 1
