"""The search signature (``minichess bench``): its node count is pinned here, so that a change
meant to leave the search alone is shown to, and it is the same on every run, compiled or not.

A change that is meant to alter the search re-pins the count: the failure message gives the
new one for the line below."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from minichess.cli.main import main
from minichess.engine.bench import DEFAULT_DEPTH, POSITIONS, bench
from minichess.variants import VARIANTS

BENCH_NODES = 12981371
"""The signature: the total nodes of ``minichess bench`` (depth DEFAULT_DEPTH)."""


def test_the_search_signature_is_pinned():
    nodes = bench().nodes
    assert nodes == BENCH_NODES, (
        f"the search signature changed: {nodes} nodes at depth {DEFAULT_DEPTH}, pinned"
        f" {BENCH_NODES}. If the change is meant to alter the search, re-pin it in"
        f" tests/test_bench.py: BENCH_NODES = {nodes}"
    )


def test_the_positions_cover_every_variant_and_kind_of_play():
    assert {position.variant for position in POSITIONS} == set(VARIANTS)
    for variant in VARIANTS:
        kinds = [position.kind for position in POSITIONS if position.variant == variant]
        assert kinds == ["opening", "middlegame", "tactics", "endgame"]


def test_the_count_is_the_same_on_every_run_and_without_compiling():
    depth = 4
    compiled = [searched.nodes for searched in bench(depth).searches]
    assert [searched.nodes for searched in bench(depth).searches] == compiled
    script = (f"from minichess.engine.bench import bench;"
              f" print([searched.nodes for searched in bench({depth}).searches])")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, check=True, timeout=300)
    assert json.loads(run.stdout) == compiled


def test_the_bench_command(capsys):
    assert main(["bench", "--depth", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] == len(POSITIONS) and report["depth"] == 2
    assert report["nodes"] == bench(2).nodes
    assert "searches" not in report
    assert main(["bench", "--depth", "2", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert f"nodes:     {report['nodes']}" in out
    assert out.count(" nodes ") == len(POSITIONS)
    assert main(["bench", "--depth", "0"]) == 2
