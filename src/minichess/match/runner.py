"""Matches between two players: many timed games in parallel processes, from balanced openings.

Game ``2k+1`` and ``2k+2`` (rounds count from 1) start from the same opening, the first player
White in the first of them and Black in the second. Each worker process creates its two players
once and plays game after game with them; a player that fails (a UCI engine that crashes, does
not answer or chooses an illegal move) loses that game, and the report says why.

>>> result = play_match(["greedy", "random"], "csc111", games=2, time_control="5+0.1", seed=1)
>>> result.games_played, result.wins + result.draws + result.losses
(2, 2)
"""

from __future__ import annotations

import datetime
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as EventType
from multiprocessing.util import Finalize

from minichess.errors import MinichessError
from minichess.game import Game, TimeControl, parse_time_control
from minichess.match.elo import EloEstimate, elo_estimate
from minichess.match.openings import Opening, balanced_openings
from minichess.match.specs import PlayerSpec, parse_player
from minichess.notation.pgn import write_pgn
from minichess.pieces import BLACK, WHITE, Color, color_name
from minichess.players import Player
from minichess.variants import VariantDefinition, get_variant

DEFAULT_TIME_CONTROL = "10+0.1"
EVENT = "minichess match"
_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass(frozen=True)
class GameReport:
    """One finished game of a match."""

    round: int
    white: str
    black: str
    result: str
    """``1-0``, ``0-1`` or ``1/2-1/2``."""
    termination: str
    """How the game ended (a :class:`~minichess.outcome.Termination` value)."""
    first_player_score: float
    """1, 0.5 or 0 for the match's first player."""
    pgn: str
    failure: str | None = None
    """Why a player lost by failing (crash, no answer, illegal move); None otherwise."""


@dataclass
class MatchResult:
    """The games of a match so far, and what they show about the first player."""

    players: tuple[str, str]
    variant: str
    time_control: str
    seed: int
    """The seed of the openings: the same seed gives the same openings."""
    games: list[GameReport] = field(default_factory=list)

    @property
    def games_played(self) -> int:
        """Number of finished games."""
        return len(self.games)

    @property
    def wins(self) -> int:
        """Games the first player won."""
        return sum(game.first_player_score == 1 for game in self.games)

    @property
    def draws(self) -> int:
        """Drawn games."""
        return sum(game.first_player_score == 0.5 for game in self.games)

    @property
    def losses(self) -> int:
        """Games the first player lost."""
        return sum(game.first_player_score == 0 for game in self.games)

    @property
    def score(self) -> float:
        """The first player's points per game, 0..1 (0.5 before any game)."""
        if not self.games:
            return 0.5
        return (self.wins + self.draws / 2) / self.games_played

    @property
    def elo(self) -> EloEstimate:
        """The first player's Elo advantage with its 95% interval."""
        return elo_estimate(self.wins, self.draws, self.losses)

    @property
    def terminations(self) -> dict[str, int]:
        """How many games ended in each way."""
        return dict(Counter(game.termination for game in self.games).most_common())

    @property
    def failures(self) -> list[GameReport]:
        """The games a player lost by failing."""
        return [game for game in self.games if game.failure is not None]

    def pgn(self) -> str:
        """All games as one PGN text, in round order."""
        return "\n".join(game.pgn for game in sorted(self.games, key=lambda game: game.round))

    def to_dict(self) -> dict:
        """The result as plain data for JSON (unbounded Elo values are None)."""
        elo = self.elo
        return {
            "players": list(self.players),
            "variant": self.variant,
            "time_control": self.time_control,
            "seed": self.seed,
            "games": self.games_played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "elo": _rounded(elo.elo),
            "elo_error": _rounded(elo.error),
            "elo_lower": _rounded(elo.lower),
            "elo_upper": _rounded(elo.upper),
            "terminations": self.terminations,
            "failures": [{"round": game.round, "reason": game.failure} for game in self.failures],
        }


GameCallback = Callable[[GameReport, MatchResult], None]


