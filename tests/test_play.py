"""``minichess play``: what the screen shows, whole games against the engine (scripted
in-process) and games in a pseudo terminal. (Typed lines and the human player: test_players.py.)"""

from __future__ import annotations

import io
import os
import signal
import sys
import time

import pexpect
import pytest
from rich.console import Console

from minichess.board import Board
from minichess.cli.main import main
from minichess.cli.terminal_game import TerminalGame
from minichess.cli.terminal_ui import (
    CHECKED_KING,
    DARK_SQUARE,
    LAST_MOVE_DARK,
    LAST_MOVE_LIGHT,
    LIGHT_SQUARE,
    board_text,
    checked_king,
    clock_text,
    game_view,
    hint_text,
    last_move_squares,
    moves_text,
    square_shade,
)
from minichess.engine import Engine, PlayResult
from minichess.errors import MinichessError
from minichess.game import Game, TimeControl
from minichess.notation.pgn import read_pgn_file, write_pgn_file
from minichess.outcome import Termination
from minichess.pieces import BLACK, WHITE
from minichess.players import EnginePlayer
from minichess.squares import parse_square
from scripted_input import plain_console, scripted

# --- the screen ---------------------------------------------------------------------------------


def test_the_board_from_whites_side():
    lines = board_text(Board("minitchess")).plain.splitlines()
    assert lines[0] == "   a  b  c  d  e"
    assert lines[1] == "6  ♚  ♛  ♝  ♞  ♜  6"
    assert lines[6] == "1  ♖  ♘  ♗  ♕  ♔  1"
    assert lines[7] == lines[0]


def test_the_board_from_blacks_side():
    lines = board_text(Board("minitchess"), orientation=BLACK).plain.splitlines()
    assert lines[0] == "   e  d  c  b  a"
    assert lines[1] == "1  ♔  ♕  ♗  ♘  ♖  1"
    assert lines[6] == "6  ♜  ♞  ♝  ♛  ♚  6"


def test_the_last_move_and_a_king_in_check_are_highlighted(place):
    board = Board("minitchess")
    board.push_uci("b2b3")
    assert last_move_squares(board) == (parse_square("b2"), parse_square("b3"))
    assert square_shade(parse_square("b2"), last_move_squares(board)) == LAST_MOVE_DARK
    assert square_shade(parse_square("b3"), last_move_squares(board)) == LAST_MOVE_LIGHT
    assert square_shade(parse_square("a1")) == DARK_SQUARE
    assert square_shade(parse_square("b1")) == LIGHT_SQUARE
    checked = place("chess36", "Kc1 ka6 rc6", turn="w")
    assert checked_king(checked) == parse_square("c1")
    assert square_shade(parse_square("c1"), (), checked_king(checked)) == CHECKED_KING
    assert checked_king(place("antichess", "Kc1 kc8 rc6")) is None  # no royal king there


@pytest.mark.parametrize(("seconds", "text"), [
    (300, "5:00"), (299.9, "5:00"), (3723, "1:02:03"), (59.0, "0:59"), (9.44, "0:09.4"),
    (-1, "0:00.0"),
])
def test_clock_readings(seconds, text):
    assert clock_text(seconds) == text


@pytest.mark.parametrize(("subject", "text"), [
    (None, "Legal moves (7): a3, b3, c3, d3, e3, Na3, Nc3"),
    ("b2", "White's pawn on b2: b3"),
    ("B2", "White's pawn on b2: b3"),
    ("N", "Knight moves: Na3, Nc3"),
    ("n", "Knight moves: Na3, Nc3"),
    ("Q", "No queen of White's can move."),
    ("c1", "White's bishop on c1 has no legal move."),
    ("a6", "The piece on a6 is Black's, and it is not its turn."),
    ("c3", "There is no piece on c3."),
    ("f1", "f1 is not on the minitchess board."),
])
def test_moves_lists_legal_moves_in_san(subject, text):
    assert moves_text(Board("minitchess"), subject) == text


def test_moves_of_a_piece_kind_include_its_drops(place):
    board = place("chess36", "Kc5 ka1", reserve="Q")
    assert moves_text(board, "Q") == "Queen moves: Q@c6"


def test_moves_rejects_what_is_neither_square_nor_piece():
    with pytest.raises(MinichessError, match=r"moves x: expected a square \(moves b2\)"):
        moves_text(Board("minitchess"), "x")


def test_hint_text_gives_the_move_and_the_score():
    board = Board("minitchess")
    move = board.parse_move("b3")

    def result(score, mate):
        return PlayResult(move, score, mate, 9, [move], 1000, 0.5)

    assert hint_text(board, result(35, None)) == "Hint: b3 (+0.35, depth 9)"
    assert hint_text(board, result(None, 2)) == "Hint: b3 (mate in 2)"
    assert hint_text(board, result(None, -3)) == "Hint: b3 (mated in 3)"


