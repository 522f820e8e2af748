"""Search speed: nodes per second and time to depth on fixed positions, one core.

    python benchmarks/search.py                 # table, 3 s per position
    python benchmarks/search.py --time 10 --json

Targets (issue 3): at least 5 million nodes per second in minitchess middle games; depth 16
from the minitchess start within 5 seconds.
"""

from __future__ import annotations

import argparse
import json
import time

from minichess import Board
from minichess.engine import Engine, Limit

POSITIONS = {
    "minitchess": [
        None,
        "kqbnr/p1p1p/1p1p1/1P1P1/P1P1P/RNBQK w - - 0 4",
        "k1b1r/p1qnp/1pP2/3p1/PP1QP/RNB1K w - - 2 8",
    ],
    "minichess-classic": [None, "kqbnr/p1p1p/1p1p1/1P1P1/P1P1P/RNBQK w - - 0 4"],
    "antichess": [None, "rnbqkb1r/1pppppp1/7p/p7/5n1N/8/PPPPP1P1/RNBQKB1R w - - 0 6"],
    "chess36": [None, "rbk1nr/pp1q1p/2p1p1/2PpP1/PP1P1P/RNQKBR[] w - - 0 6"],
    "csc111": [None],
    "gardner": [None],
    "losalamos": [None],
}
DEPTH_TARGET = ("minitchess", 16)


def search(variant: str, fen: str | None, seconds: float) -> dict:
    """Search one position for ``seconds`` with a fresh engine; report depth and speed."""
    engine = Engine(seed=1, hash_mb=64)
    board = Board(variant, fen)
    engine.analyse(board, Limit(depth=2))  # compiled code loaded before timing
    engine.new_game()
    info = engine.analyse(board, Limit(time=seconds))
    return {"variant": variant, "fen": board.fen(), "depth": info.depth,
            "nodes": info.nodes, "seconds": round(info.time, 3), "nps": info.nps}


def time_to_depth(variant: str, depth: int) -> float:
    """Seconds a fresh engine needs to complete ``depth`` from the start position."""
    engine = Engine(seed=1, hash_mb=64)
    board = Board(variant)
    engine.analyse(board, Limit(depth=2))
    engine.new_game()
    start = time.perf_counter()
    engine.analyse(board, Limit(depth=depth))
    return time.perf_counter() - start


def main() -> None:
    """Run the benchmark and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=3.0, help="seconds per position")
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    for variant, fens in POSITIONS.items():
        if args.variant and variant not in args.variant:
            continue
        for fen in fens:
            row = search(variant, fen, args.time)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"{variant:18} depth {row['depth']:3} {row['nodes']:>11,} nodes"
                      f" {row['nps'] / 1e6:6.2f} M nodes/s  {row['fen']}", flush=True)
    variant, depth = DEPTH_TARGET
    if not args.variant or variant in args.variant:
        seconds = time_to_depth(variant, depth)
        if args.json:
            print(json.dumps({"variant": variant, "depth": depth, "seconds": round(seconds, 3)}))
        else:
            print(f"{variant} start: depth {depth} in {seconds:.2f} s")


if __name__ == "__main__":
    main()
