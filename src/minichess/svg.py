"""SVG pictures of positions of any variant, in the style of python-chess's ``chess.svg``.

>>> import minichess, minichess.svg
>>> board = minichess.Board("csc111")
>>> board.push_uci("b2a3")
Move.from_uci('b2a3')
>>> picture = minichess.svg.board(board, lastmove=board.peek(), size=240)
>>> picture.startswith("<svg")
True

The piece figures are this project's own drawings (MIT, like the code), in a 45 x 45 box; the
web app draws its board with the same figures (:func:`piece_figures`). Every piece on the board
is a ``<g class="piece" data-square="e1" data-piece="K">``, so a picture can be inspected as
well as looked at.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import quoteattr

from minichess.board import Board
from minichess.move import Move
from minichess.pieces import BLACK, PIECE_NAMES, WHITE, Color, Piece
from minichess.squares import FILE_NAMES, Square, square, square_file, square_name, square_rank
from minichess.variants import Royalty

SQUARE_SIZE = 45
"""Side of a square in the picture's own units (its viewBox)."""
MARGIN = 20
"""Width of the border that carries the coordinates."""

COLORS = {
    "square light": "#f0d9b5",
    "square dark": "#b58863",
    "margin": "#4a3728",
    "coord": "#f0d9b5",
    "lastmove": "#cdd26a",
    "arrow green": "#15781b",
    "arrow red": "#882020",
    "arrow blue": "#003088",
    "arrow yellow": "#e68f00",
    "reserve": "#e8e0d0",
}
"""The default colours; pass ``colors={...}`` to override any of them."""

_BODY = 'fill="{fill}" stroke="{line}" stroke-width="1.5" stroke-linejoin="round"'
_DETAIL = 'fill="none" stroke="{detail}" stroke-width="1.5" stroke-linecap="round"'
_DOT = 'fill="{detail}" stroke="none"'
_BASE = '<rect x="9.5" y="36" width="26" height="4.5" rx="1.5" ' + _BODY + "/>"

_FIGURES = {
    "P": (
        '<path d="M22.5 8.5a4.6 4.6 0 0 0-3.4 7.7c-2.3 1.2-3.8 3.6-3.8 6.3 0 2.3 1 4.3 2.7 5.6'
        "-3.6 1.6-7.9 5.6-8.3 12.4h25.6c-.4-6.8-4.7-10.8-8.3-12.4 1.7-1.3 2.7-3.3 2.7-5.6"
        f' 0-2.7-1.5-5.1-3.8-6.3a4.6 4.6 0 0 0-3.4-7.7z" {_BODY}/>'
    ),
    "R": (
        f'<path d="M11 9h4.2v2.6h4.9V9h4.8v2.6h4.9V9H34v6.2l-3 2.8v12.5l2.6 3H11.4l2.6-3V18'
        f'l-3-2.8z" {_BODY}/>{_BASE}'
        f'<path d="M11.5 15.2h22M14.5 18h16M14.5 30.5h16" {_DETAIL}/>'
    ),
    "B": (
        f'<circle cx="22.5" cy="8.6" r="2.6" {_BODY}/>'
        '<path d="M22.5 11.4c-6 4.6-9.2 9.6-8.4 14 .4 2.2 1.6 3.9 2.9 5.1h11c1.3-1.2'
        f' 2.5-2.9 2.9-5.1.8-4.4-2.4-9.4-8.4-14z" {_BODY}/>'
        f'<path d="M15.5 30.5h14l1 5.5h-16z" {_BODY}/>{_BASE}'
        f'<path d="M25.6 17.4l-4.6 5.2M20 25h5M22.5 22.5v5" {_DETAIL}/>'
    ),
    "N": (
        '<path d="M12.5 40.5h22.6c.6-9.6-.9-19.7-6.4-26.2l.3-6.2-3.4 3.2-2.6-4.3-1.2 5.1'
        "c-5 1.3-8.6 5.5-11.1 10.4-.9 1.7-1.9 3.2-2.6 4.3-.9 1.5.3 3.4 2.1 3.2l2.4-.7"
        f'c1.3.9 2.9.6 3.8-.6 1.6-.2 3.3-1.1 4.6-2.5-.5 4.7-7.1 7.9-8.5 14.3z" {_BODY}/>'
        f'<circle cx="18.2" cy="15.9" r="1.5" {_DOT}/><circle cx="10.7" cy="24.7" r=".9"'
        f' {_DOT}/><path d="M30.8 38.6c.4-7.6-.7-15-4.4-20.4" {_DETAIL}/>'
    ),
    "Q": (
        '<path d="M11.5 36.5 9.3 15.2l6.2 10.7.9-13.4 4.8 12.6 1.3-14.2 1.3 14.2 4.8-12.6'
        f'.9 13.4 6.2-10.7-2.2 21.3z" {_BODY}/>'
        f'<circle cx="9.2" cy="13.4" r="2.2" {_BODY}/><circle cx="16.4" cy="10.7" r="2.2"'
        f' {_BODY}/><circle cx="22.5" cy="9.2" r="2.2" {_BODY}/><circle cx="28.6" cy="10.7"'
        f' r="2.2" {_BODY}/><circle cx="35.8" cy="13.4" r="2.2" {_BODY}/>{_BASE}'
        f'<path d="M12.2 31.5h20.6" {_DETAIL}/>'
    ),
    "K": (
        '<path d="M11.5 36.5c-4.6-6.1-4.9-14.2 1.2-16.2 4.3-1.4 8.2 1 9.8 4.9 1.6-3.9 5.5-6.3'
        f' 9.8-4.9 6.1 2 5.8 10.1 1.2 16.2z" {_BODY}/>'
        '<path d="M22.5 25.2c-1.9-3.5-3.4-6.7-3.4-9.3 0-2.1 1.5-3.4 3.4-4.7 1.9 1.3 3.4 2.6'
        f' 3.4 4.7 0 2.6-1.5 5.8-3.4 9.3z" {_BODY}/>{_BASE}'
        '<path d="M22.5 4v7.2M19 7.3h7" fill="none" stroke="{line}" stroke-width="1.8"'
        f' stroke-linecap="round"/><path d="M12.6 31.3h19.8" {_DETAIL}/>'
    ),
}
_INKS = {WHITE: {"fill": "#ffffff", "line": "#000000", "detail": "#000000"},
         BLACK: {"fill": "#1c1c1c", "line": "#000000", "detail": "#e6e6e6"}}


