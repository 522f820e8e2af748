"""Tune a variant's evaluation weights on self-play games (Texel's method), or on positions
from any games labelled by a search.

The evaluation is linear in its weights, so tuning is a logistic regression: the engine plays
itself from varied openings, the positions met (quiet ones: the move played from them is no
capture, and the game is not about to end by a move limit) are recorded as feature vectors
with the game's result, and the weights are fitted so
that ``sigmoid(score)`` predicts the result. Rounds repeat with the new weights.

    python -m minichess.engine.tuning --variant minitchess --games 1000 --depth 4 --rounds 2 \
        --verify 200

With ``--positions GAMES.pgn ...`` the positions come from those games instead (the quiet
ones: no check, no capture to make; see ``labelling.py``), labelled by ``--label``: the game's
result, our search's score (``search``) or an external engine's (``uci:COMMAND``, options as
in a match), searched to ``--label-depth`` plies; the weights are fitted once, so that
``sigmoid(score)`` predicts those labels:

    python -m minichess.engine.tuning --variant antichess --positions games.pgn \
        --label "uci:/path/to/engine,option.Hash=64" --label-depth 8 --verify 400

writes ``src/minichess/engine/weights/<variant>.json``, which the engine then uses, but only
if the new weights win a verification match against the weights used before (``--verify``
games at ``--time``, 2+0.05 unless told; a score above one half keeps them).
``--regularisation`` sets how strongly the fit keeps to the starting weights. The self-play
and verification games and the labelling searches run ``--concurrency`` at once (default:
one per core) on local processes, or on a Ray cluster with ``--ray ADDRESS`` (``--ray auto``:
a local Ray instance);
each self-play game is played by a fresh engine from an opening drawn from the seed and the
game's number, so the samples are the same wherever the games run.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from minichess.board import Board
from minichess.engine.engine import Engine, Limit
from minichess.engine.evaluation import WEIGHT_COUNT, evaluate_features
from minichess.engine.labelling import (
    SCALE,
    Labeller,
    expected_result,
    expected_results,
    quiet_positions,
)
from minichess.engine.progress import progress_reports
from minichess.engine.weights import WEIGHTS_DIR, starting_weights, variant_weights
from minichess.match.pool import open_pool
from minichess.notation.pgn import read_pgn_file
from minichess.pieces import WHITE
from minichess.variants import VariantDefinition, get_variant

VERIFY_TIME = "2+0.05"
"""Default time control of the verification match."""
REGULARISATION = 2e-6
"""Default pull of the weights towards the starting ones (per squared centipawn)."""
MAX_PLIES = 300
NEAR_MOVE_LIMIT = 3 / 8
"""Positions in this last part of a move limit are not recorded: the last 30 of minitchess's
80 plies, the last 18 of csc111's 50 (a fixed 30 plies would leave only csc111's first 20)."""


@dataclass
class Samples:
    """Feature vectors (White's minus Black's) and results for White (1, 0.5, 0)."""

    features: np.ndarray
    results: np.ndarray


def features_of(board: Board, weights: np.ndarray) -> np.ndarray:
    """The feature vector of the board's position."""
    features = np.zeros(WEIGHT_COUNT, dtype=np.float64)
    state = board.core_state()
    evaluate_features(state.position, state.tables, weights, features)
    return features


def self_play(variant: VariantDefinition, weights: np.ndarray, games: int, depth: int,
              seed: int, concurrency: int | None = None, ray: str | None = None) -> Samples:
    """Play ``games`` games of the engine against itself and collect samples; the games run
    ``concurrency`` at once on local processes (default: one per core) or on the Ray cluster
    at ``ray``, with the same samples either way (a progress report while they run)."""
    tasks = [_SelfPlayGame(variant.name, weights, depth, seed, number) for number in range(games)]
    played = []
    with (open_pool(concurrency, ray=ray, limit=games) as pool,
          progress_reports(games, "self-play games") as on_game):
        for game in pool.results(_play_self_play_game, tasks):
            played.append(game)
            on_game(len(played))
    played.sort()
    rows = [row for _, game_rows, _ in played for row in game_rows]
    results = [result for _, game_rows, result in played for _ in game_rows]
    return Samples(np.array(rows), np.array(results))


@dataclass(frozen=True)
class _SelfPlayGame:
    variant: str
    weights: np.ndarray
    depth: int
    seed: int
    number: int


