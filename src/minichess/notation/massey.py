"""Bart Massey's state text for MiniChess positions (the IMCS and course format).

The first line is the move number and the side to move, then one line per rank from the top,
``.`` for an empty square::

    20 B
    k.K..
    rpP..
    pP...
    P....
    .....
    .....

The move number is the fullmove number (starts at 1, goes up after Black's move). A row is as
wide as the board, so the text works for every variant; one with reserves (chess36) adds a last
line with the reserves as a FEN writes them, ``[Qn]`` (``[]`` when both are empty): an extension
of this project, as Massey's text knows no reserves. The text has no halfmove clock, so a
position read from it has a halfmove clock of 0. Every line ends with a newline.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from minichess.errors import InvalidFenError
from minichess.notation.fen import format_reserves, parse_reserves
from minichess.pieces import BLACK, WHITE, Piece
from minichess.position import Setup, validate_setup
from minichess.squares import Square, square
from minichess.variants import VariantDefinition, get_variant

if TYPE_CHECKING:
    from minichess.board import Board

_HEADER = re.compile(r"^(\d+)\s+([WBwb])$")
_SIDES = {"W": WHITE, "B": BLACK}


def parse_state(variant: str | VariantDefinition, text: str) -> Setup:
    """Read Massey's state text of a ``variant`` position; raise InvalidFenError saying which
    line is wrong and how."""
    variant = get_variant(variant)
    lines = [line.rstrip() for line in text.rstrip().split("\n")]
    expected = variant.ranks + 1 + variant.has_reserves
    if len(lines) != expected:
        reserves = ", then the reserves ([Qn])" if variant.has_reserves else ""
        raise InvalidFenError(
            f"state text has {len(lines)} lines; a {variant.name} state has {expected}"
            f" (move number and side, then {variant.ranks} rows{reserves})"
        )
    header = _HEADER.match(lines[0].strip())
    if not header:
        raise InvalidFenError(
            f"line 1: expected the move number and side to move, e.g. '1 W', not {lines[0]!r}"
        )
    placement: dict[Square, Piece] = {}
    for line_number, row in enumerate(lines[1 : variant.ranks + 1], start=2):
        placement.update(_parse_row(variant, row, line_number))
    setup = Setup(placement, turn=_SIDES[header[2].upper()], fullmove_number=int(header[1]))
    if variant.has_reserves:
        setup.reserves = _parse_reserve_line(lines[-1], len(lines))
    validate_setup(variant, setup)
    return setup


def format_state(board: Board) -> str:
    """The position of ``board`` as Massey's state text (every line ends with a newline)."""
    variant = board.variant
    lines = [f"{board.fullmove_number} {'W' if board.turn == WHITE else 'B'}"]
    for rank in reversed(range(variant.ranks)):
        pieces = (board.piece_at(square(file, rank)) for file in range(variant.files))
        lines.append("".join(piece.symbol() if piece else "." for piece in pieces))
    if variant.has_reserves:
        lines.append(format_reserves(board.setup()))
    return "\n".join(lines) + "\n"


def _parse_reserve_line(line: str, line_number: int) -> dict[Piece, int]:
    if not (line.startswith("[") and line.endswith("]")):
        raise InvalidFenError(
            f"line {line_number}: expected the reserves in brackets, e.g. [Qn] or [], not {line!r}"
        )
    return parse_reserves(line[1:-1])


def _parse_row(variant: VariantDefinition, row: str, line_number: int) -> dict[Square, Piece]:
    if len(row) != variant.files:
        raise InvalidFenError(
            f"line {line_number}: row {row!r} has {len(row)} squares; {variant.name} has"
            f" {variant.files} files"
        )
    rank = variant.ranks - (line_number - 1)
    placement = {}
    for file, char in enumerate(row):
        if char == ".":
            continue
        try:
            placement[square(file, rank)] = Piece.from_symbol(char)
        except ValueError:
            raise InvalidFenError(
                f"line {line_number}, column {file + 1}: {char!r} is neither a piece letter"
                " (PNBRQK, pnbrqk) nor '.'"
            ) from None
    return placement
