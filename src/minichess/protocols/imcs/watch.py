"""The IMCS server as a feed of the web app's watch page (a
:class:`minichess.web.watch.WatchFeed`): its games in progress, its finished games with their
moves and clocks, PGN, its ratings, and each event as it happens, all as the JSON that
``minichess.web.watch`` describes.

    server = ImcsServer(config)
    await server.start()                 # in the web app's event loop
    feeds.register(ImcsWatchFeed(server))   # feeds: the app's WatchFeeds

``minichess serve --imcs-port 3589`` does this.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from minichess.board import Board
from minichess.outcome import Termination
from minichess.pieces import WHITE
from minichess.protocols.imcs.feed import (
    Event,
    FeedOverflow,
    GameEnded,
    GameStarted,
    MovePlayed,
    RatingsChanged,
)
from minichess.protocols.imcs.games import LiveGame
from minichess.protocols.imcs.server import ImcsServer
from minichess.protocols.imcs.session import DEFAULT_VARIANT, TOP_RATINGS
from minichess.protocols.imcs.store import GameRow
from minichess.variants import get_variant

FINISHED_LISTED = 20
"""How many of the latest finished games :meth:`ImcsWatchFeed.describe` lists."""


class ImcsWatchFeed:
    """The games and ratings of ``server`` (started) for watchers."""

    name = "imcs"

    def __init__(self, server: ImcsServer, finished: int = FINISHED_LISTED) -> None:
        self.server = server
        self.finished = finished

    @property
    def title(self) -> str:
        """What the watch page calls the feed: the server's address."""
        return f"IMCS server {self.server.host}:{self.server.port}"

    # --- the state ----------------------------------------------------------------------------

    def describe(self) -> dict:
        """The games in progress, the latest finished games, the top ten of the minitchess
        ratings and the variants that have ratings."""
        return {
            "title": self.title,
            "live": [self._live_summary(game) for game in self.server.live_games()],
            "finished": self.games(self.finished),
            "ratings": self.ratings(DEFAULT_VARIANT)[:TOP_RATINGS],
            "variants": sorted({DEFAULT_VARIANT, *self.server.store.rated_variants()}),
        }

    def games(self, limit: int, player: str | None = None) -> list[dict]:
        """The latest ``limit`` finished games (``player``'s only, when given), latest first."""
        store = self.server.store
        rows = store.finished_games(limit, player)
        plies = store.ply_counts([row.id for row in rows])
        return [_summary(row, plies.get(row.id, 0)) for row in rows]

    def game(self, game_id: str) -> dict | None:
        """The game ``game_id`` (in progress or finished) with its moves and the clocks after
        each; None if there is none."""
        number = _number(game_id)
        row = None if number is None else self.server.store.game(number)
        if row is None or number is None:
            return None
        live = self.server.entries.get(number)
        moves = self.server.store.moves(number)
        clocks = [{"white": move.white_ms / 1000, "black": move.black_ms / 1000}
                  for move in moves]
        initial = {"white": row.white_ms / 1000, "black": row.black_ms / 1000}
        if isinstance(live, LiveGame):
            summary = self._live_summary(live)
        else:
            summary = {**_summary(row, len(moves)), "clock": _final_clock(row, clocks, initial)}
        return {
            **summary,
            "start_fen": get_variant(row.variant).start_fen,
            "initial": initial,
            "moves": _coordinates(row.variant, [move.move for move in moves]),
            "clocks": clocks,
        }

    def pgn(self, game_id: str) -> str | None:
        """The game ``game_id`` as PGN; None if there is none."""
        number = _number(game_id)
        return None if number is None else self.server.pgn(number)

    def ratings(self, variant: str) -> list[dict]:
        """The ratings in ``variant``, best first, with each player's number of rated games
        (in minitchess every player, as the ``ratings`` command lists them; elsewhere those
        who have played it)."""
        name = get_variant(variant).name
        rows = self.server.store.rating_rows(name, every_player=name == DEFAULT_VARIANT)
        return [{"name": row.name, "rating": row.rating, "games": row.games} for row in rows]

    # --- the changes --------------------------------------------------------------------------

    async def updates(self, game_id: str | None = None) -> AsyncIterator[dict]:
        """The state now (``{"type": "state", ...}``: :meth:`describe`, or the game as
        ``"game"``), then each change: ``start``, ``move``, ``end`` and ``ratings``; for one
        game, its moves and its end, after which the iteration ends. A reader that falls too
        far behind starts again from the state."""
        number = None if game_id is None else _number(game_id)
        while True:
            try:
                async with self.server.feed.subscribe(number) as events:  # then the state: no gap
                    if game_id is None:
                        yield {"type": "state", **self.describe()}
                    else:
                        game = self.game(game_id)
                        if game is None:
                            return
                        yield {"type": "state", "game": game}
                        if not game["live"]:
                            return
                    async for event in events:
                        message = self._message(event)
                        if message is not None:
                            yield message
                return
            except FeedOverflow:
                continue

    def _message(self, event: Event) -> dict | None:
        if isinstance(event, MovePlayed):
            turn = "black" if event.ply % 2 else "white"  # (IMCS games start with White)
            return {"type": "move", "game_id": str(event.game_id), "ply": event.ply,
                    "move": event.uci, "san": event.san, "fen": event.fen,
                    "clock": {"white": event.white_ms / 1000, "black": event.black_ms / 1000,
                              "running": turn}}
        if isinstance(event, GameStarted):
            live = self.server.entries.get(event.game_id)
            return {"type": "start", "game": {
                **_summary(GameRow(event.game_id, event.variant, event.white, event.black,
                                   event.white_ms, event.black_ms, _started(live),
                                   white_rating=event.white_rating,
                                   black_rating=event.black_rating, tournament=event.tournament,
                                   round=event.round), 0),
                "live": True, "fen": event.fen,
                "clock": {"white": event.white_ms / 1000, "black": event.black_ms / 1000,
                          "running": None}}}
        if isinstance(event, GameEnded):
            row = self.server.store.game(event.game_id)
            if row is None:
                return None
            plies = self.server.store.ply_counts([row.id]).get(row.id, 0)
            clock = None if event.white_ms is None or event.black_ms is None else {
                "white": event.white_ms / 1000, "black": event.black_ms / 1000, "running": None}
            return {"type": "end", "game_id": str(event.game_id),
                    "game": {**_summary(row, plies), "clock": clock}}
        if isinstance(event, RatingsChanged):
            return {"type": "ratings", "variant": event.variant, "ratings": dict(event.ratings)}
        return None

    def _live_summary(self, game: LiveGame) -> dict:
        store = self.server.store
        variant = game.variant.name
        row = GameRow(game.id, variant, game.white.name, game.black.name, game.white.clock_ms,
                      game.black.clock_ms, game.started,
                      white_rating=store.rating(game.white.name, variant),
                      black_rating=store.rating(game.black.name, variant),
                      tournament=game.tournament, round=game.round)
        white_ms, black_ms = game.clocks()
        running = game.running_clock()
        if running is not None:
            color, used = running
            white_ms, black_ms = ((white_ms - used, black_ms) if color == WHITE
                                  else (white_ms, black_ms - used))
        return {**_summary(row, len(game.moves)), "live": True, "fen": game.board.fen(),
                "clock": {"white": max(white_ms, 0) / 1000, "black": max(black_ms, 0) / 1000,
                          "running": None if running is None else _color(running[0])}}


