"""The exact search of the smallest boards: values checked by brute force near the move limit,
and by hand in positions of games that level 10 drew or lost before it had one."""

from __future__ import annotations

import random

import pytest

from minichess import Board
from minichess.engine import Engine, Limit
from minichess.engine.exact import ExactSolver, exact_applies
from minichess.move import Move
from minichess.variants import VARIANTS


@pytest.fixture(scope="module")
def solver() -> ExactSolver:
    return ExactSolver(1 << 16)


def brute_value(board: Board) -> int:
    """The game's value for the side to move by plain minimax over the Board API."""
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else 1 if outcome.winner == board.turn else -1
    best = -1
    for move in board.legal_moves:
        board.push(move)
        best = max(best, -brute_value(board))
        board.pop()
    return best


def late_positions(count: int, ply: int, seed: int) -> list[Board]:
    """Positions of random csc111 games that are still going on at ``ply``."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board("csc111")
        while board.ply() < ply and not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over():
            found.append(board.copy(stack=False))
    return found


def test_only_csc111_is_small_enough():
    assert [name for name, variant in VARIANTS.items() if exact_applies(variant)] == ["csc111"]
    with pytest.raises(ValueError, match="too large"):
        ExactSolver(1 << 10).value(Board("minitchess"))


def test_values_near_the_move_limit_agree_with_brute_force(solver):
    boards = late_positions(30, 45, seed=3)
    values = [solver.value(board) for board in boards]
    assert values == [brute_value(board) for board in boards]
    assert set(values) == {-1, 0, 1}  # the sample has wins, draws and losses


def test_the_moves_that_keep_a_value_agree_with_brute_force(solver):
    for board in late_positions(10, 46, seed=4):
        value = brute_value(board)
        keeping = []
        for move in board.legal_moves:
            board.push(move)
            if -brute_value(board) == value:
                keeping.append(move)
            board.pop()
        assert solver.keeping_moves(board) == keeping


def test_a_win_that_needs_a_king_move():
    # Black's rook trade (Rd3xb3) is a draw, Kc4-c3 wins: a mate some 20 plies away, which
    # level 10's search misses at any time it has (it plays the trade)
    board = Board("csc111", "rPk1/pP1r/P3/RpK1 b - - 0 4")
    solver = ExactSolver()
    assert solver.value(board) == 1
    assert solver.keeping_moves(board) == [Move.from_uci("c4c3")]
    assert Engine(seed=1).play(board, Limit(depth=12)).move == Move.from_uci("d3b3")
    clocked = Limit(white_clock=60, black_clock=60)
    assert Engine(seed=1).play(board, clocked).move == Move.from_uci("c4c3")


def test_a_won_position_is_won_at_once_where_the_search_sees_it():
    # Rd2-c2 leaves Black no move: the game is won now. Under a clock the exact search keeps
    # only the first win it finds (Ra1-b1 here, a longer one); the search's own move is
    # played when it wins too
    board = Board("csc111", "1k1P/4/1K1R/R3 w - - 3 11")
    clocked = Limit(white_clock=60, black_clock=60)
    assert Engine(seed=1).play(board, clocked).move == Move.from_uci("d2c2")


def test_a_draw_that_needs_one_move(solver):
    board = Board("csc111", "rP2/pk2/4/RpK1 w - - 0 6")
    assert solver.value(board) == 0
    assert solver.keeping_moves(board) == [Move.from_uci("a1b1")]  # every other move loses


def test_a_won_position_needs_only_one_winning_move_found(solver):
    board = Board("csc111", "PP2/p1k1/P2r/1RK1 b - - 0 6")
    winning = solver.keeping_moves(board)
    assert winning == [Move.from_uci("d2a2"), Move.from_uci("d2c2")]
    assert solver.keeping_moves(board, one_win=True) == winning[:1]


def test_a_lost_position_keeps_every_move(solver):
    board = Board("csc111", "rPk1/p2r/PP2/RpK1 w - - 0 4")
    assert solver.value(board) == -1
    assert solver.keeping_moves(board) == board.legal_moves


def test_a_search_out_of_nodes_or_time_reports_nothing():
    board = Board("csc111", "rqk1/p1Pr/PPp1/RQK1 w - - 0 3")
    assert ExactSolver().value(board, nodes=5000) is None
    assert ExactSolver().keeping_moves(board, seconds=0.01) is None
