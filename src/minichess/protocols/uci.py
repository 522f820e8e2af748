"""The UCI protocol, engine side: minichess as an engine that a GUI or a match runner drives.

:class:`UciEngine` reads commands line by line and writes its answers line by line (flushed at
once), so it runs on standard input and output (``minichess uci``) or on in-memory streams:

>>> import io
>>> output = io.StringIO()
>>> UciEngine(io.StringIO("isready\\nquit\\n"), output).run()
>>> output.getvalue()
'readyok\\n'

The variant is chosen with the ``UCI_Variant`` option as in Fairy-Stockfish; positions are FEN
in the Fairy-Stockfish convention and moves are written ``a2a3``, ``a5a6q`` or ``Q@d6``
(``a2-a3`` is read too). The search runs in a background thread, so ``stop``, ``isready`` and
``quit`` are answered while it runs. A command that cannot be carried out changes nothing and is
answered with ``info string <why>``; the engine never stops because of bad input.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from minichess import __version__
from minichess.board import Board
from minichess.engine import LEVELS, MAX_LEVEL, Engine, Info, Limit
from minichess.engine.thread import SearchThread
from minichess.errors import MinichessError
from minichess.variants import VARIANTS, VariantDefinition, get_variant

ENGINE_NAME = f"minichess {__version__}"
ENGINE_AUTHOR = "the minichess developers"
DEFAULT_VARIANT = "minitchess"
VARIANT_OPTION = "UCI_Variant"


@dataclass(frozen=True)
class SpinOption:
    """A whole-number UCI option with its default and range."""

    name: str
    default: int
    minimum: int
    maximum: int

    def declaration(self) -> str:
        """The ``option ...`` line that the answer to ``uci`` lists."""
        return (f"option name {self.name} type spin default {self.default}"
                f" min {self.minimum} max {self.maximum}")

    def value(self, text: str) -> int:
        """The option's value written as ``text``; ValueError when it is no number in range."""
        number = whole_number(self.name, text)
        if not self.minimum <= number <= self.maximum:
            raise ValueError(f"{self.name} must be {self.minimum} to {self.maximum}, not {number}")
        return number


HASH = SpinOption("Hash", 16, 1, 4096)
"""Transposition table size in MB."""
THREADS = SpinOption("Threads", 1, 1, 1)
"""The search uses one thread; the option exists because GUIs like to set it."""
SKILL_LEVEL = SpinOption("Skill Level", MAX_LEVEL, LEVELS[0], MAX_LEVEL)
"""The engine level: the highest is full strength."""
MOVE_OVERHEAD = SpinOption("Move Overhead", 50, 0, 5000)
"""Milliseconds kept back from the clock for process and network latency."""
SPIN_OPTIONS = (HASH, THREADS, SKILL_LEVEL, MOVE_OVERHEAD)

OWN_BOOK = "OwnBook"
"""A check option: whether level 10 plays its opening book's moves under a clock."""
ENDGAME_TABLES = "EndgameTables"
"""A check option: whether level 10's searches read the endgame tables that have been built."""

GO_TIMES = ("wtime", "btime", "winc", "binc", "movetime")
"""``go`` parameters in milliseconds (a GUI may send a negative clock: read as 0)."""
GO_COUNTS = ("movestogo", "depth", "nodes")


def whole_number(name: str, text: str) -> int:
    """``text`` read as an integer; ValueError naming ``name`` otherwise."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} needs a whole number, not {text!r}") from None


def check_value(name: str, text: str) -> bool:
    """A check option's value: ``true`` or ``false`` (any case); ValueError otherwise."""
    if text.lower() not in ("true", "false"):
        raise ValueError(f"{name} must be true or false, not {text!r}")
    return text.lower() == "true"


def variant_declaration() -> str:
    """The ``option`` line of ``UCI_Variant``: a combo listing every variant."""
    choices = " ".join(f"var {name}" for name in VARIANTS)
    return f"option name {VARIANT_OPTION} type combo default {DEFAULT_VARIANT} {choices}"


