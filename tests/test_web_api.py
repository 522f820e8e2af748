"""The web API: every endpoint, and every kind of bad request answered with a 4xx and a message.

The app runs in-process (FastAPI's TestClient); sessions are the ``minichess_session`` cookie.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from minichess.web import create_app
from minichess.web.context import SESSION_COOKIE


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        client.cookies.set(SESSION_COOKIE, "alice")
        yield client


def wait_for(client: TestClient, game_id: str, done: Callable[[dict], bool],
             timeout: float = 60) -> dict:
    """Poll the game until ``done(view)``; the first engine move may compile the search."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(f"/api/games/{game_id}").json()
        if done(view) or time.monotonic() > deadline:
            return view
        time.sleep(0.05)


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    return detail


def new_game(client: TestClient, **body) -> dict:
    response = client.post("/api/games", json={"variant": "csc111", "level": 1, **body})
    assert response.status_code == 201, response.text
    return response.json()


# --- variants, pieces, pictures -----------------------------------------------------------------


def test_variants_and_pieces(client: TestClient) -> None:
    variants = {v["name"]: v for v in client.get("/api/variants").json()}
    assert variants["chess36"]["reserves"] and variants["chess36"]["promotion"] == "QRBN"
    assert (variants["csc111"]["files"], variants["csc111"]["ranks"]) == (4, 4)
    assert set(client.get("/api/pieces").json()) == set("PNBRQKpnbrqk")
    picture = client.get("/api/pieces/n.svg")
    assert picture.headers["content-type"].startswith("image/svg+xml")
    error(client.get("/api/pieces/x.svg"), 400)
    error(client.get("/api/pieces/KK.svg"), 400)


def test_position_pictures(client: TestClient) -> None:
    response = client.get("/api/svg", params={"variant": "chess36", "orientation": "black",
                                              "lastmove": "c2c3", "size": 200})
    assert response.status_code == 200 and 'data-orientation="black"' in response.text
    error(client.get("/api/svg", params={"variant": "shogi"}), 400)
    error(client.get("/api/svg", params={"fen": "8/8 w"}), 400)
    error(client.get("/api/svg", params={"lastmove": "a1a8"}), 400)
    error(client.get("/api/svg", params={"lastmove": "nonsense"}), 400)
    error(client.get("/api/svg", params={"orientation": "up"}), 422)
    error(client.get("/api/svg", params={"size": 0}), 422)


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}/move", "/api/games/{game_id}/undo",
                 "/api/games/{game_id}/resign", "/api/position", "/api/analyse",
                 "/api/pgn/read", "/api/pgn/write", "/api/watch", "/api/svg"):
        assert path in paths
    assert client.get("/docs").status_code == 200
    assert "minichess" in client.get("/").text


# --- positions, analysis, PGN -------------------------------------------------------------------


def test_position_with_history(client: TestClient) -> None:
    body = client.post("/api/position", json={"variant": "minitchess",
                                              "moves": ["b2b3", "d5d4", "Nc3"]}).json()
    assert [h["san"] for h in body["history"]] == ["b3", "d4", "Nc3"]
    assert body["lastmove"] == "b1c3" and body["turn"] == "black" and body["result"] == "*"
    assert len(body["legal"]) == len(body["legal_san"]) > 0


def test_position_at_the_end_of_a_game(client: TestClient) -> None:
    body = client.post("/api/position", json={"variant": "csc111", "fen": "k3/1Q2/1K2/4 b - - 0 1"}
                       ).json()
    assert body["outcome"]["termination"] == "checkmate" and body["legal"] == []


