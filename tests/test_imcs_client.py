"""The client against a scripted server (on 127.0.0.1, started by the test): it skips lines it
does not know, follows the server's position when its own differs, and reads the clocks."""

from __future__ import annotations

import asyncio

from imcs_support import run
from minichess.board import Board
from minichess.move import Move
from minichess.notation.massey import format_state
from minichess.players import EnginePlayer
from minichess.protocols.imcs.client import (
    ImcsClient,
    ImcsError,
    OfferCountermanded,
    ServerClocks,
    player_chooser,
)
from minichess.protocols.imcs.passwords import HashCost, hash_password, verify_password

AFTER_B3_E4 = Board()
AFTER_B3_E4.push_uci("b2b3")
AFTER_B3_E4.push_uci("e5e4")


async def scripted_server(script) -> tuple[asyncio.Server, int, list[str]]:
    """A server that greets, then runs ``script(reader, writer, received)``."""
    received: list[str] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"100 imcs 2.5\r\n")
        await script(reader, writer, received)
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1], received


async def read(reader: asyncio.StreamReader, received: list[str]) -> str:
    line = (await reader.readline()).decode().rstrip("\r\n")
    received.append(line)
    return line


def test_unknown_lines_are_skipped_and_the_servers_position_wins():
    seen: list[ServerClocks] = []

    async def script(reader, writer, received):
        await read(reader, received)  # me
        writer.write(b"201 hello alice\r\n")
        await read(reader, received)  # accept
        writer.write(b"105 W 1:00 0:45 game starts\r\nsomething new 42\r\n\r\n"
                     + format_state(Board()).encode() + b"\r\n? 01:00.000 00:45.000\r\n")
        await read(reader, received)  # the client's first move
        state = format_state(AFTER_B3_E4).encode()  # not what the client played
        writer.write(b"! e5-e4\r\n#comment\r\n\r\n" + state + b"\r\n? 00:58.500 00:44.000\r\n")
        await read(reader, received)
        writer.write(b"= W wins\r\n231 W wins\r\n")

    async def choose(view: ServerClocks) -> Move:
        seen.append(view)
        return view.board.legal_moves[0]

    async def scenario():
        server, port, received = await scripted_server(script)
        async with server:
            client = await ImcsClient.connect("127.0.0.1", port)
            await client.login("alice", "pw")
            start = await client.accept(3)
            assert (start.own_ms, start.opponent_ms) == (60_000, 45_000)
            report = await client.play(start, choose, game_id=3)
            client.close()
        return report, received

    report, received = run(scenario())
    assert received[:2] == ["me alice pw", "accept 3"]
    assert received[2] == "a2-a3"
    assert (report.result, report.text) == ("1-0", "W wins")
    assert report.game.start_fen == AFTER_B3_E4.fen()  # the server's, then our move
    assert [move.uci() for move in report.game.moves] == [received[3].replace("-", "")]
    assert seen[1].remaining(True) == 58.5 - 0.25 and seen[1].remaining(False) == 44.0


def test_a_refused_move_is_not_played_again():
    async def script(reader, writer, received):
        await read(reader, received)
        writer.write(b"105 W 5:00 5:00 game starts\r\n")
        prompt = b"\r\n" + format_state(Board()).encode() + b"\r\n? 05:00.000 05:00.000\r\n"
        writer.write(prompt)
        first = await read(reader, received)
        writer.write(f"- illegal move {first}\r\n".encode() + prompt)
        await read(reader, received)
        writer.write(b"X fatal IO error: exiting\r\n")

    async def stubborn(view: ServerClocks) -> Move:
        return view.board.parse_uci("a2a3")

    async def scenario():
        server, port, received = await scripted_server(script)
        async with server:
            client = await ImcsClient.connect("127.0.0.1", port)
            start = await client.accept(1)
            report = await client.play(start, stubborn)
        return report, received

    report, received = run(scenario())
    assert received[1] == "a2-a3" and received[2] != "a2-a3"
    assert report.complaints == ["- illegal move a2-a3"]
    assert (report.result, report.text) == ("*", "fatal IO error: exiting")


def test_countermanded_offers_and_refusals_are_errors_with_the_servers_line():
    async def script(reader, writer, received):
        await read(reader, received)
        writer.write(b"103 9 game waiting for offer acceptance\r\n421 offer countermanded\r\n")
        await read(reader, received)
        writer.write(b"408 no such game\r\n")

    async def scenario():
        server, port, _ = await scripted_server(script)
        async with server:
            client = await ImcsClient.connect("127.0.0.1", port)
            assert await client.offer("B", 60) == 9
            try:
                await client.wait_for_start()
            except OfferCountermanded as error:
                assert error.code == "421"
            try:
                await client.accept(5)
            except ImcsError as error:
                assert error.code == "408" and "408 no such game" in str(error)

    run(scenario())


def test_a_server_that_is_not_imcs_is_refused():
    async def scenario():
        async def serve(reader, writer):
            writer.write(b"SSH-2.0-OpenSSH\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        async with server:
            try:
                await ImcsClient.connect("127.0.0.1", server.sockets[0].getsockname()[1])
            except ImcsError as error:
                return str(error)
        return ""

    assert "is not an IMCS server" in run(scenario())


def test_the_engine_reads_its_clock_from_the_server():
    async def script(reader, writer, received):
        await read(reader, received)
        writer.write(b"106 B 0:02 5:00 game starts\r\n! a2-a3\r\n\r\n")
        board = Board()
        board.push_uci("a2a3")
        writer.write(format_state(board).encode() + b"\r\n? 00:00.900 04:59.000\r\n")
        await read(reader, received)
        writer.write(b"= draw\r\n230 draw\r\n")

    async def scenario():
        server, port, received = await scripted_server(script)
        async with server:
            client = await ImcsClient.connect("127.0.0.1", port)
            start = await client.accept(1)
            started = asyncio.get_running_loop().time()
            report = await client.play(start, player_chooser(EnginePlayer(level=10)))
            return report, received, asyncio.get_running_loop().time() - started

    report, received, seconds = run(scenario())
    assert seconds < 0.9  # 0.9 s on its clock, less the margin for the network
    assert len(received) == 2  # the accept, then its move
    assert report.result == "1/2-1/2"


def test_password_hashes_are_salted_and_checked_with_their_own_cost():
    first, second = hash_password("secret"), hash_password("secret")
    assert first != second and first.startswith("scrypt$14$8$1$")
    assert verify_password("secret", first) and not verify_password("Secret", first)
    cheap = hash_password("secret", HashCost(4, 1, 1))
    assert verify_password("secret", cheap)
    assert not verify_password("secret", "plain-text") and not verify_password("x", "md5$1$2$3$4$5")
