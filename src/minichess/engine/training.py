"""Train a variant's network (``network.py``) on positions of the engine's own games.

The engine plays itself with a fixed number of nodes a move, from openings made varied by a
few random moves (and, rarely, a random move in the first moves of a game). The quiet
positions it meets (not in check, the move played no capture, not near a move limit, no
forced end found) are kept with the search's score, the weighted sum of the evaluation and
the game's result, each for the side to move. The network is then fitted so that the
weighted sum plus its score predicts ``mix * sigmoid(search score) + (1 - mix) * result``
(the search sees further than the evaluation; the result says who won): it learns what the
weighted sum misses. With ``--label uci:SPEC`` the positions are scored again by another
engine's search to ``--label-depth`` plies before the fit (the same labellers as
``tuning.py``'s), so that the network learns that engine's judgement of them; with
``--label-share F`` the new score makes only that share of the score target, the search's
own the rest (their errors differ, so their mean can be nearer a deeper search than either);
``--save-scored NPZ`` keeps the scored positions, so that another fit needs no new scoring;
``--start NPZ`` fits on from a network's parameters instead of random ones.

    python -m minichess.engine.training --variant losalamos --games 20000 --nodes 8000 \\
        --hidden 64 --epochs 20 --positions-file losalamos.npz

writes ``src/minichess/engine/weights/<variant>.npz``, which the engine then uses (with
``--verify GAMES``, only if it wins that match against the engine without it). The fitting
needs PyTorch, an optional extra: ``pip install -e '.[train]'``. Games run ``--concurrency``
at once (default: one per core) on local processes, or on a Ray cluster with ``--ray``.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from minichess.board import Board
from minichess.core import layout as L
from minichess.engine.engine import Engine, Limit
from minichess.engine.evaluation import WEIGHT_COUNT, weighted_sum
from minichess.engine.labelling import (
    SCALE,
    Labeller,
    Position,
    expected_result,
    expected_results,
    score_for,
)
from minichess.engine.network import (
    ACTIVATION,
    INPUTS,
    MAX_BUCKETS,
    N_BUCKETS,
    N_HIDDEN,
    OUTPUT,
    UNIT_TYPE,
    UNITS,
    block_parts,
    input_feature,
    network_block,
    network_ensemble,
)
from minichess.engine.progress import progress_reports
from minichess.engine.weights import NO_NETWORK, WEIGHTS_DIR, variant_weights
from minichess.errors import MinichessError
from minichess.match.pool import open_pool
from minichess.notation.fen import format_fen
from minichess.pieces import BLACK, WHITE
from minichess.position import Setup, mailbox_placement
from minichess.variants import VariantDefinition, get_variant

MIX = 0.75
"""The share of the search's score in what the network learns (the rest: the game's result)."""
RANDOM_MOVE_PLIES = 30
"""Plies at the start of a game in which a random move may be played instead of the engine's."""
RANDOM_MOVE_CHANCE = 0.04
MAX_PLIES = 300
NEAR_MOVE_LIMIT = 3 / 8
"""As in tuning: positions in this last part of a move limit are not kept (they are drawn
whatever the material)."""
MAX_PIECES = 32
"""Pieces a training position may have (the inputs of one viewer)."""
SURE = 1e-4
"""How close to 1 or 0 a relabelled position's expected result may come: a forced win or loss
becomes a score of about 1,600 centipawns."""


@dataclass
class Positions:
    """Training positions: the board (``MAILBOX`` codes of its 64 squares), the side to move,
    and for the side to move the search's score, the weighted sum and the game's result."""

    boards: np.ndarray
    movers: np.ndarray
    scores: np.ndarray
    sums: np.ndarray
    results: np.ndarray

    def __len__(self) -> int:
        return len(self.scores)

    def save(self, path: str | Path) -> None:
        """Write the positions to an ``.npz`` file."""
        np.savez_compressed(path, **{f.name: getattr(self, f.name) for f in fields(self)})

    @classmethod
    def load(cls, *paths: str | Path) -> Positions:
        """The positions of one or more files written by ``save``, together."""
        parts = []
        for path in paths:
            try:
                with np.load(path) as data:
                    parts.append({f.name: data[f.name] for f in fields(cls)})
            except (OSError, ValueError, KeyError) as error:
                raise MinichessError(f"{path}: not a file of training positions ({error})") \
                    from None
        return cls(**{f.name: np.concatenate([part[f.name] for part in parts])
                      for f in fields(cls)})


