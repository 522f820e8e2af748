"""Players without a search: random legal moves, and the materially best move one ply ahead."""

from __future__ import annotations

import random

from minichess.engine.opponent import materially_best_moves
from minichess.engine.weights import variant_weights
from minichess.game import Game
from minichess.move import Move
from minichess.players.base import Player


class RandomPlayer(Player):
    """Plays a uniformly random legal move (reproducible with a ``seed``)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._random = random.Random(seed)

    def seed_game(self, seed: int) -> None:
        """Draw the next game's moves from ``seed``."""
        self._random.seed(seed)

    def choose_move(self, game: Game) -> Move:
        """A random legal move."""
        return self._random.choice(game.board.legal_moves)


class GreedyPlayer(Player):
    """Plays the move that leaves it the best material balance one ply ahead (by the variant's
    material weights, so in antichess it gives material away); ties are broken at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "greedy"
        self._random = random.Random(seed)

    def seed_game(self, seed: int) -> None:
        """Break the next game's ties from ``seed``."""
        self._random.seed(seed)

    def choose_move(self, game: Game) -> Move:
        """The materially best move, or a random one among equals."""
        board = game.board
        return self._random.choice(materially_best_moves(board, variant_weights(board.variant)))
