"""The IMCS server in the web app's process (``minichess serve --imcs-port``): games played over
IMCS on the loopback, followed on the watch feeds' WebSockets and read back from their JSON
endpoints; every bad request a 4xx with a message; the serve process stopped by signals.

The app is the one ``serve`` builds (:func:`minichess.cli.serve.build_app`), on uvicorn in the
test's event loop on free ports of 127.0.0.1, or ``minichess serve`` as a process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import signal
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")
websockets_client = pytest.importorskip("websockets.asyncio.client")
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK, InvalidStatus  # noqa: E402
from websockets.sync.client import connect as sync_connect  # noqa: E402

from imcs_support import Peer, client, game, play, random_mover, run  # noqa: E402
from minichess.cli.main import build_parser  # noqa: E402
from minichess.cli.serve import build_app, listen  # noqa: E402
from minichess.protocols.imcs.server import ImcsServer  # noqa: E402
from minichess.protocols.imcs.store import Store  # noqa: E402
from web_server import Server  # noqa: E402

WAIT = 10.0
"""Seconds a test waits for any one message."""
KING_CAPTURE_SANS = ["a3", "b4", "axb4", "axb4", "Rxa6"]


def imcs_args(tmp_path: Path) -> list[str]:
    """``serve``'s options for the IMCS server: any free port of 127.0.0.1, the database in
    ``tmp_path``, cheap password hashes."""
    return ["--imcs-port", "0", "--imcs-db", str(tmp_path / "imcs.db"), "--hash-cost", "4"]


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, *extra: str) -> AsyncIterator[tuple[str, ImcsServer]]:
    """``serve``'s app on uvicorn in this event loop, both on sockets bound as ``serve`` binds
    them: its address and the IMCS server."""
    args = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "games.db"),
            *imcs_args(tmp_path), "--stop-grace", "1", *extra]
    app = build_app(build_parser().parse_args(args), listen("127.0.0.1", 0))
    listener = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio"))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        while not server.started:
            assert not task.done(), "the app did not start"
            await asyncio.sleep(0.02)
        yield f"127.0.0.1:{listener.getsockname()[1]}", app.state.imcs
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)
        listener.close()


def http_client(host: str) -> httpx.AsyncClient:
    """An HTTP client of the app."""
    return httpx.AsyncClient(base_url=f"http://{host}", timeout=WAIT)


class Socket:
    """A WebSocket of the app, read with a time limit."""

    def __init__(self, connection) -> None:
        self.connection = connection

    async def receive(self) -> dict:
        return json.loads(await asyncio.wait_for(self.connection.recv(), WAIT))

    async def until(self, kind: str) -> list[dict]:
        """The messages up to the first of type ``kind`` (included)."""
        seen = [await self.receive()]
        while seen[-1]["type"] != kind:
            seen.append(await self.receive())
        return seen


@contextlib.asynccontextmanager
async def websocket(host: str, path: str) -> AsyncIterator[Socket]:
    async with websockets_client.connect(f"ws://{host}{path}", open_timeout=WAIT) as connection:
        yield Socket(connection)


async def move(mover: Peer, text: str) -> None:
    await mover.prompt(WAIT)
    await mover.send(text)


def test_a_game_over_imcs_followed_on_the_watch_feeds(tmp_path) -> None:
    """Two scripted IMCS clients play 1. a3 b4 2. axb4 axb4 3. Rxa6 on the loopback while the
    feed's socket follows it; a second socket joins after two moves and gets them at once."""

    async def scenario() -> None:
        async with serving(tmp_path) as (host, imcs), \
                http_client(host) as http, \
                websocket(host, "/api/watch/feeds/imcs/ws") as feed:
            state = await feed.receive()
            assert state["type"] == "state" and state["title"] == f"IMCS server {imcs.host}:" \
                f"{imcs.port}"
            assert (state["live"], state["finished"], state["ratings"]) == ([], [], [])
            white, black, game_id = await game(imcs.port)
            started = await feed.receive()
            assert started["type"] == "start"
            assert {k: started["game"][k] for k in ("id", "white", "black", "live", "plies")} == {
                "id": str(game_id), "white": "alice", "black": "bob", "live": True, "plies": 0}
            live = (await http.get("/api/watch")).json()["feeds"][0]["live"]
            assert [g["id"] for g in live] == [str(game_id)]
            await move(white, "a2-a3")
            await move(black, "b5-b4")
            assert [m["ply"] for m in await feed.until("move") + await feed.until("move")] == [1, 2]

            path = f"/api/watch/feeds/imcs/games/{game_id}"
            async with websocket(host, f"{path}/ws") as watcher:
                joined = await watcher.receive()
                assert joined["type"] == "state"
                view = joined["game"]
                assert [h["san"] for h in view["history"]] == KING_CAPTURE_SANS[:2]
                assert view["live"] and view["turn"] == "white" and view["lastmove"] == "b5b4"
                assert view["clock"]["running"] == "white" and view["clock"]["white"] <= 300
                for mover, text in ((white, "a3-b4"), (black, "a5-b4"), (white, "a1-a6")):
                    await move(mover, text)
                moves = [await watcher.receive() for _ in range(3)]
                assert [(m["type"], m["ply"], m["san"]) for m in moves] == [
                    ("move", 3, "axb4"), ("move", 4, "axb4"), ("move", 5, "Rxa6")]
                assert moves[-1]["lastmove"] == "a1a6" and moves[-1]["fen"].startswith("Rqbnr/")
                end = await watcher.receive()
                assert end["type"] == "end" and end["game"]["result"] == "1-0"
                assert (end["game"]["reason"], end["game"]["white_change"]) == ("W wins", 16)
                with pytest.raises(ConnectionClosedOK):
                    await watcher.receive()  # the game is over: the socket closes
            for peer in (white, black):
                assert (await peer.closed()).endswith(b"231 W wins\r\n")

            rest = await feed.until("ratings")
            assert [m["type"] for m in rest] == ["move", "move", "move", "end", "ratings"]
            assert rest[-1]["ratings"] == {"alice": 1016, "bob": 984}

            whole = (await http.get(path)).json()
            assert [h["san"] for h in whole["history"]] == KING_CAPTURE_SANS
            assert whole["moves"] == ["a2a3", "b5b4", "a3b4", "a5b4", "a1a6"]
            assert (whole["result"], whole["termination"], whole["live"]) == (
                "1-0", "king capture", False)
            assert whole["clock"]["running"] is None and len(whole["history"]) == whole["plies"]
            pgn = await http.get(f"{path}/pgn")
            assert pgn.headers["content-type"].startswith("application/x-chess-pgn")
            assert "attachment" in pgn.headers["content-disposition"]
            assert "3. Rxa6" in pgn.text and '[Result "1-0"]' in pgn.text
            state = (await http.get("/api/watch/feeds/imcs")).json()
            assert state["live"] == [] and state["finished"][0]["id"] == str(game_id)
            assert state["ratings"][0] == {"name": "alice", "rating": 1016, "games": 1}
            ratings = (await http.get("/api/watch/feeds/imcs/ratings?variant=minitchess")).json()
            assert [r["name"] for r in ratings] == ["alice", "bob"]
            games = (await http.get("/api/watch/feeds/imcs/games?player=bob&limit=5")).json()
            assert [g["id"] for g in games] == [str(game_id)]

    run(scenario(), timeout=120)


