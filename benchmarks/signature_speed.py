"""Search speed on the search signature's positions, per variant, against another checkout.

    python benchmarks/signature_speed.py                        # this checkout, depth 14
    python benchmarks/signature_speed.py --against ../old/src   # and another, ratios
    python benchmarks/signature_speed.py --depth 12 --rounds 3 --json

Each round searches the signature's 28 positions (``minichess bench``: fresh engines, fixed
depth) in a process of its own, this checkout's and the other's taking turns, so that both
see the machine alike; a position's time is its best of the rounds. Where the two searches
visit the same nodes (a change meant to be a pure speed-up), the ratio of the times is the
speed-up; the report says when the node counts differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROUND = """
import json
from minichess.engine.bench import bench
bench(3)  # the compiled code loaded before timing
print(json.dumps([[s.position.variant, s.nodes, s.seconds] for s in bench({depth}).searches]))
"""


def one_round(source: str | None, depth: int) -> list[tuple[str, int, float]]:
    """The signature's searches in a fresh process, with the package at ``source`` (a ``src``
    folder) or this checkout's."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(Path(source).resolve())
    finished = subprocess.run([sys.executable, "-c", ROUND.format(depth=depth)], env=env,
                              capture_output=True, text=True, check=True)
    return [tuple(row) for row in json.loads(finished.stdout)]


def per_variant(rounds: list[list[tuple[str, int, float]]]) -> dict[str, dict]:
    """Nodes and best-of-rounds seconds summed over each variant's positions."""
    totals: dict[str, dict] = defaultdict(lambda: {"nodes": 0, "seconds": 0.0})
    for searches in zip(*rounds, strict=True):
        variant, nodes, _ = searches[0]
        totals[variant]["nodes"] += nodes
        totals[variant]["seconds"] += min(seconds for _, _, seconds in searches)
    for row in totals.values():
        row["seconds"] = round(row["seconds"], 4)
        row["nps"] = int(row["nodes"] / row["seconds"]) if row["seconds"] > 0 else 0
    return dict(totals)


def main() -> None:
    """Run the benchmark and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="SRC", help="another checkout's src folder")
    parser.add_argument("--depth", type=int, default=14, help="search depth (14)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; best time kept (3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    ours: list = []
    theirs: list = []
    for _ in range(args.rounds):
        ours.append(one_round(None, args.depth))
        if args.against:
            theirs.append(one_round(args.against, args.depth))
    report = {"depth": args.depth, "rounds": args.rounds, "ours": per_variant(ours)}
    if args.against:
        report["against"] = per_variant(theirs)
        report["speedup"] = {variant: round(report["against"][variant]["seconds"]
                                            / row["seconds"], 3)
                             for variant, row in report["ours"].items()}
    if args.json:
        print(json.dumps(report))
        return
    for variant, row in report["ours"].items():
        line = f"{variant:18} {row['nodes']:>10,} nodes {row['seconds']:7.3f} s"
        line += f" {row['nps'] / 1e6:5.2f} M nodes/s"
        if args.against:
            other = report["against"][variant]
            same = "" if other["nodes"] == row["nodes"] else f" (other: {other['nodes']:,} nodes)"
            line += f"  against {other['seconds']:7.3f} s: x{report['speedup'][variant]:.2f}"
            line += same
        print(line)


if __name__ == "__main__":
    main()
