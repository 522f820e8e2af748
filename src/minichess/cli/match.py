"""``minichess match``: play games between two players and report the score and Elo difference.

    minichess match level:10 greedy --games 20
    minichess match level:6 level:5 --variant chess36 --time 5+0.05 --pgn games.pgn
    minichess match level:10 "uci:minichess uci" --json

A ``uci:`` player is an external UCI engine with its command and arguments, given as one
argument (quote it in the shell); see :mod:`minichess.match.specs` for all players.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from minichess.cli.arguments import DEFAULT_VARIANT, UsageError, positive_int
from minichess.match import DEFAULT_TIME_CONTROL, GameReport, MatchResult, play_match
from minichess.match.specs import SPEC_HELP

FAILURES_SHOWN = 3
"""Failed games whose reason the text report quotes."""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``match`` command."""
    parser = commands.add_parser(
        "match",
        help="play games between two players and estimate the Elo difference",
        description="Play games between two players, alternating colours, each pair of games"
        " from the same balanced opening, several at once in separate processes. The report"
        " gives wins, draws and losses of the first player, its score and the Elo difference"
        " with a 95% interval.",
        epilog=f"PLAYER: {SPEC_HELP}. A uci: player's command with arguments is one argument:"
        ' quote it, as in "uci:minichess uci".',
    )
    parser.add_argument("players", nargs=2, metavar="PLAYER", help="the two players")
    parser.add_argument(
        "--variant", "-v", default=DEFAULT_VARIANT, metavar="V",
        help=f"variant name or alias (default {DEFAULT_VARIANT})",
    )
    parser.add_argument("--games", "-n", type=positive_int, default=10, metavar="N",
                        help="number of games (default 10)")
    parser.add_argument(
        "--time", "-t", default=DEFAULT_TIME_CONTROL, metavar="T",
        help=f"each player's clock per game: seconds + increment (default {DEFAULT_TIME_CONTROL})",
    )
    parser.add_argument("--concurrency", "-j", type=positive_int, default=None, metavar="K",
                        help="games played at once (default: the number of cores)")
    parser.add_argument("--pgn", metavar="FILE", help="write all games to FILE as PGN")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the openings (default: random; the report gives it)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Play the match, then print the report and write the games."""
    pgn_file = _open_for_writing(args.pgn) if args.pgn else None
    with MatchProgress(args.games, enabled=sys.stderr.isatty()) as progress:
        result = play_match(args.players, args.variant, args.games, args.time,
                            args.concurrency, args.seed, on_game=progress.update)
    if pgn_file is not None:
        with pgn_file:
            pgn_file.write(result.pgn())
    print(json.dumps(result.to_dict()) if args.json else format_report(result))


def format_report(result: MatchResult) -> str:
    """The match result as text, from the first player's side."""
    first, second = result.players
    lines = [
        f"{first} vs {second}: {result.variant}, {result.games_played} games at"
        f" {result.time_control} (seed {result.seed})",
        f"wins {result.wins}, draws {result.draws}, losses {result.losses} (for {first})",
        f"score {result.score:.3f}",
        _elo_line(result),
        "terminations: " + ", ".join(f"{name} {n}" for name, n in result.terminations.items()),
    ]
    failures = result.failures
    if failures:
        lines.append(f"games lost by a player's failure: {len(failures)}")
        lines += [f"  round {game.round}: {game.failure}" for game in failures[:FAILURES_SHOWN]]
    return "\n".join(lines)


def _elo_line(result: MatchResult) -> str:
    """The Elo difference, its error and its 95% interval; infinite ends written as such."""
    elo = result.elo
    if elo.elo is None:
        return f"Elo {'+' if result.score > 0.5 else '-'}inf (no finite estimate: a score of" \
            f" {result.score:g})"
    error = "unbounded" if elo.error is None else f"{elo.error:.1f}"
    lower = "-inf" if elo.lower is None else f"{elo.lower:+.1f}"
    upper = "+inf" if elo.upper is None else f"{elo.upper:+.1f}"
    return f"Elo {elo.elo:+.1f} +- {error} (95%: {lower} .. {upper})"


def _open_for_writing(path: str) -> TextIO:
    """Open the PGN file before the match, so that a bad path fails at once."""
    try:
        return Path(path).open("w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


class MatchProgress:
    """A progress bar on stderr over the games of a match, with the first player's live wins,
    draws and losses; shown only when ``enabled`` (stderr is a terminal)."""

    def __init__(self, games: int, enabled: bool) -> None:
        self._bar = Progress(
            TextColumn("match"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games  W {task.fields[wins]}  D {task.fields[draws]}"
                       "  L {task.fields[losses]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=not enabled,
            transient=True,
        )
        self._task = self._bar.add_task("match", total=games, wins=0, draws=0, losses=0)

    def update(self, _game: GameReport, so_far: MatchResult) -> None:
        """Show the result after another game."""
        self._bar.update(self._task, completed=so_far.games_played, wins=so_far.wins,
                         draws=so_far.draws, losses=so_far.losses)

    def __enter__(self) -> MatchProgress:
        self._bar.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._bar.stop()
