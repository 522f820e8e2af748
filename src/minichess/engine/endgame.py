"""Exact endgame tables by retrograde analysis: every position with both kings and at most
``EXTRA_PIECES`` other pieces, won, drawn or lost for the side to move, and in how many plies.

For the variants of ``endgame_applies`` (the king is captured, no repetition or 50-move rule:
minitchess and minichess-classic). A table holds one material, seen from the side whose pieces
come first in its name ("KQvK": a king and a queen against a lone king), with either side to
move; the other colouring of the same material is the same table after the board is turned
180° and the colours swapped (the start position maps to itself that way).

A position's entry is its **distance**: ``+n`` when the side to move wins in ``n`` plies (``n``
counted to the ply that captures the king), ``-n`` when it loses in ``n``, 0 when neither
side can force a win however long the game. A side with no legal move loses on the ply it
cannot play: such a position is lost in 1 ply. So a position with ``R`` plies left before the
move limit is won when its distance is ``+n`` with ``n <= R``, lost when ``-n`` with
``n <= R``, and drawn otherwise (``limited_result``).

The tables are built "forward": a first pass settles the positions where the king can be taken
(won in 1), where the side to move has no legal move, and those the rules draw at once; then
pass ``p`` finds the positions won in ``p`` (a move reaches a position lost in ``p - 1``) and
the lost ones (every move reaches a won position: lost one ply after the longest of those
wins), until a pass finds nothing and no known distance can lead further. The moves are the
core's own (``legal_moves``, ``play``, ``take_back``). A capture leads into a table with one
piece fewer and a promotion into one with a queen for the pawn, so the tables are built in
that order (``build_order``).

>>> import tempfile
>>> from minichess import Board
>>> directory = tempfile.mkdtemp()
>>> summary = build_tables("minitchess", pieces=2, directory=directory)
>>> summary.tables, summary.positions  # K v K: kings on different squares, either to move
(1, 1740)
>>> tables = load_tables("minitchess", directory)
>>> tables.value(Board("minitchess", "5/5/5/2k2/2K2/5 w - - 0 1")).describe()
'White wins in 1 ply'
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from minichess.board import Board
from minichess.core.arrays import new_undo_stack
from minichess.core.bits import ctz
from minichess.core.cache import user_cache_dir
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import (
    BB,
    F_FILES,
    F_MINOR_DRAW,
    F_RANKS,
    FLAGS,
    HALFMOVE,
    HASH,
    KING,
    MAILBOX,
    MAX_MOVES,
    PAWN,
    PIECE_LETTERS,
    PLY,
    POS_SIZE,
    STM,
)
from minichess.core.makemove import play, take_back
from minichess.core.movegen import in_check
from minichess.core.rules import insufficient_material, legal_moves, no_moves_result, prepare_rules
from minichess.core.tables import variant_tables
from minichess.errors import MinichessError
from minichess.move import Move
from minichess.outcome import Termination
from minichess.pieces import color_name
from minichess.variants import Royalty, VariantDefinition, get_variant

EXTRA_PIECES = 2
"""Pieces besides the two kings that a table holds at most."""
PIECE_KINDS = KING - PAWN
"""Kinds of piece besides the king: pawn, knight, bishop, rook, queen."""
CODES = 2 * PIECE_KINDS
"""A piece besides a king is coded ``colour * PIECE_KINDS + type - PAWN``."""
MATERIAL_IDS = 1 + CODES + CODES * CODES
"""Material ids: 0 for the kings alone, ``1 + code`` for one piece, ``1 + CODES + first *
CODES + second`` for two (``first <= second``)."""
NO_ENTRY = -1
"""``locate``'s answer for a position whose material has no table."""
SETTLED = 32767
"""While a table is built: a position that is drawn for good (the rules end the game, or the
index is no position). Saved as 0."""
TABLE_FORMAT = 1
"""The tables' layout version: a directory of its own, so that tables of another layout are
never read."""
NO_ENDGAME = "none"
"""The player option ``endgame=none``: without the tables."""
DIRECTORY_VARIABLE = "MINICHESS_ENDGAME_DIR"
"""An environment variable naming the directory of the tables instead of the user's cache."""

Material = tuple[int, ...]
"""The codes of the pieces besides the kings, in increasing order."""


