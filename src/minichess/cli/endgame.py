"""``minichess endgame``: a position's exact value from the endgame tables, or the tables built
(see :mod:`minichess.engine.endgame`).

    minichess endgame --variant minitchess --build --pieces 4 -j 2
    minichess endgame --variant minitchess --fen "5/5/2k2/5/1Q3/K4 w - - 0 30" --json
"""

from __future__ import annotations

import argparse
import json

from minichess.cli.arguments import (
    add_concurrency_argument,
    add_position_arguments,
    board_from_args,
    counting_progress,
    positive_int,
)
from minichess.engine.endgame import (
    EXTRA_PIECES,
    TableSummary,
    build_tables,
    load_tables,
    table_directory,
)
from minichess.errors import MinichessError
from minichess.variants import get_variant

MOST_PIECES = 2 + EXTRA_PIECES


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``endgame`` command."""
    parser = commands.add_parser(
        "endgame",
        help="a position's exact value from the endgame tables, or build them",
        description="Print the exact value of a position with both kings and at most"
        f" {EXTRA_PIECES} other pieces (who wins in how many plies, counting the plies left"
        " before the move limit) and the moves that keep it. With --build, make the variant's"
        " tables by retrograde analysis and write them to the cache directory (or"
        " --directory), where the engine's level 10 finds them.",
    )
    add_position_arguments(parser)
    parser.add_argument("--directory", metavar="DIR",
                        help="keep the tables here instead of the user's cache directory (or"
                        " $MINICHESS_ENDGAME_DIR)")
    parser.add_argument("--build", action="store_true", help="build the variant's tables")
    parser.add_argument("--pieces", type=positive_int, default=MOST_PIECES, metavar="N",
                        choices=range(2, MOST_PIECES + 1),
                        help=f"with --build: tables of up to N pieces, kings included (2 to"
                        f" {MOST_PIECES}, default {MOST_PIECES})")
    add_concurrency_argument(parser, "with --build: tables built")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Build the tables, or look a position up in them."""
    (build if args.build else show)(args)


def show(args: argparse.Namespace) -> None:
    """Print the position's exact value and the moves that keep it."""
    board = board_from_args(args)
    tables = load_tables(board.variant, args.directory)
    value = tables.value(board)
    if value is None:
        folder = table_directory(board.variant, args.directory)
        raise MinichessError(f"no table holds this position ({len(tables)} tables of"
                             f" {board.variant.name} in {folder}; see --build)")
    moves = tables.keeping_moves(board) or []
    if args.json:
        print(json.dumps({"variant": board.variant.name, "fen": board.fen(),
                          "result": value.result, "plies": value.plies,
                          "value": value.describe(), "moves": [move.uci() for move in moves]}))
        return
    print(value.describe())
    print("moves that keep it: " + " ".join(board.san(move) for move in moves))


def build(args: argparse.Namespace) -> None:
    """Build the tables with a progress bar, and report what was written."""
    variant = get_variant(args.variant)
    progress = counting_progress("endgame", "tables")
    task = progress.add_task("endgame", total=None)

    def advance(_summary: TableSummary, total: int) -> None:
        progress.update(task, advance=1, total=total)

    with progress:
        summary = build_tables(variant, args.pieces, args.concurrency, args.directory,
                               on_table=advance)
    if args.json:
        print(json.dumps(summary.to_dict()))
        return
    data = summary.to_dict()
    print(f"{data['tables']} tables of {variant.name} ({data['positions']:,} positions:"
          f" {data['wins']:,} won, {data['draws']:,} drawn, {data['losses']:,} lost for the"
          f" side to move; longest win {data['longest_win']} plies) written to"
          f" {data['directory']} in {data['seconds']} s")
