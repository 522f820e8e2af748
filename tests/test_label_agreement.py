"""benchmarks/label_agreement.py, how far training scores are from a deeper search's, with our
own engine run as a UCI engine as the labeller."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

LABEL_AGREEMENT = Path(__file__).resolve().parents[1] / "benchmarks" / "label_agreement.py"
PROJECT_ENGINE = f"uci:{shlex.quote(sys.executable)} -m minichess.cli.main uci,name=ours"


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LABEL_AGREEMENT), "--labeller", PROJECT_ENGINE,
                           *arguments], capture_output=True, text=True, timeout=300, check=False)


def test_each_score_is_compared_with_the_reference_depth():
    completed = run("--variant", "gardner", "--games", "4", "--nodes", "300", "--sample", "12",
                    "--depths", "2,3", "--reference", "4", "--concurrency", "1", "--json")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert (report["variant"], report["positions"], report["reference"]) == ("gardner", 12, 4)
    assert [row["score"] for row in report["rows"]] == [
        "our search", "labeller depth 2", "mean of ours and depth 2", "labeller depth 3",
        "mean of ours and depth 3"]
    for row in report["rows"]:
        assert 0 <= row["difference"] <= 100
        assert (row["seconds"] is None) == (not row["score"].startswith("labeller"))


def test_a_depth_that_is_not_a_number_is_refused():
    completed = run("--depths", "8,ten")
    assert completed.returncode == 2
    assert "--depths: comma-separated whole numbers, not '8,ten'" in completed.stderr
