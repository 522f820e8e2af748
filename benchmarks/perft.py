"""Perft speed per variant: leaf nodes per second on one core, with bulk counting.

    python benchmarks/perft.py            # table
    python benchmarks/perft.py --json     # one JSON object per variant
    python benchmarks/perft.py --startup  # also time a cold compile and a warm start

Targets (issue 2): minitchess perft(8) >= 300 M leaves/s; antichess perft(6) >= 100 M/s;
csc111 and chess36 >= 50 M/s; warm `minichess perft 1` < 1 s; cold compile < 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from minichess import Board

CASES = {
    "minitchess": 8,
    "minichess-classic": 7,
    "antichess": 6,
    "csc111": 9,
    "chess36": 7,
    "gardner": 6,
    "losalamos": 6,
}


def measure(variant: str, depth: int, repeat: int) -> dict:
    """Best of ``repeat`` runs of perft(depth) from the start position."""
    board = Board(variant)
    board.perft(2)  # compiled code loaded before timing
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = board.perft(depth)
        best = min(best, time.perf_counter() - start)
    return {"variant": variant, "depth": depth, "nodes": nodes, "seconds": round(best, 4),
            "nps": round(nodes / best)}


def startup_seconds(cold: bool, depth: int = 1, variant: str = "minitchess") -> float:
    """Wall time of `minichess perft DEPTH --variant VARIANT` in a fresh process (cold: with an
    empty compile cache). Depth 1 needs no tree walk; deeper, its kernel is compiled too."""
    env = dict(os.environ)
    cache = tempfile.mkdtemp() if cold else None
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    command = [sys.executable, "-m", "minichess.cli.main", "perft", str(depth), "--variant",
               variant]
    try:
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        return time.perf_counter() - start
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)


def main() -> None:
    """Run the benchmark and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--startup", action="store_true", help="time cold and warm starts")
    args = parser.parse_args()
    for variant, depth in CASES.items():
        if args.variant and variant not in args.variant:
            continue
        row = measure(variant, depth, args.repeat)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{variant:18} perft({depth}) {row['nodes']:>12,} in {row['seconds']:7.3f} s"
                  f"  {row['nps'] / 1e6:7.1f} M leaves/s", flush=True)
    if args.startup:
        report_startup(args.json)


def report_startup(as_json: bool) -> None:
    """Time the cold starts of `minichess perft 1` and `perft 5` (minitchess, and chess36
    whose rules need more code), then a warm `minichess perft 1`."""
    starts = {
        "cold_start_seconds": startup_seconds(cold=True),
        "cold_start_perft5_seconds": startup_seconds(cold=True, depth=5),
        "cold_start_chess36_perft5_seconds": startup_seconds(cold=True, depth=5,
                                                             variant="chess36"),
        "warm_start_seconds": startup_seconds(cold=False),
    }
    if as_json:
        print(json.dumps({name: round(seconds, 2) for name, seconds in starts.items()}))
        return
    print(f"cold start {starts['cold_start_seconds']:.2f} s (minichess perft 1), "
          f"{starts['cold_start_perft5_seconds']:.2f} s (perft 5), "
          f"{starts['cold_start_chess36_perft5_seconds']:.2f} s (perft 5 --variant chess36); "
          f"warm start {starts['warm_start_seconds']:.2f} s (minichess perft 1)")


if __name__ == "__main__":
    main()
