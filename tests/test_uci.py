"""``minichess uci``: the engine speaking UCI, as a GUI or a match runner sees it.

Most conversations run in-process: :class:`Session` hands command lines to a
:class:`~minichess.protocols.uci.UciEngine` and collects its answers, which may come from the
search thread. One test runs the real program with a pipe.
"""

from __future__ import annotations

import io
import queue
import re
import subprocess
import sys
import threading
import time

import pytest

import minichess
from minichess.board import Board
from minichess.protocols import uci as uci_module
from minichess.protocols.uci import UciEngine, parse_position
from minichess.variants import VARIANTS

INFO_LINE = re.compile(
    r"^info depth (\d+) seldepth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+"
    r" pv( \S+)+$"
)
MINITCHESS_KING_EN_PRISE = "k4/5/5/5/5/Q3K w - - 0 1"
"""White's queen captures the black king: a forced win in one move."""
MINITCHESS_FINISHED = "k4/5/5/5/5/RNBQ1 w - - 0 1"
"""White's king is gone: the game is over."""
CHESS36_DROP_AND_PROMOTION = "5k/1P1K2/6/6/6/6[Q] w - - 0 1"
"""White's king on d5 may drop the reserve queen on d6; the pawn on b5 promotes on b6."""


class LineCollector(io.TextIOBase):
    """An output stream that hands each complete line to a queue (written by any thread)."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self._partial = ""

    def write(self, text: str) -> int:
        """Queue the complete lines of ``text``."""
        *complete, self._partial = (self._partial + text).split("\n")
        for line in complete:
            self.lines.put(line)
        return len(text)


class Session:
    """A UCI conversation in-process: ``send`` a command, then read the answers."""

    def __init__(self) -> None:
        self.output = LineCollector()
        self.uci = UciEngine(io.StringIO(), self.output)

    def send(self, *commands: str) -> None:
        """Give the engine these command lines, one after the other."""
        for command in commands:
            self.uci.handle(command)

    def read_until(self, prefix: str, timeout: float = 20.0) -> list[str]:
        """The answer lines up to and including the first that starts with ``prefix``."""
        lines = []
        deadline = time.monotonic() + timeout
        while not lines or not lines[-1].startswith(prefix):
            lines.append(self.output.lines.get(timeout=max(deadline - time.monotonic(), 0.01)))
        return lines

    def answers(self) -> list[str]:
        """The answer lines written so far and not yet read."""
        lines = []
        while not self.output.lines.empty():
            lines.append(self.output.lines.get())
        return lines

    def fen(self) -> str:
        """The engine's position, as its ``d`` command tells."""
        self.send("d")
        return self.read_until("Fen: ")[-1].removeprefix("Fen: ")

    def close(self) -> None:
        """Say ``quit`` (stopping any search)."""
        self.send("quit")


@pytest.fixture
def session():
    """A fresh UCI conversation, closed after the test."""
    conversation = Session()
    yield conversation
    conversation.close()


def transcript(*commands: str) -> list[str]:
    """Run ``UciEngine.run`` on these input lines and return every answer line."""
    output = io.StringIO()
    UciEngine(io.StringIO("".join(command + "\n" for command in commands)), output).run()
    return output.getvalue().splitlines()


def board_after(variant: str, moves: list[str], fen: str | None = None) -> Board:
    """The board of ``variant`` after playing ``moves`` (in coordinate notation)."""
    board = Board(variant, fen)
    for move in moves:
        board.push_uci(move)
    return board


# --- handshake and options ----------------------------------------------------------------------


def test_uci_names_the_engine_and_lists_the_options():
    lines = transcript("uci", "quit")
    assert lines[0] == f"id name minichess {minichess.__version__}"
    assert lines[1].startswith("id author ")
    assert lines[-1] == "uciok"
    variant_option = next(line for line in lines if "UCI_Variant" in line)
    assert variant_option == (
        "option name UCI_Variant type combo default minitchess "
        + " ".join(f"var {name}" for name in VARIANTS)
    )
    assert len(VARIANTS) == 7
    assert "option name Hash type spin default 16 min 1 max 4096" in lines
    assert "option name Threads type spin default 1 min 1 max 1" in lines
    assert "option name Skill Level type spin default 10 min 1 max 10" in lines
    assert "option name Move Overhead type spin default 50 min 0 max 5000" in lines
    assert "option name OwnBook type check default true" in lines
    assert "option name EndgameTables type check default true" in lines


