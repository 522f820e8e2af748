"""A model of a weak opponent: the moves a one-ply material player would choose.

The model is the :class:`minichess.players.GreedyPlayer`'s rule: a move that wins at once,
else one that leaves the best material balance one ply ahead (by the variant's material
weights). The engine uses it to choose among moves that a full search scores alike: against
a perfect opponent they are equal, against a fallible one some leave more ways to go wrong.

>>> from minichess import Board
>>> from minichess.engine.weights import variant_weights
>>> board = Board("csc111", "1k1r/p2p/P2P/1K1R b - - 0 5")
>>> [move.uci() for move in materially_best_moves(board, variant_weights(board.variant))]
['d4c4', 'b4a4', 'b4c4']
"""

from __future__ import annotations

import numpy as np

from minichess.board import Board
from minichess.engine.evaluation import W_MATERIAL
from minichess.move import Move

WIN = 10**6
"""The balance of a move that wins the game at once."""


def materially_best_moves(board: Board, weights: np.ndarray) -> list[Move]:
    """The legal moves that win at once, or else those that leave the side to move the best
    material balance (``weights``: the variant's evaluation weights, of which the material
    values are used)."""
    values = weights[W_MATERIAL:W_MATERIAL + 8]
    probe = board.copy()
    scored = []
    for move in probe.legal_moves:
        probe.push(move)
        outcome = probe.outcome()
        if outcome is not None and outcome.winner is not None:
            balance = WIN if outcome.winner != probe.turn else -WIN
        else:
            balance = -material_balance(probe, values)
        probe.pop()
        scored.append((balance, move))
    best = max(balance for balance, _ in scored)
    return [move for balance, move in scored if balance == best]


def material_balance(board: Board, values: np.ndarray) -> int:
    """Material of the side to move minus the opponent's."""
    total = 0
    for square in board.squares():
        piece = board.piece_at(square)
        if piece is not None:
            value = int(values[piece.piece_type])
            total += value if piece.color == board.turn else -value
    return total
