"""``MinichessGame``: the CSC111 course library's game state, on the compiled core.

The course library (``a2_minichess.py``) keeps a 4x4 board as a list of rows of pieces and
finds the valid moves in Python; here the position is the core's array and the moves come from
the core's legal-move kernel, then are put in the course library's order (``_order_keys``), which
students' game trees and tie-breaks depend on.

>>> game = MinichessGame()
>>> game.get_valid_moves()
['a2b3', 'b2c3', 'b2a3', 'c2d3', 'c2b3', 'd2c3']
>>> game.make_move('a2b3')
>>> game.get_valid_moves()
['b4b3']
>>> game.make_move('a4d1')
Traceback (most recent call last):
ValueError: Move "a4d1" is not valid
>>> game.make_move('b4b3')
>>> game.get_fen()
'r1kr4/pqpp4/1PPP4/RQKR4'
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from minichess.board import Board
from minichess.core import layout as L
from minichess.core.arrays import new_position, new_undo_stack
from minichess.core.makemove import make_move as core_make_move
from minichess.core.movegen import in_check
from minichess.core.rules import RuleKernels, rules_for
from minichess.core.tables import variant_tables
from minichess.pieces import BLACK, WHITE, Piece, color_name
from minichess.position import Setup, mailbox_placement
from minichess.squares import square, square_name
from minichess.variants import get_variant

VARIANT = get_variant("csc111")
SIZE = VARIANT.files
"""Files and ranks of the board."""
MAX_MOVES = VARIANT.move_limit
"""Plies after which the game is a draw (checked before anything else): 50."""
KINDS = "prqk"
"""The course library's piece kinds: pawn, rook, queen, king."""

_TABLES = variant_tables(VARIANT)
_SQUARES = tuple(square(file, rank) for rank in range(SIZE) for file in range(SIZE))
"""a1, b1, c1, d1, a2, ... d4: the order in which the course library scans the board."""
_MOVE_TEXT = [square_name(code & 63) + square_name(code >> 6) for code in range(64 * 64)]
"""The course library's text (``'a2b3'``) of each core move code (csc111 has no promotions)."""
_MOVE_CODE = {text: code for code, text in enumerate(_MOVE_TEXT)}


class _Piece:
    """A piece as the course library represents it: ``kind`` one of ``'prqk'`` (pawn, rook,
    queen, king) and ``is_white``. Boards given to :class:`MinichessGame` may hold these, or
    any object with those two attributes, or FEN letters (``'P'``, ``'k'``)."""

    def __init__(self, kind: str, is_white: bool) -> None:
        self.kind = kind
        self.is_white = is_white

    def fen(self) -> str:
        """The piece's FEN letter: upper case for White."""
        return self.kind.upper() if self.is_white else self.kind

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"_Piece({self.kind!r}, {self.is_white!r})"


CourseBoard = list[list[Any]]
"""A board as the course library passes it: rows from rank 1 (White's side) to rank 4, each
from file a to d; an entry is None for an empty square, or a piece."""


def _course_steps(kind: str, is_white: bool) -> list[tuple[tuple[int, int], int]]:
    """The course library's order of ``kind``'s directions, each (file step, rank step) with
    how far the piece may go (1 for a step, SIZE for a slide)."""
    rook = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    if kind == "p":
        forward = 1 if is_white else -1
        return [((0, forward), 1), ((1, forward), 1), ((-1, forward), 1)]
    if kind == "r":
        return [(step, SIZE) for step in rook]
    if kind == "q":
        diagonals = [(-1, -1), (1, -1), (-1, 1), (1, 1)]  # by rank, then by file
        return [(step, SIZE) for step in rook + diagonals]
    return [((df, dr), 1) for dr in (-1, 0, 1) for df in (-1, 0, 1) if (df, dr) != (0, 0)]


@cache
def _order_keys() -> list[int]:
    """``keys[piece_code << 12 | move_code]``: where the move stands in the course library's
    list, as ``origin square * 64 + its place among the piece's moves``.

    The course lists the moves square by square (a1, b1, ..., d4; square numbers grow in that
    order), each piece's moves direction by direction, nearest square first along a ray."""
    keys = [0] * (16 << 12)
    for kind in KINDS:
        for is_white in (True, False):
            code = Piece.from_symbol(kind.upper() if is_white else kind).code
            for origin in _SQUARES:
                place = 0
                for (df, dr), reach in _course_steps(kind, is_white):
                    file, rank = origin & 7, origin >> 3
                    for _ in range(reach):
                        file, rank = file + df, rank + dr
                        if not (0 <= file < SIZE and 0 <= rank < SIZE):
                            break
                        keys[code << 12 | origin | square(file, rank) << 6] = origin * 64 + place
                        place += 1
    return keys


