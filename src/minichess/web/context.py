"""What a request works with: its browser's session, the app's games and its watch feeds.

Every browser gets a session cookie; the games it starts are its own (listed for it, played by
it). The route functions take these as FastAPI dependencies (``Session``, ``Games``,
``Feeds``).
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, FastAPI, Request
from starlette.requests import HTTPConnection

from minichess.web.live import GameService
from minichess.web.watch import WatchFeeds

SESSION_COOKIE = "minichess_session"
SESSION_DAYS = 365


def add_sessions(app: FastAPI) -> None:
    """Give every HTTP request a session: the browser's cookie, or a new one it is sent."""

    @app.middleware("http")
    async def session_cookie(request: Request, call_next):
        session = request.cookies.get(SESSION_COOKIE)
        fresh = not session or len(session) > 64
        if fresh:
            session = secrets.token_urlsafe(18)
        request.state.session = session
        response = await call_next(request)
        if fresh:
            response.set_cookie(SESSION_COOKIE, session, max_age=SESSION_DAYS * 86400,
                                httponly=True, samesite="lax")
        return response


def _session(request: Request) -> str:
    return request.state.session


def _games(connection: HTTPConnection) -> GameService:
    return connection.app.state.service


def _feeds(connection: HTTPConnection) -> WatchFeeds:
    return connection.app.state.feeds


Session = Annotated[str, Depends(_session)]
"""The browser session of an HTTP request."""
Games = Annotated[GameService, Depends(_games)]
"""The app's games (``app.state.service``)."""
Feeds = Annotated[WatchFeeds, Depends(_feeds)]
"""The app's watch feeds (``app.state.feeds``)."""
