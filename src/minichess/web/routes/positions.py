"""Positions and their analysis, and PGN read and written: work on what the request gives."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from minichess.board import Board
from minichess.engine import Limit
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.notation.pgn import read_pgn, write_pgn
from minichess.web.analysis import Analyst, analyse
from minichess.web.errors import error_message
from minichess.web.live import NotNow
from minichess.web.models import AnalyseRequest, PgnText, PgnWrite, Position
from minichess.web.positions import position_view, replay

router = APIRouter()
MAX_ANALYSIS_SECONDS = 300


@router.post("/api/position", tags=["analysis"])
async def position(request: Position) -> dict:
    """The position after ``moves``: FEN, legal moves, check, the end if over, and each
    move's SAN and FEN on the way (to step through)."""
    board, history = _replay(request)
    return {**position_view(board), "history": history}


@router.post("/api/analyse", tags=["analysis"])
async def analyse_once(request: AnalyseRequest) -> dict:
    """A bounded search (``seconds``, ``depth``): every iteration, the deepest last."""
    board, _ = _replay(request)
    if board.is_game_over():
        raise NotNow(f"nothing to analyse: the game is over ({board.outcome()})")
    analyst = Analyst()
    limit = Limit(time=request.seconds, depth=request.depth)
    infos = [info async for info in analyse(analyst.engine, board, limit)]
    return {"fen": board.fen(), "infos": infos}


@router.websocket("/api/analysis")
async def analysis_feed(socket: WebSocket) -> None:
    """Send ``{"variant", "fen", "moves", "seconds"}`` to analyse (a new one replaces the
    old), ``{"stop": true}`` to stop; receive ``info`` messages depth by depth, ``done``, or
    ``error`` with a message for a bad request."""
    await socket.accept()
    analyst = Analyst()
    lock = asyncio.Lock()

    async def send(message: dict) -> None:
        async with lock:
            await socket.send_json(message)

    try:
        while True:
            message = await socket.receive_json()
            if not isinstance(message, dict):
                await send({"type": "error", "detail": "expected a JSON object"})
                continue
            if message.get("stop"):
                await analyst.stop()
                continue
            try:
                board, seconds = _analysis_request(message)
            except (MinichessError, ValidationError, TypeError) as error:
                await send({"type": "error", "detail": error_message(error)})
                continue
            await analyst.start(board, Limit(time=seconds), send)
    except (WebSocketDisconnect, RuntimeError, ValueError):
        pass
    finally:
        await analyst.stop()


@router.post("/api/pgn/read", tags=["pgn"])
async def pgn_read(request: PgnText) -> list[dict]:
    """The games of a PGN text: variant, start FEN, moves (coordinates and SAN), tags."""
    return [_pgn_game_view(game) for game in read_pgn(request.pgn, "minitchess")]


@router.post("/api/pgn/write", tags=["pgn"])
async def pgn_write(request: PgnWrite) -> dict:
    """A game (start position, moves, tags) as PGN text."""
    game = Game(request.variant, request.fen, headers=request.headers)
    for text in request.moves:
        game.push(text)
    if request.result and game.result() == "*":
        game.headers["Result"] = request.result
    return {"pgn": write_pgn(game)}


def _analysis_request(message: dict) -> tuple[Board, float]:
    """The position an analysis feed's message asks about, and for how many seconds."""
    seconds = message.pop("seconds", 30)
    if not isinstance(seconds, int | float) or not 0 < seconds <= MAX_ANALYSIS_SECONDS:
        raise MinichessError(f"seconds must be a number from 0 to {MAX_ANALYSIS_SECONDS}")
    board, _ = _replay(Position(**message))
    if board.is_game_over():
        raise MinichessError(f"the game is over ({board.outcome()})")
    return board, float(seconds)


def _replay(request: Position) -> tuple[Board, list[dict]]:
    return replay(request.variant, request.fen, request.moves)


def _pgn_game_view(game: Game) -> dict:
    return {"variant": game.variant.name, "start_fen": game.start_fen,
            "moves": [m.uci() for m in game.moves], "sans": game.san_moves,
            "headers": game.headers, "result": game.result() if game.is_game_over()
            else game.headers.get("Result", "*"), "fen": game.board.fen()}
