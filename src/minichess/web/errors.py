"""How the web app reports errors: bad input 400 (422 for a body that does not fit its
schema), an unknown game or feed 404, another session's game 403, a request the game's state
does not allow now 409; each with ``{"detail": "what is wrong"}``."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from minichess.errors import MinichessError
from minichess.web.live import GameNotFound, NotNow, NotYourGame
from minichess.web.watch import UnknownFeed, UnknownFeedGame

_STATUS = {GameNotFound: 404, UnknownFeed: 404, UnknownFeedGame: 404, NotYourGame: 403, NotNow: 409}


def add_error_handlers(app: FastAPI) -> None:
    """Answer the project's errors and invalid requests with their status and message."""

    @app.exception_handler(MinichessError)
    async def minichess_error(request: Request, error: MinichessError) -> JSONResponse:
        status = next((code for kind, code in _STATUS.items() if isinstance(error, kind)), 400)
        return JSONResponse({"detail": str(error)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": error_message(error),
                             "errors": _jsonable(list(error.errors()))}, status_code=422)


def error_message(error: Exception) -> str:
    """What is wrong, in one line: a validation error's problems joined, else the error."""
    if isinstance(error, ValidationError | RequestValidationError):
        parts = []
        for problem in error.errors():
            where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
            parts.append(f"{where}: {problem.get('msg')}" if where else problem.get("msg", ""))
        return "; ".join(parts) or "invalid request"
    return str(error)


def _jsonable(errors: list) -> list:
    return [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")}
            for e in errors]
