"""What the WebSocket routes share: refusing a connection and reading what a page sends."""

from __future__ import annotations

import contextlib

from fastapi import WebSocket, WebSocketDisconnect

NOT_FOUND = 4404
"""The close code of a connection to an unknown game or feed (HTTP's 404 in the 4000s)."""


async def refuse(socket: WebSocket, error: Exception) -> None:
    """Close ``socket`` before it opens: what it asked for does not exist."""
    await socket.close(code=NOT_FOUND, reason=str(error)[:120])


async def drain(socket: WebSocket) -> None:
    """Read (and ignore) what the page sends, until it disconnects."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await socket.receive_text()
