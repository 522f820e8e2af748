"""The ``minichess`` command line, run in-process through ``main(argv)`` and as a real program.

``main`` returns the exit status: 0 when all went well, 2 for bad input or usage (one line
``minichess: error: ...`` on stderr), 1 for an unexpected failure.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import minichess
from minichess.board import Board
from minichess.cli import perft
from minichess.cli.main import COMMANDS, main
from minichess.variants import VARIANTS

MASSEY_STATE = "20 B\nk.K..\nrpP..\npP...\nP....\n.....\n.....\n"
"""RULES.md's example: Black to move can only move its king."""

FINISHED = "k4/5/5/5/5/RNBQ1 w - - 0 1"
"""A minitchess position after White's king was captured: the game is over."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line in-process: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- help and version ---------------------------------------------------------------------------


COMMAND_NAMES = [module.__name__.rsplit(".", 1)[1].replace("_", "-") for module in COMMANDS]
"""The commands, named as their modules are (imcs_server: imcs-server)."""


@pytest.mark.parametrize("command", [[], *([name] for name in COMMAND_NAMES)])
def test_every_command_has_help(capsys, command):
    status, out, _ = run(capsys, *command, "--help")
    assert status == 0
    assert out.startswith(f"usage: minichess {' '.join(command)}".rstrip())


def test_top_level_help_lists_the_commands(capsys):
    _, out, _ = run(capsys, "--help")
    for command in COMMAND_NAMES:
        assert command in out


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert (status, out) == (0, f"minichess {minichess.__version__}\n")


# --- perft --------------------------------------------------------------------------------------


def test_perft_prints_nodes_time_and_speed(capsys):
    status, out, _ = run(capsys, "perft", "3")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "nodes: 473"
    assert lines[1].startswith("time: ") and lines[1].endswith(" s")
    assert lines[2].startswith("nodes/s: ")


def test_perft_json_is_one_object(capsys):
    status, out, _ = run(capsys, "perft", "4", "--variant", "classic", "--json")
    report = json.loads(out)
    assert status == 0
    assert set(report) == {"variant", "depth", "nodes", "seconds", "nps"}
    assert (report["variant"], report["depth"], report["nodes"]) == ("minichess-classic", 4, 4230)
    assert report["seconds"] >= 0 and report["nps"] >= 0


def test_perft_divide_sums_to_the_total(capsys):
    _, out, _ = run(capsys, "perft", "3", "--variant", "chess36", "--divide", "--json")
    report = json.loads(out)
    assert report["nodes"] == 737
    assert sum(report["divide"].values()) == 737
    assert list(report["divide"]) == sorted(move.uci() for move in Board("chess36").legal_moves)


def test_perft_divide_as_text_has_one_sorted_line_per_root_move(capsys):
    _, out, _ = run(capsys, "perft", "2", "--variant", "csc111", "--divide")
    move_lines = out.split("\n\n")[0].splitlines()
    assert move_lines == sorted(move_lines)
    assert len(move_lines) == 6
    assert sum(int(line.split(": ")[1]) for line in move_lines) == 21
    assert "nodes: 21" in out


def test_perft_depth_zero_and_one(capsys):
    _, out, _ = run(capsys, "perft", "0", "--divide", "--json")
    assert (json.loads(out)["nodes"], json.loads(out)["divide"]) == (1, {})
    _, out, _ = run(capsys, "perft", "1", "--divide", "--json")
    assert json.loads(out)["divide"] == dict.fromkeys(sorted(
        m.uci() for m in Board().legal_moves), 1)


def test_perft_of_a_finished_game_finds_no_moves(capsys):
    _, out, _ = run(capsys, "perft", "2", "--fen", FINISHED, "--json")
    assert json.loads(out)["nodes"] == 0


def test_perft_shows_a_progress_bar_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(perft, "PROGRESS_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, out, err = run(capsys, "perft", "3")
    assert status == 0
    assert out.startswith("nodes: 473\n")
    assert "root moves" in err


def test_perft_shows_no_progress_bar_when_stderr_is_no_terminal(capsys):
    _, _, err = run(capsys, "perft", "4")
    assert err == ""


# --- moves --------------------------------------------------------------------------------------


def test_moves_of_the_start_position(capsys):
    status, out, _ = run(capsys, "moves")
    assert status == 0
    assert out.splitlines() == ["a2a3", "b1a3", "b1c3", "b2b3", "c2c3", "d2d3", "e2e3"]


@pytest.mark.parametrize(
    ("notation", "expected"),
    [("uci", "b1c3"), ("imcs", "b1-c3"), ("san", "Nc3")],
)
def test_moves_in_each_notation(capsys, notation, expected):
    _, out, _ = run(capsys, "moves", "--notation", notation)
    assert expected in out.splitlines()
    assert out.splitlines() == sorted(out.splitlines())


def test_moves_of_a_fen_with_a_drop(capsys):
    fen = "k4r/pppKpp/6/6/PPPPP1/RNQ1BR[Rq] w - - 0 1"
    _, out, _ = run(capsys, "moves", "--variant", "chess36", "--fen", fen)
    assert "R@d6" in out.splitlines()


def test_moves_of_a_finished_game_is_empty(capsys):
    assert run(capsys, "moves", "--fen", FINISHED) == (0, "", "")


def test_moves_reads_massey_state_from_stdin_and_answers_in_imcs_form(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MASSEY_STATE))
    assert run(capsys, "moves", "--state", "-") == (0, "a6-b6\n", "")


def test_moves_reads_massey_state_from_a_file(capsys, tmp_path):
    state = tmp_path / "state.txt"
    state.write_text(MASSEY_STATE)
    assert run(capsys, "moves", "--state", str(state), "--notation", "uci") == (0, "a6b6\n", "")


# --- show ---------------------------------------------------------------------------------------


def test_show_draws_ascii_when_not_on_a_terminal(capsys):
    status, out, _ = run(capsys, "show")
    assert status == 0
    assert out.splitlines()[:7] == [
        "6 k q b n r",
        "5 p p p p p",
        "4 . . . . .",
        "3 . . . . .",
        "2 P P P P P",
        "1 R N B Q K",
        "  a b c d e",
    ]
    assert "White to move" in out
    assert "FEN: kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1" in out


def test_show_uses_unicode_pieces_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    _, out, _ = run(capsys, "show", "--variant", "csc111")
    assert "♔" in out and "♚" in out
    assert "FEN: rqkr/pppp/PPPP/RQKR w - - 0 1" in out


def test_show_ascii_option_wins_over_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    _, out, _ = run(capsys, "show", "--ascii")
    assert "♔" not in out and "1 R N B Q K" in out


def test_show_gives_reserves_and_check_in_chess36(capsys):
    fen = "k4r/pppKpp/6/6/PPPPP1/RNQ1BR[RNqb] w - - 0 1"
    _, out, _ = run(capsys, "show", "--variant", "chess36", "--fen", fen)
    assert "Reserves: White RN, Black qb" in out
    board = Board("chess36", fen)
    board.push_uci("R@d6")
    _, out, _ = run(capsys, "show", "--variant", "chess36", "--fen", board.fen())
    assert "Black to move (in check)" in out


def test_show_says_how_a_finished_game_ended(capsys):
    _, out, _ = run(capsys, "show", "--fen", FINISHED)
    assert "Game over: Black wins by king capture (0-1)" in out


def test_show_reads_massey_state(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MASSEY_STATE))
    _, out, _ = run(capsys, "show", "--state", "-")
    assert "FEN: k1K2/rpP2/pP3/P4/5/5 b - - 0 20" in out


# --- variants -----------------------------------------------------------------------------------


def test_variants_lists_names_sizes_titles_and_aliases(capsys):
    status, out, _ = run(capsys, "variants")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(VARIANTS)
    assert "5x6" in lines[0] and "MinitChess (MiniChess 2011)" in lines[0] and "imcs" in lines[0]


def test_variants_json(capsys):
    _, out, _ = run(capsys, "variants", "--json")
    entries = json.loads(out)
    assert [entry["name"] for entry in entries] == list(VARIANTS)
    csc111 = next(entry for entry in entries if entry["name"] == "csc111")
    assert (csc111["files"], csc111["ranks"], csc111["size"]) == (4, 4, "4x4")
    assert "toronto" in csc111["aliases"]


# --- bad input and failures ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "required: COMMAND"),
        (["castle"], "invalid choice: 'castle'"),
        (["perft"], "required: DEPTH"),
        (["perft", "-1"], "whole number >= 0"),
        (["perft", "two"], "whole number >= 0"),
        (["perft", "2", "--bogus"], "unrecognized arguments: --bogus"),
        (["perft", "2", "--variant", "shogi"], "unknown variant 'shogi'"),
        (["moves", "--fen", "kqbnr/ppppp/5/5/PPPPP w - - 0 1"], "board has 5 ranks"),
        (["show", "--fen", "kqbnr/ppppp/5/5/PPPPP/RNBQK x"], "side to move"),
        (["moves", "--notation", "pgn"], "invalid choice: 'pgn'"),
        (["moves", "--fen", FINISHED, "--state", "-"], "not allowed with argument --fen"),
        (["moves", "--state", "/nonexistent/state.txt"], "cannot read /nonexistent/state.txt"),
        (["moves", "--variant", "chess36", "--state", "-"], "reserves"),
    ],
)
def test_bad_input_exits_2_with_a_one_line_message(capsys, monkeypatch, argv, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MASSEY_STATE))
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("minichess: error: ") and err.count("\n") == 1
    assert message in err


def test_bad_state_text_exits_2(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("20 B\nk.K..\nrpX..\n"))
    status, _, err = run(capsys, "moves", "--state", "-")
    assert status == 2
    assert err.startswith("minichess: error: state text has 3 lines")


def test_an_unexpected_failure_exits_1(capsys, monkeypatch):
    def broken(board: Board, depth: int) -> int:
        raise RuntimeError("core exploded")

    monkeypatch.setattr(Board, "perft", broken)
    status, _, err = run(capsys, "perft", "3")
    assert status == 1
    assert err.splitlines()[-1] == "minichess: error: unexpected RuntimeError: core exploded"


# --- the installed program ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def program() -> str:
    """Path of the installed ``minichess`` console script."""
    # the environment's own bin first: the tests run there without it being on PATH
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    path = shutil.which("minichess", path=search)
    if path is None:
        pytest.skip("the minichess console script is not installed")
    return path


def test_console_script_perft_json(program):
    done = subprocess.run([program, "perft", "2", "--json"], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["nodes"] == 49


def test_console_script_reads_state_from_stdin_and_rejects_bad_fen(program):
    done = subprocess.run([program, "moves", "--state", "-"], input=MASSEY_STATE,
                          capture_output=True, text=True, check=False, timeout=60)
    assert (done.returncode, done.stdout) == (0, "a6-b6\n")
    done = subprocess.run([program, "show", "--fen", "nonsense"], capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("minichess: error: FEN has 1 fields")