def test_a_whole_game_of_two_imcs_clients_on_the_feed(tmp_path) -> None:
    """Two of our IMCS clients play random moves to the end; the feed shows every move and the
    result as the clients saw them."""

    async def scenario() -> None:
        async with serving(tmp_path) as (host, imcs), \
                http_client(host) as http, \
                websocket(host, "/api/watch/feeds/imcs/ws") as feed:
            await feed.receive()
            white, _, game_id = await play(imcs.port, random_mover(5), random_mover(6))
            seen = await feed.until("end")
            moves = [m["move"] for m in seen if m["type"] == "move"]
            assert moves == [m.uci() for m in white.game.moves]
            assert seen[-1]["game"]["result"] == white.result != "*"
            view = (await http.get(f"/api/watch/feeds/imcs/games/{game_id}")).json()
            assert [h["san"] for h in view["history"]] == white.game.san_moves
            assert view["result"] == white.result and view["reason"] == white.text

    run(scenario(), timeout=120)


def test_a_page_that_leaves_ends_its_subscriptions(tmp_path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path) as (host, imcs):
            white, black, game_id = await game(imcs.port)
            for path in ("/api/watch/feeds/imcs/ws", f"/api/watch/feeds/imcs/games/{game_id}/ws"):
                async with websocket(host, path) as watcher:
                    assert (await watcher.receive())["type"] == "state"
                    assert imcs.feed.subscribers == 1
                for _ in range(200):
                    if not imcs.feed.subscribers:
                        break
                    await asyncio.sleep(0.02)
                assert imcs.feed.subscribers == 0
            white.close()
            black.close()

    run(scenario(), timeout=60)