def play_match(
    player_specs: Sequence[str | PlayerSpec],
    variant: str | VariantDefinition = "minitchess",
    games: int = 2,
    time_control: str | TimeControl = DEFAULT_TIME_CONTROL,
    concurrency: int | None = None,
    seed: int | None = None,
    on_game: GameCallback | None = None,
) -> MatchResult:
    """Play ``games`` games between two players and return the result.

    ``player_specs`` are two texts such as ``"level:10"`` and ``"random"`` (see
    :mod:`minichess.match.specs`); the players are created in the worker processes.
    ``time_control`` gives each player a clock per game (``"10+0.1"``: 10 s plus 0.1 s per
    move). ``concurrency`` games run at once in separate processes (default: one per core).
    ``seed`` fixes the openings (default: a random one, kept in the result). ``on_game`` is
    called in this process after each game with its report and the result so far.
    Raises MinichessError for bad arguments.

    The workers are started with the ``spawn`` method, which imports the main module again:
    a script that calls this must do so under ``if __name__ == "__main__":``.
    """
    specs = _parse_specs(player_specs)
    variant = get_variant(variant)
    clock = parse_time_control(time_control) if isinstance(time_control, str) else time_control
    workers = _worker_count(games, concurrency)
    seed = random.randrange(2**31) if seed is None else seed
    openings = balanced_openings(variant, (games + 1) // 2, seed)
    names = (str(specs[0]), str(specs[1]))
    tasks = [_GameTask(number + 1, variant.name, openings[number // 2 % len(openings)],
                       number % 2 == 0, clock, names) for number in range(games)]
    result = MatchResult(names, variant.name, str(clock), seed)
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(specs, stop)) as pool:
        futures = [pool.submit(_play_game, task) for task in tasks]
        try:
            _collect(futures, result, on_game)
        except BaseException:  # interrupted, or on_game failed: end the games under way
            stop.set()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    result.games.sort(key=lambda game: game.round)
    return result


def _parse_specs(player_specs: Sequence[str | PlayerSpec]) -> tuple[PlayerSpec, PlayerSpec]:
    if len(player_specs) != 2:
        raise MinichessError(f"a match needs two players, not {len(player_specs)}")
    first, second = (
        spec if isinstance(spec, PlayerSpec) else parse_player(spec) for spec in player_specs
    )
    return first, second


def _worker_count(games: int, concurrency: int | None) -> int:
    if games < 1:
        raise MinichessError(f"a match needs at least one game, not {games}")
    if concurrency is not None and concurrency < 1:
        raise MinichessError(f"concurrency must be at least 1, not {concurrency}")
    return min(concurrency or os.cpu_count() or 1, games)


def _collect(futures: list[Future], result: MatchResult, on_game: GameCallback | None) -> None:
    for future in as_completed(futures):
        report = future.result()
        result.games.append(report)
        if on_game is not None:
            on_game(report, result)


# --- in the worker processes --------------------------------------------------------------------


@dataclass(frozen=True)
class _GameTask:
    round: int
    variant: str
    opening: Opening
    first_plays_white: bool
    clock: TimeControl
    names: tuple[str, str]


class _MatchStopped(Exception):
    """The match was stopped before this game ended."""


@dataclass
class _Worker:
    """What a worker process keeps between games."""

    players: list[Player] = field(default_factory=list)
    """The two players, in the order of the match."""
    stop: EventType | None = None
    """Set when the match is stopped: the worker gives up its games."""


_worker = _Worker()


def _start_worker(specs: tuple[PlayerSpec, PlayerSpec], stop: EventType) -> None:
    """Create the worker's players; they are released when the worker ends."""
    _worker.stop = stop
    _worker.players = [spec.create() for spec in specs]
    for player in _worker.players:
        Finalize(player, player.close, exitpriority=10)


def _play_game(task: _GameTask) -> GameReport:
    """Play one game of the match in this worker."""
    in_match_order = list(zip(_worker.players, task.names, strict=True))
    white, black = in_match_order if task.first_plays_white else in_match_order[::-1]
    game = Game(task.variant, task.opening.fen, clock=task.clock, headers={
        "Event": EVENT,
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(task.round),
        "White": white[1],
        "Black": black[1],
    })
    failure = _play_out(game, {WHITE: white, BLACK: black})
    if failure is not None:
        game.headers["Forfeit"] = failure
    outcome = game.outcome()
    assert outcome is not None, "the game was played out"
    white_score = _SCORES[outcome.result()]
    return GameReport(
        round=task.round,
        white=white[1],
        black=black[1],
        result=outcome.result(),
        termination=outcome.termination.value,
        first_player_score=white_score if task.first_plays_white else 1 - white_score,
        pgn=write_pgn(game),
        failure=failure,
    )


def _play_out(game: Game, players: dict[Color, tuple[Player, str]]) -> str | None:
    """Play ``game`` to its end; return why a player lost by failing, if one did."""
    for color, (player, name) in players.items():
        try:
            player.new_game(game.variant)
        except MinichessError as error:
            return _forfeit(game, color, name, error, seconds=0.0)
    while not game.is_game_over():
        if _worker.stop is not None and _worker.stop.is_set():
            raise _MatchStopped
        color = game.board.turn
        player, name = players[color]
        started = time.monotonic()
        try:
            game.push(player.choose_move(game), seconds=time.monotonic() - started)
        except MinichessError as error:
            return _forfeit(game, color, name, error, time.monotonic() - started)
    return None


def _forfeit(game: Game, color: Color, name: str, error: Exception, seconds: float) -> str:
    """``color`` failed: it loses on time if it used more than its clock, else by forfeit."""
    remaining = game.remaining(color)  # None without clocks
    if remaining is not None and seconds > remaining:
        game.forfeit_on_time(color)
    else:
        game.forfeit(color)
    side = color_name(color)
    who = side if name in str(error) else f"{side} ({name})"
    return f"{who} lost by failing: {error}"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