def test_isready_is_answered_and_quit_ends_the_session_even_with_more_input():
    assert transcript("isready", "quit", "isready") == ["readyok"]


def test_the_session_also_ends_with_the_input():
    assert transcript("isready") == ["readyok"]


def test_the_variant_option_resets_the_position(session):
    session.send("position startpos moves b2b3")
    session.send("setoption name UCI_Variant value csc111")
    assert session.answers() == [
        "info string variant csc111 files 4 ranks 4 startpos rqkr/pppp/PPPP/RQKR w - - 0 1"
    ]
    assert session.fen() == VARIANTS["csc111"].start_fen


def test_the_variant_option_accepts_aliases_and_any_case_in_the_name(session):
    session.send("setoption name uci_variant value 6x6")
    assert session.answers()[0].startswith("info string variant chess36 ")
    assert session.uci.board.variant.name == "chess36"


def test_spin_options_set_the_engine(session):
    session.send(
        "setoption name Hash value 32",
        "setoption name Threads value 1",
        "setoption name Skill Level value 3",
        "setoption name Move Overhead value 120",
    )
    assert session.answers() == []
    engine = session.uci.engine
    assert (engine.hash_mb, engine.level, engine.move_overhead) == (32, 3, 0.12)


def test_the_own_book_option_switches_the_opening_book(session):
    session.send("setoption name OwnBook value false")
    assert session.answers() == [] and session.uci.engine.book is False
    session.send("setoption name ownbook value TRUE")
    assert session.answers() == [] and session.uci.engine.book is True


def test_the_endgame_tables_option_switches_the_tables(session):
    session.send("setoption name EndgameTables value false")
    assert session.answers() == [] and session.uci.engine.endgame is False
    session.send("setoption name EndgameTables value true")
    assert session.answers() == [] and session.uci.engine.endgame is True


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("setoption name Hash value 0", "Hash must be 1 to 4096, not 0"),
        ("setoption name Threads value 2", "Threads must be 1 to 1, not 2"),
        ("setoption name Skill Level value eleven", "Skill Level needs a whole number"),
        ("setoption name Move Overhead value -1", "Move Overhead must be 0 to 5000"),
        ("setoption name Ponder value true", "unknown option 'Ponder'"),
        ("setoption name OwnBook value yes", "OwnBook must be true or false, not 'yes'"),
        ("setoption name UCI_Variant value shogi", "unknown variant 'shogi'"),
        ("setoption Hash 32", "expected 'setoption name <name> value <value>'"),
    ],
)
def test_a_bad_option_is_ignored_with_the_reason(session, command, reason):
    session.send(command)
    (answer,) = session.answers()
    assert answer.startswith("info string setoption ignored: ")
    assert reason in answer
    engine = session.uci.engine
    assert (engine.hash_mb, engine.level, engine.move_overhead) == (16, 10, 0.05)
    assert session.uci.board.variant.name == "minitchess"


# --- positions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "moves"),
    [
        ("minitchess", None, ["b2b3", "d5d4", "b3b4"]),
        ("minichess-classic", None, ["e2e3", "a5a4"]),
        ("antichess", None, ["e2e4", "d7d5", "e4d5"]),
        ("chess36", None, ["b1c3", "e6d4"]),
        ("chess36", CHESS36_DROP_AND_PROMOTION, ["Q@d6", "f6f5", "b5b6q"]),
        ("csc111", None, ["c2b3", "b4b3"]),
        ("gardner", None, ["b2b3"]),
        ("losalamos", None, ["b1c3"]),
    ],
)
def test_position_with_moves_in_each_variant(session, variant, fen, moves):
    session.send(f"setoption name UCI_Variant value {variant}")
    where = f"fen {fen}" if fen else "startpos"
    session.send(f"position {where} moves {' '.join(moves)}")
    assert session.fen() == board_after(variant, moves, fen).fen()


def test_position_accepts_imcs_moves_and_a_fen_without_moves(session):
    session.send("position startpos moves b2-b3 d5-d4")
    assert session.fen() == board_after("minitchess", ["b2b3", "d5d4"]).fen()
    session.send(f"position fen {MINITCHESS_KING_EN_PRISE}")
    assert session.fen() == MINITCHESS_KING_EN_PRISE