@dataclass(frozen=True)
class Arrow:
    """An arrow from ``tail`` to ``head`` (the same square: a circle round it)."""

    tail: Square
    head: Square
    color: str = "green"
    """``green``, ``red``, ``blue``, ``yellow`` or any SVG colour."""


def piece_figure(piece: Piece) -> str:
    """The SVG elements of ``piece``'s figure in a 45 x 45 box (no ``<svg>`` around them)."""
    return _FIGURES[piece.symbol().upper()].format(**_INKS[piece.color])


def piece_figures() -> dict[str, str]:
    """Every figure by its FEN letter (``"K"``, ``"k"``, ...), for drawing boards elsewhere."""
    return {Piece(t, c).symbol(): piece_figure(Piece(t, c))
            for c in (WHITE, BLACK) for t in range(1, 7)}


def piece(piece: Piece, size: int | None = None) -> str:
    """A picture of one piece.

    >>> piece(Piece.from_symbol("n"), size=45).count('data-piece="n"')
    1
    """
    width = f' width="{size}" height="{size}"' if size else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45"{width}>'
            f"{_piece_group(piece, 0, 0, 1.0, None)}</svg>")


def board(
    board: Board,
    *,
    orientation: Color = WHITE,
    lastmove: Move | None = None,
    check: Square | None = None,
    arrows: Iterable[Arrow | tuple[Square, Square]] = (),
    fill: Mapping[Square, str] | None = None,
    size: int | None = None,
    coordinates: bool = True,
    reserves: bool = True,
    colors: Mapping[str, str] | None = None,
) -> str:
    """The position of ``board`` as an SVG document.

    ``orientation``: the side at the bottom. ``lastmove`` is highlighted (its two squares, or the
    square of a drop), ``check`` marks a square in red (see :func:`check_square`), ``arrows`` are
    :class:`Arrow` or (tail, head) pairs, ``fill`` colours squares (``{E4: "#ff000080"}``).
    ``size``: width in pixels (the height follows the board's shape). ``coordinates``: file
    letters and rank numbers in a border. ``reserves``: where the variant has reserves (chess36),
    each side's reserve beside the board, the side to move's nearest to it.
    """
    palette = {**COLORS, **(colors or {})}
    drawing = _Drawing(board, orientation, MARGIN if coordinates else 0)
    parts = [drawing.background(palette)]
    parts += drawing.squares(palette, fill or {}, lastmove)
    if check is not None:
        parts.append(drawing.check(check))
    if coordinates:
        parts += drawing.coordinates(palette)
    parts += [_piece_group(p, *drawing.corner(sq), 1.0, sq) for sq, p in _placement(board)]
    if reserves and board.variant.has_reserves:
        parts += drawing.reserves(palette)
    parts += [drawing.arrow(a if isinstance(a, Arrow) else Arrow(*a), palette) for a in arrows]
    width, height = drawing.width, drawing.height
    scale = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {width} {height}"'
        f'{scale} data-variant={quoteattr(board.variant.name)} data-fen={quoteattr(board.fen())}'
        f' data-orientation="{"white" if orientation == WHITE else "black"}">'
        f'<defs><radialGradient id="check-gradient" r="0.5">'
        f'<stop offset="0%" stop-color="#ff0000" stop-opacity="1"/>'
        f'<stop offset="50%" stop-color="#e70000" stop-opacity="1"/>'
        f'<stop offset="100%" stop-color="#9e0000" stop-opacity="0"/></radialGradient></defs>'
        f'{"".join(parts)}</svg>'
    )


