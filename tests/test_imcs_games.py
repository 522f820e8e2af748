"""Our client against our server: whole games to every kind of end, stored and rated."""

from __future__ import annotations

import asyncio

from imcs_support import KING_CAPTURE, Peer, client, play, random_mover, run, running, timing
from minichess.board import Board
from minichess.move import Move
from minichess.notation.massey import format_state
from minichess.players import EnginePlayer
from minichess.protocols.imcs.client import (
    ServerClocks,
    player_chooser,
)
from minichess.protocols.imcs.protocol import move_text

KNIGHT_SHUFFLE = {"W": ["b1c3", "c3b1"] * 20, "B": ["d6c4", "c4d6"] * 20}
"""Forty moves each without a capture: drawn by the move limit."""


def scripted(moves: list[str], then_resign: bool = False):
    """A chooser that plays ``moves`` in turn (then resigns, if asked)."""
    remaining = iter(moves)

    async def choose(view: ServerClocks) -> Move | None:
        text = next(remaining, None)
        return None if text is None and then_resign else view.board.parse_uci(text)

    return choose


def stalling(moves: list[str]):
    """A chooser that plays ``moves`` in turn, then thinks for ever."""
    remaining = iter(moves)

    async def choose(view: ServerClocks) -> Move:
        text = next(remaining, None)
        if text is None:
            await asyncio.sleep(60)
        return view.board.parse_uci(text)

    return choose


def test_king_capture():
    async def scenario():
        async with running() as server:
            white, black, game_id = await play(server.port, scripted(KING_CAPTURE["W"]),
                                               scripted(KING_CAPTURE["B"]))
            for report in (white, black):
                assert (report.result, report.text) == ("1-0", "W wins")
                assert report.game.outcome().termination.value == "king capture"
                assert [m.uci() for m in report.game.moves] == [
                    "a2a3", "b5b4", "a3b4", "a5b4", "a1a6"]
            assert white.score == 1.0 and black.score == 0.0
            row = server.store.game(game_id)
            assert (row.result, row.termination, row.reason) == ("1-0", "king capture", "W wins")
            assert [m.move for m in server.store.moves(game_id)] == [
                "a2-a3", "b5-b4", "a3-b4", "a5-b4", "a1-a6"]
            assert server.store.rating("alice", "minitchess") == 1016

    run(scenario())


def test_move_limit():
    async def scenario():
        async with running() as server:
            white, black, game_id = await play(server.port, scripted(KNIGHT_SHUFFLE["W"]),
                                               scripted(KNIGHT_SHUFFLE["B"]))
            assert (white.result, white.text, black.text) == ("1/2-1/2", "draw", "draw")
            assert len(white.game.moves) == 80
            assert server.store.game(game_id).termination == "move limit"
            assert server.store.rating("alice", "minitchess") == 1000

    run(scenario())


def test_resignation():
    async def scenario():
        async with running() as server:
            white, black, game_id = await play(server.port, scripted(["a2a3", "b2b3"]),
                                               scripted(["e5e4"], then_resign=True))
            assert (black.result, black.text) == ("1-0", "W wins on opponent resignation")
            assert white.game.outcome().termination.value == "resignation"
            assert server.store.game(game_id).termination == "resignation"

    run(scenario())


def test_time():
    async def slow(view: ServerClocks) -> Move:
        await asyncio.sleep(10)
        raise AssertionError("the game should have ended")

    async def scenario():
        async with running(timing=timing(flag_grace=0.3)) as server:
            white, black, game_id = await play(server.port, scripted(["a2a3"]), slow, "5 1")
            assert (white.text, black.text) == ("W wins on opponent time",) * 2
            assert black.game.outcome().termination.value == "time forfeit"
            row = server.store.game(game_id)
            assert (row.termination, row.white_change, row.black_change) == (
                "time forfeit", 16, -16)

    run(scenario())


