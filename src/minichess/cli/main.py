"""The ``minichess`` command: the parser with its subcommands, and how a run ends.

Exit status: 0 when all went well, 2 for bad input or usage (one line ``minichess: error: ...``
on stderr), 1 for an unexpected failure (with its traceback), 130 when interrupted and 141 when
the reader of the output goes away (as a shell reports SIGPIPE).

A subcommand is a module with ``register(commands)``, which adds its parser and sets
``handler`` to a function of the parsed arguments; listing it in ``COMMANDS`` makes it part of
the command line.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence

from minichess import __version__
from minichess.cli import (
    analyse,
    bench,
    book,
    endgame,
    imcs,
    imcs_server,
    match,
    move,
    moves,
    perft,
    play,
    serve,
    show,
    uci,
    variants,
    winner,
)
from minichess.cli.arguments import CommandParser, UsageError
from minichess.errors import MinichessError

PROG = "minichess"
COMMANDS = (
    play, serve, perft, moves, move, winner, show, variants, analyse, uci, match, bench, book,
    endgame, imcs, imcs_server,
)
"""The subcommand modules, in the order ``--help`` lists them."""


def build_parser() -> CommandParser:
    """The parser of the whole command line."""
    parser = CommandParser(
        prog=PROG,
        description="Rules, move generation and notation for small-board chess variants.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's arguments); return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        args.handler(args)
    except SystemExit as stop:  # --help and --version end the parse
        return stop.code if isinstance(stop.code, int) else 0
    except (MinichessError, UsageError) as error:
        return fail(str(error), 2)
    except KeyboardInterrupt:
        return fail("interrupted", 130)
    except BrokenPipeError:  # the reader stopped reading, e.g. `minichess moves | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:
        traceback.print_exc()
        return fail(f"unexpected {type(error).__name__}: {error}", 1)
    return 0


def fail(message: str, status: int) -> int:
    """Print ``minichess: error: message`` (one line) on stderr and return ``status``."""
    print(f"{PROG}: error: {' '.join(message.splitlines())}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
