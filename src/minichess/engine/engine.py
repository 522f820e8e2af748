"""The Engine: iterative deepening with aspiration windows around the compiled search, time
management that never loses on time, strength levels, and the results as python-chess-like
objects.

>>> from minichess import Board
>>> from minichess.engine import Engine, Limit
>>> engine = Engine(seed=1)
>>> result = engine.play(Board("csc111"), Limit(depth=4))
>>> result.move in Board("csc111").legal_moves
True
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from minichess.board import Board, CoreState
from minichess.engine.book import OpeningBook, variant_book
from minichess.engine.endgame import EndgameTables, endgame_applies, load_tables
from minichess.engine.exact import ExactSolver, exact_applies
from minichess.engine.opponent import materially_best_moves
from minichess.engine.search import (
    C_ABORTED,
    C_NODE_LIMIT,
    C_NODES,
    C_NOISE,
    C_SEED,
    C_SELDEPTH,
    C_STOP,
    C_TT_GENERATION,
    INFINITE,
    MATE,
    MATE_BOUND,
    MAX_PLY,
    SEARCH_CONSTANTS,
    TECHNIQUE_CONTROLS,
    SearchMemory,
    search,
)
from minichess.engine.timing import LatencyGauge, Limit, keep_iterating, time_budget
from minichess.engine.weights import EvaluationParameters, variant_weights
from minichess.errors import MinichessError
from minichess.move import Move
from minichess.variants import VariantDefinition

_WARMED_UP: set[str] = set()
"""The variants whose searches have run in this process (see ``Engine._warm_up``)."""

WARM_UP_EXACT_SECONDS = 0.05
"""Time the warm-up gives the exact search, which stops there once it has run."""

# level -> (deepest iteration, evaluation noise in centipawns); the last is full strength
_LEVEL_SETTINGS = {
    1: (1, 300), 2: (2, 200), 3: (2, 80), 4: (3, 60), 5: (4, 40),
    6: (5, 25), 7: (6, 15), 8: (7, 5), 9: (10, 2), 10: (MAX_PLY - 8, 0),
}
LEVELS = range(1, len(_LEVEL_SETTINGS) + 1)
"""The engine's strength levels, from 1 (beginner) to ``MAX_LEVEL``."""
MAX_LEVEL = LEVELS[-1]
"""The full-strength level (10)."""
_ASPIRATION = 30
MODEL_MARGIN = 30
"""How far (centipawns) below the best score a move may be and still be chosen for the weak
opponent's chances; wider than the tempo term, by which scores of odd and even depths differ."""
MODEL_GAIN = 100
"""What a reply must give away (centipawns, or a forced loss) to count as a mistake."""
MISTAKE_DEPTH = 10
"""How deep the search looks for the punishment of a reply (a greedy player's mistakes are
tactical: a piece left hanging, a mate walked into)."""
EXACT_SHARE = 0.75
"""The share of a move's hard time limit that the exact search (boards of ``exact_applies``)
may take before the ordinary search, which then has its usual time, within the same hard
limit. The exact search needs most of it in the first moves; what it proves stays in its table,
and later moves take little."""
EXACT_CHOICE_DEPTH = 8
"""How deep the search compares the moves that keep the exact value, when its own best move
does not."""
WIN_CHECK_NODES = 20_000
"""At most this many nodes of the exact search to prove that the search's own move wins too
where the exact moves hold another win: a few milliseconds, so that a low clock can pay
for it (a move that ends the game needs none)."""