# --- the positions: self-play ---------------------------------------------------------------


@dataclass(frozen=True)
class _Game:
    variant: str
    weights: np.ndarray
    nodes: int
    seed: int
    number: int


def self_play_positions(variant: VariantDefinition, weights: np.ndarray, games: int, nodes: int,
                        seed: int, concurrency: int | None = None, ray: str | None = None,
                        on_game: Callable[[int], None] | None = None) -> Positions:
    """The positions of ``games`` games of the engine (evaluating with ``weights``) against
    itself at ``nodes`` nodes a move; the games run ``concurrency`` at once on local processes
    (default: one per core) or on the Ray cluster at ``ray``, with the same positions either
    way. ``on_game`` is told the number of games finished after each."""
    tasks = [_Game(variant.name, weights, nodes, seed, number) for number in range(games)]
    played = []
    with open_pool(concurrency, ray=ray, limit=games) as pool:
        for game in pool.results(_play_game, tasks):
            played.append(game)
            if on_game is not None:
                on_game(len(played))
    played.sort(key=lambda game: game[0])
    rows = [row for _, game_rows in played for row in game_rows]
    if not rows:
        return Positions(np.zeros((0, 64), np.int8), np.zeros(0, np.int8),
                         np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.float32))
    boards, movers, scores, sums, results = zip(*rows, strict=True)
    return Positions(np.array(boards, np.int8), np.array(movers, np.int8),
                     np.array(scores, np.int32), np.array(sums, np.int32),
                     np.array(results, np.float32))


def _play_game(game: _Game) -> tuple[int, list[tuple]]:
    """Play one self-play game (in a worker): its number and its positions' rows."""
    variant = get_variant(game.variant)
    rng = random.Random(f"{game.seed}/{game.number}")
    engine = Engine(level=10, seed=game.seed * 1_000_003 + game.number)
    engine.use_weights(variant, game.weights)
    board = Board(variant)
    for _ in range(rng.randrange(2, 9)):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    kept = []
    units = np.zeros(UNITS, dtype=UNIT_TYPE)
    limit = variant.move_limit
    while not board.is_game_over() and len(board.move_stack) < MAX_PLIES:
        result = engine.play(board, Limit(nodes=game.nodes))
        near_limit = limit > 0 and board.ply() > limit - int(limit * NEAR_MOVE_LIMIT)
        if (result.mate is None and result.score is not None and not board.is_check()
                and not board.is_capture(result.move) and not near_limit):
            state = board.core_state()
            weighted = weighted_sum(state.position, state.tables, game.weights, units)
            kept.append((state.position[L.MAILBOX:L.MAILBOX + 64].copy(),
                         state.position[L.STM], result.score, weighted))
        if len(board.move_stack) < RANDOM_MOVE_PLIES and rng.random() < RANDOM_MOVE_CHANCE:
            board.push(rng.choice(board.legal_moves))
        else:
            board.push(result.move)
    outcome = board.outcome()
    if outcome is None:
        return game.number, []  # too long to tell
    white = 0.5 if outcome.winner is None else float(outcome.winner == WHITE)
    return game.number, [(squares, mover, score, weighted, white if mover == 0 else 1.0 - white)
                         for squares, mover, score, weighted in kept]


# --- the positions: scored again by another searcher -----------------------------------------


def position_fen(variant: VariantDefinition, squares: np.ndarray, mover: int) -> str:
    """The FEN of a training position (``MAILBOX`` codes of its 64 squares, side to move)."""
    return format_fen(variant, Setup(mailbox_placement(squares), WHITE if mover == 0 else BLACK))


