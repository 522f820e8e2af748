"""A browser's games against the engine: start, play, take back, resign, follow."""

from __future__ import annotations

import asyncio
import random

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse, Response

from minichess.notation.pgn import write_pgn
from minichess.web.context import SESSION_COOKIE, Games, Session
from minichess.web.live import GameNotFound, GameService, GameSettings, LiveGame
from minichess.web.models import MoveRequest, NewGame
from minichess.web.routes.variants import SVG, svg_response
from minichess.web.sockets import drain, refuse

router = APIRouter(tags=["games"])


@router.get("/api/games")
async def my_games(games: Games, session: Session) -> list[dict]:
    """This browser session's games, the latest first."""
    return [{"id": row.id, "kind": row.kind, "result": row.result,
             "variant": row.tag("Variant"), "white": row.tag("White"),
             "black": row.tag("Black"), "updated": row.updated}
            for row in games.owned_by(session)]


@router.post("/api/games", status_code=201)
async def new_game(body: NewGame, games: Games, session: Session) -> dict:
    """A new game against the engine (it moves first when it has White)."""
    color = body.color
    if color == "random":
        color = random.choice(["white", "black"])
    white, black = (None, body.level) if color == "white" else (body.level, None)
    clock = (body.clock.initial, body.clock.increment) if body.clock else None
    settings = GameSettings(white, black, clock, body.move_time)
    live = await games.create(session, "play", body.variant, body.fen, settings)
    return games.view(live, session)


@router.get("/api/games/{game_id}")
async def game_state(game_id: str, games: Games, session: Session) -> dict:
    """A game as its viewer may see it (anyone with the link; the legal moves only for the
    owner on their turn)."""
    return games.view(games.get(game_id), session)


@router.get("/api/games/{game_id}/pgn", response_class=PlainTextResponse)
async def game_pgn(game_id: str, games: Games) -> PlainTextResponse:
    """The game as PGN."""
    return PlainTextResponse(write_pgn(games.get(game_id).game),
                             media_type="application/x-chess-pgn")


@router.get("/api/games/{game_id}/svg", tags=["pictures"], response_class=Response,
            responses=SVG)
async def game_svg(game_id: str, games: Games,
                   orientation: str = Query("white", pattern="^(white|black)$"),
                   size: int = Query(400, ge=16, le=4000)) -> Response:
    """A picture of the game's position."""
    return svg_response(games.get(game_id).game.board, orientation, size)


@router.post("/api/games/{game_id}/move")
async def play_move(game_id: str, body: MoveRequest, games: Games, session: Session) -> dict:
    """Play your move; the engine's reply follows on the WebSocket (or poll the game)."""
    live = games.get(game_id)
    await games.move(live, session, body.move)
    return games.view(live, session)


@router.post("/api/games/{game_id}/undo")
async def undo(game_id: str, games: Games, session: Session) -> dict:
    """Take back your last move and the engine's reply."""
    live = games.get(game_id)
    await games.undo(live, session)
    return games.view(live, session)


@router.post("/api/games/{game_id}/resign")
async def resign(game_id: str, games: Games, session: Session) -> dict:
    """Resign the game."""
    live = games.get(game_id)
    await games.resign(live, session)
    return games.view(live, session)


@router.websocket("/api/games/{game_id}/ws")
async def game_feed(socket: WebSocket, game_id: str, games: Games) -> None:
    """The game's state now and after every change (moves, clocks, the end)."""
    viewer = socket.cookies.get(SESSION_COOKIE)
    try:
        live = games.get(game_id)
    except GameNotFound as error:
        await refuse(socket, error)
        return
    await socket.accept()
    await _follow(socket, games, live, viewer)


async def _follow(socket: WebSocket, games: GameService, live: LiveGame,
                  viewer: str | None) -> None:
    """Send the game's view now and after each change until the viewer leaves."""
    changed = games.watch(live)
    try:
        await socket.send_json(games.view(live, viewer))
        receiver = asyncio.create_task(drain(socket))
        while not receiver.done():
            waiter = asyncio.create_task(changed.wait())
            await asyncio.wait({waiter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if changed.is_set():
                changed.clear()
                await socket.send_json(games.view(live, viewer))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        games.unwatch(live, changed)
