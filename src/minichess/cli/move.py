"""``minichess move``: the position after some moves, as the course harnesses ask for it."""

from __future__ import annotations

import argparse

from minichess.cli.arguments import add_position_arguments, board_from_args
from minichess.notation.massey import format_state


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``move`` command."""
    parser = commands.add_parser(
        "move",
        help="the position after one or more moves",
        description="Play the moves in turn from the position and print the position after"
        " them: Massey's state text when it was given with --state, else FEN. As in Massey's"
        " MiniChess course harnesses, a move of the position is played even when the game has"
        " ended there (ending the game is the referee's business); 'minichess winner' tells"
        " whether it has.",
    )
    parser.add_argument("moves", nargs="+", metavar="MOVE",
                        help="a move: a2-a3, a2a3, a5a6q, Q@d6, or SAN where the game goes on")
    add_position_arguments(parser)
    parser.add_argument("--output", "-o", choices=("state", "fen"),
                        help="how to write the position (default: state with --state, else fen)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Play the moves and print the position."""
    board = board_from_args(args)
    for text in args.moves:
        if board.is_game_over():
            board.push(board.parse_uci(text, after_end=True), after_end=True)
        else:
            board.push(board.parse_move(text))
    output = args.output or ("state" if args.state is not None else "fen")
    print(format_state(board) if output == "state" else board.fen(), end="\n" * (output == "fen"))
