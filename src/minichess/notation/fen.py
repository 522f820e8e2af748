"""FEN in the Fairy-Stockfish convention, so positions pass unchanged to pyffish.

``kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1``; a variant with reserves puts them in brackets after
the board, White's first in the order QRBN: ``.../RNQKBR[Qn] w - - 0 12``.
"""

from __future__ import annotations

from minichess.errors import InvalidFenError
from minichess.pieces import BISHOP, BLACK, KNIGHT, QUEEN, ROOK, WHITE, Piece
from minichess.position import Setup, validate_setup
from minichess.squares import square
from minichess.variants.definition import VariantDefinition

RESERVE_ORDER = tuple(Piece(t, c) for c in (WHITE, BLACK) for t in (QUEEN, ROOK, BISHOP, KNIGHT))


def parse_fen(variant: VariantDefinition, fen: str) -> Setup:
    """Read a FEN of ``variant``; raise InvalidFenError saying what is wrong and where."""
    fields = fen.split()
    if not fields:
        raise InvalidFenError("empty FEN")
    if len(fields) not in (2, 4, 6):
        raise InvalidFenError(
            f"FEN has {len(fields)} fields; expected board, side, castling, en passant,"
            " halfmove clock and fullmove number"
        )
    board_text, reserve_text = _split_reserves(fields[0])
    setup = Setup(placement=_parse_board(variant, board_text))
    if reserve_text is not None:
        if not variant.has_reserves:
            raise InvalidFenError(f"{variant.name} has no reserves, but the FEN gives one")
        setup.reserves = parse_reserves(reserve_text)
    side = fields[1]
    if side not in ("w", "b"):
        raise InvalidFenError(f"side to move must be 'w' or 'b', not {side!r}")
    setup.turn = WHITE if side == "w" else BLACK
    if len(fields) >= 4:
        for name, value in (("castling", fields[2]), ("en passant", fields[3])):
            if value != "-":
                raise InvalidFenError(
                    f"{name} field must be '-' (no variant here has {name}), not {value!r}"
                )
    if len(fields) == 6:
        setup.halfmove_clock = _parse_counter("halfmove clock", fields[4])
        setup.fullmove_number = _parse_counter("fullmove number", fields[5])
    validate_setup(variant, setup)
    return setup


def format_fen(variant: VariantDefinition, setup: Setup) -> str:
    """Write ``setup`` as a FEN of ``variant``."""
    rows = []
    for rank in reversed(range(variant.ranks)):
        row, empty = "", 0
        for file in range(variant.files):
            piece = setup.placement.get(square(file, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece.symbol()
        rows.append(row + (str(empty) if empty else ""))
    board = "/".join(rows)
    if variant.has_reserves:
        board += format_reserves(setup)
    side = "w" if setup.turn == WHITE else "b"
    return f"{board} {side} - - {setup.halfmove_clock} {setup.fullmove_number}"


def _split_reserves(text: str) -> tuple[str, str | None]:
    if "[" not in text:
        if "]" in text:
            raise InvalidFenError("reserve has ']' without '['")
        return text, None
    board, _, rest = text.partition("[")
    if not rest.endswith("]") or "[" in rest or "]" in rest[:-1]:
        raise InvalidFenError(f"reserve {'[' + rest!r} must be letters in brackets, e.g. [Qn]")
    return board, rest[:-1]


def _parse_board(variant: VariantDefinition, text: str) -> dict:
    rows = text.split("/")
    if len(rows) != variant.ranks:
        raise InvalidFenError(
            f"board has {len(rows)} ranks; {variant.name} has {variant.ranks}"
        )
    placement = {}
    for i, row in enumerate(rows):
        rank = variant.ranks - 1 - i
        file = 0
        digits = ""
        for char in row + " ":
            if char.isdigit():
                digits += char
                continue
            if digits:
                if digits.startswith("0"):
                    raise InvalidFenError(f"rank {rank + 1}: {digits!r} is not a count of squares")
                file += int(digits)
                digits = ""
            if char == " ":
                break
            try:
                piece = Piece.from_symbol(char)
            except ValueError:
                raise InvalidFenError(
                    f"rank {rank + 1}: {char!r} is not a piece letter (PNBRQK, pnbrqk)"
                ) from None
            if file < variant.files:
                placement[square(file, rank)] = piece
            file += 1
        if file != variant.files:
            raise InvalidFenError(
                f"rank {rank + 1} ({row!r}) has {file} squares; {variant.name} has"
                f" {variant.files} files"
            )
    return placement


def format_reserves(setup: Setup) -> str:
    """The reserves of ``setup`` in brackets, White's first in the order QRBN: ``[Qn]``."""
    return "[" + "".join(p.symbol() * setup.reserves.get(p, 0) for p in RESERVE_ORDER) + "]"


def parse_reserves(text: str) -> dict[Piece, int]:
    """The reserve pieces written between the brackets (``Qn``), in any order."""
    reserves: dict[Piece, int] = {}
    for char in text:
        try:
            piece = Piece.from_symbol(char)
        except ValueError:
            raise InvalidFenError(f"reserve: {char!r} is not a piece letter") from None
        reserves[piece] = reserves.get(piece, 0) + 1
    return reserves


def _parse_counter(name: str, text: str) -> int:
    if not text.isdigit():
        raise InvalidFenError(f"{name} must be a whole number, not {text!r}")
    return int(text)