def test_a_position_that_adds_moves_plays_only_the_new_ones(session, monkeypatch):
    # a GUI sends the whole game at every move: only the moves added to the last position are
    # played, on it; any other position is read afresh
    read = []
    monkeypatch.setattr(uci_module, "parse_position",
                        lambda *arguments: read.append(arguments) or parse_position(*arguments))
    session.send("position startpos", "position startpos moves b2b3",
                 "position startpos moves b2b3 d5d4 b3b4")
    assert session.fen() == board_after("minitchess", ["b2b3", "d5d4", "b3b4"]).fen()
    assert len(read) == 1
    session.send("position startpos moves b2b3 d5d4 b3b4 a5a4 c2c3 b2b3")
    assert session.answers()[0].startswith("info string position ignored: move 6 (b2b3)")
    assert session.fen() == board_after("minitchess", ["b2b3", "d5d4", "b3b4"]).fen()
    session.send("position startpos moves c2c3")
    assert session.fen() == board_after("minitchess", ["c2c3"]).fen()
    assert len(read) == 2


def test_d_prints_the_board_the_variant_and_the_fen(session):
    session.send("position startpos moves b2b3")
    session.send("d")
    assert session.read_until("Fen: ") == [
        "k q b n r",
        "p p p p p",
        ". . . . .",
        ". P . . .",
        "P . P P P",
        "R N B Q K",
        "Variant: minitchess",
        "Fen: kqbnr/ppppp/5/1P3/P1PPP/RNBQK b - - 0 1",
    ]


def test_ucinewgame_goes_back_to_the_start_position(session):
    session.send("setoption name UCI_Variant value csc111", "position startpos moves c2b3")
    session.send("ucinewgame")
    assert session.fen() == VARIANTS["csc111"].start_fen


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("position fen nonsense", "FEN has 1 fields"),
        ("position startpos moves b2b3 b2b3", "move 2 (b2b3)"),
        ("position startpos moves a2a4", "a2a4 is illegal"),
        ("position startpos moves e2", "cannot read move 'e2'"),
        ("position", "expected 'startpos' or 'fen <FEN>'"),
        ("position somewhere", "expected 'startpos' or 'fen <FEN>'"),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", ""),
    ],
)
def test_a_bad_position_is_ignored_and_the_old_one_kept(session, command, reason):
    session.send("position startpos moves b2b3")
    before = session.fen()
    session.send(command)
    (answer,) = session.answers()
    assert answer.startswith("info string position ignored: ")
    assert reason in answer
    assert session.fen() == before


@pytest.mark.parametrize(
    "command",
    ["", "   ", "hello", "go wtime", "go wtime soon", "go depth -1", "go ponder", "setoption"],
)
def test_malformed_input_never_ends_the_session(command):
    lines = transcript(command, "isready", "quit")
    assert lines[-1] == "readyok"
    assert all(line.startswith("info string ") for line in lines[:-1])


def test_an_unknown_command_is_named():
    assert transcript("hello world") == ["info string unknown command 'hello'"]


# --- searching ----------------------------------------------------------------------------------


def test_go_depth_reports_each_depth_then_the_best_move(session):
    session.send("setoption name UCI_Variant value chess36", "position startpos")
    session.answers()
    session.send("go depth 3")
    lines = session.read_until("bestmove ")
    infos = [INFO_LINE.match(line) for line in lines[:-1]]
    assert all(infos), lines
    assert [int(info.group(1)) for info in infos] == [1, 2, 3]
    best = lines[-1].split()[1]
    assert best in {move.uci() for move in Board("chess36").legal_moves}
    assert lines[-2].split(" pv ")[1].split()[0] == best


def test_a_forced_win_is_reported_as_mate(session):
    session.send(f"position fen {MINITCHESS_KING_EN_PRISE}", "go depth 2")
    lines = session.read_until("bestmove ")
    assert " score mate 1 " in lines[-2]
    assert lines[-1] == "bestmove a1a6"


def test_go_movetime_answers_within_the_time(session):
    session.send("setoption name UCI_Variant value antichess")
    session.answers()
    started = time.monotonic()
    session.send("go movetime 300")
    lines = session.read_until("bestmove ")
    assert time.monotonic() - started < 0.45
    assert lines[-1] != "bestmove (none)"


def test_go_with_clocks_plays_a_move(session):
    session.send("position startpos moves b2b3",
                 "go wtime 1000 btime 800 winc 10 binc 10 movestogo 5")
    assert session.read_until("bestmove ")[-1] != "bestmove (none)"


