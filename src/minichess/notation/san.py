"""Standard Algebraic Notation (SAN) for every variant: ``Nc3``, ``bxc4``, ``d6=Q``, ``Q@d6``.

As in chess: the piece letter (none for a pawn), the origin's file, rank or both only when
another piece of the same type could go to the same square, ``x`` for a capture (a pawn capture
names the pawn's file), the destination and ``=Q`` for a promotion. A drop is ``Q@d6``. Only in
variants whose king is royal with check rules (``Royalty.CHECK``) does a move that checkmates end
in ``#`` and one that gives check in ``+``.

Reading is lenient: a missing or superfluous ``x``, ``+`` or ``#``, annotations ``!`` and ``?``,
a promotion with or without ``=`` and lower-case drop letters are all accepted.

The functions take any board with the few methods of :class:`SanBoard` (a
:class:`minichess.Board` has them), so this module does not depend on the Board, which offers
them as ``Board.san`` and ``Board.parse_san``.
"""

from __future__ import annotations

import re
from typing import Protocol

from minichess.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from minichess.move import Move
from minichess.outcome import Outcome, Termination
from minichess.pieces import (
    PAWN,
    PIECE_NAMES,
    PIECE_SYMBOLS,
    Color,
    Piece,
    PieceType,
    color_name,
    piece_type_from_symbol,
)
from minichess.squares import (
    FILE_NAMES,
    Square,
    parse_square,
    square_file,
    square_name,
    square_rank,
)
from minichess.variants.definition import Royalty, VariantDefinition

_PIECE_MOVE = re.compile(
    r"^(?P<piece>[PNBRQK])?(?P<file>[a-h])?(?P<rank>[1-8])?x?(?P<target>[a-h][1-8])"
    r"(?:=?(?P<promotion>[NBRQnbrq]))?$"
)
_DROP = re.compile(r"^(?P<piece>[NBRQnbrq])@(?P<target>[a-h][1-8])$")
_ANNOTATIONS = "+#!?"


class SanBoard(Protocol):
    """What writing and reading SAN needs of a board."""

    @property
    def variant(self) -> VariantDefinition:
        """The variant played."""

    @property
    def turn(self) -> Color:
        """The side to move."""

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves."""

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on ``sq``."""

    def push(self, move: Move) -> None:
        """Play a legal move."""

    def pop(self) -> Move:
        """Take back the last move."""

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None."""

    def is_check(self) -> bool:
        """Whether the side to move is in check."""


def move_to_san(board: SanBoard, move: Move) -> str:
    """The legal ``move`` of ``board`` in SAN; raise IllegalMoveError for an illegal move."""
    suffix = _check_suffix(board, move)
    if move.drop:
        return f"{_letter(move.drop)}@{square_name(move.to_square)}" + suffix
    piece_type = _moving_type(board, move)
    capture = board.piece_at(move.to_square) is not None
    if piece_type == PAWN:
        origin = FILE_NAMES[square_file(move.from_square)] if capture else ""
    else:
        origin = _letter(piece_type) + _disambiguation(board, move, piece_type)
    text = origin + ("x" if capture else "") + square_name(move.to_square)
    if move.promotion:
        text += "=" + _letter(move.promotion)
    return text + suffix


def parse_san(board: SanBoard, text: str) -> Move:
    """The legal move of ``board`` written in SAN as ``text``.

    Raises InvalidMoveError for text that is no SAN, IllegalMoveError when no legal move fits
    (naming the legal moves of that piece type) and AmbiguousMoveError listing the candidates
    when several do.
    """
    cleaned = text.strip().rstrip(_ANNOTATIONS)
    drop = _DROP.match(cleaned)
    if drop:
        return _only_candidate(board, text, _drop_candidates(board, drop), "drop")
    match = _PIECE_MOVE.match(cleaned)
    if not match:
        raise InvalidMoveError(
            f"cannot read move {text!r}: expected SAN such as e4, Nc3, bxc4, d6=Q or Q@d6"
        )
    piece_type = piece_type_from_symbol(match["piece"] or "P")
    _check_piece_in_variant(board, text, piece_type)
    return _only_candidate(board, text, _move_candidates(board, match, piece_type),
                           PIECE_NAMES[piece_type], piece_type)


def _letter(piece_type: PieceType) -> str:
    return PIECE_SYMBOLS[piece_type].upper()


def _moving_type(board: SanBoard, move: Move) -> PieceType:
    piece = board.piece_at(move.from_square)
    assert piece is not None, "a legal move starts on a piece"
    return piece.piece_type


def _check_suffix(board: SanBoard, move: Move) -> str:
    """``#``, ``+`` or nothing; playing the move here also rejects an illegal one."""
    board.push(move)
    try:
        if board.variant.royalty != Royalty.CHECK:
            return ""
        outcome = board.outcome()
        if outcome is not None and outcome.termination == Termination.CHECKMATE:
            return "#"
        return "+" if board.is_check() else ""
    finally:
        board.pop()


