"""The engine's view of a position, depth by depth, for the analysis board.

The search runs in a worker thread and hands each completed iteration to the event loop; a new
position or a stop from the page stops it at once (:meth:`Engine.stop` from the loop's thread).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor

from minichess.board import Board
from minichess.engine import Engine, Info, Limit
from minichess.pieces import WHITE

ANALYSIS_HASH_MB = 16


def info_view(board: Board, info: Info) -> dict:
    """One iteration as JSON: scores from the side to move's view and from White's, the
    principal variation in coordinates and in SAN."""
    sans, line = [], board.copy(stack=False)
    for move in info.pv:
        if not line.is_legal(move):
            break
        sans.append(line.san(move))
        line.push(move)
    sign = 1 if board.turn == WHITE else -1
    return {
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": info.score,
        "mate": info.mate,
        "white_score": None if info.score is None else sign * info.score,
        "white_mate": None if info.mate is None else sign * info.mate,
        "nodes": info.nodes,
        "nps": info.nps,
        "time": round(info.time, 3),
        "pv": [m.uci() for m in info.pv[:len(sans)]],
        "pv_san": sans,
    }


async def analyse(engine: Engine, board: Board, limit: Limit,
                  executor: Executor | None = None) -> AsyncIterator[dict]:
    """Search ``board`` within ``limit`` and yield :func:`info_view` of each iteration; leaving
    the loop early stops the search."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Info | None] = asyncio.Queue()
    infos = engine.iter_analysis(board, limit)  # set up here: a stop is never lost

    def search() -> None:
        try:
            for info in infos:
                loop.call_soon_threadsafe(queue.put_nowait, info)
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    done = loop.run_in_executor(executor, search)
    try:
        while (info := await queue.get()) is not None:
            yield info_view(board, info)
    finally:
        engine.stop()
        with contextlib.suppress(Exception):
            await done


class Analyst:
    """One analysis board's engine: at most one search at a time; a new one replaces it."""

    def __init__(self, executor: Executor | None = None) -> None:
        self.engine = Engine(level=10, hash_mb=ANALYSIS_HASH_MB)
        self._executor = executor
        self._task: asyncio.Task | None = None

    async def start(self, board: Board, limit: Limit,
                    send: Callable[[dict], Awaitable[None]]) -> None:
        """Stop the running search and begin with ``board``; ``send`` gets each iteration as
        ``{"type": "info", ...}`` and then ``{"type": "done"}``."""
        await self.stop()

        async def run() -> None:
            async for view in analyse(self.engine, board, limit, self._executor):
                await send({"type": "info", "fen": board.fen(), **view})
            await send({"type": "done", "fen": board.fen()})

        self._task = asyncio.create_task(run())

    async def stop(self) -> None:
        """Stop the running search, if any, and wait for it to end."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            self.engine.stop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
