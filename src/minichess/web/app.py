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

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from minichess.web.context import add_sessions
from minichess.web.errors import add_error_handlers
from minichess.web.live import GameService
from minichess.web.routes import games, positions, variants, watch  # one module per part
from minichess.web.storage import GameStore
from minichess.web.watch import WatchFeeds

STATIC = files("minichess.web") / "static"

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
    app.state.feeds = feeds or WatchFeeds()
    add_error_handlers(app)
    add_sessions(app)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    for part in (variants, positions, games, watch):
        app.include_router(part.router)
    return app
