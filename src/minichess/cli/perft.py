"""``minichess perft``: count the leaf nodes of the move tree, in total or per root move."""

from __future__ import annotations

import argparse
import json
import sys
import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from minichess.board import Board
from minichess.cli.arguments import add_position_arguments, board_from_args, non_negative_int

PROGRESS_AFTER_SECONDS = 2.0
"""The progress bar appears when a run promises to take longer than this."""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``perft`` command."""
    parser = commands.add_parser(
        "perft",
        help="count the leaf nodes of the move tree",
        description="Count the positions DEPTH plies below a position (a finished game has no"
        " moves), with the time taken and the speed.",
    )
    parser.add_argument("depth", type=non_negative_int, metavar="DEPTH", help="plies to search")
    add_position_arguments(parser)
    parser.add_argument("--divide", action="store_true", help="also count per root move")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Count, time and print."""
    board = board_from_args(args)
    started = time.perf_counter()
    divide = nodes_per_root_move(board, args.depth, show_progress=sys.stderr.isatty())
    seconds = time.perf_counter() - started
    nodes = sum(divide.values()) if args.depth else 1  # depth 0: the position itself
    report = {
        "variant": board.variant.name,
        "depth": args.depth,
        "nodes": nodes,
        "seconds": round(seconds, 6),
        "nps": round(nodes / seconds) if seconds > 0 else 0,
    }
    if args.divide:
        report["divide"] = dict(sorted(divide.items()))
    print(json.dumps(report) if args.json else format_report(report))


def nodes_per_root_move(board: Board, depth: int, show_progress: bool = False) -> dict[str, int]:
    """Leaf nodes ``depth`` plies below ``board`` per legal root move (by its text); ``{}`` at
    depth 0.

    With ``show_progress`` a long run shows a progress bar over the root moves on stderr.
    """
    moves = board.legal_moves if depth else []
    if depth <= 1:
        return {move.uci(): 1 for move in moves}
    counts = {}
    with RootMoveProgress(len(moves), show_progress) as progress:
        for move in moves:
            board.push(move)
            counts[move.uci()] = board.perft(depth - 1)
            board.pop()
            progress.advance(len(counts))
    return counts


def format_report(report: dict) -> str:
    """The perft report as text: ``move: nodes`` lines (with --divide), then the totals."""
    lines = [f"{move}: {nodes}" for move, nodes in report.get("divide", {}).items()]
    if lines:
        lines.append("")
    lines += [
        f"nodes: {report['nodes']}",
        f"time: {report['seconds']:.3f} s",
        f"nodes/s: {report['nps']}",
    ]
    return "\n".join(lines)


class RootMoveProgress:
    """A progress bar on stderr over the root moves of a perft run.

    It appears only when ``enabled`` (stderr is a terminal) and once the moves done so far
    predict a run longer than ``PROGRESS_AFTER_SECONDS``; it vanishes when the run ends.
    """

    def __init__(self, total: int, enabled: bool):
        self._total = total
        self._enabled = enabled
        self._started = time.perf_counter()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def advance(self, done: int) -> None:
        """Record that ``done`` root moves are counted."""
        if self._bar is None and self._enabled and self._predicted_seconds(done) > (
            PROGRESS_AFTER_SECONDS
        ):
            self._start_bar()
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, refresh=True)

    def _predicted_seconds(self, done: int) -> float:
        return (time.perf_counter() - self._started) * self._total / done

    def _start_bar(self) -> None:
        self._bar = Progress(
            TextColumn("perft"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("root moves"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._task = self._bar.add_task("perft", total=self._total)
        self._bar.start()

    def __enter__(self) -> RootMoveProgress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
