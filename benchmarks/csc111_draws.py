"""Exact analysis of csc111 positions against the 50-ply limit (a check to read, not a test).

    python benchmarks/csc111_draws.py "1rkr/p2p/P1pP/RQKR w - - 0 3:b"

For each ``FEN:side`` (``w`` or ``b``: the side the engine would play) it prints

- the game-theoretic value for the side to move (1 win, 0 draw, -1 loss), searched to the end
  of the game with a transposition table keyed by position and ply;
- the best chance of the given side to beat ``greedy`` (minichess.players.GreedyPlayer, which
  chooses at random among its materially best moves): playing any move, and playing only
  moves that keep the game-theoretic value ("sound"). A sound player cannot do better than the
  second number; that it is below 1 shows how far a draw against greedy is the engine's fault.

The board is small enough for both to be exact: a few seconds to minutes per position.
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from minichess.board import Board
from minichess.core.layout import HASH, MAILBOX, MAX_MOVES, PLY, STM
from minichess.core.makemove import make_move, unmake_move
from minichess.core.rules import rule_kernels
from minichess.engine.evaluation import W_MATERIAL
from minichess.engine.weights import variant_weights

legal_moves = rule_kernels(check_legality=True).legal_moves
"""csc111's king is royal: its compiled legal-move kernel."""
TABLE_BITS = 24
LIMIT = 50
"""csc111's move limit in plies (checked before anything else)."""


@njit(cache=False)
def _key(pos: np.ndarray, salt: int) -> int:
    return pos[HASH] ^ (pos[PLY] * 0x9E3779B97F4A7C15) ^ salt


@njit(cache=False)
def game_value(pos, tab, undo, sp, moves, alpha, beta, keys, lower, upper):
    """Win (1), draw (0) or loss (-1) for the side to move, by alpha-beta to the end of the
    game; ``keys``/``lower``/``upper`` keep proven bounds per position and ply."""
    if pos[PLY] >= LIMIT:
        return 0
    n = legal_moves(pos, tab, moves[sp], undo, sp, False)
    if n == 0:
        return -1
    key = _key(pos, 0)
    slot = key & (keys.shape[0] - 1)
    low, high = -1, 1
    if keys[slot] == key:
        low, high = lower[slot], upper[slot]
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
    a, b = max(alpha, low), min(beta, high)
    first_alpha, first_beta = a, b
    best = -2
    for i in range(n):
        make_move(pos, tab, moves[sp, i], undo, sp)
        value = -game_value(pos, tab, undo, sp + 1, moves, -b, -a, keys, lower, upper)
        unmake_move(pos, tab, undo, sp)
        if value > best:
            best = value
            a = max(a, best)
            if a >= b:
                break
    if best <= first_alpha:
        high = best
    elif best >= first_beta:
        low = best
    else:
        low = high = best
    keys[slot], lower[slot], upper[slot] = key, low, high
    return best


@njit(cache=False)
def _greedy_moves(pos, tab, undo, sp, moves, values, out):
    """Greedy's choices into ``out`` (a win, else the best material balance); their number."""
    n = legal_moves(pos, tab, moves[sp], undo, sp, False)
    colour = pos[STM]
    best = -(1 << 40)
    count = 0
    for i in range(n):
        make_move(pos, tab, moves[sp, i], undo, sp)
        score = 0
        for sq in range(64):
            code = pos[MAILBOX + sq]
            if code != 0:
                score += values[code & 7] if code >> 3 == colour else -values[code & 7]
        if pos[PLY] < LIMIT and legal_moves(pos, tab, moves[sp + 1], undo, sp + 1, False) == 0:
            score = 1 << 30
        unmake_move(pos, tab, undo, sp)
        if score > best:
            best, count = score, 0
        if score == best:
            out[count] = moves[sp, i]
            count += 1
    return count


@njit(cache=False)
def win_chance(pos, tab, undo, sp, moves, choices, values, side, sound, keys, chances,
               value_tables):
    """The best probability for ``side`` to beat greedy from here; with ``sound`` only moves
    that keep the game-theoretic value (``value_tables``: game_value's tables)."""
    if pos[PLY] >= LIMIT:
        return 0.0
    key = _key(pos, 1 + sound + 2 * side)
    slot = key & (keys.shape[0] - 1)
    if keys[slot] == key:
        return chances[slot]
    vkeys, vlower, vupper = value_tables
    n = legal_moves(pos, tab, moves[sp], undo, sp, False)
    chance = 0.0
    if n == 0:
        chance = 0.0 if pos[STM] == side else 1.0
    elif pos[STM] == side:
        target = 0
        if sound != 0:
            target = game_value(pos, tab, undo, sp, moves, -1, 1, vkeys, vlower, vupper)
            n = legal_moves(pos, tab, moves[sp], undo, sp, False)
        for i in range(n):
            make_move(pos, tab, moves[sp, i], undo, sp)
            if sound == 0 or -game_value(pos, tab, undo, sp + 1, moves, -1, 1, vkeys, vlower,
                                         vupper) == target:
                chance = max(chance, win_chance(pos, tab, undo, sp + 1, moves, choices, values,
                                                side, sound, keys, chances, value_tables))
            unmake_move(pos, tab, undo, sp)
            if chance >= 1.0:
                break
    else:
        count = _greedy_moves(pos, tab, undo, sp, moves, values, choices[sp])
        for i in range(count):
            make_move(pos, tab, choices[sp, i], undo, sp)
            chance += win_chance(pos, tab, undo, sp + 1, moves, choices, values, side, sound,
                                 keys, chances, value_tables) / count
            unmake_move(pos, tab, undo, sp)
    keys[slot], chances[slot] = key, chance
    return chance


def main() -> None:
    """Analyse the positions given on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("positions", nargs="+", help='"FEN:w" or "FEN:b"')
    args = parser.parse_args()
    size = 1 << TABLE_BITS
    value_tables = (np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64))
    keys, chances = np.zeros(size, np.int64), np.zeros(size, np.float64)
    values = variant_weights("csc111")[W_MATERIAL:W_MATERIAL + 8].copy()
    for text in args.positions:
        fen, side_letter = text.rsplit(":", 1)
        state = Board("csc111", fen).core_state(LIMIT + 2)
        moves = np.zeros((state.plies + LIMIT + 2, MAX_MOVES), np.int64)
        choices = np.zeros_like(moves)
        value = game_value(state.position, state.tables, state.undo, state.plies, moves, -1, 1,
                           *value_tables)
        side = 0 if side_letter == "w" else 1
        found = [win_chance(state.position, state.tables, state.undo, state.plies, moves,
                            choices, values, side, sound, keys, chances, value_tables)
                 for sound in (0, 1)]
        print(f"{fen}  value {value:+d}  {side_letter} beats greedy: any moves "
              f"{found[0]:.3f}, sound moves {found[1]:.3f}", flush=True)


if __name__ == "__main__":
    main()
