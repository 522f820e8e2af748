"""The web app: the page, the JSON API and the WebSocket feeds, on FastAPI.

Every browser gets a session cookie; the games it starts are its own (listed for it, played by
it). A game's address is a secret hard to guess: whoever has the link can watch the game.

Errors: bad input gets 400 (422 for a body that does not fit its schema), an unknown game 404,
another session's game 403, a request the game's state does not allow now (not your turn, the
game is over) 409; each with ``{"detail": "what is wrong"}``.

WebSockets (JSON messages; an unknown game or feed is refused before the connection opens):
``/api/games/{id}/ws`` (the game after every change), ``/api/analysis`` (a search, depth by
depth), ``/api/watch/feeds/{name}/ws`` (a feed's state, then its games starting, moves, ends
and rating changes) and ``/api/watch/feeds/{name}/games/{id}/ws`` (a feed's game, then each
move and its end).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from minichess import svg
from minichess.board import Board
from minichess.engine import Limit
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.notation.pgn import read_pgn, write_pgn
from minichess.pieces import BLACK, WHITE, Piece
from minichess.variants import VARIANTS, VariantDefinition
from minichess.web.analysis import Analyst, analyse
from minichess.web.live import (
    GameNotFound,
    GameService,
    GameSettings,
    LiveGame,
    NotNow,
    NotYourGame,
)
from minichess.web.models import (
    AnalyseRequest,
    FeedGame,
    FeedGameSummary,
    FeedRating,
    FeedState,
    MoveRequest,
    NewGame,
    NewWatch,
    PgnText,
    PgnWrite,
    Position,
    WatchList,
)
from minichess.web.positions import position_view, replay
from minichess.web.storage import GameStore
from minichess.web.watch import (
    UnknownFeed,
    UnknownFeedGame,
    WatchFeeds,
    feed_game,
    follow_game,
)

log = logging.getLogger(__name__)
SESSION_COOKIE = "minichess_session"
STATIC = files("minichess.web") / "static"
_STATUS = {GameNotFound: 404, UnknownFeed: 404, UnknownFeedGame: 404, NotYourGame: 403, NotNow: 409}


Service = Callable[[FastAPI], AbstractAsyncContextManager[object]]
"""Something that runs as long as the app (a server in the same event loop): called with the
app at its start, it gives the context that the app enters then and leaves when it stops."""


def create_app(database: str | Path = ":memory:", feeds: WatchFeeds | None = None,
               services: Sequence[Service] = ()) -> FastAPI:
    """The web app, its games kept in the SQLite file ``database``; ``feeds``: outside sources
    of games to watch, if any (``app.state.feeds``, where ``services`` may register theirs);
    ``services``: run beside the app, started after it and stopped before it (in reverse
    order), such as the IMCS server (see ``minichess.cli.serve``)."""
    store = GameStore(database)
    service = GameService(store)
    watch_feeds = feeds or WatchFeeds()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            stack.callback(store.close)
            await service.start()
            stack.push_async_callback(service.close)
            for start in services:
                await stack.enter_async_context(start(app))
            yield

    app = FastAPI(
        title="minichess",
        summary="Play, analyse and watch small-board chess variants.",
        description=__doc__,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.feeds = watch_feeds
    _add_error_handlers(app)
    _add_sessions(app)

    # --- the page -----------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- variants, pieces, pictures -----------------------------------------------------------

    @app.get("/api/variants", tags=["variants"])
    async def variants() -> list[dict]:
        """The variants: board size, start position, pieces, promotion choices, reserves."""
        return [_variant_view(v) for v in VARIANTS.values()]

    @app.get("/api/pieces", tags=["variants"])
    async def pieces() -> dict[str, str]:
        """The piece figures (SVG elements in a 45 x 45 box) by FEN letter."""
        return svg.piece_figures()

    @app.get("/api/pieces/{letter}.svg", tags=["pictures"], response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}})
    async def piece_picture(letter: str, size: int = Query(45, ge=8, le=1000)) -> Response:
        """One piece's figure (``K`` a white king, ``n`` a black knight)."""
        return Response(svg.piece(Piece.from_symbol(letter), size), media_type="image/svg+xml")

    @app.get("/api/svg", tags=["pictures"], response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}})
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
        return _svg_response(board, orientation, size)

    # --- positions, analysis, PGN -------------------------------------------------------------

    @app.post("/api/position", tags=["analysis"])
    async def position(request: Position) -> dict:
        """The position after ``moves``: FEN, legal moves, check, the end if over, and each
        move's SAN and FEN on the way (to step through)."""
        board, history = _replay(request)
        return {**position_view(board), "history": history}

    @app.post("/api/analyse", tags=["analysis"])
    async def analyse_once(request: AnalyseRequest) -> dict:
        """A bounded search (``seconds``, ``depth``): every iteration, the deepest last."""
        board, _ = _replay(request)
        if board.is_game_over():
            raise NotNow(f"nothing to analyse: the game is over ({board.outcome()})")
        analyst = Analyst()
        limit = Limit(time=request.seconds, depth=request.depth)
        infos = [info async for info in analyse(analyst.engine, board, limit)]
        return {"fen": board.fen(), "infos": infos}

    @app.websocket("/api/analysis")
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
                    seconds = message.pop("seconds", 30)
                    if not isinstance(seconds, int | float) or not 0 < seconds <= 300:
                        raise MinichessError("seconds must be a number from 0 to 300")
                    board, _ = _replay(Position(**message))
                    if board.is_game_over():
                        raise MinichessError(f"the game is over ({board.outcome()})")
                except (MinichessError, ValidationError, TypeError) as error:
                    await send({"type": "error", "detail": _message(error)})
                    continue
                await analyst.start(board, Limit(time=float(seconds)), send)
        except (WebSocketDisconnect, RuntimeError, ValueError):
            pass
        finally:
            await analyst.stop()

    @app.post("/api/pgn/read", tags=["pgn"])
    async def pgn_read(request: PgnText) -> list[dict]:
        """The games of a PGN text: variant, start FEN, moves (coordinates and SAN), tags."""
        return [_pgn_game_view(game) for game in read_pgn(request.pgn, "minitchess")]

    @app.post("/api/pgn/write", tags=["pgn"])
    async def pgn_write(request: PgnWrite) -> dict:
        """A game (start position, moves, tags) as PGN text."""
        game = Game(request.variant, request.fen, headers=request.headers)
        for text in request.moves:
            game.push(text)
        if request.result and game.result() == "*":
            game.headers["Result"] = request.result
        return {"pgn": write_pgn(game)}

    # --- games --------------------------------------------------------------------------------

    @app.get("/api/games", tags=["games"])
    async def my_games(request: Request) -> list[dict]:
        """This browser session's games, the latest first."""
        return [{"id": row.id, "kind": row.kind, "result": row.result,
                 "variant": _pgn_tag(row.pgn, "Variant"), "white": _pgn_tag(row.pgn, "White"),
                 "black": _pgn_tag(row.pgn, "Black"), "updated": row.updated}
                for row in service.owned_by(_session(request))]

    @app.post("/api/games", tags=["games"], status_code=201)
    async def new_game(request: Request, body: NewGame) -> dict:
        """A new game against the engine (it moves first when it has White)."""
        color = body.color
        if color == "random":
            color = random.choice(["white", "black"])
        white, black = (None, body.level) if color == "white" else (body.level, None)
        clock = (body.clock.initial, body.clock.increment) if body.clock else None
        settings = GameSettings(white, black, clock, body.move_time)
        live = await service.create(_session(request), "play", body.variant, body.fen, settings)
        return service.view(live, _session(request))

    @app.get("/api/games/{game_id}", tags=["games"])
    async def game_state(request: Request, game_id: str) -> dict:
        """A game as its viewer may see it (anyone with the link; the legal moves only for the
        owner on their turn)."""
        return service.view(service.get(game_id), _session(request))

    @app.get("/api/games/{game_id}/pgn", tags=["games"], response_class=PlainTextResponse)
    async def game_pgn(game_id: str) -> PlainTextResponse:
        """The game as PGN."""
        return PlainTextResponse(write_pgn(service.get(game_id).game),
                                 media_type="application/x-chess-pgn")

    @app.get("/api/games/{game_id}/svg", tags=["games", "pictures"], response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}})
    async def game_svg(game_id: str,
                       orientation: str = Query("white", pattern="^(white|black)$"),
                       size: int = Query(400, ge=16, le=4000)) -> Response:
        """A picture of the game's position."""
        return _svg_response(service.get(game_id).game.board, orientation, size)

    @app.post("/api/games/{game_id}/move", tags=["games"])
    async def play_move(request: Request, game_id: str, body: MoveRequest) -> dict:
        """Play your move; the engine's reply follows on the WebSocket (or poll the game)."""
        live = service.get(game_id)
        await service.move(live, _session(request), body.move)
        return service.view(live, _session(request))

    @app.post("/api/games/{game_id}/undo", tags=["games"])
    async def undo(request: Request, game_id: str) -> dict:
        """Take back your last move and the engine's reply."""
        live = service.get(game_id)
        await service.undo(live, _session(request))
        return service.view(live, _session(request))

    @app.post("/api/games/{game_id}/resign", tags=["games"])
    async def resign(request: Request, game_id: str) -> dict:
        """Resign the game."""
        live = service.get(game_id)
        await service.resign(live, _session(request))
        return service.view(live, _session(request))

    @app.websocket("/api/games/{game_id}/ws")
    async def game_feed(socket: WebSocket, game_id: str) -> None:
        """The game's state now and after every change (moves, clocks, the end)."""
        viewer = socket.cookies.get(SESSION_COOKIE)
        try:
            live = service.get(game_id)
        except GameNotFound as error:
            await socket.close(code=4404, reason=str(error)[:120])
            return
        await socket.accept()
        await _follow(socket, service, live, viewer)

    # --- watching -----------------------------------------------------------------------------

    @app.post("/api/watch", tags=["watch"], status_code=201)
    async def new_watch(request: Request, body: NewWatch) -> dict:
        """A new game of the engine against itself."""
        clock = (body.clock.initial, body.clock.increment) if body.clock else None
        settings = GameSettings(body.white_level, body.black_level, clock, body.move_time,
                                body.delay)
        live = await service.create(_session(request), "watch", body.variant, body.fen,
                                    settings)
        return service.view(live, _session(request))

    @app.get("/api/watch", tags=["watch"], response_model=WatchList)
    async def watch_list(request: Request) -> dict:
        """Games to watch: this session's engine games, and those of the feeds (the IMCS
        server's live and finished games and its ratings, when it runs in this process)."""
        mine = [{"id": row.id, "result": row.result, "variant": _pgn_tag(row.pgn, "Variant"),
                 "white": _pgn_tag(row.pgn, "White"), "black": _pgn_tag(row.pgn, "Black")}
                for row in service.owned_by(_session(request)) if row.kind == "watch"]
        return {"engine_games": mine, "feeds": watch_feeds.describe()}

    @app.get("/api/watch/feeds/{name}", tags=["watch"], response_model=FeedState)
    async def feed_state(name: str) -> dict:
        """A feed now: its games in progress, its latest finished games, its top ratings."""
        return {"name": name, **watch_feeds.get(name).describe()}

    @app.get("/api/watch/feeds/{name}/games", tags=["watch"],
             response_model=list[FeedGameSummary])
    async def feed_games(name: str, limit: int = Query(50, ge=1, le=500),
                         player: str | None = Query(None, min_length=1, max_length=64)
                         ) -> list[dict]:
        """A feed's latest finished games (``player``'s only, when given), latest first."""
        return watch_feeds.get(name).games(limit, player)

    @app.get("/api/watch/feeds/{name}/games/{game_id}", tags=["watch"], response_model=FeedGame)
    async def feed_game_state(name: str, game_id: str) -> dict:
        """A feed's game, in progress or finished: players, ratings, each move with its SAN,
        the position after it and the clocks, the result and how it ended."""
        return feed_game(watch_feeds.get(name), game_id)

    @app.get("/api/watch/feeds/{name}/games/{game_id}/pgn", tags=["watch", "pgn"],
             response_class=PlainTextResponse,
             responses={200: {"content": {"application/x-chess-pgn": {}}}})
    async def feed_game_pgn(name: str, game_id: str) -> PlainTextResponse:
        """A feed's game as PGN (a download)."""
        feed = watch_feeds.get(name)
        text = feed.pgn(game_id)
        if text is None:
            raise UnknownFeedGame(f"{feed.title} has no game {game_id!r}")
        return PlainTextResponse(text, media_type="application/x-chess-pgn", headers={
            "Content-Disposition": f'attachment; filename="{name}-{game_id}.pgn"'})

    @app.get("/api/watch/feeds/{name}/ratings", tags=["watch"],
             response_model=list[FeedRating])
    async def feed_ratings(name: str, variant: str = Query("minitchess", max_length=40)
                           ) -> list[dict]:
        """A feed's ratings in ``variant``, best first, with each player's rated games."""
        return watch_feeds.get(name).ratings(variant)

    @app.websocket("/api/watch/feeds/{name}/ws")
    async def feed_updates(socket: WebSocket, name: str) -> None:
        """A feed's state now (``{"type": "state", ...}``), then each change: a game starts,
        a move, a game ends, ratings change."""
        try:
            feed = watch_feeds.get(name)
        except UnknownFeed as error:
            await socket.close(code=4404, reason=str(error)[:120])
            return
        await socket.accept()
        await _relay(socket, feed.updates())

    @app.websocket("/api/watch/feeds/{name}/games/{game_id}/ws")
    async def feed_game_updates(socket: WebSocket, name: str, game_id: str) -> None:
        """A feed's game now (``{"type": "state", "game": ...}`` as ``GET`` shows it), then
        each move with its SAN, FEN and clocks and the end; closed after the end."""
        try:
            feed = watch_feeds.get(name)
            feed_game(feed, game_id)
        except MinichessError as error:
            await socket.close(code=4404, reason=str(error)[:120])
            return
        await socket.accept()
        await _relay(socket, follow_game(feed, game_id))

    return app


