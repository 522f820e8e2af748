"""Games in progress: a person against the engine, or the engine against itself.

The :class:`GameService` holds every unfinished game in memory, saves each change to the
:class:`~minichess.web.storage.GameStore` before it is announced, and lets the engine think in
worker threads (the search releases the GIL), so a search never holds up the server or another
game. Watchers (the WebSocket connections) get a signal after every change and ask for the view
they may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import date

from minichess.engine import Engine, Info, Limit
from minichess.errors import IllegalMoveError, InvalidPgnError, MinichessError
from minichess.game import Game, TimeControl
from minichess.notation.pgn import read_pgn, write_pgn
from minichess.outcome import Termination
from minichess.pieces import BLACK, WHITE, Color
from minichess.squares import square_name
from minichess.svg import check_square
from minichess.variants import get_variant
from minichess.web.storage import GameStore, StoredGame

log = logging.getLogger(__name__)
_FINAL = (Termination.RESIGNATION, Termination.TIME_FORFEIT, Termination.FORFEIT)
"""Ends that no take-back undoes."""

COLOR_KEYS = {WHITE: "white", BLACK: "black"}
ENGINE_HASH_MB = 4
"""Transposition table of each game's engine: small, for many games at once."""
FINISHED_IN_MEMORY = 500
"""Finished games kept in memory (the latest), so that everyone watching one shares it."""
ENGINE_THREADS = 32
"""Searches that run at once; more wait their turn (each is bounded by its clock or move time)."""


class GameNotFound(MinichessError):
    """No game has that id."""


class NotYourGame(MinichessError):
    """A request to change a game from a session that does not own it."""


class NotNow(MinichessError):
    """A request that the game's state does not allow now (not your turn, game over, ...)."""