def test_a_house_bot_of_serve_plays_on_the_feed(tmp_path) -> None:
    """``serve --imcs-port ... --house-bot 1``: the house bot's engine plays in the web app's
    process; its game shows on the feed and its rating in the table."""

    async def scenario() -> None:
        async with serving(tmp_path, "--house-bot", "1", "--house-time", "0:20") as (host, imcs), \
                http_client(host) as http, \
                websocket(host, "/api/watch/feeds/imcs/ws") as feed:
            await feed.receive()
            visitor = await client(imcs.port, "visitor")
            for _ in range(200):
                offers, _ = await visitor.list_games()
                if offers:
                    break
                await asyncio.sleep(0.05)
            start = await visitor.accept(offers[0].id)
            report = await visitor.play(start, random_mover(7), game_id=offers[0].id)
            started = (await feed.until("start"))[-1]["game"]
            assert {started["white"], started["black"]} == {"house-1", "visitor"}
            ended = (await feed.until("end"))[-1]["game"]
            assert ended["result"] == report.result != "*"
            state = (await http.get("/api/watch/feeds/imcs")).json()
            ratings = {r["name"]: r for r in state["ratings"]}
            assert ratings["house-1"]["games"] == ratings["visitor"]["games"] == 1

    run(scenario(), timeout=120)


def test_bad_requests_get_a_4xx_with_a_message(tmp_path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path) as (host, imcs), \
                http_client(host) as http:
            for path, status in [
                ("/api/watch/feeds/nope", 404), ("/api/watch/feeds/nope/ratings", 404),
                ("/api/watch/feeds/imcs/games/99", 404), ("/api/watch/feeds/imcs/games/x", 404),
                ("/api/watch/feeds/imcs/games/-1/pgn", 404),
                ("/api/watch/feeds/imcs/games/99999999999999999999", 404),
                ("/api/watch/feeds/imcs/games?limit=0", 422),
                ("/api/watch/feeds/imcs/games?limit=x", 422),
                ("/api/watch/feeds/imcs/ratings?variant=shogi", 400),
            ]:
                response = await http.get(path)
                assert response.status_code == status, (path, response.text)
                assert response.json()["detail"]
            for path in ("/api/watch/feeds/nope/ws", "/api/watch/feeds/imcs/games/99/ws",
                         "/api/watch/feeds/nope/games/1/ws"):
                with pytest.raises(InvalidStatus):  # refused before accepting
                    async with websocket(host, path):
                        pass
            schema = (await http.get("/openapi.json")).json()
            documented = [path for path in schema["paths"] if path.startswith("/api/watch/feeds")]
            assert len(documented) == 5  # the state, games, a game, its PGN, ratings
            assert "FeedGame" in schema["components"]["schemas"]

            rng = random.Random(10)  # random requests: a 2xx or a 4xx, never a 500
            white, black, game_id = await game(imcs.port)
            values = ["imcs", "nope", str(game_id), "0", "-1", "x" * 100, "%00", "1e9", "chess36",
                      "shogi", "", "alice"]
            for _ in range(150):
                path = rng.choice(documented)
                for name in ("{name}", "{game_id}"):
                    path = path.replace(name, rng.choice(values) or "1")
                params = {key: rng.choice(values) for key in ("limit", "player", "variant")
                          if rng.random() < 0.4}
                response = await http.get(path, params=params)
                assert response.status_code < 500, (path, params, response.text)
            white.close()
            black.close()

    run(scenario(), timeout=120)


