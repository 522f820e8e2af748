"""The compiled search: principal-variation alpha-beta with quiescence, on an explicit stack.

One call searches the root to a fixed depth inside a window; iterative deepening, aspiration
windows and time control are driven from Python (``engine.py``). Numba cannot cache recursive
functions, so each ply is a frame of ``frames`` and the recursion is a small state machine:
``ENTER`` a node, pick the ``NEXT`` move and descend, come back ``AFTER_CHILD`` (or
``AFTER_NULL``) and go on. Each state calls the named steps below, in the order the strong
engines take them:

entering a node (``enter_node``)
  1. game ends by the rules, repetition, a king that can be taken, the endgame tables,
     mate-distance pruning
  2. check (the king attacked, where a king is royal or can be taken) and its extension
  3. transposition table: the stored move, and a cut-off by the stored score
  4. static evaluation, corrected by the correction history, and whether it improves on two
     plies before
  5. quiescence: stand pat (``enter_quiescence``)
  6. razoring, reverse futility pruning, null-move pruning (``prune_node``)
  7. internal iterative reduction where no move is stored
  8. the moves, ordered by stored move, captures by victim and history, killers, counter
     move, quiet moves by their histories (``order_moves``)

the move loop (``next_move``)
  9. pruning at shallow depth: late-move (move count), futility, history and static
     exchange (``skip_move``)
  10. late-move reductions by depth, move number and history (``reduction``)

after a child (``after_child``)
  11. re-searches of reduced and null-window searches that beat alpha
  12. the best move; at a cut-off the histories learn (``reward_cutoff``)

leaving a node (``finish_node``)
  13. no move: checkmate or the variant's rule; the result stored in the table; the
      correction history learns

Scores are centipawns for the side to move, ``MATE - plies`` for a forced win.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from minichess.core.bits import popcount, prefetch
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import (
    BB,
    BISHOP,
    F_ANY_ISOLATED,
    F_COMPULSORY,
    F_MOVE_LIMIT,
    F_REPETITION,
    F_ROYALTY,
    FLAGS,
    HASH,
    KING,
    KNIGHT,
    MAILBOX,
    MAX_MOVES,
    PAWN,
    PLY,
    QUEEN,
    ROOK,
    SLIDE_DIAGONAL,
    SLIDE_ORTHOGONAL,
    STM,
)
from minichess.core.makemove import (
    UNDO_CAPTURED,
    make_null_move,
    play,
    take_back,
    unmake_null_move,
)
from minichess.core.move_code import from_to, is_drop, move_origin, move_piece, move_target
from minichess.core.movegen import (
    BOTH_COLOURS,
    GEN_CAPTURES,
    attackers,
    in_check,
    slider_attacks,
    sliding_pieces,
)
from minichess.core.rules import (
    END_NONE,
    ROYALTY_CAPTURE,
    checks_legality,
    earlier_occurrences,
    end_result,
    legal_moves,
    moves_of_kinds,
    no_moves_result,
    prepare_rules,
    rule_end,
)
from minichess.engine.endgame import (
    EXTRA_PIECES,
    NO_ENTRY,
    NO_TABLES_OFFSETS,
    NO_TABLES_VALUES,
    EndgameTables,
    locate,
)
from minichess.engine.evaluation import W_MATERIAL, WEIGHT_COUNT, weighted_sum
from minichess.engine.network import (
    ACCUMULATOR_ROW,
    UNIT_TYPE,
    network_score_at,
    record_move,
    record_root,
    record_same,
)
from minichess.engine.weights import EvaluationParameters

MATE = 30000
MATE_BOUND = MATE - 1000
"""Scores beyond this are forced wins or losses."""
INFINITE = 32000
NO_EVAL = -INFINITE - 1
"""The static evaluation of a node in check (none: it must answer the check)."""
MAX_PLY = 128
EVAL_CACHE_ENTRIES = 1 << 14

# --- the control array: set by the caller, read and updated by the search -------------------------
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
C_PRUNING = 11  # 1 to prune at shallow depth (futility, move count, razoring, exchanges)
C_SINGULAR = 12  # 1 for singular extensions
C_FORCED = 13  # 1 to extend the only legal move
C_CORRECTION = 14  # 1 to correct the static evaluation by what searches found (see correct_eval)
C_FORCED_SPAN = 15  # the forced-move extension applies within this many times the root's depth
# the search's margins and rates (Techniques documents each; SPSA tunes them)
C_RAZOR_MARGIN = 16
C_FUTILITY_MARGIN = 17
C_MOVE_FUTILITY_BASE = 18
C_MOVE_FUTILITY_PER_PLY = 19
C_QUIESCENCE_FUTILITY = 20
C_REDUCTION_BASE = 21
C_REDUCTION_SCALE = 22
C_REDUCTION_HISTORY = 23
C_QUIET_EXCHANGE = 24
C_CAPTURE_EXCHANGE = 25
C_HISTORY_PRUNING = 26
C_NULL_MOVE_DIVISOR = 27
CONTROL_SIZE = 32
SEARCH_CONSTANTS = {
    "razor_margin": C_RAZOR_MARGIN,
    "futility_margin": C_FUTILITY_MARGIN,
    "move_futility_base": C_MOVE_FUTILITY_BASE,
    "move_futility_per_ply": C_MOVE_FUTILITY_PER_PLY,
    "quiescence_futility": C_QUIESCENCE_FUTILITY,
    "reduction_base": C_REDUCTION_BASE,
    "reduction_scale": C_REDUCTION_SCALE,
    "reduction_history": C_REDUCTION_HISTORY,
    "quiet_exchange": C_QUIET_EXCHANGE,
    "capture_exchange": C_CAPTURE_EXCHANGE,
    "history_pruning": C_HISTORY_PRUNING,
    "null_move_divisor": C_NULL_MOVE_DIVISOR,
}
"""The search constants by their names in :class:`~minichess.engine.Techniques` and the
control entry each is read from."""
TECHNIQUE_CONTROLS = {
    "null_move": C_NULL_MOVE,
    "reductions": C_REDUCTIONS,
    "pruning": C_PRUNING,
    "singular": C_SINGULAR,
    "forced": C_FORCED,
    "forced_span": C_FORCED_SPAN,
    "correction": C_CORRECTION,
    "quiescence_plies": C_QUIESCENCE_PLIES,
}
"""The techniques' switches (1 or 0) and numbers by their names in
:class:`~minichess.engine.Techniques` and the control entry each is read from."""

# --- frame fields: one frame per ply --------------------------------------------------------------
F_ALPHA = 0
F_BETA = 1
F_DEPTH = 2  # remaining depth; at most 0 in quiescence
F_BEST = 3  # best score so far
F_BEST_MOVE = 4
F_COUNT = 5  # moves in the list
F_NEXT = 6  # index of the next move to pick
F_STATE = 7  # ENTER, NEXT, AFTER_CHILD or AFTER_NULL
F_QUIESCENCE = 8  # 1 in quiescence
F_SEARCHED = 9  # moves searched so far
F_STAGE = 10  # STAGE_*: which search of the current move is under way
F_CHECK = 11  # 1 when the side to move's king is attacked
F_ORIGINAL_ALPHA = 12
F_MOVE = 13  # the move being searched
F_NEW_DEPTH = 14  # depth of the current move's full-depth search
F_HASH_MOVE = 15
F_NULL = 16  # 1 in the child of a null move
F_EVAL = 17  # static evaluation (NO_EVAL in check)
F_IMPROVING = 18  # 1 when the evaluation is better than two plies before
F_PREVIOUS = 19  # continuation key of the move that led here (0: none, or a null move)
F_PV_NODE = 20  # 1 in a node searched with an open window
F_CUT_NODE = 21  # 1 where a fail high is expected
F_QUIETS_TRIED = 22
F_CAPTURES_TRIED = 23
F_SKIP_QUIETS = 24  # 1 once late-move pruning skips the remaining quiet moves
F_QUIET = 25  # 1 when the move being searched is quiet
F_DISTANCE = 26  # plies from the root to this position (a frame of its own for a singular search
# of the same position has its parent's distance), for the distance of mates
F_EXCLUDED = 27  # in a singular search: the move left out (the parent's stored move)
F_TT_SCORE = 28  # the table entry's score, depth and bound (F_TT_BOUND 0: no entry)
F_TT_DEPTH = 29
F_TT_BOUND = 30
F_SINGULAR = 31  # 1 when the stored move proved singular: it is searched a ply deeper
F_MUST_CAPTURE = 32  # 1 where captures are compulsory and the side to move has one
F_RAW_EVAL = 33  # the static evaluation before its correction (stored in the table)
FRAME_FIELDS = 34

ENTER, NEXT, AFTER_CHILD, AFTER_NULL, AFTER_SINGULAR = range(5)
STAGE_FULL, STAGE_REDUCED, STAGE_NULL_WINDOW = range(3)
TRIED_MAX = 64
"""Moves per node remembered for the histories' penalties (quiet moves, and captures)."""

