"""``minichess book``: the opening book's move for a position, or a book built afresh (see
:mod:`minichess.engine.book`).

    minichess book --variant minitchess                  # the book's first move
    minichess book --variant minitchess --fen FEN --json
    minichess book --variant minitchess --build --plies 6 --depth 22
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
from minichess.engine.book import BOOKS_DIR, OpeningBook, build_book, variant_book
from minichess.variants import get_variant

DEFAULT_PLIES = 6
DEFAULT_DEPTH = 22


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``book`` command."""
    parser = commands.add_parser(
        "book",
        help="the opening book's move for a position, or build a book",
        description="Print the move that level 10's opening book holds for a position (the"
        " start by default), with the depth and score of the search that chose it. With"
        " --build, make the variant's book afresh: for both colours, the book's side plays"
        " its book move and the other side every legal move, up to --plies plies from the"
        " start, and each position where the book's side is to move is searched to --depth by"
        " a fresh engine (the same book for the same arguments).",
    )
    add_position_arguments(parser)
    parser.add_argument("--book", metavar="FILE",
                        help="read this book instead of the one shipped for the variant")
    parser.add_argument("--build", action="store_true", help="build the variant's book")
    parser.add_argument("--plies", type=positive_int, default=DEFAULT_PLIES, metavar="N",
                        help=f"with --build: how many plies from the start (default"
                        f" {DEFAULT_PLIES})")
    parser.add_argument("--depth", type=positive_int, default=DEFAULT_DEPTH, metavar="D",
                        help=f"with --build: the depth of each search (default {DEFAULT_DEPTH})")
    add_concurrency_argument(parser, "with --build: searches")
    parser.add_argument("--output", metavar="FILE",
                        help="with --build: write the book here instead of the package's"
                        " books folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Build the book, or look a position up in it."""
    if args.build:
        build(args)
        return
    board = board_from_args(args)
    book = OpeningBook.load(args.book) if args.book else variant_book(board.variant.name)
    found = book.probe(board)
    if args.json:
        data = {"variant": board.variant.name, "fen": board.fen(), "positions": len(book),
                "move": None, "san": None}
        if found is not None:
            entry, move = found
            data.update(move=move.uci(), san=board.san(move), depth=entry.depth,
                        score=entry.score, mate=entry.mate)
        print(json.dumps(data))
    elif found is None:
        print(f"not in the book ({len(book)} positions of {board.variant.name})")
    else:
        entry, move = found
        score = f"mate {entry.mate}" if entry.mate is not None else f"score {entry.score:+d}"
        print(f"{board.san(move)} ({move.uci()}): depth {entry.depth}, {score}")


def build(args: argparse.Namespace) -> None:
    """Build the book with a progress bar per ply, write it, and report where."""
    variant = get_variant(args.variant)
    progress = counting_progress("book", "searches")
    task = progress.add_task("book", total=None)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    with progress:
        book = build_book(variant, args.plies, args.depth, args.concurrency, on_search=advance)
    output = args.output
    if output is None:
        BOOKS_DIR.mkdir(exist_ok=True)
        output = BOOKS_DIR / f"{variant.name}.json"
    book.save(output)
    if args.json:
        print(json.dumps({"variant": variant.name, "positions": len(book), "output": str(output),
                          **book.about}))
    else:
        print(f"{len(book)} positions of {variant.name} written to {output}")