def parse_position(variant: VariantDefinition, words: Sequence[str]) -> Board:
    """The board that the arguments of ``position`` describe:
    ``startpos|fen <FEN> [moves m1 m2 ...]``. Raises ValueError (MinichessError) if bad."""
    split = words.index("moves") if "moves" in words else len(words)
    spec, moves = list(words[:split]), words[split + 1:]
    if spec == ["startpos"]:
        board = Board(variant)
    elif len(spec) > 1 and spec[0] == "fen":
        board = Board(variant, " ".join(spec[1:]))
    else:
        raise ValueError("expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
    play_moves(board, moves, 1)
    return board


def play_moves(board: Board, moves: Sequence[str], first: int) -> None:
    """Play the moves of a ``position`` command on ``board``, the first of them being move
    number ``first`` of the command (for the error message)."""
    for number, text in enumerate(moves, start=first):
        try:
            board.push_uci(text)
        except MinichessError as error:
            raise MinichessError(f"move {number} ({text}): {error}") from None


def parse_go(words: Sequence[str]) -> tuple[Limit, bool]:
    """The search limit that the arguments of ``go`` ask for, and whether it is ``infinite``
    (search until ``stop``: clocks and ``movetime`` are then ignored)."""
    values: dict[str, int] = {}
    infinite = False
    tokens = iter(words)
    for word in tokens:
        if word == "infinite":
            infinite = True
        elif word in GO_TIMES or word in GO_COUNTS:
            values[word] = whole_number(word, next(tokens, ""))
            if word in GO_COUNTS and values[word] < 0:
                raise ValueError(f"{word} must not be negative, not {values[word]}")
        else:
            raise ValueError(f"unknown parameter {word!r}")

    def seconds(name: str) -> float | None:
        return max(values[name], 0) / 1000 if name in values else None

    if infinite:
        return Limit(depth=values.get("depth"), nodes=values.get("nodes")), True
    return Limit(
        time=seconds("movetime"),
        depth=values.get("depth"),
        nodes=values.get("nodes"),
        white_clock=seconds("wtime"),
        black_clock=seconds("btime"),
        white_increment=seconds("winc"),
        black_increment=seconds("binc"),
        moves_to_go=values.get("movestogo"),
    ), False


def info_line(info: Info) -> str:
    """The UCI ``info`` line of a completed depth."""
    score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
    pv = " ".join(move.uci() for move in info.pv)
    return (f"info depth {info.depth} seldepth {info.seldepth} score {score}"
            f" nodes {info.nodes} nps {info.nps} time {round(info.time * 1000)} pv {pv}")


class UciEngine:
    """A UCI engine reading commands from ``input`` and answering on ``output``."""

    def __init__(self, input: TextIO, output: TextIO, engine: Engine | None = None) -> None:
        self._input = input
        self._output = output
        self.engine = engine or Engine(
            level=SKILL_LEVEL.default,
            hash_mb=HASH.default,
            move_overhead=MOVE_OVERHEAD.default / 1000,
        )
        self.board = Board(DEFAULT_VARIANT)
        self._position_words: list[str] = []
        """The arguments of the ``position`` command that set ``board`` (none: not one)."""
        self._write_lock = threading.Lock()
        self._search: SearchThread | None = None
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "uci": self._uci,
            "isready": self._isready,
            "ucinewgame": self._ucinewgame,
            "setoption": self._setoption,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "d": self._display,
        }
        self._options: dict[str, Callable[[str], object]] = {
            VARIANT_OPTION.lower(): self._set_variant,
            HASH.name.lower(): self._set_hash,
            THREADS.name.lower(): THREADS.value,
            SKILL_LEVEL.name.lower(): self._set_skill_level,
            MOVE_OVERHEAD.name.lower(): self._set_move_overhead,
            OWN_BOOK.lower(): self._set_own_book,
            ENDGAME_TABLES.lower(): self._set_endgame_tables,
        }

    def run(self) -> None:
        """Answer commands until ``quit`` or the end of the input."""
        for line in iter(self._input.readline, ""):
            if not self.handle(line):
                return
        self._stop_search()

    def handle(self, line: str) -> bool:
        """Carry out one command line; False once it was ``quit``."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        if command == "quit":
            self._stop_search()
            return False
        handler = self._commands.get(command)
        if handler is None:
            self.send(f"info string unknown command {command!r}")
            return True
        try:
            handler(arguments)
        except ValueError as error:  # includes every MinichessError
            self.send(f"info string {command} ignored: {' '.join(str(error).splitlines())}")
        return True

    def send(self, line: str) -> None:
        """Write one line and flush it (safe from the search thread too)."""
        with self._write_lock:
            self._output.write(line + "\n")
            self._output.flush()

    @property
    def searching(self) -> bool:
        """Whether a search is running (its bestmove not yet sent)."""
        return self._search is not None and not self._search.finished.is_set()

    # --- commands -----------------------------------------------------------------------------

    def _uci(self, arguments: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send(variant_declaration())
        for option in SPIN_OPTIONS:
            self.send(option.declaration())
        self.send(f"option name {OWN_BOOK} type check default true")
        self.send(f"option name {ENDGAME_TABLES} type check default true")
        self.send("uciok")

    def _isready(self, arguments: list[str]) -> None:
        self.send("readyok")

    def _ucinewgame(self, arguments: list[str]) -> None:
        self._require_idle()
        self.engine.new_game(self.board.variant)
        self.board = Board(self.board.variant)
        self._position_words = []

    def _setoption(self, arguments: list[str]) -> None:
        self._require_idle()
        if "name" not in arguments or "value" not in arguments:
            raise ValueError("expected 'setoption name <name> value <value>'")
        name_at, value_at = arguments.index("name"), arguments.index("value")
        name = " ".join(arguments[name_at + 1:value_at])
        value = " ".join(arguments[value_at + 1:])
        setter = self._options.get(name.lower())
        if setter is None:
            raise ValueError(f"unknown option {name!r}")
        setter(value)

    def _position(self, arguments: list[str]) -> None:
        last = self._position_words
        if last and arguments[:len(last)] == last and (
                "moves" in last or arguments[len(last):len(last) + 1] == ["moves"]):
            # the last position with moves added, as a GUI sends the game at every move:
            # replaying a long game from its start would cost milliseconds of the clock
            played = len(last) - last.index("moves") - 1 if "moves" in last else 0
            board = self.board.copy()
            play_moves(board, arguments[len(last) + ("moves" not in last):], played + 1)
        else:
            board = parse_position(self.board.variant, arguments)
        self.board = board
        self._position_words = arguments

    def _go(self, arguments: list[str]) -> None:
        self._require_idle()
        limit, infinite = parse_go(arguments)
        outcome = self.board.outcome()
        if outcome is not None:
            self.send(f"info string the game is over ({outcome})")
            self.send("bestmove (none)")
            return
        if self._search is not None:
            self._search.join()  # the previous search has sent its bestmove and is ending
        self._search = SearchThread(self.engine, self.board.copy(), limit, self._report_info,
                                    self._report_end, until_stopped=infinite,
                                    playing=not infinite)

    def _stop(self, arguments: list[str]) -> None:
        self._stop_search()

    def _display(self, arguments: list[str]) -> None:
        for row in str(self.board).splitlines():
            self.send(row)
        self.send(f"Variant: {self.board.variant.name}")
        self.send(f"Fen: {self.board.fen()}")

    # --- options ------------------------------------------------------------------------------

    def _set_variant(self, value: str) -> None:
        variant = get_variant(value)
        self.board = Board(variant)
        self._position_words = []
        self.send(f"info string variant {variant.name} files {variant.files}"
                  f" ranks {variant.ranks} startpos {variant.start_fen}")

    def _set_hash(self, value: str) -> None:
        self.engine.hash_mb = HASH.value(value)

    def _set_skill_level(self, value: str) -> None:
        self.engine.level = SKILL_LEVEL.value(value)

    def _set_move_overhead(self, value: str) -> None:
        self.engine.move_overhead = MOVE_OVERHEAD.value(value) / 1000

    def _set_own_book(self, value: str) -> None:
        self.engine.book = check_value(OWN_BOOK, value)

    def _set_endgame_tables(self, value: str) -> None:
        self.engine.endgame = check_value(ENDGAME_TABLES, value)

    # --- the search ---------------------------------------------------------------------------

    def _require_idle(self) -> None:
        if self.searching:
            raise ValueError("a search is running (send stop first)")

    def _stop_search(self) -> None:
        if self._search is not None:
            self._search.stop()

    def _report_info(self, info: Info) -> None:
        self.send(info_line(info))

    def _report_end(self, search: SearchThread) -> None:
        if search.error is not None:
            self.send(f"info string search failed: {search.error}")
        best = search.last.pv[0].uci() if search.last is not None else "(none)"
        self.send(f"bestmove {best}")
