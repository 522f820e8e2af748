"""Exact values on the smallest boards: win, draw or loss for the side to move, searched to the
end of the game.

Where a variant's board has at most ``EXACT_SQUARES`` squares, a move limit bounds every game
and the game's end depends only on the position and its ply (no repetition or 50-move rule:
csc111), the whole game tree is small enough to search to its end from the middlegame on.
Level 10 then plays exactly when the clock allows (see ``Engine``): a won position is won, a
drawn one is never lost. The search is alpha-beta on the values -1, 0 and 1, with a table of
proven bounds keyed by position and ply; such bounds never go stale, so the table is kept
from move to move and from game to game.

>>> from minichess import Board
>>> solver = ExactSolver()
>>> board = Board("csc111", "rP2/pk2/4/RpK1 w - - 0 6")
>>> solver.value(board)  # a draw for White to move
0
>>> [move.uci() for move in solver.keeping_moves(board)]  # every other move loses
['a1b1']
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache

import numpy as np

from minichess.board import Board
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import HASH, MAILBOX, MAX_MOVES, PLY, STM
from minichess.core.makemove import play, take_back
from minichess.core.move_code import move_target
from minichess.core.rules import (
    END_NONE,
    checks_legality,
    end_result,
    legal_moves,
    no_moves_result,
    prepare_rules,
    rule_end,
)
from minichess.engine.search import can_take_king, king_attacked
from minichess.move import Move
from minichess.variants import VariantDefinition

EXACT_SQUARES = 16
"""The largest board whose games are searched to their end."""
STOPPED = 2
"""What a stopped search returns instead of a value."""
PLY_MIX = -7046029254386353131
"""Mixes the ply into a position's key (an odd 64-bit constant, as a signed integer)."""
# the stack's fields, one row per ply
S_COUNT, S_NEXT, S_ALPHA, S_BETA, S_FIRST_ALPHA, S_FIRST_BETA, S_BEST, S_CHOSEN, S_KEY = range(9)
STACK_FIELDS = S_KEY + 1
# the control array: a stop request, nodes searched, the node limit (0: none)
X_STOP, X_NODES, X_NODE_LIMIT = range(3)


def exact_applies(variant: VariantDefinition) -> bool:
    """Whether ``variant``'s games are small enough, and end by the position and ply alone,
    for the exact search."""
    return (variant.files * variant.ranks <= EXACT_SQUARES and variant.move_limit > 0
            and not variant.repetition and not variant.fifty_move_plies)


@leaf_kernel
def _table_bounds(data):
    """(lower bound, upper bound, stored move) of a table entry."""
    return (data & 3) - 1, ((data >> 2) & 3) - 1, data >> 4


@leaf_kernel
def _order(pos, tab, undo, sp, buf, n, stored, scores, scratch, check_legality):
    """Order the moves in ``buf``: the stored move, then by the fewest replies they leave (a
    win is a position where the loser runs out of moves), captures first among equals."""
    for i in range(n):
        move = buf[i]
        if move == stored:
            scores[i] = -(1 << 20)
            continue
        capture = pos[MAILBOX + move_target(move)] != 0
        play(pos, tab, move, undo, sp)
        replies = legal_moves(pos, tab, scratch, undo, sp + 1, True, check_legality)
        take_back(pos, tab, undo, sp)
        scores[i] = 2 * replies - (1 if capture else 0)
    for i in range(1, n):  # insertion sort: a handful of moves
        move, score = buf[i], scores[i]
        j = i - 1
        while j >= 0 and scores[j] > score:
            buf[j + 1], scores[j + 1] = buf[j], scores[j]
            j -= 1
        buf[j + 1], scores[j + 1] = move, score


