"""Opening books: a variant's first moves, chosen by deep searches of our own engine and
shipped as data (``engine/books/<variant>.json``), so that level 10 plays them at once and as
well as a search many times longer than its clock allows.

A book holds, for each position it knows (keyed by :func:`position_key`, the FEN without the
move counters), the move to play with the depth and score of the search that chose it.
:func:`build_book` makes one for both colours: from the start, the side whose book it is plays
the book's move and the other side every legal move, up to ``plies`` plies, and each position
where the book's side is to move is searched to ``depth`` by a fresh engine (the same book for
the same arguments). ``minichess book VARIANT --build`` runs it.

>>> from minichess import Board
>>> book = build_book("csc111", plies=2, depth=3)
>>> len(book) == 1 + len(Board("csc111").legal_moves)  # the start, Black's answers to each
True
>>> book.move(Board("csc111")) in Board("csc111").legal_moves
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from minichess.board import Board
from minichess.errors import MinichessError
from minichess.move import Move
from minichess.pieces import BLACK, WHITE, Color
from minichess.variants import VariantDefinition, get_variant

if TYPE_CHECKING:
    from minichess.match.pool import Pool

BOOKS_DIR = Path(__file__).with_name("books")
"""Where the shipped books live, one ``<variant>.json`` each."""
NO_BOOK = "none"
"""A player spec's ``book`` for playing without the variant's book."""


@dataclass(frozen=True)
class BookEntry:
    """A book's move for a position (UCI), with the search that chose it: its ``depth`` and
    its score for the side to move (``score`` in centipawns, or ``mate`` in moves)."""

    move: str
    depth: int
    score: int | None = None
    mate: int | None = None


def position_key(board: Board) -> str:
    """A position's key in a book: its FEN without the move counters."""
    return " ".join(board.fen().split()[:-2])


class OpeningBook:
    """The moves of a ``variant``'s opening book by position key, and ``about``: how it was
    built."""

    def __init__(self, variant: str | VariantDefinition,
                 entries: dict[str, BookEntry] | None = None,
                 about: dict[str, Any] | None = None) -> None:
        self.variant = get_variant(variant)
        self.entries = dict(entries or {})
        self.about = dict(about or {})

    def __len__(self) -> int:
        return len(self.entries)

    def probe(self, board: Board) -> tuple[BookEntry, Move] | None:
        """The book's entry for ``board`` and its move, if it has one and the move is legal
        there."""
        if board.variant.name != self.variant.name:
            return None
        entry = self.entries.get(position_key(board))
        if entry is None:
            return None
        try:
            move = board.parse_uci(entry.move)
        except MinichessError:
            return None
        return (entry, move) if move in board.legal_moves else None

    def entry(self, board: Board) -> BookEntry | None:
        """The book's entry for ``board``, if it has one and its move is legal there."""
        found = self.probe(board)
        return None if found is None else found[0]

    def move(self, board: Board) -> Move | None:
        """The book's move for ``board``, or None when the position is not in the book."""
        found = self.probe(board)
        return None if found is None else found[1]

    def save(self, path: str | Path) -> None:
        """Write the book as JSON, a line per position in key order (a rebuilt book diffs
        cleanly)."""
        head = json.dumps({"variant": self.variant.name, "about": self.about})[:-1]
        lines = [f"{json.dumps(key)}: {json.dumps(_entry_data(self.entries[key]))}"
                 for key in sorted(self.entries)]
        text = f'{head}, "positions": {{\n' + ",\n".join(lines) + "\n}}\n"
        Path(path).write_text(text, encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> OpeningBook:
        """The book in a file as :meth:`save` writes it; raises MinichessError for a file that
        does not hold one."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            entries = {key: BookEntry(**value) for key, value in data["positions"].items()}
            return cls(data["variant"], entries, data.get("about"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise MinichessError(f"{path}: not an opening book ({error})") from None


def _entry_data(entry: BookEntry) -> dict[str, Any]:
    return {name: value for name, value in asdict(entry).items() if value is not None}


@cache
def variant_book(variant: str) -> OpeningBook:
    """The book shipped for ``variant`` (an empty one where there is none)."""
    path = BOOKS_DIR / f"{get_variant(variant).name}.json"
    return OpeningBook.load(path) if path.exists() else OpeningBook(variant)


def build_book(variant: str | VariantDefinition, plies: int, depth: int,
               concurrency: int | None = None,
               on_search: Callable[[int, int], None] | None = None) -> OpeningBook:
    """A book of ``variant`` for both colours, ``plies`` plies deep, each move searched to
    ``depth`` (see the module's documentation). ``concurrency`` worker processes search at
    once (default: one per core); ``on_search(done, total)`` follows the searches of each ply."""
    from minichess.match.pool import open_pool  # the match package imports the engine

    variant = get_variant(variant)
    start = Board(variant)
    layer: dict[str, tuple[Board, frozenset[Color]]] = {
        position_key(start): (start, frozenset((WHITE, BLACK)))}
    entries: dict[str, BookEntry] = {}
    with open_pool(concurrency) as pool:
        for ply in range(plies):
            wanted = {key: board for key, (board, sides) in layer.items()
                      if board.turn in sides and key not in entries
                      and not board.is_game_over()}
            entries.update(_search_all(pool, variant.name, wanted, depth, on_search))
            if ply + 1 < plies:
                layer = _next_layer(layer, entries)
    about = {"plies": plies, "depth": depth,
             "command": f"minichess book --variant {variant.name} --build --plies {plies}"
                        f" --depth {depth}"}
    return OpeningBook(variant, entries, about)


def _next_layer(layer: dict[str, tuple[Board, frozenset[Color]]],
                entries: dict[str, BookEntry]) -> dict[str, tuple[Board, frozenset[Color]]]:
    """The positions one ply on: where the book's side is to move, after its book move; where
    the other side is, after each of its moves. Each keeps the sides whose book reaches it."""
    following: dict[str, tuple[Board, frozenset[Color]]] = {}
    for key, (board, sides) in layer.items():
        if board.is_game_over():
            continue
        for side in sides:
            if board.turn == side:
                moves = [board.parse_uci(entries[key].move)]
            else:
                moves = board.legal_moves
            for move in moves:
                after = board.copy(stack=False)
                after.push(move)
                after_key = position_key(after)
                known = following.get(after_key, (after, frozenset()))
                following[after_key] = (known[0], known[1] | {side})
    return following


def _search_all(pool: Pool, variant: str, boards: dict[str, Board], depth: int,
                on_search: Callable[[int, int], None] | None) -> dict[str, BookEntry]:
    """The entries of ``boards`` (by key), searched in the workers of ``pool``."""
    tasks = [(variant, key, board.fen(), depth) for key, board in boards.items()]
    entries = {}
    for key, entry in pool.results(_search, tasks):
        entries[key] = entry
        if on_search is not None:
            on_search(len(entries), len(tasks))
    return entries


def _search(task: tuple[str, str, str, int]) -> tuple[str, BookEntry]:
    """The key and book entry of one position: ``(variant, key, FEN, depth)``."""
    from minichess.engine.engine import Engine, Limit  # the engine imports this module

    variant, key, fen, depth = task
    engine = Engine(seed=0, hash_mb=64)
    info = engine.analyse(Board(variant, fen), Limit(depth=depth))
    return key, BookEntry(info.pv[0].uci(), info.depth, info.score, info.mate)
