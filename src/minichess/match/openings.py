"""Balanced opening positions, so that the games of a match differ.

An opening is a short random sequence of moves from the start position (2 to 4 plies), kept
only if a shallow engine search finds the resulting position about level: within
``max_centipawns`` of equality, and no forced win. The same seed gives the same openings.

>>> openings = balanced_openings("minitchess", 3, seed=1)
>>> len(openings), all(abs(opening.score) <= 50 for opening in openings)
(3, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from minichess.board import Board
from minichess.engine import Engine, Limit
from minichess.variants import VariantDefinition, get_variant

SEARCH_DEPTH = 6
"""Depth of the search that judges an opening (a few milliseconds per position)."""
ATTEMPTS_PER_OPENING = 40
"""Random sequences tried per opening wanted before giving up on finding more."""


@dataclass(frozen=True)
class Opening:
    """A start position for a pair of games: ``fen``, reached by ``moves`` (UCI) from the
    variant's start; ``score`` is the engine's judgement in centipawns for the side to move."""

    fen: str
    moves: tuple[str, ...]
    score: int


def balanced_openings(
    variant: str | VariantDefinition,
    count: int,
    seed: int,
    plies: tuple[int, int] = (2, 4),
    max_centipawns: int = 50,
) -> list[Opening]:
    """Up to ``count`` different balanced openings of ``variant``, the same for the same
    ``seed``; each is ``plies[0]`` to ``plies[1]`` plies deep.

    Some variants have few balanced positions that close to the start (csc111): then fewer
    are returned, and if none is found at all, the start position itself is the only one.
    """
    variant = get_variant(variant)
    chooser = random.Random(seed)
    engine = Engine(level=10, seed=seed)
    found: dict[str, Opening] = {}
    for _ in range(count * ATTEMPTS_PER_OPENING):
        if len(found) >= count:
            break
        board = _random_line(variant, chooser.randint(*plies), chooser)
        fen = board.fen()
        if board.is_game_over() or fen in found:
            continue
        info = engine.analyse(board, Limit(depth=SEARCH_DEPTH))
        if info.score is not None and abs(info.score) <= max_centipawns:
            found[fen] = Opening(fen, tuple(move.uci() for move in board.move_stack), info.score)
    start = Board(variant)
    return list(found.values()) or [Opening(start.fen(), (), 0)]


def _random_line(variant: VariantDefinition, plies: int, chooser: random.Random) -> Board:
    """The board after up to ``plies`` random moves from the start (fewer if the game ends)."""
    board = Board(variant)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        board.push(chooser.choice(moves))
    return board