@dataclass(frozen=True)
class Techniques:
    """Search techniques that pay off in some variants and not in others (measured by
    matches: see docs/engine.md)."""

    null_move: bool = True
    """Null-move pruning: assumes that moving beats passing, which zugzwang breaks."""
    reductions: bool = True
    """Late-move reductions of quiet moves."""
    quiescence_plies: int = 12
    """How deep quiescence follows captures before it trusts the evaluation."""
    pruning: bool = True
    """Pruning at shallow depth: razoring, futility, move count, static exchanges."""
    singular: bool = True
    """Singular extension of a stored move that a search without it shows to be the only
    good one."""
    forced: bool = True
    """The only legal move costs no depth (forced captures, the one answer to a check)."""
    forced_span: int = 2
    """The forced-move extension applies within this many times the root's depth (3 in
    antichess gained in self-play but showed nothing against Fairy-Stockfish: docs/engine.md)."""
    correction: bool = False
    """The static evaluation corrected by the errors searches found in it, by pawns and
    kings (correction history)."""
    # the search's constants, in centipawns unless said otherwise (tuned by
    # ``minichess.engine.spsa``; their names are also ``level:10`` options of a match)
    razor_margin: int = 300
    """Razoring: at depth 1, an evaluation this far below alpha goes straight to quiescence."""
    futility_margin: int = 90
    """Reverse futility pruning: per ply of depth, how far above beta the evaluation must be."""
    move_futility_base: int = 120
    move_futility_per_ply: int = 110
    """Futility pruning of a quiet move: the evaluation plus the base, plus this per ply of
    its reduced depth, must reach alpha."""
    quiescence_futility: int = 150
    """A capture in quiescence whose victim cannot lift the evaluation this close to alpha is
    skipped."""
    reduction_base: int = 512
    reduction_scale: int = 1024
    """Late-move reductions in 1/1024 plies: the base plus ``ln(depth) * ln(move number) /
    2`` plies times the scale."""
    reduction_history: int = 12
    """A quiet move's reduction falls by its history over this (in 1/1024 plies)."""
    quiet_exchange: int = 30
    """A quiet move that loses more than this times its reduced depth squared in exchanges is
    pruned."""
    capture_exchange: int = 120
    """A capture that loses more than this per ply of depth in exchanges is pruned (below
    depth 7)."""
    history_pruning: int = 4000
    """A quiet move whose history is below minus this per ply of depth is pruned (reduced depth
    below 4)."""
    null_move_divisor: int = 200
    """The null move's search is a ply shallower per this much of evaluation above beta (at
    most two)."""

    @classmethod
    def for_variant(cls, variant: VariantDefinition) -> Techniques:
        """What the engine uses in ``variant``: no null move on boards of 25 squares or fewer
        (csc111, gardner), where zugzwang is everywhere (in gardner a match against
        Fairy-Stockfish showed the search gains without it); short capture chains where
        captures are compulsory (they branch without end); no singular extension in
        minitchess, where a match showed it gains nothing; the correction history where a
        match against Fairy-Stockfish showed it gains, losalamos (docs/engine.md)."""
        return cls(
            null_move=variant.files * variant.ranks > 25,
            quiescence_plies=4 if variant.compulsory_capture else 12,
            singular=variant.name != "minitchess",
            correction=variant.name == "losalamos",
        )


@dataclass(frozen=True)
class Info:
    """What one completed iteration found."""

    depth: int
    seldepth: int
    score: int | None
    """Centipawns for the side to move; None when a forced end was found (see ``mate``)."""
    mate: int | None
    """Moves to the forced win (negative when losing), or None."""
    nodes: int
    time: float
    pv: list[Move] = field(default_factory=list)

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass(frozen=True)
class PlayResult:
    """The move the engine chose and what it knew about it."""

    move: Move
    score: int | None
    mate: int | None
    depth: int
    pv: list[Move]
    nodes: int
    time: float


class _Stopped(Exception):
    """A search was stopped (by :meth:`Engine.stop`, the clock or the node limit)."""