@dataclass(frozen=True)
class GameSettings:
    """Who plays: ``white``/``black`` are engine levels, None for a person; the clock as
    (seconds, increment) or None; ``move_time``: seconds per engine move without a clock;
    ``delay``: least seconds between two engine moves (so that people can follow)."""

    white: int | None
    black: int | None
    clock: tuple[float, float] | None = None
    move_time: float = 1.0
    delay: float = 0.0

    def level(self, color: Color) -> int | None:
        """The engine level of ``color``, None for a person."""
        return self.white if color == WHITE else self.black

    @property
    def time_control(self) -> TimeControl | None:
        """The clock as a TimeControl."""
        return TimeControl(*self.clock) if self.clock else None

    def to_json(self) -> dict:
        """A dict for storage."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> GameSettings:
        """The settings stored by :meth:`to_json`."""
        clock = data.get("clock")
        return cls(data.get("white"), data.get("black"), tuple(clock) if clock else None,
                   data.get("move_time", 1.0), data.get("delay", 0.0))


@dataclass(eq=False)
class LiveGame:
    """A game in memory with its engines and the tasks that drive it."""

    id: str
    owner: str
    kind: str
    game: Game
    settings: GameSettings
    created: float
    version: int = 0
    """Goes up with every change; an engine move found for an older version is dropped."""
    engines: dict[Color, Engine] = field(default_factory=dict)
    thinking: asyncio.Task | None = None
    clock_task: asyncio.Task | None = None
    watchers: set[asyncio.Event] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def engine(self, color: Color) -> Engine | None:
        """The engine playing ``color`` (made on first use), None for a person."""
        level = self.settings.level(color)
        if level is None:
            return None
        if color not in self.engines:
            self.engines[color] = Engine(level=level, hash_mb=ENGINE_HASH_MB)
        return self.engines[color]

    def human_to_move(self) -> bool:
        """Whether a person is to move in a game that goes on."""
        return not self.game.is_game_over() and self.settings.level(self.game.board.turn) is None

    def stored(self) -> StoredGame:
        """The row to save."""
        return StoredGame(self.id, self.owner, self.kind, self.settings.to_json(),
                          write_pgn(self.game), self.game.result(), self.created, time.time())


def player_name(level: int | None) -> str:
    """How the PGN and the page name a player."""
    return "Player" if level is None else f"minichess level {level}"


class GameService:
    """Creates, drives, stores and shows the web app's games."""

    def __init__(self, store: GameStore, threads: int = ENGINE_THREADS) -> None:
        self.store = store
        self.games: dict[str, LiveGame] = {}
        """The games that go on, by id."""
        self._finished: OrderedDict[str, LiveGame] = OrderedDict()
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="engine")
        self._closing = False

    # --- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Take up the unfinished games of the store (after a restart), and have the search
        loaded (compiled, on a first run) in the background before the first game needs it."""
        asyncio.get_running_loop().run_in_executor(self._executor, _warm_up)
        for row in self.store.unfinished():
            try:
                game = read_pgn(row.pgn)[0]
            except (InvalidPgnError, IndexError) as error:
                log.error("game %s cannot be read back and is left alone: %s", row.id, error)
                continue
            live = LiveGame(row.id, row.owner, row.kind, game,
                            GameSettings.from_json(row.settings), row.created)
            self.games[live.id] = live
            self._drive(live)

    async def close(self) -> None:
        """Stop every search and task; the games stay in the store as they are."""
        self._closing = True
        for live in self.games.values():
            for engine in live.engines.values():
                engine.stop()
            for task in (live.thinking, live.clock_task):
                if task is not None:
                    task.cancel()
        tasks = [t for live in self.games.values() for t in (live.thinking, live.clock_task) if t]
        await asyncio.gather(*tasks, return_exceptions=True)
        self._executor.shutdown(wait=True, cancel_futures=True)

    # --- finding games ------------------------------------------------------------------------

    def get(self, game_id: str) -> LiveGame:
        """The game ``game_id``, in play or finished; GameNotFound when there is none."""
        if game_id in self.games:
            return self.games[game_id]
        if game_id in self._finished:
            self._finished.move_to_end(game_id)
            return self._finished[game_id]
        row = self.store.load(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        live = LiveGame(row.id, row.owner, row.kind, read_pgn(row.pgn)[0],
                        GameSettings.from_json(row.settings), row.created)
        self._remember_finished(live)
        return live

    def owned_by(self, owner: str) -> list[StoredGame]:
        """``owner``'s games, the latest first."""
        return self.store.owned_by(owner)

    # --- changes ------------------------------------------------------------------------------

    async def create(self, owner: str, kind: str, variant: str, fen: str | None,
                     settings: GameSettings) -> LiveGame:
        """A new game, saved and started (the engine moves at once if it is to move)."""
        headers = {"Event": "minichess web", "Site": "minichess serve",
                   "Date": date.today().strftime("%Y.%m.%d"),
                   "White": player_name(settings.white), "Black": player_name(settings.black)}
        game = Game(variant, fen, settings.time_control, headers)
        if game.is_game_over():
            raise NotNow(f"that position is already over ({game.outcome()})")
        live = LiveGame(secrets.token_urlsafe(9), owner, kind, game, settings, time.time())
        self.games[live.id] = live
        self._changed(live)
        return live

    async def move(self, live: LiveGame, owner: str, text: str) -> None:
        """Play a person's move ``text`` (any notation)."""
        async with live.lock:
            self._require_owner(live, owner)
            if live.game.is_game_over():
                raise NotNow(f"the game is over ({live.game.outcome()})")
            if not live.human_to_move():
                raise NotNow("it is the engine's turn")
            move = live.game.board.parse_move(text)
            live.game.push(move)
            self._changed(live)

    async def undo(self, live: LiveGame, owner: str) -> None:
        """Take back the person's last move, with the engine's reply to it (or its search).

        Also after the rules ended the game, not after a resignation or a loss on time."""
        async with live.lock:
            self._require_owner(live, owner)
            if live.kind != "play":
                raise NotNow("only games against the engine can take moves back")
            game = live.game
            outcome = game.outcome()
            if outcome is not None and outcome.termination in _FINAL:
                raise NotNow(f"the game is over ({outcome})")
            start_turn = game.board.turn if len(game.moves) % 2 == 0 else not game.board.turn
            own = [ply for ply in range(len(game.moves))
                   if live.settings.level(start_turn if ply % 2 == 0 else not start_turn) is None]
            if not own:
                raise NotNow("none of your moves to take back")
            await self._stop_thinking(live)
            while len(game.moves) > own[-1]:
                game.pop()
            self._finished.pop(live.id, None)
            self.games[live.id] = live
            self._changed(live)

    async def resign(self, live: LiveGame, owner: str) -> None:
        """The person resigns and loses."""
        async with live.lock:
            self._require_owner(live, owner)
            if live.kind != "play":
                raise NotNow("only a person can resign, and this is an engine game")
            if live.game.is_game_over():
                raise NotNow(f"the game is over ({live.game.outcome()})")
            await self._stop_thinking(live)
            person = next(c for c in (WHITE, BLACK) if live.settings.level(c) is None)
            live.game.resign(person)
            self._changed(live)

    # --- watching -----------------------------------------------------------------------------

    def watch(self, live: LiveGame) -> asyncio.Event:
        """An event set after each change of ``live`` (clear it after reading)."""
        event = asyncio.Event()
        live.watchers.add(event)
        return event

    def unwatch(self, live: LiveGame, event: asyncio.Event) -> None:
        """Stop signalling ``event``."""
        live.watchers.discard(event)

    def view(self, live: LiveGame, viewer: str | None) -> dict:
        """What ``viewer`` (a session) sees of the game; the legal moves only when the viewer
        owns the game and is to move."""
        game, board = live.game, live.game.board
        outcome = game.outcome()
        mine = viewer == live.owner
        legal = [m.uci() for m in board.legal_moves] if mine and live.human_to_move() else []
        last = board.peek() if board.move_stack else None
        check = check_square(board) if outcome is None else None
        people = [COLOR_KEYS[c] for c in (WHITE, BLACK) if live.settings.level(c) is None]
        return {
            "id": live.id,
            "kind": live.kind,
            "variant": game.variant.name,
            "start_fen": game.start_fen,
            "fen": board.fen(),
            "turn": COLOR_KEYS[board.turn],
            "moves": [m.uci() for m in game.moves],
            "sans": game.san_moves,
            "lastmove": last.uci() if last else None,
            "check": _square_text(check),
            "legal": legal,
            "result": game.result(),
            "outcome": None if outcome is None else {
                "winner": None if outcome.winner is None else COLOR_KEYS[outcome.winner],
                "termination": outcome.termination.value,
                "text": str(outcome),
            },
            "clock": _clock_view(game),
            "players": {COLOR_KEYS[c]: {"level": live.settings.level(c),
                                        "name": player_name(live.settings.level(c))}
                        for c in (WHITE, BLACK)},
            "people": people,
            "owner": mine,
            "thinking": live.thinking is not None and not live.thinking.done(),
            "version": live.version,
        }

    # --- driving the game ---------------------------------------------------------------------

    def _require_owner(self, live: LiveGame, owner: str) -> None:
        if live.owner != owner:
            raise NotYourGame("this game belongs to another browser session: you may watch it,"
                              " not play in it")

    def _changed(self, live: LiveGame) -> None:
        """Save ``live``, tell its watchers, and start what the new state needs."""
        live.version += 1
        self.store.save(live.stored())
        for event in live.watchers:
            event.set()
        if live.game.is_game_over():
            if live.clock_task is not None:
                live.clock_task.cancel()
            self.games.pop(live.id, None)
            self._remember_finished(live)
        else:
            self._drive(live)

    def _remember_finished(self, live: LiveGame) -> None:
        live.engines.clear()  # their tables are the memory worth freeing
        self._finished[live.id] = live
        while len(self._finished) > FINISHED_IN_MEMORY:
            self._finished.popitem(last=False)

    def _drive(self, live: LiveGame) -> None:
        """Start the engine's search if it is to move, and the clock's watch."""
        if self._closing:
            return
        if live.clock_task is not None:
            live.clock_task.cancel()
        if live.game.clock is not None:
            live.clock_task = asyncio.create_task(self._flag_fall(live, live.version))
        if not live.human_to_move() and (live.thinking is None or live.thinking.done()):
            live.thinking = asyncio.create_task(self._engine_move(live, live.version))

    async def _flag_fall(self, live: LiveGame, version: int) -> None:
        """Sleep until the side to move's time is up; then it loses on time."""
        game = live.game
        await asyncio.sleep(max(seconds_left(game, game.board.turn), 0) + 0.05)
        if live.version != version or game.is_game_over():
            return
        game.check_time()
        if game.is_game_over():
            for engine in live.engines.values():
                engine.stop()  # its move, if it comes, is for an older version
            self._changed(live)

    async def _engine_move(self, live: LiveGame, version: int) -> None:
        game = live.game
        color = game.board.turn
        engine = live.engine(color)
        assert engine is not None, "a person's turn"
        if live.settings.delay and game.moves:
            await asyncio.sleep(live.settings.delay)
        limit = Limit(time=live.settings.move_time)
        if game.clock is not None:
            limit = Limit(white_clock=seconds_left(game, WHITE),
                          black_clock=seconds_left(game, BLACK), increment=game.clock.increment)
        try:
            # set up here, in the event loop, so that a stop from it is never lost
            infos = engine.iter_analysis(game.board.copy(), limit, playing=True)
            last = await asyncio.get_running_loop().run_in_executor(self._executor, _last, infos)
        except (MinichessError, RuntimeError) as error:
            log.warning("engine search in game %s failed: %s", live.id, error)
            return
        # No lock here: what follows does not wait, and whoever changes the game while the
        # engine thinks moves the version on first.
        if last is None or not last.pv or live.version != version or self._closing:
            return
        if game.is_game_over():
            return
        try:
            game.push(last.pv[0])
        except IllegalMoveError as error:  # cannot happen unless the position changed
            log.error("engine move %s refused in game %s: %s", last.pv[0], live.id, error)
            return
        live.thinking = None
        self._changed(live)

    async def _stop_thinking(self, live: LiveGame) -> None:
        task = live.thinking
        if task is None or task.done():
            return
        for engine in live.engines.values():
            engine.stop()
        live.version += 1  # the search's move, if it still comes, is for an older position
        with contextlib.suppress(asyncio.CancelledError):
            await task
        live.thinking = None


def _warm_up() -> None:
    """Load the compiled search for both kinds of rules (royal king or not)."""
    for variant in ("csc111", "minitchess"):
        Engine(level=1, hash_mb=1).new_game(get_variant(variant))


def _last(infos) -> Info | None:
    """The last of the engine's iterations (run in a worker thread)."""
    last = None
    for info in infos:
        last = info
    return last


def _square_text(sq: int | None) -> str | None:
    return None if sq is None else square_name(sq)


def seconds_left(game: Game, color: Color) -> float:
    """``color``'s time in a game with clocks, the turn now running counted."""
    remaining = game.remaining(color)
    assert remaining is not None, "a game with clocks"
    return remaining - (game.turn_seconds() if color == game.board.turn else 0.0)


def _clock_view(game: Game) -> dict | None:
    if game.clock is None:
        return None
    turn = game.board.turn
    running = not game.is_game_over()
    seconds = {COLOR_KEYS[c]: max(seconds_left(game, c), 0.0) for c in (WHITE, BLACK)}
    return {**seconds, "running": COLOR_KEYS[turn] if running else None,
            "initial": game.clock.initial, "increment": game.clock.increment}