def endgame_applies(variant: VariantDefinition) -> bool:
    """Whether ``variant``'s endgames can be tabled: the king is captured (the game ends with
    the capture), no repetition or 50-move rule (a position's value depends on it and the plies
    left alone), no compulsory captures, no reserves."""
    return (variant.royalty == Royalty.CAPTURE and not variant.repetition
            and not variant.fifty_move_plies and not variant.compulsory_capture
            and not variant.has_reserves)


# --- where a position is in the tables ----------------------------------------------------------


@leaf_kernel
def material_id(count, first, second):
    """The id of the material of ``count`` pieces besides the kings, coded ``first`` and
    ``second`` (``first <= second``)."""
    if count == 0:
        return 0
    if count == 1:
        return 1 + first
    return 1 + CODES + first * CODES + second


@leaf_kernel
def _other_colour(code):
    """The code of the same piece of the other colour."""
    return (code + PIECE_KINDS) % CODES


@leaf_kernel
def _swapped_material_id(count, first, second):
    """The id of the same material with the colours swapped."""
    low, high = _other_colour(first), _other_colour(second)
    if count == 2 and high < low:
        low, high = high, low
    return material_id(count, low, high)


@leaf_kernel
def _dense(square, files):
    """A square of the core's layout (``rank * 8 + file``) numbered ``rank * files + file``."""
    return (square >> 3) * files + (square & 7)


@kernel()
def locate(pos, tab, offsets):
    """Where the position is in a table set whose tables start at ``offsets[material id]``
    (-1: not there), or NO_ENTRY."""
    files = tab[FLAGS, F_FILES]
    squares = files * tab[FLAGS, F_RANKS]
    white_kings, black_kings = pos[BB + KING], pos[BB + 8 + KING]
    if white_kings == 0 or black_kings == 0:
        return NO_ENTRY
    count = 0
    first = second = first_square = second_square = 0
    for colour in range(2):
        for piece_type in range(PAWN, KING):
            pieces = pos[BB + colour * 8 + piece_type]
            while pieces != 0:
                if count == EXTRA_PIECES:
                    return NO_ENTRY
                code = colour * PIECE_KINDS + piece_type - PAWN
                square = _dense(ctz(pieces), files)
                if count == 0:
                    first, first_square = code, square
                else:
                    second, second_square = code, square
                count += 1
                pieces &= pieces - 1
    white_king, black_king = _dense(ctz(white_kings), files), _dense(ctz(black_kings), files)
    side = pos[STM]
    material = material_id(count, first, second)
    swapped = _swapped_material_id(count, first, second)
    if swapped < material:  # the table sees it turned round with the colours swapped
        material = swapped
        side = 1 - side
        white_king, black_king = squares - 1 - black_king, squares - 1 - white_king
        first, first_square = _other_colour(first), squares - 1 - first_square
        second, second_square = _other_colour(second), squares - 1 - second_square
        if count == 2 and (second < first or (second == first and second_square < first_square)):
            first, second = second, first
            first_square, second_square = second_square, first_square
    offset = offsets[material]
    if offset < 0:
        return NO_ENTRY
    index = (side * squares + white_king) * squares + black_king
    if count >= 1:
        index = index * squares + first_square
    if count == 2:
        index = index * squares + second_square
    return offset + index


# --- building ------------------------------------------------------------------------------------


