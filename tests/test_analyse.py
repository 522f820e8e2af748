"""``minichess analyse``: the engine's findings per depth, as a table or as JSON lines.

Run in-process through ``main(argv)``; the Ctrl-C test runs the real program.
"""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import threading

import pytest

from minichess.board import Board
from minichess.cli.main import main

KEYS = {"depth", "score", "mate", "nodes", "nps", "time", "pv"}
MINITCHESS_KING_EN_PRISE = "k4/5/5/5/5/Q3K w - - 0 1"
"""White's queen captures the black king: a forced win in one move."""
MINITCHESS_FINISHED = "k4/5/5/5/5/RNBQ1 w - - 0 1"
"""White's king is gone: the game is over."""
MASSEY_STATE = "20 B\nk.K..\nrpP..\npP...\nP....\n.....\n.....\n"
"""RULES.md's example: Black must move its king, and White then captures it."""


def analyse(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``minichess analyse argv`` in-process: (exit status, stdout, stderr)."""
    status = main(["analyse", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def json_lines(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict]:
    """The JSON objects that ``minichess analyse --json argv`` prints, one per depth."""
    status, out, err = analyse(capsys, "--json", *argv)
    assert (status, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


def test_json_has_one_object_per_depth_with_the_documented_keys(capsys):
    records = json_lines(capsys, "--variant", "chess36", "--depth", "4")
    assert [record["depth"] for record in records] == [1, 2, 3, 4]
    for record in records:
        assert set(record) == KEYS
        assert isinstance(record["score"], int) and record["mate"] is None
        assert record["nodes"] > 0 and record["nps"] >= 0 and record["time"] >= 0
    board = Board("chess36")
    for move in records[-1]["pv"]:
        board.push_uci(move)


def test_csc111_start_is_a_forced_win_for_white(capsys):
    last = json_lines(capsys, "--variant", "csc111", "--depth", "8")[-1]
    assert last["score"] is None
    assert last["mate"] > 0


def test_a_capturable_king_is_mate_in_one(capsys):
    last = json_lines(capsys, "--fen", MINITCHESS_KING_EN_PRISE, "--depth", "3")[-1]
    assert (last["score"], last["mate"], last["pv"]) == (None, 1, ["a1a6"])


def test_the_losing_side_sees_a_negative_mate(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MASSEY_STATE))
    last = json_lines(capsys, "--state", "-", "--depth", "3")[-1]
    assert (last["mate"], last["pv"][0]) == (-1, "a6b6")


def test_the_table_shows_the_line_in_san(capsys):
    status, out, _ = analyse(capsys, "--fen", MINITCHESS_KING_EN_PRISE, "--depth", "2")
    lines = out.splitlines()
    assert status == 0
    assert lines[0].split() == ["depth", "score", "nodes", "nps", "time", "pv"]
    assert lines[1].split()[:3] == ["1", "mate", "1"]
    assert lines[1].endswith("  Qxa6")
    assert lines[-1] == "best move: Qxa6"


def test_the_table_can_show_the_line_in_uci(capsys):
    _, out, _ = analyse(capsys, "--variant", "csc111", "--depth", "2", "--notation", "uci")
    assert out.splitlines()[-1] == "best move: c2b3"


def test_nodes_time_level_and_hash_limit_the_search(capsys):
    assert json_lines(capsys, "--variant", "antichess", "--nodes", "3000")
    assert json_lines(capsys, "--variant", "gardner", "--time", "0.2", "--hash", "1")
    records = json_lines(capsys, "--variant", "losalamos", "--level", "1", "--time", "0.5")
    assert [record["depth"] for record in records] == [1]  # level 1 looks one ply ahead


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--fen", MINITCHESS_FINISHED], "the game is over"),
        (["--fen", "nonsense"], "FEN has 1 fields"),
        (["--variant", "shogi"], "unknown variant 'shogi'"),
        (["--depth", "0"], "argument --depth: expected a whole number >= 1"),
        (["--time", "-1"], "argument --time: expected a number of seconds > 0"),
        (["--nodes", "many"], "argument --nodes: expected a whole number >= 1"),
        (["--depth", "3", "--time", "1"], "not allowed with argument"),
        (["--level", "11"], "argument --level: invalid choice"),
        (["--notation", "imcs"], "argument --notation/-n: invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_line_saying_why(capsys, argv, message):
    status, out, err = analyse(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("minichess: error: ") and message in err
    assert err.count("\n") == 1


def test_ctrl_c_stops_after_printing_what_was_found():
    program = subprocess.Popen(
        [sys.executable, "-m", "minichess.cli.main", "analyse", "--variant", "antichess",
         "--time", "60", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    watchdog = threading.Timer(60, program.kill)
    watchdog.start()
    try:
        assert program.stdout is not None and program.stderr is not None
        first = json.loads(program.stdout.readline())
        program.send_signal(signal.SIGINT)
        out, err = program.stdout.read(), program.stderr.read()
        program.wait()
    finally:
        watchdog.cancel()
    assert (program.returncode, err) == (0, "")
    records = [first, *(json.loads(line) for line in out.splitlines())]
    assert [record["depth"] for record in records] == list(range(1, len(records) + 1))
