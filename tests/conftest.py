"""Shared fixtures: boards built from a short list of pieces instead of a hand-written FEN."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import pytest

from minichess.board import Board
from minichess.engine.endgame import DIRECTORY_VARIABLE
from minichess.notation.fen import format_fen
from minichess.pieces import BLACK, WHITE, Piece
from minichess.position import Setup
from minichess.squares import parse_square
from minichess.variants import get_variant

BoardFactory = Callable[..., Board]

# The engine reads the endgame tables built on this machine; the tests' searches must not
# depend on what was built, so they look in an empty directory of their own.
os.environ[DIRECTORY_VARIABLE] = tempfile.mkdtemp(prefix="minichess-endgame-")


def board_from_pieces(
    variant: str,
    pieces: str,
    turn: str = "w",
    reserve: str = "",
    halfmove_clock: int = 0,
    fullmove_number: int = 1,
) -> Board:
    """A board of ``variant`` with ``pieces`` such as ``"Kd5 ka1 Pf2"`` (upper case White).

    ``reserve`` lists reserve pieces as in a FEN (``"QRbn"``). The position is written as FEN and
    read back, so it goes through the same validation as any FEN.
    """
    placement = {parse_square(token[1:]): Piece.from_symbol(token[0]) for token in pieces.split()}
    reserves: dict[Piece, int] = {}
    for letter in reserve:
        piece = Piece.from_symbol(letter)
        reserves[piece] = reserves.get(piece, 0) + 1
    setup = Setup(placement, WHITE if turn == "w" else BLACK, reserves, halfmove_clock,
                  fullmove_number)
    return Board(variant, format_fen(get_variant(variant), setup))


@pytest.fixture
def place() -> BoardFactory:
    """``place(variant, "Kd5 ka1 Pf2", turn="w", reserve="", halfmove_clock=0,
    fullmove_number=1)``: a board with just those pieces."""
    return board_from_pieces


def targets(board: Board, from_square: str) -> set[str]:
    """Target squares of the legal moves of the piece on ``from_square`` (promotions merged)."""
    origin = parse_square(from_square)
    return {m.uci()[2:4] for m in board.legal_moves if m.from_square == origin and not m.drop}


@pytest.fixture
def targets_of() -> Callable[[Board, str], set[str]]:
    """``targets_of(board, "c3")``: the set of squares the piece on c3 may move to."""
    return targets


def ucis(board: Board) -> set[str]:
    """The legal moves of ``board`` in coordinate notation."""
    return {m.uci() for m in board.legal_moves}


@pytest.fixture
def legal() -> Callable[[Board], set[str]]:
    """``legal(board)``: the set of legal moves written ``a2a3`` / ``Q@d6``."""
    return ucis