@leaf_kernel
def _put(pos, code, square, files):
    """Put the piece of core ``code`` (colour * 8 + type) on the dense ``square``."""
    core_square = (square // files) * 8 + square % files
    bit = 1 << core_square
    pos[BB + code] |= bit
    pos[BB + (code & 8)] |= bit
    pos[MAILBOX + core_square] = code


@leaf_kernel
def _misplaced_pawn(code, square, files, ranks):
    """Whether ``code`` is a pawn on the first or last rank, where no pawn ever stands."""
    rank = square // files
    return code % PIECE_KINDS == 0 and (rank == 0 or rank == ranks - 1)


@leaf_kernel
def _place(pos, tab, count, first, second, index):
    """Set up position ``index`` of the table of (``count``, ``first``, ``second``) in ``pos``;
    False when the index is no position (two pieces on a square, a pawn on the first or last
    rank, two like pieces in decreasing order of squares)."""
    files, ranks = tab[FLAGS, F_FILES], tab[FLAGS, F_RANKS]
    squares = files * ranks
    first_square = second_square = -1
    if count == 2:
        second_square = index % squares
        index //= squares
    if count >= 1:
        first_square = index % squares
        index //= squares
    black_king = index % squares
    index //= squares
    white_king = index % squares
    side = index // squares
    if white_king == black_king or first_square in (white_king, black_king):
        return False
    if count >= 1 and _misplaced_pawn(first, first_square, files, ranks):
        return False
    if count == 2:
        if second_square in (white_king, black_king, first_square):
            return False
        if second == first and second_square < first_square:  # like pieces: one order only
            return False
        if _misplaced_pawn(second, second_square, files, ranks):
            return False
    for k in range(16):
        pos[BB + k] = 0
    for k in range(64):
        pos[MAILBOX + k] = 0
    pos[STM], pos[PLY], pos[HALFMOVE], pos[HASH] = side, 0, 0, 0
    _put(pos, KING, white_king, files)
    _put(pos, 8 + KING, black_king, files)
    for k in range(count):
        code = first if k == 0 else second
        colour, piece_type = code // PIECE_KINDS, code % PIECE_KINDS + PAWN
        _put(pos, colour * 8 + piece_type, first_square if k == 0 else second_square, files)
    return True


@kernel()
def _settle_first(pos, tab, undo, moves, values, start, size, count, first, second):
    """The first pass over a table: the positions the rules draw at once, or where the king can
    be taken (won in 1) or the side to move has no legal move (the variant's result, in 1).
    Returns how many indices are positions."""
    positions = 0
    for index in range(size):
        slot = start + index
        values[slot] = 0
        if not _place(pos, tab, count, first, second, index):
            values[slot] = SETTLED
            continue
        positions += 1
        if tab[FLAGS, F_MINOR_DRAW] != 0 and insufficient_material(pos):
            values[slot] = SETTLED
        elif in_check(pos, tab, 1 - pos[STM]):
            values[slot] = 1
        elif legal_moves(pos, tab, moves, undo, 0, True, False) == 0:
            result = no_moves_result(tab, False)
            values[slot] = SETTLED if result == 0 else result
    return positions


@leaf_kernel
def _value_by_moves(pos, tab, undo, moves, count, values, offsets, plies):
    """Pass ``plies``'s value of the position in ``pos`` (whose ``count`` moves are in
    ``moves``): ``plies`` when a move reaches a position lost in ``plies - 1``, minus one more
    than the longest win when every move reaches a won position, else 0 (not known yet)."""
    all_won = True
    longest = 0
    for k in range(count):
        play(pos, tab, moves[k], undo, 0)
        where = locate(pos, tab, offsets)
        take_back(pos, tab, undo, 0)
        child = values[where] if where != NO_ENTRY else 0
        if child < 0 and -child == plies - 1:
            return plies
        if child <= 0 or child == SETTLED:
            all_won = False
        else:
            longest = max(longest, child)
    return -(longest + 1) if all_won else 0


@kernel()
def _retrograde_pass(pos, tab, undo, moves, values, offsets, start, size, count, first, second,
                     plies):
    """Pass ``plies`` over a table: each position not known yet that ``_value_by_moves``
    decides. Returns how many it decided and the longest distance among them."""
    decided = 0
    longest = 0
    for index in range(size):
        slot = start + index
        if values[slot] != 0:
            continue
        _place(pos, tab, count, first, second, index)
        n = legal_moves(pos, tab, moves, undo, 0, False, False)
        value = _value_by_moves(pos, tab, undo, moves, n, values, offsets, plies)
        if value != 0:
            values[slot] = value
            decided += 1
            longest = max(longest, abs(value))
    return decided, longest


# --- materials and files -------------------------------------------------------------------------


def _kernel_codes(material: Material) -> tuple[int, int, int]:
    """``material`` as the kernels take it: how many pieces, the first and the second code
    (0 for a piece it does not have)."""
    padded = (*material, 0, 0)
    return len(material), padded[0], padded[1]


def material_key(material: Material) -> int:
    """The material id of ``material``."""
    return int(material_id(*_kernel_codes(material)))


def swapped(material: Material) -> Material:
    """``material`` with the colours swapped."""
    return tuple(sorted((code + PIECE_KINDS) % CODES for code in material))


def is_canonical(material: Material) -> bool:
    """Whether ``material`` has a table of its own (else its colour swap has)."""
    return material_key(material) <= material_key(swapped(material))


def material_name(material: Material) -> str:
    """``KQvK``, ``KRvKP``: each side's pieces, the strongest first."""
    sides = ["K", "K"]
    for code in sorted(material, key=lambda code: -(code % PIECE_KINDS)):
        sides[code // PIECE_KINDS] += PIECE_LETTERS[code % PIECE_KINDS + PAWN]
    return "v".join(sides)


def pawn_count(material: Material) -> int:
    """How many pawns ``material`` has."""
    return sum(1 for code in material if code % PIECE_KINDS == 0)


def build_order(pieces: int) -> list[list[Material]]:
    """The tables of at most ``pieces`` pieces in all (kings included), in groups that can be
    built at once: each table's captures and promotions lead into earlier groups."""
    extra = pieces - 2
    if not 0 <= extra <= EXTRA_PIECES:
        raise MinichessError(f"tables hold 2 to {2 + EXTRA_PIECES} pieces, not {pieces}")
    found: dict[tuple[int, int], list[Material]] = {}
    for count in range(extra + 1):
        for material in _materials(count):
            if is_canonical(material):
                found.setdefault((count, pawn_count(material)), []).append(material)
    return [found[group] for group in sorted(found)]


def _materials(count: int) -> Iterator[Material]:
    """Every material of ``count`` pieces besides the kings."""
    if count == 0:
        yield ()
    elif count == 1:
        yield from ((code,) for code in range(CODES))
    else:
        yield from ((low, high) for low in range(CODES) for high in range(low, CODES))


def table_size(variant: VariantDefinition, material: Material) -> int:
    """Entries of ``material``'s table: either side to move, each piece on any square."""
    return 2 * (variant.files * variant.ranks) ** (2 + len(material))


def table_directory(variant: VariantDefinition, directory: str | Path | None = None) -> Path:
    """Where ``variant``'s tables are kept: ``directory``, else the directory named by
    MINICHESS_ENDGAME_DIR, else ``endgame`` in the user's cache; a folder per table format
    and variant below it."""
    base = directory or os.environ.get(DIRECTORY_VARIABLE) or user_cache_dir() / "endgame"
    return Path(base) / f"v{TABLE_FORMAT}" / variant.name


def _offsets(variant: VariantDefinition,
             materials: list[Material]) -> tuple[np.ndarray, int]:
    """The start of each material's table when ``materials`` are laid end to end (-1 for the
    others), and the total size."""
    offsets = np.full(MATERIAL_IDS, -1, dtype=np.int64)
    total = 0
    for material in materials:
        offsets[material_key(material)] = total
        total += table_size(variant, material)
    return offsets, total


# --- building all tables -------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSummary:
    """What one table holds (positions counted for the side to move)."""

    name: str
    positions: int
    wins: int
    draws: int
    losses: int
    longest_win: int
    seconds: float


@dataclass(frozen=True)
class BuildSummary:
    """What ``build_tables`` built."""

    variant: str
    directory: str
    summaries: tuple[TableSummary, ...]
    seconds: float

    @property
    def tables(self) -> int:
        """How many tables."""
        return len(self.summaries)

    @property
    def positions(self) -> int:
        """Positions in all tables (either side to move)."""
        return sum(summary.positions for summary in self.summaries)

    def to_dict(self) -> dict:
        """The summary as plain data for JSON."""
        return {
            "variant": self.variant, "directory": self.directory, "tables": self.tables,
            "positions": self.positions,
            "wins": sum(summary.wins for summary in self.summaries),
            "draws": sum(summary.draws for summary in self.summaries),
            "losses": sum(summary.losses for summary in self.summaries),
            "longest_win": max((summary.longest_win for summary in self.summaries), default=0),
            "seconds": round(self.seconds, 1),
            "by_table": [vars(summary) for summary in self.summaries],
        }


def build_tables(variant: str | VariantDefinition, pieces: int = 2 + EXTRA_PIECES,
                 concurrency: int | None = 1, directory: str | Path | None = None,
                 on_table: Callable[[TableSummary, int], None] | None = None) -> BuildSummary:
    """Build every table of ``variant`` with at most ``pieces`` pieces (kings included) and
    write them to ``table_directory`` (one ``.npy`` file per material). ``concurrency`` worker
    processes build the tables of a group at once (1: in this process; None: one per core);
    ``on_table(summary, total)`` sees each table as it is written."""
    from minichess.match.pool import open_pool  # the match package imports the engine

    variant = get_variant(variant)
    if not endgame_applies(variant):
        raise MinichessError(f"{variant.name} has no endgame tables (see endgame_applies)")
    target = table_directory(variant, directory)
    target.mkdir(parents=True, exist_ok=True)
    groups = build_order(pieces)
    total = sum(len(group) for group in groups)
    started = time.perf_counter()
    summaries: list[TableSummary] = []
    for group in groups:
        tasks = [(variant.name, str(target), material, pieces) for material in group]
        if concurrency == 1:
            built: Iterator[TableSummary] = map(_build_task, tasks)
            summaries.extend(_reported(built, total, len(summaries), on_table))
            continue
        with open_pool(concurrency) as pool:
            summaries.extend(_reported(pool.results(_build_task, tasks), total,
                                       len(summaries), on_table))
    return BuildSummary(variant.name, str(target), tuple(summaries),
                        time.perf_counter() - started)


def _reported(built: Iterator[TableSummary], total: int, done: int,
              on_table: Callable[[TableSummary, int], None] | None) -> list[TableSummary]:
    """The summaries of ``built``, each shown to ``on_table`` as it comes."""
    summaries = []
    for summary in built:
        summaries.append(summary)
        if on_table is not None:
            on_table(summary, total)
    return summaries


def _build_task(task: tuple[str, str, Material, int]) -> TableSummary:
    """Build and write one table, ``(variant, directory, material, pieces)``, reading from the
    directory the tables of the groups before its own (every table it leads into)."""
    name, directory, material, pieces = task
    variant = get_variant(name)
    groups = build_order(pieces)
    own_group = next(index for index, group in enumerate(groups) if material in group)
    values, offsets = _read_tables(variant, directory,
                                   [built for group in groups for built in group],
                                   [built for group in groups[:own_group] for built in group])
    started = time.perf_counter()
    table, positions = _solve(variant, material, values, offsets)
    path = Path(directory) / f"{material_name(material)}.npy"
    partial = path.with_suffix(".part")
    with partial.open("wb") as file:
        np.save(file, table)
    partial.replace(path)  # an engine reading the folder meanwhile never sees half a table
    return _summarise(material_name(material), table, positions, time.perf_counter() - started)


def _solve(variant: VariantDefinition, material: Material, values: np.ndarray,
           offsets: np.ndarray) -> tuple[np.ndarray, int]:
    """``material``'s table, its dependencies already in ``values``, by passes until nothing
    more can be decided; and how many of its indices are positions."""
    prepare_rules(False)
    tab = variant_tables(variant)
    pos = np.zeros(POS_SIZE, dtype=np.int64)
    undo = new_undo_stack(2)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    start, size = int(offsets[material_key(material)]), table_size(variant, material)
    count, first, second = _kernel_codes(material)
    longest = max(int(np.abs(values.astype(np.int64)).max(initial=0)), 1)
    positions = _settle_first(pos, tab, undo, moves, values, start, size, count, first, second)
    plies = 2
    while True:
        decided, found = _retrograde_pass(pos, tab, undo, moves, values, offsets, start, size,
                                          count, first, second, plies)
        longest = max(longest, int(found))
        if decided == 0 and plies > longest:  # no distance can lead further
            break
        plies += 1
    table = values[start:start + size].copy()
    table[table == SETTLED] = 0
    return table, int(positions)


def _summarise(name: str, table: np.ndarray, positions: int, seconds: float) -> TableSummary:
    """The counts of a finished table of ``positions`` positions (its other indices are no
    position and hold 0)."""
    wins, losses = int((table > 0).sum()), int((table < 0).sum())
    return TableSummary(name, positions, wins, positions - wins - losses, losses,
                        int(table.max(initial=0)), round(seconds, 2))


# --- reading the tables --------------------------------------------------------------------------


def limited_result(distance: int, plies_left: int | None) -> int:
    """The result (1 win, 0 draw, -1 loss) for the side to move of a position of ``distance``
    with ``plies_left`` before the move limit (None: no limit): a win or a loss counts only
    when it comes within the plies left."""
    if distance == 0 or (plies_left is not None and abs(distance) > plies_left):
        return 0
    return 1 if distance > 0 else -1


@dataclass(frozen=True)
class EndgameValue:
    """A position's exact value for the side to move, ``turn``."""

    result: int
    """1 won, 0 drawn, -1 lost."""
    plies: int
    """Plies to the end when won or lost (the winner wins as fast as it can, the loser holds
    out as long as it can); 0 when drawn."""
    turn: bool

    def describe(self) -> str:
        """``White wins in 13 plies``, ``Draw``."""
        if self.result == 0:
            return "Draw"
        winner = self.turn if self.result > 0 else not self.turn
        return f"{color_name(winner)} wins in {self.plies} {'ply' if self.plies == 1 else 'plies'}"


class EndgameTables:
    """The tables of ``variant`` that have been built, end to end in ``values`` (each starting
    at ``offsets[material id]``, -1 for a material without a table): what the search reads."""

    def __init__(self, variant: VariantDefinition, materials: list[Material],
                 values: np.ndarray, offsets: np.ndarray) -> None:
        self.variant = variant
        self.materials = materials
        self.values = values
        self.offsets = offsets

    def __len__(self) -> int:
        """How many tables there are."""
        return len(self.materials)

    @property
    def names(self) -> list[str]:
        """The tables' materials, as ``KQvK``."""
        return [material_name(material) for material in self.materials]

    def distance(self, board: Board) -> int | None:
        """The stored distance of ``board`` (see the module), or None without its table."""
        state = board.core_state()
        where = int(locate(state.position, state.tables, self.offsets))
        return None if where == NO_ENTRY else int(self.values[where])

    def value(self, board: Board) -> EndgameValue | None:
        """The exact value of ``board`` with the plies left before the move limit, or None
        when its material has no table."""
        distance = self.distance(board)
        if distance is None:
            return None
        result = limited_result(distance, self._plies_left(board))
        return EndgameValue(result, abs(distance) if result else 0, board.turn)

    def keeping_moves(self, board: Board) -> list[Move] | None:
        """The moves that keep ``board``'s value: the fastest wins, the longest defences, or
        the moves that hold the draw; None when its material has no table."""
        value = self.value(board)
        if value is None:
            return None
        kept = []
        for move in board.legal_moves:
            after = board.copy(stack=False)
            after.push(move)
            result, plies = self._value_after(after)
            if -result == value.result and (result == 0 or plies + 1 == value.plies):
                kept.append(move)
        return kept

    def _value_after(self, board: Board) -> tuple[int, int]:
        """(result, plies) of a position one move on, where the game may have ended."""
        outcome = board.outcome()
        if outcome is not None and outcome.termination == Termination.KING_CAPTURED:
            return -1, 0
        if outcome is not None and outcome.termination != Termination.NO_LEGAL_MOVES:
            return 0, 0
        value = self.value(board)
        assert value is not None, "a move leads into a table with fewer pieces or a queen"
        return value.result, value.plies

    def _plies_left(self, board: Board) -> int | None:
        limit = board.variant.move_limit
        return limit - board.ply() if limit else None


def load_tables(variant: str | VariantDefinition,
                directory: str | Path | None = None) -> EndgameTables:
    """The tables of ``variant`` found in ``table_directory`` (none when none were built); the
    same files are read once per process."""
    variant = get_variant(variant)
    folder = table_directory(variant, directory)
    files = tuple(sorted((path.name, path.stat().st_mtime_ns) for path in folder.glob("*.npy"))
                  if folder.is_dir() else ())
    return _load(variant.name, str(folder), files)


@cache
def _load(name: str, folder: str, files: tuple[tuple[str, int], ...]) -> EndgameTables:
    """The tables in ``folder`` (``files``: their names and times, so that a table built
    afresh is read again)."""
    variant = get_variant(name)
    present = {file_name for file_name, _ in files}
    materials = [material for group in build_order(2 + EXTRA_PIECES) for material in group
                 if f"{material_name(material)}.npy" in present]
    values, offsets = _read_tables(variant, folder, materials, materials)
    return EndgameTables(variant, materials, values, offsets)


def _read_tables(variant: VariantDefinition, folder: str | Path, materials: list[Material],
                 read: list[Material]) -> tuple[np.ndarray, np.ndarray]:
    """The tables of ``materials`` laid end to end (their values and offsets), those of
    ``read`` read from their files in ``folder``, the others 0."""
    offsets, total = _offsets(variant, materials)
    values = np.zeros(total, dtype=np.int16)
    for material in read:
        start = offsets[material_key(material)]
        values[start:start + table_size(variant, material)] = np.load(
            Path(folder) / f"{material_name(material)}.npy")
    return values, offsets


NO_TABLES_VALUES = np.zeros(0, dtype=np.int16)
"""What the search reads where it uses no table."""
NO_TABLES_OFFSETS = np.full(MATERIAL_IDS, -1, dtype=np.int64)