def screen(renderable) -> str:
    """What ``renderable`` looks like on a plain 100-column terminal."""
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_the_view_shows_players_clocks_and_whose_turn():
    game = Game("antichess", clock=TimeControl.default_for("antichess"))
    text = screen(game_view(game, WHITE, {WHITE: "you", BLACK: "engine"}))
    assert "antichess: " in text
    assert "▶ White  you     5:00" in text
    assert "  Black  engine  5:00" in text
    assert "Move 1: White to move (your move)" in text
    assert "   h  g  f  e" not in text  # seen from White's side


def test_the_view_shows_check_reserves_last_move_and_the_end(place):
    board = place("chess36", "Kc1 ka6 rc6", turn="w", reserve="Qn")
    game = Game("chess36", board.fen())
    text = screen(game_view(game, BLACK, {WHITE: "engine", BLACK: "you"}))
    assert "Check!" in text
    assert "Reserves: White ♕, Black ♞" in text
    assert "(the engine's move)" in text
    game.push("Kb2")
    game.resign(BLACK)
    text = screen(game_view(game, BLACK, {WHITE: "engine", BLACK: "you"}))
    assert "Last move: 1. Kb2" in text
    assert "Game over: White wins by resignation" in text


# --- whole games in-process ---------------------------------------------------------------------


def terminal_game(*lines: str, game: Game | None = None, color: bool = WHITE,
                  pgn_path: str | None = None) -> TerminalGame:
    """A game against the level-1 engine with ``lines`` typed and plain text output."""
    return TerminalGame(game or Game("minitchess"), color, EnginePlayer(level=1, seed=1),
                        plain_console(), scripted(*lines), pgn_path,
                        hint_engine=Engine(level=1, seed=1))


def output(session: TerminalGame) -> str:
    return session.console.file.getvalue()


def test_a_game_played_to_its_end():
    session = terminal_game()
    # the human always plays its first legal move; the save question gets an empty answer
    session.read_line = lambda prompt: (session.game.board.legal_moves[0].uci()
                                        if prompt.startswith("Your move") else "")
    session.play()
    outcome = session.game.outcome()
    assert outcome is not None
    verdict = {WHITE: "You win!", BLACK: "You lose.", None: "Draw."}[outcome.winner]
    assert f"{outcome}. {verdict}" in output(session)


def test_the_engine_moves_first_when_the_human_has_black():
    session = terminal_game("quit", color=BLACK)
    session.play()
    assert len(session.game.moves) == 1
    assert "The engine plays 1. " in output(session)
    assert "   e  d  c  b  a" in output(session)


def test_undo_takes_back_the_engines_reply_and_your_move():
    session = terminal_game("undo", "b3", "undo", "quit")
    session.play()
    assert "There is no move of yours to take back yet." in output(session)
    assert "Took back b3 " in output(session)
    assert session.game.moves == []
    assert "The game is left unfinished." in output(session)


def test_hint_flip_and_resign():
    session = terminal_game("hint", "flip", "resign", "")
    session.play()
    out = output(session)
    assert "Hint: " in out
    assert "   e  d  c  b  a" in out  # flipped
    assert "Black wins by resignation. You lose." in out
    assert session.game.outcome().termination == Termination.RESIGNATION


def test_save_then_load_to_continue(tmp_path):
    path = tmp_path / "game.pgn"
    first = terminal_game("b3", f"save {path}", "quit", "")
    first.play()
    saved = first.game.san_moves
    second = terminal_game(f"load {path}", "quit", color=BLACK)
    second.play()
    assert second.game.san_moves == saved
    assert second.human_color == WHITE  # the side the file names "human"
    assert f"Loaded {path}: minitchess, 2 moves played; you play White." in output(second)


def test_load_keeps_the_clocks(tmp_path):
    game = Game("antichess", clock=TimeControl(300))
    game.push("e3", seconds=12)
    game.push("b5", seconds=7)
    path = tmp_path / "clocked.pgn"
    write_pgn_file(path, [game])
    session = terminal_game(f"load {path}", "quit")
    session.play()
    assert session.game.variant.name == "antichess"
    assert session.game.remaining(WHITE) == pytest.approx(288)
    assert session.game.remaining(BLACK) == pytest.approx(293)


def test_load_refuses_a_finished_game_and_a_missing_file(tmp_path):
    game = Game("minitchess")
    game.resign(WHITE)
    path = tmp_path / "over.pgn"
    write_pgn_file(path, [game])
    session = terminal_game(f"load {path}", f"load {tmp_path / 'none.pgn'}", "quit")
    session.play()
    assert "is over (0-1): nothing to continue" in output(session)
    assert "cannot read" in output(session)