def relabelled(positions: Positions, variant: VariantDefinition, labeller: Labeller,
               concurrency: int | None = None, ray: str | None = None,
               on_done: Callable[[int], None] | None = None, share: float = 1.0) -> Positions:
    """The same positions with the search's scores replaced by ``labeller``'s, for the side
    to move (with ``share`` below 1, by that share of ``labeller``'s and the rest of the
    search's); its searches run ``concurrency`` at once (default: one per core) or on the Ray
    cluster at ``ray``, and ``on_done`` is told how many positions are scored so far."""
    found = [Position(position_fen(variant, squares, mover), None)
             for squares, mover in zip(positions.boards, positions.movers, strict=True)]
    white = expected_results(found, variant.name, labeller, concurrency, ray, on_done)
    mover = np.where(positions.movers == 0, white, 1.0 - white).clip(SURE, 1.0 - SURE)
    return replace(positions, scores=shared_scores(score_for(mover), positions.scores, share))


def shared_scores(labelled: np.ndarray, own: np.ndarray, share: float) -> np.ndarray:
    """The score target of ``--label-share``: ``share`` of the labeller's scores and the rest
    of the self-play search's, rounded to whole centipawns.

    >>> shared_scores(np.array([100.0, -40.0]), np.array([0, 0]), 0.5).tolist()
    [50, -20]
    """
    return np.round(share * labelled + (1.0 - share) * own).astype(np.int32)


# --- the fit -------------------------------------------------------------------------------


def input_features(positions: Positions, ranks: int) -> tuple[np.ndarray, np.ndarray]:
    """The active input features of each position seen by the side to move and by the other
    side (``MAX_PIECES`` a row, padded with ``INPUTS``)."""
    codes = positions.boards.astype(np.int64)
    squares = np.arange(64)[None, :]
    colours, types = codes >> 3, codes & 7
    movers = positions.movers.astype(np.int64)[:, None]
    empty = codes == 0
    own = np.where(empty, INPUTS, input_feature(movers, colours, types, squares, ranks))
    other = np.where(empty, INPUTS, input_feature(1 - movers, colours, types, squares, ranks))
    if (~empty).sum(axis=1).max(initial=0) > MAX_PIECES:
        raise MinichessError(f"a training position has more than {MAX_PIECES} pieces")
    return (np.sort(own, axis=1)[:, :MAX_PIECES].astype(np.int32),
            np.sort(other, axis=1)[:, :MAX_PIECES].astype(np.int32))


def targets(positions: Positions, mix: float = MIX) -> np.ndarray:
    """What the evaluation should predict: the search's expected result mixed with the game's."""
    searched = expected_result(positions.scores)
    return (mix * searched + (1 - mix) * positions.results).astype(np.float32)


OUTPUT_SCALE = 300.0
"""Centipawns per unit of the trained output layer: the optimiser's steps are then of the
size of the scores it fits."""
RATE = 2e-3
"""The optimiser's first step size (it falls to 0 along a cosine over the epochs)."""


@dataclass
class FitReport:
    """How a fit went: positions used, the loss of the weighted sum alone and of the weighted
    sum plus the network on the held-out positions, and the seconds it took."""

    positions: int
    held_out_loss_without: float
    held_out_loss_with: float
    seconds: float


