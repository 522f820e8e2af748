"""Balanced opening positions, so that the games of a match differ.

An opening is a short random sequence of moves from the start position (2 to 4 plies), kept
only if a shallow engine search finds the resulting position about level: within
``max_centipawns`` of equality, and no forced win. The same seed gives the same openings.

>>> openings = balanced_openings("minitchess", 3, seed=1)
>>> len(openings), all(abs(opening.score) <= 50 for opening in openings)
(3, True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from minichess.board import Board
from minichess.engine import Engine, Limit
from minichess.errors import MinichessError
from minichess.notation.pgn import read_pgn, read_text_file
from minichess.variants import VariantDefinition, get_variant

SEARCH_DEPTH = 6
"""Depth of the search that judges an opening (a few milliseconds per position)."""
ATTEMPTS_PER_OPENING = 40
"""Random lines tried per opening wanted before giving up on finding more."""
PATIENCE = 2000
"""Random lines in a row that find no new opening before the search for more gives up (the
lines are cheap once their positions have been judged)."""


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
    found = _new_openings(variant, seed, plies, max_centipawns, count * ATTEMPTS_PER_OPENING)
    return list(itertools.islice(found, count)) or [start_opening(variant)]


def opening_cycle(
    variant: str | VariantDefinition,
    seed: int,
    count: int | None = None,
    plies: tuple[int, int] = (2, 4),
    max_centipawns: int = 50,
) -> Iterator[Opening]:
    """Endless openings for a match: the ``count`` openings of :func:`balanced_openings` (as
    many as can be found when None) in the same order, each searched for when first asked
    for, and once there are no more, the same again from the first.

    >>> openings = opening_cycle("minitchess", seed=1)
    >>> [next(openings) for _ in range(2)] == balanced_openings("minitchess", 2, seed=1)
    True
    """
    variant = get_variant(variant)
    budget = None if count is None else count * ATTEMPTS_PER_OPENING
    found = []
    for opening in _new_openings(variant, seed, plies, max_centipawns, budget):
        found.append(opening)
        yield opening
        if len(found) == count:
            break
    yield from itertools.cycle(found or [start_opening(variant)])


def _new_openings(variant: VariantDefinition, seed: int, plies: tuple[int, int],
                  max_centipawns: int, attempts: int | None) -> Iterator[Opening]:
    """Different balanced openings, the same sequence for the same seed, from at most
    ``attempts`` random lines (None: no limit); it also ends after PATIENCE lines in a row
    gave nothing new. Positions judged before are not searched again."""
    chooser = random.Random(seed)
    engine = Engine(level=10, seed=seed)
    judged: set[str] = set()
    since_last = 0
    for _ in itertools.repeat(None) if attempts is None else range(attempts):
        if since_last >= PATIENCE:
            return
        since_last += 1
        board = _random_line(variant, chooser.randint(*plies), chooser)
        fen = board.fen()
        if board.is_game_over() or fen in judged:
            continue
        judged.add(fen)
        info = engine.analyse(board, Limit(depth=SEARCH_DEPTH))
        if info.score is not None and abs(info.score) <= max_centipawns:
            since_last = 0
            yield Opening(fen, tuple(move.uci() for move in board.move_stack), info.score)


def start_opening(variant: VariantDefinition) -> Opening:
    """The start position as an opening (of last resort, or for games from the start)."""
    return Opening(Board(variant).fen(), (), 0)


def read_openings(path: str | Path, variant: str | VariantDefinition) -> list[Opening]:
    """The openings in the file ``path``, in its order, for a match of ``variant``.

    A file whose name ends in ``.pgn`` gives each game's start position (its FEN tag, or the
    variant's start), the moves of the games unplayed; a position that repeats the one before
    it is taken once, so a match's own PGN, where each opening begins two games, gives back
    that match's openings. Any other file holds one FEN a line; blank lines and lines that
    begin with ``#`` are skipped. Raises MinichessError naming the file and the line or game
    that is wrong: unreadable, not a position of ``variant``, or one where the game is over.
    """
    variant = get_variant(variant)
    text = read_text_file(path)
    path = Path(path)
    if path.suffix.lower() == ".pgn":
        places = _pgn_start_positions(text, variant, path)
    else:
        places = [(f"line {number}", line.strip()) for number, line in
                  enumerate(text.splitlines(), start=1)
                  if line.strip() and not line.lstrip().startswith("#")]
    openings: list[Opening] = []
    for place, fen in places:
        try:
            board = Board(variant, fen)
        except MinichessError as error:
            raise MinichessError(f"{path}, {place}: {error}") from None
        if board.is_game_over():
            raise MinichessError(f"{path}, {place}: the game is already over in {fen!r}")
        if not openings or openings[-1].fen != board.fen():
            openings.append(Opening(board.fen(), (), 0))
    if not openings:
        raise MinichessError(f"{path} holds no opening")
    return openings


def _pgn_start_positions(text: str, variant: VariantDefinition,
                         path: Path) -> list[tuple[str, str]]:
    """Each game's place in the file and start position; every game must be of ``variant``."""
    try:
        games = read_pgn(text, variant)
    except MinichessError as error:
        raise MinichessError(f"{path}: {error}") from None
    places = []
    for number, game in enumerate(games, start=1):
        if game.board.variant.name != variant.name:
            raise MinichessError(f"{path}, game {number}: a game of {game.board.variant.name},"
                                 f" not {variant.name}")
        places.append((f"game {number}", game.start_fen))
    return places


def _random_line(variant: VariantDefinition, plies: int, chooser: random.Random) -> Board:
    """The board after up to ``plies`` random moves from the start (fewer if the game ends)."""
    board = Board(variant)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        board.push(chooser.choice(moves))
    return board
