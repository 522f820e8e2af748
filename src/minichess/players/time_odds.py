"""Time odds: a player that thinks as if its clock showed only a share of its time.

>>> from minichess.players import RandomPlayer
>>> TimeOddsPlayer(RandomPlayer(), 0.5).name
'random,time=0.5'
"""

from __future__ import annotations

from typing import Any

from minichess.game import Game, TimeControl
from minichess.move import Move
from minichess.pieces import Color
from minichess.players.base import Player
from minichess.variants import VariantDefinition


class TimeOddsPlayer(Player):
    """A player that sees its clocks (and increments) scaled by ``factor``, so that it thinks
    with that share of the time it has."""

    def __init__(self, player: Player, factor: float) -> None:
        self.player = player
        self.factor = factor
        self.name = f"{player.name},time={factor:g}"

    def choose_move(self, game: Game) -> Move:
        """The player's move, chosen on scaled clocks."""
        return self.player.choose_move(_ScaledClocks(game, self.factor))  # type: ignore[arg-type]

    def seed_game(self, seed: int) -> None:
        """Pass the next game's seed on to the player."""
        self.player.seed_game(seed)

    def new_game(self, variant: VariantDefinition) -> None:
        """Pass the start of a game on to the player."""
        self.player.new_game(variant)

    def close(self) -> None:
        """Release the player's resources."""
        self.player.close()


class _ScaledClocks:
    """A view of a game whose clocks show ``factor`` times the time; all else is the game's."""

    def __init__(self, game: Game, factor: float) -> None:
        self._game = game
        self._factor = factor

    @property
    def clock(self) -> TimeControl | None:
        clock = self._game.clock
        if clock is None:
            return None
        return TimeControl(clock.initial * self._factor, clock.increment * self._factor)

    def remaining(self, color: Color) -> float | None:
        seconds = self._game.remaining(color)
        return None if seconds is None else seconds * self._factor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)
