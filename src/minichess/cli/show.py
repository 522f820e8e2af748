"""``minichess show``: draw a position with what else there is to know about it."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from minichess.board import Board
from minichess.cli.arguments import (
    UsageError,
    add_position_arguments,
    board_from_args,
    positive_int,
)
from minichess.cli.terminal_ui import board_text
from minichess.pieces import BLACK, COLOR_NAMES, WHITE, Color, Piece
from minichess.squares import FILE_NAMES
from minichess.variants import Royalty


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``show`` command."""
    parser = commands.add_parser(
        "show",
        help="draw a position",
        description="Draw the board with the side to move, the FEN, the reserves (chess36) and"
        " the game's end if it is over. Plain ASCII when standard output is not a terminal.",
    )
    add_position_arguments(parser)
    parser.add_argument("--ascii", action="store_true", help="plain ASCII letters, no colour")
    parser.add_argument("--svg", metavar="FILE", help="also save the board as an SVG picture")
    parser.add_argument("--png", metavar="FILE", help="also save the board as a PNG picture")
    parser.add_argument("--flip", action="store_true",
                        help="pictures from Black's side (default: White at the bottom)")
    parser.add_argument("--size", type=positive_int, default=None, metavar="PX",
                        help="width of the pictures in pixels (default 60 per file)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Draw the board and print the facts below it."""
    board = board_from_args(args)
    if args.svg or args.png:
        save_pictures(board, args)
    if args.ascii or not sys.stdout.isatty():
        print(ascii_board(board))
        print()
        print("\n".join(describe(board)))
        return
    console = Console(highlight=False)
    console.print(board_text(board))
    console.print()
    for line in describe(board):
        console.print(line, markup=False)


def save_pictures(board: Board, args: argparse.Namespace) -> None:
    """Write the ``--svg`` and ``--png`` files the arguments ask for."""
    from minichess import svg

    picture = svg.board_picture(board, orientation=BLACK if args.flip else WHITE,
                                size=args.size or 60 * board.variant.files)
    try:
        if args.svg:
            with open(args.svg, "w", encoding="utf-8") as file:
                file.write(picture)
        if args.png:
            svg.to_png(picture, args.png)
    except OSError as error:
        raise UsageError(f"cannot write {error.filename}: {error.strerror}") from None


def ascii_board(board: Board) -> str:
    """The board in letters (``.`` for an empty square) with rank numbers and file letters."""
    rows = str(board).splitlines()
    ranked = [f"{board.variant.ranks - i} {row}" for i, row in enumerate(rows)]
    return "\n".join([*ranked, "  " + " ".join(FILE_NAMES[: board.variant.files])])


def describe(board: Board) -> list[str]:
    """Lines saying the variant, who moves, the FEN, the reserves and the game's end."""
    side = f"{COLOR_NAMES[board.turn]} to move"
    if board.variant.royalty == Royalty.CHECK and board.is_check():
        side += " (in check)"
    lines = [f"{board.variant.name}: {board.variant.title}", side, f"FEN: {board.fen()}"]
    if board.variant.has_reserves:
        lines.append(f"Reserves: White {reserve_text(board, WHITE)}, "
                     f"Black {reserve_text(board, BLACK)}")
    outcome = board.outcome()
    if outcome is not None:
        lines.append(f"Game over: {outcome} ({outcome.result()})")
    return lines


def reserve_text(board: Board, color: Color) -> str:
    """``color``'s reserve as piece letters in the FEN's order (``QN``, ``rb``), or ``none``."""
    reserve = sorted(board.reserve(color).items(), reverse=True)
    letters = "".join(Piece(piece_type, color).symbol() * count for piece_type, count in reserve)
    return letters or "none"