def test_connections_to_serves_sockets_send_at_once(tmp_path) -> None:
    """``serve`` binds its sockets itself: the connections they accept still have TCP_NODELAY
    (IMCS answers one line at a time, the web app many requests on one connection)."""

    async def scenario() -> None:
        async with serving(tmp_path) as (_, imcs):
            peer = await Peer.open(imcs.port)
            [session] = imcs.sessions
            accepted = session.conn._writer.get_extra_info("socket")
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            peer.close()
        with contextlib.closing(listen("127.0.0.1", 0)) as listener:
            assert listener.proto == socket.IPPROTO_TCP  # (what asyncio looks at)

    run(scenario(), timeout=60)


def test_serve_refuses_bad_imcs_options_before_it_starts(tmp_path, capsys) -> None:
    from minichess.cli.main import main

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = str(busy.getsockname()[1])
        assert main(["serve", "--port", "0", "--imcs-port", port]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert main(["serve", "--imcs-port", "0", "--imcs-db", str(tmp_path / "no" / "\0")]) == 2
    assert "cannot open the database" in capsys.readouterr().err
    assert main(["serve", "--house-bot", "3", "--imcs-db", "x.db"]) == 2
    assert "--imcs-db, --house-bot: options of the IMCS server" in capsys.readouterr().err
    assert main(["serve", "--imcs-port", "70000"]) == 2
    assert main(["serve", "--help"]) == 0
    assert "--imcs-port PORT" in capsys.readouterr().out


@pytest.mark.solo
def test_serve_stops_the_imcs_server_on_sigterm(tmp_path) -> None:
    """``minichess serve --imcs-port``: a game in progress when SIGTERM comes gets the stop
    grace; a second SIGTERM ends it at once, recorded as aborted with its moves."""
    server = Server(tmp_path / "games.db", *imcs_args(tmp_path))
    loop = asyncio.new_event_loop()
    with server, contextlib.ExitStack() as watchers, contextlib.closing(loop):

        async def scenario() -> tuple[Peer, Peer, int]:
            white, black, game_id = await game(server.imcs_port, timeout=60)
            await move(white, "a2-a3")
            await black.prompt(60)  # the server has stored the move
            return white, black, game_id

        white, black, game_id = loop.run_until_complete(asyncio.wait_for(scenario(), 90))
        listed = httpx.get(f"{server.url}api/watch", timeout=WAIT).json()["feeds"][0]["live"]
        assert [(g["id"], g["plies"]) for g in listed] == [(str(game_id), 1)]
        host = server.url.split("/")[2]
        sockets = [watchers.enter_context(sync_connect(f"ws://{host}{path}", open_timeout=WAIT))
                   for path in ("/api/watch/feeds/imcs/ws",
                                f"/api/watch/feeds/imcs/games/{game_id}/ws")]
        for watcher in sockets:  # open while the server stops: they do not hold it up
            assert json.loads(watcher.recv(WAIT))["type"] == "state"
        server.process.send_signal(signal.SIGTERM)
        server.wait_for(re.escape("1 game(s) in progress get up to 60 s to finish"))
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)  # the second: the game ends now
        server.process.wait(30)
        assert time.monotonic() - started < 20
        for peer in (white, black):
            ending = loop.run_until_complete(peer.closed())
            assert ending.endswith(b"X game aborted: server shutdown\r\n")
        for watcher in sockets:
            with pytest.raises(ConnectionClosed):
                watcher.recv(WAIT)
    store = Store(tmp_path / "imcs.db")
    row = store.game(game_id)
    assert (row.result, row.termination) == ("*", "aborted")
    assert [m.move for m in store.moves(game_id)] == ["a2-a3"]
    store.close()