@leaf_kernel
def _enter(pos, tab, undo, sp, buf, scores, scratch, keys, data, alpha, beta,
           check_legality):
    """A node's value when the rules, the table or a lack of moves decide it (then the move
    count is 0), else STOPPED and the number of moves, ordered by ``_order``."""
    code = rule_end(pos, tab, undo, sp)
    if code != END_NONE:
        return end_result(code), 0, 0
    if can_take_king(pos, tab):
        return 1, 0, 0
    n = legal_moves(pos, tab, buf, undo, sp, False, check_legality)
    if n == 0:
        return no_moves_result(tab, king_attacked(pos, tab, pos[STM])), 0, 0
    key = pos[HASH] ^ (pos[PLY] * PLY_MIX)
    slot = key & (keys.shape[0] - 1)
    stored = 0
    if keys[slot] == key:
        low, high, stored = _table_bounds(data[slot])
        if low == high or low >= beta:
            return low, 0, key
        if high <= alpha:
            return high, 0, key
    _order(pos, tab, undo, sp, buf, n, stored, scores, scratch, check_legality)
    return STOPPED, n, key


@leaf_kernel
def _store(keys, data, key, best, chosen, first_alpha, first_beta):
    """Keep what a finished node proved: an upper bound, a lower bound or its value."""
    slot = key & (keys.shape[0] - 1)
    low, high = -1, 1
    if keys[slot] == key:
        low, high, _ = _table_bounds(data[slot])
    if best <= first_alpha:
        high = min(high, best)
    elif best >= first_beta:
        low = max(low, best)
    else:
        low = high = best
    keys[slot] = key
    data[slot] = (low + 1) | ((high + 1) << 2) | (chosen << 4)


@cache
def solve_kernel(check_legality: bool) -> Callable[..., int]:
    """``solve`` for variants whose king is royal (``check_legality``) or not, with the rules
    it calls compiled first."""
    prepare_rules(check_legality)
    return _solve_with_check if check_legality else _solve_no_check


@kernel()  # these two are compiled on first use: few programs solve games
def _solve_no_check(pos, tab, undo, sp, alpha, beta, keys, data, moves, stack, work, control):
    """``solve`` where the king is not royal."""
    return solve(pos, tab, undo, sp, alpha, beta, keys, data, moves, stack, work, control,
                 False)


@kernel()
def _solve_with_check(pos, tab, undo, sp, alpha, beta, keys, data, moves, stack, work, control):
    """``solve`` where the king is royal."""
    return solve(pos, tab, undo, sp, alpha, beta, keys, data, moves, stack, work, control,
                 True)


@leaf_kernel
def solve(pos, tab, undo, sp, alpha, beta, keys, data, moves, stack, work, control,
          check_legality):
    """The value of the position after ``sp`` moves for the side to move, within ``alpha`` and
    ``beta`` (fail-soft: at most ``alpha`` or at least ``beta`` when outside), or STOPPED
    when ``control`` asked it to stop. ``moves`` and ``stack`` have a row per ply to the end
    of the game, ``work`` two rows of scratch space for ordering moves."""
    ply = 0
    value, n, key = _enter(pos, tab, undo, sp, moves[0], work[0], work[1], keys, data, alpha,
                           beta, check_legality)
    if n == 0:
        return value
    stack[0, S_COUNT], stack[0, S_NEXT], stack[0, S_KEY] = n, 0, key
    stack[0, S_ALPHA], stack[0, S_BETA] = max(alpha, -1), min(beta, 1)
    stack[0, S_FIRST_ALPHA], stack[0, S_FIRST_BETA] = stack[0, S_ALPHA], stack[0, S_BETA]
    stack[0, S_BEST], stack[0, S_CHOSEN] = -2, 0
    while True:
        f = stack[ply]
        if f[S_NEXT] < f[S_COUNT] and f[S_ALPHA] < f[S_BETA]:
            control[X_NODES] += 1
            if control[X_NODES] & 1023 == 0 and (
                    control[X_STOP] != 0 or 0 < control[X_NODE_LIMIT] <= control[X_NODES]):
                for k in range(ply - 1, -1, -1):
                    take_back(pos, tab, undo, sp + k)
                return STOPPED
            move = moves[ply, f[S_NEXT]]
            f[S_NEXT] += 1
            play(pos, tab, move, undo, sp + ply)
            child = stack[ply + 1]
            value, n, key = _enter(pos, tab, undo, sp + ply + 1, moves[ply + 1], work[0],
                                   work[1], keys, data, -f[S_BETA], -f[S_ALPHA],
                                   check_legality)
            if n > 0:
                ply += 1
                child[S_COUNT], child[S_NEXT], child[S_KEY] = n, 0, key
                child[S_ALPHA], child[S_BETA] = -f[S_BETA], -f[S_ALPHA]
                child[S_FIRST_ALPHA], child[S_FIRST_BETA] = child[S_ALPHA], child[S_BETA]
                child[S_BEST], child[S_CHOSEN] = -2, 0
                continue
        else:
            _store(keys, data, f[S_KEY], f[S_BEST], f[S_CHOSEN], f[S_FIRST_ALPHA],
                   f[S_FIRST_BETA])
            if ply == 0:
                return f[S_BEST]
            value = f[S_BEST]
            ply -= 1
            f = stack[ply]
        take_back(pos, tab, undo, sp + ply)
        if -value > f[S_BEST]:
            f[S_BEST] = -value
            f[S_CHOSEN] = moves[ply, f[S_NEXT] - 1]
            f[S_ALPHA] = max(f[S_ALPHA], -value)


