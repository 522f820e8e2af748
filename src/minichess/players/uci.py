"""A Player that drives an external engine process through the UCI protocol.

The engine is started once and kept for many games. After ``uciok`` the player sets the
options it was given (``setoption name .. value ..``, each checked against the options the
engine lists) and then asks for the engine's options again with ``uci``, since an option such
as Fairy-Stockfish's ``VariantPath`` changes the variants that ``UCI_Variant`` offers. For each
game it sends ``ucinewgame`` and selects the variant with the ``UCI_Variant`` option: by the
name it was given, else by the first of the variant's Fairy-Stockfish name (``antichess-mit``
for our antichess, whose rules Fairy-Stockfish's ``antichess`` does not follow), its own name
and its aliases that the engine offers; for each move it sends
``position fen <start> moves ...`` and ``go wtime .. btime .. winc .. binc ..`` from the game's
clocks (``go movetime`` without clocks) and reads ``bestmove``.

An engine that cannot start, exits, breaks the protocol, answers with an illegal move or does
not answer in time makes :meth:`UciPlayer.choose_move` raise :class:`UciEngineError`
(:class:`UciTimeoutError` for the time) with a message naming the engine and what happened;
the next call starts a fresh process.

For example (``minichess uci`` being the project's own engine)::

    with UciPlayer("minichess uci") as engine:
        game = Game("minitchess", clock=TimeControl(10, 0.1))
        engine.new_game(game.variant)
        game.push(engine.choose_move(game))
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO, NamedTuple

from minichess.board import Board
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.move import Move
from minichess.pieces import BLACK, WHITE
from minichess.players.base import Player
from minichess.variants import VariantDefinition, get_variant

STDERR_LINES_KEPT = 5
"""Last lines of the engine's standard error quoted when it fails."""


class Evaluation(NamedTuple):
    """An engine's score for the side to move: ``centipawns``, or ``mate`` (moves to a forced
    end, negative when losing), and the ``nodes`` its search took (None when it did not say)."""

    centipawns: int | None
    mate: int | None
    nodes: int | None = None


class UciEngineError(MinichessError):
    """The external engine failed: it did not start, exited, broke the protocol or chose an
    illegal move."""


class UciTimeoutError(UciEngineError):
    """The external engine did not answer in time."""