def _play_self_play_game(game: _SelfPlayGame) -> tuple[int, list[np.ndarray], float]:
    """Play one self-play game (in a worker): its number, the features of the positions
    recorded and White's result (none recorded when it lasted too long to tell)."""
    variant = get_variant(game.variant)
    rng = random.Random(f"{game.seed}/{game.number}")
    engine = Engine(level=10, seed=game.seed)
    engine.use_weights(variant, game.weights)
    board = Board(variant)
    for _ in range(rng.randrange(2, 7)):  # a varied opening
        if board.legal_moves:
            board.push(rng.choice(board.legal_moves))
    recorded = []
    while not board.is_game_over() and len(board.move_stack) < MAX_PLIES:
        move = engine.play(board, Limit(depth=game.depth)).move
        quiet = board.piece_at(move.to_square) is None or move.drop
        if quiet and not _near_move_limit(board):
            recorded.append(features_of(board, game.weights))
        board.push(move)
    outcome = board.outcome()
    if outcome is None:
        return game.number, [], 0.5  # too long to tell
    return game.number, recorded, 0.5 if outcome.winner is None else float(outcome.winner == WHITE)


def _near_move_limit(board: Board) -> bool:
    """Whether a move limit will end the game soon whatever the material: such positions
    would teach that material is worth little."""
    limit = board.variant.move_limit
    return limit > 0 and board.ply() > limit - int(limit * NEAR_MOVE_LIMIT)


def fit(samples: Samples, start: np.ndarray, prior: np.ndarray, steps: int = 1500,
        regularisation: float = REGULARISATION) -> tuple[np.ndarray, float]:
    """Weights minimising the mean squared error of the predicted results plus
    ``regularisation`` times the squared distance from ``prior``, which keeps them near it
    where the data say little (Adam, one centipawn a step at most); returns them rounded,
    with the final loss."""
    x, y = samples.features, samples.results
    used = np.abs(x).sum(axis=0) > 0
    w = start.astype(np.float64)
    first, second = np.zeros_like(w), np.zeros_like(w)
    beta1, beta2 = 0.9, 0.999
    value = 0.0
    for step in range(1, steps + 1):
        p = expected_result(x @ w)
        error = p - y
        penalty = w - prior
        value = float(np.mean(error**2) + regularisation * np.sum(penalty**2))
        gradient = 2 * SCALE * (x.T @ (error * p * (1 - p))) / len(y)
        gradient += 2 * regularisation * penalty
        first = beta1 * first + (1 - beta1) * gradient
        second = beta2 * second + (1 - beta2) * gradient**2
        corrected = first / (1 - beta1**step)
        w -= corrected / (np.sqrt(second / (1 - beta2**step)) + 1e-12)
    weights = np.where(used, np.round(w), prior).astype(np.int64)
    return weights, value


def labelled_samples(variant: VariantDefinition, weights: np.ndarray, files: Sequence[str | Path],
                     labeller: Labeller, concurrency: int | None = None,
                     ray: str | None = None) -> Samples:
    """The quiet positions of the games in the PGN ``files`` (not near a move limit), as
    feature vectors with ``labeller``'s expected results for White (a progress report while
    a search labels them)."""
    games = [game for path in files for game in read_pgn_file(path, variant)]
    positions = [position for position in quiet_positions(games)
                 if not _near_move_limit(Board(variant, position.fen))]
    with progress_reports(len(positions), "positions labelled") as on_done:
        targets = expected_results(positions, variant.name, labeller, concurrency, ray, on_done)
    known = ~np.isnan(targets)
    rows = [features_of(Board(variant, position.fen), weights)
            for position, keep in zip(positions, known, strict=True) if keep]
    return Samples(np.array(rows).reshape(-1, WEIGHT_COUNT), targets[known])


