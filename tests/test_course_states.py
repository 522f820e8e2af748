"""Massey's MiniChess course conventions: a state's moves whatever its move number, and the
course harnesses' state operations (the winner of a state, the state after a move), from the
Board and from the command line."""

from __future__ import annotations

import pytest

from minichess import Board, IllegalMoveError, Move
from minichess.cli.main import main
from minichess.notation.massey import format_state, parse_state

PAST_THE_LIMIT = "41 W\n.k...\n.....\n..p..\n.....\n..K..\n.....\n"
"""Both sides have made their 40 moves: drawn, but the white king still has its 8 steps."""
KING_TAKEN = "12 B\n.....\n..Q..\n.....\n.....\n.....\n....K\n"
"""Black to move has lost its king (and has no piece left)."""
NO_WHITE_KING = "30 W\nk....\n.....\n.....\n.....\nP....\n.....\n"
"""White to move has lost its king; its pawn can still move."""
QUEEN_TAKES_KING = "5 W\nk....\nQ....\n.....\n.....\n.....\n....K\n"


def state_board(text: str, variant: str = "minitchess") -> Board:
    board = Board(variant)
    board.set_setup(parse_state(variant, text))
    return board


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The command line run in-process: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def state_file(tmp_path, text: str) -> str:
    path = tmp_path / "state.txt"
    path.write_text(text)
    return str(path)


# --- the Board ----------------------------------------------------------------------------------


def test_a_finished_game_has_no_legal_moves_but_keeps_its_position_moves():
    board = state_board(PAST_THE_LIMIT)
    assert board.is_game_over()
    assert board.legal_moves == []
    assert sorted(move.uci() for move in board.position_moves) == [
        "c2b1", "c2b2", "c2b3", "c2c1", "c2c3", "c2d1", "c2d2", "c2d3"]


def test_a_side_without_its_king_still_has_the_moves_of_its_other_pieces():
    board = state_board(NO_WHITE_KING)
    assert board.outcome().winner is False  # Black has won
    assert [move.uci() for move in board.position_moves] == ["a2a3"]


def test_a_move_after_the_end_is_played_only_when_asked_for():
    board = state_board(PAST_THE_LIMIT)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push(Move.from_uci("c2c3"))
    assert format_state(board) == PAST_THE_LIMIT
    board.push(board.parse_uci("c2-c3", after_end=True), after_end=True)
    assert format_state(board) == "41 B\n.k...\n.....\n..p..\n..K..\n.....\n.....\n"


def test_a_move_the_position_does_not_have_is_refused_after_the_end_too():
    board = state_board(PAST_THE_LIMIT)
    with pytest.raises(IllegalMoveError, match="legal moves of that piece: c2b1, c2b2"):
        board.parse_uci("c2c5", after_end=True)
    with pytest.raises(IllegalMoveError, match="c2c5"):
        board.push(Move.from_uci("c2c5"), after_end=True)
    assert format_state(board) == PAST_THE_LIMIT


def test_a_promotion_without_its_letter_after_the_end():
    board = state_board("41 W\n.k...\n..P..\n.....\n.....\n.....\n....K\n")
    assert board.parse_uci("c5-c6", after_end=True) == Move.from_uci("c5c6q")


# --- minichess moves --state --------------------------------------------------------------------


def test_moves_of_a_state_past_the_move_limit(capsys, tmp_path):
    status, out, _ = run(capsys, "moves", "--state", state_file(tmp_path, PAST_THE_LIMIT))
    assert status == 0
    assert out.splitlines() == ["c2-b1", "c2-b2", "c2-b3", "c2-c1", "c2-c3", "c2-d1", "c2-d2",
                                "c2-d3"]


def test_moves_of_the_same_position_as_fen_follow_the_games_end(capsys):
    board = state_board(PAST_THE_LIMIT)
    assert run(capsys, "moves", "--fen", board.fen()) == (0, "", "")


