"""``minichess show``: draw a position with what else there is to know about it."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.text import Text

from minichess.board import Board
from minichess.cli.arguments import add_position_arguments, board_from_args
from minichess.pieces import BLACK, COLOR_NAMES, FILE_NAMES, WHITE, Color, Piece, square
from minichess.variants import Royalty

LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"


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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Draw the board and print the facts below it."""
    board = board_from_args(args)
    if args.ascii or not sys.stdout.isatty():
        print(ascii_board(board))
        print()
        print("\n".join(describe(board)))
        return
    console = Console(highlight=False)
    console.print(rich_board(board))
    console.print()
    for line in describe(board):
        console.print(line, markup=False)


def ascii_board(board: Board) -> str:
    """The board in letters (``.`` for an empty square) with rank numbers and file letters."""
    rows = str(board).splitlines()
    ranked = [f"{board.variant.ranks - i} {row}" for i, row in enumerate(rows)]
    return "\n".join([*ranked, "  " + " ".join(FILE_NAMES[: board.variant.files])])


def rich_board(board: Board) -> Text:
    """The board with chess figurines on coloured squares, rank numbers and file letters."""
    text = Text()
    for rank in reversed(range(board.variant.ranks)):
        text.append(f"{rank + 1} ", style="bold")
        for file in range(board.variant.files):
            piece = board.piece_at(square(file, rank))
            shade = LIGHT_SQUARE if (file + rank) % 2 else DARK_SQUARE
            text.append(f" {piece.unicode_symbol() if piece else ' '} ", style=f"black on {shade}")
        text.append("\n")
    text.append("  " + "".join(f" {name} " for name in FILE_NAMES[: board.variant.files]),
                style="bold")
    return text


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