def test_the_pgn_option_saves_the_game_at_the_end(tmp_path):
    path = tmp_path / "auto.pgn"
    session = terminal_game("b3", "resign", pgn_path=str(path))
    session.play()
    [game] = read_pgn_file(path)
    assert game.result() == "0-1"
    assert game.headers["White"] == "human"
    assert f"Saved the game to {path}." in output(session)


def test_the_flag_falls_while_the_human_thinks():
    def think(prompt: str) -> str:
        time.sleep(5)
        return "b3"

    session = terminal_game(game=Game("minitchess", clock=TimeControl(0.3)))
    session.read_line = think
    started = time.monotonic()
    session.play()
    assert time.monotonic() - started < 3
    assert str(session.game.outcome()) == "Black wins by time forfeit"
    assert "Your time is up." in output(session)


def test_ctrl_c_ends_the_game_without_questions():
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    session = terminal_game("b3")
    session.read_line = interrupt
    session.play()
    assert "(interrupted)" in output(session)
    assert "The game is left unfinished." in output(session)


@pytest.mark.parametrize(("argv", "message"), [
    (["--level", "11"], "expected a level from 1 to 10"),
    (["--time", "soon"], "cannot read time control 'soon'"),
    (["--fen", "k4/5/5/5/5/RNBQ1 w - - 0 1"], "nothing to play: the game is over"),
])
def test_bad_arguments_exit_with_status_2(capsys, argv, message):
    assert main(["play", *argv]) == 2
    assert message in capsys.readouterr().err


# --- in a pseudo terminal -----------------------------------------------------------------------


def spawn_play(cwd, *args: str) -> pexpect.spawn:
    """``minichess play --level 1 --seed 7 ARGS`` in a pseudo terminal without colours."""
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    return pexpect.spawn(
        sys.executable, ["-m", "minichess.cli.main", "play", "--level", "1", "--seed", "7", *args],
        cwd=str(cwd), env=env, encoding="utf-8", dimensions=(50, 120), timeout=30,
        preexec_fn=_interruptible,
    )


def _interruptible() -> None:
    """Ctrl-C as in a terminal: a test worker may ignore SIGINT, and its children would inherit
    that (Python then raises no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def finish(child: pexpect.spawn) -> int:
    """Wait for the program to end; its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    return child.exitstatus


def test_a_game_in_a_terminal(tmp_path):
    child = spawn_play(tmp_path)
    child.expect_exact("Your move> ")
    child.sendline("b2b5")
    child.expect_exact("b2b5 is illegal; legal moves of that piece: b2b3")
    child.sendline("moves b2")
    child.expect_exact("White's pawn on b2: b3")
    child.sendline("b3")
    child.expect(r"The engine plays 1\.\.\. \S+")
    child.sendline("hint")
    child.expect(r"Hint: \S+ \(")
    child.sendline("undo")
    child.expect_exact("Took back b3 ")
    child.sendline("a2-a3")
    child.expect(r"The engine plays 1\.\.\. \S+")
    child.sendline("save game.pgn")
    child.expect_exact("Saved the game to game.pgn.")
    child.sendline("resign")
    child.expect_exact("Black wins by resignation. You lose.")
    child.expect_exact("Save the game? File name (Enter to skip): ")
    child.sendline("")
    assert finish(child) == 0
    [saved] = read_pgn_file(tmp_path / "game.pgn")
    assert saved.san_moves[0] == "a3" and len(saved.san_moves) == 2


@pytest.mark.parametrize(("stop", "shown"), [("eof", "(end of input)"), ("intr", "(interrupted)")])
def test_ctrl_d_and_ctrl_c_end_cleanly(tmp_path, stop, shown):
    child = spawn_play(tmp_path)
    child.expect_exact("Your move> ")
    child.sendeof() if stop == "eof" else child.sendintr()
    child.expect_exact(shown)
    child.expect_exact("The game is left unfinished.")
    assert finish(child) == 0


def test_load_a_saved_game_in_a_terminal(tmp_path):
    game = Game("chess36", headers={"White": "minichess level:1", "Black": "human"})
    game.push("d3")
    write_pgn_file(tmp_path / "saved.pgn", [game])
    child = spawn_play(tmp_path)
    child.expect_exact("Your move> ")
    child.sendline("load saved.pgn")
    child.expect_exact("Loaded saved.pgn: chess36, 1 moves played; you play Black.")
    child.expect_exact("Last move: 1. d3")
    child.expect_exact("Reserves: White none, Black none")
    child.sendline("quit")
    child.expect_exact("Save the game? File name (Enter to skip): ")
    child.sendeof()
    assert finish(child) == 0
