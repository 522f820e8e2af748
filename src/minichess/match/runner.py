"""Matches between two players: many timed games in parallel processes, from balanced openings.

Game ``2k+1`` and ``2k+2`` (rounds count from 1) start from the same opening, the first player
White in the first of them and Black in the second. Each worker process creates its two players
once and plays game after game with them; a player that fails (a UCI engine that crashes, does
not answer or chooses an illegal move) loses that game, and the report says why.

With an :class:`~minichess.match.sprt.Sprt`, the match stops as soon as the test decides,
abandoning the games under way (they are not counted); ``games`` is then an upper bound
(None: none), at which the match may end undecided. The games run on local processes, or on
a Ray cluster given by ``ray`` (see :mod:`minichess.match.pool`).

>>> result = play_match(["greedy", "random"], "csc111", games=2, time_control="5+0.1", seed=1)
>>> result.games_played, result.wins + result.draws + result.losses
(2, 2)
"""

from __future__ import annotations

import datetime
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from minichess.errors import MinichessError
from minichess.game import Game, TimeControl, parse_time_control
from minichess.match.elo import EloEstimate, elo_estimate
from minichess.match.openings import Opening, opening_cycle, start_opening
from minichess.match.pool import StopEvent, open_pool
from minichess.match.specs import PlayerSpec, parse_player
from minichess.match.sprt import Decision, Pentanomial, Sprt, pentanomial
from minichess.notation.pgn import write_pgn
from minichess.outcome import WHITE_SCORES
from minichess.pieces import BLACK, WHITE, Color, color_name
from minichess.players import Player
from minichess.variants import VariantDefinition, get_variant

DEFAULT_TIME_CONTROL = "10+0.1"
EVENT = "minichess match"


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
    """The seed of the openings and of the chance in the players' moves: the same seed gives
    the same openings, and the same games where the players' moves depend on nothing else
    (not on the time a search takes)."""
    games: list[GameReport] = field(default_factory=list)
    sprt: Sprt | None = None
    """The test that ends the match early, if any."""

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
    def pentanomial(self) -> Pentanomial:
        """The finished pairs of games (rounds 2k+1 and 2k+2, from one opening) counted by the
        first player's points in them: 0, 1/2, 1, 3/2, 2 (see :mod:`minichess.match.sprt`)."""
        scores: dict[int, list[float]] = {}
        for game in self.games:
            scores.setdefault((game.round - 1) // 2, []).append(game.first_player_score)
        return pentanomial(sum(pair) for pair in scores.values() if len(pair) == 2)

    @property
    def llr(self) -> float | None:
        """The SPRT's log-likelihood ratio after the finished pairs; None without a test."""
        return None if self.sprt is None else self.sprt.llr(self.pentanomial)

    @property
    def decision(self) -> Decision | None:
        """What the SPRT accepted; None without a test or while undecided."""
        if self.sprt is None:
            return None
        return self.sprt.decision(self.sprt.llr(self.pentanomial))

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
            "pentanomial": list(self.pentanomial),
            "sprt": None if self.sprt is None else self._sprt_dict(self.sprt),
            "terminations": self.terminations,
            "failures": [{"round": game.round, "reason": game.failure} for game in self.failures],
        }

    def _sprt_dict(self, test: Sprt) -> dict:
        llr = test.llr(self.pentanomial)
        decision = test.decision(llr)
        return {
            "elo0": test.elo0,
            "elo1": test.elo1,
            "alpha": test.alpha,
            "beta": test.beta,
            "llr": round(llr, 4),
            "lower": round(test.lower, 4),
            "upper": round(test.upper, 4),
            "decision": None if decision is None else decision.value,
        }


GameCallback = Callable[[GameReport, MatchResult], None]


def play_match(
    player_specs: Sequence[str | PlayerSpec],
    variant: str | VariantDefinition = "minitchess",
    games: int | None = 2,
    time_control: str | TimeControl = DEFAULT_TIME_CONTROL,
    concurrency: int | None = None,
    seed: int | None = None,
    on_game: GameCallback | None = None,
    sprt: Sprt | None = None,
    ray: str | None = None,
    from_start: bool = False,
    openings: Sequence[Opening] | None = None,
) -> MatchResult:
    """Play ``games`` games between two players and return the result.

    ``player_specs`` are two texts such as ``"level:10"`` and ``"random"`` (see
    :mod:`minichess.match.specs`); the players are created in the worker processes.
    ``time_control`` gives each player a clock per game (``"10+0.1"``: 10 s plus 0.1 s per
    move). ``concurrency`` games run at once in separate processes (default: one per core).
    ``seed`` fixes the openings and the chance in the players' moves (random, greedy and the
    weaker levels; default: a random seed, kept in the result). ``on_game`` is
    called in this process after each game with its report and the result so far.
    ``sprt`` stops the match as soon as the test decides (``games`` is then at most that many,
    or unbounded if None); ``ray`` plays the games on the Ray cluster at that address
    (``"auto"``: a local Ray instance started for the match) instead of local processes.
    ``from_start`` plays every game from the variant's start position instead of balanced
    openings (the players still change colours from game to game); ``openings`` gives the
    openings instead (:func:`~minichess.match.openings.read_openings` reads them from a file),
    a pair of games from each in turn, from the first again once all have been played.
    Raises MinichessError for bad arguments.

    The workers are started with the ``spawn`` method, which imports the main module again:
    a script that calls this must do so under ``if __name__ == "__main__":``.
    """
    specs = _parse_specs(player_specs)
    variant = get_variant(variant)
    clock = parse_time_control(time_control) if isinstance(time_control, str) else time_control
    _check_game_count(games, sprt)
    seed = random.randrange(2**31) if seed is None else seed
    names = (specs[0].display_name, specs[1].display_name)
    result = MatchResult(names, variant.name, str(clock), seed, sprt=sprt)
    tasks = _game_tasks(variant, games, seed, clock, names,
                        _match_openings(variant, games, seed, from_start, openings))
    with open_pool(concurrency, _start_worker, (specs,), ray, limit=games) as pool:
        for report in pool.results(_play_game, tasks):
            result.games.append(report)
            if on_game is not None:
                on_game(report, result)
            if result.decision is not None:
                break  # leaving the pool abandons the games under way
    result.games.sort(key=lambda game: game.round)
    return result


