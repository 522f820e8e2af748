"""benchmarks/versus.py, the table of our engine against another, on two tiny matches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

VERSUS = Path(__file__).resolve().parents[1] / "benchmarks" / "versus.py"


def test_the_versus_table_as_json():
    completed = subprocess.run(
        [sys.executable, str(VERSUS), "--ours", "greedy", "--opponent", "random,name=rnd",
         "--variants", "csc111,chess36", "--games", "2", "--time", "1+0.01", "--concurrency",
         "2", "--json"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert [row["variant"] for row in report["rows"]] == ["csc111", "chess36"]
    for row in report["rows"]:
        assert row["players"] == ["greedy", "rnd"] and row["games"] == 2
        assert {"as_white", "as_black", "score", "elo", "elo_error"} <= row.keys()
    assert {"load_before", "load_after", "time_control"} <= report.keys()


def test_versus_refuses_chess36_without_an_opponent_of_our_own():
    completed = subprocess.run(
        [sys.executable, str(VERSUS), "--variants", "chess36", "--games", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert completed.returncode == 2
    assert "nothing to play chess36 against: give --baseline or --opponent" in completed.stderr
