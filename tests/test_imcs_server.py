"""The server as an IMCS client sees it: the original commands and a game, byte for byte."""

from __future__ import annotations

import asyncio

from imcs_support import START_PROMPT, Peer, game, run, running, timing
from minichess.protocols.imcs.protocol import help_lines, parse_clock
from minichess.protocols.imcs.store import Store

HELP = ("\r\n".join([*help_lines(), "."]) + "\r\n").encode()


def test_greeting_help_and_unknown_commands():
    async def scenario():
        async with running() as server:
            peer = await Peer.open(server.port)
            await peer.send("help")
            await peer.expect(HELP)
            await peer.send("", "   ", "HELP", "frobnicate now")
            await peer.expect(b"501 unknown command\r\n501 unknown command\r\n")
            await peer.send("help me")
            await peer.expect(b"409 help: usage: help\r\n")
            await peer.send("quit")
            await peer.expect(b"200 Goodbye\r\n")
            assert await peer.closed() == b""

    run(scenario())


def test_help_begins_with_the_original_text_byte_for_byte():
    assert HELP.startswith(
        b"210 imcs 2.5 help\r\n help: this help\r\n quit: quit imcs\r\n"
        b" me <player> <password>: log in\r\n"
        b" register <player> <password>: register a new name and log in\r\n"
        b" password <password>: change password\r\n list: list available games\r\n"
        b" ratings: list player ratings (top 10 plus own)\r\n"
        b" offer [<my-color>] [<my-time> [<opp-time>]]: offer a game with given constraints\r\n"
        b" accept <game-id> [<my-color>]: accept a game with an opponent\r\n"
        b" clean: cancel all my outstanding offers\r\n"
        b" rerate: reset my rating to the starting default\r\n")


def test_accounts():
    async def scenario():
        async with running() as server:
            peer = await Peer.open(server.port)
            replies = [
                ("me alice pw", "400 no such username: please use register command"),
                ("register alice pw", "202 hello new user alice"),
                ("register alice other", "402 username already exists: please use password"
                                         " command to change"),
                ("register a/b pw", "410 illegal characters in username"),
                ("register bob p\x01w", "411 illegal characters in password"),
                ("me alice wrong", "401 wrong password"),
                ("me alice pw", "201 hello alice"),
                ("password new", "203 password change for user alice"),
                ("me alice new", "201 hello alice"),
                ("rerate", "206 rating reset for user alice"),
                ("me", "409 me: usage: me <player> <password>"),
                ("register x", "409 register: usage: register <player> <password>"),
                ("password", "409 password: usage: password <password>"),
            ]
            for command, reply in replies:
                assert await peer.ask(command) == reply, command
            stored = server.store.password_hash("alice")
            assert stored.startswith("scrypt$") and "new" not in stored

    run(scenario())


def test_commands_that_need_a_name_say_so():
    async def scenario():
        async with running() as server:
            peer = await Peer.open(server.port)
            for command, reply in {
                "offer": "404 must set name first using me command",
                "accept 1": "406 must set name first using me command",
                "clean": "406 must set name first using me command",
                "password x": "403 please use the me command first",
                "rerate": "403 please use the me command first",
                "stop": "406 must set name first using me command",
            }.items():
                assert await peer.ask(command) == reply, command

    run(scenario())


def test_offers_list_and_accept_errors():
    async def scenario():
        async with running() as server:
            alice = await Peer.logged_in(server.port, "alice")
            bob = await Peer.logged_in(server.port, "bob")
            assert await bob.ask("list") == "211 0 available games"
            assert await bob.rows() == []
            assert await alice.ask("offer W 1:00 0:45") == "103 1 game waiting for offer acceptance"
            await bob.send("list")
            await bob.expect(b"211 1 available games\r\n 1 alice W 1:00 0:45 1000 [offer]\r\n.\r\n")
            for command, reply in {
                "accept": "409 accept: usage: accept <game-id> [<my-color>]",
                "accept 1 x": "409 accept: usage: accept <game-id> [<my-color>]",
                "accept x1": "407 bad game id",
                "accept 123456789": "407 bad game id",
                "accept 7": "408 no such game",
                "accept 1 W": "405 bad color W",
                "accept 1 w": "405 bad color W",
                "offer R": "409 offer: usage: offer [<my-color>] [<my-time> [<opp-time>]]",
                "offer W 1 2 3": "409 offer: usage: offer [<my-color>] [<my-time> [<opp-time>]]",
                "list x": "409 list: usage: list",
            }.items():
                assert await bob.ask(command) == reply, command
            assert await bob.ask("accept 1 b") == "106 B 0:45 1:00 game starts"
            await alice.expect(b"105 W 1:00 0:45 game starts\r\n")
            await alice.prompt()
            carol = await Peer.logged_in(server.port, "carol")
            await carol.send("list")
            await carol.expect(b"211 1 available games\r\n 1 alice bob (1000/1000)  [in-progress]"
                               b"\r\n.\r\n")
            assert await carol.ask("accept 1") == "408 no such game"

    run(scenario())


def test_an_offer_without_colour_or_times_and_one_with_seconds():
    async def scenario():
        async with running() as server:
            alice = await Peer.logged_in(server.port, "alice")
            bob = await Peer.logged_in(server.port, "bob")
            carol = await Peer.logged_in(server.port, "carol")
            assert await alice.ask("offer") == "103 1 game waiting for offer acceptance"
            assert await bob.ask("offer b 90") == "103 2 game waiting for offer acceptance"
            await carol.send("list")
            await carol.expect(b"211 2 available games\r\n 1 alice ? 5:00 5:00 1000 [offer]\r\n"
                               b" 2 bob B 1:30 1:30 1000 [offer]\r\n.\r\n")

    run(scenario())


