"""``minichess winner``: who has won a position, in the course harnesses' one-letter answer."""

from __future__ import annotations

import argparse

from minichess.board import Board
from minichess.cli.arguments import add_position_arguments, board_from_args
from minichess.pieces import WHITE

GAME_ON = "?"
DRAW = "="
WINNERS = {WHITE: "W", not WHITE: "B"}


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``winner`` command."""
    parser = commands.add_parser(
        "winner",
        help="who has won a position: ?, =, W or B",
        description="Print one character: '?' while the game goes on, '=' for a draw, 'W' or"
        " 'B' for the winner (the answers of Massey's MiniChess course harnesses; e.g."
        " 'minichess winner --state state.txt').",
    )
    add_position_arguments(parser)
    parser.set_defaults(handler=run)


def winner_code(board: Board) -> str:
    """``'?'``, ``'='``, ``'W'`` or ``'B'`` for ``board``'s game."""
    outcome = board.outcome()
    if outcome is None:
        return GAME_ON
    return DRAW if outcome.winner is None else WINNERS[outcome.winner]


def run(args: argparse.Namespace) -> None:
    """Print the winner's code."""
    print(winner_code(board_from_args(args)))
