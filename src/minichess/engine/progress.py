"""Progress reports of long offline work (self-play, labelling searches) in ``training`` and
``tuning``: a bar on stderr when it is a terminal, else a line per tenth done, for logs."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def progress_reports(total: int, what: str) -> Iterator[Callable[[int], None]]:
    """A function to tell how many of ``total`` steps (``what``: "self-play games", ...) are
    done: it moves a progress bar on stderr when that is a terminal, else prints a line each
    time another tenth of them is done."""
    console = Console(stderr=True)
    if not console.is_terminal:
        step = max(total // 10, 1)
        reported = 0

        def report(done: int) -> None:
            nonlocal reported
            if done // step > reported // step or done == total:
                reported = done
                print(f"{done}/{total} {what}", file=sys.stderr, flush=True)

        yield report
        return
    with Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda done: bar.update(task, completed=done)
