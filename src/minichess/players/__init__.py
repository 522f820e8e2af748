"""Players: anything that chooses a move in a game, so that any two can play each other.

Every player is a :class:`Player`: it has a ``name`` and ``choose_move(game)``, which reads the
position and the clocks from the :class:`~minichess.game.Game` and returns a legal move, and the
hooks ``new_game(variant)`` (before each game, before its clock runs) and ``close()`` (when it
is no longer needed), which do nothing unless the player keeps something between games.

- :class:`RandomPlayer`, :class:`GreedyPlayer` (``simple.py``): no search;
- :class:`EnginePlayer` (``engine.py``): the engine at a level;
- :class:`UciPlayer` (``uci.py``): an external engine driven through UCI;
- :class:`HumanPlayer` (``human.py``): the person at the keyboard;
- :class:`TimeOddsPlayer` (``time_odds.py``): another player with a share of its clock.

>>> from minichess import Game
>>> game = Game("csc111")
>>> game.push(GreedyPlayer(seed=1).choose_move(game)) in Game("csc111").board.legal_moves
True
"""

from minichess.players.base import Player
from minichess.players.engine import EnginePlayer
from minichess.players.human import HumanPlayer
from minichess.players.simple import GreedyPlayer, RandomPlayer
from minichess.players.time_odds import TimeOddsPlayer
from minichess.players.uci import UciEngineError, UciPlayer, UciTimeoutError

__all__ = [
    "EnginePlayer",
    "GreedyPlayer",
    "HumanPlayer",
    "Player",
    "RandomPlayer",
    "TimeOddsPlayer",
    "UciEngineError",
    "UciPlayer",
    "UciTimeoutError",
]
