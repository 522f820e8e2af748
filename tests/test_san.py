"""SAN: writing and reading moves such as ``Nc3``, ``bxc4``, ``d6=Q``, ``Q@d6``, ``Ra1#``."""

import random

import pytest

from minichess import (
    VARIANTS,
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from minichess.notation.san import move_to_san, parse_san


def san_list(board: Board) -> list[str]:
    return [board.san(move) for move in board.legal_moves]


# --- round trip -------------------------------------------------------------------------------


def assert_san_round_trip(board: Board) -> None:
    """Every legal move of ``board`` has its own SAN, which reads back as the same move."""
    moves = board.legal_moves
    sans = [board.san(move) for move in moves]
    assert len(set(sans)) == len(sans), board.fen()
    for move, san in zip(moves, sans, strict=True):
        assert board.parse_san(san) == move, (board.fen(), san)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_legal_move_survives_san_round_trip(variant):
    rng = random.Random(2024)
    positions = 0
    while positions < 200:  # whole random games
        board = Board(variant)
        while not board.is_game_over():
            assert_san_round_trip(board)
            positions += 1
            board.push(rng.choice(board.legal_moves))


# --- writing ----------------------------------------------------------------------------------


def test_start_position_of_minitchess():
    board = Board("minitchess")
    assert san_list(board) == ["a3", "b3", "c3", "d3", "e3", "Na3", "Nc3"]
    assert board.parse_san("Nc3") == Move.from_uci("b1c3")


def test_pawn_capture_names_the_pawns_file():
    board = Board("minitchess", "kqbnr/p1ppp/5/2p2/PP1PP/RNBQK w - - 0 1")
    assert board.san(Move.from_uci("b2c3")) == "bxc3"
    assert board.san(Move.from_uci("d2c3")) == "dxc3"
    assert board.parse_san("bxc3") == Move.from_uci("b2c3")


def test_promotion_is_written_with_the_piece():
    board = Board("minitchess", "k4/3P1/5/5/5/4K w - - 0 1")
    assert board.san(Move.from_uci("d5d6q")) == "d6=Q"
    for text in ("d6=Q", "d6Q", "d6q", "d6"):  # minitchess promotes to a queen only
        assert board.parse_san(text) == Move.from_uci("d5d6q")


def test_promotion_choice_must_be_given_when_there_is_one():
    board = Board("chess36", "6/3P2/k5/6/6/5K[] w - - 0 1")
    assert board.parse_san("d6=N") == Move.from_uci("d5d6n")
    with pytest.raises(AmbiguousMoveError, match="d6=Q, d6=R, d6=B, d6=N"):
        board.parse_san("d6")


def test_drop_is_written_piece_at_square():
    board = Board("chess36", "k5/3K2/6/6/6/6[Q] w - - 0 1")
    drop = Move.from_uci("Q@d6")
    assert board.san(drop) == "Q@d6+"  # the queen on d6 checks the king on a6
    assert board.parse_san("Q@d6") == drop
    assert board.parse_san("q@d6") == drop
    assert board.san(Move.from_uci("d5d6")) == "Kd6"


def test_file_disambiguation():
    board = Board("minitchess", "k4/5/5/5/4K/R3R w - - 0 1")
    assert board.san(Move.from_uci("a1c1")) == "Rac1"
    assert board.san(Move.from_uci("e1c1")) == "Rec1"
    assert board.parse_san("Rec1") == Move.from_uci("e1c1")


def test_rank_disambiguation():
    board = Board("minitchess", "k4/R4/5/5/4K/R4 w - - 0 1")
    assert board.san(Move.from_uci("a1a3")) == "R1a3"
    assert board.san(Move.from_uci("a5a3")) == "R5a3"


def test_file_and_rank_disambiguation():
    board = Board("minitchess", "k4/5/5/Q4/4K/Q1Q2 w - - 0 1")
    assert board.san(Move.from_uci("a1b2")) == "Qa1b2"
    assert board.san(Move.from_uci("c1b2")) == "Qcb2"
    assert board.san(Move.from_uci("a3b2")) == "Q3b2"
    assert board.parse_san("Qa1b2") == Move.from_uci("a1b2")


@pytest.mark.parametrize(
    ("variant", "fen"),
    [("csc111", "k3/4/1R2/2RK w - - 0 1"), ("chess36", "k5/6/6/6/1R4/2R2K[] w - - 0 1")],
)
def test_check_and_mate_signs_where_the_king_is_royal(variant, fen):
    board = Board(variant, fen)
    assert board.san(Move.from_uci("c1a1")) == "Ra1#"
    assert board.san(Move.from_uci("c1c4" if variant == "csc111" else "c1c6")) in ("Rc4+", "Rc6+")
    assert board.parse_san("Ra1") == board.parse_san("Ra1#") == Move.from_uci("c1a1")


@pytest.mark.parametrize("variant", ["minitchess", "minichess-classic"])
def test_no_check_signs_where_the_king_can_be_captured(variant):
    board = Board(variant, "k4/5/5/5/5/R3K w - - 0 1")
    assert board.san(Move.from_uci("a1a5")) == "Ra5"  # attacks the king: no "+"
    assert board.san(Move.from_uci("a1a6")) == "Rxa6"  # captures it and wins: no "#"


def test_no_check_signs_in_antichess():
    board = Board("antichess", "k7/8/8/8/8/8/8/R6K w - - 0 1")
    assert san_list(board) == ["Rxa8"]


# --- lenient reading --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Nc3", "Nxc3", "Nc3+", "Nc3#", "Nc3!", "Nc3?!", " Nb1c3 "])
def test_reading_ignores_capture_check_and_annotation_marks(text):
    assert Board("minitchess").parse_san(text) == Move.from_uci("b1c3")


def test_missing_capture_mark_is_accepted():
    board = Board("minitchess", "kqbnr/p1ppp/5/2p2/PP1PP/RNBQK w - - 0 1")
    assert board.parse_san("bc3") == Move.from_uci("b2c3")


def test_board_push_san_plays_the_move():
    board = Board("minitchess")
    assert board.push_san("Nc3") == Move.from_uci("b1c3")
    assert board.push_san("b4") == Move.from_uci("b5b4")
    assert move_to_san(board, Move.from_uci("c3b5")) == "Nb5"
    assert parse_san(board, "Nxb5") == Move.from_uci("c3b5")


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "hello", "O-O", "Zc3", "Nc9", "N@"])
def test_unreadable_text_is_an_invalid_move(text):
    with pytest.raises(InvalidMoveError, match="cannot read move"):
        Board("minitchess").parse_san(text)


def test_illegal_san_names_the_legal_moves_of_that_piece():
    with pytest.raises(IllegalMoveError, match="White's legal knight moves: Na3, Nc3"):
        Board("minitchess").parse_san("Nd3")


def test_piece_without_legal_move():
    with pytest.raises(IllegalMoveError, match="White has no legal king move"):
        Board("minitchess").parse_san("Kd2")


def test_piece_the_variant_lacks():
    with pytest.raises(IllegalMoveError, match="csc111 has no knight"):
        Board("csc111").parse_san("Nc3")


def test_ambiguous_san_lists_the_candidates():
    board = Board("minitchess", "k4/5/5/5/4K/R3R w - - 0 1")
    with pytest.raises(AmbiguousMoveError, match="Rac1, Rec1"):
        board.parse_san("Rc1")


def test_san_after_the_end_says_the_game_is_over():
    board = Board("minitchess", "k4/5/5/5/5/R3K w - - 0 1")
    board.push_san("Rxa6")
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.parse_san("Kb7")


def test_illegal_move_has_no_san():
    with pytest.raises(IllegalMoveError):
        Board("minitchess").san(Move.from_uci("b1b3"))
