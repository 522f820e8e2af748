"""IMCS server under load: many simultaneous connections and games, and how fast ``list``
answers meanwhile.

    python benchmarks/imcs_load.py                       # 100 games at once (200 players)
    python benchmarks/imcs_load.py --games 250 --clock 60 --rounds 3 --json

Starts ``minichess imcs-server`` as a process of its own on 127.0.0.1 (any free port, a
database in a temporary directory, cheap password hashes), then for each round lets ``2 *
games`` random movers play ``games`` games at once through the client, while one more
connection asks ``list`` over and over. Reports per round: games finished, plies per second,
and the ``list`` reply times (median, 95th percentile, maximum). The machine's load average
is printed with the figures: they mean little without it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from minichess.protocols.imcs.loadtest import run_load


def start_server(db: Path) -> tuple[subprocess.Popen, int]:
    """A server process and its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "minichess.cli.main", "imcs-server", "--port", "0", "--db",
         str(db), "--hash-cost", "4", "--quiet", "--max-connections", "5000"],
        stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    for line in process.stderr:
        match = re.search(r"IMCS server on [\d.]+:(\d+)", line)
        if match:
            return process, int(match[1])
    raise SystemExit("the server did not start")


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games at once (default 100)")
    parser.add_argument("--clock", type=int, default=30, help="seconds per side (default 30)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of games (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(Path(directory) / "imcs.db")
        try:
            rounds = [asyncio.run(run_load("127.0.0.1", port, args.games, args.clock,
                                           prefix=f"r{n}p", seed=n, timeout=600)).to_dict()
                      for n in range(args.rounds)]
        finally:
            process.terminate()
            process.wait(30)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"rounds": rounds, "load_average": load, "cpus": os.cpu_count()}))
        return
    print(f"{args.games} games at once ({2 * args.games + 1} connections), {args.clock} s"
          f" clocks; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on"
          f" {os.cpu_count()} cores")
    for number, figures in enumerate(rounds, start=1):
        print(f"round {number}: {figures['finished']}/{figures['games']} games in"
              f" {figures['seconds']} s, {figures['plies_per_second']} plies/s; list"
              f" {figures['list_ms_median']} ms median, {figures['list_ms_p95']} ms p95,"
              f" {figures['list_ms_max']} ms max ({figures['list_requests']} requests);"
              f" errors {len(figures['errors'])}")


if __name__ == "__main__":
    main()
