"""A ``minichess serve`` process for tests: on 127.0.0.1, a free port, its own database; it
stops when the test is done, and by itself if the test process dies (Linux parent-death signal).
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from minichess.board import Board
from minichess.engine import Engine, Limit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
"""Headless chromium on a machine with a closed network: no calls home, no updates."""


def warm_engine() -> None:
    """Compile the search for both kinds of rules now, so that the server's first engine move
    loads it from numba's disk cache instead of compiling under a test's time-out."""
    for variant in ("csc111", "minitchess"):
        Engine(level=1).play(Board(variant), Limit(depth=1))


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    """``minichess serve`` with the games in ``database`` and the options ``extra``;
    ``start()`` returns its URL (and, with ``--imcs-port``, sets ``imcs_port``)."""

    def __init__(self, database: Path, *extra: str) -> None:
        self.database = database
        self.extra = extra
        self.process: subprocess.Popen | None = None
        self.url = ""
        self.imcs_port = 0

    def start(self, timeout: float = 60) -> str:
        command = [sys.executable, "-m", "minichess.cli.main", "serve", "--host", "127.0.0.1",
                   "--port", "0", "--db", str(self.database), *self.extra]
        self.log = self.database.with_suffix(".log")
        with open(self.log, "w") as output:
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self.url = self.wait_for(r"http://127\.0\.0\.1:\d+/", timeout)
        if "--imcs-port" in self.extra:
            self.imcs_port = int(self.wait_for(r"IMCS server on 127\.0\.0\.1:(\d+)", timeout))
        return self.url

    def wait_for(self, pattern: str, timeout: float = 60) -> str:
        """The last match of ``pattern`` (its first group, if any) in the server's output,
        once there is one."""
        deadline = time.monotonic() + timeout
        while self.process is not None and time.monotonic() < deadline:
            found = re.findall(pattern, self.log.read_text())
            if found:
                return found[-1]
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        log = self.log.read_text()
        self.stop()
        raise RuntimeError(f"no {pattern!r} from the server: {log}")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
