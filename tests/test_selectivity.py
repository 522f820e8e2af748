"""benchmarks/selectivity.py, the nodes two engines need for one depth, against our own engine
run as a UCI engine (the same search: the same counts)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

SELECTIVITY = Path(__file__).resolve().parents[1] / "benchmarks" / "selectivity.py"
PROJECT_ENGINE = f"uci:{shlex.quote(sys.executable)} -m minichess.cli.main uci,name=ours"


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SELECTIVITY), *arguments],
                          capture_output=True, text=True, timeout=300, check=False)


def test_our_engine_against_itself_needs_the_same_nodes():
    completed = run("--opponent", PROJECT_ENGINE, "--variants", "csc111,gardner", "--depth", "5",
                    "--kinds", "opening", "--json")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["depth"] == 5 and report["opponent"] == "ours"
    assert [(row["variant"], row["kind"]) for row in report["rows"]] == [
        ("csc111", "opening"), ("gardner", "opening")]
    for row in report["rows"]:
        assert row["ours"] > 0 and row["theirs"] == row["ours"] and row["ratio"] == 1.0


def test_an_unknown_kind_of_position_is_refused():
    completed = run("--opponent", PROJECT_ENGINE, "--kinds", "midgame")
    assert completed.returncode == 2
    assert "unknown kind 'midgame': choose among opening, middlegame, tactics, endgame" in (
        completed.stderr)