@pytest.mark.parametrize("body, status, words", [
    ({"variant": "nope"}, 400, "unknown variant"),
    ({"fen": "kqbnr/ppppp/5/5/PPPPP w - - 0 1"}, 400, "rank"),
    ({"moves": ["b2b3", "b2b3"]}, 400, "move 2"),
    ({"moves": ["zz9"]}, 400, "move 1"),
    ({"moves": "b2b3"}, 422, "moves"),
    ({"colour": "white"}, 422, "colour"),
    ({"moves": ["a2a3"] * 2001}, 422, "moves"),
    ({"moves": ["a2a3" * 100]}, 422, "moves"),
])
def test_position_bad_input(client: TestClient, body: dict, status: int, words: str) -> None:
    assert words in error(client.post("/api/position", json=body), status)


def test_malformed_json_gets_422(client: TestClient) -> None:
    response = client.post("/api/position", content=b"{not json",
                           headers={"content-type": "application/json"})
    error(response, 422)
    error(client.post("/api/position", json=[1, 2]), 422)


def test_analyse_reports_each_depth(client: TestClient) -> None:
    body = client.post("/api/analyse", json={"variant": "csc111", "depth": 4, "seconds": 5}).json()
    depths = [info["depth"] for info in body["infos"]]
    assert depths == list(range(1, 5))
    deepest = body["infos"][-1]
    assert deepest["pv"] and len(deepest["pv"]) == len(deepest["pv_san"])
    error(client.post("/api/analyse", json={"variant": "csc111", "seconds": 0}), 422)
    error(client.post("/api/analyse", json={"variant": "csc111", "depth": 99}), 422)
    error(client.post("/api/analyse", json={"variant": "csc111",
                                            "fen": "k3/1Q2/1K2/4 b - - 0 1"}), 409)


def test_analysis_websocket(client: TestClient) -> None:
    with client.websocket_connect("/api/analysis") as socket:
        socket.send_json({"variant": "nope"})
        assert socket.receive_json()["type"] == "error"
        socket.send_json([1])
        assert socket.receive_json()["type"] == "error"
        socket.send_json({"variant": "csc111", "seconds": 1000})
        assert "seconds" in socket.receive_json()["detail"]
        socket.send_json({"variant": "csc111", "moves": ["b2a3"], "seconds": 0.3})
        messages = []
        while not messages or messages[-1]["type"] != "done":
            messages.append(socket.receive_json())
        assert all(m["type"] == "info" for m in messages[:-1]) and len(messages) >= 2
        assert [m["depth"] for m in messages[:-1]] == sorted(m["depth"] for m in messages[:-1])
        socket.send_json({"variant": "csc111", "seconds": 30})
        socket.send_json({"stop": True})  # stops at once; the socket stays usable
        socket.send_json({"variant": "minitchess"})
        assert socket.receive_json()["type"] in ("info", "done")


def test_pgn_read_and_write(client: TestClient) -> None:
    written = client.post("/api/pgn/write", json={"variant": "minitchess",
                                                  "moves": ["b3", "d4"],
                                                  "headers": {"White": "Ann"}}).json()["pgn"]
    assert '[White "Ann"]' in written and "1. b3 d4" in written
    games = client.post("/api/pgn/read", json={"pgn": written}).json()
    assert games[0]["moves"] == ["b2b3", "d5d4"] and games[0]["variant"] == "minitchess"
    error(client.post("/api/pgn/read", json={"pgn": '[Variant "minitchess"]\n\n1. e9 *'}), 400)
    error(client.post("/api/pgn/read", json={"pgn": ""}), 422)
    error(client.post("/api/pgn/write", json={"variant": "minitchess", "moves": ["e9"]}), 400)
    error(client.post("/api/pgn/write", json={"result": "2-0"}), 422)
    error(client.post("/api/pgn/write", json={"headers": {"Bad Tag": "x"}}), 422)


# --- games --------------------------------------------------------------------------------------


def test_play_a_move_and_get_the_reply(client: TestClient) -> None:
    game = new_game(client)
    assert game["legal"] and game["owner"] and game["people"] == ["white"]
    after = client.post(f"/api/games/{game['id']}/move", json={"move": "bxa3"}).json()
    assert after["moves"] == ["b2a3"] and after["legal"] == []
    view = wait_for(client, game["id"], lambda v: len(v["moves"]) == 2)
    assert len(view["sans"]) == 2 and view["legal"]
    assert client.get(f"/api/games/{game['id']}/pgn").text.startswith('[Event "minichess web"]')
    assert client.get(f"/api/games/{game['id']}/svg").status_code == 200