def test_a_client_that_disconnects_loses_and_is_rated():
    async def scenario():
        async with running() as server:
            for leaver_moves in (True, False):  # leaves on its own turn, then on the other's
                alice = await client(server.port, "alice")
                bob = await Peer.logged_in(server.port, "bob")
                game_id = await alice.offer("W")
                waiting = asyncio.ensure_future(alice.wait_for_start())
                assert (await bob.ask(f"accept {game_id}")).startswith("106")
                moves = ["a2a3", "b2b3"] if leaver_moves else ["a2a3"]
                playing = asyncio.ensure_future(alice.play(await waiting, stalling(moves)))
                await bob.prompt()
                if not leaver_moves:
                    await bob.send("e5-e4")
                    await asyncio.sleep(0.1)  # White is thinking now
                bob.close()
                report = await playing
                assert report.text == "W wins on opponent disconnect"
                row = server.store.game(game_id)
                assert (row.result, row.termination) == ("1-0", "forfeit")
                assert row.white_change == 16 if leaver_moves else row.white_change > 0
            assert server.store.rating("bob", "minitchess") < 1000

    run(scenario())


def test_a_silent_side_loses_on_time_after_the_grace():
    async def scenario():
        async with running(timing=timing(flag_grace=0.5)) as server:
            alice = await client(server.port, "alice")
            silent = await Peer.logged_in(server.port, "bob")
            game_id = await alice.offer("W", 5, 1)
            waiting = asyncio.ensure_future(alice.wait_for_start())
            await silent.send(f"accept {game_id}")
            playing = asyncio.ensure_future(alice.play(await waiting, scripted(["a2a3"])))
            started = asyncio.get_running_loop().time()
            report = await playing
            waited = asyncio.get_running_loop().time() - started
            assert report.text == "W wins on opponent time"
            assert 1.4 < waited < 10  # its 1 s, the grace of 0.5 s, and a busy machine
            assert (await silent.closed()).endswith(b"231 W wins on opponent time\r\n")

    run(scenario())


def test_the_engine_keeps_inside_a_short_clock():
    async def scenario():
        async with running() as server:
            engine = player_chooser(EnginePlayer(level=4))
            white, _, _ = await play(server.port, engine, random_mover(1), "4 4")
            assert white.text != "B wins on opponent time"
            assert white.complaints == []

    run(scenario(), timeout=120)


def test_another_variant_by_offer():
    async def scenario():
        async with running() as server:
            alice, bob = await client(server.port, "alice"), await client(server.port, "bob")
            game_id = await alice.offer("W", 60, variant="chess36")
            assert await bob.request("list") == "211 0 available games"
            assert await bob.read_line() == "."
            offers, _ = await bob.list_games(every_variant=True)
            assert [(o.id, o.variant) for o in offers] == [(game_id, "chess36")]
            assert await bob.request(f"accept {game_id}") == (
                f"408 no such game: game {game_id} is chess36 (accept {game_id}"
                " variant=chess36)")
            waiting = asyncio.ensure_future(alice.wait_for_start())
            start = await bob.accept(game_id, variant="chess36")
            seen: list[str] = []
            white, black = await asyncio.gather(
                alice.play(await waiting, random_mover(2), "chess36", game_id),
                bob.play(start, random_mover(3), "chess36", game_id, on_line=seen.append))
            assert white.result == black.result != "*"
            board = Board("chess36")
            first = white.game.moves[0]
            board.push(first)
            expected = [f"! {move_text(first, board.variant)}", "",
                        *format_state(board).rstrip("\n").split("\n"), ""]
            assert seen[:len(expected)] == expected
            assert len(expected) == 11 and expected[-2] == "[]"
            assert seen[len(expected)].startswith("? 01:00.000 01:00.000")
            assert server.store.game(game_id).variant == "chess36"
            assert server.store.rating("alice", "minitchess") == 1000

    run(scenario())



def test_an_engine_still_thinking_when_the_game_ends_is_stopped():
    async def scenario():
        async with running() as server:
            alice = await client(server.port, "alice")
            bob = await Peer.logged_in(server.port, "bob")
            game_id = await alice.offer("W", 600)
            waiting = asyncio.ensure_future(alice.wait_for_start())
            assert (await bob.ask(f"accept {game_id}")).startswith("106")
            engine = EnginePlayer(level=10, book="none")  # the book would answer at once
            playing = asyncio.ensure_future(alice.play(await waiting, player_chooser(engine)))
            await asyncio.sleep(1.0)  # the engine thinks about its first move (600 s clock)
            started = asyncio.get_running_loop().time()
            bob.close()
            report = await playing
            assert report.text == "W wins on opponent disconnect"
            assert report.game.moves == []  # the game ended during its first move
            assert asyncio.get_running_loop().time() - started < 5

    run(scenario())