class UciPlayer(Player):
    """An external UCI engine as a player.

    ``command`` is the program with its arguments, as a list or as one shell-like string
    (``"minichess uci"``, ``'"/opt/my engine/run" --fast'``). ``options`` are ``(name, value)``
    pairs of UCI options set once the engine has started; ``variant`` is the engine's name for
    every game's variant (default: chosen among what the engine offers). ``move_time`` is the
    seconds per move asked for in games without clocks. The engine gets ``startup_timeout``
    seconds to start (a cold start may compile code), and ``grace`` seconds beyond its
    remaining clock for a move before it counts as not answering.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        name: str | None = None,
        move_time: float = 0.1,
        startup_timeout: float = 60.0,
        grace: float = 1.0,
        options: Sequence[tuple[str, str]] = (),
        variant: str | None = None,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise UciEngineError("a UCI engine needs a command to start it")
        self.name = name or f"uci:{shlex.join(self.command)}"
        self.options = list(options)
        """UCI options set at the start, as ``(name, value)`` pairs."""
        self.variant = variant
        """The engine's name for the variant of every game; None: chosen by what it offers."""
        self.move_time = move_time
        self.startup_timeout = startup_timeout
        self.grace = grace
        self.engine_name: str | None = None
        """The name the engine gives itself (``id name``), once started."""
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES_KEPT)
        self._stderr_reader: threading.Thread | None = None
        self._offered_variants: list[str] | None = None
        self._engine_options: list[str] = []
        self._variant: str | None = None

    # --- the Player interface -----------------------------------------------------------------

    def new_game(self, variant: str | VariantDefinition | None = None) -> None:
        """Start the engine if needed, tell it a new game begins and select ``variant``."""
        self.start()
        self._send("ucinewgame")
        if variant is None:
            self._synchronize(self.startup_timeout)
        else:
            self._select_variant(get_variant(variant))

    def choose_move(self, game: Game) -> Move:
        """The engine's move for the side to move in ``game``."""
        self.start()
        self._select_variant(game.variant)
        moves = " ".join(move.uci() for move in game.moves)
        self._send(f"position fen {game.start_fen}" + (f" moves {moves}" if moves else ""))
        self._send(self._go_command(game))
        try:
            answer = self._read_until("bestmove", self._move_timeout(game))
        except UciTimeoutError:
            self._abandon_search()
            raise
        return self._parse_best_move(game, answer)

    def evaluate(self, board: Board, depth: int, timeout: float = 60.0) -> Evaluation:
        """The engine's score of ``board`` after a search to ``depth`` plies (``go depth``), for
        the side to move: centipawns, or the moves to a forced end; with the nodes of the
        search as its last ``info`` line with ``nodes`` gave them."""
        self.start()
        self._select_variant(board.variant)
        self._send(f"position fen {board.fen()}")
        self._send(f"go depth {depth}")
        last: list[str] = []
        nodes: list[str] = []

        def note_info(line: str) -> None:
            words = line.split()
            if words[:1] != ["info"]:
                return
            if "score" in words:
                last[:] = words[words.index("score") + 1:words.index("score") + 3]
            if "nodes" in words:
                nodes[:] = words[words.index("nodes") + 1:words.index("nodes") + 2]

        self._read_until("bestmove", timeout, note_info)
        if len(last) < 2 or last[0] not in ("cp", "mate"):
            raise UciEngineError(f"{self.name} gave no score for {board.fen()}")
        try:
            value = int(last[1])
            searched = int(nodes[0]) if nodes else None
        except ValueError:
            raise UciEngineError(f"{self.name} gave the score {' '.join(last)!r}"
                                 f" after {' '.join(nodes)!r} nodes") from None
        if last[0] == "cp":
            return Evaluation(value, None, searched)
        return Evaluation(None, value, searched)

    # --- the process ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the engine process and wait for ``uciok`` (nothing if it is running)."""
        if self._process is not None:
            return
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1,
            )
        except OSError as error:
            raise UciEngineError(f"cannot start {self.name}: {error.strerror or error}") from None
        assert process.stdout is not None and process.stderr is not None, "opened as pipes"
        self._process = process
        self._lines = queue.Queue()
        self._stderr.clear()
        _read_lines_in_background(process.stdout, self._lines.put, self._lines.put)
        self._stderr_reader = _read_lines_in_background(process.stderr, self._stderr.append)
        self._read_options()
        if self.options:
            for option, value in self.options:
                self._set_option(option, value)
            self._read_options()  # what the options changed (the variants offered)
        self._synchronize(self.startup_timeout)

    def close(self) -> None:
        """Ask the engine to quit, and end its process if it does not."""
        process, self._process = self._process, None
        self._variant = None
        if process is None:
            return
        assert process.stdin is not None, "opened as a pipe"
        try:
            process.stdin.write("quit\n")
            process.stdin.flush()
            process.wait(timeout=1)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    # --- the protocol ---------------------------------------------------------------------------

    def _send(self, command: str) -> None:
        assert self._process is not None and self._process.stdin is not None, "started"
        try:
            self._process.stdin.write(command + "\n")
            self._process.stdin.flush()
        except OSError:
            raise self._failure(f"closed its input before {command.split()[0]!r}") from None

    def _read_until(
        self, keyword: str, timeout: float, on_line: Callable[[str], None] | None = None
    ) -> str:
        """The first line starting with ``keyword``; earlier lines go to ``on_line``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                raise UciTimeoutError(
                    f"{self.name} did not answer {keyword!r} within {timeout:.1f} s"
                ) from None
            if line is None:
                raise self._failure(f"exited while {keyword!r} was awaited")
            if line.split()[:1] == [keyword]:
                return line
            if on_line is not None:
                on_line(line)

    def _synchronize(self, timeout: float) -> None:
        self._send("isready")
        self._read_until("readyok", timeout)

    def _read_options(self) -> None:
        """Send ``uci`` and note the engine's name and options, up to ``uciok``."""
        self._engine_options = []
        self._offered_variants = None
        self._send("uci")
        self._read_until("uciok", self.startup_timeout, self._read_identity)

    def _read_identity(self, line: str) -> None:
        """Note the engine's name, its options and the variants ``UCI_Variant`` offers."""
        words = line.split()
        if words[:2] == ["id", "name"]:
            self.engine_name = " ".join(words[2:])
        elif words[:2] == ["option", "name"] and "type" in words:
            option = " ".join(words[2:words.index("type")])
            self._engine_options.append(option)
            if option == "UCI_Variant":
                offered = [words[i + 1] for i, word in enumerate(words[:-1]) if word == "var"]
                self._offered_variants = offered or None

    def _set_option(self, option: str, value: str) -> None:
        """Set a UCI option the engine lists (names compare without regard to case)."""
        known = {name.lower(): name for name in self._engine_options}
        if option.lower() not in known:
            listed = ", ".join(self._engine_options) or "none"
            raise UciEngineError(f"{self.name} has no option {option!r} (its options: {listed})")
        self._send(f"setoption name {known[option.lower()]} value {value}")

    def _select_variant(self, variant: VariantDefinition) -> None:
        if self._variant == variant.name:
            return
        self._send(f"setoption name UCI_Variant value {self.engine_variant_name(variant)}")
        self._synchronize(self.startup_timeout)
        self._variant = variant.name

    def engine_variant_name(self, variant: VariantDefinition) -> str:
        """The name under which the engine plays ``variant``: the one given, else the first
        of its Fairy-Stockfish name, its name and its aliases that the engine offers (the
        project's name when the engine lists no choices)."""
        if self.variant is not None:
            return self.variant
        if self._offered_variants is None:
            return variant.name
        for name in (variant.pyffish_name, variant.name, *variant.aliases):
            if name in self._offered_variants:
                return name
        raise UciEngineError(
            f"{self.name} does not play {variant.name}"
            f" (its UCI_Variant choices: {' '.join(self._offered_variants)})"
        )

    def _go_command(self, game: Game) -> str:
        white, black = game.remaining(WHITE), game.remaining(BLACK)
        if game.clock is None or white is None or black is None:
            return f"go movetime {_milliseconds(self.move_time)}"
        increment = _milliseconds(game.clock.increment, least=0)
        return (
            f"go wtime {_milliseconds(white)} btime {_milliseconds(black)}"
            f" winc {increment} binc {increment}"
        )

    def _move_timeout(self, game: Game) -> float:
        remaining = game.remaining(game.board.turn)
        return (self.move_time if remaining is None else remaining) + self.grace

    def _abandon_search(self) -> None:
        """After a timeout: stop the search, or end the process if it does not stop."""
        try:
            self._send("stop")
            self._read_until("bestmove", self.grace)
        except UciEngineError:
            self.close()

    def _parse_best_move(self, game: Game, answer: str) -> Move:
        words = answer.split()
        if len(words) < 2 or words[1] in ("(none)", "0000"):
            raise UciEngineError(f"{self.name} found no move in {game.board.fen()}: {answer!r}")
        try:
            return game.board.parse_uci(words[1])
        except MinichessError as error:
            raise UciEngineError(
                f"{self.name} chose {words[1]!r}, which is not a legal move here: {error}"
            ) from None

    def _failure(self, what: str) -> UciEngineError:
        """The error for an engine that stopped working; forgets the process."""
        process, self._process = self._process, None
        self._variant = None
        assert process is not None and self._stderr_reader is not None, "started"
        try:
            status = process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            status = process.wait()
        self._stderr_reader.join(timeout=1)
        output = " | ".join(self._stderr)
        return UciEngineError(
            f"{self.name} {what} (exit status {status})" + (f": {output}" if output else "")
        )


def _read_lines_in_background(
    stream: IO[str], take: Callable[[str], None], end: Callable[[None], None] | None = None
) -> threading.Thread:
    """Pass each line of ``stream`` to ``take`` from a daemon thread, and None to ``end`` when
    the stream ends; return the thread."""

    def pump() -> None:
        for line in stream:
            take(line.rstrip("\r\n"))
        if end is not None:
            end(None)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def _milliseconds(seconds: float, least: int = 1) -> int:
    return max(round(seconds * 1000), least)
