"""``minichess imcs`` and ``minichess imcs-server`` as their users run them."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from imcs_support import ServerProcess, game, king_capture, random_mover, run
from minichess.cli.main import main
from minichess.notation.pgn import read_pgn_file
from minichess.protocols.imcs.client import ImcsClient

pytestmark = pytest.mark.solo  # server processes, and the engine on short clocks


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    """A server process with a level-1 house bot on short clocks."""
    server = ServerProcess(tmp_path_factory.mktemp("imcs") / "imcs.db", "--house-bot", "1",
                           "--house-time", "0:08")
    yield server
    assert server.stop() == 0


def test_help_of_both_commands(capsys):
    assert main(["imcs", "--help"]) == 0
    assert "offer" in capsys.readouterr().out
    assert main(["imcs-server", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--house-bot" in text and "--admin" in text and "--db" in text


def test_bad_usage_exits_with_status_2(capsys):
    assert main(["imcs", "offer", "X", "1", "2", "--user", "u", "--password", "p"]) == 2
    assert "expected [W|B|?]" in capsys.readouterr().err
    assert main(["imcs", "accept", "--server", "127.0.0.1:1", "--user", "u", "--password",
                 "p"]) == 2
    assert "cannot connect" in capsys.readouterr().err
    assert main(["imcs-server", "--house-bot", "11"]) == 2


def test_accept_plays_the_house_bot_and_saves_the_games(house, tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    server = f"127.0.0.1:{house.port}"
    assert main(["imcs", "accept", "--server", server, "--user", "visitor", "--password", "pw",
                 "--register", "--player", "random", "--games", "2", "--pgn", str(pgn),
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["played"] == 2
    assert summary["wins"] + summary["draws"] + summary["losses"] == 2
    assert isinstance(summary["rating"], int)
    games = read_pgn_file(pgn)
    assert len(games) == 2
    assert all("house-1" in (g.headers["White"], g.headers["Black"]) for g in games)
    assert main(["imcs", "ratings", "--server", server, "--json"]) == 0
    names = [row["name"] for row in json.loads(capsys.readouterr().out)["ratings"]]
    assert {"house-1", "visitor"} <= set(names)
    assert main(["imcs", "list", "--server", server]) == 0
    assert "house-1" in capsys.readouterr().out


def test_offer_plays_whoever_accepts(house, tmp_path):
    env = dict(os.environ, IMCS_PASSWORD="pw", IMCS_SERVER=f"127.0.0.1:{house.port}")
    offering = subprocess.Popen(
        [sys.executable, "-m", "minichess.cli.main", "imcs", "offer", "B", "0:20", "--user",
         "offerer", "--register", "--player", "greedy", "--pgn", str(tmp_path / "g.pgn")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    async def accept() -> str:
        client = await ImcsClient.connect("127.0.0.1", house.port)
        await client.login("accepter", "pw", register=True)
        for _ in range(300):
            offers, _ = await client.list_games()
            mine = [o for o in offers if o.name == "offerer"]
            if mine:
                break
            await asyncio.sleep(0.1)
        start = await client.accept(mine[0].id)
        report = await client.play(start, random_mover(5))
        return report.result

    try:
        result = run(accept(), timeout=120)
        out, err = offering.communicate(timeout=60)
    finally:
        offering.kill()
    assert offering.returncode == 0, err
    assert "offered game" in err
    assert f": {result} (" in out
    assert "1 games:" in out


def test_a_person_plays_from_the_terminal(house):
    env = dict(os.environ, IMCS_PASSWORD="pw")
    done = subprocess.run(
        [sys.executable, "-m", "minichess.cli.main", "imcs", "accept", "--server",
         f"127.0.0.1:{house.port}", "--user", "person", "--register", "--human", "--pgn", ""],
        input="help\nmoves\nzz9\nresign\n", capture_output=True, text=True, env=env,
        timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Your move (" in done.stdout
    assert "Legal moves (7)" in done.stdout or "Legal moves" in done.stdout
    assert "wins on opponent resignation" in done.stdout


def test_tournament_players_play_until_the_end(tmp_path):
    server = ServerProcess(tmp_path / "imcs.db", "--admin", "root", IMCS_ADMIN_PASSWORD="sesame")
    env = dict(os.environ, IMCS_PASSWORD="pw", IMCS_SERVER=f"127.0.0.1:{server.port}")

    async def admin(command: str) -> str:
        client = await ImcsClient.connect("127.0.0.1", server.port)
        await client.login("root", "sesame")
        reply = await client.request(command)
        client.close()
        return reply

    async def entries() -> int:
        for _ in range(300):
            client = await ImcsClient.connect("127.0.0.1", server.port)
            [tournament] = await client.tournaments()
            client.close()
            if tournament.players == 2:
                return 2
            await asyncio.sleep(0.1)
        return 0

    players = []
    try:
        assert run(admin("tournament new swiss 2 0:20 grace=30")).startswith("240 ")
        players = [subprocess.Popen(
            [sys.executable, "-m", "minichess.cli.main", "imcs", "tournament", "1", "--user",
             name, "--register", "--player", "random", "--pgn", ""],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for name in ("ann", "ben")]
        assert run(entries()) == 2
        assert run(admin("tournament start 1")).startswith("241 tournament 1 started: 2 players")
        outputs = [player.communicate(timeout=90) for player in players]
    finally:
        for player in players:
            player.kill()
        assert server.stop() == 0
    for player, (out, err) in zip(players, outputs, strict=True):
        assert player.returncode == 0, err
        assert "joined tournament 1" in err and "tournament 1 is finished" in err
        assert out.splitlines()[-1].startswith("2 games:")


def test_observe_prints_a_game_until_its_end(house):
    async def scenario() -> str:
        white, black, game_id = await game(house.port, "wanda", "xavier")
        watcher = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "minichess.cli.main", "imcs", "observe", str(game_id),
            "--server", f"127.0.0.1:{house.port}", stdout=asyncio.subprocess.PIPE)
        assert watcher.stdout is not None
        first = await asyncio.wait_for(watcher.stdout.readline(), 60)
        assert first.decode().startswith(f"observing game {game_id}: wanda xavier minitchess")
        await king_capture(white, black)
        out, _ = await asyncio.wait_for(watcher.communicate(), 60)
        assert watcher.returncode == 0
        return out.decode()

    out = run(scenario(), timeout=120)
    assert "! a1-a6" in out
    assert out.rstrip().endswith("231 W wins")
