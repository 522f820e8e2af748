"""The server under load, under faults and under bad input: it answers with the protocol's
errors, never crashes, keeps serving everyone else, and loses nothing it has reported."""

from __future__ import annotations

import asyncio
import os
import re
import time

import pytest

from imcs_support import START_PROMPT, Peer, ServerProcess, game, run, running
from minichess.protocols.imcs.loadtest import run_load
from minichess.protocols.imcs.passwords import Throttle
from minichess.protocols.imcs.store import Store

LOAD_GAMES = 100
"""Games at once in the load test: 200 players, each on a connection of its own."""


async def still_serving(port: int) -> float:
    """Seconds a new client waits for the greeting and the whole ``help`` reply."""
    started = time.perf_counter()
    peer = await Peer.open(port)
    assert await peer.ask("help") == "210 imcs 2.5 help"
    await peer.rows()
    peer.close()
    return time.perf_counter() - started


# --- load --------------------------------------------------------------------------------------


@pytest.mark.solo
def test_200_connections_and_100_games_at_once(tmp_path):
    db = tmp_path / "imcs.db"
    server = ServerProcess(db)
    try:
        report = run(run_load("127.0.0.1", server.port, games=LOAD_GAMES, clock_seconds=30),
                     timeout=120)
    finally:
        assert server.stop() == 0
    figures = report.to_dict()
    assert report.errors == []
    assert report.connections == 2 * LOAD_GAMES + 1
    assert report.finished == LOAD_GAMES
    assert figures["list_requests"] >= 3
    # list answers all along (the figures on a quiet machine: benchmarks/imcs_load.py)
    assert figures["list_ms_median"] < 1000 and figures["list_ms_max"] < 5000, figures
    store = Store(db)
    games = store.finished_games(1000)
    assert len(games) == LOAD_GAMES
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
    assert sum(len(store.moves(g.id)) for g in games) == report.plies
    decisive = [g for g in games if g.result != "1/2-1/2"]
    assert all(g.white_change and g.black_change for g in decisive)
    rated = dict(store.ratings("minitchess"))
    assert sum(rating - 1000 for rating in rated.values()) in range(-LOAD_GAMES, LOAD_GAMES + 1)
    store.close()


# --- faults ------------------------------------------------------------------------------------


@pytest.mark.solo
def test_a_server_killed_mid_game_restarts_with_all_it_reported(tmp_path):
    db = tmp_path / "imcs.db"

    async def scenario():
        first = ServerProcess(db)
        try:
            white, black, finished = await game(first.port)
            await white.prompt()
            await white.send("a2-a3")
            await black.prompt()
            await black.send("resign")
            await white.closed()
            carol, dave, interrupted = await game(first.port, "carol", "dave")
            await carol.prompt()
            await carol.send("b2-b3")
            await dave.prompt()
            await dave.send("e5-e4")
            await carol.prompt()  # the server has stored both moves before it said so
        finally:
            first.kill()
        assert await carol.closed() == b""
        second = ServerProcess(db)
        try:
            peer = await Peer.open(second.port)
            assert await peer.ask("me alice pw") == "201 hello alice"
            assert await peer.ask("ratings") == "212 ratings"
            assert await peer.rows() == [" alice 1016", " carol 1000", " dave 1000", " bob 984"]
            assert await peer.ask("games") == "213 2 finished games"
            rows = await peer.rows()
            assert rows[0].startswith(f" {interrupted} carol dave * minitchess ")
            assert rows[0].endswith(" aborted: server stopped during the game")
            assert rows[1].startswith(f" {finished} alice bob 1-0 minitchess ")
            assert await peer.ask(f"pgn {interrupted}") == f"217 pgn of game {interrupted}"
            pgn = "\n".join(await peer.rows())
            assert '[Result "*"]' in pgn and '[Termination "aborted"]' in pgn
            assert re.search(r"\n1\. b3 \{\[%clk 0:05:00\]\} 1\.\.\. e4 \{[^}]*\} \*$", pgn)
            next_offer = await peer.ask("offer")
            assert int(next_offer.split()[1]) > interrupted
        finally:
            assert second.stop() == 0

    run(scenario(), timeout=120)


def test_the_administrator_stops_the_server_and_unfinished_games_are_aborted(tmp_path):
    async def scenario():
        async with running(admins=("root",), db=tmp_path / "imcs.db", stop_grace=0.2) as server:
            white, black, game_id = await game(server.port)
            await white.prompt()
            waiting = await Peer.logged_in(server.port, "carol")
            assert (await waiting.ask("offer")).startswith("103 ")
            admin = await Peer.logged_in(server.port, "root")
            assert await admin.ask("resetpass bob secret") == "207 password for bob is secret"
            assert await admin.ask("stop 0") == "104 stopping server"
            assert await admin.line() == "205 server stopped"
            assert await waiting.line() == "421 offer countermanded"
            assert await white.closed() == b"X game aborted: server shutdown\r\n"
            assert await black.closed() == b"X game aborted: server shutdown\r\n"
            with pytest.raises(OSError):
                await Peer.open(server.port)
        store = Store(tmp_path / "imcs.db")
        row = store.game(game_id)
        assert (row.result, row.termination, row.reason) == (
            "*", "aborted", "aborted: server shutdown")
        assert store.rating("alice", "minitchess") == 1000
        store.close()

    run(scenario())


def test_a_non_administrator_cannot_stop_the_server():
    async def scenario():
        async with running(admins=("root",)) as server:
            peer = await Peer.logged_in(server.port, "mallory")
            assert await peer.ask("stop") == "502 admin only"
            assert await peer.ask("resetpass root x") == "502 admin only"
            assert await peer.ask("tournament new swiss 3 60") == "502 admin only"
            assert not server.stopping

    run(scenario())