def fit_network(positions: Positions, ranks: int, hidden: int = 64, epochs: int = 20,
                mix: float = MIX, seed: int = 1, batch: int = 8192, buckets: int = 1,
                start: np.ndarray | None = None, rate: float = RATE,
                log=print) -> tuple[np.ndarray, FitReport]:  # type: ignore[no-untyped-def]
    """Fit a network of ``hidden`` units per viewer and ``buckets`` outputs (each for about
    as many of the positions, by their number of pieces) to ``positions`` of a board of
    ``ranks`` ranks (one in twenty held out to measure it: ``held_out_split``) in ``epochs``
    passes of steps of ``batch`` positions, the first of size ``rate``; returns its block and
    a report. Given the block of a network to ``start`` from, the fit goes on from its
    parameters, with its units and its outputs' piece counts (``hidden`` and ``buckets`` are
    not used)."""
    try:
        import torch
    except ImportError:
        raise MinichessError("training a network needs PyTorch: pip install -e '.[train]'") \
            from None
    started = time.perf_counter()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    usable = np.abs(positions.scores) < 3000
    kept = Positions(*(getattr(positions, f.name)[usable] for f in fields(Positions)))
    if len(kept) < 100:
        raise MinichessError(f"too few positions to fit a network ({len(kept)})")
    own, other = (torch.from_numpy(a) for a in input_features(kept, ranks))
    if start is None:
        edges, kept_buckets = bucket_edges(kept, buckets)
    else:
        edges, hidden = block_parts(start)[0], int(start[N_HIDDEN])
        kept_buckets = bucket_of(kept, edges)
    bucket = torch.from_numpy(kept_buckets)
    sums = torch.from_numpy(kept.sums.astype(np.float32))
    wanted = torch.from_numpy(targets(kept, mix))
    held_rows, train = held_out_split(len(kept), rng)
    held_out = torch.from_numpy(held_rows)
    model = _model(torch, hidden, len(edges) + 1)
    if start is not None:
        _set_parameters(torch, model, start)
    optimiser = torch.optim.Adam(model.parameters(), lr=rate)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)

    def loss(rows, with_network=True):  # type: ignore[no-untyped-def]
        score = (model(own[rows], other[rows], sums[rows], bucket[rows]) if with_network
                 else sums[rows])
        return torch.mean((torch.sigmoid(SCALE * score) - wanted[rows]) ** 2)

    with torch.no_grad():
        without = float(loss(held_out, with_network=False))
        held = float(loss(held_out))
    for epoch in range(epochs):
        for first in range(0, len(train), batch):
            rows = torch.from_numpy(train[first:first + batch])
            optimiser.zero_grad()
            value = loss(rows)
            value.backward()
            optimiser.step()
        schedule.step()
        rng.shuffle(train)
        with torch.no_grad():
            held = float(loss(held_out))
        log(f"epoch {epoch + 1}/{epochs}: held-out loss {held:.5f} (weighted sum alone "
            f"{without:.5f})")
    block = network_block(
        model.inputs.weight.detach().numpy()[:INPUTS].astype(np.float64),
        model.biases.detach().numpy().astype(np.float64),
        OUTPUT_SCALE * model.output.weight.detach().numpy().astype(np.float64),
        OUTPUT_SCALE * model.output.bias.detach().numpy().astype(np.float64),
        edges,
    )
    return block, FitReport(len(kept), round(without, 6), round(held, 6),
                            round(time.perf_counter() - started, 1))


