"""The IMCS 2.5 protocol as the original server speaks it: lines, codes, times, moves, the
state block of a turn and the rating rule, shared by the server and the client.

Framing: the server ends its lines with ``\\r\\n`` and reads lines ending in ``\\r\\n``, ``\\n``,
``\\r`` or ``\\r\\0`` (:class:`LineSplitter`). A turn's prompt is an empty line, the state block
(Massey's state text, whose lines end in a bare ``\\n``) and the ``?`` line, each followed by
``\\r\\n``::

    >>> from minichess.board import Board
    >>> from minichess.notation.massey import format_state
    >>> "".join(line + EOL for line in turn_prompt(format_state(Board()), 300_000, 300_000))
    '\\r\\n1 W\\nkqbnr\\nppppp\\n.....\\n.....\\nPPPPP\\nRNBQK\\n\\r\\n? 05:00.000 05:00.000\\r\\n'

Times: offers and game starts write ``M:SS`` (:func:`format_offer_time`), the ``?`` line
``MM:SS.mmm`` (:func:`format_clock`); everything inside counts milliseconds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from minichess.board import Board
from minichess.errors import IllegalMoveError, InvalidMoveError
from minichess.move import Move
from minichess.pieces import QUEEN, WHITE, Color
from minichess.variants import VariantDefinition

VERSION = "2.5"
DEFAULT_PORT = 3589
EOL = "\r\n"
DEFAULT_TIME_MS = 300_000
"""An offer's clocks when it names none: 5:00 each."""
MAX_OFFER_TIME_DIGITS = 8
"""Longest number accepted as a time (the original accepts any, and overflows)."""
BASE_RATING = 1000
RATING_K = 32

GREETING = f"100 imcs {VERSION}"
"""The first line on every connection."""

# --- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CommandSpec:
    """A command: its name, its arguments as ``help`` and usage errors write them, and what it
    does."""

    name: str
    arguments: str
    description: str

    def usage(self) -> str:
        """``offer [<my-color>] ...``: the command with its arguments."""
        return f"{self.name} {self.arguments}" if self.arguments else self.name

    def help_line(self) -> str:
        """The command's line in the ``help`` reply."""
        return f" {self.usage()}: {self.description}"

    def usage_error(self) -> str:
        """The ``409`` reply to a call with bad arguments."""
        return f"409 {self.name}: usage: {self.usage()}"


ORIGINAL_COMMANDS = (
    CommandSpec("help", "", "this help"),
    CommandSpec("quit", "", "quit imcs"),
    CommandSpec("me", "<player> <password>", "log in"),
    CommandSpec("register", "<player> <password>", "register a new name and log in"),
    CommandSpec("password", "<password>", "change password"),
    CommandSpec("list", "", "list available games"),
    CommandSpec("ratings", "", "list player ratings (top 10 plus own)"),
    CommandSpec("offer", "[<my-color>] [<my-time> [<opp-time>]]",
                "offer a game with given constraints"),
    CommandSpec("accept", "<game-id> [<my-color>]", "accept a game with an opponent"),
    CommandSpec("clean", "", "cancel all my outstanding offers"),
    CommandSpec("rerate", "", "reset my rating to the starting default"),
)
"""The commands of the original server, in the order its ``help`` lists them."""

EXTENDED_COMMANDS = (
    CommandSpec("offer", "... variant=<variant>", "offer a game of another variant"),
    CommandSpec("list", "all | variant=<variant>", "also list offers of other variants"),
    CommandSpec("ratings", "variant=<variant>", "ratings in another variant"),
    CommandSpec("observe", "<game-id>", "watch a game in progress (any line stops)"),
    CommandSpec("games", "[<count>]", "list the latest finished games"),
    CommandSpec("history", "<player> [<count>]", "list a player's latest finished games"),
    CommandSpec("pgn", "<game-id>", "a game as PGN"),
    CommandSpec("tournaments", "", "list tournaments"),
    CommandSpec("join", "<tournament-id>", "enter a tournament open for entries"),
    CommandSpec("leave", "<tournament-id>", "withdraw from a tournament before it starts"),
    CommandSpec("standings", "[<tournament-id>]", "tournament standings with tie-breaks"),
    CommandSpec("pairings", "<tournament-id> [<round>]", "a tournament round's games"),
)
"""Commands of this server that the original lacks, listed after the original ones."""