async def _follow(socket: WebSocket, service: GameService, live: LiveGame,
                  viewer: str | None) -> None:
    """Send the game's view now and after each change until the viewer leaves."""
    changed = service.watch(live)
    try:
        await socket.send_json(service.view(live, viewer))
        receiver = asyncio.create_task(_drain(socket))
        while not receiver.done():
            waiter = asyncio.create_task(changed.wait())
            await asyncio.wait({waiter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if changed.is_set():
                changed.clear()
                await socket.send_json(service.view(live, viewer))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        service.unwatch(live, changed)


async def _relay(socket: WebSocket, messages: AsyncIterator[dict]) -> None:
    """Send ``messages`` until they end (then close the socket) or the page leaves."""

    async def send_all() -> None:
        async for message in messages:
            await socket.send_json(message)

    sender = asyncio.create_task(send_all())
    receiver = asyncio.create_task(_drain(socket))
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


async def _drain(socket: WebSocket) -> None:
    """Read (and ignore) what the page sends, until it disconnects."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await socket.receive_text()


# --- helpers -----------------------------------------------------------------------------------


def _session(request: Request) -> str:
    return request.state.session


def _add_sessions(app: FastAPI) -> None:
    @app.middleware("http")
    async def session_cookie(request: Request, call_next):
        session = request.cookies.get(SESSION_COOKIE)
        fresh = not session or len(session) > 64
        if fresh:
            session = secrets.token_urlsafe(18)
        request.state.session = session
        response = await call_next(request)
        if fresh:
            response.set_cookie(SESSION_COOKIE, session, max_age=365 * 86400, httponly=True,
                                samesite="lax")
        return response


def _message(error: Exception) -> str:
    if isinstance(error, ValidationError | RequestValidationError):
        parts = []
        for problem in error.errors():
            where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
            parts.append(f"{where}: {problem.get('msg')}" if where else problem.get("msg", ""))
        return "; ".join(parts) or "invalid request"
    return str(error)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(MinichessError)
    async def minichess_error(request: Request, error: MinichessError) -> JSONResponse:
        status = next((code for kind, code in _STATUS.items() if isinstance(error, kind)), 400)
        return JSONResponse({"detail": str(error)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _message(error), "errors": _jsonable(list(error.errors()))},
                            status_code=422)


def _jsonable(errors: list) -> list:
    return [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")}
            for e in errors]


def _variant_view(variant: VariantDefinition) -> dict:
    return {"name": variant.name, "title": variant.title, "aliases": list(variant.aliases),
            "files": variant.files, "ranks": variant.ranks, "start_fen": variant.start_fen,
            "pieces": list(variant.pieces), "promotion": variant.promotion,
            "reserves": variant.has_reserves, "default_clock": variant.default_clock}


def _replay(request: Position) -> tuple[Board, list[dict]]:
    return replay(request.variant, request.fen, request.moves)


def _pgn_game_view(game: Game) -> dict:
    return {"variant": game.variant.name, "start_fen": game.start_fen,
            "moves": [m.uci() for m in game.moves], "sans": game.san_moves,
            "headers": game.headers, "result": game.result() if game.is_game_over()
            else game.headers.get("Result", "*"), "fen": game.board.fen()}


def _pgn_tag(pgn: str, name: str) -> str | None:
    marker = f'[{name} "'
    start = pgn.find(marker)
    if start < 0:
        return None
    start += len(marker)
    return pgn[start:pgn.find('"]', start)]


def _svg_response(board: Board, orientation: str, size: int) -> Response:
    side = WHITE if orientation == "white" else BLACK
    return Response(svg.board_picture(board, orientation=side, size=size),
                    media_type="image/svg+xml")


