"""Games to watch: the engine against itself, and the feeds of servers in the same process
(the IMCS server's live and finished games and its ratings)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse

from minichess.errors import MinichessError
from minichess.web.context import Feeds, Games, Session
from minichess.web.live import GameSettings
from minichess.web.models import (
    FeedGame,
    FeedGameSummary,
    FeedRating,
    FeedState,
    NewWatch,
    WatchList,
)
from minichess.web.sockets import drain, refuse
from minichess.web.watch import UnknownFeed, UnknownFeedGame, feed_game, follow_game

log = logging.getLogger(__name__)
router = APIRouter(tags=["watch"])


@router.post("/api/watch", status_code=201)
async def new_watch(body: NewWatch, games: Games, session: Session) -> dict:
    """A new game of the engine against itself."""
    clock = (body.clock.initial, body.clock.increment) if body.clock else None
    settings = GameSettings(body.white_level, body.black_level, clock, body.move_time,
                            body.delay)
    live = await games.create(session, "watch", body.variant, body.fen, settings)
    return games.view(live, session)


@router.get("/api/watch", response_model=WatchList)
async def watch_list(games: Games, feeds: Feeds, session: Session) -> dict:
    """Games to watch: this session's engine games, and those of the feeds (the IMCS
    server's live and finished games and its ratings, when it runs in this process)."""
    mine = [{"id": row.id, "result": row.result, "variant": row.tag("Variant"),
             "white": row.tag("White"), "black": row.tag("Black")}
            for row in games.owned_by(session) if row.kind == "watch"]
    return {"engine_games": mine, "feeds": feeds.describe()}


@router.get("/api/watch/feeds/{name}", response_model=FeedState)
async def feed_state(name: str, feeds: Feeds) -> dict:
    """A feed now: its games in progress, its latest finished games, its top ratings."""
    return {"name": name, **feeds.get(name).describe()}


@router.get("/api/watch/feeds/{name}/games", response_model=list[FeedGameSummary])
async def feed_games(name: str, feeds: Feeds, limit: int = Query(50, ge=1, le=500),
                     player: str | None = Query(None, min_length=1, max_length=64)
                     ) -> list[dict]:
    """A feed's latest finished games (``player``'s only, when given), latest first."""
    return feeds.get(name).games(limit, player)


@router.get("/api/watch/feeds/{name}/games/{game_id}", response_model=FeedGame)
async def feed_game_state(name: str, game_id: str, feeds: Feeds) -> dict:
    """A feed's game, in progress or finished: players, ratings, each move with its SAN,
    the position after it and the clocks, the result and how it ended."""
    return feed_game(feeds.get(name), game_id)


@router.get("/api/watch/feeds/{name}/games/{game_id}/pgn", tags=["pgn"],
            response_class=PlainTextResponse,
            responses={200: {"content": {"application/x-chess-pgn": {}}}})
async def feed_game_pgn(name: str, game_id: str, feeds: Feeds) -> PlainTextResponse:
    """A feed's game as PGN (a download)."""
    feed = feeds.get(name)
    text = feed.pgn(game_id)
    if text is None:
        raise UnknownFeedGame(f"{feed.title} has no game {game_id!r}")
    return PlainTextResponse(text, media_type="application/x-chess-pgn", headers={
        "Content-Disposition": f'attachment; filename="{name}-{game_id}.pgn"'})


@router.get("/api/watch/feeds/{name}/ratings", response_model=list[FeedRating])
async def feed_ratings(name: str, feeds: Feeds,
                       variant: str = Query("minitchess", max_length=40)) -> list[dict]:
    """A feed's ratings in ``variant``, best first, with each player's rated games."""
    return feeds.get(name).ratings(variant)


@router.websocket("/api/watch/feeds/{name}/ws")
async def feed_updates(socket: WebSocket, name: str, feeds: Feeds) -> None:
    """A feed's state now (``{"type": "state", ...}``), then each change: a game starts,
    a move, a game ends, ratings change."""
    try:
        feed = feeds.get(name)
    except UnknownFeed as error:
        await refuse(socket, error)
        return
    await socket.accept()
    await _relay(socket, feed.updates())


@router.websocket("/api/watch/feeds/{name}/games/{game_id}/ws")
async def feed_game_updates(socket: WebSocket, name: str, game_id: str, feeds: Feeds) -> None:
    """A feed's game now (``{"type": "state", "game": ...}`` as ``GET`` shows it), then
    each move with its SAN, FEN and clocks and the end; closed after the end."""
    try:
        feed = feeds.get(name)
        feed_game(feed, game_id)
    except MinichessError as error:
        await refuse(socket, error)
        return
    await socket.accept()
    await _relay(socket, follow_game(feed, game_id))


async def _relay(socket: WebSocket, messages: AsyncIterator[dict]) -> None:
    """Send ``messages`` until they end (then close the socket) or the page leaves."""

    async def send_all() -> None:
        async for message in messages:
            await socket.send_json(message)

    sender = asyncio.create_task(send_all())
    receiver = asyncio.create_task(drain(socket))
    try:
        done, _ = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        receiver.cancel()
        sender.cancel()
        await asyncio.gather(sender, receiver, return_exceptions=True)
    if sender not in done:
        return  # the page left
    failure = sender.exception()
    if isinstance(failure, WebSocketDisconnect | RuntimeError):
        return
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        if failure is None:
            await socket.close(code=1000)
        else:
            log.error("a watch feed failed", exc_info=failure)
            await socket.close(code=1011, reason=str(failure)[:120])
