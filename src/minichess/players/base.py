"""The player base class: anything that chooses a move in a game, so that any two can play each
other."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType

from minichess.game import Game
from minichess.move import Move
from minichess.variants import VariantDefinition


class Player(ABC):
    """Something that chooses moves: it reads the position and the clocks from the
    :class:`~minichess.game.Game` and returns a legal move.

    A match calls :meth:`seed_game` and :meth:`new_game` before each game (before the
    player's clock runs) and :meth:`close` when the player is no longer needed; they do
    nothing unless a player draws its moves by chance or keeps something between games (an
    engine's tables, an external program). A player is also a context manager that closes it.
    """

    name: str
    """How the player is called in game records and reports."""

    @abstractmethod
    def choose_move(self, game: Game) -> Move:
        """A legal move for the side to move in ``game``."""

    def seed_game(self, seed: int) -> None:  # noqa: B027 (a hook: no-op)
        """Draw the next game's chance moves from ``seed``, so that a match replays from its
        own seed whichever process plays the game; by default nothing (a player without
        chance, or an external program)."""

    def new_game(self, variant: VariantDefinition) -> None:  # noqa: B027 (a hook: no-op)
        """Prepare for a new game of ``variant``; by default nothing."""

    def close(self) -> None:  # noqa: B027 (a hook: no-op)
        """Release what the player holds; by default nothing."""

    def __enter__(self) -> Player:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
