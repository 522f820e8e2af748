"""FEN: round trips over random games of every variant, and a clear error for every bad input."""

from __future__ import annotations

import random

import pytest

from minichess import BLACK, VARIANTS, Board, InvalidFenError

POSITIONS_PER_VARIANT = 1000
"""Positions visited by random games in each variant's round-trip test."""


def random_playout_boards(variant: str, count: int, seed: int):
    """``count`` boards met along random games of ``variant`` (each game from the start)."""
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(count):
        moves = board.legal_moves
        if not moves:
            board = Board(variant)
            moves = board.legal_moves
        board.push(rng.choice(moves))
        yield board


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fen_round_trip_over_random_games(variant):
    for board in random_playout_boards(variant, POSITIONS_PER_VARIANT, seed=36):
        fen = board.fen()
        again = Board(variant, fen)
        assert again.fen() == fen
        assert again.zobrist_hash() == board.zobrist_hash(), fen


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_start_position_fen_is_the_variants_start_fen(variant):
    assert Board(variant).fen() == VARIANTS[variant].start_fen


def test_fen_fields_are_read():
    board = Board("chess36", "rbkq1r/pppp1p/6/6/PPP1PP/R1QKBR[Nn] b - - 7 12")
    assert board.turn == BLACK
    assert board.halfmove_clock == 7
    assert board.fullmove_number == 12
    assert board.ply() == 23


def test_short_fen_without_counters_is_accepted():
    # Board and side alone (or with the castling and en-passant fields) are enough.
    assert Board("minitchess", "kqbnr/ppppp/5/5/PPPPP/RNBQK b").fen() == (
        "kqbnr/ppppp/5/5/PPPPP/RNBQK b - - 0 1"
    )
    assert Board("minitchess", "kqbnr/ppppp/5/5/PPPPP/RNBQK w - -").fen() == (
        "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1"
    )


def test_chess36_fen_without_reserve_brackets_means_empty_reserves():
    board = Board("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR w - - 0 1")
    assert board.fen() == "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[] w - - 0 1"


def test_csc111_pawn_may_stand_on_the_last_rank():
    # csc111 pawns never promote, so a white pawn on rank 4 is a real position.
    fen = "rqkP/ppp1/PPP1/RQKR w - - 0 1"
    assert Board("csc111", fen).fen() == fen


START = "kqbnr/ppppp/5/5/PPPPP/RNBQK"
"""minitchess start board, to be spoiled by the cases below."""


