"""The compiled kernels also run as plain Python (NUMBA_DISABLE_JIT=1), for debugging."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from minichess import VARIANTS, Board
from minichess.engine.endgame import build_tables, load_tables
from minichess.engine.exact import ExactSolver

SCRIPT = """
import json
import tempfile
from minichess import Board, VARIANTS
from minichess.engine import Engine, Limit
from minichess.engine.endgame import build_tables, load_tables
from minichess.engine.exact import ExactSolver
counts = {v: [Board(v).perft(d) for d in (1, 2, 3)] for v in VARIANTS}
move = Engine(seed=1).play(Board("chess36"), Limit(depth=2)).move.uci()
exact = ExactSolver(1 << 10).keeping_moves(Board("csc111", EXACT_FEN))
folder = tempfile.mkdtemp()
build_tables("minitchess", pieces=2, directory=folder)
kings = load_tables("minitchess", folder).values.tolist()
print(json.dumps({"counts": counts, "move": move, "exact": [m.uci() for m in exact],
                  "kings": kings}))
"""
EXACT_FEN = "4/1k1p/3P/1K2 w - - 3 23"
"""A csc111 ending the exact search solves in a few hundred nodes."""


def test_interpreted_kernels_agree_with_the_compiled_ones(tmp_path):
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run(
        [sys.executable, "-W", "error", "-c", f"EXACT_FEN = {EXACT_FEN!r}\n{SCRIPT}"],
        env=env, capture_output=True, text=True, check=True, timeout=300,
    )
    result = json.loads(run.stdout)
    for variant in VARIANTS:
        assert result["counts"][variant] == [Board(variant).perft(d) for d in (1, 2, 3)]
    assert result["move"] in {m.uci() for m in Board("chess36").legal_moves}
    exact = ExactSolver(1 << 10).keeping_moves(Board("csc111", EXACT_FEN))
    assert result["exact"] == [move.uci() for move in exact] == ["b1a1"]
    build_tables("minitchess", pieces=2, directory=tmp_path)
    assert result["kings"] == load_tables("minitchess", tmp_path).values.tolist()
