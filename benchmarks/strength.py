"""Engine strength per variant, measured by matches (a check to read, not a test).

    python benchmarks/strength.py                          # about 10 minutes on 2 cores
    python benchmarks/strength.py --variant chess36 --games 40 --time 5+0.1
    python benchmarks/strength.py --json                   # one JSON object per pairing

For each variant (default: the five of RULES.md) it plays these pairings, the first player's
results in a table with the score and the Elo difference +- its 95% error:

- level 10 against ``random`` (expected score 100%) and against ``greedy`` (at least 98%);
- level N+1 against level N for a few N (expected: at least 50%);
- level 10 against itself on half the time (time t against 2t; expected: at least 50%).

The verdict is ``ok`` when the score reaches the expectation, ``below?`` when it does not but
its 95% interval does (more games would tell), ``BELOW`` when even the interval falls short.

``--time`` is the clock of every game (default 2+0.05); in the time-doubling pairing the first
player has it all and the second thinks on half of it. ``--games`` games per pairing
(default 20); ``--concurrency`` games at once (default: one per core).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass

from minichess.match import expected_score, play_match

DEFAULT_VARIANTS = ("minitchess", "minichess-classic", "antichess", "chess36", "csc111")
LEVEL_STEPS = (1, 4, 7, 9)
"""The N of the pairings level N+1 against level N."""


@dataclass(frozen=True)
class Pairing:
    """Two players and the least score the first one is expected to reach."""

    first: str
    second: str
    expected: float


PAIRINGS = (
    Pairing("level:10", "random", 1.0),
    Pairing("level:10", "greedy", 0.98),
    *(Pairing(f"level:{n + 1}", f"level:{n}", 0.5) for n in LEVEL_STEPS),
    Pairing("level:10", "level:10,time=0.5", 0.5),
)


def measure(variant: str, pairing: Pairing, args: argparse.Namespace) -> dict:
    """Play one pairing and return its row of the table."""
    started = time.perf_counter()
    result = play_match([pairing.first, pairing.second], variant, args.games, args.time,
                        args.concurrency, args.seed)
    row = result.to_dict()
    row["expected"] = pairing.expected
    row["verdict"] = verdict(row)
    row["seconds"] = round(time.perf_counter() - started, 1)
    return row


def verdict(row: dict) -> str:
    """``ok`` when the score reaches the expectation; ``below?`` when it does not but the 95%
    interval still does; ``BELOW`` when even the interval falls short."""
    if row["score"] >= row["expected"]:
        return "ok"
    if row["elo"] is None:  # a zero score (without spread)
        return "BELOW"
    upper = 1.0 if row["elo_upper"] is None else expected_score(row["elo_upper"])
    return "below?" if upper >= row["expected"] else "BELOW"


def format_row(row: dict) -> str:
    """One line of the table."""
    first, second = row["players"]
    if row["elo"] is None:
        elo = "+inf" if row["score"] > 0.5 else "-inf"
    else:
        error = "inf" if row["elo_error"] is None else f"{row['elo_error']:.0f}"
        elo = f"{row['elo']:+.0f} +- {error}"
    line = (f"{row['variant']:18} {first:9} {second:18} {row['games']:5}"
            f" {row['wins']:>3}-{row['draws']}-{row['losses']:<3} {row['score']:6.1%}"
            f" {elo:>12}   >={row['expected']:.0%} {row['verdict']:6} {row['seconds']:6.0f} s")
    troubles = {name: row["terminations"].get(name, 0) for name in ("time forfeit", "resignation")}
    notes = ", ".join(f"{count} by {name}" for name, count in troubles.items() if count)
    return f"{line}  ({notes})" if notes else line


HEADER = (f"{'variant':18} {'first':9} {'second':18} {'games':>5} {'W-D-L':9} {'score':>6}"
          f" {'Elo':>12}   expected    time")


def main() -> None:
    """Run the pairings and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", help="only these variants (repeatable)")
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--time", default="2+0.05", help="clock per game (default 2+0.05)")
    parser.add_argument("--concurrency", type=int, default=None, help="games at once")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    if not args.json:
        print(HEADER, flush=True)
    for variant in args.variant or DEFAULT_VARIANTS:
        for pairing in PAIRINGS:
            row = measure(variant, pairing, args)
            print(json.dumps(row) if args.json else format_row(row), flush=True)


if __name__ == "__main__":
    main()