def test_engine_opens_when_you_take_black(client: TestClient) -> None:
    game = new_game(client, color="black")
    view = wait_for(client, game["id"], lambda v: len(v["moves"]) == 1)
    assert view["legal"] and view["players"]["white"]["level"] == 1


@pytest.mark.parametrize("body, status", [
    ({"level": 0}, 422), ({"level": 11}, 422), ({"level": "strong"}, 422),
    ({"variant": "nope"}, 400), ({"fen": "x"}, 400), ({"color": "green"}, 422),
    ({"clock": {"initial": 0}}, 422), ({"clock": {"initial": 60, "increment": -1}}, 422),
    ({"move_time": 0}, 422), ({"fen": "k3/1Q2/1K2/4 b - - 0 1"}, 409), ({"extra": 1}, 422),
])
def test_new_game_bad_input(client: TestClient, body: dict, status: int) -> None:
    error(client.post("/api/games", json={"variant": "csc111", **body}), status)


def test_bad_moves(client: TestClient) -> None:
    game = new_game(client, variant="minitchess")
    url = f"/api/games/{game['id']}/move"
    assert "illegal" in error(client.post(url, json={"move": "b2b4"}), 400)
    assert "cannot read" in error(client.post(url, json={"move": "hello"}), 400)
    error(client.post(url, json={"move": ""}), 422)
    error(client.post(url, json={}), 422)
    error(client.post(url, json={"move": "b2b3" * 10}), 422)
    error(client.post("/api/games/no-such-game/move", json={"move": "b2b3"}), 404)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []  # nothing changed


def test_not_your_turn_while_the_engine_thinks(client: TestClient) -> None:
    # minichess-classic: minitchess's opening book would answer b3 at once
    game = new_game(client, variant="minichess-classic", level=10, move_time=3)
    url = f"/api/games/{game['id']}/move"
    client.post(url, json={"move": "b2b3"})
    assert "engine's turn" in error(client.post(url, json={"move": "c2c3"}), 409)
    client.post(f"/api/games/{game['id']}/undo")  # stops the search at once
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_a_long_search_holds_up_neither_the_server_nor_other_games(client: TestClient) -> None:
    slow = new_game(client, variant="chess36", level=10, move_time=4)
    client.post(f"/api/games/{slow['id']}/move", json={"move": "c2c3"})
    start = time.monotonic()
    quick = new_game(client)
    client.post(f"/api/games/{quick['id']}/move", json={"move": "b2a3"})
    wait_for(client, quick["id"], lambda v: len(v["moves"]) == 2, timeout=10)
    assert client.get(f"/api/games/{slow['id']}").json()["thinking"]
    assert time.monotonic() - start < 3  # all while the slow game's engine still thinks
    client.post(f"/api/games/{slow['id']}/resign")


def test_other_sessions_may_watch_but_not_play(client: TestClient) -> None:
    game = new_game(client)
    client.cookies.set(SESSION_COOKIE, "bob")
    view = client.get(f"/api/games/{game['id']}").json()
    assert not view["owner"] and view["legal"] == []
    for action, body in (("move", {"move": "b2a3"}), ("undo", {}), ("resign", {})):
        error(client.post(f"/api/games/{game['id']}/{action}", json=body), 403)
    assert client.get("/api/games").json() == []
    client.cookies.set(SESSION_COOKIE, "alice")
    assert [g["id"] for g in client.get("/api/games").json()] == [game["id"]]


def test_a_new_browser_gets_a_session_cookie(client: TestClient) -> None:
    client.cookies.clear()
    response = client.get("/api/games")
    assert SESSION_COOKIE in response.cookies


