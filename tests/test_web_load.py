"""A bounded load test: 50 games at once against level 1 on a ``minichess serve`` process, each
from its own session; every move is answered, and after a restart nothing is lost."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
websockets_client = pytest.importorskip("websockets.asyncio.client")

from minichess.web.context import SESSION_COOKIE  # noqa: E402
from web_server import Server, warm_engine  # noqa: E402

pytestmark = [pytest.mark.solo, pytest.mark.xdist_group("web")]
GAMES = 50
MOVES = 6
"""Moves each player makes (each answered by the engine), unless its game ends first."""
VARIANTS = ("csc111", "minitchess", "chess36", "antichess", "gardner")
TIMEOUT = 120.0


async def play_one(url: str, index: int) -> tuple[str, list[str], int]:
    """Play one game; its id, the moves seen at the end, and how many the player made."""
    rng = random.Random(index)
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
        response = await client.post("/api/games", json={"variant": VARIANTS[index % 5],
                                                         "level": 1})
        assert response.status_code == 201, response.text
        game = response.json()
        socket_url = url.replace("http://", "ws://") + f"api/games/{game['id']}/ws"
        cookie = f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"
        made = 0
        async with websockets_client.connect(socket_url,
                                             additional_headers={"Cookie": cookie}) as socket:
            view = json.loads(await socket.recv())
            while made < MOVES and view["result"] == "*":
                while not view["legal"] and view["result"] == "*":  # the engine's reply
                    view = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
                if view["result"] != "*":
                    break
                move = rng.choice(view["legal"])
                response = await client.post(f"/api/games/{game['id']}/move",
                                             json={"move": move})
                assert response.status_code == 200, response.text
                view = response.json()
                made += 1
            while view["result"] == "*" and not view["legal"]:
                view = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
        return game["id"], view["moves"], made


async def play_all(url: str) -> list[tuple[str, list[str], int]]:
    games = asyncio.gather(*(play_one(url, i) for i in range(GAMES)))
    return await asyncio.wait_for(games, 4 * TIMEOUT)


async def stored_moves(url: str, ids: list[str]) -> dict[str, list[str]]:
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
        views = await asyncio.gather(*(client.get(f"/api/games/{i}") for i in ids))
    return {i: v.json()["moves"] for i, v in zip(ids, views, strict=True)}


def test_fifty_concurrent_games_against_level_1(tmp_path) -> None:
    warm_engine()
    server = Server(tmp_path / "games.sqlite3")
    try:
        url = server.start()
        start = time.monotonic()
        results = asyncio.run(play_all(url))
        elapsed = time.monotonic() - start
        ids = [game_id for game_id, _, _ in results]
        seen = {game_id: moves for game_id, moves, _ in results}
        for _, moves, made in results:  # every move of the player was answered (or ended it)
            assert len(moves) >= 2 * made - 1 and made >= 1
        assert asyncio.run(stored_moves(url, ids)) == seen
        server.stop()
        url = server.start()
        assert asyncio.run(stored_moves(url, ids)) == seen  # nothing lost across a restart
        print(f"{GAMES} games, {sum(m for *_, m in results)} moves answered in {elapsed:.1f}s")
    finally:
        server.stop()
