"""The engine as a player."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from minichess.engine import MAX_LEVEL, Engine, Limit, Techniques
from minichess.engine.book import NO_BOOK, OpeningBook
from minichess.engine.endgame import NO_ENDGAME
from minichess.engine.weights import starting_weights, variant_weights
from minichess.game import Game
from minichess.move import Move
from minichess.pieces import BLACK, WHITE
from minichess.players.base import Player
from minichess.variants import VariantDefinition


class EnginePlayer(Player):
    """The engine at a ``level``; it uses the game's clocks when there are any, else
    ``limit`` (by default a tenth of a second per move).

    ``techniques`` sets search techniques by the names of :class:`~minichess.engine.Techniques`'
    fields and their values (the others stay the variant's choice) and
    ``weights`` plays with the untuned evaluation (``"start"``) or the weights in a file (its
    path), ``network`` without the variant's network (``"none"``) or with the one in a file,
    ``book`` without the variant's opening book (``"none"``) or with the one in a file,
    ``endgame`` without the endgame tables (``"none"``):
    for measuring what each is worth by matches."""

    def __init__(self, level: int = MAX_LEVEL, limit: Limit | None = None, seed: int | None = None,
                 hash_mb: int = 16, techniques: Mapping[str, Any] | None = None,
                 weights: str | None = None, network: str | None = None,
                 book: str | None = None, endgame: str | None = None) -> None:
        self.name = f"level:{level}"
        self.engine = Engine(level=level, seed=seed, hash_mb=hash_mb, book=book != NO_BOOK,
                             endgame=endgame != NO_ENDGAME)
        if book is not None and book != NO_BOOK:
            self.engine.use_book(OpeningBook.load(book))
        self.limit = limit or Limit(time=0.1)
        self._techniques = dict(techniques or {})
        self._weights = weights
        self._network = network

    def seed_game(self, seed: int) -> None:
        """Fix the weaker levels' choices in the next game by ``seed``."""
        self.engine.seed = seed

    def new_game(self, variant: VariantDefinition) -> None:
        """Forget the previous game (transposition table, killers, history) and read the
        variant's endgame tables, if level 10 uses them, before the clock runs."""
        self.engine.new_game(variant)

    def choose_move(self, game: Game) -> Move:
        """The engine's move within the time the game allows."""
        self._configure(game.variant)
        limit = self.limit
        if game.clock is not None:
            limit = Limit(
                white_clock=game.remaining(WHITE),
                black_clock=game.remaining(BLACK),
                increment=game.clock.increment,
                depth=self.limit.depth,
                nodes=self.limit.nodes,
            )
        return self.engine.play(game.board, limit).move

    def _configure(self, variant: VariantDefinition) -> None:
        self.engine.techniques = replace(Techniques.for_variant(variant), **self._techniques)
        if self._weights == "start":
            self.engine.use_weights(variant, starting_weights(variant))
        elif self._weights is not None or self._network is not None:
            self.engine.use_weights(variant, variant_weights(variant, self._weights,
                                                             self._network))
