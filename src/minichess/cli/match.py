"""``minichess match``: play games between two players and report the score and Elo difference.

    minichess match level:10 greedy --games 20
    minichess match level:6 level:5 --variant chess36 --time 5+0.05 --pgn games.pgn
    minichess match level:10 "uci:minichess uci" --json
    minichess match level:10 level:10,weights=start --sprt 0,5 --games 2000 --time 2+0.05
    minichess match level:10 random --variant csc111 --ray auto
    minichess match level:10,network=NEW level:10 --openings games.pgn --pgn again.pgn

A ``uci:`` player is an external UCI engine with its command and arguments, given as one
argument (quote it in the shell); see :mod:`minichess.match.specs` for all players.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from minichess.cli.arguments import (
    DEFAULT_VARIANT,
    UsageError,
    add_concurrency_argument,
    positive_int,
)
from minichess.match import (
    DEFAULT_TIME_CONTROL,
    GameReport,
    MatchResult,
    play_match,
    read_openings,
)
from minichess.match.specs import SPEC_HELP
from minichess.match.sprt import parse_sprt

FAILURES_SHOWN = 3
"""Failed games whose reason the text report quotes."""
DEFAULT_GAMES = 10
"""Games of a match without --games or --sprt."""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``match`` command."""
    parser = commands.add_parser(
        "match",
        help="play games between two players and estimate the Elo difference",
        description="Play games between two players, alternating colours, each pair of games"
        " from the same balanced opening, several at once in separate processes (or on a Ray"
        " cluster). The report gives wins, draws and losses of the first player, its score and"
        " the Elo difference with a 95% interval, and the pairs by the first player's points"
        " (the pentanomial). With --sprt the match stops as soon as a sequential probability"
        " ratio test on the pairs decides whether the first player is ELO0 or ELO1 logistic"
        " Elo stronger.",
        epilog=f"PLAYER: {SPEC_HELP}. A uci: player's command with arguments is one argument:"
        ' quote it, as in "uci:minichess uci".',
    )
    parser.add_argument("players", nargs=2, metavar="PLAYER", help="the two players")
    parser.add_argument(
        "--variant", "-v", default=DEFAULT_VARIANT, metavar="V",
        help=f"variant name or alias (default {DEFAULT_VARIANT})",
    )
    parser.add_argument("--games", "-n", type=positive_int, default=None, metavar="N",
                        help="number of games (default 10; with --sprt: at most N, default no"
                        " limit)")
    parser.add_argument(
        "--time", "-t", default=DEFAULT_TIME_CONTROL, metavar="T",
        help=f"each player's clock per game: seconds + increment (default {DEFAULT_TIME_CONTROL})",
    )
    add_concurrency_argument(parser, "games played")
    parser.add_argument("--pgn", metavar="FILE", help="write all games to FILE as PGN")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--start", action="store_true",
                        help="play every game from the variant's start position (colours still"
                        " alternate) instead of balanced openings")
    parser.add_argument("--openings", metavar="FILE",
                        help="play a pair of games from each opening of FILE in turn instead of"
                        " balanced openings: one FEN a line, or the start positions of a PGN's"
                        " games (a match's own --pgn gives back its openings)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the openings and of the chance in the players' moves"
                             " (random, greedy, the weaker levels; default: random; the report"
                             " gives it)")
    parser.add_argument("--sprt", metavar="ELO0,ELO1",
                        help="stop when the SPRT of H0 'the first player is ELO0 logistic Elo"
                        " stronger' against H1 'ELO1 stronger' decides, e.g. 0,5")
    parser.add_argument("--alpha", type=float, default=0.05, metavar="A",
                        help="the SPRT's rate of accepting H1 wrongly (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, metavar="B",
                        help="the SPRT's rate of accepting H0 wrongly (default 0.05)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play on the Ray cluster at ADDRESS, or on a local Ray started for"
                        " the match with 'auto' (needs minichess[ray])")
    # `--sprt -3,1` (negative ELO0): argparse takes words that look like negative numbers as
    # values, not options; its pattern of such numbers is widened to a pair of them
    parser._negative_number_matcher = re.compile(r"^-[\d.]+(,[-+]?[\d.]+)?$")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Play the match, then print the report and write the games."""
    sprt = parse_sprt(args.sprt, args.alpha, args.beta) if args.sprt else None
    games = args.games if args.games is not None or sprt else DEFAULT_GAMES
    openings = read_openings(args.openings, args.variant) if args.openings else None
    pgn_file = _open_for_writing(args.pgn) if args.pgn else None
    with MatchProgress(games, sprt is not None, enabled=sys.stderr.isatty()) as progress:

        def on_game(report: GameReport, so_far: MatchResult) -> None:
            progress.update(report, so_far)
            if pgn_file is not None:  # each game as it ends: an interrupted match keeps them
                pgn_file.write(report.pgn + "\n")
                pgn_file.flush()

        try:
            result = play_match(args.players, args.variant, games, args.time, args.concurrency,
                                args.seed, on_game=on_game, sprt=sprt, ray=args.ray,
                                from_start=args.start, openings=openings)
        finally:
            if pgn_file is not None:
                pgn_file.close()
    if args.pgn:
        Path(args.pgn).write_text(result.pgn(), encoding="utf-8")  # in round order
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
        "pairs by points 0-0.5-1-1.5-2: " + "-".join(map(str, result.pentanomial)),
        *_sprt_lines(result),
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


def _sprt_lines(result: MatchResult) -> list[str]:
    """The SPRT's parameters, LLR, bounds and decision (nothing without a test)."""
    test = result.sprt
    if test is None:
        return []
    llr = test.llr(result.pentanomial)
    decision = test.decision(llr)
    verdict = "undecided" if decision is None else f"{decision.value} accepted"
    return [
        f"{test} (logistic Elo)",
        f"LLR {llr:.2f} (bounds {test.lower:.2f}, {test.upper:.2f}): {verdict}",
    ]


def _open_for_writing(path: str) -> TextIO:
    """Open the PGN file before the match, so that a bad path fails at once."""
    try:
        return Path(path).open("w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


class MatchProgress:
    """A progress bar on stderr over the games of a match, with the first player's live wins,
    draws and losses and, with an SPRT, the LLR; shown only when ``enabled`` (stderr is a
    terminal). ``games`` None: no known end."""

    def __init__(self, games: int | None, sprt: bool, enabled: bool) -> None:
        columns = [
            TextColumn("match"),
            BarColumn(),
            MofNCompleteColumn() if games is not None else TextColumn("{task.completed}"),
            TextColumn("games  W {task.fields[wins]}  D {task.fields[draws]}"
                       "  L {task.fields[losses]}"),
        ]
        if sprt:
            columns.append(TextColumn("LLR {task.fields[llr]}"))
        self._bar = Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True),
                             disable=not enabled, transient=True)
        self._task = self._bar.add_task("match", total=games, wins=0, draws=0, losses=0,
                                        llr="0.00")

    def update(self, _game: GameReport, so_far: MatchResult) -> None:
        """Show the result after another game."""
        test = so_far.sprt
        llr = "" if test is None else (f"{test.llr(so_far.pentanomial):.2f}"
                                       f" ({test.lower:.2f}, {test.upper:.2f})")
        self._bar.update(self._task, completed=so_far.games_played, wins=so_far.wins,
                         draws=so_far.draws, losses=so_far.losses, llr=llr)

    def __enter__(self) -> MatchProgress:
        self._bar.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._bar.stop()
