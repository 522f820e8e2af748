"""Players and games in the course library's interface: ``Player``, ``RandomPlayer``,
``run_game`` and ``run_games``, with what they print."""

from __future__ import annotations

import copy
import random
import time

from minichess.csc111.display import GameDisplay, open_display
from minichess.csc111.game import MinichessGame
from minichess.csc111.stats import plot_game_statistics
from minichess.engine import MAX_LEVEL, Engine, Limit

DEFAULT_FPS = 6
"""Moves shown per second when games are visualized."""
OUTCOMES = ("White", "Black", "Draw")


class Player:
    """A Minichess player: subclasses choose moves in :meth:`make_move`."""

    def make_move(self, game: MinichessGame, previous_move: str | None) -> str:
        """A valid move of ``game`` for the side to move; ``previous_move`` is the opponent's
        last move (None before the first). Called only while the game has valid moves."""
        raise NotImplementedError


class RandomPlayer(Player):
    """Plays a random valid move (from Python's ``random`` module, so ``random.seed``
    repeats its games)."""

    def make_move(self, game: MinichessGame, previous_move: str | None) -> str:
        """A valid move chosen at random."""
        return random.choice(game.get_valid_moves())


def run_game(white: Player, black: Player, visualize: bool = False,
             fps: int = DEFAULT_FPS) -> tuple[str, list[str]]:
    """Play a game from the start between ``white`` and ``black``; return the winner
    (``'White'``, ``'Black'`` or ``'Draw'``) and the moves. With ``visualize`` each position
    is shown for ``1 / fps`` seconds as it is played (see :mod:`minichess.csc111.display`).

    A move that is not valid raises ValueError, as ``MinichessGame.make_move`` does."""
    if not visualize:
        return _play(white, black, None, fps)
    display = open_display()
    try:
        return _play(white, black, display, fps)
    finally:
        display.close()


def run_games(n: int, white: Player, black: Player, visualize: bool = False,
              fps: int = DEFAULT_FPS, show_stats: bool = False) -> None:
    """Play ``n`` games between copies of ``white`` and ``black`` (fresh deep copies for each
    game, so that what a player learns in one game does not carry over), printing each game's
    winner and then the totals::

        Game 0 winner: White
        ...
        White: 3/5 (60.00%)
        Black: 1/5 (20.00%)
        Draw: 1/5 (20.00%)

    ``visualize`` shows the games as they are played, in one window (or terminal) for all of
    them; ``show_stats`` plots the results afterwards (``plot_game_statistics``)."""
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    display = open_display() if visualize else None
    counts = dict.fromkeys(OUTCOMES, 0)
    results = []
    try:
        for i in range(n):
            winner, _ = _play(copy.deepcopy(white), copy.deepcopy(black), display, fps)
            counts[winner] += 1
            results.append(winner)
            print(f"Game {i} winner: {winner}")
    finally:
        if display is not None:
            display.close()
    for outcome, count in counts.items():
        print(f"{outcome}: {count}/{n} ({100.0 * count / n:.2f}%)")
    if show_stats:
        plot_game_statistics(results)


def _play(white: Player, black: Player, display: GameDisplay | None,
          fps: int) -> tuple[str, list[str]]:
    """One game, shown on ``display`` if there is one; the winner and the moves."""
    game = MinichessGame()
    moves: list[str] = []
    previous_move = None
    player, other = white, black
    if display is not None:
        display.show(game, None)
        time.sleep(1 / fps)
    while (winner := game.get_winner()) is None:
        previous_move = player.make_move(game, previous_move)
        game.make_move(previous_move)
        moves.append(previous_move)
        if display is not None:
            display.show(game, previous_move)
            time.sleep(1 / fps)
        player, other = other, player
    if display is not None:
        time.sleep(4 / fps)  # the end stays a little longer
    return winner, moves


class EnginePlayer(Player):
    """minichess's engine as a course player: a sparring partner for students' players, from
    level 1 (beginner) to ``MAX_LEVEL`` (full strength), thinking ``seconds`` a move.

    Not in the course library. ``run_games`` gives each game a fresh copy, which starts with
    empty tables."""

    def __init__(self, level: int = MAX_LEVEL, seconds: float = 0.1) -> None:
        self.level = level
        self.seconds = seconds
        self._engine = Engine(level=level)

    def make_move(self, game: MinichessGame, previous_move: str | None) -> str:
        """The engine's move in ``game``."""
        return self._engine.play(game.to_board(), Limit(time=self.seconds)).move.uci()

    def __deepcopy__(self, memo: dict[int, object]) -> EnginePlayer:
        return EnginePlayer(self.level, self.seconds)
