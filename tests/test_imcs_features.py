"""What our server does beyond the original: observers and the event feed, finished games and
PGN, house bots."""

from __future__ import annotations

import asyncio
import json

from imcs_support import START_PROMPT, Peer, game, king_capture, random_mover, run, running
from minichess.notation.pgn import read_pgn
from minichess.protocols.imcs.client import ImcsClient
from minichess.protocols.imcs.feed import GameEnded, GameStarted, MovePlayed, RatingsChanged
from minichess.protocols.imcs.watch import ImcsWatchFeed

START_STATE = START_PROMPT.decode().split("\r\n")[1]
KING_CAPTURE_MOVES = ["a2a3", "b5b4", "a3b4", "a5b4", "a1a6"]


def test_observe_a_game_and_stop_observing():
    async def scenario():
        async with running() as server:
            white, black, game_id = await game(server.port)
            watcher = await Peer.open(server.port)
            assert await watcher.ask("observe") == "409 observe: usage: observe <game-id>"
            assert await watcher.ask("observe x") == "407 bad game id"
            assert await watcher.ask("observe 99") == "408 no such game"
            [live] = server.live_games()
            snapshot = json.loads(json.dumps(live.to_dict()))
            assert (snapshot["white"], snapshot["moves"], snapshot["turn"]) == ("alice", [], "W")
            await watcher.send(f"observe {game_id}")
            assert [await watcher.line() for _ in range(4)] == [
                f"214 observing game {game_id}: alice bob minitchess", "", START_STATE,
                "% 05:00.000 05:00.000"]
            await white.prompt()
            await white.send("a2-a3")
            assert await watcher.line() == "! a2-a3"
            assert await watcher.line() == ""
            assert (await watcher.line()).startswith("1 B\nkqbnr\nppppp\n.....\nP....\n")
            assert await watcher.line() == "% 05:00.000 05:00.000"
            await watcher.send("list")
            assert await watcher.line() == f"215 stopped observing game {game_id}"
            assert await watcher.line() == "211 1 available games"
            await watcher.rows()
            await watcher.send(f"observe {game_id}")
            assert (await watcher.line()).startswith("214 ")
            for _ in range(3):
                await watcher.line()
            await black.prompt()
            await black.send("resign")
            assert await watcher.line() == "= W wins on opponent resignation"
            assert await watcher.line() == "231 W wins on opponent resignation"
            assert await watcher.ask("games 1") == "213 1 finished games"

    run(scenario())


def test_the_feed_tells_a_subscriber_everything_about_a_game():
    async def scenario():
        async with running() as server:
            events = server.feed.subscribe()
            white, black, game_id = await game(server.port)
            await king_capture(white, black)
            await white.closed()
            seen = []
            while not isinstance(seen[-1:] and seen[-1], RatingsChanged):
                seen.append(await asyncio.wait_for(anext(events), 5))
            events.close()
            assert isinstance(seen[0], GameStarted) and seen[0].white == "alice"
            moves = [event for event in seen if isinstance(event, MovePlayed)]
            assert [m.move for m in moves] == ["a2-a3", "b5-b4", "a3-b4", "a5-b4", "a1-a6"]
            assert [m.san for m in moves] == ["a3", "b4", "axb4", "axb4", "Rxa6"]
            assert server.live_games() == []
            ended = next(event for event in seen if isinstance(event, GameEnded))
            assert (ended.game_id, ended.result, ended.termination) == (game_id, "1-0",
                                                                         "king capture")
            assert ended.lines == ("= W wins", "231 W wins")
            assert seen[-1].ratings == {"alice": 1016, "bob": 984}
            assert all(json.loads(json.dumps(event.to_dict()))["type"] for event in seen)
            assert server.feed.subscribers == 0

    run(scenario())


def test_a_slow_subscriber_is_dropped_and_the_game_goes_on():
    async def scenario():
        async with running() as server:
            slow = server.feed.subscribe(backlog=3)
            white, black, _ = await game(server.port)
            await king_capture(white, black)
            assert await white.closed()
            received = []
            try:
                async for event in slow:
                    received.append(event)
            except Exception as error:
                assert type(error).__name__ == "FeedOverflow"
            assert len(received) == 3

    run(scenario())


