"""Our engine against another, variant by variant: the table of how far from the top it stands
(a measurement to read, not a test).

    python benchmarks/versus.py                       # against ../shared/bin/fairy-stockfish
    python benchmarks/versus.py --variants minitchess,csc111 --games 200 --time 5+0.05
    python benchmarks/versus.py --opponent level:9 --variants chess36,gardner --json
    python benchmarks/versus.py --variants chess36 --baseline "uci:/old/.venv/bin/minichess uci"

For each variant it plays a match of ``--games`` games at ``--time`` between ``--ours``
(default ``level:10``) and the opponent, from balanced openings with colours swapped in each
pair, and prints a row: games, our wins-draws-losses, our score, the Elo difference with its
95% error (or its interval when one end is unbounded), and our results with White and with
Black.

The opponent is ``--opponent SPEC`` (any player of ``minichess match``), else Fairy-Stockfish
at ``../shared/bin/fairy-stockfish`` with the variant file ``../shared/oracle/fairy.ini``.
Fairy-Stockfish cannot play chess36, which is measured against ``--baseline SPEC`` (our
previous version run as a UCI engine) when given, against ``--opponent`` otherwise, and left
out when there is neither. Games run ``--concurrency`` at a time (default 1: with two cores,
one game keeps both busy, one for each engine); the load of the machine at the start and the
end is reported with the table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from minichess.match import GameReport, MatchResult, parse_player, play_match
from minichess.variants import get_variant

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
FAIRY_STOCKFISH = SHARED / "bin" / "fairy-stockfish"
FAIRY_VARIANTS = SHARED / "oracle" / "fairy.ini"
FAIRY_PLAYS = ("minitchess", "minichess-classic", "antichess", "csc111", "gardner", "losalamos")
"""The variants Fairy-Stockfish plays (with the variant file), in the table's order."""
OWN_ONLY = ("chess36",)
"""The variants only our own versions play."""


def fairy_stockfish_spec() -> str | None:
    """The player spec of Fairy-Stockfish in ../shared, or None when it is not there."""
    if not FAIRY_STOCKFISH.exists():
        return None
    options = f",option.VariantPath={FAIRY_VARIANTS.resolve()}" if FAIRY_VARIANTS.exists() else ""
    return f"uci:{FAIRY_STOCKFISH.resolve()}{options},name=fairy-stockfish"


def opponents(args: argparse.Namespace) -> dict[str, str]:
    """Each variant to measure, with its opponent's spec; ValueError says what is missing
    or wrong."""
    default = args.opponent or fairy_stockfish_spec()
    own = args.baseline or args.opponent
    if args.variants:
        wanted = [get_variant(name.strip()).name for name in args.variants.split(",")]
    else:
        wanted = [name for name in (*FAIRY_PLAYS, *OWN_ONLY) if name not in OWN_ONLY or own]
    chosen = {}
    for variant in wanted:
        spec = own if variant in OWN_ONLY else default
        if spec is None:
            need = "--baseline or --opponent" if variant in OWN_ONLY else "--opponent"
            raise ValueError(f"nothing to play {variant} against: give {need}"
                             f" (Fairy-Stockfish is not at {FAIRY_STOCKFISH})")
        parse_player(spec)  # a bad spec fails now, not after the first variants
        chosen[variant] = spec
    return chosen


def by_colour(result: MatchResult, white: bool) -> str:
    """Our wins-draws-losses in the games we played with White (or Black)."""
    games = [game for game in result.games if (game.round % 2 == 1) == white]
    points = [game.first_player_score for game in games]
    return f"{points.count(1.0)}-{points.count(0.5)}-{points.count(0.0)}"


def row(result: MatchResult, opponent: str, seconds: float) -> dict:
    """One variant's row: the match's report with our results by colour."""
    return {**result.to_dict(), "opponent": opponent, "as_white": by_colour(result, True),
            "as_black": by_colour(result, False), "seconds": round(seconds, 1)}


def format_elo(data: dict) -> str:
    """``-168 ± 94``, or the interval when an end is unbounded."""
    if data["elo"] is None:
        return "+inf" if data["score"] > 0.5 else "-inf"
    if data["elo_error"] is not None:
        return f"{data['elo']:+.0f} ± {data['elo_error']:.0f}"
    lower = "-inf" if data["elo_lower"] is None else f"{data['elo_lower']:+.0f}"
    upper = "+inf" if data["elo_upper"] is None else f"{data['elo_upper']:+.0f}"
    return f"{data['elo']:+.0f} ({lower} to {upper})"


HEADER = ("| variant | opponent | games | our W-D-L | score | Elo | as White | as Black |\n"
          "|---|---|---|---|---|---|---|---|")


def format_row(data: dict) -> str:
    """One line of the Markdown table."""
    failures = len(data["failures"])
    note = f" ({failures} lost by failing)" if failures else ""
    return (f"| {data['variant']} | {data['players'][1]} | {data['games']} |"
            f" {data['wins']}-{data['draws']}-{data['losses']} | {data['score']:.1%} |"
            f" {format_elo(data)} | {data['as_white']} | {data['as_black']}{note} |")


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


class VariantProgress:
    """A progress bar on stderr over one variant's games, while stderr is a terminal."""

    def __init__(self, description: str, games: int) -> None:
        self._bar = Progress(TextColumn(description), BarColumn(), MofNCompleteColumn(),
                             TextColumn("games"), TimeElapsedColumn(),
                             console=Console(stderr=True), disable=not sys.stderr.isatty(),
                             transient=True)
        self._task = self._bar.add_task(description, total=games)

    def advance(self, _game: GameReport, _so_far: MatchResult) -> None:
        """Count another game."""
        self._bar.advance(self._task)

    def __enter__(self) -> VariantProgress:
        self._bar.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._bar.stop()


def main() -> None:
    """Play the matches and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", metavar="V,V,...", help="these variants only")
    parser.add_argument("--games", type=int, default=20, help="games per variant (default 20)")
    parser.add_argument("--time", default="5+0.05", help="clock per game (default 5+0.05)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    parser.add_argument("--ours", default="level:10", metavar="SPEC",
                        help="our player (default level:10)")
    parser.add_argument("--opponent", metavar="SPEC",
                        help="the opponent (default: Fairy-Stockfish in ../shared)")
    parser.add_argument("--baseline", metavar="SPEC",
                        help="chess36's opponent: our previous version as a UCI engine")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    try:
        parse_player(args.ours)
        chosen = opponents(args)
    except ValueError as error:
        parser.error(str(error))
    report = {"time_control": args.time, "ours": args.ours, "seed": args.seed,
              "load_before": load(), "rows": []}
    if not args.json:
        print(f"{args.ours} at {args.time}, seed {args.seed}; load {report['load_before']}")
        print(HEADER, flush=True)
    for number, (variant, opponent) in enumerate(chosen.items(), 1):
        started = time.perf_counter()
        with VariantProgress(f"{variant} ({number}/{len(chosen)})", args.games) as progress:
            result = play_match([args.ours, opponent], variant, args.games, args.time,
                                args.concurrency, args.seed, on_game=progress.advance)
        report["rows"].append(row(result, opponent, time.perf_counter() - started))
        if not args.json:
            print(format_row(report["rows"][-1]), flush=True)
    report["load_after"] = load()
    if args.json:
        print(json.dumps(report))
    else:
        print(f"load at the end {report['load_after']}")


if __name__ == "__main__":
    main()
