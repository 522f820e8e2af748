"""One client on the server: the command loop and every command's reply.

The original commands answer exactly as the original server does (codes, texts, order of
checks). The commands of ours answer in the same style, with codes the original does not use.
A connection that offers waits (reading nothing) until its offer is taken or countermanded; a
connection whose offer is taken, or that accepts one, belongs to its game until the game ends
and the connection closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import random
import re

from minichess.errors import UnknownVariantError
from minichess.notation.massey import format_state
from minichess.protocols.imcs.connection import EOF, Connection, Line
from minichess.protocols.imcs.feed import FeedOverflow, GameEnded, MovePlayed, RatingsChanged
from minichess.protocols.imcs.games import ABORT_LINE, LiveGame, Seat
from minichess.protocols.imcs.protocol import (
    ADMIN_COMMANDS,
    BASE_RATING,
    COMMAND_SPECS,
    GREETING,
    OverlongLine,
    decode,
    format_clock,
    format_offer_time,
    help_lines,
    multiline,
    read_color,
    read_offer,
    start_line,
    words,
)
from minichess.protocols.imcs.server import COUNTERMANDED, ImcsServer, Offer
from minichess.protocols.imcs.store import GameRow
from minichess.variants import VariantDefinition, get_variant

log = logging.getLogger("minichess.imcs")

DEFAULT_VARIANT = "minitchess"
_NAME = re.compile(r"[A-Za-z0-9._-]+")
TOP_RATINGS = 10
GAMES_LISTED = 10
MAX_GAMES_LISTED = 100
_ADMIN_ONLY = {spec.name for spec in ADMIN_COMMANDS}


class Session:
    """The conversation with one connection."""

    def __init__(self, server: ImcsServer, conn: Connection) -> None:
        self.server = server
        self.conn = conn
        self.name: str | None = None
        self.finished = False
        """The connection was handed to a game, or closed."""
        self._handlers = {
            "help": self.cmd_help, "quit": self.cmd_quit, "me": self.cmd_me,
            "register": self.cmd_register,
            "password": self.cmd_password, "list": self.cmd_list, "ratings": self.cmd_ratings,
            "offer": self.cmd_offer, "accept": self.cmd_accept, "clean": self.cmd_clean,
            "rerate": self.cmd_rerate, "observe": self.cmd_observe, "games": self.cmd_games,
            "history": self.cmd_history, "pgn": self.cmd_pgn, "tournaments": self.cmd_tournaments,
            "join": self.cmd_join, "leave": self.cmd_leave, "standings": self.cmd_standings,
            "pairings": self.cmd_pairings, "stop": self.cmd_stop, "resetpass": self.cmd_resetpass,
            "tournament": self.cmd_tournament,
        }

    @property
    def store(self):
        """The server's store."""
        return self.server.store

    @property
    def admin(self) -> bool:
        """Whether the logged-in player is an administrator."""
        return self.name is not None and self.name in self.server.admins

    async def run(self) -> None:
        """Greet, then answer lines until the client quits, goes away or plays a game."""
        await self.send(GREETING)
        while not self.finished:
            line = await self.conn.next_line()
            if line is EOF:
                return
            await self.handle(line)

    async def send(self, *lines: str) -> None:
        """Send lines to the client."""
        await self.conn.send(*lines)

    async def handle(self, line: Line) -> None:
        """Answer one line."""
        if line is None:
            return
        if isinstance(line, OverlongLine):
            first = words(decode(line.head))[:1]
            spec = COMMAND_SPECS.get(first[0]) if first else None
            await self.send(spec.usage_error() if spec else "501 unknown command")
            return
        items = words(line)
        if not items:
            return
        handler = self._handlers.get(items[0])
        if handler is None:
            await self.send("501 unknown command")
            return
        if items[0] in _ADMIN_ONLY and not self.admin:
            await self.send("406 must set name first using me command" if self.name is None
                            else "502 admin only")
            return
        await handler(items[1:])

    async def usage(self, command: str) -> None:
        """The ``409`` reply for bad arguments."""
        await self.send(COMMAND_SPECS[command].usage_error())

    # --- the original commands ----------------------------------------------------------------

    async def cmd_help(self, args: list[str]) -> None:
        """``help``."""
        if args:
            return await self.usage("help")
        await self.send(*help_lines(self.admin), ".")

    async def cmd_quit(self, args: list[str]) -> None:
        """``quit``."""
        if args:
            return await self.usage("quit")
        await self.send("200 Goodbye")
        self.finished = True

    async def cmd_me(self, args: list[str]) -> None:
        """``me NAME PASSWORD``."""
        if len(args) != 2:
            return await self.usage("me")
        name, password = args
        right = await self.server.check_password(name, password, self.conn.address)
        if right is None:
            await self.send("400 no such username: please use register command")
        elif not right:
            await self.send("401 wrong password")
        else:
            self.name = name
            await self.send(f"201 hello {name}")

    async def cmd_register(self, args: list[str]) -> None:
        """``register NAME PASSWORD``."""
        if len(args) != 2:
            return await self.usage("register")
        name, password = args
        if not _NAME.fullmatch(name):
            return await self.send("410 illegal characters in username")
        if not password.isprintable():
            return await self.send("411 illegal characters in password")
        taken = "402 username already exists: please use password command to change"
        if self.store.password_hash(name) is not None:
            return await self.send(taken)
        if not self.store.add_player(name, await self.server.hash(password)):
            return await self.send(taken)
        self.name = name
        log.info("%s registered %s", self.conn.peer, name)
        await self.send(f"202 hello new user {name}")

    async def cmd_password(self, args: list[str]) -> None:
        """``password PASSWORD``."""
        if len(args) != 1:
            return await self.usage("password")
        if self.name is None:
            return await self.send("403 please use the me command first")
        if not args[0].isprintable():
            return await self.send("411 illegal characters in password")
        if not self.store.set_password(self.name, await self.server.hash(args[0])):
            return await self.send("500 you do not exist: go away")
        await self.send(f"203 password change for user {self.name}")

    async def cmd_list(self, args: list[str]) -> None:
        """``list``; ``list all`` and ``list variant=V`` also show offers of other variants."""
        every, variant = False, None
        if args == ["all"]:
            every = True
        elif len(args) == 1 and args[0].startswith("variant="):
            variant = await self._variant(args[0], "list")
            if variant is None:
                return None
        elif args:
            return await self.usage("list")
        rows = []
        for entry in self.server.entries.values():
            if isinstance(entry, LiveGame):
                rows.append(self._game_line(entry))
            elif not entry.claimed:
                shown = (every or entry.variant.name == DEFAULT_VARIANT if variant is None
                         else entry.variant is variant)
                if shown:
                    rows.append(self._offer_line(entry, every or variant is not None))
        await self.send(f"211 {len(rows)} available games", *rows, ".")

    def _offer_line(self, offer: Offer, with_variant: bool) -> str:
        rating = self.store.rating(offer.name, offer.variant.name)
        line = (f" {offer.id} {offer.name} {offer.color} {format_offer_time(offer.my_ms)}"
                f" {format_offer_time(offer.opponent_ms)} {rating} [offer]")
        return f"{line} variant={offer.variant.name}" if with_variant else line

    def _game_line(self, game: LiveGame) -> str:
        variant = game.variant.name
        white = self.store.rating(game.white.name, variant)
        black = self.store.rating(game.black.name, variant)
        return f" {game.id} {game.white.name} {game.black.name} ({white}/{black})  [in-progress]"

    async def cmd_ratings(self, args: list[str]) -> None:
        """``ratings`` (top 10 plus one's own); ``ratings variant=V``."""
        variant_name = DEFAULT_VARIANT
        if len(args) == 1 and args[0].startswith("variant="):
            variant = await self._variant(args[0], "ratings")
            if variant is None:
                return None
            variant_name = variant.name
        elif args:
            return await self.usage("ratings")
        table = self.store.ratings(variant_name, every_player=variant_name == DEFAULT_VARIANT)
        shown = table[:TOP_RATINGS]
        if self.name is not None and all(name != self.name for name, _ in shown):
            own = [(name, rating) for name, rating in table if name == self.name]
            shown += own or [(self.name, self.store.rating(self.name, variant_name))]
        await self.send("212 ratings", *(f" {name} {rating}" for name, rating in shown), ".")

    async def cmd_offer(self, args: list[str]) -> None:
        """``offer [W|B|?] [MY-TIME [OPPONENT-TIME]] [variant=V]``: wait for an accepter."""
        named = [arg for arg in args if arg.startswith("variant=")]
        constraints = read_offer([arg for arg in args if not arg.startswith("variant=")])
        if constraints is None or len(named) > 1:
            return await self.usage("offer")
        variant = await self._variant(named[0], "offer") if named else get_variant(
            DEFAULT_VARIANT)
        if variant is None:
            return None
        if self.name is None:
            return await self.send("404 must set name first using me command")
        offer = Offer(self.store.next_id(), self.name, *constraints, variant, self.conn)
        await self.send(f"103 {offer.id} game waiting for offer acceptance")
        self.server.add_offer(offer)
        answer = await self._wait_for_answer(offer)
        if answer is None:
            return None
        if answer == COUNTERMANDED:
            return await self.send("421 offer countermanded")
        await self._play(answer)

    async def _wait_for_answer(self, offer: Offer):
        """The offer's answer; None (and the offer withdrawn) if the client went away."""
        gone = asyncio.ensure_future(self.conn.eof.wait())
        try:
            await asyncio.wait({offer.answer, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not offer.answer.done() and not offer.taken:
            self.server.withdraw(offer)
            self.finished = True
            return None
        return await offer.answer

    async def _play(self, game: LiveGame) -> None:
        """Hand the connection to ``game`` and wait for its end."""
        self.finished = True
        if game.task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(game.task)

    async def cmd_accept(self, args: list[str]) -> None:
        """``accept ID [W|B|?] [variant=V]``."""
        named = [arg for arg in args if arg.startswith("variant=")]
        args = [arg for arg in args if not arg.startswith("variant=")]
        color = read_color(args[1]) if len(args) == 2 else "?"
        if not 1 <= len(args) <= 2 or color is None or len(named) > 1:
            return await self.usage("accept")
        if self.name is None:
            return await self.send("406 must set name first using me command")
        game_id = _game_id(args[0])
        if game_id is None:
            return await self.send("407 bad game id")
        offer = self.server.entries.get(game_id)
        if not isinstance(offer, Offer) or offer.claimed or offer.taken:
            return await self.send("408 no such game")
        wanted = named[0].partition("=")[2] if named else DEFAULT_VARIANT
        if offer.variant.name != wanted and wanted not in offer.variant.aliases:
            return await self.send(f"408 no such game: game {game_id} is {offer.variant.name}"
                                   f" (accept {game_id} variant={offer.variant.name})")
        if offer.conn.eof.is_set():
            self.server.withdraw(offer)
            return await self.send("408 no such game")
        mine = _accepting_color(color, offer.color)
        if mine is None:
            return await self.send(f"405 bad color {color}")
        offer.taken = True
        del self.server.entries[game_id]
        theirs = "B" if mine == "W" else "W"
        me = Seat(self.name, self.conn, offer.opponent_ms)
        them = Seat(offer.name, offer.conn, offer.my_ms)
        announce = [(self.conn, start_line(mine, me.clock_ms, them.clock_ms)),
                    (offer.conn, start_line(theirs, them.clock_ms, me.clock_ms))]
        white, black = (me, them) if mine == "W" else (them, me)
        log.info("%s accepts game %d of %s", self.name, game_id, offer.name)
        game = await self.server.start_game(game_id, offer.variant, white, black, announce,
                                            (offer,))
        await self._play(game)

    async def cmd_clean(self, args: list[str]) -> None:
        """``clean``: countermand all my offers."""
        if args:
            return await self.usage("clean")
        if self.name is None:
            return await self.send("406 must set name first using me command")
        await self.send(f"204 {self.server.clean(self.name)} games cleaned")

    async def cmd_rerate(self, args: list[str]) -> None:
        """``rerate``: back to the starting rating (in every variant)."""
        if args:
            return await self.usage("rerate")
        if self.name is None:
            return await self.send("403 please use the me command first")
        self.store.reset_ratings(self.name)
        self.server.feed.publish(RatingsChanged(DEFAULT_VARIANT, {self.name: BASE_RATING}))
        await self.send(f"206 rating reset for user {self.name}")

    # --- observing and history ----------------------------------------------------------------

    async def cmd_observe(self, args: list[str]) -> None:
        """``observe ID``: the game's moves as they come, until it ends or the client sends a
        line."""
        if len(args) != 1:
            return await self.usage("observe")
        game_id = _game_id(args[0])
        if game_id is None:
            return await self.send("407 bad game id")
        game = self.server.entries.get(game_id)
        if not isinstance(game, LiveGame):
            return await self.send("408 no such game")
        events = self.server.feed.subscribe(game_id)
        await self.send(f"214 observing game {game_id}: {game.white.name} {game.black.name}"
                        f" {game.variant.name}", "", format_state(game.board),
                        _clock_line(*game.clocks()))
        event_task = asyncio.ensure_future(anext(events))
        line_task = asyncio.ensure_future(self.conn.next_line())
        try:
            while True:
                done, _ = await asyncio.wait({event_task, line_task},
                                             return_when=asyncio.FIRST_COMPLETED)
                if line_task in done:
                    return await self._stop_observing(game_id, line_task.result())
                try:
                    event = event_task.result()
                except (StopAsyncIteration, FeedOverflow):
                    return await self.send(f"215 stopped observing game {game_id}")
                if isinstance(event, MovePlayed):
                    await self.send(f"! {event.move}", "", event.state,
                                    _clock_line(event.white_ms, event.black_ms))
                elif isinstance(event, GameEnded):
                    return await self.send(*(event.lines or
                                             [ABORT_LINE.format(reason=event.reason)]))
                event_task = asyncio.ensure_future(anext(events))
        finally:
            events.close()
            event_task.cancel()
            line_task.cancel()

    async def _stop_observing(self, game_id: int, line: Line) -> None:
        await self.send(f"215 stopped observing game {game_id}")
        if line is EOF:
            self.finished = True
        else:
            await self.handle(line)

    async def cmd_games(self, args: list[str]) -> None:
        """``games [COUNT]``: the latest finished games."""
        count = _count(args)
        if count is None:
            return await self.usage("games")
        rows = self.store.finished_games(count)
        await self.send(*multiline(f"213 {len(rows)} finished games", map(_history_line, rows)))

    async def cmd_history(self, args: list[str]) -> None:
        """``history NAME [COUNT]``: a player's latest finished games."""
        count = _count(args[1:]) if args else None
        if count is None:
            return await self.usage("history")
        if self.store.password_hash(args[0]) is None:
            return await self.send("400 no such username")
        rows = self.store.finished_games(count, args[0])
        await self.send(*multiline(f"216 {len(rows)} finished games of {args[0]}",
                                   map(_history_line, rows)))

    async def cmd_pgn(self, args: list[str]) -> None:
        """``pgn ID``: a game (finished or in progress) as PGN."""
        if len(args) != 1:
            return await self.usage("pgn")
        game_id = _game_id(args[0])
        if game_id is None:
            return await self.send("407 bad game id")
        text = self.server.pgn(game_id)
        if text is None:
            return await self.send("408 no such game")
        await self.send(*multiline(f"217 pgn of game {game_id}", text.rstrip("\n").split("\n")))

    # --- tournaments --------------------------------------------------------------------------

    async def cmd_tournaments(self, args: list[str]) -> None:
        """``tournaments``."""
        if args:
            return await self.usage("tournaments")
        await self.send(*self.server.director.listing())

    async def cmd_join(self, args: list[str]) -> None:
        """``join ID``."""
        await self._entry(args, "join")

    async def cmd_leave(self, args: list[str]) -> None:
        """``leave ID``."""
        await self._entry(args, "leave")

    async def _entry(self, args: list[str], command: str) -> None:
        if len(args) != 1:
            return await self.usage(command)
        if self.name is None:
            return await self.send("406 must set name first using me command")
        tournament_id = _game_id(args[0])
        if tournament_id is None:
            return await self.send("407 bad game id")
        director = self.server.director
        action = director.join if command == "join" else director.leave
        await self.send(action(tournament_id, self.name))

    async def cmd_standings(self, args: list[str]) -> None:
        """``standings [ID]``."""
        if len(args) > 1:
            return await self.usage("standings")
        tournament_id = _game_id(args[0]) if args else None
        if args and tournament_id is None:
            return await self.send("407 bad game id")
        await self.send(*self.server.director.standings(tournament_id))

    async def cmd_pairings(self, args: list[str]) -> None:
        """``pairings ID [ROUND]``."""
        numbers = [number for number in map(_game_id, args) if number is not None]
        if not 1 <= len(args) <= 2 or len(numbers) != len(args):
            return await self.usage("pairings")
        await self.send(*self.server.director.pairings(*numbers))

    # --- administration -----------------------------------------------------------------------

    async def cmd_stop(self, args: list[str]) -> None:
        """``stop [SECONDS]``: stop the server."""
        if len(args) > 1 or (args and not (args[0].isascii() and args[0].isdigit())):
            return await self.usage("stop")
        await self.send("104 stopping server")
        log.info("stop requested by %s", self.name)
        await self.server.stop(int(args[0]) if args else None, notify=self.conn)
        self.finished = True

    async def cmd_resetpass(self, args: list[str]) -> None:
        """``resetpass NAME PASSWORD``."""
        if len(args) != 2:
            return await self.usage("resetpass")
        name, password = args
        if not password.isprintable():
            return await self.send("411 illegal characters in password")
        if not self.store.set_password(name, await self.server.hash(password)):
            return await self.send("400 no such username")
        log.info("%s reset the password of %s", self.name, name)
        await self.send(f"207 password for {name} is {password}")

    async def cmd_tournament(self, args: list[str]) -> None:
        """``tournament new|add|start|cancel ...``."""
        reply = await self.server.director.command(args)
        await self.send(*(reply or [COMMAND_SPECS["tournament"].usage_error()]))

    # --- helpers ------------------------------------------------------------------------------

    async def _variant(self, arg: str, command: str) -> VariantDefinition | None:
        name = arg.partition("=")[2]
        try:
            return get_variant(name)
        except UnknownVariantError:
            await self.send(f"409 {command}: no variant named {name!r}")
            return None


def _accepting_color(mine: str, offered: str) -> str | None:
    """The accepter's colour, as the original decides it (``?`` against ``?``: a coin
    flip); None on a clash."""
    if mine == "?":
        return random.choice("WB") if offered == "?" else ("B" if offered == "W" else "W")
    if offered == mine:
        return None
    return mine


def _game_id(text: str) -> int | None:
    """A game id as the original reads it: fewer than 9 digits."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 9 else None


def _count(args: list[str]) -> int | None:
    """An optional count argument (default GAMES_LISTED, at most MAX_GAMES_LISTED)."""
    if not args:
        return GAMES_LISTED
    if len(args) != 1 or not args[0].isascii() or not args[0].isdigit():
        return None
    count = int(args[0])
    if not 1 <= count <= MAX_GAMES_LISTED:
        return None
    return count


def _clock_line(white_ms: int, black_ms: int) -> str:
    """An observer's clock line: ``% <White's clock> <Black's clock>``."""
    return f"% {format_clock(white_ms)} {format_clock(black_ms)}"


def _history_line(game: GameRow) -> str:
    ended = datetime.datetime.fromtimestamp(game.ended or game.started, datetime.UTC)
    return (f" {game.id} {game.white} {game.black} {game.result} {game.variant}"
            f" {ended.strftime('%Y-%m-%dT%H:%M:%SZ')} {game.reason}")