def _disambiguation(board: SanBoard, move: Move, piece_type: PieceType) -> str:
    rivals = {
        other.from_square
        for other in board.legal_moves
        if not other.drop
        and other.to_square == move.to_square
        and other.from_square != move.from_square
        and _moving_type(board, other) == piece_type
    }
    if not rivals:
        return ""
    file_name, rank_name = tuple(square_name(move.from_square))
    if all(square_file(sq) != square_file(move.from_square) for sq in rivals):
        return file_name
    if all(square_rank(sq) != square_rank(move.from_square) for sq in rivals):
        return rank_name
    return file_name + rank_name


def _drop_candidates(board: SanBoard, match: re.Match[str]) -> list[Move]:
    piece_type = piece_type_from_symbol(match["piece"])
    target = parse_square(match["target"])
    return [m for m in board.legal_moves if m.drop == piece_type and m.to_square == target]


def _move_candidates(board: SanBoard, match: re.Match[str], piece_type: PieceType) -> list[Move]:
    target = parse_square(match["target"])
    promotion = piece_type_from_symbol(match["promotion"]) if match["promotion"] else None
    return [
        m
        for m in board.legal_moves
        if not m.drop
        and m.to_square == target
        and _moving_type(board, m) == piece_type
        and _origin_fits(m.from_square, match["file"], match["rank"])
        and (promotion is None or m.promotion == promotion)
    ]


def _origin_fits(origin: Square, file_name: str | None, rank_name: str | None) -> bool:
    file_fits = file_name is None or square_name(origin)[0] == file_name
    return file_fits and (rank_name is None or square_name(origin)[1] == rank_name)


def _check_piece_in_variant(board: SanBoard, text: str, piece_type: PieceType) -> None:
    if _letter(piece_type) not in board.variant.pieces:
        raise IllegalMoveError(
            f"{text.strip()}: {board.variant.name} has no {PIECE_NAMES[piece_type]}"
            f" (its pieces: {''.join(board.variant.pieces)})"
        )


def _only_candidate(board: SanBoard, text: str, candidates: list[Move], kind: str,
                    piece_type: PieceType | None = None) -> Move:
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        listed = ", ".join(move_to_san(board, m) for m in candidates)
        raise AmbiguousMoveError(f"{text.strip()} is ambiguous: it could be {listed}")
    raise IllegalMoveError(_why_no_move(board, text.strip(), kind, piece_type))


def _why_no_move(board: SanBoard, text: str, kind: str, piece_type: PieceType | None) -> str:
    outcome = board.outcome()
    if outcome is not None:
        return f"{text} is not possible: the game is over ({outcome})"
    if piece_type is None:
        same_kind = [m for m in board.legal_moves if m.drop]
    else:
        same_kind = [m for m in board.legal_moves
                     if not m.drop and _moving_type(board, m) == piece_type]
    side = color_name(board.turn)
    if not same_kind:
        return f"{text} is illegal: {side} has no legal {kind} move here"
    listed = ", ".join(move_to_san(board, m) for m in same_kind)
    return f"{text} is illegal; {side}'s legal {kind} moves: {listed}"
