"""The person at the keyboard as a player: the lines they type, read as moves or commands.

A typed line is a move in any notation or a command (:func:`parse_command`);
:class:`HumanPlayer` reads lines until one is a legal move, answering ``help`` and ``moves``
itself and handing the other commands (undo, hint, ...) to whoever runs the game
(:class:`minichess.cli.terminal_game.TerminalGame` in ``minichess play``).

>>> parse_command("moves b2")
Command(name='moves', argument='b2')
>>> parse_command("Nc3")
Command(name='move', argument='Nc3')
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from minichess.board import Board
from minichess.cli.terminal_ui import HELP_TEXT, clock_text, moves_text
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.move import Move
from minichess.players.base import Player
from minichess.squares import parse_square

HUMAN_NAME = "human"
"""The human's name in saved games; ``load`` finds the human's side by it."""

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


class HumanPlayer(Player):
    """A person at the keyboard.

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
            if command.name == "move" and command.argument is not None:
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