@pytest.mark.parametrize(
    ("variant", "fen", "message"),
    [
        # board shape
        ("minitchess", "kqbnr/pppp/5/5/PPPPP/RNBQK w - - 0 1", r"rank 5 .* 4 squares.* 5 files"),
        ("minitchess", "kqbnr/pppppp/5/5/PPPPP/RNBQK w - - 0 1", r"rank 5 .* 6 squares"),
        ("minitchess", "kqbnr/ppppp/6/5/PPPPP/RNBQK w - - 0 1", r"rank 4 .* 6 squares"),
        ("minitchess", "kqbnr/ppppp/5/PPPPP/RNBQK w - - 0 1", r"5 ranks; minitchess has 6"),
        ("minitchess", f"{START}/5 w - - 0 1", r"7 ranks; minitchess has 6"),
        # pieces
        ("minitchess", "kqbnr/ppxpp/5/5/PPPPP/RNBQK w - - 0 1", r"rank 5: 'x' is not a piece"),
        ("csc111", "rbkr/pppp/PPPP/RQKR w - - 0 1", r"b4: csc111 has no piece 'b'"),
        ("losalamos", "rbqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", r"losalamos has no piece 'b'"),
        # kings
        ("chess36", "rbkqnk/pppppp/6/6/PPPPPP/RNQKBR[] w - - 0 1", r"Black has 2 kings"),
        ("minitchess", "kqbnk/ppppp/5/5/PPPPP/RNBQK w - - 0 1", r"Black has 2 kings"),
        ("csc111", "rqkr/pppp/PPPP/RQQR w - - 0 1", r"White has 0 kings; csc111 needs"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQQBR[] w - - 0 1", r"White has 0 kings"),
        ("minitchess", "kqbnr/ppppp/5/5/PPPPP/RNBQQ b - - 0 1", r"White has no king"),
        # pawns
        ("minitchess", "kqbnr/ppppp/5/5/PPPPP/PNBQK w - - 0 1", r"a1: a white pawn .* own back"),
        ("minitchess", "kqbnp/ppppp/5/5/PPPPP/RNBQK w - - 0 1", r"e6: a black pawn .* own back"),
        ("minitchess", "kqbnP/pppp1/5/5/PPPP1/RNBQK w - - 0 1", r"e6: .* would have been promoted"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RpQKBR[] w - - 0 1", r"b1: .* would have been"),
        # the other fields
        ("minitchess", "", r"empty FEN"),
        ("minitchess", START, r"1 fields"),
        ("minitchess", f"{START} w -", r"3 fields"),
        ("minitchess", f"{START} w - - 0 1 x", r"7 fields"),
        ("minitchess", f"{START} x - - 0 1", r"side to move must be 'w' or 'b', not 'x'"),
        ("minitchess", f"{START} w KQkq - 0 1", r"castling field must be '-'"),
        ("minitchess", f"{START} w - c3 0 1", r"en passant field must be '-'"),
        ("minitchess", f"{START} w - - x 1", r"halfmove clock must be a whole number"),
        ("minitchess", f"{START} w - - -1 1", r"halfmove clock must be a whole number"),
        ("minitchess", f"{START} w - - 0 1.5", r"fullmove number must be a whole number"),
        ("minitchess", f"{START} w - - 0 0", r"fullmove number 0 must be at least 1"),
        # reserves
        ("minitchess", f"{START}[Q] w - - 0 1", r"minitchess has no reserves"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[Q w - - 0 1", r"letters in brackets"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBRQ] w - - 0 1", r"']' without '\['"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[[Q]] w - - 0 1", r"letters in brackets"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[x] w - - 0 1", r"reserve: 'x' is not"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[2] w - - 0 1", r"reserve: '2' is not"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[K] w - - 0 1", r"cannot hold 'K'"),
        ("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[p] w - - 0 1", r"cannot hold 'p'"),
        # check
        ("csc111", "k3/4/4/K2r b - - 0 1", r"White is in check but it is not White's move"),
        ("chess36", "k5/6/6/6/6/K4r[] b - - 0 1", r"White is in check"),
    ],
)
def test_bad_fen_raises_with_a_message_naming_the_problem(variant, fen, message):
    with pytest.raises(InvalidFenError, match=message):
        Board(variant, fen)


def test_invalid_fen_error_is_a_value_error():
    with pytest.raises(ValueError):
        Board("minitchess", "not a fen")


def test_set_fen_rejects_bad_input_and_keeps_the_position():
    board = Board("minitchess")
    board.push_uci("b2b3")
    with pytest.raises(InvalidFenError):
        board.set_fen("kqbnr/ppppp/5/5/PPPPP/RNBQKK w - - 0 1")
    assert board.fen() == "kqbnr/ppppp/5/1P3/P1PPP/RNBQK b - - 0 1"
    assert [m.uci() for m in board.move_stack] == ["b2b3"]


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("kqbnr/ppppp/5/5/PPPPP/RNBQK[] w - - 0 1", "no reserves"),
        ("kqbnr/ppppp/05/5/PPPPP/RNBQK w - - 0 1", "not a count of squares"),
    ],
)
def test_empty_reserve_brackets_and_zero_counts_are_rejected(fen: str, message: str) -> None:
    with pytest.raises(InvalidFenError, match=message):
        Board("minitchess", fen)