def test_moves_of_a_side_that_lost_its_king(capsys, tmp_path):
    assert run(capsys, "moves", "--state", state_file(tmp_path, NO_WHITE_KING)) == (
        0, "a2-a3\n", "")
    assert run(capsys, "moves", "--state", state_file(tmp_path, KING_TAKEN)) == (0, "", "")


# --- minichess winner ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ("1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n", "?"),
        ("40 B\n.k...\n.....\n..p..\n.....\n..K..\n.....\n", "?"),  # Black's 40th move is due
        (PAST_THE_LIMIT, "="),
        (KING_TAKEN, "W"),
        (NO_WHITE_KING, "B"),
    ],
)
def test_winner_of_a_state(capsys, tmp_path, state, code):
    assert run(capsys, "winner", "--state", state_file(tmp_path, state)) == (0, f"{code}\n", "")


@pytest.mark.parametrize(
    ("fen", "code"),
    [
        ("4/2k1/1q2/K3 w - - 0 1", "B"),  # checkmate
        ("k3/2Q1/1K2/4 b - - 0 1", "W"),  # no move, no check: a loss all the same
        ("rqkr/pppp/PPPP/RQKR w - - 0 26", "="),  # 50 plies
        ("rqkr/pppp/PPPP/RQKR w - - 0 1", "?"),
    ],
)
def test_winner_of_a_csc111_position(capsys, fen, code):
    assert run(capsys, "winner", "--variant", "csc111", "--fen", fen) == (0, f"{code}\n", "")


# --- minichess move -----------------------------------------------------------------------------


def test_state_after_a_move(capsys, tmp_path):
    start = "1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n"
    status, out, _ = run(capsys, "move", "b2-b3", "--state", state_file(tmp_path, start))
    assert (status, out) == (0, "1 B\nkqbnr\nppppp\n.....\n.P...\nP.PPP\nRNBQK\n")


def test_state_after_several_moves_in_any_notation(capsys, tmp_path):
    start = "1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n"
    _, out, _ = run(capsys, "move", "b2b3", "b5-b4", "Nc3", "--state", state_file(tmp_path, start))
    board = Board("minitchess")
    for move in ("b3", "b4", "Nc3"):
        board.push_san(move)
    assert out == format_state(board)


def test_the_move_that_takes_the_king_then_the_winner(capsys, tmp_path):
    _, out, _ = run(capsys, "move", "a5-a6", "--state", state_file(tmp_path, QUEEN_TAKES_KING))
    assert out == "5 B\nQ....\n.....\n.....\n.....\n.....\n....K\n"
    assert run(capsys, "winner", "--state", state_file(tmp_path, out)) == (0, "W\n", "")


def test_a_move_after_the_end_is_played_as_the_harnesses_do(capsys, tmp_path):
    _, out, _ = run(capsys, "move", "c2-c3", "--state", state_file(tmp_path, PAST_THE_LIMIT))
    assert out == "41 B\n.k...\n.....\n..p..\n..K..\n.....\n.....\n"


def test_move_with_fen_prints_fen(capsys):
    status, out, _ = run(capsys, "move", "--variant", "csc111", "a2b3")
    assert (status, out) == (0, "rqkr/pPpp/1PPP/RQKR b - - 0 1\n")


def test_move_output_can_be_chosen(capsys, tmp_path):
    start = "1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n"
    _, out, _ = run(capsys, "move", "a2-a3", "--state", state_file(tmp_path, start), "-o", "fen")
    assert out == "kqbnr/ppppp/5/P4/1PPPP/RNBQK b - - 0 1\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["move", "a2-a5"], "a2a5 is illegal; legal moves of that piece: a2a3"),
        (["move", "e1-e2"], "the king on e1 has no legal move"),
        (["move", "b2-b3", "b2-b4"], "there is no piece on b2"),
        (["move", "zz"], "zz"),
    ],
)
def test_bad_moves_exit_2_with_the_reason(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("minichess: error: ") and message in err
