"""The search signature: a fixed set of positions searched to a fixed depth, and the total of
the nodes searched, as the strong engines keep one (Stockfish's ``bench``).

Every search is made by a fresh engine (level 10, a fixed seed, empty tables, no clock, no
endgame tables), so the count depends on nothing but the search and the evaluation: a change
meant to leave them alone (a refactoring, a speed-up) must leave it alone, and one meant to
change them changes it.
The tests pin the count; ``minichess bench`` prints it with the time and the speed.

>>> result = bench(depth=3, positions=POSITIONS[:2])
>>> result.nodes == sum(searched.nodes for searched in result.searches)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from minichess.board import Board
from minichess.engine.engine import Engine, Limit

DEFAULT_DEPTH = 14
"""The depth of ``minichess bench`` and of the pinned count."""
SEED = 1
HASH_MB = 16


@dataclass(frozen=True)
class BenchPosition:
    """A position of the signature: its variant, FEN and what kind of play it is."""

    variant: str
    fen: str
    kind: str
    """``opening``, ``middlegame``, ``tactics`` or ``endgame``."""


def _positions(variant: str, *fens_and_kinds: tuple[str, str]) -> list[BenchPosition]:
    return [BenchPosition(variant, fen, kind) for fen, kind in fens_and_kinds]


POSITIONS: tuple[BenchPosition, ...] = tuple(
    _positions(
        "minitchess",
        ("kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1", "opening"),
        ("kq2r/p1pb1/1P1p1/3P1/2P1P/1RBQK b - - 0 7", "middlegame"),
        ("3r1/Bk1bp/1n3/2p1P/2R1K/5 w - - 0 22", "tactics"),
        ("5/p1k2/1r1R1/2pKP/5/5 b - - 8 28", "endgame"),
    )
    + _positions(
        "minichess-classic",
        ("kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1", "opening"),
        ("1qb1r/1k3/3pn/pP1N1/P2BP/R2QK w - - 1 10", "middlegame"),
        ("kq1n1/1p3/pPbpr/P1p1P/2PB1/RN1QK b - - 2 13", "tactics"),
        ("5/5/1P3/B3k/P4/4K w - - 0 22", "endgame"),
    )
    + _positions(
        "antichess",
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "opening"),
        ("r1bqkbnr/ppppp2p/n7/5PN1/8/8/PPPPPP1P/RNBQKB1R b - - 0 4", "middlegame"),
        ("1nN1kbnr/2p2p1p/3p4/4p1q1/8/8/rPPPP1PP/R1BQKBNR w - - 0 7", "tactics"),
        ("6n1/N7/n7/3pp3/P7/8/1P1KP3/5R2 b - - 0 18", "endgame"),
    )
    + _positions(
        "chess36",
        ("rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[] w - - 0 1", "opening"),
        ("rbkq1r/pp2pp/2pp1n/PP1P2/2P1PP/RNQKBR[] w - - 0 4", "middlegame"),
        ("rbk2r/pp1p1p/1q2p1/1PNBPn/P1P2P/R2K1R[Q] b - - 0 7", "tactics"),
        ("6/p4p/1k1rp1/1Pp3/2P1KP/5R[QRBNqrbn] w - - 0 19", "endgame"),
    )
    + _positions(
        "csc111",
        ("rqkr/pppp/PPPP/RQKR w - - 0 1", "opening"),
        ("rqkr/P1pp/P1pP/RQKR w - - 0 2", "middlegame"),
        ("r1kr/pq1p/QPPp/R1KR w - - 0 3", "tactics"),
        ("r1k1/pp2/2PP/1QK1 b - - 0 1", "endgame"),
    )
    + _positions(
        "gardner",
        ("rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1", "opening"),
        ("r3k/pb1pq/p1B2/2P1P/RN1QK b - - 0 7", "middlegame"),
        ("rq3/3k1/pp1P1/1P1Q1/2RK1 w - - 0 13", "tactics"),
        ("r4/1k3/p1p1P/2P1K/R4 b - - 1 22", "endgame"),
    )
    + _positions(
        "losalamos",
        ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "opening"),
        ("rn1k1r/p1ppp1/1q1n1p/1PNP2/P2QPP/R2KNR b - - 2 7", "middlegame"),
        ("r2knr/pp2p1/6/P1qPpP/1nP1K1/R1Q1NR w - - 0 10", "tactics"),
        ("6/3k2/R5/3P2/1K4/2r3 b - - 5 31", "endgame"),
    )
)
"""Four positions of every variant: the start, a middlegame, a tactical position and an
endgame, White or Black to move, most of them from the engine's own games."""


@dataclass(frozen=True)
class Searched:
    """One position's search: its nodes, seconds and best move."""

    position: BenchPosition
    nodes: int
    seconds: float
    best_move: str


@dataclass(frozen=True)
class BenchResult:
    """The signature's searches and their totals."""

    depth: int
    searches: tuple[Searched, ...]

    @property
    def nodes(self) -> int:
        """The total node count: the signature."""
        return sum(searched.nodes for searched in self.searches)

    @property
    def seconds(self) -> float:
        """The time of the searches (without setting up the engines)."""
        return sum(searched.seconds for searched in self.searches)

    @property
    def nps(self) -> int:
        """Nodes per second over all the searches."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0

    def to_dict(self) -> dict:
        """The result as plain data for JSON."""
        return {
            "depth": self.depth,
            "positions": len(self.searches),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "nps": self.nps,
            "searches": [
                {"variant": searched.position.variant, "fen": searched.position.fen,
                 "kind": searched.position.kind, "nodes": searched.nodes,
                 "seconds": round(searched.seconds, 4), "best_move": searched.best_move}
                for searched in self.searches
            ],
        }


def bench(
    depth: int = DEFAULT_DEPTH,
    positions: Sequence[BenchPosition] = POSITIONS,
    on_search: Callable[[Searched], None] | None = None,
) -> BenchResult:
    """Search each position to ``depth`` with a fresh engine; ``on_search`` sees each search
    as it ends."""
    searches = []
    for position in positions:
        board = Board(position.variant, position.fen)
        # without endgame tables: the signature must not depend on what this machine built
        engine = Engine(level=10, seed=SEED, hash_mb=HASH_MB, endgame=False)
        started = time.perf_counter()
        info = engine.analyse(board, Limit(depth=depth))
        searched = Searched(position, info.nodes, time.perf_counter() - started,
                            info.pv[0].uci())
        searches.append(searched)
        if on_search is not None:
            on_search(searched)
    return BenchResult(depth, tuple(searches))