def check_square(board: Board) -> Square | None:
    """The square of the side to move's king when it is attacked (in variants where a king can
    be in check or captured), else None."""
    if board.variant.royalty == Royalty.NONE or not board.is_check():
        return None
    return board.king(board.turn)


def board_picture(board: Board, **options: Any) -> str:
    """:func:`board` with the last move and the check marked, as a notebook shows a Board."""
    last = board.peek() if board.move_stack else None
    return _board(board, lastmove=last, check=check_square(board), **options)


_board = board  # board_picture's parameter hides the function of the same name


def _placement(board: Board) -> list[tuple[Square, Piece]]:
    return [(sq, p) for sq in board.squares() if (p := board.piece_at(sq)) is not None]


def _piece_group(piece: Piece, x: float, y: float, scale: float, sq: Square | None) -> str:
    where = f' data-square="{square_name(sq)}"' if sq is not None else ""
    zoom = f" scale({scale:g})" if scale != 1.0 else ""
    name = f"{'white' if piece.color == WHITE else 'black'} {PIECE_NAMES[piece.piece_type]}"
    return (f'<g class="piece {name}" data-piece="{piece.symbol()}"{where}'
            f' transform="translate({x:g},{y:g}){zoom}">{piece_figure(piece)}</g>')


class _Drawing:
    """Geometry of one picture: where each square and each part goes."""

    def __init__(self, board: Board, orientation: Color, margin: int) -> None:
        self.board = board
        self.variant = board.variant
        self.orientation = orientation
        self.margin = margin
        self.board_width = self.variant.files * SQUARE_SIZE
        self.board_height = self.variant.ranks * SQUARE_SIZE
        reserve_width = SQUARE_SIZE + 10 if self.variant.has_reserves else 0
        self.width = self.board_width + 2 * margin + reserve_width
        self.height = self.board_height + 2 * margin

    def corner(self, sq: Square) -> tuple[float, float]:
        """Top-left corner of ``sq`` in the picture."""
        file, rank = square_file(sq), square_rank(sq)
        if self.orientation == WHITE:
            column, row = file, self.variant.ranks - 1 - rank
        else:
            column, row = self.variant.files - 1 - file, rank
        return self.margin + column * SQUARE_SIZE, self.margin + row * SQUARE_SIZE

    def center(self, sq: Square) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2

    def background(self, palette: Mapping[str, str]) -> str:
        if not self.margin:
            return ""
        return (f'<rect x="0" y="0" width="{self.board_width + 2 * self.margin}"'
                f' height="{self.height}" fill="{palette["margin"]}"/>')

    def squares(self, palette: Mapping[str, str], fill: Mapping[Square, str],
                lastmove: Move | None) -> list[str]:
        marked = set()
        if lastmove is not None:
            marked = {lastmove.to_square} if lastmove.drop else {lastmove.from_square,
                                                                  lastmove.to_square}
        parts = []
        for sq in self.board.squares():
            x, y = self.corner(sq)
            shade = "light" if (square_file(sq) + square_rank(sq)) % 2 else "dark"
            parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}"'
                         f' class="square {shade} {square_name(sq)}"'
                         f' fill="{palette["square " + shade]}"/>')
            overlays = [("lastmove", palette["lastmove"])] if sq in marked else []
            if sq in fill:
                overlays.append(("fill", fill[sq]))
            for kind, color in overlays:
                parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}"'
                                 f' height="{SQUARE_SIZE}" class="{kind} {square_name(sq)}"'
                                 f' fill="{color}" fill-opacity="0.8"/>')
        return parts

    def check(self, sq: Square) -> str:
        x, y = self.corner(sq)
        return (f'<rect x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}"'
                f' class="check {square_name(sq)}" fill="url(#check-gradient)"/>')

    def coordinates(self, palette: Mapping[str, str]) -> list[str]:
        files = range(self.variant.files)
        ranks = range(self.variant.ranks)
        style = (f'fill="{palette["coord"]}" font-family="DejaVu Sans, Helvetica, Arial,'
                 ' sans-serif" font-size="13" text-anchor="middle"')
        parts = []
        for file in files:
            x, _ = self.center(square(file, 0))
            for y in (self.margin / 2 + 5, self.height - self.margin / 2 + 5):
                parts.append(f'<text x="{x:g}" y="{y:g}" {style}>{FILE_NAMES[file]}</text>')
        for rank in ranks:
            _, y = self.center(square(0, rank))
            for x in (self.margin / 2, self.board_width + 1.5 * self.margin):
                parts.append(f'<text x="{x:g}" y="{y + 5:g}" {style}>{rank + 1}</text>')
        return parts

    def reserves(self, palette: Mapping[str, str]) -> list[str]:
        """Each side's reserve in a column right of the board: the side at the bottom of the
        picture below, the other above, each piece with its count."""
        left = self.board_width + 2 * self.margin + 5
        half = self.board_height / 2
        parts = [f'<rect x="{left}" y="{self.margin}" width="{SQUARE_SIZE}"'
                 f' height="{self.board_height}" rx="4" fill="{palette["reserve"]}"'
                 ' class="reserve-panel"/>']
        for color in (WHITE, BLACK):
            bottom = color == self.orientation
            stock = sorted(self.board.reserve(color).items(), reverse=True)  # Q R B N
            slot = min(SQUARE_SIZE, half / 4)
            for index, (piece_type, count) in enumerate(stock):
                offset = index * slot
                y = self.margin + (self.board_height - slot - offset if bottom else offset)
                scale = slot / SQUARE_SIZE
                figure = Piece(piece_type, color)
                parts.append(
                    f'<g class="reserve {"white" if color == WHITE else "black"}"'
                    f' data-reserve="{figure.symbol()}" data-count="{count}">'
                    f"{_piece_group(figure, left, y, scale, None)}"
                    + (f'<text x="{left + SQUARE_SIZE - 3}" y="{y + slot - 3:g}"'
                       ' font-family="DejaVu Sans, Helvetica, Arial, sans-serif"'
                       f' font-size="12" font-weight="bold" text-anchor="end"'
                       f' fill="#000">{count}</text>' if count > 1 else "")
                    + "</g>")
        return parts

    def arrow(self, arrow: Arrow, palette: Mapping[str, str]) -> str:
        color = palette.get(f"arrow {arrow.color}", arrow.color)
        x1, y1 = self.center(arrow.tail)
        x2, y2 = self.center(arrow.head)
        name = f"arrow {square_name(arrow.tail)}{square_name(arrow.head)}"
        if arrow.tail == arrow.head:
            return (f'<circle cx="{x1:g}" cy="{y1:g}" r="{SQUARE_SIZE * 0.45:g}" fill="none"'
                    f' stroke="{color}" stroke-width="4" opacity="0.8" class="{name}"/>')
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        head = SQUARE_SIZE * 0.4
        bx, by = x2 - ux * head, y2 - uy * head  # base of the head
        px, py = -uy * head * 0.55, ux * head * 0.55
        points = f"{x2:g},{y2:g} {bx + px:g},{by + py:g} {bx - px:g},{by - py:g}"
        return (f'<g class="{name}" opacity="0.8"><line x1="{x1:g}" y1="{y1:g}" x2="{bx:g}"'
                f' y2="{by:g}" stroke="{color}" stroke-width="{SQUARE_SIZE * 0.2:g}"'
                f' stroke-linecap="butt"/><polygon points="{points}" fill="{color}"/></g>')


def to_png(svg: str, path: str | None = None, width: int | None = None) -> bytes:
    """Render an SVG picture to PNG (needs cairosvg, in the ``minichess[web]`` extra, and the
    cairo library); write it to ``path`` when given and return the bytes."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError) as error:
        from minichess.errors import MinichessError

        raise MinichessError(
            f"PNG output needs cairosvg and the cairo library ({error}):"
            " pip install 'minichess[web]' (on Debian: apt install libcairo2)"
        ) from None
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    if path is not None:
        with open(path, "wb") as file:
            file.write(data)
    return data
