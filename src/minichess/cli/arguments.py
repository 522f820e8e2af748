"""The argument parser of the command line and the options that several commands share."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from minichess.board import Board

DEFAULT_VARIANT = "minitchess"


class UsageError(Exception):
    """Bad command-line input that is not a :class:`~minichess.errors.MinichessError`."""


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser that raises :class:`UsageError` instead of printing usage and exiting,
    so that every bad input ends the same way: one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Raise the parser's complaint as a UsageError naming the command's help."""
        raise UsageError(f"{message} (see '{self.prog} --help')")


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number >= 0."""
    if not text.isdecimal():
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, not {text!r}")
    return int(text)


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    if not text.isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, not {text!r}")
    return int(text)


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    if not text.isdecimal() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, not {text!r}")
    return int(text)


def engine_level(text: str) -> int:
    """An argparse type: an engine level (1 to 10)."""
    from minichess.engine import LEVELS, MAX_LEVEL  # the engine only where a level is taken

    if not text.isdigit() or int(text) not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"expected a level from {LEVELS[0]} to {MAX_LEVEL}, not {text!r}"
        )
    return int(text)


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds > 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, not {text!r}")
    return seconds


def add_concurrency_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--concurrency`` (``-j``): how many ``what`` run at once."""
    parser.add_argument("--concurrency", "-j", type=positive_int, default=None, metavar="K",
                        help=f"{what} at once (default: the number of cores)")


def counting_progress(label: str, unit: str) -> Progress:
    """A progress bar on stderr, shown only when it is a terminal: ``label``, the bar, how many
    ``unit`` of the total are done, the time taken."""
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
                    TimeElapsedColumn(), console=Console(stderr=True),
                    disable=not sys.stderr.isatty(), transient=True)


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--variant`` and the position options ``--fen`` / ``--state`` to a command."""
    parser.add_argument(
        "--variant", "-v", default=DEFAULT_VARIANT, metavar="V",
        help=f"variant name or alias (default {DEFAULT_VARIANT}; see 'minichess variants')",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--fen", metavar="F", help="the position as FEN (default: start position)")
    source.add_argument(
        "--state", metavar="FILE",
        help="read the position as Massey's state text from FILE ('-' for standard input)",
    )


def board_from_args(args: argparse.Namespace) -> Board:
    """The Board that ``--variant`` with ``--fen`` or ``--state`` describe."""
    board = Board(args.variant, args.fen)
    if args.state is not None:
        from minichess.notation.massey import parse_state  # only --state needs it

        board.set_setup(parse_state(board.variant, read_text(args.state)))
    return board


def read_text(path: str) -> str:
    """The text of the file ``path``, or of standard input for ``-``."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise UsageError(f"cannot read {path}: {reason}") from None