def score_parts(score: int) -> tuple[int | None, int | None]:
    """Split a search score into (centipawns, mate in moves); one of them is None."""
    if score > MATE_BOUND:
        return None, (MATE - score + 1) // 2
    if score < -MATE_BOUND:
        return None, -((MATE + score) // 2)
    return score, None


class Engine:
    """A search engine for every variant, at a ``level`` of ``LEVELS``: 1 (beginner) to
    ``MAX_LEVEL`` (full strength).

    ``seed`` fixes the weaker levels' choices (a deterministic engine); ``hash_mb`` sizes the
    transposition table. ``move_overhead`` is kept back from the clock for latency.
    ``techniques`` overrides the variant's choice of search techniques (for experiments).
    ``book``: whether level 10 plays its opening book's moves under a clock (see
    :meth:`iter_analysis`). ``endgame``: whether level 10's searches read the variant's
    endgame tables where they have been built (:mod:`minichess.engine.endgame`).
    """

    def __init__(
        self,
        level: int = MAX_LEVEL,
        hash_mb: int = 16,
        seed: int | None = None,
        move_overhead: float = 0.05,
        techniques: Techniques | None = None,
        book: bool = True,
        endgame: bool = True,
    ) -> None:
        if level not in LEVELS:
            raise MinichessError(f"level must be {LEVELS[0]} to {MAX_LEVEL}, not {level}")
        self.level = level
        self.seed = seed if seed is not None else int.from_bytes(np.random.bytes(4), "little")
        self._latency = LatencyGauge(move_overhead)
        self.techniques = techniques
        """Search techniques to use instead of the variant's (for experiments)."""
        self._parameters: dict[str, EvaluationParameters] = {}
        self.book = book
        """Whether level 10 plays its opening book's moves under a clock."""
        self._books: dict[str, OpeningBook] = {}
        self.endgame = endgame
        """Whether level 10's searches read the endgame tables that have been built."""
        self._endgame: EndgameTables | None = None
        """The tables the running search reads, if any."""
        self._last_score = 0
        """The score of the last search, to see whether the next one falls."""
        self._solver: ExactSolver | None = None
        """The exact search, made for the first variant small enough for it."""
        self.hash_mb = hash_mb

    @property
    def move_overhead(self) -> float:
        """Seconds kept back from the clock for latency, at least (more where the engine's
        moves are seen to cost more: see ``LatencyGauge``)."""
        return self._latency.least

    @move_overhead.setter
    def move_overhead(self, seconds: float) -> None:
        self._latency.least = seconds

    @property
    def hash_mb(self) -> int:
        """Size of the transposition table in MB."""
        return self._hash_mb

    @hash_mb.setter
    def hash_mb(self, megabytes: int) -> None:
        entries = 1 << max(int(math.log2(max(megabytes, 1) * (1 << 20) // 16)), 10)
        self._hash_mb = megabytes
        self._memory = SearchMemory(entries)
        self._control = self._memory.control

    def new_game(self, variant: VariantDefinition | None = None) -> None:
        """Forget what earlier searches learnt (transposition table, killers, histories). With
        ``variant``, also prepare now, before a clock runs, what the searches need for it:
        the compiled search (see :meth:`_warm_up`) and level 10's endgame tables (reading
        them takes a second or so)."""
        if variant is not None:
            self._warm_up(variant)
            self._endgame_tables(variant)
        self._memory.forget()
        self._last_score = 0
        self._latency.reset()

    def _warm_up(self, variant: VariantDefinition) -> None:
        """Run the compiled parts of a search of ``variant`` once in this process, if none
        has run yet: the first run loads their machine code from the cache, which takes up
        to a second, or compiles it, after an install or an upgrade, which takes a minute.
        Within a clock either would lose the first game on time."""
        if variant.name in _WARMED_UP:
            return
        board = Board(variant)
        self.analyse(board, Limit(depth=2))
        if self.level == MAX_LEVEL and exact_applies(variant):
            self._exact_moves(board, seconds=WARM_UP_EXACT_SECONDS)
        _WARMED_UP.add(variant.name)

    def stop(self) -> None:
        """Stop the running search as soon as possible (from another thread)."""
        self._control[C_STOP] = 1
        if self._solver is not None:
            self._solver.stop()

    def weights(self, variant: VariantDefinition) -> np.ndarray:
        """The evaluation weights used for ``variant``."""
        return self._evaluation(variant).weights

    def use_weights(self, variant: VariantDefinition, weights: np.ndarray) -> None:
        """Evaluate ``variant`` with these weights from now on (for tuning and experiments)."""
        self._parameters[variant.name] = EvaluationParameters.of(weights)

    def _evaluation(self, variant: VariantDefinition) -> EvaluationParameters:
        """The evaluation used for ``variant``, as the search reads it."""
        if variant.name not in self._parameters:
            self._parameters[variant.name] = EvaluationParameters.of(variant_weights(variant))
        return self._parameters[variant.name]

    def opening_book(self, variant: VariantDefinition) -> OpeningBook:
        """The opening book used for ``variant`` (the one shipped with the package unless
        :meth:`use_book` gave another; an empty one where there is none)."""
        if variant.name in self._books:
            return self._books[variant.name]
        return variant_book(variant.name)

    def use_book(self, book: OpeningBook) -> None:
        """Play the moves of ``book`` in its variant from now on (for experiments)."""
        self._books[book.variant.name] = book

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        """Choose a move for the side to move."""
        start = time.perf_counter()
        last: Info | None = None
        for info in self.iter_analysis(board, limit or Limit(), playing=True):
            last = info
        assert last is not None and last.pv
        return PlayResult(last.pv[0], last.score, last.mate, last.depth, last.pv, last.nodes,
                          time.perf_counter() - start)

    def analyse(
        self,
        board: Board,
        limit: Limit | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> Info:
        """Search and return the deepest completed iteration; ``on_info`` sees each one."""
        last: Info | None = None
        for info in self.iter_analysis(board, limit or Limit()):
            last = info
            if on_info is not None:
                on_info(info)
        assert last is not None
        return last

    def iter_analysis(self, board: Board, limit: Limit, playing: bool = False) -> Iterator[Info]:
        """An iterator of :class:`Info`, one per completed iteration until a limit is reached.

        The search is set up by this call, before the first iteration: a :meth:`stop` from
        another thread after it is never lost, even if the thread iterating has not begun.

        ``playing``: the first move of the last Info's ``pv`` is the one to play. At level 10,
        in a level position that the search sees at least half the way to the variant's move
        limit, the moves it scores alike are then told apart by a weak opponent's chances to
        go wrong (:meth:`_model_choice`); when that changes the move, one more Info with the
        same depth and that move as its ``pv`` follows.

        At level 10 under a clock, on the smallest boards (:func:`exact_applies`), the exact
        search first has a share of the move's time (EXACT_SHARE) to find the moves that keep
        the game's value; when it does, the move played keeps it (the search's own move where
        it wins too, else :meth:`_exact_choice`): a won game stays won and a drawn one is never
        lost.

        At level 10 under a clock, a position in the variant's opening book
        (:mod:`minichess.engine.book`) is not searched: the only Info is the book's move, with
        the depth and score of the search that chose it and no nodes.

        At level 10, where the variant's endgame tables have been built
        (:mod:`minichess.engine.endgame`) and ``endgame`` is on, every search scores the
        positions they hold exactly (not the root: its moves are searched)."""
        moves = board.legal_moves
        if not moves:
            raise MinichessError(f"no move to search: the game is over ({board.outcome()})")
        max_depth, noise = _LEVEL_SETTINGS[self.level]
        if limit.depth is not None:
            max_depth = min(max_depth, max(limit.depth, 1))
        overhead = self._latency.overhead(board, limit)  # first: it measures the last move
        budget = time_budget(board, limit, overhead, self._latency.latency)
        state = board.core_state(MAX_PLY + 8)
        control = self._control
        control[:] = 0
        control[C_NODE_LIMIT] = limit.nodes or 0
        control[C_NOISE] = noise
        control[C_SEED] = self.seed
        techniques = self.techniques or Techniques.for_variant(board.variant)
        for name, index in (TECHNIQUE_CONTROLS | SEARCH_CONSTANTS).items():
            control[index] = int(getattr(techniques, name))
        self._tt_generation = getattr(self, "_tt_generation", 0) + 1 & 63
        control[C_TT_GENERATION] = self._tt_generation
        parameters = self._evaluation(board.variant)
        self._memory.evals[:] = 0  # the weights or the variant may differ from the last search
        self._endgame = self._endgame_tables(board.variant)
        self._memory.age()
        return self._iterations(board, moves, state, parameters, max_depth, budget, playing,
                                limit)

    def _iterations(self, board: Board, moves: list[Move], state: CoreState,
                    parameters: EvaluationParameters, max_depth: int,
                    budget: tuple[float, float] | None, playing: bool,
                    limit: Limit) -> Iterator[Info]:
        start = time.perf_counter()
        booked = self._book_info(board) if playing and budget is not None else None
        if booked is not None:
            self._last_score = booked.score or 0
            yield booked
            return
        timer = None
        if budget is not None:
            timer = threading.Timer(budget[1], self.stop)
            timer.daemon = True
            timer.start()
        try:
            kept = None
            if playing and budget is not None:
                kept = self._exact_moves(board, EXACT_SHARE * budget[1])
            searched = time.perf_counter()
            last = None
            for info in self._deepening(state, parameters, max_depth, budget, moves, searched):
                last = info
                yield info
            if playing and last is not None:
                choice = last.pv[0]
                if self._control[C_ABORTED] == 0:
                    choice = self._model_choice(board, moves, parameters, last)
                if kept is not None and choice not in kept and not self._wins_too(board, choice):
                    choice = self._exact_choice(board, kept, parameters)
                if choice != last.pv[0]:
                    yield replace(last, pv=[choice], time=time.perf_counter() - start)
        finally:
            if timer is not None:
                timer.cancel()
            self._latency.searched(board, limit, time.perf_counter() - start)

    def _deepening(self, state: CoreState, parameters: EvaluationParameters, max_depth: int,
                   budget: tuple[float, float] | None, moves: list[Move],
                   start: float) -> Iterator[Info]:
        control = self._control
        score = 0
        best = None
        changes = 0.0
        for depth in range(1, max_depth + 1):
            score = self._aspiration_search(state, parameters, depth, score)
            if control[C_ABORTED] and depth > 1:
                return
            elapsed = time.perf_counter() - start
            info = self._info(depth, score, elapsed, moves)
            yield info
            if control[C_ABORTED]:
                return
            if budget is None:
                continue
            if len(moves) == 1:
                return
            if info.mate is not None and depth >= 2 * abs(info.mate) + 2:
                return  # under a clock, a proven result needs no deeper look
            changes = changes / 2 + (1 if best is not None and info.pv[0] != best else 0)
            best = info.pv[0]
            fall = self._last_score - score if depth >= 4 and abs(score) < MATE_BOUND else 0
            if not keep_iterating(elapsed, budget[0], changes, fall):
                self._last_score = score
                return
        self._last_score = score

    def _endgame_tables(self, variant: VariantDefinition) -> EndgameTables | None:
        """The endgame tables level 10 reads in ``variant``: those built, unless switched
        off (None when there are none)."""
        if self.level < MAX_LEVEL or not self.endgame or not endgame_applies(variant):
            return None
        tables = load_tables(variant)
        return tables if len(tables) else None

    def _book_info(self, board: Board) -> Info | None:
        """The book's move for ``board`` as an Info, if level 10 uses a book that has one."""
        if self.level < MAX_LEVEL or not self.book:
            return None
        found = self.opening_book(board.variant).probe(board)
        if found is None:
            return None
        entry, move = found
        return Info(entry.depth, entry.depth, entry.score, entry.mate, 0, 0.0, [move])

    def _exact_moves(self, board: Board, seconds: float) -> list[Move] | None:
        """The moves that keep the exact value of ``board``, if the exact search applies (level
        10 on the smallest boards) and finds them within ``seconds``; else None."""
        if (self.level < MAX_LEVEL or not exact_applies(board.variant)
                or self._control[C_STOP]):
            return None
        if self._solver is None:
            self._solver = ExactSolver()
        return self._solver.keeping_moves(board, seconds=seconds, one_win=True)

    def _wins_too(self, board: Board, move: Move) -> bool:
        """Whether ``move`` wins by the exact search (within WIN_CHECK_NODES). In a won
        position the exact moves hold only the first win found; the search's move may win
        sooner, as a mate in one does."""
        assert self._solver is not None, "the exact moves were found"
        after = board.copy(stack=False)
        after.push(move)
        outcome = after.outcome()
        if outcome is not None:
            return outcome.winner == board.turn
        return self._solver.value(after, WIN_CHECK_NODES) == -1

    def _exact_choice(self, board: Board, kept: list[Move],
                      parameters: EvaluationParameters) -> Move:
        """Of the moves that keep the exact value, the one a search to EXACT_CHOICE_DEPTH
        scores best (the first of them when that search is stopped)."""
        best_move, best_score = kept[0], -INFINITE
        for move in kept:
            after = board.copy()
            after.push(move)
            outcome = after.outcome()
            if outcome is not None:
                if outcome.winner == board.turn:
                    return move
                score = 0  # a kept move that ends the game without winning draws
            else:
                state = after.core_state(MAX_PLY + 8)
                score = -search(state.position, state.tables, parameters, state.undo,
                                state.plies, EXACT_CHOICE_DEPTH, -INFINITE, INFINITE,
                                self._memory, self._endgame)
            if self._control[C_ABORTED] or self._control[C_STOP]:
                break
            if score > best_score:
                best_move, best_score = move, score
        return best_move

    def _model_choice(self, board: Board, moves: list[Move], parameters: EvaluationParameters,
                      info: Info) -> Move:
        """The move to play after ``info``, the last iteration: its best move, unless the
        opponent model prefers another that the search scores at most MODEL_MARGIN lower.

        Where a variant has a move limit, a level position often has several moves that hold
        it against a perfect opponent while only some keep chances against a fallible one
        (in csc111, one rook move lets a greedy player force the trade into a dead draw, a
        king move does not). So, once the search sees at least half the way to the limit,
        each move is scored by the share of the replies a greedy player would choose
        (:func:`materially_best_moves`) that give away MODEL_GAIN or the game, and the move
        with the largest share that a search as deep as the last iteration finds within the
        margin is played (the best move when none beats its share). A stop, or the clock's
        hard limit, ends this at once, and the search's best move is played.
        """
        best_move = info.pv[0]
        plies_left = board.variant.move_limit - board.ply()
        if (self.level < MAX_LEVEL or not board.variant.move_limit or info.score is None
                or abs(info.score) > MODEL_MARGIN or 2 * info.depth < max(plies_left, 4)):
            return best_move
        floor = info.score - MODEL_MARGIN
        target = info.score + MODEL_GAIN
        afters = {}
        for move in moves:
            afters[move] = board.copy()
            afters[move].push(move)
        try:
            shares = {move: self._mistake_share(after, parameters, target)
                      for move, after in afters.items()}
            for move in sorted(shares, key=shares.__getitem__, reverse=True):
                if shares[move] <= shares[best_move]:
                    break
                # the opponent's score after the move must not beat -floor
                if self._probe(afters[move], parameters, info.depth - 1, 1 - floor) <= -floor:
                    return move
        except _Stopped:
            pass
        return best_move

    def _mistake_share(self, after: Board, parameters: EvaluationParameters,
                       target: int) -> float:
        """The share of a greedy player's replies in ``after`` (the position after one of
        our moves) that leave us ``target`` or more, or the game (0 when the game is over)."""
        if after.is_game_over():
            return 0.0
        replies = materially_best_moves(after, parameters.weights)
        mistakes = sum(self._is_mistake(after, reply, parameters, target) for reply in replies)
        return mistakes / len(replies)

    def _is_mistake(self, board: Board, reply: Move, parameters: EvaluationParameters,
                    target: int) -> bool:
        """Whether ``reply`` leaves the side that played before it ``target`` or more (a
        win included)."""
        after = board.copy()
        after.push(reply)
        outcome = after.outcome()
        if outcome is not None:
            return outcome.winner == after.turn
        return self._probe(after, parameters, MISTAKE_DEPTH, target) >= target

    def _probe(self, board: Board, parameters: EvaluationParameters, depth: int,
               bound: int) -> int:
        """A null-window search of ``board`` to ``depth`` around ``bound``: the result is at
        least ``bound`` exactly when the search's score is. Raises _Stopped when a stop or a
        limit ended it."""
        state = board.core_state(MAX_PLY + 8)
        score = search(state.position, state.tables, parameters, state.undo, state.plies,
                       max(depth, 1), bound - 1, bound, self._memory, self._endgame)
        if self._control[C_ABORTED] or self._control[C_STOP]:
            raise _Stopped
        return score

    def _aspiration_search(self, state: CoreState, parameters: EvaluationParameters, depth: int,
                           previous: int) -> int:
        delta = _ASPIRATION
        alpha, beta = (-INFINITE, INFINITE)
        if depth >= 4 and abs(previous) < MATE_BOUND:
            alpha, beta = previous - delta, previous + delta
        while True:
            score = search(state.position, state.tables, parameters, state.undo, state.plies,
                           depth, alpha, beta, self._memory, self._endgame)
            if self._control[C_ABORTED]:
                return score
            if score <= alpha:
                alpha = max(score - delta, -INFINITE)
            elif score >= beta:
                beta = min(score + delta, INFINITE)
            else:
                return score
            delta *= 3

    def _info(self, depth: int, score: int, elapsed: float, legal: list[Move]) -> Info:
        pv = []
        for code in self._memory.pv[0]:
            if code == 0:
                break
            pv.append(Move.from_code(int(code)))
        if not pv or pv[0] not in legal:  # a stopped first iteration: any legal move
            pv = [legal[0]]
        centipawns, mate = score_parts(score)
        return Info(depth, int(self._control[C_SELDEPTH]), centipawns, mate,
                    int(self._control[C_NODES]), elapsed, pv)
