"""Legal move generation against the definition of legality itself.

Where the king is royal, the core counts most moves legal from where they go (check masks,
pins, the zones around chess36 knights) and tries only the rest on the board. Here every
pseudo-legal move is tried on the board instead, the plain definition: a move is legal when it
does not leave the mover's king attacked. chess36 has no outside oracle, so this is its
cross-check on thousands of positions, drops and lone knights included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from minichess import Board, Move
from minichess.core.layout import MAX_MOVES, STM
from minichess.core.makemove import make_move, unmake_move
from minichess.core.movegen import EVERYWHERE, GEN_ALL, generate, in_check
from minichess.core.rules import rules_for
from minichess.variants.catalog import VARIANTS
from minichess.variants.definition import Royalty

ROYAL_VARIANTS = [name for name, v in VARIANTS.items() if v.royalty == Royalty.CHECK]


def legal_by_trying_every_move(board: Board) -> set[Move]:
    """The pseudo-legal moves that do not leave the mover's king attacked."""
    state = board.core_state(extra_plies=1)
    pos, tab, undo = state.position, state.tables, state.undo
    buf = np.zeros(MAX_MOVES, dtype=np.int64)
    n = generate(pos, tab, buf, 0, GEN_ALL, EVERYWHERE, EVERYWHERE)
    colour = pos[STM]
    legal = set()
    for code in buf[:n]:
        make_move(pos, tab, code, undo, state.plies)
        if not in_check(pos, tab, colour):
            legal.add(Move.from_code(int(code)))
        unmake_move(pos, tab, undo, state.plies)
    return legal


def counted_legal(board: Board) -> int:
    """The number of legal moves as perft's bulk counting finds it."""
    state = board.core_state(extra_plies=1)
    buf = np.zeros(MAX_MOVES, dtype=np.int64)
    rules = rules_for(state.tables)
    return rules.legal_moves(state.position, state.tables, buf, state.undo, state.plies, True)


@pytest.mark.parametrize("variant", ROYAL_VARIANTS)
def test_legal_moves_are_the_moves_that_keep_the_king_safe(variant):
    rng = random.Random(36)
    positions = 0
    while positions < 3000:
        board = Board(variant)
        while not board.is_game_over() and board.ply() < 120:
            moves = board.legal_moves
            assert set(moves) == legal_by_trying_every_move(board), board.fen()
            assert len(moves) == len(set(moves)) == counted_legal(board), board.fen()
            positions += 1
            board.push(rng.choice(moves))


def test_a_shield_is_pinned_only_by_a_slider_on_its_own_line(legal):
    # The black queen d2 checks the king e2 from beside it. The white queen e3 is pinned on the
    # e-file by the rook e5, so it may not take d2. The rook e1 shields the king only from
    # below, where nothing stands: it is free, but no rook move answers the check. The king
    # escapes to f1 or f3 (d1's knight has neighbours, so it jumps: not to those squares).
    board = Board("chess36", "1N3k/3Pr1/6/4Q1/3qK1/3nR1[RBNqrbn] w - - 1 41")
    assert board.is_check()
    assert legal(board) == {"e2f1", "e2f3"}


def test_a_pinned_piece_beside_a_lone_knight_has_each_move_once(legal):
    # The bishop b2 is pinned on the a1-d4 diagonal by the black bishop d4, and it is the
    # only neighbour of the black knight c1, so its moves are both pinned and tried on the
    # board. It may go along the pin (c3) or take the pinner (d4), each counted once. The king
    # a1 has no move: the knight, which has the bishop or the king as neighbour, jumps to a2
    # and steps to b1.
    board = Board("chess36", "5k/p5/3b2/6/1B4/K1n3[] w - - 0 1")
    assert legal(board) == {"b2c3", "b2d4"}
    assert len(board.legal_moves) == counted_legal(board) == 2
