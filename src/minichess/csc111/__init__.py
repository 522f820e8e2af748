"""The CSC111 course library's interface (``a2_minichess.py``), on minichess's compiled core.

Code written for the University of Toronto's CSC111 Minichess assignment runs unchanged with
``import minichess.csc111 as a2_minichess``, with the same answers (the valid moves in the same
order, the same errors, winners and printed results), only much faster. ``EnginePlayer`` adds
minichess's engine as an opponent with the course's ``Player`` interface.

>>> import random
>>> random.seed(0)
>>> winner, moves = run_game(RandomPlayer(), RandomPlayer())
>>> winner in ('White', 'Black', 'Draw') and len(moves) <= MAX_MOVES
True
"""

from minichess.csc111.game import MAX_MOVES, MinichessGame, _Piece
from minichess.csc111.play import (
    DEFAULT_FPS,
    EnginePlayer,
    Player,
    RandomPlayer,
    plot_game_statistics,
    run_game,
    run_games,
)

__all__ = [
    "DEFAULT_FPS",
    "MAX_MOVES",
    "EnginePlayer",
    "MinichessGame",
    "Player",
    "RandomPlayer",
    "_Piece",
    "plot_game_statistics",
    "run_game",
    "run_games",
]