def test_finished_games_history_and_pgn():
    async def scenario():
        async with running() as server:
            white, black, first = await game(server.port)
            await king_capture(white, black)
            await white.closed()
            white, black, second = await game(server.port, "bob", "carol", "60 45")
            await white.prompt()
            await white.send("resign")
            await white.closed()
            peer = await Peer.open(server.port)
            assert await peer.ask("games") == "213 2 finished games"
            rows = await peer.rows()
            assert rows[0].startswith(f" {second} bob carol 0-1 minitchess ")
            assert rows[0].endswith(" B wins on opponent resignation")
            assert rows[1].endswith(" W wins")
            assert await peer.ask("history alice") == "216 1 finished games of alice"
            assert len(await peer.rows()) == 1
            assert await peer.ask("history bob 1") == "216 1 finished games of bob"
            assert (await peer.rows())[0].startswith(f" {second} ")
            assert await peer.ask("history nobody") == "400 no such username"
            assert await peer.ask("games 0") == "409 games: usage: games [<count>]"
            assert await peer.ask("pgn 77") == "408 no such game"
            assert await peer.ask(f"pgn {first}") == f"217 pgn of game {first}"
            pgn = "\n".join(await peer.rows()) + "\n"
            [stored] = read_pgn(pgn)
            assert stored.headers["White"] == "alice" and stored.result() == "1-0"
            assert stored.san_moves == ["a3", "b4", "axb4", "axb4", "Rxa6"]
            assert stored.clock.initial == 300
            assert await peer.ask(f"pgn {second}") == f"217 pgn of game {second}"
            pgn = "\n".join(await peer.rows())
            assert '[WhiteClock "1:00"]' in pgn and '[BlackClock "0:45"]' in pgn
            assert '[Termination "resignation"]' in pgn

    run(scenario())


def test_a_house_bot_keeps_an_offer_open_and_plays():
    async def scenario():
        async with running(house_bots=(1,), house_time_ms=(5000, 5000)) as server:
            player = await ImcsClient.connect("127.0.0.1", server.port)
            await player.login("visitor", "pw", register=True)
            for _ in range(100):
                offers, _ = await player.list_games()
                if offers:
                    break
                await asyncio.sleep(0.05)
            [offer] = offers
            assert (offer.name, offer.color, offer.my_ms) == ("house-1", "?", 5000)
            start = await player.accept(offer.id)
            report = await player.play(start, random_mover(4), game_id=offer.id)
            assert report.result in ("1-0", "0-1", "1/2-1/2")
            row = server.store.game(offer.id)
            assert {row.white, row.black} == {"house-1", "visitor"}
            watcher = await ImcsClient.connect("127.0.0.1", server.port)
            for _ in range(100):
                offers, _ = await watcher.list_games()
                if offers:
                    break
                await asyncio.sleep(0.05)
            assert offers[0].name == "house-1" and offers[0].id > offer.id

    run(scenario(), timeout=120)


def test_variant_lists_and_ratings_and_a_game_against_oneself():
    async def scenario():
        async with running() as server:
            alice = await Peer.logged_in(server.port, "alice")
            other = await Peer.logged_in(server.port, "alice")
            assert await alice.ask("offer ? 60 variant=chess36") == (
                "103 1 game waiting for offer acceptance")
            assert await other.ask("offer variant=nonsense") == (
                "409 offer: no variant named 'nonsense'")
            assert await other.ask("list variant=6x6") == "211 1 available games"
            assert await other.rows() == [" 1 alice ? 1:00 1:00 1000 [offer] variant=chess36"]
            assert await other.ask("list variant=csc111") == "211 0 available games"
            await other.rows()
            assert (await other.ask("accept 1 variant=chess36")).startswith("10")
            assert (await alice.line()).startswith("10")
            for peer in (alice, other):
                peer.close()
            for _ in range(100):
                if not server.live_games():
                    break
                await asyncio.sleep(0.02)
            row = server.store.game(1)
            assert (row.white, row.black, row.white_change) == ("alice", "alice", 0)
            peer = await Peer.logged_in(server.port, "alice")
            assert await peer.ask("ratings variant=chess36") == "212 ratings"
            assert await peer.rows() == [" alice 1000"]

    run(scenario())