def _summary(row: GameRow, plies: int) -> dict:
    """A stored game in a list: who, what, when, how it ended, the ratings before it and
    their changes."""
    return {
        "id": str(row.id), "variant": row.variant, "white": row.white, "black": row.black,
        "white_rating": row.white_rating, "black_rating": row.black_rating,
        "white_change": row.white_change, "black_change": row.black_change,
        "result": row.result or "*", "termination": row.termination, "reason": row.reason,
        "live": False, "started": row.started, "ended": row.ended, "plies": plies,
        "tournament": row.tournament, "round": row.round, "fen": None,
        "clock": None,
    }


def _final_clock(row: GameRow, clocks: list[dict], initial: dict) -> dict:
    """The clocks at the end of a finished game: after its last move, the loser's at zero
    when it lost on time."""
    clock = {**(clocks[-1] if clocks else initial), "running": None}
    if row.termination == Termination.TIME_FORFEIT.value and row.result in ("1-0", "0-1"):
        clock["black" if row.result == "1-0" else "white"] = 0.0
    return clock


def _coordinates(variant: str, moves: list[str]) -> list[str]:
    """Moves as IMCS writes them (``a5-a6``) in the project's coordinates (``a5a6q``)."""
    board = Board(variant)
    return [board.push_uci(text).uci() for text in moves]


def _started(live: object) -> float:
    return live.started if isinstance(live, LiveGame) else time.time()


def _color(color: bool) -> str:
    return "white" if color == WHITE else "black"


def _number(game_id: str) -> int | None:
    """An IMCS game number from its text (None unless a whole number in range)."""
    return int(game_id) if game_id.isdecimal() and len(game_id) < 12 else None
