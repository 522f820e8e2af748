"""A game between the human and the engine in the terminal, with the commands that act on the
game (undo, hint, resign, save, load, flip, quit); ``minichess play`` sets it up.

The human is a :class:`~minichess.players.HumanPlayer`, what is shown is built in
:mod:`minichess.cli.terminal_ui`. With clocks, the human's time runs while they think
(``Game.push`` with ``seconds=None``) and the game ends the moment it runs out; the engine is
charged its search time, which its time management keeps inside its clock.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console

from minichess.cli.terminal_ui import game_view, hint_text, last_move_text
from minichess.engine import Engine, Limit
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.notation.pgn import read_unfinished_game, write_pgn_file
from minichess.pieces import BLACK, WHITE, Color, color_name
from minichess.players import EnginePlayer, HumanPlayer
from minichess.players.human import HUMAN_NAME, Command, TurnInterrupted, say

HINT_SECONDS = 0.5
"""Time the engine takes for a hint (on the human's clock)."""
FLAG_MARGIN = 0.01
"""Seconds after the human's time is out at which waiting for input stops."""


class LeaveGame(Exception):
    """The human leaves the game (``quit``)."""


class FlagFell(Exception):
    """The human's clock ran out while waiting for input."""



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
        if self.game.push(move, seconds=time.monotonic() - started) is not None:  # not too late
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
        assert path is not None, "parse_command requires the file name"
        target = Path(path).expanduser()
        try:
            write_pgn_file(target, [self.game])
        except OSError as error:
            raise MinichessError(f"cannot save to {path}: {error.strerror or error}") from None
        self.say(f"Saved the game to {target}.")

    def load(self, path: str | None) -> None:
        """Continue the (first) game of the PGN file ``path``, with its variant, moves and
        clocks; the human takes the side named ``human`` in it, else the side to move."""
        assert path is not None, "parse_command requires the file name"
        game = read_unfinished_game(path)
        self.game = game
        self.human_color = _human_side(game)
        self.orientation = self.human_color
        self._name_players()
        self.engine.engine.new_game()
        self.say(f"Loaded {path}: {game.variant.name}, {len(game.moves)} moves played;"
                 f" you play {color_name(self.human_color)}.")
        raise TurnInterrupted

    def _name_players(self) -> None:
        self.game.headers[color_name(self.human_color)] = HUMAN_NAME
        self.game.headers[color_name(not self.human_color)] = f"minichess {self.engine.name}"

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


def _human_side(game: Game) -> Color:
    for color in (WHITE, BLACK):
        if game.headers.get(color_name(color)) == HUMAN_NAME:
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