def test_undo(client: TestClient) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}"
    assert "take back" in error(client.post(f"{url}/undo"), 409)
    client.post(f"{url}/move", json={"move": "b2a3"})
    wait_for(client, game["id"], lambda v: len(v["moves"]) == 2)
    view = client.post(f"{url}/undo").json()
    assert view["moves"] == [] and view["legal"]


def test_undo_after_a_mate_goes_on_for_those_watching(client: TestClient) -> None:
    game = new_game(client, fen="k3/4/1K2/2Q1 w - - 0 1")
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        view = client.post(f"/api/games/{game['id']}/move", json={"move": "Qc4"}).json()
        assert view["outcome"]["termination"] == "checkmate"
        assert socket.receive_json()["outcome"]["text"] == "White wins by checkmate"
        client.post(f"/api/games/{game['id']}/undo")
        after = socket.receive_json()
        assert after["outcome"] is None and after["moves"] == [] and after["legal"]


def test_undo_after_the_engine_opened(client: TestClient) -> None:
    game = new_game(client, color="black")
    wait_for(client, game["id"], lambda v: len(v["moves"]) == 1)
    error(client.post(f"/api/games/{game['id']}/undo"), 409)


def test_resign(client: TestClient) -> None:
    game = new_game(client)
    view = client.post(f"/api/games/{game['id']}/resign").json()
    assert view["result"] == "0-1" and view["outcome"]["termination"] == "resignation"
    error(client.post(f"/api/games/{game['id']}/resign"), 409)
    error(client.post(f"/api/games/{game['id']}/move", json={"move": "b2a3"}), 409)
    error(client.post(f"/api/games/{game['id']}/undo"), 409)


def test_losing_on_time(client: TestClient) -> None:
    game = new_game(client, clock={"initial": 0.3, "increment": 0})
    assert game["clock"]["running"] == "white"
    view = wait_for(client, game["id"], lambda v: v["result"] != "*", timeout=10)
    assert view["outcome"]["termination"] == "time forfeit" and view["result"] == "0-1"
    assert view["clock"]["running"] is None


def test_game_feed_websocket(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["version"] == game["version"]
        client.post(f"/api/games/{game['id']}/move", json={"move": "b2a3"})
        seen = [socket.receive_json()]
        while len(seen[-1]["moves"]) < 2:
            seen.append(socket.receive_json())
        assert seen[-1]["legal"]  # the owner's socket shows the legal moves
    with pytest.raises(WebSocketDisconnect) as closed, \
            client.websocket_connect("/api/games/nope/ws") as socket:
        socket.receive_json()
    assert closed.value.code == 4404


def test_watch_an_engine_game(client: TestClient) -> None:
    response = client.post("/api/watch", json={"variant": "csc111", "white_level": 1,
                                               "black_level": 2, "move_time": 0.05, "delay": 0})
    assert response.status_code == 201
    game = response.json()
    view = wait_for(client, game["id"], lambda v: v["result"] != "*", timeout=120)
    assert view["outcome"] is not None and view["kind"] == "watch" and view["people"] == []
    listed = client.get("/api/watch").json()
    assert [g["id"] for g in listed["engine_games"]] == [game["id"]] and listed["feeds"] == []
    error(client.post(f"/api/games/{game['id']}/undo"), 409)
    error(client.post("/api/watch", json={"white_level": 0}), 422)
    error(client.post("/api/watch", json={"delay": -1}), 422)


def test_games_survive_a_restart(tmp_path) -> None:
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database)) as client:
        client.cookies.set(SESSION_COOKIE, "alice")
        game = new_game(client, clock={"initial": 600, "increment": 1})
        client.post(f"/api/games/{game['id']}/move", json={"move": "b2a3"})
        before = wait_for(client, game["id"], lambda v: len(v["moves"]) == 2)
        stopped = new_game(client, level=10, move_time=30, color="black")  # searching at the stop
    with TestClient(create_app(database)) as client:
        client.cookies.set(SESSION_COOKIE, "alice")
        view = client.get(f"/api/games/{game['id']}").json()
        assert view["moves"] == before["moves"] and view["legal"]
        assert view["clock"]["white"] == pytest.approx(before["clock"]["white"], abs=1.0)
        client.post(f"/api/games/{game['id']}/move", json={"move": view["legal"][0]})
        assert len(wait_for(client, game["id"], lambda v: len(v["moves"]) == 4)["moves"]) == 4
        client.post(f"/api/games/{stopped['id']}/resign")  # the engine took its move up again
        assert client.get(f"/api/games/{stopped['id']}").json()["result"] == "1-0"


