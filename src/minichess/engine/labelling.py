"""Positions labelled for fitting the evaluation (``tuning.py``).

The evaluation is only ever asked about quiet positions: quiescence stands pat only where the
side to move is not in check and need not capture. So the positions taken from games are the
quiet ones, each once, and each is labelled with what the tuning fits the evaluation to:

- ``result``: the game's result (Texel's method);
- ``search``: the score of our engine's search to the labelling depth;
- ``uci:COMMAND[,option.NAME=VALUE,variant=NAME]``: the score of an external UCI engine's
  search to that depth (a player spec as ``minichess match`` takes it), for instance a
  stronger engine whose judgement the evaluation should learn.

Scores become expected results for White by the logistic curve of ``SCALE``; forced wins
and losses count as 1 and 0.

>>> from minichess.game import Game
>>> game = Game("minitchess")
>>> [position.fen for position in quiet_positions([game])]
['kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from minichess.board import Board
from minichess.engine.engine import Engine
from minichess.engine.timing import Limit
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.match.pool import open_pool
from minichess.pieces import WHITE

SCALE = math.log(10) / 400
"""A score of 400 centipawns: 10 to 1 odds."""
LABELS = ("result", "search", "uci:COMMAND")
CHUNK = 64
"""Positions labelled per task of the pool."""


def expected_result(centipawns: float | np.ndarray) -> np.ndarray:
    """The expected result of a score (or an array of them) for the side it is for, by the
    logistic curve of ``SCALE``.

    >>> float(expected_result(0)), round(float(expected_result(400)), 3)
    (0.5, 0.909)
    """
    return 1.0 / (1.0 + np.exp(-SCALE * np.asarray(centipawns, dtype=np.float64)))


def score_for(expected: float | np.ndarray) -> np.ndarray:
    """The score whose expected result is ``expected`` (strictly between 0 and 1): the
    inverse of ``expected_result``.

    >>> round(float(score_for(10 / 11)))
    400
    """
    expected = np.asarray(expected, dtype=np.float64)
    return np.log(expected / (1.0 - expected)) / SCALE


@dataclass(frozen=True)
class Position:
    """A quiet position met in a game, and the game's result for White (1, 0.5, 0; None for
    an unfinished game)."""

    fen: str
    result: float | None


@dataclass(frozen=True)
class Labeller:
    """What a position is labelled with: ``kind`` ``result``, ``search`` or ``uci`` (with the
    player ``spec``), searched to ``depth``."""

    kind: str
    depth: int = 8
    spec: str | None = None

    @classmethod
    def parse(cls, text: str, depth: int = 8) -> Labeller:
        """A labeller from its text (see the module's documentation)."""
        if text in ("result", "search"):
            return cls(text, depth)
        if text.startswith("uci:"):
            from minichess.match.specs import parse_player  # the spec's checks, and its errors

            parse_player(text)
            return cls("uci", depth, text)
        raise MinichessError(f"bad label {text!r}: expected one of {', '.join(LABELS)}")


def quiet_positions(games: Iterable[Game]) -> list[Position]:
    """The distinct positions of ``games`` (their moves replayed from their starts, the end
    excluded) where the side to move is not in check and has no capture."""
    found: dict[str, Position] = {}
    for game in games:
        outcome = game.outcome()
        result = None if outcome is None else (
            0.5 if outcome.winner is None else float(outcome.winner == WHITE))
        board = Board(game.variant, game.start_fen)
        for move in [*game.moves, None]:
            if board.is_game_over():
                break
            if not board.is_check() and not any(board.is_capture(m) for m in board.legal_moves):
                key = " ".join(board.fen().split()[:2])
                found.setdefault(key, Position(board.fen(), result))
            if move is None:
                break
            board.push(move)
    return list(found.values())


def expected_results(positions: list[Position], variant: str, labeller: Labeller,
                     concurrency: int | None = None, ray: str | None = None,
                     on_done: Callable[[int], None] | None = None) -> np.ndarray:
    """White's expected result in each position by ``labeller`` (NaN where it has none: an
    unfinished game's position labelled by the result). Searches run ``concurrency`` at once
    on local processes (default: one per core) or on the Ray cluster at ``ray``; ``on_done``
    is told the number of positions labelled after each chunk of them."""
    if labeller.kind == "result":
        return np.array([np.nan if p.result is None else p.result for p in positions])
    chunks = [(number, [p.fen for p in positions[start:start + CHUNK]])
              for number, start in enumerate(range(0, len(positions), CHUNK))]
    scores: list[list[float]] = [[] for _ in chunks]
    done = 0
    with open_pool(concurrency, _start_labeller, (variant, labeller), ray=ray,
                   limit=len(chunks)) as pool:
        for number, values in pool.results(_label_chunk, chunks):
            scores[number] = values
            done += len(values)
            if on_done is not None:
                on_done(done)
    return np.array([value for chunk in scores for value in chunk])


# --- in the pool's workers --------------------------------------------------------------------


@dataclass
class _Worker:
    variant: str = ""
    depth: int = 0
    engine: Engine | None = None
    external: object | None = None


_worker = _Worker()


def _start_labeller(stop: object, variant: str, labeller: Labeller):
    """Set up this worker's searcher: our engine, or the external one (released at the end)."""
    _worker.variant, _worker.depth = variant, labeller.depth
    if labeller.kind == "search":
        _worker.engine = Engine(level=10, seed=1)
        return None
    from minichess.match.specs import parse_player

    assert labeller.spec is not None
    _worker.external = player = parse_player(labeller.spec).create()
    return player.close


def _label_chunk(chunk: tuple[int, list[str]]) -> tuple[int, list[float]]:
    """White's expected results in a chunk of positions."""
    number, fens = chunk
    return number, [_whites_expected_result(Board(_worker.variant, fen)) for fen in fens]


def _whites_expected_result(board: Board) -> float:
    """The searcher's judgement of ``board`` as White's expected result."""
    if _worker.engine is not None:
        _worker.engine.new_game()
        info = _worker.engine.analyse(board, Limit(depth=_worker.depth))
        centipawns, mate = info.score, info.mate
    else:
        evaluation = _worker.external.evaluate(board, _worker.depth)  # type: ignore
        centipawns, mate = evaluation.centipawns, evaluation.mate
    if mate is not None or centipawns is None:
        mover = float(mate is not None and mate > 0)
    else:
        mover = float(expected_result(centipawns))
    return mover if board.turn == WHITE else 1.0 - mover