def test_go_infinite_runs_until_stop_and_answers_isready_meanwhile(session):
    session.send("setoption name UCI_Variant value antichess")
    session.answers()
    session.send("go infinite")
    session.read_until("info depth 1 ")
    session.send("isready")
    assert session.read_until("readyok")[-1] == "readyok"
    time.sleep(0.2)
    assert not any(line.startswith("bestmove") for line in session.answers())
    started = time.monotonic()
    session.send("stop")
    assert session.read_until("bestmove ")[-1] != "bestmove (none)"
    assert time.monotonic() - started < 0.5


def test_go_infinite_waits_for_stop_even_when_the_game_is_solved(session):
    session.send(f"position fen {MINITCHESS_KING_EN_PRISE}", "go infinite")
    session.read_until("info depth 4 ")  # the engine knows the answer: mate 1
    time.sleep(0.3)  # it may go on deepening, but says no bestmove before stop
    assert not [line for line in session.answers() if line.startswith("bestmove")]
    session.send("stop")
    assert session.read_until("bestmove ") == ["bestmove a1a6"]


def test_stop_right_after_go_still_ends_the_search(session):
    session.send("setoption name UCI_Variant value antichess", "go infinite", "stop")
    assert session.read_until("bestmove ")[-1] != "bestmove (none)"


def test_commands_that_change_the_engine_wait_for_the_search_to_end(session):
    session.send("go infinite", "go depth 1", "setoption name Hash value 1", "ucinewgame")
    session.send("stop")
    lines = session.read_until("bestmove ")
    refusals = [line for line in lines if "a search is running (send stop first)" in line]
    assert len(refusals) == 3
    assert session.uci.engine.hash_mb == 16


def test_position_during_a_search_sets_the_next_search(session):
    session.send("go infinite", "position startpos moves b2b3", "stop")
    session.read_until("bestmove ")
    session.send("go depth 1")
    black_moves = {move.uci() for move in board_after("minitchess", ["b2b3"]).legal_moves}
    assert session.read_until("bestmove ")[-1].split()[1] in black_moves


def test_go_when_the_game_is_over_answers_no_move(session):
    session.send(f"position fen {MINITCHESS_FINISHED}", "go depth 3")
    lines = session.read_until("bestmove ")
    assert lines[0].startswith("info string the game is over")
    assert lines[-1] == "bestmove (none)"


def test_quit_during_a_search_ends_it_at_once():
    output = LineCollector()
    uci = UciEngine(io.StringIO(), output)
    uci.handle("setoption name UCI_Variant value antichess")
    uci.handle("go infinite")
    started = time.monotonic()
    assert uci.handle("quit") is False
    assert time.monotonic() - started < 0.5
    assert not uci.searching


def test_a_long_session_of_games_and_searches(session):
    for variant in ("csc111", "minitchess", "chess36"):
        session.send(f"setoption name UCI_Variant value {variant}", "ucinewgame", "isready")
        assert session.read_until("readyok")[-1] == "readyok"
        moves: list[str] = []
        for _ in range(4):
            session.send(f"position startpos moves {' '.join(moves)}", "go nodes 2000")
            moves.append(session.read_until("bestmove ")[-1].split()[1])
        assert len(board_after(variant, moves).move_stack) == 4


# --- the real program ---------------------------------------------------------------------------


def test_the_program_speaks_uci_through_a_pipe():
    program = subprocess.Popen(
        [sys.executable, "-m", "minichess.cli.main", "uci"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    watchdog = threading.Timer(60, program.kill)
    watchdog.start()
    try:
        assert program.stdin is not None and program.stdout is not None
        program.stdin.write("uci\nsetoption name UCI_Variant value csc111\nisready\n"
                            "position startpos moves c2b3\ngo depth 3\n")
        program.stdin.flush()
        lines = []
        while not lines or not lines[-1].startswith("bestmove"):
            lines.append(program.stdout.readline().rstrip("\n"))
            assert lines[-1] or program.poll() is None, lines
        program.stdin.write("quit\n")
        program.stdin.flush()
        assert program.wait() == 0
    finally:
        watchdog.cancel()
    assert "uciok" in lines and "readyok" in lines
    assert lines[-1] in {f"bestmove {move.uci()}"
                         for move in board_after("csc111", ["c2b3"]).legal_moves}