# --- the serve command --------------------------------------------------------------------------


def test_serve_refuses_a_busy_port_and_bad_options(capsys) -> None:
    import socket

    from minichess.cli.main import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert "cannot listen" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--help"]) == 0
    assert "--open" in capsys.readouterr().out


def test_random_requests_never_get_a_500(client: TestClient) -> None:
    """Every endpoint of the OpenAPI schema, with its body's fields filled with random values of
    random types, and random ids: a 2xx or a 4xx with a message, never a server error."""
    import random

    rng = random.Random(11)
    values = [None, True, -1, 0, 1, 11, 2**70, 1e308, -0.5, "", "b2b3", "Q@d6", "x" * 300,
              "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1", "8/8/8 w", "\u265a\u0000", [], [1, "a"],
              ["b2b3", "zz"], {}, {"initial": 1}, {"initial": "x"}]
    plausible = {
        "variant": ["csc111", "chess36", "minitchess", "antichess", "shogi"],
        "fen": [None, "k3/1Q2/1K2/4 b - - 0 1", "1k2/4/4/1R1K b - - 0 1", "k5/3K2/6/6/6/6[Q] w",
                "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[Q] w - - 0 1", "kqbnr/ppppp/5/5/PPPPP/RNBQK"],
        "moves": [[], ["b2a3"], ["b2b3", "d5d4"], ["Q@d6"], ["c2c3", "c5c4", "b2b3"], ["e4"]],
        "move": ["b2a3", "b2b3", "Qc4", "a5a6q", "Q@d6", "c1c4", "resign"],
        "level": [1, 2, 0], "white_level": [1, 0], "black_level": [1, 11],
        "color": ["white", "black", "random", "blue"], "seconds": [0.05, 0, 400],
        "depth": [1, 2, 0], "move_time": [0.05, 0], "delay": [0, -1],
        "clock": [None, {"initial": 5, "increment": 1}, {"initial": -5}],
        "pgn": ['[Variant "csc111"]\n\n1. bxa3 *', "1. e4 e5 *", "[Event", "1-0"],
        "headers": [{}, {"White": "A"}, {"Bad Tag": "x"}], "result": ["1-0", "*", "2-0"],
    }
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    game_id = new_game(client)["id"]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            reference = (operation.get("requestBody", {}).get("content", {})
                         .get("application/json", {}).get("schema", {}).get("$ref", ""))
            fields = list(components[reference.rsplit("/", 1)[1]]["properties"]) if reference \
                else []
            for _ in range(40):
                url = path.replace("{game_id}", rng.choice([game_id, "nope", "%00", "x" * 80]))
                url = url.replace("{letter}", rng.choice(["K", "kk", "?", "1"]))
                params = {name: rng.choice(values) for name in ("variant", "fen", "orientation",
                                                                "lastmove", "size")
                          if rng.random() < 0.3 and method == "get"}
                params = {k: v for k, v in params.items() if isinstance(v, str | int)}
                body = {name: rng.choice(plausible.get(name, values) if rng.random() < 0.8
                                         else values) for name in fields if rng.random() < 0.6}
                response = client.request(method.upper(), url, params=params,
                                          json=body if method == "post" else None)
                assert response.status_code < 500, (method, url, body, response.text)
                if response.status_code >= 400 and "json" in response.headers["content-type"]:
                    assert response.json()["detail"]