def _parse_specs(player_specs: Sequence[str | PlayerSpec]) -> tuple[PlayerSpec, PlayerSpec]:
    if len(player_specs) != 2:
        raise MinichessError(f"a match needs two players, not {len(player_specs)}")
    first, second = (
        spec if isinstance(spec, PlayerSpec) else parse_player(spec) for spec in player_specs
    )
    return first, second


def _check_game_count(games: int | None, sprt: Sprt | None) -> None:
    if games is None and sprt is None:
        raise MinichessError("a match without a number of games needs an SPRT to end it")
    if games is not None and games < 1:
        raise MinichessError(f"a match needs at least one game, not {games}")


def _match_openings(variant: VariantDefinition, games: int | None, seed: int, from_start: bool,
                    openings: Sequence[Opening] | None) -> Iterator[Opening]:
    """The openings of the match's pairs of games, in order: those given, the start position,
    or balanced openings of the seed (found as needed)."""
    if openings is not None:
        if from_start:
            raise MinichessError("a match plays from the start or from given openings, not both")
        if not openings:
            raise MinichessError("a match needs at least one opening")
        return itertools.cycle(openings)
    if from_start:
        return itertools.repeat(start_opening(variant))
    return opening_cycle(variant, seed, None if games is None else (games + 1) // 2)


def _game_tasks(variant: VariantDefinition, games: int | None, seed: int, clock: TimeControl,
                names: tuple[str, str], openings: Iterator[Opening]) -> Iterator[GameTask]:
    """The match's games in order, each pair from the next opening."""
    for pair, opening in enumerate(openings):
        for number in (2 * pair, 2 * pair + 1):
            if games is not None and number >= games:
                return
            yield GameTask(number + 1, variant.name, opening, number % 2 == 0, clock, names,
                            _game_seeds(seed, number + 1))


def _game_seeds(seed: int, round_: int) -> tuple[int, int]:
    """The seeds of the chance in the players' moves in game ``round_`` (the first player's,
    the second's): drawn from the match's seed, so that a match replays from it whichever
    worker plays which game."""
    chooser = random.Random(f"{seed}:{round_}")
    return chooser.randrange(2**31), chooser.randrange(2**31)


# --- in the worker processes --------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """One game to play: its round, variant, opening, who is White, clock, the players' names
    and seeds (in the order of the match)."""

    round: int
    variant: str
    opening: Opening
    first_plays_white: bool
    clock: TimeControl
    names: tuple[str, str]
    seeds: tuple[int, int]
    """The players' seeds for this game, in the order of the match."""


class _MatchStopped(Exception):
    """The match was stopped before this game ended."""


@dataclass
class _Worker:
    """What a worker process keeps between games."""

    players: list[Player] = field(default_factory=list)
    """The two players, in the order of the match."""
    stop: StopEvent | None = None
    """Set when the match is stopped: the worker gives up its games."""


_worker = _Worker()


def _start_worker(stop: StopEvent, specs: tuple[PlayerSpec, PlayerSpec]) -> Callable[[], None]:
    """Create the worker's players; return what releases them."""
    _worker.stop = stop
    _worker.players = [spec.create() for spec in specs]
    return _close_players


def _close_players() -> None:
    for player in _worker.players:
        player.close()


def _play_game(task: GameTask) -> GameReport:
    """Play one game of the match in this worker."""
    return play_game(task, _worker.players, _worker.stop)


def play_game(task: GameTask, players: Sequence[Player], stop: StopEvent | None = None
              ) -> GameReport:
    """Play the game ``task`` describes between ``players`` (in the order of the match); give
    up (raising _MatchStopped) once ``stop`` is set."""
    for player, seed in zip(players, task.seeds, strict=True):
        player.seed_game(seed)
    in_match_order = list(zip(players, task.names, strict=True))
    white, black = in_match_order if task.first_plays_white else in_match_order[::-1]
    game = Game(task.variant, task.opening.fen, clock=task.clock, headers={
        "Event": EVENT,
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(task.round),
        "White": white[1],
        "Black": black[1],
    })
    failure = _play_out(game, {WHITE: white, BLACK: black}, stop)
    if failure is not None:
        game.headers["Forfeit"] = failure
    outcome = game.outcome()
    assert outcome is not None, "the game was played out"
    white_score = WHITE_SCORES[outcome.result()]
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


def _play_out(game: Game, players: dict[Color, tuple[Player, str]], stop: StopEvent | None
              ) -> str | None:
    """Play ``game`` to its end; return why a player lost by failing, if one did."""
    for color, (player, name) in players.items():
        try:
            player.new_game(game.variant)
        except MinichessError as error:
            return _forfeit(game, color, name, error, seconds=0.0)
    while not game.is_game_over():
        if stop is not None and stop.is_set():
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
