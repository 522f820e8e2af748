"""``minichess bench``: the search signature, the total node count of a fixed set of positions
searched to a fixed depth (see :mod:`minichess.engine.bench`), with the time and the speed.

    minichess bench                 # the count the tests pin (DEFAULT_DEPTH)
    minichess bench --depth 8 --verbose --json
"""

from __future__ import annotations

import argparse
import json

from minichess.cli.arguments import counting_progress, positive_int
from minichess.engine.bench import DEFAULT_DEPTH, POSITIONS, BenchResult, Searched, bench


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``bench`` command."""
    parser = commands.add_parser(
        "bench",
        help="the search signature: nodes of fixed positions searched to a fixed depth",
        description=f"Search {len(POSITIONS)} fixed positions of every variant (openings,"
        " middlegames, tactics, endgames) to a fixed depth, each with a fresh engine at level"
        " 10 and no clock, and print the total node count (the search signature: it changes"
        " only when the search or the evaluation does), the time and the nodes per second.",
    )
    parser.add_argument("--depth", "-d", type=positive_int, default=DEFAULT_DEPTH, metavar="D",
                        help=f"search depth (default {DEFAULT_DEPTH})")
    parser.add_argument("--verbose", action="store_true", help="also list every position")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Search, then print the signature."""
    progress = counting_progress("bench", "positions")
    task = progress.add_task("bench", total=len(POSITIONS))

    def advance(_searched: Searched) -> None:
        progress.advance(task)

    with progress:
        result = bench(args.depth, on_search=advance)
    if args.json:
        data = result.to_dict()
        if not args.verbose:
            del data["searches"]
        print(json.dumps(data))
    else:
        print(format_report(result, args.verbose))


def format_report(result: BenchResult, verbose: bool = False) -> str:
    """The totals, after one line per position when ``verbose``."""
    lines = []
    if verbose:
        lines += [
            f"{searched.position.variant:<18} {searched.position.kind:<10}"
            f" {searched.nodes:>10} nodes {searched.seconds:7.3f} s  {searched.best_move:<6}"
            f" {searched.position.fen}"
            for searched in result.searches
        ]
    lines += [
        f"positions: {len(result.searches)}, depth {result.depth}",
        f"nodes:     {result.nodes}",
        f"time:      {result.seconds:.2f} s",
        f"nodes/s:   {result.nps}",
    ]
    return "\n".join(lines)
