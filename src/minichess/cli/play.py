"""``minichess play``: a game against the engine in the terminal.

The parts: :func:`parse_command` reads a typed line (a move or a command),
:class:`HumanPlayer` is the person at the keyboard as a :class:`~minichess.players.Player`, and
:class:`TerminalGame` runs the game between the human and the engine, with the commands that act
on the game (undo, hint, resign, save, load, flip, quit). What is shown is built in
:mod:`minichess.cli.terminal_ui`.

With clocks, the human's time runs while they think (``Game.push`` with ``seconds=None``) and the
game ends the moment it runs out; the engine is charged its search time, which its time
management keeps inside its clock.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from rich.console import Console
from rich.text import Text

from minichess.board import Board
from minichess.cli.arguments import add_position_arguments, board_from_args, engine_level
from minichess.cli.terminal_ui import (
    HELP_TEXT,
    clock_text,
    game_view,
    hint_text,
    last_move_text,
    moves_text,
)
from minichess.engine import Engine, Limit
from minichess.errors import MinichessError
from minichess.game import Game, TimeControl, parse_time_control
from minichess.move import Move
from minichess.notation.pgn import read_pgn_file, write_pgn_file
from minichess.pieces import BLACK, COLOR_NAMES, WHITE, Color, parse_square
from minichess.players import EnginePlayer
from minichess.variants import VariantDefinition

HUMAN_NAME = "human"
"""The human's name in saved games; ``load`` finds the human's side by it."""
DEFAULT_LEVEL = 5
ENGINE_SECONDS = 1.0
"""The engine's time per move in a game without clocks."""
HINT_SECONDS = 0.5
"""Time the engine takes for a hint (on the human's clock)."""
FLAG_MARGIN = 0.01
"""Seconds after the human's time is out at which waiting for input stops."""

COMMAND_ARGUMENTS: dict[str, str | None] = {
    "help": None,
    "moves": "[SQUARE|PIECE]",
    "undo": None,
    "hint": None,
    "resign": None,
    "save": "FILE.pgn",
    "load": "FILE.pgn",
    "flip": None,
    "quit": None,
}
"""The commands and what follows them: None for nothing, ``[...]`` for an optional argument."""
COMMAND_ALIASES = {"?": "help", "exit": "quit", "takeback": "undo"}

_SUBJECT = re.compile(r"^(?:(?P<piece>[NBRQK])|(?P<square>[a-h][1-8]))")


class CommandError(MinichessError):
    """A typed line that is neither a move nor a well-formed command."""


class TurnInterrupted(Exception):
    """The human's turn ended without a move: moves were taken back, the game was resigned,
    loaded or lost on time. The game loop carries on with the game as it is now."""


class LeaveGame(Exception):
    """The human leaves the game (``quit``)."""


class FlagFell(Exception):
    """The human's clock ran out while waiting for input."""