# --- bad input ---------------------------------------------------------------------------------


def test_overlong_lines_are_answered_and_cut():
    async def scenario():
        async with running() as server:
            peer = await Peer.open(server.port)
            await peer.send("register alice " + "x" * 5000)
            assert await peer.line() == "409 register: usage: register <player> <password>"
            await peer.send("y" * 100_000)
            assert await peer.line() == "501 unknown command"
            white, _black, _ = await game(server.port, "carol", "dave")
            await white.prompt()
            await white.send("a" * 3000)
            reply = await white.line()
            assert reply == "- invalid move " + "a" * 1024
            await white.expect(START_PROMPT)
            assert await peer.ask("me alice " + "x" * 5000) == "409 me: usage: me <player>" \
                " <password>"
            assert await still_serving(server.port) < 2

    run(scenario())


def test_binary_garbage_half_lines_and_a_closed_half_line():
    async def scenario():
        async with running() as server:
            garbage = await Peer.open(server.port)
            noise = bytes(range(256)) * 64 + os.urandom(4096)
            await garbage.send(noise.replace(b"\n", b"").replace(b"\r", b"") + b"\r\nhelp")
            assert await garbage.line() == "501 unknown command"
            assert await garbage.line() == "210 imcs 2.5 help"
            await garbage.rows()
            await garbage.send(b"\xff\xfe\x00 \x01", b"quit")
            assert await garbage.line() == "501 unknown command"
            assert await garbage.line() == "200 Goodbye"
            half = await Peer.open(server.port)
            await half.send(b"li", end=b"")
            await asyncio.sleep(0.2)
            await half.send(b"st\r", end=b"")
            assert await half.line() == "211 0 available games"
            await half.send(b"regis", end=b"")
            half.close()
            white, _black, _ = await game(server.port)
            await white.prompt()
            await white.send(b"a2-\xff\x00", end=b"\n")
            assert await white.line() == "- invalid move a2-\\[ff]\\[00]"
            assert await still_serving(server.port) < 2

    run(scenario())


@pytest.mark.solo
def test_a_flood_does_not_hold_up_anyone_else():
    async def scenario():
        async with running() as server:
            flood = await Peer.open(server.port)
            await flood.send(*(["list"] * 20_000))
            delays = [await still_serving(server.port) for _ in range(3)]
            assert max(delays) < 2
            answers = 0
            while answers < 20_000:
                assert await flood.line() == "211 0 available games"
                assert await flood.line() == "."
                answers += 1
            rude = await Peer.open(server.port)
            rude.writer.write(b"help\r\n" * 50_000)
            rude.close()
            assert await still_serving(server.port) < 2

    run(scenario(), timeout=120)


def test_moves_out_of_turn_and_in_someone_elses_game():
    async def scenario():
        async with running() as server:
            white, black, _ = await game(server.port)
            await white.prompt()
            await black.send("a2-a3")  # White's pawn, on White's turn: read on Black's turn
            outsider = await Peer.logged_in(server.port, "carol")
            assert await outsider.ask("a2-a3") == "501 unknown command"
            assert await outsider.ask("! a2-a3") == "501 unknown command"
            assert await outsider.ask("resign") == "501 unknown command"
            await white.send("b2-b3")
            before, state, _ = await black.prompt()
            assert before == ["! b2-b3"]
            before, state, _ = await black.prompt()
            assert before == ["- illegal move a2-a3"]
            assert state.startswith("1 B\n")

    run(scenario())


@pytest.mark.solo
def test_a_thousand_wrong_passwords_are_slowed_down_per_account():
    throttle = Throttle(free=5, base=0.001, longest=0.004)

    async def scenario():
        async with running(account_throttle=throttle) as server:
            await Peer.logged_in(server.port, "alice", "right")
            await Peer.logged_in(server.port, "bob", "pw")
            guessers = [await Peer.open(server.port) for _ in range(10)]
            started = time.perf_counter()

            async def guess(peer: Peer) -> list[str]:
                await peer.send(*(f"me alice guess{n}" for n in range(100)))
                return [await peer.line(timeout=30) for _ in range(100)]

            storm = asyncio.gather(*(guess(peer) for peer in guessers))
            await asyncio.sleep(0.3)
            other = await Peer.open(server.port)
            asked = time.perf_counter()
            assert await other.ask("me bob pw") == "201 hello bob"
            assert time.perf_counter() - asked < 2.0
            replies = [reply for replies in await storm for reply in replies]
            elapsed = time.perf_counter() - started
            assert replies == ["401 wrong password"] * 1000
            assert elapsed > 0.9 * (1000 - throttle.free) * throttle.longest
            assert await other.ask("me alice right") == "201 hello alice"
            assert throttle.delay("account:alice") == 0

    run(scenario(), timeout=120)


@pytest.mark.solo
def test_wrong_passwords_from_one_address_are_slowed_down_across_accounts():
    throttle = Throttle(free=5, base=0.001, longest=0.004)

    async def scenario():
        async with running(address_throttle=throttle) as server:
            for n in range(20):
                await Peer.logged_in(server.port, f"p{n}")
            peer = await Peer.open(server.port)
            started = time.perf_counter()
            await peer.send(*(f"me p{n % 20} wrong" for n in range(300)))
            replies = [await peer.line(timeout=30) for _ in range(300)]
            assert replies == ["401 wrong password"] * 300
            assert time.perf_counter() - started > 0.9 * 295 * throttle.longest
            assert throttle.delay("address:127.0.0.1") > 0

    run(scenario(), timeout=60)