ADMIN_COMMANDS = (
    CommandSpec("stop", "[<seconds>]",
                "stop the server: games in progress get that long (default 60) to finish"),
    CommandSpec("resetpass", "<player> <password>", "set a player's password"),
    CommandSpec("tournament", "new <format> <rounds> <my-time> [<opp-time>] [variant=<v>]"
                " [grace=<seconds>] [name=<name>] | add <id> <player> | start <id> | cancel <id>",
                "run tournaments (formats: round-robin, swiss)"),
)
"""Commands only an administrator may use (listed in an administrator's ``help`` only)."""

COMMAND_SPECS = {spec.name: spec for spec in (*ADMIN_COMMANDS, *EXTENDED_COMMANDS[3:],
                                              *ORIGINAL_COMMANDS)}
"""Every command by name (for usage errors: the original form of those extended)."""


def help_lines(admin: bool = False) -> list[str]:
    """The ``help`` reply without its final ``.`` line."""
    specs = (*ORIGINAL_COMMANDS, *EXTENDED_COMMANDS, *(ADMIN_COMMANDS if admin else ()))
    return [f"210 imcs {VERSION} help", *(spec.help_line() for spec in specs)]


# --- words and lines ---------------------------------------------------------------------------

_SPACE = re.compile(r"[ \t\n\v\f\r\xa0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
"""White space as the original server's ``words`` sees it."""


def words(text: str) -> list[str]:
    """The white-space separated words of a line."""
    return [word for word in _SPACE.split(text) if word]


def sanitize(text: str) -> str:
    """``text`` as the server quotes it back (``- invalid move ...``): a backslash doubled,
    characters that do not print as ``\\[hh]`` (a byte that is not UTF-8 by its value)."""
    out = []
    for char in text:
        code = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif char.isprintable():
            out.append(char)
        else:
            out.append(f"\\[{code - 0xDC00 if 0xDC80 <= code <= 0xDCFF else code:02x}]")
    return "".join(out)


def decode(raw: bytes) -> str:
    """A received line as text: UTF-8, each byte that is not UTF-8 kept as a lone surrogate
    (which :func:`sanitize` writes by its value)."""
    return raw.decode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class OverlongLine:
    """A received line longer than the limit: its beginning (the rest was discarded)."""

    head: bytes


class LineSplitter:
    """Cuts a byte stream into lines at ``\\r\\n``, ``\\n``, ``\\r`` or ``\\r\\0``, as the
    original server reads them.

    A line longer than ``max_line`` bytes comes out as an :class:`OverlongLine` when its end
    arrives; only its first ``max_line`` bytes are kept meanwhile.

    >>> splitter = LineSplitter()
    >>> splitter.feed(b"me alice pw\\r\\nlist\\rhel")
    [b'me alice pw', b'list']
    >>> splitter.feed(b"p\\n")
    [b'help']
    """

    _TERMINATOR = re.compile(rb"\r\n|\r\x00|\r|\n")

    def __init__(self, max_line: int = 1024) -> None:
        self.max_line = max_line
        self._partial = bytearray()
        self._overlong = False
        self._after_cr = False

    def feed(self, data: bytes) -> list[bytes | OverlongLine]:
        """The lines that ``data`` completes."""
        if self._after_cr and data[:1] in (b"\n", b"\x00"):
            data = data[1:]
        self._after_cr = False
        lines: list[bytes | OverlongLine] = []
        start = 0
        for match in self._TERMINATOR.finditer(data):
            self._add(data[start:match.start()])
            lines.append(self._take())
            start = match.end()
            self._after_cr = match.group() == b"\r" and start == len(data)
        self._add(data[start:])
        return lines

    @property
    def pending(self) -> bool:
        """Whether part of a line has arrived without its end."""
        return bool(self._partial) or self._overlong

    def _add(self, piece: bytes) -> None:
        room = self.max_line - len(self._partial)
        if len(piece) > room:
            self._overlong = True
            piece = piece[:max(room, 0)]
        self._partial += piece

    def _take(self) -> bytes | OverlongLine:
        line = bytes(self._partial)
        overlong = self._overlong
        self._partial.clear()
        self._overlong = False
        return OverlongLine(line) if overlong else line


# --- colours and times -------------------------------------------------------------------------

_COLORS = {"W": "W", "B": "B", "?": "?", "w": "W", "b": "B"}
_OFFER_TIME = re.compile(r"^([0-9]+)(?::([0-9][0-9]))?$")


def read_color(text: str) -> str | None:
    """``W``, ``B`` or ``?`` for a colour word (also lower case); None for anything else."""
    return _COLORS.get(text)


def read_offer(args: list[str]) -> tuple[str, int, int] | None:
    """The colour and both times (milliseconds) of an offer's words ``[W|B|?] [T1 [T2]]``, as
    the original reads them (defaults: ``?``, 5:00, T2 = T1); None if they are not an offer's.

    >>> read_offer(["b", "90"]), read_offer([]), read_offer(["x"])
    (('B', 90000, 90000), ('?', 300000, 300000), None)
    """
    color = read_color(args[0]) if args else None
    texts = args[1:] if color is not None else args
    times = [time for time in map(parse_offer_time, texts) if time is not None]
    if len(texts) > 2 or len(times) != len(texts):
        return None
    mine = times[0] if times else DEFAULT_TIME_MS
    return color or "?", mine, times[1] if len(times) == 2 else mine


def color_letter(color: Color) -> str:
    """``W`` or ``B``."""
    return "W" if color == WHITE else "B"


def parse_offer_time(text: str) -> int | None:
    """Milliseconds of an offer's time, ``SECONDS`` or ``M:SS``; None if it is neither.

    >>> parse_offer_time("1:30"), parse_offer_time("45"), parse_offer_time("1:5")
    (90000, 45000, None)
    """
    match = _OFFER_TIME.match(text)
    if match is None or len(match[1]) > MAX_OFFER_TIME_DIGITS:
        return None
    if match[2] is None:
        return 1000 * int(match[1])
    return 60_000 * int(match[1]) + 1000 * int(match[2])


def format_offer_time(ms: int) -> str:
    """``M:SS`` (whole seconds, cut down), as offers and game starts show a clock.

    >>> format_offer_time(300_000), format_offer_time(45_999)
    ('5:00', '0:45')
    """
    return f"{ms // 60_000}:{ms // 1000 % 60:02d}"


def format_clock(ms: int) -> str:
    """``MM:SS.mmm``, as the ``?`` line shows a clock.

    >>> format_clock(300_000), format_clock(61_005), format_clock(6_000_000)
    ('05:00.000', '01:01.005', '100:00.000')
    """
    minutes = ms // 60_000
    return f"{minutes:02d}:{(ms - 60_000 * minutes) / 1000:06.3f}"


def parse_clock(text: str) -> int:
    """Milliseconds of a ``MM:SS.mmm`` clock (ValueError if it is not one)."""
    minutes, _, seconds = text.partition(":")
    if not minutes.isdigit() or not re.fullmatch(r"\d+(\.\d+)?", seconds):
        raise ValueError(f"not a clock reading: {text!r}")
    return int(minutes) * 60_000 + round(float(seconds) * 1000)


def start_line(color: str, own_ms: int, opponent_ms: int) -> str:
    """``105 W 5:00 5:00 game starts`` (``106 B ...`` for Black), one's own time first."""
    code = 105 if color == "W" else 106
    return f"{code} {color} {format_offer_time(own_ms)} {format_offer_time(opponent_ms)}" \
        " game starts"


# --- turns and moves ---------------------------------------------------------------------------


def turn_prompt(state: str, own_ms: int, opponent_ms: int) -> list[str]:
    """The lines that give the side to move its turn: an empty line, the state block (Massey's
    state text, whose rows end in ``\\n`` inside the line) and ``? <own clock> <opponent's
    clock>``."""
    return ["", state, f"? {format_clock(own_ms)} {format_clock(opponent_ms)}"]


def move_text(move: Move, variant: VariantDefinition) -> str:
    """``a2-a3`` as the server writes a move; a promotion names its piece only where the
    variant has a choice (``a5-a6n``), a drop is ``Q@d6``."""
    text = move.imcs()
    if move.promotion == QUEEN and len(variant.promotion) > 1:
        text += "q"
    return text


class Resign:
    """The ``resign`` line."""


@dataclass(frozen=True)
class InvalidMove:
    """A line that is not a move: ``text`` is quoted back sanitized."""

    text: str

    def reply(self) -> str:
        """``- invalid move <text>``."""
        return f"- invalid move {sanitize(self.text)}"


@dataclass(frozen=True)
class IllegalMove:
    """A move on the board's squares that is not legal: ``text`` is quoted back as sent."""

    text: str

    def reply(self) -> str:
        """``- illegal move <text>``."""
        return f"- illegal move {self.text}"


MoveInput = Move | Resign | InvalidMove | IllegalMove


def read_move(board: Board, line: str) -> MoveInput:
    """What a line sent on a player's turn is: ``a2-a3`` or ``! a2-a3`` (also ``a2a3``,
    ``a5a6q``, ``Q@d6``), ``resign``, an illegal move or an invalid line."""
    items = words(line)
    if items == ["resign"]:
        return Resign()
    if len(items) == 2 and items[0] == "!":
        word = items[1]
    elif len(items) == 1:
        word = items[0]
    else:
        return InvalidMove(" ".join(items))
    try:
        move = Move.from_uci(word)
    except InvalidMoveError:
        return InvalidMove(word)
    on_board = set(board.squares())
    if move.from_square not in on_board or move.to_square not in on_board:
        return InvalidMove(word)
    try:
        return board.parse_uci(word)
    except (IllegalMoveError, InvalidMoveError):
        return IllegalMove(word)


# --- the end -----------------------------------------------------------------------------------

RESIGNATION = "resignation"
TIME = "time"
DISCONNECT = "disconnect"
CAUSES = (RESIGNATION, TIME, DISCONNECT)
"""Why a side loses other than by the rules: the words after ``on opponent``."""


def end_lines(winner: Color | None, cause: str | None = None) -> tuple[str, str]:
    """The two lines both players get at the end: ``= W wins on opponent time`` and
    ``231 W wins on opponent time``; ``= draw`` and ``230 draw``."""
    if winner is None:
        text, code = "draw", 230
    else:
        text, code = f"{color_letter(winner)} wins", 231 if winner == WHITE else 232
        if cause is not None:
            text += f" on opponent {cause}"
    return f"= {text}", f"{code} {text}"


def rating_change(rating: int, opponent: int, score: float) -> int:
    """What a game changes a rating by: Elo with K = 32, ``floor(32 * (score - expected))``.

    >>> rating_change(1000, 1000, 1.0), rating_change(1000, 1000, 0.0)
    (16, -16)
    """
    expected = 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))
    return math.floor(RATING_K * (score - expected))


def multiline(header: str, rows: Iterator[str] | list[str]) -> list[str]:
    """A multi-line reply: the header, the rows (a row that starts with ``.`` gets another
    ``.`` in front, as in SMTP), and the final ``.``."""
    return [header, *("." + row if row.startswith(".") else row for row in rows), "."]
