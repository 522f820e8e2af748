"""Move generation cross-checked against Fairy-Stockfish (pyffish), position by position.

Random games are played with the project's Board; in every position the sorted legal moves
must equal the oracle's, and the position after each move must equal the oracle's FEN. The
oracle's own random playouts are checked the same way, which also shows that the FENs pyffish
writes are read unchanged.
"""

from __future__ import annotations

import random

import pyffish
import pytest

from fairy_oracle import ORACLE_VARIANTS, load, oracle_moves, random_playout_fens
from minichess import Board, Termination

POSITIONS_PER_VARIANT = 700
ORACLE_POSITIONS_PER_VARIANT = 300


def fen_after(variant: str, fen: str, move: str) -> str:
    """The oracle's position after ``move``."""
    load()
    return pyffish.get_fen(ORACLE_VARIANTS[variant], fen, [move])


def random_game_positions(variant: str, seed: int, count: int):
    """Boards along random games of ``variant`` (the same object, moved on between yields)."""
    rng = random.Random(seed)
    seen = 0
    while seen < count:
        board = Board(variant)
        while seen < count:
            outcome = board.outcome()
            if outcome is not None and outcome.termination == Termination.THREEFOLD_REPETITION:
                break  # a FEN carries no history: the oracle cannot know this draw
            yield board
            seen += 1
            if not board.legal_moves:
                break
            board.push(rng.choice(board.legal_moves))


@pytest.mark.parametrize("variant", sorted(ORACLE_VARIANTS))
def test_legal_moves_and_resulting_positions_match_the_oracle_along_random_games(variant):
    for board in random_game_positions(variant, seed=11, count=POSITIONS_PER_VARIANT):
        fen = board.fen()
        ours = sorted(move.uci() for move in board.legal_moves)
        assert ours == oracle_moves(variant, fen), fen
        for move in ours[:3]:
            after = board.copy()
            after.push_uci(move)
            assert after.fen() == fen_after(variant, fen, move), (fen, move)


@pytest.mark.parametrize("variant", sorted(ORACLE_VARIANTS))
def test_positions_of_the_oracles_own_playouts_read_and_move_alike(variant):
    for fen in random_playout_fens(variant, ORACLE_POSITIONS_PER_VARIANT, seed=5):
        board = Board(variant, fen)
        assert board.fen() == fen
        assert sorted(move.uci() for move in board.legal_moves) == oracle_moves(variant, fen)