class ExactSolver:
    """The exact search with its table (``entries``, a power of two) kept between searches,
    for one variant at a time.

    ``stop()`` (from another thread) ends the running search, which then reports nothing."""

    def __init__(self, entries: int = 1 << 22) -> None:
        self._keys = np.zeros(entries, dtype=np.int64)
        self._data = np.zeros(entries, dtype=np.int64)
        self._control = np.zeros(3, dtype=np.int64)
        self._variant = ""
        self._moves = self._stack = np.zeros((0, 0), dtype=np.int64)
        """A row per ply to the end of the variant's game (made when the variant changes)."""
        self._work = np.zeros((2, MAX_MOVES), dtype=np.int64)

    def stop(self) -> None:
        """Stop the running search."""
        self._control[X_STOP] = 1

    def value(self, board: Board, nodes: int = 0) -> int | None:
        """The value of ``board`` for the side to move (1 win, 0 draw, -1 loss), or None when
        the search was stopped or ran out of ``nodes`` (0: no limit)."""
        return self._search(board, -1, 1, nodes)

    def keeping_moves(self, board: Board, nodes: int = 0, seconds: float | None = None,
                      one_win: bool = False) -> list[Move] | None:
        """The legal moves that keep the value of ``board`` for the side to move (all moves
        when it is lost; with ``one_win``, only the first winning move found when it is won:
        much less work), or None when the search was stopped, or ran out of ``nodes`` (0: no
        limit) or ``seconds``."""
        timer = None
        if seconds is not None:
            timer = threading.Timer(seconds, self.stop)
            timer.daemon = True
            timer.start()
        try:
            return self._keeping_moves(board, nodes, one_win)
        finally:
            if timer is not None:
                timer.cancel()

    def _keeping_moves(self, board: Board, nodes: int, one_win: bool) -> list[Move] | None:
        self._control[:] = 0
        value = self._search(board, -1, 1, nodes, reset=False)
        if value is None:
            return None
        if value == -1:
            return board.legal_moves
        kept = []
        for move in board.legal_moves:
            after = board.copy(stack=False)
            after.push(move)
            # the move keeps the value when the opponent's is at most -value
            reply = self._search(after, -value, -value + 1, nodes, reset=False)
            if reply is None:
                return None
            if reply <= -value:
                kept.append(move)
                if one_win and value == 1:
                    break
        return kept

    def _search(self, board: Board, alpha: int, beta: int, nodes: int,
                reset: bool = True) -> int | None:
        if not exact_applies(board.variant):
            raise ValueError(f"{board.variant.name} is too large for the exact search")
        rows = board.variant.move_limit + 2
        if board.variant.name != self._variant:  # keys are only unique within a variant
            self._keys[:] = 0
            self._variant = board.variant.name
            self._moves = np.zeros((rows, MAX_MOVES), dtype=np.int64)
            self._stack = np.zeros((rows, STACK_FIELDS), dtype=np.int64)
        if reset:
            self._control[:] = 0
        self._control[X_NODE_LIMIT] = nodes
        state = board.core_state(rows)
        compiled = solve_kernel(checks_legality(state.tables))
        value = compiled(state.position, state.tables, state.undo, state.plies, alpha, beta,
                         self._keys, self._data, self._moves, self._stack, self._work,
                         self._control)
        return None if value == STOPPED else int(value)
