"""benchmarks/forced_wins.py, the nodes a search needs to see a forced win, on two antichess
positions with short wins for the side to move, against our own engine run as a UCI engine."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

FORCED_WINS = Path(__file__).resolve().parents[1] / "benchmarks" / "forced_wins.py"
PROJECT_ENGINE = f"uci:{shlex.quote(sys.executable)} -m minichess.cli.main uci,name=ours"
SHORT_WINS = (
    "# two wins within a few moves\n"
    "8/P6p/P7/4B3/7p/3k1p1P/N6P/8 b - - 70 83\n"
    "# the second\n"
    "8/8/3k4/4p3/p7/4P3/3Nb3/8 b - - 1 31\n"
)


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(FORCED_WINS), *arguments],
                          capture_output=True, text=True, timeout=300, check=False)


def test_both_engines_see_the_wins(tmp_path):
    positions = tmp_path / "wins.txt"
    positions.write_text(SHORT_WINS)
    completed = run("--positions", str(positions), "--opponent", PROJECT_ENGINE, "--json")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["positions"] == 2 and report["opponent"] == "ours"
    assert [row["fen"].split()[0] for row in report["rows"]] == [
        "8/P6p/P7/4B3/7p/3k1p1P/N6P/8", "8/8/3k4/4p3/p7/4P3/3Nb3/8"]
    for row in report["rows"]:
        assert 0 < row["ours"] < 100_000 and 0 < row["theirs"] < 100_000


def test_a_position_not_solved_within_the_nodes_counts_as_the_limit(tmp_path):
    positions = tmp_path / "wins.txt"
    positions.write_text(SHORT_WINS)
    completed = run("--positions", str(positions), "--no-opponent", "--nodes", "1", "--json")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert [row["ours"] for row in report["rows"]] == [None, None] and report["ours"] == 1


def test_a_file_that_is_not_positions_is_refused(tmp_path):
    positions = tmp_path / "wins.txt"
    positions.write_text("not a position\n")
    completed = run("--positions", str(positions), "--no-opponent")
    assert completed.returncode == 2
    assert f"{positions}, line 1:" in completed.stderr
