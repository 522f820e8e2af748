"""Massey's state text: the move number and side, then the rows from the top."""

import random

import pytest

from minichess import VARIANTS, Board, InvalidFenError
from minichess.notation.massey import format_state, parse_state

RULES_EXAMPLE = """\
20 B
k.K..
rpP..
pP...
P....
.....
.....
"""


def board_from_state(variant: str, text: str) -> Board:
    board = Board(variant)
    board.set_setup(parse_state(variant, text))
    return board


def test_start_position():
    assert format_state(Board("minitchess")) == "1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n"


def test_rules_example_black_must_move_its_king_and_loses():
    board = board_from_state("minitchess", RULES_EXAMPLE)
    assert board.fen() == "k1K2/rpP2/pP3/P4/5/5 b - - 0 20"
    assert [board.san(move) for move in board.legal_moves] == ["Kb6"]
    board.push_san("Kb6")
    board.push_san("Kxb6")
    assert board.result() == "1-0"
    assert format_state(board) == "21 B\n.K...\nrpP..\npP...\nP....\n.....\n.....\n"


def test_move_number_is_the_fullmove_number():
    board = Board("minitchess")
    board.push_san("b3")
    assert format_state(board).startswith("1 B\n")
    board.push_san("b4")
    assert format_state(board).startswith("2 W\n")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_round_trip_through_random_games(variant):
    rng = random.Random(7)
    board = Board(variant)
    while not board.is_game_over():
        text = format_state(board)
        read = board_from_state(variant, text)
        assert format_state(read) == text
        assert read.fen().split()[:2] == board.fen().split()[:2]
        assert read.fullmove_number == board.fullmove_number
        board.push(rng.choice(board.legal_moves))


def test_reading_is_lenient_about_trailing_space_and_final_newline():
    assert parse_state("minitchess", RULES_EXAMPLE.rstrip("\n")) == parse_state(
        "minitchess", RULES_EXAMPLE.replace("\n", "  \n") + "\n\n"
    )


def test_a_variant_with_reserves_has_them_on_a_last_line(place):
    board = place("chess36", "Kd5 kf6 Pb5", reserve="QRn", fullmove_number=12)
    text = format_state(board)
    assert text == "12 W\n.....k\n.P.K..\n......\n......\n......\n......\n[QRn]\n"
    assert parse_state("chess36", text).reserves == board.setup().reserves
    assert format_state(Board("chess36")).endswith("RNQKBR\n[]\n")
    with pytest.raises(InvalidFenError, match="then the reserves"):
        parse_state("chess36", "1 W\n" + "......\n" * 6)
    with pytest.raises(InvalidFenError, match="line 8: expected the reserves in brackets"):
        parse_state("chess36", "1 W\n" + "......\n" * 6 + "Q\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "state text has 1 lines; a minitchess state has 7"),
        ("1 W\nkqbnr\nppppp\n", "has 3 lines"),
        ("W 1\n" + ".....\n" * 6, "line 1: expected the move number and side"),
        ("1 X\n" + ".....\n" * 6, "line 1"),
        ("0 W\nk....\n" + ".....\n" * 4 + "....K\n", "fullmove number 0 must be at least 1"),
        ("1 W\nk....\n....\n" + ".....\n" * 3 + "....K\n", "line 3: row '....' has 4 squares"),
        ("1 W\nk....\n" + ".....\n" * 3 + "..x..\n....K\n", "line 6, column 3: 'x'"),
        ("1 W\nk..P.\n" + ".....\n" * 4 + "....K\n", "d6: a white pawn on the last rank"),
        ("1 B\nk....\n" + ".....\n" * 5, "White has no king but has just moved"),
    ],
)
def test_bad_state_text_says_what_and_where(text, message):
    with pytest.raises(InvalidFenError, match=message):
        parse_state("minitchess", text)


def test_other_board_sizes_use_their_own_width():
    text = "1 W\nrqkr\npppp\nPPPP\nRQKR\n"
    assert format_state(board_from_state("csc111", text)) == text
    with pytest.raises(InvalidFenError, match="csc111 has 4 files"):
        parse_state("csc111", "1 W\nrqkr.\npppp\nPPPP\nRQKR\n")
