"""``minichess moves``: the legal moves of a position, one per line."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from minichess.board import Board
from minichess.cli.arguments import add_position_arguments, board_from_args
from minichess.move import Move

NOTATIONS: dict[str, Callable[[Board, Move], str]] = {
    "uci": lambda board, move: move.uci(),
    "imcs": lambda board, move: move.imcs(),
    "san": lambda board, move: board.san(move),
}
"""How each ``--notation`` writes a move of a board."""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``moves`` command."""
    parser = commands.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="Print the legal moves of a position, sorted, one per line (nothing when the"
        " game is over). With --state, as the reference move generator of Massey's MiniChess"
        " course: the moves of the side to move whatever the move number (a state past the"
        " move limit still has its moves; ending the game is the referee's business).",
    )
    add_position_arguments(parser)
    parser.add_argument(
        "--notation", "-n", choices=NOTATIONS,
        help="uci (a2a3), imcs (a2-a3) or san (Nc3); default imcs with --state, else uci",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Print the moves."""
    board = board_from_args(args)
    notation = args.notation or ("imcs" if args.state is not None else "uci")
    write = NOTATIONS[notation]
    moves = board.position_moves if args.state is not None else board.legal_moves
    for text in sorted(write(board, move) for move in moves):
        print(text)