def tune(variant_name: str, games: int, depth: int, rounds: int, seed: int,
         verify: int = 0, concurrency: int | None = None,
         regularisation: float = REGULARISATION, time_control: str = VERIFY_TIME,
         ray: str | None = None, positions: Sequence[str | Path] = (),
         labeller: Labeller | None = None) -> dict:
    """Tune a variant's weights in ``rounds`` rounds of self-play and fitting, or by one fit
    to the ``positions`` of those PGN files labelled by ``labeller`` (the game results unless
    told); keep them if they win a ``verify``-game match at ``time_control`` against the
    weights used before (0: keep them anyway). All games and searches run ``concurrency`` at
    a time (default: one per core) on local processes, or on the Ray cluster at ``ray``."""
    variant = get_variant(variant_name)
    prior = starting_weights(variant).astype(np.float64)
    before = variant_weights(variant)
    weights = before
    report: dict = {"variant": variant.name, "rounds": []}
    for round_number in range(1 if positions else rounds):
        started = time.perf_counter()
        if positions:
            samples = labelled_samples(variant, weights, positions,
                                       labeller or Labeller("result"), concurrency, ray)
        else:
            samples = self_play(variant, weights, games, depth, seed + round_number,
                                concurrency, ray)
        weights, loss = fit(samples, weights, prior, regularisation=regularisation)
        report["rounds"].append({"positions": len(samples.results), "loss": round(loss, 5),
                                 "seconds": round(time.perf_counter() - started, 1)})
        print(json.dumps(report["rounds"][-1]), flush=True)
    source = ({"positions_from": [Path(path).name for path in positions],
               "label": labeller.spec or labeller.kind if labeller else "result",
               "label_depth": labeller.depth if labeller else None} if positions
              else {"games_per_round": games, "depth": depth})
    about = {**source, "seed": seed, "regularisation": regularisation, **report}
    if verify:
        match = _verification(variant, weights, verify, seed, concurrency, time_control, ray)
        report["verification_score"] = match["score"]
        print(json.dumps(match), flush=True)
        if match["score"] <= 0.5:  # the new weights did not win: keep those there were
            return report
        about = {**about, "verification_score": match["score"], "verification": match}
    save(variant, weights, about)
    return report


def _verification(variant: VariantDefinition, weights: np.ndarray, games: int, seed: int,
                  concurrency: int | None, time_control: str, ray: str | None) -> dict:
    """The match of ``weights`` (from a file of their own) against the weights the engine
    uses now: games, time control, wins, draws, losses and score of the new."""
    from minichess.match import play_match

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{variant.name}.json"
        path.write_text(json.dumps({"weights": [int(w) for w in weights]}))
        result = play_match([f"level:10,weights={path}", "level:10"], variant, games,
                            time_control, concurrency, seed, ray=ray)
    return {"games": games, "time_control": time_control, "wins": result.wins,
            "draws": result.draws, "losses": result.losses, "score": result.score}


def save(variant: VariantDefinition, weights: np.ndarray, about: dict) -> Path:
    """Write tuned weights where the engine finds them."""
    WEIGHTS_DIR.mkdir(exist_ok=True)
    path = WEIGHTS_DIR / f"{variant.name}.json"
    path.write_text(json.dumps({"about": about, "weights": [int(w) for w in weights]}) + "\n")
    return path


def main() -> None:
    """Command line: tune one variant."""
    parser = argparse.ArgumentParser(description="Tune evaluation weights by self-play, or on"
                                     " positions from games labelled by a search.")
    parser.add_argument("--variant", required=True)
    parser.add_argument("--games", type=int, default=400, help="self-play games per round")
    parser.add_argument("--depth", type=int, default=4, help="search depth of the games")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verify", type=int, default=0, metavar="GAMES",
                        help="keep the weights only if they win a match of GAMES games")
    parser.add_argument("--regularisation", type=float, default=REGULARISATION,
                        help="pull towards the starting weights (default %(default)g)")
    parser.add_argument("--time", default=VERIFY_TIME, metavar="TC",
                        help="time control of the verification games (default %(default)s)")
    parser.add_argument("--concurrency", type=int, default=None, metavar="N",
                        help="games played at once (default: one per core)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play the games on the Ray cluster at ADDRESS ('auto': a local Ray"
                        " started for the run)")
    parser.add_argument("--positions", nargs="+", default=(), metavar="PGN",
                        help="fit to the quiet positions of these games instead of self-play")
    parser.add_argument("--label", default="result", metavar="LABEL",
                        help="what --positions are labelled with: result (of the game), search"
                        " (our engine's score) or uci:COMMAND (an external engine's, options as"
                        " in a match); default %(default)s")
    parser.add_argument("--label-depth", type=int, default=8, metavar="D",
                        help="depth of the labelling searches (default %(default)s)")
    args = parser.parse_args()
    tune(args.variant, args.games, args.depth, args.rounds, args.seed, args.verify,
         args.concurrency, args.regularisation, args.time, args.ray, args.positions,
         Labeller.parse(args.label, args.label_depth))


if __name__ == "__main__":
    main()