@cache
def _rules() -> RuleKernels:
    """The compiled rules of csc111 (compiled, or loaded from the cache, on first use)."""
    return rules_for(_TABLES)


class _Scratch(threading.local):
    """Per-thread buffers the kernels write into: a move list and an undo row."""

    def __init__(self) -> None:
        self.moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        self.undo = new_undo_stack(2)


_scratch = _Scratch()


class MinichessGame:
    """A state of a game of the CSC111 course's 4x4 Minichess, with the course library's
    interface and answers (its valid moves in its order, its errors and its winner rules).

    ``board`` is a :data:`CourseBoard` (rows from rank 1, as the course library keeps it; the
    start position when None); ``white_active`` says whose move it is and ``move_count`` how
    many plies have been played (the game is a draw once it reaches 50). A board the core
    cannot represent raises ValueError: more than one king of a colour, a kind outside
    ``'prqk'``, or the side that has just moved left in check (the course library stops there
    with an AssertionError).
    """

    __slots__ = ("_codes", "_move_count", "_moves", "_pos")

    def __init__(self, board: CourseBoard | None = None, white_active: bool = True,
                 move_count: int = 0) -> None:
        placement = _start_placement() if board is None else _placement(board)
        self._pos = new_position(_TABLES, placement, 0 if white_active else 1, ply=move_count)
        self._move_count = move_count
        self._moves: list[str] | None = None
        self._codes: list[int] = []
        if in_check(self._pos, _TABLES, 1 if white_active else 0):
            side = color_name(not white_active)
            raise ValueError(f"{side}'s king is in check, but it is not {side}'s move")

    @classmethod
    def _from_position(cls, pos: np.ndarray, move_count: int) -> MinichessGame:
        game = cls.__new__(cls)
        game._pos = pos
        game._move_count = move_count
        game._moves = None
        game._codes = []
        return game

    # --- the course library's interface -------------------------------------------------------

    def get_valid_moves(self) -> list[str]:
        """The valid moves of the side to move, as ``'a2b3'``, in the course library's order
        (also after the game has ended: ``get_winner`` says whether it has).

        As in the course library, this is the game's own list, not a copy: code that sorts or
        shuffles it changes the order later calls return, and a move removed from it is no
        longer accepted by ``make_move``."""
        return self._valid_moves

    def make_move(self, move: str) -> None:
        """Play ``move``; raise ``ValueError('Move "<move>" is not valid')`` and change nothing
        when it is not one of the valid moves."""
        core_make_move(self._pos, _TABLES, self._code(move), _scratch.undo, 0)
        self._move_count += 1
        self._moves = None

    def copy_and_make_move(self, move: str) -> MinichessGame:
        """A new game in the state after ``move``; this one is unchanged. Raises ValueError
        like :meth:`make_move` when ``move`` is not valid."""
        code = self._code(move)
        pos = self._pos.copy()
        core_make_move(pos, _TABLES, code, _scratch.undo, 0)
        return MinichessGame._from_position(pos, self._move_count + 1)

    def is_white_move(self) -> bool:
        """Whether White is to move."""
        return bool(self._pos[L.STM] == 0)

    def get_winner(self) -> str | None:
        """``'Draw'`` once 50 plies have been played (even if the last one mated), else
        ``'White'`` or ``'Black'`` when the side to move has no valid move (it loses, mated or
        not), else None while the game goes on."""
        if self._move_count >= MAX_MOVES:
            return "Draw"
        if not self._valid_moves:
            return "Black" if self.is_white_move() else "White"
        return None

    def get_fen(self) -> str:
        """The board as the ranks 4 to 1 of an 8-wide chess FEN, as the course library writes
        it (each empty square a ``1``, the four squares right of the board ``4``):
        ``'rqkr4/pppp4/PPPP4/RQKR4'``; nothing else (no side to move)."""
        rows = []
        mailbox = self._mailbox()
        for rank in reversed(range(SIZE)):
            row = [mailbox[square(file, rank)] for file in range(SIZE)]
            rows.append("".join(Piece.from_code(code).symbol() if code else "1" for code in row)
                        + "4")
        return "/".join(rows)

    def get_url(self) -> str:
        """A lichess analysis board of the position (its board on the lower left of an 8x8
        board), the course library's link."""
        return "https://lichess.org/analysis/standard/8/8/8/8/" + self.get_fen()

    # --- beyond the course library ------------------------------------------------------------

    def to_board(self) -> Board:
        """The position as a :class:`minichess.Board` of csc111 (for the engine, SAN, PGN and
        the rest of the toolkit). Its move counters come from ``move_count``; the board is
        not validated, so a course board without kings also converts."""
        turn = WHITE if self.is_white_move() else BLACK
        board = Board(VARIANT)
        board.set_setup(Setup(mailbox_placement(self._mailbox()), turn,
                              fullmove_number=self._move_count // 2 + 1))
        return board

    # The course library's private attributes, read-only, for code that reads them anyway
    # (``_move_count`` is an attribute here too).

    @property
    def _board(self) -> CourseBoard:
        """The board as the course library keeps it: a new list of rows of ``_Piece`` (rank 1
        first)."""
        mailbox = self._mailbox()
        return [[_course_piece(mailbox[square(file, rank)]) for file in range(SIZE)]
                for rank in range(SIZE)]

    @property
    def _is_white_active(self) -> bool:
        return self.is_white_move()

    @property
    def _valid_moves(self) -> list[str]:
        """The valid moves (computed once per position): the core's legal moves sorted into
        the course library's order."""
        if self._moves is None:
            scratch = _scratch
            n = _rules().legal_moves(self._pos, _TABLES, scratch.moves, scratch.undo, 0, False)
            codes = scratch.moves[:n].tolist()
            mailbox = self._mailbox()
            keys = _order_keys()
            codes.sort(key=lambda code: keys[mailbox[code & 63] << 12 | code])
            self._codes = codes
            self._moves = [_MOVE_TEXT[code] for code in codes]
        return self._moves

    def __repr__(self) -> str:
        side = "White" if self.is_white_move() else "Black"
        return f"<MinichessGame {self.get_fen()} {side} to move, {self._move_count} moves made>"

    # --- inside -------------------------------------------------------------------------------

    def _code(self, move: str) -> int:
        """The core move code of ``move``, if it is in the list of valid moves (which the
        caller may have changed) and legal; else ValueError."""
        listed = move in self._valid_moves  # computes the moves (and codes) if need be
        code = _MOVE_CODE.get(move) if isinstance(move, str) else None
        if not listed or code is None or code not in self._codes:
            raise ValueError(f'Move "{move}" is not valid')
        return code

    def _mailbox(self) -> list[int]:
        """Piece codes by square number (a1 = 0, a2 = 8, ... d4 = 27)."""
        return self._pos[L.MAILBOX:L.MAILBOX + 8 * SIZE].tolist()


def _course_piece(code: int) -> _Piece | None:
    if not code:
        return None
    piece = Piece.from_code(code)
    return _Piece(piece.symbol().lower(), piece.color == WHITE)


@cache
def _start_placement() -> dict[int, int]:
    setup = Board(VARIANT).setup()
    return {sq: piece.code for sq, piece in setup.placement.items()}


def _placement(board: Sequence[Sequence[Any]]) -> dict[int, int]:
    """The core's placement (square -> piece code) of a course board; ValueError saying what
    is wrong when it is none."""
    rows = list(board)
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("board must be 4 rows (rank 1 first) of 4 squares (file a first)")
    placement = {}
    kings = {WHITE: 0, BLACK: 0}
    for sq, entry in zip(_SQUARES, itertools.chain(*rows), strict=True):
        piece = _piece_of(entry, sq)
        if piece is None:
            continue
        placement[sq] = piece.code
        if piece.symbol().lower() == "k":
            kings[piece.color] += 1
    for colour, count in kings.items():
        if count > 1:
            raise ValueError(f"{color_name(colour)} has {count} kings; a board may have one")
    return placement


def _piece_of(entry: Any, sq: int) -> Piece | None:
    """The piece of a board entry: None, ``'.'`` or ``''`` for an empty square, a FEN letter,
    or an object with ``kind`` and ``is_white``."""
    if entry is None or entry in (".", ""):
        return None
    if isinstance(entry, str):
        letter = entry
    elif hasattr(entry, "kind") and hasattr(entry, "is_white"):
        kind = str(entry.kind).lower()
        letter = kind.upper() if entry.is_white else kind
    else:
        raise ValueError(f"{square_name(sq)}: {entry!r} is not a piece (a _Piece, a letter or"
                         " None)")
    if len(letter) != 1 or letter.lower() not in KINDS:
        raise ValueError(f"{square_name(sq)}: {entry!r} is not a piece of this game (kinds"
                         f" {', '.join(KINDS)}; letters {KINDS.upper()}{KINDS})")
    return Piece.from_symbol(letter)


__all__ = ["MAX_MOVES", "CourseBoard", "MinichessGame", "_Piece"]
