"""Tournaments run by the server: entries, rounds, games, no-shows, standings.

An administrator opens a tournament (``tournament new swiss 5 3:00``), players ``join`` it
(or the administrator adds them, house bots too), the administrator starts it. The server
pairs each round (:mod:`.pairing`) and stores it. A player comes to a game the way every IMCS
client waits for one: it connects, logs in and makes an ``offer`` (any colour and times): from
joining until the tournament ends, the player's offer is held for its next tournament game
instead of being listed, and the game starts, with the tournament's colours and clocks, as soon
as both players wait; an offer held when the tournament ends is countermanded (``421``). A
player who has not come when the round's grace period ends loses that game (``no-show``,
unrated; ``0-0`` when neither came). When every game of a round has ended, the next round is
paired; after the last, the tournament is finished.

After a crash, a running tournament resumes at its current round: its unfinished games (the
crash recorded them as aborted) are played again under new game ids.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minichess.errors import UnknownVariantError
from minichess.protocols.imcs.games import LiveGame, Seat
from minichess.protocols.imcs.pairing import (
    FORMATS,
    ROUND_ROBIN,
    SWISS,
    records,
    round_robin,
    standings,
    swiss_round,
)
from minichess.protocols.imcs.protocol import format_offer_time, parse_offer_time, start_line
from minichess.protocols.imcs.store import GameRow, PairingRow, TournamentRow
from minichess.variants import get_variant

if TYPE_CHECKING:
    from minichess.protocols.imcs.server import ImcsServer, Offer

log = logging.getLogger("minichess.imcs")

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
MAX_ROUNDS = 99


@dataclass(eq=False)
class DueBoard:
    """A tournament game waiting for its players (``ready``: the offers of those who came)."""

    tournament: TournamentRow
    round: int
    board: int
    white: str
    black: str
    game_id: int
    ready: dict[str, Offer] = field(default_factory=dict)
    started: bool = False


def _tournament_name(tournament: TournamentRow) -> str:
    return tournament.name or f"t{tournament.id}"


def _time_text(tournament: TournamentRow) -> str:
    white, black = format_offer_time(tournament.white_ms), format_offer_time(tournament.black_ms)
    return white if white == black else f"{white}/{black}"


class Director:
    """Runs the tournaments of ``server``."""

    def __init__(self, server: ImcsServer) -> None:
        self.server = server
        self._due: dict[str, DueBoard] = {}
        """The game each player is due to play, by player."""
        self._idle: dict[str, Offer] = {}
        """Offers held for the next round of players in a running tournament."""
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._starting: set[asyncio.Task] = set()

    @property
    def store(self):
        """The server's store."""
        return self.server.store

    # --- life ---------------------------------------------------------------------------------

    def load(self) -> None:
        """Resume the tournaments that were running when the server stopped."""
        for tournament in self.store.tournaments():
            if tournament.status != RUNNING:
                continue
            for row in self.store.pairings(tournament.id, tournament.round):
                if row.result is None:
                    game_id = row.game
                    if game_id is None or self.store.game(game_id) is not None:
                        game_id = self.store.next_id()
                        self.store.set_pairing(tournament.id, row.round, row.board, game_id,
                                               None)
                    self._add_due(tournament, row, game_id)
            log.info("tournament %d resumes in round %d", tournament.id, tournament.round)
            self._round_progress(tournament.id)

    def stop(self) -> None:
        """Stop the round timers (the server is stopping)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # --- offers -------------------------------------------------------------------------------

    def offer_made(self, offer: Offer) -> None:
        """Hold ``offer`` for its player's tournament game, if the player is in a running
        tournament (and start the game if the opponent waits too)."""
        board = self._due.get(offer.name)
        if board is not None and not board.started and offer.name not in board.ready:
            offer.claimed = True
            board.ready[offer.name] = offer
            self._start_if_ready(board)
        elif self._tournament_of(offer.name) is not None and offer.name not in self._idle:
            offer.claimed = True
            self._idle[offer.name] = offer

    def offer_withdrawn(self, offer: Offer) -> None:
        """Forget ``offer`` (its player went away, or it was countermanded)."""
        board = self._due.get(offer.name)
        if board is not None and board.ready.get(offer.name) is offer:
            del board.ready[offer.name]
        if self._idle.get(offer.name) is offer:
            del self._idle[offer.name]

    def _tournament_of(self, name: str) -> TournamentRow | None:
        """The open or running tournament ``name`` is in (a player is in one at most)."""
        for tournament in self.store.tournaments():
            if tournament.status in (OPEN, RUNNING) and name in self.store.entrants(tournament.id):
                return tournament
        return None

    # --- rounds -------------------------------------------------------------------------------

    def _add_due(self, tournament: TournamentRow, row: PairingRow, game_id: int) -> None:
        assert row.black is not None, "a bye is not a game"
        board = DueBoard(tournament, row.round, row.board, row.white, row.black, game_id)
        for name in (row.white, row.black):
            self._due[name] = board
            offer = self._idle.pop(name, None) or self._open_offer_of(name)
            if offer is not None:
                offer.claimed = True
                board.ready[name] = offer
        self._start_if_ready(board)

    def _start_if_ready(self, board: DueBoard) -> None:
        if len(board.ready) == 2 and not board.started:
            board.started = True
            for offer in board.ready.values():
                offer.taken = True  # no longer withdrawn: a player gone by now loses the game
            task = asyncio.ensure_future(self._start(board))
            self._starting.add(task)
            task.add_done_callback(self._starting.discard)

    def _open_offer_of(self, name: str) -> Offer | None:
        for offer in self.server.offers():
            if offer.name == name and not offer.claimed and not offer.taken:
                return offer
        return None

    async def _start(self, board: DueBoard) -> None:
        tournament = board.tournament
        offers = (board.ready[board.white], board.ready[board.black])
        white = Seat(board.white, offers[0].conn, tournament.white_ms)
        black = Seat(board.black, offers[1].conn, tournament.black_ms)
        announce = [(white.conn, start_line("W", white.clock_ms, black.clock_ms)),
                    (black.conn, start_line("B", black.clock_ms, white.clock_ms))]
        await self.server.start_game(board.game_id, get_variant(tournament.variant), white,
                                     black, announce, offers, tournament.id, board.round,
                                     on_end=lambda row: self._settle(board, row.result or "*"))

    def _settle(self, board: DueBoard, result: str) -> None:
        tournament = self.store.tournament(board.tournament.id)
        for name in (board.white, board.black):
            if self._due.get(name) is board:
                del self._due[name]
        if tournament.status != RUNNING:
            return
        self.store.set_pairing(tournament.id, board.round, board.board, board.game_id, result)
        self._round_progress(tournament.id)

    def _round_progress(self, tournament_id: int) -> None:
        """Pair the next round, or finish, once the current round is complete; otherwise
        make sure its deadline is set."""
        tournament = self.store.tournament(tournament_id)
        pending = [row for row in self.store.pairings(tournament_id, tournament.round)
                   if row.result is None]
        if pending:
            if tournament_id not in self._timers:
                loop = asyncio.get_running_loop()
                self._timers[tournament_id] = loop.call_later(
                    tournament.grace, self._deadline, tournament_id, tournament.round)
            return
        timer = self._timers.pop(tournament_id, None)
        if timer is not None:
            timer.cancel()
        if tournament.round >= tournament.rounds:
            self._finish(tournament, FINISHED)
        else:
            self._pair(tournament, tournament.round + 1)

    def _pair(self, tournament: TournamentRow, number: int) -> None:
        entrants = self.store.entrants(tournament.id)
        if tournament.format == ROUND_ROBIN:
            cycles = tournament.rounds // len(round_robin(entrants))
            boards = round_robin(entrants, cycles)[number - 1]
        else:
            boards = swiss_round(self._records(tournament), number)
        ids = [None if black is None else self.store.next_id() for _, black in boards]
        self.store.add_round(tournament.id, number, boards, ids)
        tournament = self.store.tournament(tournament.id)
        log.info("tournament %d: round %d paired: %s", tournament.id, number,
                 ", ".join(f"{white}-{black or 'bye'}" for white, black in boards))
        for row in self.store.pairings(tournament.id, number):
            if row.black is not None:
                self._add_due(tournament, row, row.game)
        self._round_progress(tournament.id)

    def _deadline(self, tournament_id: int, round_number: int) -> None:
        """The round's grace period is over: who has not come loses."""
        self._timers.pop(tournament_id, None)
        for board in {b for b in self._due.values()
                      if b.tournament.id == tournament_id and b.round == round_number}:
            if board.started:
                continue
            came = set(board.ready)
            result = ("1-0" if came == {board.white} else "0-1" if came == {board.black}
                      else "0-0")
            tournament = board.tournament
            self.store.record_no_show(
                GameRow(board.game_id, tournament.variant, board.white, board.black,
                        tournament.white_ms, tournament.black_ms, time.time(),
                        tournament=tournament.id, round=board.round),
                "*" if result == "0-0" else result)
            log.info("tournament %d, round %d: %s-%s %s (no-show)", tournament_id,
                     round_number, board.white, board.black, result)
            for name, offer in board.ready.items():
                self._idle[name] = offer
            board.started = True
            self._settle(board, result)
        self._round_progress(tournament_id)

    def _finish(self, tournament: TournamentRow, status: str) -> None:
        self.store.update_tournament(tournament.id, status, tournament.round)
        log.info("tournament %d %s", tournament.id, status)
        for name in self.store.entrants(tournament.id):
            board = self._due.pop(name, None)
            offers = [self._idle.pop(name, None), *(board.ready.values() if board else ())]
            for offer in offers:
                if offer is not None and not offer.taken:
                    offer.claimed = False
                    self.server.withdraw(offer)

    def _records(self, tournament: TournamentRow):
        entrants = self.store.entrants(tournament.id)
        ratings = {name: self.store.rating(name, tournament.variant) for name in entrants}
        results = [(row.white, row.black, row.result)
                   for row in self.store.pairings(tournament.id)]
        return records(tournament.format, entrants, ratings, results)

    # --- commands -----------------------------------------------------------------------------

    async def command(self, args: list[str]) -> list[str] | None:
        """The administrator's ``tournament`` command; None for bad arguments."""
        if not args:
            return None
        action, rest = args[0], args[1:]
        if action == "new":
            return self._new(rest)
        if len(rest) < 1 or not rest[0].isdigit():
            return None
        tournament = self.store.tournament(int(rest[0]))
        if tournament is None:
            return [f"440 no such tournament {rest[0]}"]
        if action == "add" and len(rest) == 2:
            if self.store.password_hash(rest[1]) is None:
                return ["400 no such username"]
            return [self.join(tournament.id, rest[1])]
        if action == "start" and len(rest) == 1:
            return [self._start_tournament(tournament)]
        if action == "cancel" and len(rest) == 1:
            if tournament.status in (FINISHED, CANCELLED):
                return [f"441 tournament {tournament.id} is {tournament.status}"]
            timer = self._timers.pop(tournament.id, None)
            if timer is not None:
                timer.cancel()
            self._finish(tournament, CANCELLED)
            return [f"243 tournament {tournament.id} cancelled"]
        return None

    def _new(self, args: list[str]) -> list[str] | None:
        options = dict(arg.split("=", 1) for arg in args if "=" in arg)
        plain = [arg for arg in args if "=" not in arg]
        if not 3 <= len(plain) <= 4 or set(options) - {"variant", "grace", "name"}:
            return None
        format, rounds = plain[0], plain[1]
        times = [parse_offer_time(text) for text in plain[2:]]
        if (format not in FORMATS or not rounds.isdigit() or not 1 <= int(rounds) <= MAX_ROUNDS
                or None in times):
            return None
        try:
            variant = get_variant(options.get("variant", "minitchess"))
            grace = float(options.get("grace", self.server.config.tournament_grace))
        except (UnknownVariantError, ValueError):
            return None
        if not 0 < grace < 1e6:
            return None
        tournament = self.store.add_tournament(
            options.get("name", ""), format, variant.name, int(rounds), times[0], times[-1],
            grace)
        return [f"240 tournament {tournament.id} open for entries: {_tournament_name(tournament)}"
                f" {format} {variant.name} {_time_text(tournament)} {rounds}"
                f" {'cycles' if format == ROUND_ROBIN else 'rounds'}"]

    def _start_tournament(self, tournament: TournamentRow) -> str:
        if tournament.status != OPEN:
            return f"441 tournament {tournament.id} is not open for entries"
        entrants = self.store.entrants(tournament.id)
        if len(entrants) < 2:
            return f"444 tournament {tournament.id} needs at least 2 players"
        rounds = tournament.rounds
        if tournament.format == ROUND_ROBIN:
            rounds *= len(round_robin(entrants))
        self.store.update_tournament(tournament.id, RUNNING, 0, rounds)
        self._pair(self.store.tournament(tournament.id), 1)
        return f"241 tournament {tournament.id} started: {len(entrants)} players, {rounds} rounds"

    def _not_open(self, tournament_id: int) -> str | None:
        """The error reply when the tournament does not take entries (None when it does)."""
        tournament = self.store.tournament(tournament_id)
        if tournament is None:
            return f"440 no such tournament {tournament_id}"
        if tournament.status != OPEN:
            return f"441 tournament {tournament_id} is not open for entries"
        return None

    def join(self, tournament_id: int, name: str) -> str:
        """Enter ``name``: the reply line."""
        error = self._not_open(tournament_id)
        if error is not None:
            return error
        other = self._tournament_of(name)
        if other is not None:
            return f"442 {name} is already in tournament {other.id}"
        self.store.add_entrant(tournament_id, name)
        return f"242 {name} joined tournament {tournament_id}"

    def leave(self, tournament_id: int, name: str) -> str:
        """Withdraw ``name`` before the start: the reply line."""
        error = self._not_open(tournament_id)
        if error is not None:
            return error
        if not self.store.remove_entrant(tournament_id, name):
            return f"443 {name} is not in tournament {tournament_id}"
        held = self._idle.pop(name, None)
        if held is not None:
            held.claimed = False
            self.server.withdraw(held)
        return f"244 {name} left tournament {tournament_id}"

    def listing(self) -> list[str]:
        """The ``tournaments`` reply."""
        rows = [f" {t.id} {_tournament_name(t)} {t.format} {t.variant} {_time_text(t)}"
                f" {t.status} round {t.round}/{t.rounds} {len(self.store.entrants(t.id))} players"
                for t in self.store.tournaments()]
        return [f"218 {len(rows)} tournaments", *rows, "."]

    def standings(self, tournament_id: int | None) -> list[str]:
        """The ``standings`` reply (of the latest tournament that has started, without id)."""
        if tournament_id is None:
            started = [t for t in self.store.tournaments() if t.status != OPEN]
            tournament = started[-1] if started else None
        else:
            tournament = self.store.tournament(tournament_id)
        if tournament is None:
            return [f"440 no such tournament {tournament_id or ''}".rstrip()]
        table = standings(tournament.format, self._records(tournament))
        rows = []
        for record in table:
            breaks = (f"buchholz={record.buchholz:g} sb={record.sonneborn_berger:g}"
                      if tournament.format == SWISS else f"sb={record.sonneborn_berger:g}")
            rows.append(f" {record.rank} {record.name} {record.points:g} {breaks}"
                        f" wins={record.wins} games={record.games}")
        header = (f"219 standings of tournament {tournament.id} {_tournament_name(tournament)}:"
                  f" {tournament.status}, round {tournament.round} of {tournament.rounds}")
        return [header, *rows, "."]

    def pairings(self, tournament_id: int, round_number: int | None = None) -> list[str]:
        """The ``pairings`` reply (of the current round, without a round number)."""
        tournament = self.store.tournament(tournament_id)
        if tournament is None:
            return [f"440 no such tournament {tournament_id}"]
        number = tournament.round if round_number is None else round_number
        rows = []
        for row in self.store.pairings(tournament_id, number):
            status = row.result
            if status is None:
                playing = isinstance(self.server.entries.get(row.game), LiveGame)
                status = "playing" if playing else "waiting"
            rows.append(f" {row.board} {row.white} {row.black or '-'}"
                        f" {row.game if row.game is not None else '-'} {status}")
        return [f"220 round {number} of tournament {tournament_id}", *rows, "."]
