"""Tournaments: the pairing arithmetic, and tournaments run by the server to their end."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter

import pytest

from imcs_support import Peer, random_mover, run, running
from minichess.protocols.imcs.client import GameReport, ImcsClient, OfferCountermanded
from minichess.protocols.imcs.pairing import (
    ROUND_ROBIN,
    SWISS,
    records,
    round_robin,
    standings,
    swiss_round,
)

# --- pairing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 10))
def test_a_round_robin_pairs_everyone_once_with_balanced_colours(count):
    players = [f"p{n}" for n in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == count - 1 + count % 2
    met = Counter()
    whites = Counter()
    for boards in rounds:
        seated = [name for board in boards for name in board if name is not None]
        assert sorted(seated) == sorted(players)
        for white, black in boards:
            if black is not None:
                met[frozenset((white, black))] += 1
                whites[white] += 1
    assert set(met.values()) == {1} and len(met) == count * (count - 1) // 2
    games = count - 1
    assert all(games // 2 <= whites[name] <= (games + 1) // 2 for name in players)
    byes = Counter(white for boards in rounds for white, black in boards if black is None)
    assert byes == (Counter(players) if count % 2 else Counter())


def test_a_double_round_robin_swaps_the_colours():
    rounds = round_robin(["a", "b", "c", "d"], cycles=2)
    assert len(rounds) == 6
    assert rounds[3:] == [[(black, white) for white, black in boards] for boards in rounds[:3]]


def play_swiss(count: int, rounds: int, seed: int = 0) -> list[list[tuple[str, str | None]]]:
    """Pair ``rounds`` Swiss rounds, the higher-numbered player winning each game."""
    rng = random.Random(seed)
    players = [f"p{n:02}" for n in range(count)]
    ratings = {name: rng.randrange(900, 1400) for name in players}
    results: list[tuple[str, str | None, str | None]] = []
    history = []
    for number in range(1, rounds + 1):
        boards = swiss_round(records(SWISS, players, ratings, results), number)
        history.append(boards)
        for white, black in boards:
            result = "bye" if black is None else ("1-0" if white > black else "0-1")
            results.append((white, black, result))
    return history


@pytest.mark.parametrize(("count", "rounds"), [(6, 5), (7, 5), (8, 4), (9, 6), (16, 6)])
def test_swiss_rounds_never_repeat_a_game_and_give_byes_to_different_players(count, rounds):
    history = play_swiss(count, rounds)
    games = [frozenset(board) for boards in history for board in boards if board[1]]
    assert len(games) == len(set(games))
    byes = [white for boards in history for white, black in boards if black is None]
    assert len(byes) == (rounds if count % 2 else 0) and len(set(byes)) == len(byes)
    for boards in history:
        seated = [name for board in boards for name in board if name]
        assert len(seated) == len(set(seated)) == count


def test_swiss_pairs_within_score_groups_top_half_against_bottom_half():
    players = ["a", "b", "c", "d"]
    ratings = {"a": 1400, "b": 1300, "c": 1200, "d": 1100}
    first = swiss_round(records(SWISS, players, ratings, []), 1)
    assert {frozenset(board) for board in first} == {frozenset("ac"), frozenset("bd")}
    results = [(w, b, "1-0" if w in "ab" else "0-1") for w, b in first]
    second = swiss_round(records(SWISS, players, ratings, results), 2)
    assert {frozenset(board) for board in second} == {frozenset("ab"), frozenset("cd")}


def test_standings_break_ties_and_share_ranks():
    results = [("a", "b", "1-0"), ("c", "d", "1/2-1/2"), ("a", "c", "0-1"), ("b", "d", "1-0"),
               ("a", "d", "1-0"), ("b", "c", "1-0")]
    table = standings(ROUND_ROBIN, records(ROUND_ROBIN, "abcd", {}, results))
    assert [(r.name, r.points, r.rank) for r in table] == [
        ("a", 2.0, 1), ("b", 2.0, 2), ("c", 1.5, 3), ("d", 0.5, 4)]
    assert table[0].sonneborn_berger == 2.5 and table[1].sonneborn_berger == 2.0
    level = standings(SWISS, records(SWISS, "ab", {}, [("a", "b", "1/2-1/2")]))
    assert [r.rank for r in level] == [1, 1]
    swiss = records(SWISS, "abc", {}, [("a", "b", "1-0"), ("c", None, "bye")])
    assert (swiss["a"].points, swiss["c"].points, swiss["a"].buchholz) == (1.0, 1.0, 0.0)
    no_show = records(SWISS, "ab", {}, [("a", "b", "0-0")])
    assert (no_show["a"].points, no_show["a"].games) == (0.0, 1)


# --- tournaments on the server -----------------------------------------------------------------


async def entrant(port: int, name: str, tournament: int, seed: int) -> list[GameReport]:
    """A player that comes to each of its tournament games (by offering) until the end."""
    reports = []
    for number in itertools.count():
        client = await ImcsClient.connect("127.0.0.1", port)
        await client.login(name, "pw", register=True)
        status = {t.id: t.status for t in await client.tournaments()}[tournament]
        if status not in ("open", "running"):
            client.close()
            return reports
        await client.offer()
        try:
            start = await client.wait_for_start(timeout=30)
        except OfferCountermanded:
            client.close()
            return reports
        reports.append(await client.play(start, random_mover(seed + number)))
        client.close()
    return reports


def test_a_round_robin_from_entries_to_standings():
    async def scenario():
        async with running(admins=("root",)) as server:
            admin = await Peer.logged_in(server.port, "root")
            assert await admin.ask("tournament new round-robin 1 30 grace=20 name=spring") == (
                "240 tournament 1 open for entries: spring round-robin minitchess 0:30 1 cycles")
            for name in ("ann", "ben", "cat"):
                peer = await Peer.logged_in(server.port, name)
                assert await peer.ask("join 1") == f"242 {name} joined tournament 1"
            assert await admin.ask("join 1") == "242 root joined tournament 1"
            assert await admin.ask("leave 1") == "244 root left tournament 1"
            assert await admin.ask("leave 1") == "443 root is not in tournament 1"
            assert await admin.ask("join 2") == "440 no such tournament 2"
            playing = [asyncio.ensure_future(entrant(server.port, name, 1, n))
                       for n, name in enumerate(("ann", "ben", "cat"))]
            await asyncio.sleep(0.2)
            assert await admin.ask("list") == "211 0 available games"  # offers held
            await admin.rows()
            assert await admin.ask("tournament start 1") == (
                "241 tournament 1 started: 3 players, 3 rounds")
            assert await admin.ask("join 1") == "441 tournament 1 is not open for entries"
            reports = await asyncio.wait_for(asyncio.gather(*playing), 60)
            assert [len(r) for r in reports] == [2, 2, 2]
            assert await admin.ask("tournaments") == "218 1 tournaments"
            assert await admin.rows() == [
                " 1 spring round-robin minitchess 0:30 finished round 3/3 3 players"]
            assert await admin.ask("standings 1") == (
                "219 standings of tournament 1 spring: finished, round 3 of 3")
            rows = await admin.rows()
            assert len(rows) == 3 and all(" games=2" in row for row in rows)
            points = sum(float(row.split()[2]) for row in rows)
            assert points == 3.0
            assert await admin.ask("pairings 1 1") == "220 round 1 of tournament 1"
            boards = await admin.rows()
            assert sum(row.endswith(" bye") for row in boards) == 1
            games = [g for g in server.store.finished_games(10) if g.tournament == 1]
            assert len(games) == 3 and {g.round for g in games} == {1, 2, 3}

    run(scenario(), timeout=120)


def test_a_player_who_does_not_come_loses_by_no_show():
    async def scenario():
        async with running(admins=("root",)) as server:
            admin = await Peer.logged_in(server.port, "root")
            await admin.ask("tournament new swiss 1 60 grace=0.5")
            for name in ("ann", "ben"):
                await Peer.logged_in(server.port, name)
                assert (await admin.ask(f"tournament add 1 {name}")).startswith("242 ")
            present = await Peer.logged_in(server.port, "ann")
            assert (await present.ask("offer")).startswith("103 ")
            assert (await admin.ask("tournament start 1")).startswith("241 ")
            assert await present.line(timeout=5) == "421 offer countermanded"
            assert await admin.ask("standings") == (
                "219 standings of tournament 1 t1: finished, round 1 of 1")
            assert await admin.rows() == [" 1 ann 1 buchholz=0 sb=0 wins=1 games=1",
                                          " 2 ben 0 buchholz=1 sb=0 wins=0 games=1"]
            [row] = server.store.finished_games(5)
            assert row.termination == "no-show" and row.white_change == 0
            assert row.result == ("1-0" if row.white == "ann" else "0-1")

    run(scenario())


def test_a_tournament_resumes_after_the_server_stops(tmp_path):
    db = tmp_path / "imcs.db"

    async def scenario():
        async with running(admins=("root",), db=db) as server:
            admin = await Peer.logged_in(server.port, "root")
            await admin.ask("tournament new round-robin 1 60 grace=30")
            for name in ("ann", "ben"):
                await Peer.logged_in(server.port, name)
                await admin.ask(f"tournament add 1 {name}")
            await admin.ask("tournament start 1")
            ann = await Peer.logged_in(server.port, "ann")
            ben = await Peer.logged_in(server.port, "ben")
            for peer in (ann, ben):
                assert (await peer.ask("offer")).startswith("103 ")
            starts = {await ann.line(), await ben.line()}
            assert {line[:5] for line in starts} == {"105 W", "106 B"}
        async with running(admins=("root",), db=db) as server:
            assert server.store.finished_games(5)[0].termination == "aborted"
            reports = await asyncio.wait_for(asyncio.gather(
                entrant(server.port, "ann", 1, 1), entrant(server.port, "ben", 1, 2)), 60)
            assert [len(r) for r in reports] == [1, 1]
            assert server.store.tournament(1).status == "finished"
            [pairing] = server.store.pairings(1)
            assert pairing.result in ("1-0", "0-1", "1/2-1/2")

    run(scenario(), timeout=120)
