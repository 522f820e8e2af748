"""``minichess play``: a game against the engine in the terminal (the game itself:
:mod:`minichess.cli.terminal_game`)."""

from __future__ import annotations

import argparse
import importlib
import random
from contextlib import suppress
from datetime import date

from rich.console import Console

from minichess.cli.arguments import add_position_arguments, board_from_args, engine_level
from minichess.cli.terminal_game import TerminalGame
from minichess.engine import LEVELS, MAX_LEVEL, Limit
from minichess.errors import MinichessError
from minichess.game import Game, TimeControl, parse_time_control
from minichess.pieces import BLACK, WHITE, Color
from minichess.players import EnginePlayer
from minichess.variants import VariantDefinition

DEFAULT_LEVEL = 5
ENGINE_SECONDS = 1.0
"""The engine's time per move in a game without clocks."""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``play`` command."""
    parser = commands.add_parser(
        "play",
        help="play against the engine in the terminal",
        description="Play a game against the engine. Type moves in any notation (a2a3, a2-a3,"
        " Nc3, Q@d6) or 'help' for the commands: moves, undo, hint, resign, save, load, flip,"
        " quit.",
    )
    add_position_arguments(parser)
    parser.add_argument("--color", "-c", choices=("white", "black", "random"), default="white",
                        help="your side (default white)")
    parser.add_argument("--level", "-l", type=engine_level, default=DEFAULT_LEVEL, metavar="N",
                        help=f"engine strength, {LEVELS[0]} (beginner) to {MAX_LEVEL}"
                        f" (default {DEFAULT_LEVEL})")
    parser.add_argument(
        "--time", "-t", metavar="T",
        help="clocks: seconds or minutes:seconds for the game, optionally +increment (5:00+2);"
        " 'none' for no clocks (default: none, or the variant's own, antichess 5:00)",
    )
    parser.add_argument("--seed", type=int, metavar="S",
                        help="fix the engine's choices and the random colour")
    parser.add_argument("--pgn", metavar="FILE", help="save the game to FILE when it ends")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Set up the game the arguments describe and play it at the terminal."""
    board = board_from_args(args)
    game = Game(board.variant, board.fen(), _clock(args.time, board.variant),
                headers={"Event": "minichess play", "Date": date.today().strftime("%Y.%m.%d")})
    if game.is_game_over():
        raise MinichessError(f"there is nothing to play: the game is over ({game.outcome()})")
    engine = EnginePlayer(level=args.level, limit=Limit(time=ENGINE_SECONDS), seed=args.seed)
    _enable_line_editing()
    TerminalGame(game, _human_color(args.color, args.seed), engine, Console(highlight=False),
                 pgn_path=args.pgn).play()


def _clock(text: str | None, variant: VariantDefinition) -> TimeControl | None:
    if text is None:
        return TimeControl.default_for(variant)
    return None if text.lower() in ("none", "-") else parse_time_control(text)


def _human_color(choice: str, seed: int | None) -> Color:
    if choice == "random":
        return random.Random(seed).choice((WHITE, BLACK))
    return WHITE if choice == "white" else BLACK


def _enable_line_editing() -> None:
    """Arrow keys and history at the prompt, where Python has readline."""
    with suppress(ImportError):
        importlib.import_module("readline")