def test_a_full_server_says_so_and_keeps_serving_the_others():
    async def scenario():
        async with running(max_connections=3) as server:
            peers = [await Peer.open(server.port) for _ in range(3)]
            full = await Peer.open(server.port, greeting=False)
            assert await full.closed() == b"503 server busy, come back later\r\n"
            assert await peers[0].ask("list") == "211 0 available games"

    run(scenario())


def test_a_tournament_can_be_cancelled_and_frees_its_players():
    async def scenario():
        async with running(admins=("root",)) as server:
            admin = await Peer.logged_in(server.port, "root")
            assert await admin.ask("tournament new swiss 3 60") == (
                "240 tournament 1 open for entries: t1 swiss minitchess 1:00 3 rounds")
            ann = await Peer.logged_in(server.port, "ann")
            assert await ann.ask("join 1") == "242 ann joined tournament 1"
            assert await ann.ask("offer") == "103 1 game waiting for offer acceptance"
            assert await admin.ask("tournament start 1") == (
                "444 tournament 1 needs at least 2 players")
            assert await admin.ask("tournament cancel 1") == "243 tournament 1 cancelled"
            assert await ann.line() == "421 offer countermanded"
            assert await ann.ask("join 1") == "441 tournament 1 is not open for entries"
            assert await admin.ask("tournament start 9") == "440 no such tournament 9"
            assert await admin.ask("tournament new knockout 3 60") == (
                "409 tournament: usage: tournament new <format> <rounds> <my-time> [<opp-time>]"
                " [variant=<v>] [grace=<seconds>] [name=<name>] | add <id> <player> | start"
                " <id> | cancel <id>")
            assert await admin.ask("resetpass nobody x") == "400 no such username"
            assert await admin.ask("standings 1") == (
                "219 standings of tournament 1 t1: cancelled, round 0 of 3")

    run(scenario())


def test_the_server_as_a_feed_of_the_web_apps_watch_page():
    async def scenario():
        async with running() as server:
            feed = ImcsWatchFeed(server)
            updates = feed.updates()
            state = await asyncio.wait_for(anext(updates), 5)
            assert (state["type"], state["live"], state["finished"]) == ("state", [], [])
            assert feed.title == f"IMCS server 127.0.0.1:{server.port}"
            white, black, game_id = await game(server.port)
            started = await asyncio.wait_for(anext(updates), 5)
            assert (started["type"], started["game"]["id"]) == ("start", str(game_id))
            state = json.loads(json.dumps(feed.describe()))
            [live] = state["live"]
            assert (live["id"], live["live"], live["plies"]) == (str(game_id), True, 0)
            assert live["clock"] == {"white": 300.0, "black": 300.0, "running": None}
            assert {r["name"] for r in state["ratings"]} == {"alice", "bob"}
            watcher = feed.updates(str(game_id))
            joined = await asyncio.wait_for(anext(watcher), 5)
            assert joined["type"] == "state" and joined["game"]["moves"] == []
            await king_capture(white, black)
            kinds = [(await asyncio.wait_for(anext(updates), 5))["type"] for _ in range(7)]
            assert kinds == ["move"] * 5 + ["end", "ratings"]
            seen = [message async for message in watcher]  # ends with the game
            assert [m["move"] for m in seen[:-1]] == KING_CAPTURE_MOVES
            assert seen[-1]["game"]["result"] == "1-0" and seen[-1]["game"]["white_change"] == 16
            await updates.aclose()
            state = feed.describe()
            assert state["live"] == [] and state["finished"][0]["result"] == "1-0"
            assert state["finished"][0]["plies"] == 5
            assert state["ratings"][0] == {"name": "alice", "rating": 1016, "games": 1}
            whole = feed.game(str(game_id))
            assert whole["moves"] == KING_CAPTURE_MOVES and len(whole["clocks"]) == 5
            assert feed.game("99") is None and feed.game("x") is None and feed.pgn("x") is None
            assert "3. Rxa6" in feed.pgn(str(game_id))
            assert [r["name"] for r in feed.ratings("imcs")] == ["alice", "bob"]
            assert feed.ratings("chess36") == []
            assert [g["id"] for g in feed.games(5, "bob")] == [str(game_id)]
            [finished] = [m async for m in feed.updates(str(game_id))]  # the state, no more
            assert finished["game"]["live"] is False

    run(scenario())
