"""The IMCS protocol's pieces without a network: framing, times, moves, the state block, the
end lines and the rating rule, as the original server has them."""

from __future__ import annotations

import pytest

from minichess.board import Board
from minichess.notation.massey import format_state
from minichess.protocols.imcs.protocol import (
    EOL,
    IllegalMove,
    InvalidMove,
    LineSplitter,
    OverlongLine,
    Resign,
    end_lines,
    format_clock,
    format_offer_time,
    help_lines,
    move_text,
    multiline,
    parse_clock,
    parse_offer_time,
    rating_change,
    read_color,
    read_move,
    sanitize,
    turn_prompt,
    words,
)
from minichess.protocols.imcs.protocol import decode as decode_line

# --- framing -----------------------------------------------------------------------------------


def test_lines_end_in_crlf_lf_cr_or_cr_nul():
    splitter = LineSplitter()
    assert splitter.feed(b"a\r\nb\nc\rd\r\x00e\n") == [b"a", b"b", b"c", b"d", b"e"]


def test_a_line_may_arrive_in_pieces_and_a_cr_at_the_end_of_one_is_not_doubled():
    splitter = LineSplitter()
    assert splitter.feed(b"li") == []
    assert splitter.pending
    assert splitter.feed(b"st\r") == [b"list"]
    assert splitter.feed(b"\nhelp\r") == [b"help"]
    assert splitter.feed(b"\r") == [b""]
    assert not splitter.pending


def test_an_overlong_line_is_cut_and_marked_when_it_ends():
    splitter = LineSplitter(max_line=8)
    assert splitter.feed(b"0123456789" * 100) == []
    assert splitter.feed(b"xyz\nok\n") == [OverlongLine(b"01234567"), b"ok"]


def test_bytes_that_are_not_utf8_are_quoted_by_value():
    text = decode_line(b"a\xffb\x01\\")
    assert sanitize(text) == "a\\[ff]b\\[01]\\\\"
    assert sanitize("é") == "é"


def test_words_split_on_the_white_space_of_the_original():
    assert words(" me\talice \x0b pw \xa0") == ["me", "alice", "pw"]
    assert words("a\x1cb") == ["a\x1cb"]


# --- times and colours -------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "ms"), [
    ("300", 300_000), ("5:00", 300_000), ("0:45", 45_000), ("10:05", 605_000), ("0", 0),
    ("5:0", None), ("5:000", None), ("-3", None), ("1.5", None), ("", None), ("1" * 9, None),
])
def test_offer_times_are_seconds_or_minutes_and_two_digit_seconds(text, ms):
    assert parse_offer_time(text) == ms


def test_clock_formats():
    assert format_offer_time(300_000) == "5:00"
    assert format_offer_time(59_999) == "0:59"
    assert format_clock(300_000) == "05:00.000"
    assert format_clock(1) == "00:00.001"
    assert format_clock(0) == "00:00.000"
    assert parse_clock("04:58.123") == 298_123
    with pytest.raises(ValueError):
        parse_clock("4m")


def test_colours_as_the_original_reads_them():
    assert [read_color(c) for c in ("W", "w", "B", "b", "?", "x", "white")] == [
        "W", "W", "B", "B", "?", None, None]


# --- turns and moves ---------------------------------------------------------------------------


def test_the_first_prompt_byte_for_byte():
    prompt = "".join(line + EOL for line in turn_prompt(format_state(Board()), 300_000, 300_000))
    assert prompt.encode() == (b"\r\n1 W\nkqbnr\nppppp\n.....\n.....\nPPPPP\nRNBQK\n\r\n"
                               b"? 05:00.000 05:00.000\r\n")


def test_moves_are_read_in_imcs_and_coordinate_forms():
    board = Board()
    assert read_move(board, "a2-a3") == board.parse_uci("a2a3")
    assert read_move(board, "! b2-b3") == board.parse_uci("b2b3")
    assert read_move(board, "  c2c3 ") == board.parse_uci("c2c3")
    assert isinstance(read_move(board, "resign"), Resign)


@pytest.mark.parametrize(("line", "reply"), [
    ("a1-a6", "- illegal move a1-a6"),
    ("! e6-e5", "- illegal move e6-e5"),
    ("zz", "- invalid move zz"),
    ("f1-f2", "- invalid move f1-f2"),
    ("A2-A3", "- invalid move A2-A3"),
    ("a2 - a3", "- invalid move a2 - a3"),
    ("", "- invalid move "),
    ("resign now", "- invalid move resign now"),
])
def test_illegal_and_invalid_moves_are_quoted_back(line, reply):
    answer = read_move(Board(), line)
    assert isinstance(answer, IllegalMove | InvalidMove)
    assert answer.reply() == reply


def test_moves_are_written_as_the_server_writes_them(place):
    assert move_text(Board().parse_uci("a2a3"), Board().variant) == "a2-a3"
    promotion = place("minitchess", "Pa5 Ke1 ke6")
    assert move_text(promotion.parse_uci("a5a6"), promotion.variant) == "a5-a6"
    chess36 = place("chess36", "Pb5 Kd1 kf6")
    for letter in "qrbn":
        move = chess36.parse_uci(f"b5b6{letter}")
        assert move_text(move, chess36.variant) == f"b5-b6{letter}"
        assert chess36.parse_uci(move_text(move, chess36.variant)) == move


# --- the end and ratings -----------------------------------------------------------------------


def test_end_lines():
    assert end_lines(True) == ("= W wins", "231 W wins")
    assert end_lines(False, "resignation") == ("= B wins on opponent resignation",
                                               "232 B wins on opponent resignation")
    assert end_lines(True, "time") == ("= W wins on opponent time", "231 W wins on opponent time")
    assert end_lines(None) == ("= draw", "230 draw")


@pytest.mark.parametrize(("rating", "opponent", "score", "change"), [
    (1000, 1000, 1.0, 16), (1000, 1000, 0.0, -16), (1000, 1000, 0.5, 0),
    (1200, 1000, 1.0, 7), (1000, 1200, 0.0, -8), (1000, 1200, 1.0, 24), (1000, 1200, 0.5, 8),
])
def test_ratings_change_by_floor_of_k_times_score_minus_expected(rating, opponent, score, change):
    assert rating_change(rating, opponent, score) == change


def test_help_lists_the_original_commands_first_then_ours():
    lines = help_lines()
    assert lines[:12] == [
        "210 imcs 2.5 help",
        " help: this help",
        " quit: quit imcs",
        " me <player> <password>: log in",
        " register <player> <password>: register a new name and log in",
        " password <password>: change password",
        " list: list available games",
        " ratings: list player ratings (top 10 plus own)",
        " offer [<my-color>] [<my-time> [<opp-time>]]: offer a game with given constraints",
        " accept <game-id> [<my-color>]: accept a game with an opponent",
        " clean: cancel all my outstanding offers",
        " rerate: reset my rating to the starting default",
    ]
    assert any(line.startswith(" observe <game-id>:") for line in lines)
    assert not any(line.startswith(" stop") for line in lines)
    assert any(line.startswith(" stop") for line in help_lines(admin=True))


def test_rows_of_our_replies_that_start_with_a_dot_get_another():
    assert multiline("217 pgn", ["[Event]", ".x", ""]) == ["217 pgn", "[Event]", "..x", "", "."]