def test_clean_countermands_and_the_offerer_may_go_on():
    async def scenario():
        async with running() as server:
            waiting = await Peer.logged_in(server.port, "alice")
            assert (await waiting.ask("offer")).startswith("103 1 ")
            other = await Peer.open(server.port)
            assert await other.ask("me alice pw") == "201 hello alice"
            assert await other.ask("clean") == "204 1 games cleaned"
            await waiting.expect(b"421 offer countermanded\r\n")
            assert await waiting.ask("clean") == "204 0 games cleaned"
            assert await other.ask("list") == "211 0 available games"

    run(scenario())


def test_the_first_prompt_and_a_game_to_resignation_byte_for_byte():
    async def scenario():
        async with running() as server:
            alice = await Peer.logged_in(server.port, "alice")
            bob = await Peer.logged_in(server.port, "bob")
            assert await alice.ask("offer W") == "103 1 game waiting for offer acceptance"
            await bob.send("accept 1")
            await bob.expect(b"106 B 5:00 5:00 game starts\r\n")
            await alice.expect(b"105 W 5:00 5:00 game starts\r\n" + START_PROMPT)
            await alice.send("a1-a6")
            await alice.expect(b"- illegal move a1-a6\r\n" + START_PROMPT)
            await alice.send("zz")
            await alice.expect(b"- invalid move zz\r\n" + START_PROMPT)
            await alice.send("! b2-b3")
            await bob.expect(b"! b2-b3\r\n\r\n1 B\nkqbnr\nppppp\n.....\n.P...\nP.PPP\nRNBQK\n\r\n"
                             b"? 05:00.000 05:00.000\r\n")
            await bob.send("resign")
            end = b"= W wins on opponent resignation\r\n231 W wins on opponent resignation\r\n"
            assert await bob.closed() == end
            assert await alice.closed() == end
            carol = await Peer.open(server.port)
            await carol.send("ratings")
            await carol.expect(b"212 ratings\r\n alice 1016\r\n bob 984\r\n.\r\n")

    run(scenario())


def test_lines_in_every_framing_and_lines_sent_early_wait_their_turn():
    async def scenario():
        async with running() as server:
            peer = await Peer.open(server.port)
            await peer.send(b"register alice pw\nlist\rhelp\r\x00", end=b"")
            assert await peer.line() == "202 hello new user alice"
            assert await peer.line() == "211 0 available games"
            assert await peer.rows() == []
            assert await peer.line() == "210 imcs 2.5 help"
            await peer.rows()
            bob = await Peer.logged_in(server.port, "bob")
            await bob.send("offer B", "e5-e4")  # its move, sent before the game starts
            assert await bob.line() == "103 1 game waiting for offer acceptance"
            await peer.send("accept 1")
            assert (await peer.line()).startswith("105 W")
            await peer.prompt()
            await peer.send("a2-a3")
            before, state, _ = await peer.prompt()
            assert before == ["! e5-e4"]
            assert state.startswith("2 W\n")

    run(scenario())


def test_ratings_show_the_top_ten_and_ones_own_line():
    async def scenario():
        async with running() as server:
            for n in range(12):
                server.store.add_player(f"p{n:02}", "x")
            with server.store.transaction() as db:
                for n in range(12):
                    db.execute("INSERT INTO ratings VALUES (?, 'minitchess', ?, 1)",
                               (f"p{n:02}", 1100 - 10 * n))
            peer = await Peer.open(server.port)
            assert await peer.ask("ratings") == "212 ratings"
            assert await peer.rows() == [f" p{n:02} {1100 - 10 * n}" for n in range(10)]
            assert await peer.ask("register zed pw") == "202 hello new user zed"
            assert await peer.ask("ratings") == "212 ratings"
            rows = await peer.rows()
            assert rows[9:] == [" p09 1010", " zed 1000"]

    run(scenario())


def test_whites_first_move_is_free_and_then_every_move_is_charged():
    async def scenario():
        async with running(timing=timing(first_move=5)) as server:
            white, black, _ = await game(server.port, times="2 3")
            _, _, clocks = await white.prompt()
            assert clocks == "? 00:02.000 00:03.000"
            await asyncio.sleep(2.2)  # longer than White's clock: the first move is free
            await white.send("a2-a3")
            _, _, clocks = await black.prompt()
            assert clocks == "? 00:03.000 00:02.000"
            await asyncio.sleep(0.3)
            await black.send("e5-e4")
            _, _, clocks = await white.prompt()
            own, opponent = clocks.split()[1:]
            assert own == "00:02.000"
            assert 2000 < parse_clock(opponent) <= 2700  # Black's 0.3 s and more were charged

    run(scenario())


def test_a_move_that_arrives_after_the_clock_ran_out_loses_on_time():
    async def scenario():
        async with running(timing=timing(flag_grace=5)) as server:
            white, black, _ = await game(server.port, times="5 1")
            await white.prompt()
            await white.send("a2-a3")
            await black.prompt()
            await asyncio.sleep(1.2)
            await black.send("e5-e4")
            end = b"= W wins on opponent time\r\n231 W wins on opponent time\r\n"
            assert await black.closed() == end
            assert (await white.closed()).endswith(end)

    run(scenario())


def test_the_result_is_stored_before_the_players_read_it(tmp_path):
    async def scenario():
        async with running(db=tmp_path / "imcs.db") as server:
            white, _, game_id = await game(server.port)
            await white.prompt()
            await white.send("resign")
            assert (await white.line()) == "= B wins on opponent resignation"
            stored = Store(tmp_path / "imcs.db")  # a second reader, as after a crash
            row = stored.game(game_id)
            assert (row.result, row.termination) == ("0-1", "resignation")
            assert stored.rating("bob", "minitchess") == 1016
            stored.close()

    run(scenario())
