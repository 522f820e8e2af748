"""Variants, piece figures and pictures of positions."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from minichess import svg
from minichess.board import Board
from minichess.pieces import BLACK, WHITE, Piece
from minichess.variants import VARIANTS, VariantDefinition

router = APIRouter()
SVG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/svg+xml": {}}}}
"""The OpenAPI description of a picture's response."""


@router.get("/api/variants", tags=["variants"])
async def variants() -> list[dict]:
    """The variants: board size, start position, pieces, promotion choices, reserves."""
    return [_variant_view(v) for v in VARIANTS.values()]


@router.get("/api/pieces", tags=["variants"])
async def pieces() -> dict[str, str]:
    """The piece figures (SVG elements in a 45 x 45 box) by FEN letter."""
    return svg.piece_figures()


@router.get("/api/pieces/{letter}.svg", tags=["pictures"], response_class=Response,
            responses=SVG)
async def piece_picture(letter: str, size: int = Query(45, ge=8, le=1000)) -> Response:
    """One piece's figure (``K`` a white king, ``n`` a black knight)."""
    return Response(svg.piece(Piece.from_symbol(letter), size), media_type="image/svg+xml")


@router.get("/api/svg", tags=["pictures"], response_class=Response, responses=SVG)
async def picture(variant: str = Query("minitchess", max_length=40),
                  fen: str | None = Query(None, max_length=300),
                  orientation: str = Query("white", pattern="^(white|black)$"),
                  lastmove: str | None = Query(None, max_length=16),
                  size: int = Query(400, ge=16, le=4000)) -> Response:
    """A picture of a position (``lastmove`` marked when given)."""
    board = Board(variant, fen)
    move = board.parse_uci(lastmove) if lastmove else None
    if move is not None:
        board.push(move)
    return svg_response(board, orientation, size)


def svg_response(board: Board, orientation: str, size: int) -> Response:
    """A picture of ``board`` seen from ``orientation``'s side (``white`` or ``black``)."""
    side = WHITE if orientation == "white" else BLACK
    return Response(svg.board_picture(board, orientation=side, size=size),
                    media_type="image/svg+xml")


def _variant_view(variant: VariantDefinition) -> dict:
    return {"name": variant.name, "title": variant.title, "aliases": list(variant.aliases),
            "files": variant.files, "ranks": variant.ranks, "start_fen": variant.start_fen,
            "pieces": list(variant.pieces), "promotion": variant.promotion,
            "reserves": variant.has_reserves, "default_clock": variant.default_clock}
