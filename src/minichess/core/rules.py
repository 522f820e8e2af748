"""Compiled legal moves, game-end detection and perft, on top of move generation and
make/unmake, for each kind of variant (``rule_kernels``)."""

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import numpy as np

from minichess.core import legality
from minichess.core.bits import popcount
from minichess.core.jit import (
    BOOL,
    INT,
    MOVES,
    POSITION,
    TABLES,
    UNDO,
    compile_on_demand,
    kernel,
    leaf_kernel,
    on_demand_kernel,
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
from minichess.core.makemove import UNDO_HASH, play, take_back
from minichess.core.movegen import (
    EVERYWHERE,
    GEN_ALL,
    GEN_CAPTURES,
    GEN_QUIETS,
    count_all_moves,
    generate_or_count,
    in_check,
)

ROYALTY_CAPTURE = 1
ROYALTY_CHECK = 2
LOSS = -1
DRAW = 0


@leaf_kernel
def end_code(reason, result):
    """Pack a game end: ``reason`` (END_*) and ``result`` (-1, 0, 1) for the side to move."""
    return reason * 4 + result + 1


@leaf_kernel
def no_moves_result(tab, checked):
    """The result (-1, 0, 1) for the side to move when it has no legal move: a loss when
    checkmated where the king is royal, else what the variant says."""
    if checked != 0 and tab[FLAGS, F_ROYALTY] == ROYALTY_CHECK:
        return LOSS
    return tab[FLAGS, F_NO_MOVES]


@leaf_kernel
def end_reason(code):
    """The reason (END_*) of a game end packed by ``end_code``."""
    return code >> 2


@leaf_kernel
def end_result(code):
    """The result for the side to move (-1 loss, 0 draw, 1 win) of a game end packed by
    ``end_code``."""
    return (code & 3) - 1


@leaf_kernel
def moves_of_kinds(pos, tab, buf, undo, sp, kinds, count_only, check_legality):
    """Legal moves of the given ``kinds`` (GEN_* bits) into ``buf`` from index 0 (or only
    their number); ``check_legality``, a constant of the compiled caller, says whether the
    king is royal (else every pseudo-legal move is legal)."""
    if check_legality:
        return legality.legal_moves_of_kinds(pos, tab, buf, undo, sp, kinds, count_only)
    return generate_or_count(pos, tab, buf, 0, kinds, count_only, EVERYWHERE, EVERYWHERE)


@leaf_kernel
def all_legal_moves(pos, tab, buf, undo, sp, count_only, check_legality):
    """Every legal move, captures only where they are compulsory and there is one."""
    kinds = GEN_CAPTURES if tab[FLAGS, F_COMPULSORY] != 0 else GEN_ALL
    while True:  # one call site: each inlined copy costs compile time
        n = moves_of_kinds(pos, tab, buf, undo, sp, kinds, count_only, check_legality)
        if n != 0 or kinds != GEN_CAPTURES:
            return n
        kinds = GEN_QUIETS


@on_demand_kernel(INT(POSITION, TABLES, MOVES, UNDO, INT, BOOL))
def _legal_moves_no_check(pos, tab, buf, undo, sp, count_only):
    """``RuleKernels.legal_moves`` where the king is not royal."""
    return all_legal_moves(pos, tab, buf, undo, sp, count_only, False)


@on_demand_kernel(INT(POSITION, TABLES, MOVES, UNDO, INT, BOOL))
def _legal_moves_with_check(pos, tab, buf, undo, sp, count_only):
    """``RuleKernels.legal_moves`` where the king is royal."""
    return all_legal_moves(pos, tab, buf, undo, sp, count_only, True)


@leaf_kernel
def legal_moves(pos, tab, buf, undo, sp, count_only, check_legality):
    """``all_legal_moves`` by a call to the kernel for ``check_legality``."""
    if check_legality:
        return _legal_moves_with_check(pos, tab, buf, undo, sp, count_only)
    return _legal_moves_no_check(pos, tab, buf, undo, sp, count_only)


@leaf_kernel
def _count_leaf_moves(pos, tab, buf, undo, sp, check_legality):
    """``all_legal_moves`` counted, where perft spends most of its time: by ``count_all_moves``
    where every pseudo-legal move is legal and there is no compulsory capture."""
    if not check_legality and tab[FLAGS, F_COMPULSORY] == 0:
        return count_all_moves(pos, tab)
    return all_legal_moves(pos, tab, buf, undo, sp, True, check_legality)


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


@leaf_kernel
def _game_end(pos, tab, buf, undo, sp, check_legality):
    """``RuleKernels.game_end``."""
    code = _end_before_moves(pos, tab)
    if code != END_NONE:
        return code
    if legal_moves(pos, tab, buf, undo, sp, True, check_legality) == 0:
        result = tab[FLAGS, F_NO_MOVES]
        if not check_legality:
            return end_code(END_NO_LEGAL_MOVES, result)
        if in_check(pos, tab, pos[STM]):
            return end_code(END_CHECKMATE, LOSS)
        return end_code(END_STALEMATE if result == DRAW else END_NO_LEGAL_MOVES, result)
    return _end_after_moves(pos, tab, undo, sp)


@on_demand_kernel(INT(POSITION, TABLES, MOVES, UNDO, INT))
def _game_end_no_check(pos, tab, buf, undo, sp):
    """``RuleKernels.game_end`` where the king is not royal."""
    return _game_end(pos, tab, buf, undo, sp, False)


@on_demand_kernel(INT(POSITION, TABLES, MOVES, UNDO, INT))
def _game_end_with_check(pos, tab, buf, undo, sp):
    """``RuleKernels.game_end`` where the king is royal."""
    return _game_end(pos, tab, buf, undo, sp, True)


@leaf_kernel
def game_end(pos, tab, buf, undo, sp, check_legality):
    """``_game_end`` by a call to the kernel for ``check_legality``."""
    if check_legality:
        return _game_end_with_check(pos, tab, buf, undo, sp)
    return _game_end_no_check(pos, tab, buf, undo, sp)


@leaf_kernel
def _walk(pos, tab, depth, undo, sp, moves, stack, check_legality):
    """``RuleKernels.walk``: ``moves[ply]`` holds the moves at each ply, ``stack`` how many
    there are (row 0) and which is being searched (row 1)."""
    if depth <= 0:
        return 1
    if game_end(pos, tab, moves[0], undo, sp, check_legality) != END_NONE:
        return 0
    if depth == 1:
        return legal_moves(pos, tab, moves[0], undo, sp, True, check_legality)
    stack[0, 0] = legal_moves(pos, tab, moves[0], undo, sp, False, check_legality)
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
                child = sp + ply + 1
                if ply + 2 < depth:
                    ply += 1
                    stack[0, ply] = legal_moves(pos, tab, moves[ply], undo, child, False,
                                                check_legality)
                    stack[1, ply] = 0
                    continue
                nodes += _count_leaf_moves(pos, tab, moves[ply + 1], undo, child,
                                           check_legality)
        take_back(pos, tab, undo, sp + ply)
    return nodes


@kernel()  # these two are compiled on first use: most programs never count perft
def _walk_no_check(pos, tab, depth, undo, sp, moves, stack):
    """``RuleKernels.walk`` where the king is not royal."""
    return _walk(pos, tab, depth, undo, sp, moves, stack, False)


@kernel()
def _walk_with_check(pos, tab, depth, undo, sp, moves, stack):
    """``RuleKernels.walk`` where the king is royal."""
    return _walk(pos, tab, depth, undo, sp, moves, stack, True)


class RuleKernels(NamedTuple):
    """The compiled rules for the variants of one kind: those where the king is royal (moves
    may not leave it attacked) or not. Each function takes the position and tables first.

    - ``legal_moves(pos, tab, buf, undo, sp, count_only)``: write the legal moves into
      ``buf`` from index 0 and return how many there are; with ``count_only`` only count them
      (by popcount where no move needs trying). Game ends are not looked at; ``undo[sp]`` is
      scratch space.
    - ``game_end(pos, tab, buf, undo, sp)``: the game end in the position after ``sp`` moves
      (END_NONE while the game goes on), in the order king captured, move limit, no legal
      move, insufficient material, 50-move rule, repetition.
    - ``walk(pos, tab, depth, undo, sp, moves, stack)``: perft (see ``perft``) in buffers
      from ``perft_buffers``.
    """

    legal_moves: Callable[..., int]
    game_end: Callable[..., int]
    walk: Callable[..., int]


def prepare_rules(check_legality: bool) -> None:
    """Compile the rules of the variants with a royal king (``check_legality``) or without,
    before any kernel using them (once per process; they are cached on disk)."""
    if check_legality:
        legality.prepare()
        compile_on_demand(_legal_moves_with_check, _game_end_with_check)
    else:
        compile_on_demand(_legal_moves_no_check, _game_end_no_check)


@cache
def rule_kernels(check_legality: bool) -> RuleKernels:
    """The rules for variants whose king is royal (``check_legality``) or not, compiled on
    first request (or loaded from the cache): a variant never compiles the other kind."""
    prepare_rules(check_legality)
    if check_legality:
        return RuleKernels(_legal_moves_with_check, _game_end_with_check, _walk_with_check)
    return RuleKernels(_legal_moves_no_check, _game_end_no_check, _walk_no_check)


def checks_legality(tab: np.ndarray) -> bool:
    """Whether the variant whose tables are ``tab`` has a royal king: its rules are the kernels
    ``with_check``."""
    return bool(tab[FLAGS, F_ROYALTY] == ROYALTY_CHECK)


def rules_for(tab: np.ndarray) -> RuleKernels:
    """The compiled rules for the variant whose tables are ``tab``."""
    return rule_kernels(checks_legality(tab))


def perft_buffers(depth: int) -> tuple[np.ndarray, np.ndarray]:
    """The move lists and the explicit stack a perft walk of ``depth`` plies works in."""
    size = max(depth, 1)
    return np.zeros((size + 1, MAX_MOVES), dtype=np.int64), np.zeros((2, size), dtype=np.int64)


def perft(pos: np.ndarray, tab: np.ndarray, depth: int, undo: np.ndarray, sp: int) -> int:
    """Leaf nodes ``depth`` plies below the position after ``sp`` moves (a finished game has
    no moves). The last ply is counted in bulk; the tree is walked with an explicit stack."""
    moves, stack = perft_buffers(depth)
    return int(rules_for(tab).walk(pos, tab, depth, undo, sp, moves, stack))
