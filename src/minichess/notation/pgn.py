"""PGN: games as text, with the tags the variants need.

Written tags: the seven-tag roster (Event, Site, Date, Round, White, Black, Result), ``Variant``
(the project's variant name), ``SetUp`` and ``FEN`` when the game does not start from the
variant's start position, ``TimeControl`` when the game has clocks (then each move is followed by
the mover's remaining time, ``{[%clk 0:04:58.5]}``) and ``Termination`` (how the game ended, e.g.
``checkmate`` or ``time forfeit``; ``unterminated`` while it goes on). Other headers follow.

Reading accepts several games per text, comments ``{...}`` and ``; ...``, variations ``(...)``
(skipped), NAGs ``$1``, move numbers and results. A game without a ``Variant`` tag needs
``default_variant``. Games that ended by ``time forfeit``, ``resignation`` or ``forfeit`` (their
Termination tag) end so again; any other result the moves do not reach stays in the Result
header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from minichess.board import Board
from minichess.errors import InvalidPgnError, MinichessError
from minichess.game import Game, parse_time_control
from minichess.notation.fen import parse_fen
from minichess.outcome import Termination
from minichess.pieces import WHITE
from minichess.variants import VariantDefinition, get_variant

LINE_WIDTH = 79
"""Longest movetext line written."""

_ROSTER = {
    "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
}
_COMPUTED_TAGS = {"Result", "Variant", "SetUp", "FEN", "Termination"}
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_ENDING_TAGS = {
    Termination.TIME_FORFEIT.value: Game.forfeit_on_time,
    Termination.RESIGNATION.value: Game.resign,
    Termination.FORFEIT.value: Game.forfeit,
}
_TOKEN = re.compile(
    r"""(?P<tag>\[\s*(?P<name>\w+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
    |\{(?P<comment>[^}]*)\}
    |;[^\n]*
    |^%[^\n]*
    |\$\d+
    |(?P<open>\()
    |(?P<close>\))
    |(?P<result>1-0|0-1|1/2-1/2|\*)(?![^\s)(;{])
    |\d*\.+
    |(?P<move>[^\s\[\]{}();$."]+)
    |\s+
    |(?P<bad>.)""",
    re.VERBOSE | re.MULTILINE,
)
_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d+):(\d+(?:\.\d+)?)\]")


# --- writing -----------------------------------------------------------------------------------


def write_pgn(game: Game) -> str:
    """``game`` as PGN text: tag pairs, a blank line, the wrapped movetext and a newline."""
    tags = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in _tags(game).items())
    return f"{tags}\n{_movetext(game)}\n"


def write_pgn_file(path: str | Path, games: list[Game]) -> None:
    """Write ``games`` to the file ``path``, separated by blank lines."""
    Path(path).write_text("\n".join(write_pgn(game) for game in games), encoding="utf-8")


def _tags(game: Game) -> dict[str, str]:
    tags = {name: game.headers.get(name, default) for name, default in _ROSTER.items()}
    tags["Result"] = _result(game)
    tags["Variant"] = game.variant.name
    if game.start_fen != Board(game.variant).fen():
        tags["SetUp"] = "1"
        tags["FEN"] = game.start_fen
    if game.clock is not None:
        tags["TimeControl"] = str(game.clock)
    termination = _termination(game)
    if termination is not None:
        tags["Termination"] = termination
    for name, value in game.headers.items():
        if name not in _COMPUTED_TAGS:
            tags.setdefault(name, value)
    return tags


def _result(game: Game) -> str:
    """The game's result; while the game object goes on, the Result it was read with."""
    result = game.result()
    return game.headers.get("Result", result) if result == "*" else result


def _termination(game: Game) -> str | None:
    """How the game ended; for a result the game object does not know, the header it was read
    with (none if it had none)."""
    outcome = game.outcome()
    if outcome is not None:
        return outcome.termination.value
    if "Termination" in game.headers:
        return game.headers["Termination"]
    return "unterminated" if _result(game) == "*" else None


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _movetext(game: Game) -> str:
    ply = parse_fen(game.variant, game.start_fen).ply
    clocks = game.clock_log
    tokens: list[str] = []
    for index, san in enumerate(game.san_moves):
        white_moves = (ply + index) % 2 == 0
        number = (ply + index) // 2 + 1
        if white_moves:
            tokens.append(f"{number}.")
        elif index == 0 or clocks:
            tokens.append(f"{number}...")
        tokens.append(san)
        if clocks:
            tokens.append(f"{{[%clk {_clock_text(clocks[index][0 if white_moves else 1])}]}}")
    tokens.append(_result(game))
    return _wrap(tokens)


def _clock_text(seconds: float) -> str:
    minutes, rest = divmod(round(seconds, 3), 60)
    hours, minutes = divmod(int(minutes), 60)
    whole = f"{hours}:{minutes:02}:{int(rest):02}"
    fraction = f"{rest % 1:.3f}".rstrip("0").rstrip(".")
    return whole + fraction[1:] if fraction != "0" else whole


def _wrap(tokens: list[str]) -> str:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


# --- reading -----------------------------------------------------------------------------------


@dataclass
class _MoveRecord:
    san: str
    clock: float | None = None


@dataclass
class _GameRecord:
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[_MoveRecord] = field(default_factory=list)
    result: str | None = None

    def is_empty(self) -> bool:
        return not self.tags and not self.moves and self.result is None


def read_pgn(text: str, default_variant: str | VariantDefinition | None = None) -> list[Game]:
    """The games of a PGN text. Raises InvalidPgnError naming the game (counted from 1) and the
    move that failed, e.g. ``game 2, move 14. Qxe5: ...``."""
    return [
        _build_game(record, number, default_variant)
        for number, record in enumerate(_split_games(text), start=1)
    ]


def read_pgn_file(
    path: str | Path, default_variant: str | VariantDefinition | None = None
) -> list[Game]:
    """The games of the PGN file ``path``."""
    return read_pgn(Path(path).read_text(encoding="utf-8"), default_variant)


def read_text_file(path: str | Path) -> str:
    """The UTF-8 text of the file ``path`` (``~`` expanded). Raises MinichessError naming the
    file and why it cannot be read."""
    try:
        return Path(path).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MinichessError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
                             ) from None


def read_unfinished_game(path: str | Path) -> Game:
    """The first game of the PGN file ``path`` (``~`` expanded), to continue it: it must still
    go on. Raises MinichessError saying why the file cannot be continued."""
    games = read_pgn(read_text_file(path))
    if not games:
        raise MinichessError(f"{path} holds no game")
    game = games[0]
    if game.is_game_over() or game.headers.get("Result", "*") != "*":
        raise MinichessError(f"the game in {path} is over ({game.result()}): nothing to continue")
    return game


def _split_games(text: str) -> list[_GameRecord]:
    records: list[_GameRecord] = []
    current = _GameRecord()
    depth = 0
    for token in _TOKEN.finditer(text):
        if token["bad"]:
            line = text.count("\n", 0, token.start()) + 1
            raise InvalidPgnError(f"game {len(records) + 1}, line {line}: unexpected {token[0]!r}")
        if token["open"] or token["close"]:
            depth += 1 if token["open"] else -1
            if depth < 0:
                raise InvalidPgnError(f"game {len(records) + 1}: ')' without '('")
        elif depth == 0:
            if token["tag"] and current.moves:
                records.append(current)
                current = _GameRecord()
            _take_token(current, token)
            if current.result is not None:
                records.append(current)
                current = _GameRecord()
    if depth:
        raise InvalidPgnError(f"game {len(records) + 1}: a variation '(' is not closed")
    if not current.is_empty():
        records.append(current)
    return records


def _take_token(record: _GameRecord, token: re.Match[str]) -> None:
    if token["tag"]:
        record.tags[token["name"]] = re.sub(r"\\(.)", r"\1", token["value"])
    elif token["move"]:
        record.moves.append(_MoveRecord(token["move"]))
    elif token["result"]:
        record.result = token["result"]
    elif token["comment"] is not None and record.moves:
        clock = _CLOCK.search(token["comment"])
        if clock:
            hours, minutes, seconds = clock.groups()
            record.moves[-1].clock = int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def _build_game(
    record: _GameRecord, number: int, default_variant: str | VariantDefinition | None
) -> Game:
    try:
        game = _new_game(record.tags, default_variant)
    except MinichessError as error:
        raise InvalidPgnError(f"game {number}: {error}") from None
    for move in record.moves:
        _replay(game, move, number)
    result = record.tags.get("Result") or record.result or "*"
    _apply_result(game, result, number)
    return game


def _new_game(tags: dict[str, str], default_variant: str | VariantDefinition | None) -> Game:
    name = tags.get("Variant", default_variant)
    if name is None:
        raise InvalidPgnError("no [Variant] tag; pass default_variant to read such games")
    control = tags.get("TimeControl", "-")
    clock = None if control in ("-", "?", "") else parse_time_control(control)
    return Game(get_variant(name), tags.get("FEN"), clock, tags)


def _replay(game: Game, move: _MoveRecord, number: int) -> None:
    board = game.board
    label = f"{board.fullmove_number}{'.' if board.turn == WHITE else '...'} {move.san}"
    try:
        game.push(board.parse_san(move.san), seconds=_seconds_used(game, move.clock))
    except MinichessError as error:
        raise InvalidPgnError(f"game {number}, move {label}: {error}") from None


def _seconds_used(game: Game, clock_after: float | None) -> float:
    """The mover's time for a move, from its clock after the move (0 when not recorded)."""
    before = game.remaining(game.board.turn)
    if before is None or game.clock is None or clock_after is None:
        return 0.0
    return max(0.0, before + game.clock.increment - clock_after)


def _apply_result(game: Game, result: str, number: int) -> None:
    if result not in _RESULTS:
        raise InvalidPgnError(f"game {number}: result {result!r} is not one of {_RESULTS}")
    outcome = game.outcome()
    if outcome is not None:
        if result not in ("*", outcome.result()):
            raise InvalidPgnError(
                f"game {number}: result {result} contradicts the moves ({outcome})"
            )
        return
    game.headers["Result"] = result
    end = _ENDING_TAGS.get(game.headers.get("Termination", "").lower())
    if end is not None and result in ("1-0", "0-1"):
        end(game, result == "0-1")