# --- the transposition table: rows of (key, data) -------------------------------------------------
# data: move 16 bits | score + 32768 16 | depth 8 | bound 2 | generation 6 | eval + 32768 16
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 1, 2, 3


@leaf_kernel
def tt_move(data):
    """The move stored in a table entry (0: none)."""
    return data & 0xFFFF


@leaf_kernel
def tt_depth(data):
    """The depth the stored result was searched to."""
    return (data >> 32) & 255


@leaf_kernel
def tt_bound(data):
    """BOUND_EXACT, BOUND_LOWER or BOUND_UPPER."""
    return (data >> 40) & 3


@leaf_kernel
def tt_generation(data):
    """The search that stored the entry (modulo 64)."""
    return (data >> 42) & 63


@leaf_kernel
def tt_eval(data):
    """The static evaluation stored with the entry (NO_EVAL: none)."""
    return ((data >> 48) & 0xFFFF) - 32768


@leaf_kernel
def tt_score(data, ply):
    """The score of a table entry, as seen from a node ``ply`` plies below the root."""
    score = ((data >> 16) & 0xFFFF) - 32768
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@leaf_kernel
def tt_entry(tt, key):
    """The stored data for ``key`` (0 when there is none)."""
    slot = key & (tt.shape[0] - 1)
    return tt[slot, 1] if tt[slot, 0] == key else 0


@leaf_kernel
def tt_store(tt, key, move, score, depth, bound, ply, generation, static_eval):
    """Store a search result, replacing an entry of another search, or a shallower one."""
    slot = key & (tt.shape[0] - 1)
    old = tt[slot, 1]
    same = tt[slot, 0] == key
    if same or tt_generation(old) != generation or tt_depth(old) <= depth + 2:
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        if same and move == 0:
            move = tt_move(old)
        tt[slot, 0] = key
        tt[slot, 1] = (
            (move & 0xFFFF)
            | ((score + 32768) << 16)
            | (max(depth, 0) << 32)
            | (bound << 40)
            | ((generation & 63) << 42)
            | ((static_eval + 32768) << 48)
        )


# --- evaluation -----------------------------------------------------------------------------------


@kernel()
def static_eval(pos, tab, weights, network, evals, accumulators, ply, control):
    """Evaluation plus the weaker levels' deterministic noise (``accumulators``: the network's
    working room).

    ``evals`` remembers the evaluations of recently seen positions by their key: the search
    reaches many positions again by other move orders, and evaluating is a large part of it."""
    key = pos[HASH]
    slot = key & (evals.shape[0] - 1)
    if evals[slot, 0] == key:
        score = evals[slot, 1]
    else:
        score = weighted_sum(pos, tab, weights, accumulators[ply])
        if weights.shape[0] > WEIGHT_COUNT:
            score += network_score_at(pos, tab, weights, WEIGHT_COUNT, network, accumulators,
                                      ply)
        evals[slot, 0] = key
        evals[slot, 1] = score
    amplitude = control[C_NOISE]
    if amplitude > 0:
        mixed = (key ^ control[C_SEED]) * 0x9E3779B97F4A7C15
        score += ((mixed >> 32) & 0xFFFF) % (2 * amplitude + 1) - amplitude
    return score


CORRECTION_ENTRIES = 1 << 14
CORRECTION_GRAIN = 256
"""A correction entry holds centipawns times this."""
CORRECTION_MAX = 96 * CORRECTION_GRAIN
"""The largest correction, in entry units: about a pawn."""
STRUCTURE_MIX_WHITE = 0x2545F4914F6CDD1D
STRUCTURE_MIX_BLACK = 0x5851F42D4C957F2D


@leaf_kernel
def correction_slot(pos):
    """The correction entry of the position's pawns and kings (a multiplicative hash of each
    side's pawns and king: its high bits are the well-mixed ones)."""
    key = ((pos[BB + PAWN] | pos[BB + KING]) * STRUCTURE_MIX_WHITE) ^ (
        (pos[BB + 8 + PAWN] | pos[BB + 8 + KING]) * STRUCTURE_MIX_BLACK)
    return (key >> 40) & (CORRECTION_ENTRIES - 1)


