"""``minichess imcs``: play on an Internet MiniChess Server (ours or the original).

    minichess imcs list --server imcs.example.org
    minichess imcs offer W 5:00 --user alice --register --level 8 --games 10
    minichess imcs accept --user bob --player greedy          # the first suitable offer
    minichess imcs accept 17 --user bob --human               # you, from the terminal board
    minichess imcs tournament 3 --user alice                  # every game of a tournament

The password comes from ``--password``, the ``IMCS_PASSWORD`` environment variable, or a
prompt. Each game is appended to a PGN file (``imcs-games.pgn``), a line per game reports it,
and a summary ends the run (``--json``: one JSON object instead).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import itertools
import json
import os
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import cast

from rich.console import Console
from rich.text import Text

from minichess.cli.arguments import UsageError, engine_level, positive_int, positive_seconds
from minichess.cli.terminal_ui import board_text, last_move_text
from minichess.game import Game
from minichess.match.specs import SPEC_HELP, parse_player
from minichess.move import Move
from minichess.notation.pgn import write_pgn
from minichess.pieces import COLOR_NAMES
from minichess.players import HumanPlayer, Player
from minichess.players.human import Command, CommandError
from minichess.protocols.imcs.client import (
    Chooser,
    GameReport,
    GameStart,
    ImcsClient,
    ImcsError,
    OfferCountermanded,
    ServerClocks,
    player_chooser,
)
from minichess.protocols.imcs.protocol import (
    DEFAULT_PORT,
    format_clock,
    format_offer_time,
    read_color,
    read_offer,
)
from minichess.variants import get_variant

DEFAULT_SERVER = f"127.0.0.1:{DEFAULT_PORT}"
DEFAULT_PGN = "imcs-games.pgn"
POLL_SECONDS = 1.0


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``imcs`` command and its actions."""
    parser = commands.add_parser(
        "imcs",
        help="play on an IMCS server (the engine at any level, another player, or you)",
        description="A client of the Internet MiniChess Server protocol 2.5: list offers and"
        " ratings, offer or accept games and play them with the engine (any level), another"
        " player or yourself at the terminal board.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    server = argparse.ArgumentParser(add_help=False)
    server.add_argument("--server", "-s", default=os.environ.get("IMCS_SERVER", DEFAULT_SERVER),
                        metavar="HOST[:PORT]",
                        help=f"the server (default $IMCS_SERVER or {DEFAULT_SERVER})")
    server.add_argument("--json", action="store_true", help="print one JSON object")
    account = argparse.ArgumentParser(add_help=False)
    account.add_argument("--user", "-u", default=os.environ.get("IMCS_USER"), metavar="NAME",
                         help="your account (default $IMCS_USER)")
    account.add_argument("--password", metavar="PW",
                         help="your password (default $IMCS_PASSWORD, else asked)")
    account.add_argument("--register", action="store_true",
                         help="register the account if the server does not know it")
    play = argparse.ArgumentParser(add_help=False)
    who = play.add_mutually_exclusive_group()
    who.add_argument("--player", default="level:10", metavar="SPEC",
                     help=f"who plays (default level:10): {SPEC_HELP}")
    who.add_argument("--level", "-l", type=engine_level, metavar="N",
                     help="the engine at level N (1-10); short for --player level:N")
    who.add_argument("--human", action="store_true", help="you play, at the terminal board")
    play.add_argument("--games", "-n", type=positive_int, metavar="N",
                      help="games to play one after the other (default 1; for a tournament:"
                      " all its games)")
    play.add_argument("--pgn", default=DEFAULT_PGN, metavar="FILE",
                      help=f"append each game to FILE (default {DEFAULT_PGN}; '' for none)")
    play.add_argument("--variant", "-v", default="minitchess", metavar="V",
                      help="the variant to offer or accept (default minitchess)")

    listing = actions.add_parser("list", parents=[server], help="the open offers and games")
    listing.add_argument("--all", action="store_true", help="offers of every variant too")
    listing.set_defaults(handler=run_list)
    ratings = actions.add_parser("ratings", parents=[server, account],
                                 help="the top ten ratings (and yours, with --user)")
    ratings.add_argument("--variant", "-v", metavar="V", help="the ratings in another variant")
    ratings.set_defaults(handler=run_ratings)
    offer = actions.add_parser(
        "offer", parents=[server, account, play], help="offer games and play them",
        description="Offer a game and play it when someone accepts; with --games N, N games"
        " one after the other.")
    offer.add_argument("constraints", nargs="*", metavar="[COLOR] [TIME [OPP-TIME]]",
                       help="your colour (W, B or ?), your clock and the opponent's, as seconds"
                       " or M:SS (default ? 5:00 5:00)")
    offer.set_defaults(handler=run_offer)
    accept = actions.add_parser(
        "accept", parents=[server, account, play], help="accept offers and play them",
        description="Accept the offer GAME-ID, or else the first suitable one (of the variant,"
        " not your own, your --color possible, from --opponent if given), waiting up to --wait"
        " seconds for one to appear.")
    accept.add_argument("game_id", nargs="?", type=positive_int, metavar="GAME-ID")
    accept.add_argument("--color", "-c", choices=("W", "B", "?", "w", "b"), default="?",
                        help="the colour you want (default ?)")
    accept.add_argument("--opponent", metavar="NAME", help="only offers of this player")
    accept.add_argument("--wait", type=positive_seconds, default=60.0, metavar="S",
                        help="seconds to wait for a suitable offer (default 60)")
    accept.set_defaults(handler=run_accept)
    tournament = actions.add_parser(
        "tournament", parents=[server, account, play], help="join a tournament and play it",
        description="Join the tournament (ours, see docs/imcs.md) and play its games until it"
        " is finished (--games counts the games at most).")
    tournament.add_argument("tournament_id", type=positive_int, metavar="ID")
    tournament.set_defaults(handler=run_tournament)
    observe = actions.add_parser("observe", parents=[server],
                                 help="watch a game in progress (our server)")
    observe.add_argument("game_id", type=positive_int, metavar="GAME-ID")
    observe.set_defaults(handler=run_observe)


# --- actions -----------------------------------------------------------------------------------


def run_list(args: argparse.Namespace) -> None:
    """Print the offers and games in progress."""
    async def listing() -> None:
        client = await _connect(args)
        offers, games = await client.list_games(every_variant=args.all)
        await client.quit()
        if args.json:
            print(json.dumps({"offers": [vars(o) for o in offers],
                              "games": [vars(g) for g in games]}))
            return
        for o in offers:
            print(f"offer {o.id}: {o.name} ({o.rating}) as {o.color}, {o.variant},"
                  f" {format_offer_time(o.my_ms)} against {format_offer_time(o.opponent_ms)}")
        for g in games:
            print(f"game {g.id}: {g.white} ({g.white_rating}) - {g.black} ({g.black_rating})")
        if not offers and not games:
            print("no offers and no games in progress")

    asyncio.run(listing())


def run_ratings(args: argparse.Namespace) -> None:
    """Print the ratings."""
    async def ratings() -> None:
        client = await _connect(args)
        if args.user:
            await client.login(args.user, _password(args))
        table = await client.ratings(args.variant)
        await client.quit()
        if args.json:
            print(json.dumps({"ratings": [{"name": n, "rating": r} for n, r in table]}))
        else:
            for name, rating in table:
                print(f"{name:<20} {rating}")

    asyncio.run(ratings())


def run_offer(args: argparse.Namespace) -> None:
    """Offer games and play them."""
    color, mine, theirs = _offer_constraints(args.constraints)

    async def find(client: ImcsClient, number: int) -> tuple[int, GameStart, str | None]:
        game_id = await client.offer(color, mine, theirs, args.variant)
        _note(args, f"offered game {game_id}; waiting for an opponent")
        return game_id, await client.wait_for_start(), None

    _play_session(args, find)


def run_accept(args: argparse.Namespace) -> None:
    """Accept offers and play them."""
    variant = get_variant(args.variant).name
    color = read_color(args.color) or "?"

    async def find(client: ImcsClient, number: int) -> tuple[int, GameStart, str | None]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + args.wait
        while True:
            offers, _ = await client.list_games(every_variant=variant != "minitchess")
            chosen = [o for o in offers if _suitable(o, args, variant, color, number)]
            if chosen:
                offer = chosen[0]
                return offer.id, await client.accept(offer.id, color, variant), offer.name
            if loop.time() > deadline:
                wanted = f"offer {args.game_id}" if args.game_id and not number else \
                    "a suitable offer"
                raise ImcsError(f"no {wanted} on the server after waiting {args.wait:g} s")
            await asyncio.sleep(POLL_SECONDS)

    _play_session(args, find)


def run_tournament(args: argparse.Namespace) -> None:
    """Join a tournament and play its games until it is finished."""
    async def join() -> None:
        client = await _connect(args)
        await client.login(args.user, _password(args), register=args.register)
        reply = await client.request(f"join {args.tournament_id}")
        await client.quit()
        if reply.startswith("501"):
            raise ImcsError("this server runs no tournaments", reply)
        if not reply.startswith(("242", "442", "441")):
            raise ImcsError(f"cannot join tournament {args.tournament_id}: {reply}", reply)
        _note(args, reply[4:])

    asyncio.run(join())

    async def find(client: ImcsClient, number: int) -> tuple[int, GameStart, str | None]:
        status = {t.id: t.status for t in await client.tournaments()}.get(args.tournament_id)
        if status not in ("open", "running"):
            _note(args, f"tournament {args.tournament_id} is {status or 'gone'}")
            raise _TournamentOver
        game_id = await client.offer("?", None, None, None)
        _note(args, f"waiting for the next game of tournament {args.tournament_id}")
        try:
            return game_id, await client.wait_for_start(), None
        except OfferCountermanded:
            raise _TournamentOver from None

    _play_session(args, find, games=args.games)


def run_observe(args: argparse.Namespace) -> None:
    """Print a game's moves as they are played."""
    async def observe() -> None:
        client = await _connect(args)
        reply = await client.request(f"observe {args.game_id}")
        if not reply.startswith("214"):
            raise ImcsError(f"cannot observe game {args.game_id}: {reply}", reply)
        print(reply[4:])
        while True:
            line = await client.read_line()
            print(line)
            if line[:3] in ("230", "231", "232") or line.startswith(("X", "215")):
                break
        client.close()

    asyncio.run(observe())


# --- playing -----------------------------------------------------------------------------------


class _TournamentOver(Exception):
    """The tournament has no more games for us."""


Finder = Callable[[ImcsClient, int], Awaitable[tuple[int, GameStart, str | None]]]


def _play_session(args: argparse.Namespace, find: Finder, games: int | None = 1) -> None:
    """Play ``games`` games (None: until ``find`` raises _TournamentOver), reporting each."""
    if not args.user:
        raise UsageError("give your account with --user NAME (or $IMCS_USER)")
    password = _password(args)
    variant = get_variant(args.variant)
    player: Player | None = None
    if args.human:
        chooser: Chooser = TerminalPlayer(Console(highlight=False)).choose
    else:
        player = parse_player(f"level:{args.level}" if args.level else args.player).create()
        player.new_game(variant)  # the engine's first search, loaded or compiled before a clock
        chooser = player_chooser(player)
    reports: list[GameReport] = []
    if games is not None:
        games = args.games or games

    async def session() -> int | None:
        for number in range(games) if games is not None else itertools.count():
            client = await _connect(args)
            try:
                await client.login(args.user, password, register=args.register)
                try:
                    game_id, start, opponent = await find(client, number)
                except _TournamentOver:
                    break
                if player is not None:
                    player.new_game(variant)
                report = await client.play(start, chooser, variant, game_id, opponent,
                                           _show_line if args.human else None)
            finally:
                client.close()
            reports.append(report)
            _save(args.pgn, report)
            if not args.json:
                print(_report_line(number + 1, games, report), flush=True)
        return await _rating(args, password, variant.name)

    try:
        rating = asyncio.run(session())
    finally:
        if player is not None:
            player.close()
    summary = _summary(reports, rating)
    print(json.dumps(summary) if args.json else _summary_line(summary))


def _suitable(offer, args: argparse.Namespace, variant: str, color: str, number: int) -> bool:
    if args.game_id is not None and number == 0:
        return offer.id == args.game_id
    return (offer.variant == variant and offer.name != args.user
            and (args.opponent is None or offer.name == args.opponent)
            and (color == "?" or offer.color != color))


def _report_line(number: int, total: int | None, report: GameReport) -> str:
    color = COLOR_NAMES[report.color]
    opponent_color = not report.color
    opponent = report.game.headers.get(COLOR_NAMES[opponent_color], "?")
    game = f"game {report.game_id}" if report.game_id is not None else "game"
    counted = f"{number}/{total}" if total is not None else str(number)
    return (f"{counted}: {game}, {color} against {opponent}: {report.result}"
            f" ({report.text}), {(len(report.game.moves) + 1) // 2} moves")


def _summary(reports: list[GameReport], rating: int | None) -> dict:
    scores = [r.score for r in reports]
    return {
        "games": [{"id": r.game_id, "color": COLOR_NAMES[r.color].lower(), "variant": r.variant,
                   "result": r.result, "text": r.text, "plies": len(r.game.moves),
                   "score": r.score, "complaints": r.complaints} for r in reports],
        "played": len(reports),
        "wins": scores.count(1.0),
        "draws": scores.count(0.5),
        "losses": scores.count(0.0),
        "aborted": scores.count(None),
        "rating": rating,
    }


def _summary_line(summary: dict) -> str:
    counted = summary["wins"] + summary["draws"] + summary["losses"]
    points = summary["wins"] + summary["draws"] / 2
    text = (f"{summary['played']} games: {summary['wins']} won, {summary['draws']} drawn,"
            f" {summary['losses']} lost")
    if summary["aborted"]:
        text += f", {summary['aborted']} aborted"
    if counted:
        text += f"; score {points:g}/{counted}"
    if summary["rating"] is not None:
        text += f"; rating now {summary['rating']}"
    return text


def _save(path: str, report: GameReport) -> None:
    if not path:
        return
    try:
        with Path(path).open("a", encoding="utf-8") as file:
            if file.tell():
                file.write("\n")
            file.write(write_pgn(report.game))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


async def _rating(args: argparse.Namespace, password: str, variant: str) -> int | None:
    try:
        client = await _connect(args)
        await client.login(args.user, password)
        table = await client.ratings(None if variant == "minitchess" else variant)
        await client.quit()
    except ImcsError:
        return None
    return next((rating for name, rating in table if name == args.user), None)


# --- the terminal player -----------------------------------------------------------------------


class _Resign(Exception):
    pass


class TerminalPlayer:
    """You, at the terminal board: the board and both clocks on each turn, moves in any
    notation, ``moves`` and ``help`` as in ``minichess play``, ``resign``."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.human = HumanPlayer(read_line=input, console=console, on_command=self._command)
        self._lines: asyncio.Queue[str | None] | None = None

    async def choose(self, view: ServerClocks) -> Move | None:
        """Show the position and read moves until one is legal (None: resign)."""
        board = view.board
        me = board.turn
        self.console.print(board_text(board, me))
        last = last_move_text(cast(Game, view))
        clocks = (f"you {format_clock(round(view.remaining(me) * 1000))},"
                  f" opponent {format_clock(round(view.remaining(not me) * 1000))}")
        self.console.print(Text(f"{last + '   ' if last else ''}{clocks}", style="cyan"))
        while True:
            self.console.print(Text(f"Your move ({COLOR_NAMES[me]})> "), end="")
            line = await self._read()
            if line is None:
                return None
            try:
                move = self.human.answer(line, cast(Game, view))
            except _Resign:
                return None
            if move is not None:
                return move

    def _command(self, command: Command, game: object) -> None:
        if command.name in ("resign", "quit"):
            raise _Resign
        raise CommandError(f"{command.name} is not available in a game on a server")

    async def _read(self) -> str | None:
        if self._lines is None:
            self._lines = asyncio.Queue()
            loop = asyncio.get_running_loop()
            threading.Thread(target=_read_stdin, args=(loop, self._lines), daemon=True).start()
        return await self._lines.get()


def _read_stdin(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue) -> None:
    for line in sys.stdin:
        loop.call_soon_threadsafe(lines.put_nowait, line.rstrip("\n"))
    loop.call_soon_threadsafe(lines.put_nowait, None)


def _show_line(line: str) -> None:
    if line.startswith("! "):
        print(f"Opponent plays {line[2:]}", flush=True)
    elif line.startswith(("= ", "- ", "X")):
        print(line, flush=True)


# --- helpers -----------------------------------------------------------------------------------


async def _connect(args: argparse.Namespace) -> ImcsClient:
    host, _, port = args.server.rpartition(":") if ":" in args.server else (args.server, "", "")
    if port and not port.isdigit():
        raise UsageError(f"--server: expected HOST or HOST:PORT, not {args.server!r}")
    return await ImcsClient.connect(host.strip("[]") or "127.0.0.1",
                                    int(port) if port else DEFAULT_PORT)


def _password(args: argparse.Namespace) -> str:
    password = args.password or os.environ.get("IMCS_PASSWORD")
    if password:
        return password
    if sys.stdin.isatty():
        return getpass.getpass(f"password for {args.user}: ")
    raise UsageError("give your password with --password or $IMCS_PASSWORD")


def _offer_constraints(words: list[str]) -> tuple[str, int, int]:
    """Colour and times (seconds) of an offer, read as the server reads them."""
    constraints = read_offer(words)
    if constraints is None:
        raise UsageError(f"offer: expected [W|B|?] [TIME [OPP-TIME]] (seconds or M:SS), not"
                         f" {' '.join(words)!r}")
    color, mine, theirs = constraints
    return color, mine // 1000, theirs // 1000


def _note(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text, file=sys.stderr, flush=True)

