"""Moves: a piece from one square to another, possibly promoting, or a drop from the reserve."""

from __future__ import annotations

import re
from dataclasses import dataclass

from minichess.core import layout
from minichess.errors import InvalidMoveError
from minichess.pieces import PIECE_SYMBOLS, QUEEN, PieceType, piece_type_from_symbol
from minichess.squares import Square, parse_square, square_name

_COORDINATE = re.compile(r"^([a-h][1-8])-?([a-h][1-8])(?:=?([nbrqkNBRQK]))?$")
_DROP = re.compile(r"^([nbrqNBRQ])@([a-h][1-8])$")


@dataclass(frozen=True)
class Move:
    """A move. For a drop, ``drop`` is the piece type and ``from_square == to_square``."""

    from_square: Square
    to_square: Square
    promotion: PieceType | None = None
    drop: PieceType | None = None

    def uci(self) -> str:
        """The move in the project's notation: ``a2a3``, ``a5a6q``, ``Q@d6``."""
        if self.drop:
            return f"{PIECE_SYMBOLS[self.drop].upper()}@{square_name(self.to_square)}"
        text = square_name(self.from_square) + square_name(self.to_square)
        return text + PIECE_SYMBOLS[self.promotion] if self.promotion else text

    def imcs(self) -> str:
        """The move as the Internet MiniChess Server writes it: ``a2-a3``.

        A promotion to a queen has no letter there (the minichess variants know no other)."""
        if self.drop:
            return self.uci()
        text = f"{square_name(self.from_square)}-{square_name(self.to_square)}"
        if self.promotion and self.promotion != QUEEN:
            text += PIECE_SYMBOLS[self.promotion]
        return text

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse ``a2a3``, ``a2-a3``, ``a5a6q`` (or ``a5a6=Q``), ``Q@d6`` or ``q@d6``.

        Only the form is checked here; whether the squares exist and the move is legal is the
        board's business (``Board.parse_uci``)."""
        stripped = text.strip()
        match = _COORDINATE.match(stripped)
        if match:
            origin, target, promotion = match.groups()
            return cls(
                parse_square(origin),
                parse_square(target),
                piece_type_from_symbol(promotion) if promotion else None,
            )
        match = _DROP.match(stripped)
        if match:
            target = parse_square(match.group(2))
            return cls(target, target, drop=piece_type_from_symbol(match.group(1)))
        raise InvalidMoveError(
            f"cannot read move {text!r}: expected a2a3, a2-a3, a5a6q or a drop such as Q@d6"
        )

    @property
    def code(self) -> int:
        """The compiled core's move code."""
        if self.drop:
            return self.to_square | self.to_square << 6 | self.drop << 12 | layout.DROP
        return self.from_square | self.to_square << 6 | (self.promotion or 0) << 12

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of a core move code."""
        code = int(code)
        kind = (code >> 12) & 7
        if code & layout.DROP:
            return cls((code >> 6) & 63, (code >> 6) & 63, drop=kind)
        return cls(code & 63, (code >> 6) & 63, kind or None)

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"
