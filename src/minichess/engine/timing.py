"""Time management: what a search may spend on a move, and what a move costs beyond it.

Under a clock the engine plans each move's time from its clock, the increment and the moves
left (``time_budget``), stops starting iterations earlier while its best move is stable and
later while it changes or the score falls (``keep_iterating``), and keeps back from its clock
the latency it observes between its moves (``LatencyGauge``): the engine never loses on time.

>>> from minichess import Board
>>> optimum, hard = time_budget(Board("minitchess"), Limit(white_clock=5, black_clock=5,
...                             increment=0.05), overhead=0.05)
>>> 0 < optimum < hard < 5
True
"""

from __future__ import annotations

from dataclasses import dataclass

from minichess.board import Board
from minichess.pieces import WHITE


@dataclass(frozen=True)
class Limit:
    """When to stop searching. With none of these, the search runs to full depth."""

    time: float | None = None
    """Seconds for this move."""
    depth: int | None = None
    nodes: int | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    increment: float | None = None
    """Seconds added per move (for both sides, unless the per-side ones are given)."""
    white_increment: float | None = None
    black_increment: float | None = None
    moves_to_go: int | None = None
    """Moves to play before the clock is topped up (None: the rest of the game)."""

    def clock_of(self, board: Board) -> tuple[float | None, float]:
        """The side to move's clock (None without one) and increment."""
        own_white = board.turn == WHITE
        clock = self.white_clock if own_white else self.black_clock
        increment = self.white_increment if own_white else self.black_increment
        if increment is None:
            increment = self.increment or 0.0
        return clock, increment


EXPECTED_MOVES_LEFT = 18
"""The moves to plan for when nothing bounds the game sooner."""
COMPULSORY_MOVES_LEFT = 11
"""The same where captures are compulsory: there about two moves in five are the only legal
one and take no time (2,559 of level 10's 6,245 moves in 200 games of antichess against
Fairy-Stockfish at 5+0.05), so the clock is planned for the moves that need a search."""
MOVE_LIMIT_PLAN = 20
"""The most moves to plan for in a game with a move limit."""
RESERVE_MOVES = 2
"""The clock is planned as if the game had this many moves more: a reserve."""
RESERVE_INCREMENTS = 5
"""Seconds of this many increments are left out of the clock a move's time is planned from:
a long game runs its clock down towards this floor, not towards the increment."""
STABLE_SHARE = 0.55
"""The share of its optimum time after which a search whose best move is stable stops
starting new iterations (each takes about as long as all before it)."""


def time_budget(board: Board, limit: Limit, overhead: float,
                latency: float = 0.0) -> tuple[float, float] | None:
    """(optimum, hard) seconds for this move: the time the move is expected to take (the
    search stops starting iterations around it, earlier while its best move is stable, later
    while it changes), and the time at which the search stops. None when there is no time
    limit.

    The hard limit stays well inside the remaining clock minus ``overhead`` (process and
    network latency), so the engine never loses on time. Below the floor of increments a
    search spends at most what the increment brings back less ``latency``, what a move has
    been seen to cost beyond its search (``LatencyGauge.latency``): otherwise every move would
    draw the clock further down by that cost."""
    if limit.time is not None:
        hard = max(limit.time - overhead, 0.005)
        return hard, hard
    clock, increment = limit.clock_of(board)
    if clock is None:
        return None
    moves_left = limit.moves_to_go or expected_moves_left(board)
    usable = max(clock - overhead, 0.0)
    planned = max(usable - RESERVE_INCREMENTS * increment, 0.0)
    share = planned / (moves_left + RESERVE_MOVES) + 0.9 * increment
    hard = min(4 * share, 0.4 * usable + 0.5 * increment, usable * 0.9)
    if planned == 0.0 and increment > 0:  # under the floor: spend no more than it brings
        hard = min(hard, 0.9 * increment - latency)
    hard = max(hard, min(0.005, clock * 0.25))  # always a moment to find some move
    return min(max(share, 0.001), hard), hard


def expected_moves_left(board: Board) -> int:
    """The moves to plan the clock for: the game's move limit is a bound, and most games are
    decided well before it or before EXPECTED_MOVES_LEFT more moves (fewer that need a search
    where captures are compulsory)."""
    limit = board.variant.move_limit
    if limit:
        plies_left = max(limit - board.ply(), 1)
        return max(min((plies_left + 1) // 2, MOVE_LIMIT_PLAN), 1)
    return COMPULSORY_MOVES_LEFT if board.variant.compulsory_capture else EXPECTED_MOVES_LEFT


def keep_iterating(elapsed: float, optimum: float, changes: float, fall: int) -> bool:
    """Whether a new iteration may start after ``elapsed`` seconds: the more the best move
    changed in recent iterations (``changes``, decaying) and the more the score fell
    (``fall`` centipawns since the last move's search), the longer the search goes on."""
    instability = 1 + 1.5 * min(changes, 2.0)
    falling = min(max(1 + fall / 200, 0.8), 1.6)
    return elapsed < optimum * STABLE_SHARE * instability * falling


@dataclass
class _Search:
    """A timed search of one move: the position's ply, the clock and increment it started
    with, and the seconds it took."""

    ply: int
    clock: float
    increment: float
    seconds: float


class LatencyGauge:
    """The time a move costs beyond the engine's own search, measured on its clock.

    Between two of the engine's moves in a game, its clock loses the time it searched, gains
    the increment, and loses whatever else the move cost: sending and reading it, a loaded
    machine that runs the engine late. The gauge keeps the largest such loss of recent moves
    (each move forgets a fifth of it) and keeps back one and a half times that, and at least
    ``least`` seconds, so a slow machine does not run the clock down."""

    def __init__(self, least: float) -> None:
        self.least = least
        self.latency = 0.0
        self._last: _Search | None = None

    def overhead(self, board: Board, limit: Limit) -> float:
        """Seconds to keep back from the clock for the move about to be searched."""
        clock, _ = limit.clock_of(board)
        last = self._last
        if clock is not None and last is not None and board.ply() == last.ply + 2:
            lost = last.clock + last.increment - clock - last.seconds
            self.latency = max(lost, 0.8 * self.latency, 0.0)
        if clock is None:
            return self.least
        return min(max(self.least, 1.5 * self.latency), 0.25 * clock)

    def searched(self, board: Board, limit: Limit, seconds: float) -> None:
        """Note a finished search of ``board`` under ``limit`` that took ``seconds``."""
        clock, increment = limit.clock_of(board)
        self._last = None if clock is None else _Search(board.ply(), clock, increment, seconds)

    def reset(self) -> None:
        """A new game: nothing measured yet."""
        self.latency = 0.0
        self._last = None
