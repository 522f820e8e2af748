"""``minichess uci``: run the engine as a UCI engine on standard input and output."""

from __future__ import annotations

import argparse
import sys

from minichess.protocols.uci import UciEngine


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``uci`` command."""
    parser = commands.add_parser(
        "uci",
        help="run the engine for a GUI or match runner (UCI protocol)",
        description="Speak the UCI protocol on standard input and output until 'quit'. Choose"
        " the variant with 'setoption name UCI_Variant value <variant>' (as in Fairy-Stockfish);"
        " 'd' prints the board and its FEN.",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Answer UCI commands until ``quit`` or the end of the input."""
    UciEngine(sys.stdin, sys.stdout).run()
