"""Label agreement: how far the scores a network could be fitted to are from a deeper search's
(a measurement to read, not a test).

    python benchmarks/label_agreement.py                          # losalamos, Fairy-Stockfish
    python benchmarks/label_agreement.py --variant gardner --depths 8 --reference 10 --json
    python benchmarks/label_agreement.py --positions-file losalamos.npz --sample 1000

The positions are quiet positions of our self-play, as ``minichess.engine.training`` makes
them (``--games`` games at ``--nodes`` nodes a move, ``--seed``; or those of
``--positions-file``), each with the score of the search that played it. ``--sample`` of them
(drawn by ``numpy.random.default_rng(--sample-seed)``) are scored again by the labeller
(``--labeller``, a ``uci:`` player as ``minichess match`` takes it, by default
Fairy-Stockfish) to each of ``--depths`` and to the reference depth. Each score becomes an
expected result as the fit's targets make it (``labelling.expected_result``), and the table
gives, for our search's scores, the labeller's at each depth and the mean of ours and each
(what ``--label-share 0.5`` fits to), the mean |difference| from the reference's expected
result (x100), with the seconds each scoring took on ``--concurrency`` processes. The labeller
keeps a hash table from one position to the next, so its scores of the same position vary a
little with the order.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from minichess.engine.labelling import Labeller, expected_result
from minichess.engine.training import Positions, relabelled, self_play_positions, shared_scores
from minichess.engine.weights import variant_weights
from minichess.errors import MinichessError
from minichess.variants import VariantDefinition, get_variant
from versus import fairy_stockfish_spec


def sample(positions: Positions, count: int, seed: int) -> Positions:
    """``count`` of the positions (all when fewer), drawn without replacement."""
    chosen = np.random.default_rng(seed).choice(len(positions), min(count, len(positions)),
                                                replace=False)
    return Positions(positions.boards[chosen], positions.movers[chosen],
                     positions.scores[chosen], positions.sums[chosen],
                     positions.results[chosen])


def scored(positions: Positions, variant: VariantDefinition, spec: str, depth: int,
           concurrency: int) -> tuple[np.ndarray, float]:
    """The labeller's scores of the positions at ``depth``, and the seconds they took."""
    started = time.perf_counter()
    again = relabelled(positions, variant, Labeller.parse(spec, depth), concurrency)
    return again.scores, time.perf_counter() - started


def measure(positions: Positions, variant: VariantDefinition, spec: str, depths: list[int],
            reference: int, concurrency: int) -> list[dict]:
    """One row per score compared with the reference depth's: its name, the mean |difference|
    of expected results (x100) and the seconds its scoring took (None for our search's)."""
    truth, _ = scored(positions, variant, spec, reference, concurrency)
    reference_expected = expected_result(truth)

    def off(scores: np.ndarray) -> float:
        """The mean |difference| of the expected results, as the fit's targets make them."""
        return round(100 * float(np.mean(abs(expected_result(scores) - reference_expected))), 2)

    ours = positions.scores
    rows = [{"score": "our search", "difference": off(ours), "seconds": None}]
    for depth in depths:
        theirs, seconds = scored(positions, variant, spec, depth, concurrency)
        rows.append({"score": f"labeller depth {depth}", "seconds": round(seconds, 1),
                     "difference": off(theirs)})
        mean = shared_scores(theirs, ours, 0.5)
        rows.append({"score": f"mean of ours and depth {depth}", "seconds": None,
                     "difference": off(mean)})
    return rows


def print_table(rows: list[dict], variant: str, count: int, reference: int) -> None:
    """The rows as a table."""
    table = Table(title=f"{variant}: {count} quiet positions, mean |expected result - the "
                        f"labeller's at depth {reference}| x100")
    for column in ("score", "difference", "seconds"):
        table.add_column(column, justify="left" if column == "score" else "right")
    for row in rows:
        table.add_row(row["score"], f"{row['difference']:.2f}",
                      "" if row["seconds"] is None else f"{row['seconds']:.1f}")
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--variant", default="losalamos", help="(default losalamos)")
    parser.add_argument("--games", type=int, default=300, help="self-play games (default 300)")
    parser.add_argument("--nodes", type=int, default=8000,
                        help="nodes a move of the self-play (default 8000)")
    parser.add_argument("--seed", type=int, default=53, help="self-play seed (default 53)")
    parser.add_argument("--positions-file", nargs="+", metavar="NPZ",
                        help="saved training positions instead of a self-play")
    parser.add_argument("--sample", type=int, default=3000, help="positions (default 3000)")
    parser.add_argument("--sample-seed", type=int, default=1, help="(default 1)")
    parser.add_argument("--depths", default="8,10",
                        help="comma-separated depths compared (default 8,10)")
    parser.add_argument("--reference", type=int, default=12, help="reference depth (default 12)")
    parser.add_argument("--labeller", metavar="SPEC",
                        help="a uci: player spec (default: ../shared/bin/fairy-stockfish)")
    parser.add_argument("--concurrency", type=int, default=None, metavar="N",
                        help="processes (default: one per core)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    spec = args.labeller or fairy_stockfish_spec()
    if spec is None:
        parser.error("no --labeller given and no Fairy-Stockfish in ../shared/bin")
    try:
        depths = [int(depth) for depth in args.depths.split(",") if depth.strip().isdigit()]
        if len(depths) != len(args.depths.split(",")):
            raise ValueError(f"--depths: comma-separated whole numbers, not {args.depths!r}")
        variant = get_variant(args.variant)
        Labeller.parse(spec)
        if min([*depths, args.reference, args.sample]) < 1:
            raise ValueError("--depths, --reference and --sample must be at least 1")
        positions = (Positions.load(*args.positions_file) if args.positions_file else
                     self_play_positions(variant, variant_weights(variant), args.games,
                                         args.nodes, args.seed, args.concurrency))
    except (ValueError, MinichessError) as error:
        parser.error(str(error))
    positions = sample(positions, args.sample, args.sample_seed)
    rows = measure(positions, variant, spec, depths, args.reference, args.concurrency)
    if args.json:
        print(json.dumps({"variant": variant.name, "positions": len(positions),
                          "reference": args.reference, "labeller": spec, "rows": rows}))
    else:
        print_table(rows, variant.name, len(positions), args.reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