# --- typed lines -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A typed line: ``name`` is a command (``moves``, ``save``, ...) or ``move``; ``argument``
    is the rest of the line (the move's text for a move)."""

    name: str
    argument: str | None = None


def parse_command(text: str) -> Command | None:
    """The command or move in a typed line; None for an empty line. Raises CommandError for
    unknown words and misused commands, saying what would be right."""
    first, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if not first:
        return None
    name = COMMAND_ALIASES.get(first.lower(), first.lower())
    if name in COMMAND_ARGUMENTS:
        return _command(name, rest or None)
    if any(char.isdigit() for char in first) or "@" in first:
        if rest:
            raise CommandError(
                f"write a move as one word, such as a2a3 or Nc3, not {text.strip()!r}"
            )
        return Command("move", first)
    raise CommandError(_unknown_word(first))


def _command(name: str, argument: str | None) -> Command:
    usage = COMMAND_ARGUMENTS[name]
    if usage is None and argument is not None:
        raise CommandError(f"{name} takes nothing after it (not {argument!r})")
    if usage is not None and not usage.startswith("[") and argument is None:
        raise CommandError(f"{name} needs a file name: {name} {usage}")
    if name == "moves" and argument is not None and " " in argument:
        raise CommandError("moves takes one square or piece letter: moves b2, moves N")
    return Command(name, argument)


def _unknown_word(word: str) -> str:
    close = difflib.get_close_matches(word.lower(), [*COMMAND_ARGUMENTS, *COMMAND_ALIASES], n=1)
    if len(word) == 1 and word.upper() in "PNBRQK":
        close = [f"moves {word}"]
    guess = f" (did you mean {COMMAND_ALIASES.get(close[0], close[0])!r}?)" if close else ""
    return (f"{word!r} is neither a move nor a command{guess}; type a move such as a2a3 or Nc3,"
            " or 'help'")


def move_subject(board: Board, text: str) -> str | None:
    """The piece letter (``N`` in ``Nd4``) or the square of one of the mover's pieces (``b2`` in
    ``b2b5`` or ``b2``) that a rejected move names, to offer ``moves b2``; None if none."""
    match = _SUBJECT.match(text.strip())
    if match is None:
        return None
    if match["piece"]:
        return match["piece"]
    piece = board.piece_at(parse_square(match["square"]))
    return match["square"] if piece is not None and piece.color == board.turn else None


# --- the human ---------------------------------------------------------------------------------


def say(console: Console, text: str, style: str = "") -> None:
    """Print a message, taken literally (no markup), and long lines wrapped by the terminal
    only (so that file names stay whole)."""
    console.print(Text(text, style=style), soft_wrap=True)


class HumanPlayer:
    """A person at the keyboard (a :class:`~minichess.players.Player`).

    It reads lines with ``read_line(prompt)`` until one is a legal move, answering ``help`` and
    ``moves`` itself and handing the other commands to ``on_command(command, game)``. End of
    input (EOFError) and Ctrl-C (KeyboardInterrupt) pass through to the caller; so does
    :class:`TurnInterrupted` when the game ended while it waited (its time ran out).
    """

    def __init__(
        self,
        read_line: Callable[[str], str],
        console: Console,
        on_command: Callable[[Command, Game], None] | None = None,
        name: str = HUMAN_NAME,
    ) -> None:
        self.name = name
        self.read_line = read_line
        self.console = console
        self.on_command = on_command

    def choose_move(self, game: Game) -> Move:
        """Read lines until one is a legal move of ``game`` and return that move."""
        while True:
            text = self.read_line(self.prompt(game))
            game.check_time()
            if game.is_game_over():
                raise TurnInterrupted
            move = self.answer(text, game)
            if move is not None:
                return move

    def prompt(self, game: Game) -> str:
        """``Your move (4:58)> ``, with the clock when there is one."""
        seconds = game.check_time()
        return "Your move> " if seconds is None else f"Your move ({clock_text(seconds)})> "

    def answer(self, text: str, game: Game) -> Move | None:
        """The move ``text`` is; for anything else print the answer and return None."""
        try:
            command = parse_command(text)
            if command is None:
                return None
            if command.name == "move":
                return self._read_move(command.argument, game.board)
            self._run(command, game)
        except MinichessError as error:
            say(self.console, str(error), "red")
        return None

    def _read_move(self, text: str, board: Board) -> Move | None:
        try:
            return board.parse_move(text)
        except MinichessError as error:
            say(self.console, str(error), "red")
        subject = move_subject(board, text)
        tip = (f"type 'moves {subject}' for the legal moves of {subject}, 'moves' for all"
               if subject else "type 'moves' for the legal moves, 'help' for the commands")
        say(self.console, tip, "dim")
        return None

    def _run(self, command: Command, game: Game) -> None:
        if command.name == "help":
            say(self.console, HELP_TEXT)
        elif command.name == "moves":
            say(self.console, moves_text(game.board, command.argument))
        elif self.on_command is not None:
            self.on_command(command, game)
        else:
            raise CommandError(f"{command.name} is not available here")


# --- the game in the terminal ------------------------------------------------------------------


class TerminalGame:
    """``game`` between the human playing ``human_color`` and ``engine``, shown on ``console``
    and typed with ``read_line(prompt)`` (``input`` in a terminal).

    At the end the result is shown and the game saved to ``pgn_path`` when one is given, else
    the human is offered to save it. ``hint_engine`` answers ``hint`` (by default a
    full-strength engine made on first use).
    """

    def __init__(
        self,
        game: Game,
        human_color: Color,
        engine: EnginePlayer,
        console: Console,
        read_line: Callable[[str], str] = input,
        pgn_path: str | None = None,
        hint_engine: Engine | None = None,
    ) -> None:
        self.game = game
        self.human_color = human_color
        self.orientation = human_color
        self.engine = engine
        self.console = console
        self.read_line = read_line
        self.pgn_path = pgn_path
        self.human = HumanPlayer(self._read_before_flag_falls, console, self.run_command)
        self._hint_engine = hint_engine
        self._input_closed = False
        self._name_players()

    def play(self) -> None:
        """Play until the game ends, the human leaves or the input ends; then show the result
        and save the game."""
        try:
            while not self.game.is_game_over():
                self._turn()
        except LeaveGame:
            pass
        except (EOFError, KeyboardInterrupt) as stop:
            self._input_closed = True
            reason = "end of input" if isinstance(stop, EOFError) else "interrupted"
            self.say(f"\n({reason})", style="dim")
        self._finish()

    def show(self) -> None:
        """Draw the board and the state of the game."""
        self.console.print(game_view(self.game, self.human_color, self.names(), self.orientation))

    def names(self) -> dict[Color, str]:
        """What the two sides are called on the screen."""
        return {self.human_color: "you",
                not self.human_color: f"engine, level {self.engine.engine.level}"}

    def say(self, text: str, style: str = "") -> None:
        """Print a message."""
        say(self.console, text, style)

    # --- turns --------------------------------------------------------------------------------

    def _turn(self) -> None:
        if self.game.board.turn != self.human_color:
            self._engine_turn()
            return
        self.show()
        try:
            move = self.human.choose_move(self.game)
        except TurnInterrupted:
            return
        self.game.push(move)

    def _engine_turn(self) -> None:
        started = time.monotonic()
        move = self.engine.choose_move(self.game)
        played = len(self.game.moves)
        self.game.push(move, seconds=time.monotonic() - started)
        if len(self.game.moves) > played:  # not too late (its time management sees to that)
            self.say(f"The engine plays {last_move_text(self.game)}", style="bold")

    def _read_before_flag_falls(self, prompt: str) -> str:
        """A line of input; with clocks, waiting stops when the human's time runs out."""
        seconds = self.game.check_time()
        if seconds is None:
            return self.read_line(prompt)
        try:
            with _alarm(seconds + FLAG_MARGIN):
                return self.read_line(prompt)
        except FlagFell:
            self.say("\nYour time is up.", style="bold red")
            self.game.check_time()
            raise TurnInterrupted from None

    # --- commands -----------------------------------------------------------------------------

    def run_command(self, command: Command, game: Game) -> None:
        """Carry out ``undo``, ``hint``, ``resign``, ``save``, ``load``, ``flip`` or ``quit``."""
        handlers: dict[str, Callable[[str | None], None]] = {
            "undo": self._undo, "hint": self._hint, "resign": self._resign,
            "save": self.save, "load": self.load, "flip": self._flip, "quit": self._quit,
        }
        handlers[command.name](command.argument)

    def _undo(self, _: str | None) -> None:
        if len(self.game.moves) < 2:
            self.say("There is no move of yours to take back yet.")
            return
        taken = self.game.san_moves[-2:]
        self.game.pop()
        self.game.pop()
        self.say(f"Took back {' '.join(taken)}.")
        raise TurnInterrupted

    def _hint(self, _: str | None) -> None:
        if self._hint_engine is None:
            self._hint_engine = Engine(seed=self.engine.engine.seed)
        result = self._hint_engine.play(self.game.board, Limit(time=HINT_SECONDS))
        self.say(hint_text(self.game.board, result), style="green")

    def _resign(self, _: str | None) -> None:
        self.game.resign(self.human_color)
        raise TurnInterrupted

    def _flip(self, _: str | None) -> None:
        self.orientation = not self.orientation
        self.show()

    def _quit(self, _: str | None) -> None:
        raise LeaveGame

    def save(self, path: str | None) -> None:
        """Write the game as PGN to the file ``path``."""
        target = Path(path).expanduser()
        try:
            write_pgn_file(target, [self.game])
        except OSError as error:
            raise MinichessError(f"cannot save to {path}: {error.strerror or error}") from None
        self.say(f"Saved the game to {target}.")

    def load(self, path: str | None) -> None:
        """Continue the (first) game of the PGN file ``path``, with its variant, moves and
        clocks; the human takes the side named ``human`` in it, else the side to move."""
        game = _unfinished_game(path)
        self.game = game
        self.human_color = _human_side(game)
        self.orientation = self.human_color
        self._name_players()
        self.engine.engine.new_game()
        self.say(f"Loaded {path}: {game.variant.name}, {len(game.moves)} moves played;"
                 f" you play {COLOR_NAMES[self.human_color]}.")
        raise TurnInterrupted

    def _name_players(self) -> None:
        self.game.headers[COLOR_NAMES[self.human_color]] = HUMAN_NAME
        self.game.headers[COLOR_NAMES[not self.human_color]] = f"minichess {self.engine.name}"

    # --- the end ------------------------------------------------------------------------------

    def _finish(self) -> None:
        outcome = self.game.outcome()
        if outcome is None:
            self.say("The game is left unfinished.")
        else:
            self.show()
            verdict = ("Draw." if outcome.winner is None
                       else "You win!" if outcome.winner == self.human_color else "You lose.")
            self.say(f"{outcome}. {verdict}", style="bold")
        if self.pgn_path is not None:
            self.save(self.pgn_path)
        elif self.game.moves and not self._input_closed:
            self._offer_to_save()

    def _offer_to_save(self) -> None:
        while True:
            try:
                path = self.read_line("Save the game? File name (Enter to skip): ").strip()
            except (EOFError, KeyboardInterrupt):
                return
            if not path:
                return
            try:
                self.save(path)
                return
            except MinichessError as error:
                self.say(str(error), style="red")


def _unfinished_game(path: str | None) -> Game:
    """The first game of the PGN file ``path``, which must still go on."""
    try:
        games = read_pgn_file(Path(path).expanduser())
    except (OSError, UnicodeDecodeError) as error:
        raise MinichessError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
                             ) from None
    if not games:
        raise MinichessError(f"{path} holds no game")
    game = games[0]
    if game.is_game_over() or game.headers.get("Result", "*") != "*":
        raise MinichessError(f"the game in {path} is over ({game.result()}): nothing to continue")
    return game


def _human_side(game: Game) -> Color:
    for color in (WHITE, BLACK):
        if game.headers.get(COLOR_NAMES[color]) == HUMAN_NAME:
            return color
    return game.board.turn


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raise FlagFell in the main thread after ``seconds`` (where the system allows timers)."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    if not hasattr(signal, "setitimer") or not in_main_thread:
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise FlagFell

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- the command -------------------------------------------------------------------------------


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
                        help=f"engine strength, 1 (beginner) to 10 (default {DEFAULT_LEVEL})")
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
