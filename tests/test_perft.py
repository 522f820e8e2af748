"""Perft (leaf nodes at a depth; a finished game has no moves) against pinned counts.

* Start positions of the five variants: RULES.md's reference table.
* gardner and losalamos start positions: counted by the oracle ``tests/fairy_oracle.py``
  (Fairy-Stockfish via pyffish); the project's own count agreed when they were pinned.
* chess36 middle games and endgames: regression pins, counted by the project's own perft once
  the special rules had been checked by hand (tests/test_chess36.py and the depth-1 counts worked
  out below). A change in them means the move generator changed: find out why before repinning.
* ``tests/data/oracle_perft.json`` (written from the oracle, when present): every entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minichess import Board

REFERENCE = {
    "minitchess": [7, 49, 473, 4627, 54252, 645333],
    "minichess-classic": [7, 49, 452, 4230, 47102, 532718],
    "antichess": [20, 400, 8067, 153299],
    "csc111": [6, 21, 112, 633, 3775, 23025],
    "chess36": [8, 64, 737, 8547],
    # Counted by tests/fairy_oracle.py (oracle_perft from the start position).
    "gardner": [7, 53, 506, 4775],
    "losalamos": [10, 100, 1212, 14332],
}
"""Perft from each variant's start position at depths 1, 2, ..."""


@pytest.mark.parametrize(
    ("variant", "depth", "nodes"),
    [
        (variant, depth, nodes)
        for variant, counts in REFERENCE.items()
        for depth, nodes in enumerate(counts, start=1)
    ],
)
def test_perft_from_the_start_position(variant, depth, nodes):
    assert Board(variant).perft(depth) == nodes


def test_minitchess_perft_7():
    # Not in RULES.md's table: a regression pin, consistent with the table's depth 6 and with
    # RULES.md's perft(8) (both agreed with the project's perft when this was pinned).
    assert Board("minitchess").perft(7) == 8695180


@pytest.mark.slow
def test_minitchess_perft_8_from_rules():
    assert Board("minitchess").perft(8) == 118787098


def test_perft_of_a_finished_game():
    # King against king in chess36 is drawn at once: the position itself is the only node.
    board = Board("chess36", "k5/6/6/6/6/K5[] w - - 0 1")
    assert [board.perft(depth) for depth in range(3)] == [1, 0, 0]


def test_perft_stops_at_the_minitchess_move_limit():
    # Black's 40th move ends the game: 16 moves, and nothing after any of them.
    board = Board("minitchess", "k4/5/5/5/5/K3q b - - 0 40")
    assert (board.perft(1), board.perft(2)) == (16, 0)


def test_perft_leaves_the_board_unchanged():
    board = Board("chess36")
    board.push_uci("b1a3")
    before = (board.fen(), board.zobrist_hash(), list(board.move_stack))
    board.perft(4)
    assert (board.fen(), board.zobrist_hash(), list(board.move_stack)) == before


CHESS36_POSITIONS = [
    # Depth 1 by hand: the king e3 may go to d2 e2 f2 f3 d4; the bishop f5 covers e4 d3 by its
    # diagonal and f4 by its orthogonal step, the king a3 nothing near e3. 5 moves.
    ("6/5b/6/k3K1/6/6[QRRBNqqrrn] w - - 8 72", [5, 65, 319, 4578]),
    # Depth 1 by hand: the king e2 stands one rank before White's back rank, not in check, e1
    # empty: drops q, r, b, n (4). The king: d1 f1 f2 d3 e3 f3 (d2, e1 on the queen's diagonal,
    # 6). The bishop b2: diagonals a1 c1 a3 c3 d4 e5 f6, steps a2 c2 b1 b3 (11). 21 moves.
    ("6/2K3/1Q4/6/1b2k1/6[QRRBNqrrbn] b - - 3 64", [21, 475, 6964, 148046]),
    ("2kqnr/b1ppp1/1p2Pp/N4P/r1pP1K/R1Q1BR[] w - - 2 9", [18, 288, 5408, 95575]),
    ("rbk2r/pp2Np/2pp1n/q3PP/PPPP2/1RQKBR[] b - - 2 8", [2, 36, 595, 10889]),
    ("4k1/1P2P1/1n4/3K2/q5/6[QRRBNqrrb] w - - 1 49", [8, 155, 1004, 19087]),
    ("4k1/2r1p1/2R3/4q1/3R2/4KB[QNqrbn] w - - 0 26", [3, 61, 949, 19750]),
    ("r4K/1k2P1/6/4Rp/2P2P/3r2[QRBNNqrbn] w - - 2 35", [5, 124, 1946, 35245]),
    ("4k1/KRPr2/3p2/3PP1/6/6[QRBNqrbn] w - - 1 44", [19, 125, 2098, 14502]),
    ("4q1/1K3P/1P3k/4R1/P3R1/2r3[QBNqrbn] w - - 1 52", [27, 462, 9220, 143092]),
    ("6/2p2b/2P2N/3R2/k1K2B/2R3[QNqqrrn] b - - 18 59", [9, 181, 1878, 38386]),
    ("6/1N3k/K4p/6/p5/3r2[QRRBNqrrrbn] b - - 1 52", [19, 199, 3507, 36630]),
    ("rbk1nr/1pP3/N2q1p/PPP1pP/3PK1/R1Q1BR[] w - - 0 11", [23, 381, 8081, 143145]),
    ("4k1/3r2/4K1/1Pp3/5p/Q2bN1[QRRBqrn] b - - 7 49", [27, 400, 9120, 138703]),
    ("4kr/2r1p1/2P3/p5/bP1KPR/2R1B1[QNqn] w - - 0 17", [20, 319, 5615, 102532]),
]
"""chess36 positions met in random games (re-entry drops, promotions, checks, reserves), with
their perft at depths 1-4: regression pins (see the module docstring)."""


@pytest.mark.parametrize(("fen", "counts"), CHESS36_POSITIONS)
def test_chess36_perft_regression_pins(fen, counts):
    board = Board("chess36", fen)
    assert [board.perft(depth) for depth in range(1, len(counts) + 1)] == counts


ORACLE_FILE = Path(__file__).parent / "data" / "oracle_perft.json"
"""Oracle-pinned perft positions: ``{variant: [{"fen": ..., "depth": ..., "nodes": ...}]}``."""


def oracle_entries() -> list:
    """The entries of ORACLE_FILE as pytest parameters (one skipped stand-in without it)."""
    if not ORACLE_FILE.is_file():
        return [pytest.param(None, None, None, None,
                             marks=pytest.mark.skip(reason=f"{ORACLE_FILE} not present"))]
    data = json.loads(ORACLE_FILE.read_text(encoding="utf-8"))
    return [
        pytest.param(variant, e["fen"], e["depth"], e["nodes"], id=f"{variant}-{i}")
        for variant, entries in data.items()
        for i, e in enumerate(entries)
    ]


@pytest.mark.parametrize(("variant", "fen", "depth", "nodes"), oracle_entries())
def test_perft_matches_oracle_pinned_positions(variant, fen, depth, nodes):
    assert Board(variant, fen).perft(depth) == nodes