def held_out_split(count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``count`` positions held out to measure a fit (one in twenty) and those it
    learns from, shuffled. The held-out rows are one run of consecutive positions: positions
    are kept game by game, so they are whole games (but at the run's two ends). Positions of
    one game are alike, and holding out single positions of the games the fit learns from
    would flatter it, the more the fewer its games.

    >>> held, train = held_out_split(100, np.random.default_rng(1))
    >>> len(held), len(train), sorted([*held, *train]) == list(range(100))
    (5, 95, True)
    >>> bool(np.all(np.diff(held) == 1))
    True
    """
    size = count // 20
    first = int(rng.integers(0, count - size + 1))
    train = np.concatenate([np.arange(first), np.arange(first + size, count)])
    rng.shuffle(train)
    return np.arange(first, first + size), train


def bucket_edges(positions: Positions, buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """The piece counts where each of ``buckets`` outputs starts, so that each has about as
    many of ``positions`` (fewer outputs where the counts do not part them), and the output
    of each position.

    >>> boards = np.zeros((8, 64), np.int8)
    >>> for row, pieces in enumerate([2, 2, 3, 4, 5, 6, 6, 7]):
    ...     boards[row, :pieces] = 1
    >>> positions = Positions(boards, *np.zeros((4, 8)))
    >>> edges, outputs = bucket_edges(positions, 2)
    >>> edges.tolist(), outputs.tolist()
    ([5], [0, 0, 0, 0, 1, 1, 1, 1])
    """
    pieces = (positions.boards != 0).sum(axis=1)
    wanted = np.quantile(pieces, np.arange(1, buckets) / buckets) if len(pieces) else []
    edges = np.unique(np.ceil(wanted).astype(np.int64))
    edges = edges[edges > pieces.min()] if len(pieces) else edges
    return edges, bucket_of(positions, edges)


def bucket_of(positions: Positions, edges: np.ndarray) -> np.ndarray:
    """The output of each of ``positions`` by its number of pieces, where ``edges`` are the
    piece counts at which the outputs after the first start (as ``network.py``'s search
    picks it)."""
    pieces = (positions.boards != 0).sum(axis=1)
    return np.searchsorted(edges, pieces, side="right").astype(np.int64)


def _model(torch, hidden: int, buckets: int = 1):  # type: ignore[no-untyped-def]
    """The network in PyTorch, in floats: the same as ``network.py`` computes in integers."""
    nn = torch.nn

    class Model(nn.Module):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.inputs = nn.EmbeddingBag(INPUTS + 1, hidden, mode="sum", padding_idx=INPUTS)
            nn.init.normal_(self.inputs.weight, 0.0, 0.05)
            with torch.no_grad():
                self.inputs.weight[INPUTS] = 0
            self.biases = nn.Parameter(torch.full((hidden,), 0.5))
            self.output = nn.Linear(2 * hidden, buckets)
            nn.init.normal_(self.output.weight, 0.0, 0.01)
            nn.init.zeros_(self.output.bias)

        def forward(self, own, other, sums, bucket):  # type: ignore[no-untyped-def]
            mover = torch.clamp(self.inputs(own) + self.biases, 0, 1)
            waiter = torch.clamp(self.inputs(other) + self.biases, 0, 1)
            outputs = self.output(torch.cat([mover, waiter], 1))
            return sums + OUTPUT_SCALE * outputs.gather(1, bucket[:, None]).squeeze(1)

    return Model()


def _set_parameters(torch, model, block: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    """Give ``model`` the parameters of the network ``block`` (the inverse of
    ``network_block``, to the integers' precision)."""
    _, outputs, biases, inputs = (part.astype(np.float32) for part in block_parts(block))
    with torch.no_grad():
        model.inputs.weight[:INPUTS] = torch.from_numpy(inputs / ACTIVATION)
        model.biases[:] = torch.from_numpy(biases / ACTIVATION)
        model.output.weight[:] = torch.from_numpy(outputs[:, 1:] / (OUTPUT * OUTPUT_SCALE))
        model.output.bias[:] = torch.from_numpy(
            outputs[:, 0] / (ACTIVATION * OUTPUT * OUTPUT_SCALE))


# --- the whole job ---------------------------------------------------------------------------


def save_network(variant: VariantDefinition, block: np.ndarray, about: dict,
                 path: str | Path | None = None) -> Path:
    """Write a network where the engine finds it (or to ``path``)."""
    target = Path(path) if path is not None else WEIGHTS_DIR / f"{variant.name}.npz"
    np.savez_compressed(target, block=block, about=np.array(json.dumps(about)))
    return target


def train(variant_name: str, games: int, nodes: int, hidden: int, epochs: int, seed: int,
          mix: float = MIX, positions_files: tuple[str, ...] = (),
          save_positions: str | None = None, verify: int = 0, time_control: str = "2+0.05",
          concurrency: int | None = None, ray: str | None = None,
          output: str | None = None, labeller: Labeller | None = None,
          label_share: float = 1.0, save_scored: str | None = None, buckets: int = 1,
          start: str | None = None, rate: float = RATE) -> dict:
    """Self-play (``games`` games at ``nodes`` nodes a move, with the variant's evaluation as
    it is) and/or positions from files, scored again by ``labeller`` if one is given (its
    score ``label_share`` of the target's, the search's the rest; saved to ``save_scored``
    before the fit), then the fit (``buckets`` outputs, or on from the network in the file
    ``start``; first step ``rate``); the network is saved if it wins a ``verify``-game match
    against the engine without it (0: saved anyway)."""
    variant = get_variant(variant_name)
    # the network to start from is read before the hours of self-play, not after them
    start_block = (variant_weights(variant, network=start)[WEIGHT_COUNT:]
                   if start is not None else None)
    parts = [Positions.load(*positions_files)] if positions_files else []
    report: dict = {"variant": variant.name, "seed": seed}
    if games:
        started = time.perf_counter()
        with progress_reports(games, "self-play games") as on_game:
            played = self_play_positions(variant, variant_weights(variant), games, nodes, seed,
                                         concurrency, ray, on_game)
        report["self_play"] = {"games": games, "nodes": nodes, "positions": len(played),
                               "seconds": round(time.perf_counter() - started, 1)}
        print(json.dumps(report["self_play"]), flush=True)
        if save_positions:
            played.save(save_positions)
        parts.append(played)
    if not parts:
        raise MinichessError("no positions: give --games or --positions-file")
    positions = Positions(*(np.concatenate([getattr(p, f.name) for p in parts])
                            for f in fields(Positions)))
    if labeller is not None:
        started = time.perf_counter()
        with progress_reports(len(positions), "positions scored") as on_done:
            positions = relabelled(positions, variant, labeller, concurrency, ray, on_done,
                                   label_share)
        report["label"] = {"label": labeller.spec or labeller.kind, "depth": labeller.depth,
                           "share": label_share,
                           "seconds": round(time.perf_counter() - started, 1)}
        print(json.dumps(report["label"]), flush=True)
        if save_scored:
            positions.save(save_scored)
    block, fitted = fit_network(positions, variant.ranks, hidden, epochs, mix, seed,
                                buckets=buckets, start=start_block, rate=rate)
    report["fit"] = {"hidden": int(block[N_HIDDEN]), "buckets": int(block[N_BUCKETS]),
                     "epochs": epochs, "mix": mix, "rate": rate,
                     **({"start": str(start)} if start is not None else {}), **vars(fitted)}
    print(json.dumps(report["fit"]), flush=True)
    if verify:
        report["verification"] = match = _verification(variant, block, verify, seed,
                                                      time_control, concurrency, ray)
        print(json.dumps(match), flush=True)
        if match["score"] <= 0.5:
            return report
    report["saved"] = str(save_network(variant, block, report, output))
    return report


def ensemble(variant_name: str, networks: tuple[str, ...], output: str | None = None) -> dict:
    """Write one network that scores as the mean of the networks in the files ``networks``
    (``network_ensemble``) where the engine finds it (or to ``output``); no self-play and no
    fit. Its ``about`` keeps each member's file and ``about``."""
    variant = get_variant(variant_name)
    blocks = [variant_weights(variant, network=path)[WEIGHT_COUNT:] for path in networks]
    try:
        block = network_ensemble(blocks)
    except ValueError as error:
        raise MinichessError(str(error)) from None
    members = []
    for path in networks:
        with np.load(path) as data:
            about = json.loads(str(data["about"])) if "about" in data else {}
        members.append({"file": Path(path).name, "about": about})
    report = {"variant": variant.name, "ensemble": members,
              "fit": {"hidden": int(block[N_HIDDEN]), "buckets": int(block[N_BUCKETS])}}
    report["saved"] = str(save_network(variant, block, report, output))
    return report


def _verification(variant: VariantDefinition, block: np.ndarray, games: int, seed: int,
                  time_control: str, concurrency: int | None, ray: str | None) -> dict:
    """The match of the engine with the network against the engine without it."""
    from minichess.match import play_match

    with tempfile.TemporaryDirectory() as folder:
        path = save_network(variant, block, {}, Path(folder) / f"{variant.name}.npz")
        result = play_match([f"level:10,network={path}", f"level:10,network={NO_NETWORK}"],
                            variant, games, time_control, concurrency, seed, ray=ray)
    return result.to_dict()


def main() -> None:
    """Command line: train one variant's network."""
    parser = argparse.ArgumentParser(
        description="Train a variant's evaluation network on positions of self-play games.")
    parser.add_argument("--variant", required=True)
    parser.add_argument("--games", type=int, default=0, help="self-play games (default 0)")
    parser.add_argument("--nodes", type=int, default=8000, help="nodes a move (default 8000)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument("--buckets", type=int, default=1,
                        help="outputs, each for a range of numbers of pieces (default 1)")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--rate", type=float, default=RATE,
                        help="the optimiser's first step size (default %(default)s)")
    parser.add_argument("--start", metavar="NPZ",
                        help="fit on from this network (its units and outputs; --hidden and "
                        "--buckets are not used)")
    parser.add_argument("--mix", type=float, default=MIX,
                        help="share of the search's score in the target (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions-file", nargs="+", default=(), metavar="NPZ",
                        help="train on these saved positions too")
    parser.add_argument("--save-positions", metavar="NPZ",
                        help="save the self-play positions to this file")
    parser.add_argument("--output", metavar="NPZ",
                        help="write the network here instead of the package's weights folder")
    parser.add_argument("--label", metavar="LABEL",
                        help="score the positions again by this searcher before the fit: "
                        "search (our engine) or uci:SPEC (an engine as matches name it)")
    parser.add_argument("--label-depth", type=int, default=8, metavar="PLIES",
                        help="depth of the --label searches (default %(default)s)")
    parser.add_argument("--label-share", type=float, default=1.0, metavar="F",
                        help="share of the --label score in the score target, the self-play "
                        "search's the rest (default %(default)s)")
    parser.add_argument("--save-scored", metavar="NPZ",
                        help="save the positions with the --label scores to this file (a "
                        "later fit takes them by --positions-file, without --label)")
    parser.add_argument("--verify", type=int, default=0, metavar="GAMES",
                        help="keep the network only if it wins a match of GAMES games")
    parser.add_argument("--time", default="2+0.05", metavar="TC",
                        help="time control of the verification (default %(default)s)")
    parser.add_argument("--concurrency", type=int, default=None, metavar="N")
    parser.add_argument("--ray", metavar="ADDRESS")
    parser.add_argument("--ensemble", nargs="+", default=(), metavar="NPZ",
                        help="no self-play or fit: write one network that scores as the mean "
                        "of these networks (their units side by side)")
    args = parser.parse_args()
    if args.ensemble:
        try:
            print(json.dumps(ensemble(args.variant, tuple(args.ensemble), args.output)["fit"]))
        except MinichessError as error:
            parser.exit(1, f"{parser.prog}: error: {error}\n")
        return
    try:
        labeller = Labeller.parse(args.label, args.label_depth) if args.label else None
    except MinichessError as error:
        parser.error(str(error))
    if labeller is not None and labeller.kind == "result":
        parser.error("--label: search or uci:SPEC (the game's result is in the target already: "
                     "--mix)")
    if not 0.0 <= args.label_share <= 1.0 or (args.label_share != 1.0 and labeller is None):
        parser.error("--label-share: a share from 0 to 1, with --label")
    if args.save_scored and labeller is None:
        parser.error("--save-scored: with --label")
    if not 1 <= args.buckets <= MAX_BUCKETS:
        parser.error(f"--buckets: 1 to {MAX_BUCKETS}")
    if not args.rate > 0:
        parser.error("--rate: a step size above 0")
    try:
        if args.start is not None:  # checked before hours of self-play, not after them
            variant_weights(args.variant, network=args.start)
    except MinichessError as error:
        parser.error(f"--start: {error}")
    try:
        train(args.variant, args.games, args.nodes, args.hidden, args.epochs, args.seed, args.mix,
              tuple(args.positions_file), args.save_positions, args.verify, args.time,
              args.concurrency, args.ray, args.output, labeller, args.label_share, args.save_scored,
              args.buckets, args.start, args.rate)
    except MinichessError as error:
        parser.exit(1, f"{parser.prog}: error: {error}\n")


if __name__ == "__main__":
    main()