@leaf_kernel
def correct_eval(pos, correction, raw, control):
    """Step 4's correction history: the static evaluation plus the mean error that searches
    of positions with the same pawns, kings and side to move found in it
    (``learn_correction``): an evaluation errs alike in positions that share them (the
    shelter of a king, a pawn chain)."""
    if control[C_CORRECTION] == 0:
        return raw
    entry = correction[pos[STM], correction_slot(pos)]
    return max(-MATE_BOUND + 1, min(MATE_BOUND - 1, raw + entry // CORRECTION_GRAIN))


@leaf_kernel
def learn_correction(pos, correction, f, bound, control):
    """Step 13: a node searched at depth whose best move is quiet moves the correction of
    its pawns and kings towards the search's score less the corrected evaluation, the more
    the deeper the search (a bound only when it lies on the side it bounds). Measured from the
    corrected evaluation, an entry settles at half the mean error: learning the whole error
    lost in a match (the record in docs/engine.md)."""
    best = f[F_BEST]
    value = f[F_EVAL]
    if (control[C_CORRECTION] == 0 or f[F_QUIESCENCE] != 0 or f[F_CHECK] != 0
            or value == NO_EVAL or abs(best) >= MATE_BOUND
            or (f[F_BEST_MOVE] != 0 and is_capture(pos, f[F_BEST_MOVE]))
            or (bound == BOUND_LOWER and best <= value)
            or (bound == BOUND_UPPER and best >= value)):
        return
    weight = min(f[F_DEPTH] + 1, 16)
    slot = correction_slot(pos)
    side = pos[STM]
    target = (best - value) * CORRECTION_GRAIN
    entry = (correction[side, slot] * (256 - weight) + target * weight) // 256
    correction[side, slot] = max(-CORRECTION_MAX, min(CORRECTION_MAX, entry))


@leaf_kernel
def end_score(pos, tab, undo, sp, ply):
    """The score of a game end reported by the rules (not "no legal move"), or INFINITE."""
    code = rule_end(pos, tab, undo, sp)
    if code == END_NONE:
        return INFINITE
    return end_result(code) * (MATE - ply)


@leaf_kernel
def no_moves_score(tab, ply, checked):
    """Score for the side to move when it has no legal move (``no_moves_result``)."""
    return no_moves_result(tab, checked) * (MATE - ply)


@leaf_kernel
def king_attacked(pos, tab, colour):
    """Whether ``colour`` has a king (royal, or one whose capture ends the game) under attack:
    in check, which the side to move must answer."""
    return tab[FLAGS, F_ROYALTY] != 0 and in_check(pos, tab, colour)


@leaf_kernel
def can_take_king(pos, tab):
    """Whether the side to move can capture the opponent's king and win (king-capture rules)."""
    return tab[FLAGS, F_ROYALTY] == ROYALTY_CAPTURE and in_check(pos, tab, 1 - pos[STM])


@leaf_kernel
def has_pieces(pos):
    """Whether the side to move has a piece other than pawns and king (null move is safer)."""
    base = BB + pos[STM] * 8
    pieces = pos[base + KNIGHT] | pos[base + BISHOP] | pos[base + ROOK] | pos[base + QUEEN]
    return pieces != 0


# --- moves: captures, exchanges, continuation keys ------------------------------------------------

KING_VALUE = 20000
"""A king's worth in exchanges: taking it wins (king capture), and a royal king is never
taken."""


@leaf_kernel
def is_capture(pos, move):
    """Whether ``move`` takes a piece."""
    return not is_drop(move) and pos[MAILBOX + move_target(move)] != 0


@leaf_kernel
def type_value(weights, piece_type):
    """The material worth of a piece type (its weight's size; a king's is KING_VALUE)."""
    if piece_type == KING:
        return KING_VALUE
    return abs(weights[W_MATERIAL + piece_type])


@leaf_kernel
def piece_value(pos, weights, sq):
    """Material worth of the piece on ``sq`` (0 when empty)."""
    code = pos[MAILBOX + sq]
    return type_value(weights, code & 7) if code != 0 else 0


@leaf_kernel
def continuation_key(pos, move):
    """The moving piece (colour and type) and its target square in one number below 1024,
    for the continuation histories; read before the move is played."""
    code = pos[STM] * 8 + move_piece(move) if is_drop(move) else pos[MAILBOX + move_origin(move)]
    return code * 64 + move_target(move)


@kernel()
def exchange_at_least(pos, tab, weights, move, threshold):
    """Static exchange evaluation: whether ``move`` wins at least ``threshold`` (centipawns)
    when both sides go on capturing on its target square with their least valuable piece,
    each free to stop. Drops and promotions are taken as even."""
    if is_drop(move) or move_piece(move) != 0:
        return threshold <= 0
    origin = move_origin(move)
    target = move_target(move)
    swap = piece_value(pos, weights, target) - threshold
    if swap < 0:
        return False
    swap = piece_value(pos, weights, origin) - swap
    if swap <= 0:
        return True
    occupied = (pos[BB] | pos[BB + 8]) ^ (1 << origin) ^ (1 << target)
    side = pos[MAILBOX + origin] >> 3
    both = attackers(pos, tab, target, BOTH_COLOURS, occupied)
    orthogonal = sliding_pieces(pos, tab, SLIDE_ORTHOGONAL, BOTH_COLOURS)
    diagonal = sliding_pieces(pos, tab, SLIDE_DIAGONAL, BOTH_COLOURS)
    result = 1
    while True:
        side = 1 - side
        both &= occupied
        own = both & pos[BB + side * 8]
        if own == 0:
            break
        result ^= 1
        piece_type = PAWN
        lowest = own & pos[BB + side * 8 + PAWN]
        while lowest == 0:
            piece_type += 1
            lowest = own & pos[BB + side * 8 + piece_type]
        if piece_type == KING:  # the king takes only if nothing can take it back
            return result ^ 1 if both & pos[BB + (1 - side) * 8] != 0 else result
        swap = type_value(weights, piece_type) - swap
        if swap < result:
            break
        occupied ^= lowest & -lowest
        if tab[FLAGS, F_ANY_ISOLATED] != 0:  # a capture may change how pieces near it move
            both = attackers(pos, tab, target, BOTH_COLOURS, occupied)
        else:  # only the sliders behind the piece that took are new
            both |= (slider_attacks(tab, SLIDE_ORTHOGONAL, target, occupied) & orthogonal
                     | slider_attacks(tab, SLIDE_DIAGONAL, target, occupied) & diagonal)
    return result != 0


# --- histories ------------------------------------------------------------------------------------

HISTORY_MAX = 16384
"""Every history score stays within plus or minus this (updates shrink as they near it)."""


@leaf_kernel
def history_bonus(depth):
    """How much a cut-off at ``depth`` teaches the histories."""
    return min(16 * depth * depth + 128 * depth - 128, 2000)


@leaf_kernel
def learn(table, row, column, bonus):
    """Move a history entry towards ``bonus``'s sign, less the nearer it is to the limit."""
    value = table[row, column]
    table[row, column] = value + bonus - value * abs(bonus) // HISTORY_MAX


@leaf_kernel
def quiet_score(pos, move, frames, ply, quiet_history, continuation):
    """What the histories say of a quiet move: the butterfly history of its squares and the
    continuation histories after the last two moves."""
    key = continuation_key(pos, move)
    score = quiet_history[pos[STM], from_to(move)]
    score += continuation[frames[ply, F_PREVIOUS], key]
    if ply > 0:
        score += continuation[frames[ply - 1, F_PREVIOUS], key]
    return score


@leaf_kernel
def learn_quiet(pos, move, frames, ply, quiet_history, continuation, bonus):
    """Teach the histories of a quiet move ``bonus`` (negative: a penalty)."""
    key = continuation_key(pos, move)
    learn(quiet_history, pos[STM], from_to(move), bonus)
    if frames[ply, F_PREVIOUS] != 0:
        learn(continuation, frames[ply, F_PREVIOUS], key, bonus)
    if ply > 0 and frames[ply - 1, F_PREVIOUS] != 0:
        learn(continuation, frames[ply - 1, F_PREVIOUS], key, bonus)


@leaf_kernel
def capture_row(pos, move):
    """The capture history's entry of a capture: moving piece and target, taken type."""
    return continuation_key(pos, move), pos[MAILBOX + move_target(move)] & 7


@kernel()
def reward_cutoff(pos, frames, ply, move, tried_quiets, tried_captures, killers, counters,
                  quiet_history, continuation, capture_history):
    """A move caused a cut-off: it and the moves before it teach the histories (the move a
    bonus, the quiet moves (and captures) tried before it a penalty); a quiet move becomes
    a killer and the counter move to the previous move."""
    f = frames[ply]
    bonus = history_bonus(f[F_DEPTH])
    if is_capture(pos, move):
        row, column = capture_row(pos, move)
        learn(capture_history, row, column, bonus)
    else:
        if killers[ply, 0] != move:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = move
        if f[F_PREVIOUS] != 0:
            counters[f[F_PREVIOUS]] = move
        learn_quiet(pos, move, frames, ply, quiet_history, continuation, bonus)
        for i in range(f[F_QUIETS_TRIED]):
            learn_quiet(pos, tried_quiets[ply, i], frames, ply, quiet_history, continuation,
                        -bonus)
    for i in range(f[F_CAPTURES_TRIED]):
        row, column = capture_row(pos, tried_captures[ply, i])
        learn(capture_history, row, column, -bonus)
    return 0


# --- move ordering --------------------------------------------------------------------------------

ORDER_HASH = 1 << 40
ORDER_GOOD_CAPTURE = 1 << 32
ORDER_PROMOTION = 1 << 31
ORDER_KILLER = 1 << 30
ORDER_BAD_CAPTURE = -(1 << 32)


@kernel()
def order_moves(pos, tab, weights, moves, order, count, hash_move, frames, ply, killers,
                counters, quiet_history, continuation, capture_history):
    """Ordering keys: the stored move, captures that do not lose material (by victim and
    capture history), promotions, killers, the counter move, quiet moves by their histories,
    and last the captures that lose material."""
    exchanges = tab[FLAGS, F_COMPULSORY] == 0  # where captures are forced, all must be tried
    counter = counters[frames[ply, F_PREVIOUS]]
    for i in range(count):
        move = moves[i]
        if move == hash_move:
            key = ORDER_HASH
        elif is_capture(pos, move):
            victim = piece_value(pos, weights, move_target(move))
            row, column = capture_row(pos, move)
            key = capture_history[row, column] // 4
            if exchanges:  # where captures are forced, material is no guide: the history is
                key += victim * 16
            if (exchanges and victim < piece_value(pos, weights, move_origin(move))
                    and not exchange_at_least(pos, tab, weights, move, 0)):
                key += ORDER_BAD_CAPTURE
            else:
                key += ORDER_GOOD_CAPTURE
        elif not is_drop(move) and move_piece(move) != 0:
            key = ORDER_PROMOTION + move_piece(move)
        elif move == killers[ply, 0]:
            key = ORDER_KILLER + 2
        elif move == killers[ply, 1]:
            key = ORDER_KILLER + 1
        elif move == counter:
            key = ORDER_KILLER
        else:
            key = quiet_score(pos, move, frames, ply, quiet_history, continuation)
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
        if checked == 0 and n > 0 and not is_capture(pos, buf[0]):
            return -1
        return n
    return moves_of_kinds(pos, tab, buf, undo, sp, GEN_CAPTURES, False, check_legality)


# --- pruning and reductions ----------------------------------------------------------------------

FUTILITY_DEPTH = 7
"""Reverse futility pruning: the greatest depth where the evaluation alone may cut."""


@leaf_kernel
def late_move_limit(depth, improving):
    """Quiet moves searched at ``depth`` before late-move pruning skips the rest."""
    return (3 + depth * depth) // (2 - improving)


@leaf_kernel
def base_reduction(reductions, depth, move_number, control):
    """Late-move reduction in 1/1024 plies by depth and move number alone (from 1)."""
    return control[C_REDUCTION_BASE] + (reductions[min(depth, 63), min(move_number, 63)]
                                        * control[C_REDUCTION_SCALE] // 1024)


@leaf_kernel
def reduction(reductions, f, move_number, quiet, history, control):
    """Late-move reduction in plies for the ``move_number``-th move (from 1) of the node of
    frame ``f``: more for later moves at greater depth, less in principal-variation nodes,
    where the evaluation improves and for moves with a good history."""
    r = base_reduction(reductions, f[F_DEPTH], move_number, control)
    if f[F_IMPROVING] == 0:
        r += 512
    if f[F_PV_NODE] != 0:
        r -= 1024
    if f[F_CUT_NODE] != 0:
        r += 1024
    if quiet:
        r -= history // control[C_REDUCTION_HISTORY]
    else:
        r -= 1024
    return max(r, 0) // 1024


# --- the node steps -------------------------------------------------------------------------------

RETURN, SEARCH_MOVES, TRY_NULL_MOVE, RAZOR = range(4)
"""What a node's first steps decided: return ``f[F_BEST]``, go on to the moves, try a null
move, or (razoring) search only captures."""


@leaf_kernel
def new_child(frames, ply, alpha, beta, depth, previous, pv_node, cut_node):
    """Set up the frame of the node one ply below ``ply``."""
    child = frames[ply + 1]
    child[:] = 0
    child[F_DISTANCE] = frames[ply, F_DISTANCE] + 1
    child[F_ALPHA] = alpha
    child[F_BETA] = beta
    child[F_DEPTH] = depth
    child[F_QUIESCENCE] = frames[ply, F_QUIESCENCE]
    child[F_PREVIOUS] = previous
    child[F_PV_NODE] = pv_node
    child[F_CUT_NODE] = cut_node
    return child


@leaf_kernel
def game_over_score(pos, tab, undo, sp, ply, repetition_rule):
    """Step 1: the score of a node the rules end (or the side to move wins at once by taking
    the king), or INFINITE while the game goes on."""
    ret = end_score(pos, tab, undo, sp, ply)
    if ret != INFINITE:
        return ret
    if repetition_rule and earlier_occurrences(pos, undo, sp, 1) == 1:
        return 0
    if can_take_king(pos, tab):
        return MATE - ply - 1
    return INFINITE


@leaf_kernel
def endgame_score(pos, tab, endgame, endgame_offsets, distance):
    """Step 1 with endgame tables (``endgame.py``): the exact score of a position they hold,
    scored as a king capture that many plies away; a win or loss further away than the plies
    left before the move limit is a draw. INFINITE when they do not hold it."""
    if popcount(pos[BB] | pos[BB + 8]) > 2 + EXTRA_PIECES:
        return INFINITE
    where = locate(pos, tab, endgame_offsets)
    if where == NO_ENTRY:
        return INFINITE
    stored = endgame[where]
    plies = abs(stored)
    limit = tab[FLAGS, F_MOVE_LIMIT]
    if stored == 0 or (limit != 0 and plies > limit - pos[PLY]):
        return 0
    return MATE - distance - plies if stored > 0 else -(MATE - distance - plies)


@leaf_kernel
def uses_table(f):
    """Whether the node of frame ``f`` looks up and stores the transposition table: every
    node outside quiescence and quiescence's first ply."""
    return f[F_DEPTH] >= 0


@kernel()
def enter_quiescence(pos, tab, weights, network, undo, sp, ply, frames, moves, evals,
                     accumulators, control, correction, check_legality):
    """Step 5: quiescence. The side to move may stand pat on its evaluation (not in check nor
    where a capture is forced); otherwise the captures, or all moves where it must move so.
    Returns RETURN (score in ``F_BEST``) or SEARCH_MOVES."""
    f = frames[ply]
    if -f[F_DEPTH] >= control[C_QUIESCENCE_PLIES]:
        raw = static_eval(pos, tab, weights, network, evals, accumulators, ply, control)
        f[F_BEST] = correct_eval(pos, correction, raw, control)
        return RETURN
    may_stand = f[F_CHECK] == 0 and tab[FLAGS, F_COMPULSORY] == 0
    if may_stand:
        f[F_RAW_EVAL] = static_eval(pos, tab, weights, network, evals, accumulators, ply,
                                    control)
        stand = correct_eval(pos, correction, f[F_RAW_EVAL], control)
        f[F_EVAL] = stand
        f[F_BEST] = stand
        if stand >= f[F_BETA]:
            return RETURN
        f[F_ALPHA] = max(f[F_ALPHA], stand)
    n = quiescence_moves(pos, tab, moves[ply], undo, sp, f[F_CHECK], check_legality)
    f[F_COUNT] = n
    if n < 0:
        raw = static_eval(pos, tab, weights, network, evals, accumulators, ply, control)
        f[F_BEST] = correct_eval(pos, correction, raw, control)
        return RETURN
    if n == 0:
        if not may_stand:
            f[F_BEST] = no_moves_score(tab, f[F_DISTANCE], f[F_CHECK])
        return RETURN
    return SEARCH_MOVES


@kernel()
def enter_node(pos, tab, weights, network, undo, sp, ply, frames, moves, tt, evals, accumulators,
               control, correction, endgame, endgame_offsets, check_legality):
    """Steps 1 to 7 for the node at ``ply``: returns RETURN (its score in ``F_BEST``),
    TRY_NULL_MOVE, or SEARCH_MOVES with the moves generated (``F_COUNT``)."""
    f = frames[ply]
    f[F_BEST_MOVE] = 0
    f[F_BEST] = -INFINITE
    f[F_EVAL] = NO_EVAL
    f[F_RAW_EVAL] = NO_EVAL
    if control[C_ABORTED] != 0:
        f[F_BEST] = 0
        return RETURN
    distance = f[F_DISTANCE]
    # 1. game end, repetition, king capture, endgame tables; mate-distance pruning (a
    # singular search looks again at its parent's position, which is none of these)
    if ply > 0 and f[F_EXCLUDED] == 0:
        ret = game_over_score(pos, tab, undo, sp, distance, tab[FLAGS, F_REPETITION] != 0)
        if ret == INFINITE and endgame.shape[0] > 0:
            ret = endgame_score(pos, tab, endgame, endgame_offsets, distance)
        if ret == INFINITE and ply >= MAX_PLY - 1:
            ret = static_eval(pos, tab, weights, network, evals, accumulators, ply, control)
        if ret != INFINITE:
            f[F_BEST] = ret
            return RETURN
        f[F_ALPHA] = max(f[F_ALPHA], -(MATE - distance))
        f[F_BETA] = min(f[F_BETA], MATE - distance - 1)
        if f[F_ALPHA] >= f[F_BETA]:
            f[F_BEST] = f[F_ALPHA]
            return RETURN
    # 2. check, and its extension
    f[F_CHECK] = 1 if king_attacked(pos, tab, pos[STM]) else 0
    if f[F_CHECK] != 0 and f[F_QUIESCENCE] == 0 and f[F_EXCLUDED] == 0:
        f[F_DEPTH] += 1
    if f[F_DEPTH] <= 0:
        f[F_QUIESCENCE] = 1
    f[F_ORIGINAL_ALPHA] = f[F_ALPHA]
    # 3. transposition table (not in a singular search, whose result leaves a move out)
    data = (tt_entry(tt, pos[HASH])
            if uses_table(f) and f[F_EXCLUDED] == 0 else 0)
    f[F_HASH_MOVE] = tt_move(data) if data != 0 else 0
    if data != 0:
        stored = tt_score(data, distance)
        bound = tt_bound(data)
        f[F_TT_SCORE] = stored
        f[F_TT_DEPTH] = tt_depth(data)
        f[F_TT_BOUND] = bound
        if ply > 0 and f[F_PV_NODE] == 0 and tt_depth(data) >= max(f[F_DEPTH], 0) and (
                bound == BOUND_EXACT or (bound == BOUND_LOWER and stored >= f[F_BETA])
                or (bound == BOUND_UPPER and stored <= f[F_ALPHA])):
            f[F_BEST] = stored
            return RETURN
    if f[F_QUIESCENCE] != 0:
        return enter_quiescence(pos, tab, weights, network, undo, sp, ply, frames, moves, evals,
                                accumulators, control, correction, check_legality)
    if tab[FLAGS, F_COMPULSORY] != 0:
        f[F_MUST_CAPTURE] = 1 if moves_of_kinds(pos, tab, moves[ply], undo, sp, GEN_CAPTURES,
                                                True, check_legality) > 0 else 0
    # 4. static evaluation, corrected; improving
    if f[F_CHECK] == 0:
        if data != 0 and tt_eval(data) != NO_EVAL and control[C_NOISE] == 0:
            f[F_RAW_EVAL] = tt_eval(data)
        else:
            f[F_RAW_EVAL] = static_eval(pos, tab, weights, network, evals, accumulators, ply,
                                        control)
        f[F_EVAL] = correct_eval(pos, correction, f[F_RAW_EVAL], control)
    f[F_IMPROVING] = 1
    if f[F_EXCLUDED] != 0:
        f[F_IMPROVING] = frames[ply - 1, F_IMPROVING]
    elif ply >= 2 and f[F_EVAL] != NO_EVAL:
        before = frames[ply - 2, F_EVAL]
        if before == NO_EVAL and ply >= 4:
            before = frames[ply - 4, F_EVAL]
        f[F_IMPROVING] = 1 if before == NO_EVAL or f[F_EVAL] > before else 0
    # 6. razoring, reverse futility pruning, null move
    action = prune_node(pos, tab, f, ply, control)
    if action == RAZOR:  # this node becomes a quiescence node
        f[F_DEPTH] = 0
        f[F_QUIESCENCE] = 1
        return enter_quiescence(pos, tab, weights, network, undo, sp, ply, frames, moves, evals,
                                accumulators, control, correction, check_legality)
    if action != SEARCH_MOVES:
        return action
    return generate_moves(pos, tab, undo, sp, ply, frames, moves, check_legality)


@leaf_kernel
def prune_node(pos, tab, f, ply, control):
    """Step 6 before any move is searched, in nodes not on the principal variation and not in
    check: RETURN (``F_BEST``: the evaluation) when it is so far above beta that a search is
    not needed, RAZOR when it is so far below alpha at depth 1 that only captures can help,
    TRY_NULL_MOVE when passing may already be enough, else SEARCH_MOVES."""
    if (ply == 0 or f[F_PV_NODE] != 0 or f[F_CHECK] != 0 or f[F_EXCLUDED] != 0
            or f[F_MUST_CAPTURE] != 0):  # a forced capture is no position to judge statically
        return SEARCH_MOVES
    depth = f[F_DEPTH]
    value = f[F_EVAL]
    if control[C_PRUNING] != 0 and abs(f[F_BETA]) < MATE_BOUND:
        if depth == 1 and value + control[C_RAZOR_MARGIN] < f[F_ALPHA]:
            return RAZOR
        # where captures are compulsory a quiet position can turn at once: a wider margin
        margin = control[C_FUTILITY_MARGIN] * (depth - f[F_IMPROVING]) * (
            3 if tab[FLAGS, F_COMPULSORY] != 0 else 1)
        if depth <= FUTILITY_DEPTH and value - margin >= f[F_BETA] and value < MATE_BOUND:
            f[F_BEST] = value
            return RETURN
    if (control[C_NULL_MOVE] != 0 and f[F_NULL] == 0 and depth >= 2 and value >= f[F_BETA]
            and has_pieces(pos)):
        return TRY_NULL_MOVE
    return SEARCH_MOVES


@leaf_kernel
def generate_moves(pos, tab, undo, sp, ply, frames, moves, check_legality):
    """Step 7, internal iterative reduction: a node with no stored move was not searched
    before, so it is searched a ply less deep (it is mostly a waste of time, or its move
    will be found). Then step 8's first half: the legal moves into ``moves[ply]``; RETURN
    with the score of having none."""
    f = frames[ply]
    excluded = f[F_EXCLUDED]
    if (f[F_HASH_MOVE] == 0 and excluded == 0 and f[F_DEPTH] >= 4
            and (f[F_PV_NODE] != 0 or f[F_CUT_NODE] != 0)):
        f[F_DEPTH] -= 1
    n = legal_moves(pos, tab, moves[ply], undo, sp, False, check_legality)
    if excluded != 0:
        for i in range(n):
            if moves[ply, i] == excluded:
                n -= 1
                moves[ply, i] = moves[ply, n]
                break
        if n == 0:  # the left-out move is the only one: singular indeed
            f[F_COUNT] = 0
            f[F_BEST] = f[F_ALPHA]
            return RETURN
    f[F_COUNT] = n
    if n == 0:
        f[F_BEST] = no_moves_score(tab, f[F_DISTANCE], f[F_CHECK])
        return RETURN
    return SEARCH_MOVES


SINGULAR_DEPTH = 6
"""The least depth at which the stored move is tested for being singular."""


@leaf_kernel
def singular_search(frames, ply, control):
    """Step 8's second half, singular extension: where the table's move is known to be good
    (a lower bound or exact score from nearly as deep), a search that leaves it out at half
    depth against a bound a little below its score tells whether it is the only good move;
    then it is searched a ply deeper (``F_SINGULAR``). Returns True after setting up that
    search in the next frame, on the same position."""
    f = frames[ply]
    if (control[C_SINGULAR] == 0 or ply == 0 or f[F_EXCLUDED] != 0 or f[F_HASH_MOVE] == 0
            or f[F_DEPTH] < SINGULAR_DEPTH
            or f[F_TT_BOUND] == BOUND_UPPER or f[F_TT_BOUND] == 0
            or f[F_TT_DEPTH] < f[F_DEPTH] - 3 or abs(f[F_TT_SCORE]) >= MATE_BOUND
            or ply >= MAX_PLY // 2):
        return False
    bound = f[F_TT_SCORE] - 2 * f[F_DEPTH]
    child = new_child(frames, ply, bound - 1, bound, (f[F_DEPTH] - 1) // 2, f[F_PREVIOUS], 0,
                      f[F_CUT_NODE])
    child[F_DISTANCE] = f[F_DISTANCE]
    child[F_EXCLUDED] = f[F_HASH_MOVE]
    child[F_NULL] = f[F_NULL]
    return True


@leaf_kernel
def forced_extension(f, ply, root_depth, control):
    """A move that is the only legal one (a forced capture in antichess, the one answer to a
    check) costs no depth, in the search and in quiescence, within ``C_FORCED_SPAN`` times the
    root's depth."""
    return 1 if (control[C_FORCED] != 0 and f[F_COUNT] == 1
                 and ply < control[C_FORCED_SPAN] * root_depth) else 0


@leaf_kernel
def null_move_depth(f, control):
    """The depth of the search after a null move: less the deeper the node and the further
    its evaluation is above beta."""
    return f[F_DEPTH] - 3 - f[F_DEPTH] // 4 - min(
        (f[F_EVAL] - f[F_BETA]) // control[C_NULL_MOVE_DIVISOR], 2)


@kernel()
def skip_move(pos, tab, weights, f, frames, ply, move, quiet, history, reductions, control):
    """Step 9: whether to leave ``move`` unsearched in a node not at the root: late quiet
    moves (move count), quiet moves whose evaluation with a margin stays below alpha
    (futility) or with a bad history, and moves that lose too much material in exchanges."""
    if ply == 0 or f[F_BEST] <= -MATE_BOUND or control[C_PRUNING] == 0:
        return False
    depth = f[F_DEPTH]
    if quiet and tab[FLAGS, F_COMPULSORY] != 0 and attackers(
            pos, tab, move_target(move), 1 - pos[STM], pos[BB] | pos[BB + 8]) != 0:
        return False  # offering a piece forces the opponent to take it: never pruned
    if quiet:
        if f[F_SKIP_QUIETS] != 0:
            return True
        if f[F_SEARCHED] >= late_move_limit(depth, f[F_IMPROVING]):
            f[F_SKIP_QUIETS] = 1
            return True
        reduced = max(depth - 1 - base_reduction(reductions, depth, f[F_SEARCHED] + 1, control)
                      // 1024, 0)
        if (f[F_CHECK] == 0 and reduced < 6
                and f[F_EVAL] + control[C_MOVE_FUTILITY_BASE]
                + control[C_MOVE_FUTILITY_PER_PLY] * reduced <= f[F_ALPHA]):
            return True
        if reduced < 4 and history < -control[C_HISTORY_PRUNING] * depth:
            return True
        if (tab[FLAGS, F_COMPULSORY] == 0 and not exchange_at_least(
                pos, tab, weights, move, -control[C_QUIET_EXCHANGE] * reduced * reduced)):
            return True
    elif (tab[FLAGS, F_COMPULSORY] == 0 and depth < 7 and not exchange_at_least(
            pos, tab, weights, move, -control[C_CAPTURE_EXCHANGE] * depth)):
        return True
    return False


@leaf_kernel
def skip_in_quiescence(pos, tab, weights, f, move, control):
    """Step 9 in quiescence (captures not forced, not in check): captures that cannot lift
    the evaluation near alpha, and captures that lose material in exchanges. Promotions and
    drops are never skipped."""
    if (tab[FLAGS, F_COMPULSORY] != 0 or control[C_PRUNING] == 0 or f[F_CHECK] != 0
            or f[F_BEST] <= -MATE_BOUND or move_piece(move) != 0):
        return False
    victim = piece_value(pos, weights, move_target(move))
    if victim < KING_VALUE and f[F_EVAL] + victim + control[C_QUIESCENCE_FUTILITY] <= f[F_ALPHA]:
        return True
    return not exchange_at_least(pos, tab, weights, move, 0)


@kernel()
def finish_node(pos, tab, f, tt, generation, correction, control):
    """Step 13: the node's result, stored in the table (where ``uses_table``, not a singular
    search's) with the uncorrected evaluation; the correction history learns."""
    if not uses_table(f) or f[F_EXCLUDED] != 0:
        return f[F_BEST]
    if f[F_BEST] >= f[F_BETA]:
        bound = BOUND_LOWER
    elif f[F_BEST] > f[F_ORIGINAL_ALPHA]:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    tt_store(tt, pos[HASH], f[F_BEST_MOVE], f[F_BEST], f[F_DEPTH], bound, f[F_DISTANCE],
             generation, f[F_RAW_EVAL])
    learn_correction(pos, correction, f, bound, control)
    return f[F_BEST]


@leaf_kernel
def copy_pv(pv, ply, move):
    """The principal variation at ``ply``: ``move`` followed by the child's."""
    pv[ply, 0] = move
    length = 1
    while pv[ply + 1, length - 1] != 0 and length < MAX_PLY:
        pv[ply, length] = pv[ply + 1, length - 1]
        length += 1
    pv[ply, length] = 0


# --- the search -----------------------------------------------------------------------------------


@dataclass
class SearchMemory:
    """What the search keeps between searches (the table, the histories) and its working
    buffers. ``tt_entries`` is a power of two."""

    tt_entries: int

    def __post_init__(self) -> None:
        self.tt = np.zeros((self.tt_entries, 2), dtype=np.int64)
        self.evals = np.zeros((EVAL_CACHE_ENTRIES, 2), dtype=np.int64)
        self.killers = np.zeros((MAX_PLY + 1, 2), dtype=np.int64)
        self.counters = np.zeros(1024, dtype=np.int64)
        self.quiet_history = np.zeros((2, 4096), dtype=np.int64)
        self.continuation = np.zeros((1024, 1024), dtype=np.int64)
        self.capture_history = np.zeros((1024, 8), dtype=np.int64)
        self.correction = np.zeros((2, CORRECTION_ENTRIES), dtype=np.int64)
        self.pv = np.zeros((MAX_PLY + 2, MAX_PLY + 1), dtype=np.int64)
        self.control = np.zeros(CONTROL_SIZE, dtype=np.int64)
        self.frames = np.zeros((MAX_PLY + 1, FRAME_FIELDS), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
        self.order = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
        self.tried_quiets = np.zeros((MAX_PLY + 1, TRIED_MAX), dtype=np.int64)
        self.tried_captures = np.zeros((MAX_PLY + 1, TRIED_MAX), dtype=np.int64)
        self.accumulators = np.zeros((MAX_PLY + 1, ACCUMULATOR_ROW), dtype=UNIT_TYPE)

    def forget(self) -> None:
        """Clear what earlier searches learnt (a new game)."""
        for table in (self.tt, self.killers, self.counters, self.quiet_history,
                      self.continuation, self.capture_history, self.correction):
            table[:] = 0

    def age(self) -> None:
        """Before a new search of the same game: killers are of other positions now."""
        self.killers[:] = 0


def _reduction_table() -> np.ndarray:
    """Late-move reductions in 1/1024 plies by depth and move number, before
    ``base_reduction`` scales them and adds its base."""
    depth = np.arange(64, dtype=np.float64)[:, None]
    number = np.arange(64, dtype=np.float64)[None, :]
    with np.errstate(divide="ignore"):
        value = 1024 * np.log(np.maximum(depth, 1)) * np.log(np.maximum(number, 1)) / 2.0
    return value.astype(np.int64)


REDUCTIONS = _reduction_table()


def search(pos: np.ndarray, tab: np.ndarray, parameters: EvaluationParameters,
           undo: np.ndarray, sp0: int, depth: int, alpha: int, beta: int, memory: SearchMemory,
           endgame: EndgameTables | None = None) -> int:
    """Search the position to ``depth`` plies in the window (alpha, beta), evaluating with
    ``parameters``; return the score. With ``endgame``, the positions its tables hold are
    scored by them (not the root).

    ``memory.pv[0]`` receives the principal variation, ended by a 0. Stops early when
    ``memory.control[C_STOP]`` is set or the node limit is reached, with
    ``control[C_ABORTED] = 1``; the result is then not to be trusted.
    """
    m = memory
    compiled = search_kernel(checks_legality(tab))
    values, offsets = NO_TABLES_VALUES, NO_TABLES_OFFSETS
    if endgame is not None:
        values, offsets = endgame.values, endgame.offsets
    return int(compiled(pos, tab, parameters.weights, parameters.network, undo, sp0, depth,
                        alpha, beta, m.tt, m.evals, m.killers, m.counters, m.quiet_history,
                        m.continuation, m.capture_history, m.correction, m.pv, m.control,
                        m.frames, m.moves, m.order, m.tried_quiets, m.tried_captures,
                        REDUCTIONS, m.accumulators, values, offsets))


@cache
def search_kernel(check_legality: bool) -> Callable[..., int]:
    """``search``'s compiled work for variants whose king is royal (``check_legality``) or
    not, with the rules it calls compiled first; the caller makes its buffers."""
    prepare_rules(check_legality)
    return _search_with_check if check_legality else _search_no_check


@kernel()  # these two are compiled on first use: a program plays few kinds of variant
def _search_no_check(pos, tab, weights, network, undo, sp0, depth, alpha, beta, tt, evals,
                     killers, counters, quiet_history, continuation, capture_history,
                     correction, pv, control, frames, moves, order, tried_quiets,
                     tried_captures, reductions, accumulators, endgame, endgame_offsets):
    """``search`` where the king is not royal."""
    return _search(pos, tab, weights, network, undo, sp0, depth, alpha, beta, tt, evals,
                   killers, counters, quiet_history, continuation, capture_history, correction,
                   pv, control, frames, moves, order, tried_quiets, tried_captures, reductions,
                   accumulators, endgame, endgame_offsets, False)


@kernel()
def _search_with_check(pos, tab, weights, network, undo, sp0, depth, alpha, beta, tt, evals,
                       killers, counters, quiet_history, continuation, capture_history,
                       correction, pv, control, frames, moves, order, tried_quiets,
                       tried_captures, reductions, accumulators, endgame, endgame_offsets):
    """``search`` where the king is royal."""
    return _search(pos, tab, weights, network, undo, sp0, depth, alpha, beta, tt, evals,
                   killers, counters, quiet_history, continuation, capture_history, correction,
                   pv, control, frames, moves, order, tried_quiets, tried_captures, reductions,
                   accumulators, endgame, endgame_offsets, True)


@leaf_kernel
def _search(pos, tab, weights, network, undo, sp0, depth, alpha, beta, tt, evals, killers,
            counters, quiet_history, continuation, capture_history, correction, pv, control,
            frames, moves, order, tried_quiets, tried_captures, reductions, accumulators,
            endgame, endgame_offsets, check_legality):
    """``search`` in its buffers: the state machine over the frames."""
    generation = control[C_TT_GENERATION]
    control[C_ABORTED] = 0
    if weights.shape[0] > WEIGHT_COUNT:
        record_root(pos, tab, weights, WEIGHT_COUNT, network, accumulators, 0)
    frames[0, :] = 0
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    frames[0, F_DEPTH] = depth
    frames[0, F_PV_NODE] = 1
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
            pv[ply, 0] = 0
            action = enter_node(pos, tab, weights, network, undo, sp, ply, frames, moves, tt,
                                evals, accumulators, control, correction, endgame,
                                endgame_offsets, check_legality)
            if action == RETURN:
                ret = f[F_BEST]
                returning = True
            elif action == TRY_NULL_MOVE:
                make_null_move(pos, tab, undo, sp)
                record_same(accumulators, ply + 1)
                new_child(frames, ply, -f[F_BETA], -f[F_BETA] + 1, null_move_depth(f, control),
                          0, 0, 1 - f[F_CUT_NODE])
                frames[ply + 1, F_NULL] = 1
                f[F_STATE] = AFTER_NULL
                ply += 1
                continue
            else:
                order_moves(pos, tab, weights, moves[ply], order[ply], f[F_COUNT],
                            f[F_HASH_MOVE], frames, ply, killers, counters, quiet_history,
                            continuation, capture_history)
                f[F_STATE] = NEXT
                if singular_search(frames, ply, control):
                    record_same(accumulators, ply + 1)
                    f[F_STATE] = AFTER_SINGULAR
                    ply += 1
                continue
        elif state == AFTER_SINGULAR:
            if control[C_ABORTED] != 0:
                ret = 0
                returning = True
            elif ret < frames[ply + 1, F_BETA]:
                f[F_SINGULAR] = 1
                f[F_STATE] = NEXT
                continue
            elif frames[ply + 1, F_BETA] >= f[F_BETA]:  # another move also beats beta
                ret = frames[ply + 1, F_BETA]
                returning = True
            else:
                f[F_STATE] = NEXT
                continue
        elif state == AFTER_NULL:
            unmake_null_move(pos, undo, sp)
            if control[C_ABORTED] != 0:
                ret = 0
                returning = True
            elif -ret >= f[F_BETA]:  # passing is enough: so is a move, most likely
                ret = f[F_BETA] if -ret > MATE_BOUND else -ret
                returning = True
            elif generate_moves(pos, tab, undo, sp, ply, frames, moves,
                                check_legality) == RETURN:
                ret = f[F_BEST]
                returning = True
            else:
                order_moves(pos, tab, weights, moves[ply], order[ply], f[F_COUNT],
                            f[F_HASH_MOVE], frames, ply, killers, counters, quiet_history,
                            continuation, capture_history)
                f[F_STATE] = NEXT
                continue
        elif state == AFTER_CHILD:
            # 11. re-search a reduced or null-window search that beat alpha
            score = -ret
            move = f[F_MOVE]
            research = (
                control[C_ABORTED] == 0
                and f[F_STAGE] != STAGE_FULL
                and score > f[F_ALPHA]
                and (f[F_STAGE] == STAGE_REDUCED or score < f[F_BETA])
            )
            if research:
                if f[F_STAGE] == STAGE_REDUCED:
                    f[F_STAGE] = STAGE_NULL_WINDOW
                    new_child(frames, ply, -f[F_ALPHA] - 1, -f[F_ALPHA], f[F_NEW_DEPTH],
                              frames[ply + 1, F_PREVIOUS], 0, 1 - f[F_CUT_NODE])
                else:
                    f[F_STAGE] = STAGE_FULL
                    new_child(frames, ply, -f[F_BETA], -f[F_ALPHA], f[F_NEW_DEPTH],
                              frames[ply + 1, F_PREVIOUS], 1, 0)
                ply += 1
                continue
            take_back(pos, tab, undo, sp)
            if control[C_ABORTED] != 0:
                ret = 0
                returning = True
            else:
                # 12. the best move so far; a cut-off teaches the histories
                f[F_SEARCHED] += 1
                if score > f[F_BEST]:
                    f[F_BEST] = score
                    if score > f[F_ALPHA]:
                        f[F_BEST_MOVE] = move
                        copy_pv(pv, ply, move)
                        f[F_ALPHA] = score
                        if score >= f[F_BETA]:
                            if f[F_QUIESCENCE] == 0:
                                reward_cutoff(pos, frames, ply, move, tried_quiets,
                                              tried_captures, killers, counters, quiet_history,
                                              continuation, capture_history)
                            f[F_NEXT] = f[F_COUNT]  # cut off
                if f[F_QUIESCENCE] == 0 and move != f[F_BEST_MOVE]:
                    if f[F_QUIET] != 0:
                        if f[F_QUIETS_TRIED] < TRIED_MAX:
                            tried_quiets[ply, f[F_QUIETS_TRIED]] = move
                            f[F_QUIETS_TRIED] += 1
                    elif is_capture(pos, move) and f[F_CAPTURES_TRIED] < TRIED_MAX:
                        tried_captures[ply, f[F_CAPTURES_TRIED]] = move
                        f[F_CAPTURES_TRIED] += 1
                f[F_STATE] = NEXT
                continue
        else:  # NEXT: the move loop
            move = 0
            quiet = False
            history = 0
            previous = 0
            while f[F_NEXT] < f[F_COUNT]:
                candidate = pick_next(moves[ply], order[ply], f[F_NEXT], f[F_COUNT])
                f[F_NEXT] += 1
                quiet = not is_capture(pos, candidate) and (
                    is_drop(candidate) or move_piece(candidate) == 0)
                if f[F_QUIESCENCE] != 0:
                    skip = skip_in_quiescence(pos, tab, weights, f, candidate, control)
                else:
                    history = 0
                    if quiet:
                        history = quiet_score(pos, candidate, frames, ply, quiet_history,
                                              continuation)
                    skip = skip_move(pos, tab, weights, f, frames, ply, candidate, quiet,
                                     history, reductions, control)
                previous = continuation_key(pos, candidate)
                play(pos, tab, candidate, undo, sp)
                if skip and not king_attacked(pos, tab, pos[STM]):  # checks are never skipped
                    take_back(pos, tab, undo, sp)
                    continue
                move = candidate
                break
            if move != 0:
                record_move(accumulators, ply + 1, pos, move, undo[sp, UNDO_CAPTURED])
                f[F_QUIET] = 1 if quiet else 0
                if f[F_QUIESCENCE] == 0:
                    prefetch(tt, pos[HASH] & (tt.shape[0] - 1))  # the child's first look
                f[F_MOVE] = move
                new_depth = f[F_DEPTH] - 1 + forced_extension(f, ply, frames[0, F_DEPTH], control)
                if move == f[F_HASH_MOVE] and f[F_SINGULAR] != 0:
                    new_depth += 1
                f[F_NEW_DEPTH] = new_depth
                if f[F_SEARCHED] == 0 or f[F_QUIESCENCE] != 0:
                    f[F_STAGE] = STAGE_FULL
                    new_child(frames, ply, -f[F_BETA], -f[F_ALPHA], new_depth, previous,
                              f[F_PV_NODE], 1 - f[F_CUT_NODE] if f[F_PV_NODE] == 0 else 0)
                else:
                    # 10. late-move reductions
                    r = 0
                    if (control[C_REDUCTIONS] != 0 and f[F_DEPTH] >= 3
                            and f[F_SEARCHED] >= 1 + (1 if ply == 0 else 0)
                            and (quiet or f[F_CUT_NODE] != 0) and f[F_MUST_CAPTURE] == 0):
                        r = reduction(reductions, f, f[F_SEARCHED] + 1, quiet,
                                      history if quiet else 0, control)
                        r = min(r, new_depth - 1)
                    f[F_STAGE] = STAGE_REDUCED if r > 0 else STAGE_NULL_WINDOW
                    new_child(frames, ply, -f[F_ALPHA] - 1, -f[F_ALPHA], new_depth - r,
                              previous, 0, 1 if r > 0 else 1 - f[F_CUT_NODE])
                f[F_STATE] = AFTER_CHILD
                ply += 1
                continue
            # 13. all moves searched (or skipped: quiescence may skip them all)
            if f[F_BEST] == -INFINITE:
                f[F_BEST] = f[F_ALPHA]
            ret = finish_node(pos, tab, f, tt, generation, correction, control)
            returning = True
        if returning:
            if ply == 0:
                return ret
            frames[ply, F_STATE] = ENTER
            ply -= 1
