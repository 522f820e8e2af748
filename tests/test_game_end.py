"""How games end in each variant (RULES.md), by hand-built positions and short move sequences.

Every finished game is checked the same way: ``outcome()`` gives the termination and winner,
``result()`` the score, ``is_game_over()`` is true and ``legal_moves`` is empty.
"""

from __future__ import annotations

import pytest

from minichess import BLACK, QUEEN, WHITE, Board, Termination, parse_square
from minichess.pieces import Color

DRAW = None


def assert_over(board: Board, termination: Termination, winner: Color | None) -> None:
    """The game on ``board`` has ended by ``termination``, won by ``winner`` (None: drawn)."""
    outcome = board.outcome()
    assert outcome is not None, f"{board.fen()} should be over"
    assert outcome.termination == termination
    assert outcome.winner == winner
    assert board.result() == {WHITE: "1-0", BLACK: "0-1", DRAW: "1/2-1/2"}[winner]
    assert board.is_game_over()
    assert board.legal_moves == []


def assert_going_on(board: Board) -> None:
    """The game on ``board`` has not ended."""
    assert board.outcome() is None
    assert board.result() == "*"
    assert not board.is_game_over()
    assert board.legal_moves


def play(variant: str, fen: str, *moves: str) -> Board:
    """A board of ``variant`` from ``fen`` after ``moves`` (coordinate notation)."""
    board = Board(variant, fen)
    for move in moves:
        board.push_uci(move)
    return board


# White to move, and not one white piece can move: the king a1 is boxed in by its rooks and
# pawns, every pawn is blocked (a5 by the black king, the others by their own pieces) and has
# only own pieces diagonally ahead, the rook b5 is walled in, and the bishops on rank 6 are
# surrounded by their own pieces (their quiet steps in minitchess need an empty square: a6 is not).
FROZEN_WHITE = "kBBBB/PRPPP/PPPPP/PPPPP/PPPPP/KRRRR w - - 0 10"

# RULES.md's example of Massey's state text: "20 B / k.K.. / rpP.. / pP... / P.... / ..... /
# .....". Black's only move is the king to b6, where White takes it.
MASSEY_EXAMPLE = "k1K2/rpP2/pP3/P4/5/5 b - - 0 20"


# --- minitchess ------------------------------------------------------------------------------


def test_minitchess_massey_example_black_must_walk_into_capture():
    board = Board("minitchess", MASSEY_EXAMPLE)
    assert board.fullmove_number == 20
    assert board.turn == BLACK
    assert [m.uci() for m in board.legal_moves] == ["a6b6"]
    board.push_uci("a6b6")
    # Moving into "check" is legal in minitchess, and the game goes on until the king is taken.
    assert_going_on(board)
    board.push_uci("c6b6")
    assert_over(board, Termination.KING_CAPTURED, WHITE)


def test_minitchess_king_may_stay_attacked_and_capturing_it_wins():
    # The white king e1 is attacked by the rook e6; White may ignore that (a2a3 is legal).
    board = Board("minitchess", "k3r/5/5/5/P4/4K w - - 0 5")
    assert board.is_check()
    board.push_uci("a2a3")
    board.push_uci("e6e1")
    assert_over(board, Termination.KING_CAPTURED, BLACK)


def test_minitchess_no_legal_move_loses():
    assert_over(Board("minitchess", FROZEN_WHITE), Termination.NO_LEGAL_MOVES, BLACK)


def test_minitchess_drawn_right_after_blacks_fortieth_move():
    # Fullmove 40 with Black to move: 79 plies played. Black's move is the 80th: drawn.
    fen = "k4/5/5/5/5/K3q b - - 0 40"
    board = Board("minitchess", fen)
    assert_going_on(board)
    board.push_uci("a6b6")
    # The move number would become 41: the game is drawn instead.
    assert board.fullmove_number == 41
    assert_over(board, Termination.MOVE_LIMIT, DRAW)


def test_minitchess_king_capture_on_blacks_fortieth_move_still_wins():
    board = play("minitchess", "k4/5/5/5/5/K3q b - - 0 40", "e1a1")
    assert_over(board, Termination.KING_CAPTURED, BLACK)


def test_minitchess_whites_fortieth_move_does_not_end_the_game():
    board = play("minitchess", "k4/5/5/5/P4/K3q w - - 0 40", "a2a3")
    assert board.ply() == 79
    assert_going_on(board)


def test_minitchess_move_numbers_go_up_after_blacks_move():
    board = Board("minitchess")
    assert (board.fullmove_number, board.ply()) == (1, 0)
    board.push_uci("b2b3")
    assert (board.fullmove_number, board.ply()) == (1, 1)
    board.push_uci("b5b4")
    assert (board.fullmove_number, board.ply()) == (2, 2)


def test_minitchess_pawn_always_becomes_a_queen():
    board = Board("minitchess", "k4/2P2/5/5/5/4K w - - 0 5")
    assert {m.uci() for m in board.legal_moves if m.from_square == parse_square("c5")} == {
        "c5c6q"
    }
    board.push_uci("c5c6q")
    assert board.piece_at(parse_square("c6")).piece_type == QUEEN


# --- minichess-classic -----------------------------------------------------------------------


def test_classic_no_legal_move_draws():
    # The same frozen position as in minitchess (an ordinary bishop has no step either).
    assert_over(Board("minichess-classic", FROZEN_WHITE), Termination.NO_LEGAL_MOVES, DRAW)


@pytest.mark.parametrize(
    "fen",
    [
        "k4/5/5/5/5/K4 w - - 0 10",  # king against king
        "k4/5/5/5/5/KN3 w - - 0 10",  # king and knight against king
        "k4/5/5/5/5/KB3 b - - 0 10",  # king and bishop against king
        "kb3/5/5/5/5/K4 w - - 0 10",  # Black's bishop
    ],
)
def test_classic_bare_king_against_king_and_minor_draws_at_once(fen):
    assert_over(Board("minichess-classic", fen), Termination.INSUFFICIENT_MATERIAL, DRAW)


@pytest.mark.parametrize(
    "fen",
    [
        "kn3/5/5/5/5/KB3 w - - 0 10",  # neither side has only a king
        "k4/5/5/5/5/KNN2 w - - 0 10",  # two knights
        "k4/5/5/5/p4/KN3 w - - 0 10",  # a pawn
    ],
)
def test_classic_other_material_plays_on(fen):
    assert_going_on(Board("minichess-classic", fen))


def test_classic_capture_leaving_king_against_king_and_bishop_draws():
    board = play("minichess-classic", "k4/5/5/5/p4/KB3 w - - 0 10", "a1a2")
    assert_over(board, Termination.INSUFFICIENT_MATERIAL, DRAW)


def test_classic_king_capture_wins():
    board = play("minichess-classic", "k3r/5/5/5/P4/4K w - - 0 5", "a2a3", "e6e1")
    assert_over(board, Termination.KING_CAPTURED, BLACK)


# --- antichess -------------------------------------------------------------------------------


def test_antichess_capture_is_compulsory():
    # After 1. e3 b5 White can take b5 with the bishop f1: only that capture is listed.
    board = play("antichess", Board("antichess").fen(), "e2e3", "b7b5")
    assert [m.uci() for m in board.legal_moves] == ["f1b5"]


def test_antichess_free_choice_among_captures():
    # The pawn d4 can take c5 or e5: both captures are listed, and nothing else.
    board = Board("antichess", "8/8/8/2p1p3/3P4/8/8/8 w - - 0 1")
    assert {m.uci() for m in board.legal_moves} == {"d4c5", "d4e5"}


def test_antichess_king_is_captured_and_play_goes_on():
    # White's king a1 must take the black king b2 (the only capture); Black plays on.
    board = play("antichess", "8/7p/8/8/8/8/1k5P/K7 w - - 0 1", "a1b2")
    assert board.king(BLACK) is None
    assert_going_on(board)
    assert {m.uci() for m in board.legal_moves} == {"h7h6", "h7h5"}


def test_antichess_king_may_move_onto_an_attacked_square():
    # No check in antichess: b1 is attacked by the rook c1 and the king may still go there.
    board = Board("antichess", "7k/8/8/8/8/8/8/K1r5 w - - 0 1")
    assert {m.uci() for m in board.legal_moves} == {"a1a2", "a1b1", "a1b2"}


def test_antichess_side_without_pieces_wins():
    # White takes Black's last piece; Black, to move with nothing left, wins.
    board = play("antichess", "8/8/8/8/8/8/1k6/K7 w - - 0 1", "a1b2")
    assert_over(board, Termination.NO_LEGAL_MOVES, BLACK)


def test_antichess_side_with_all_pieces_blocked_wins():
    # White's only piece, the pawn a4, is blocked by a5 and has nothing to take: White wins.
    assert_over(Board("antichess", "7k/8/8/p7/P7/8/8/8 w - - 0 1"),
                Termination.NO_LEGAL_MOVES, WHITE)


def test_antichess_pawn_double_step_from_start_rank():
    board = Board("antichess")
    assert {"e2e3", "e2e4"} <= {m.uci() for m in board.legal_moves}


def test_antichess_pawn_promotes_to_queen_only():
    board = Board("antichess", "8/P7/8/8/8/8/8/7k w - - 0 1")
    assert [m.uci() for m in board.legal_moves if m.from_square == parse_square("a7")] == [
        "a7a8q"
    ]


def test_antichess_fifty_move_decision():
    # 99 plies without capture or pawn move; a king move makes it 100: drawn.
    board = Board("antichess", "8/7p/8/8/8/8/7P/K6k w - - 99 80")
    assert_going_on(board)
    board.push_uci("a1b1")
    assert_over(board, Termination.FIFTY_MOVES, DRAW)


def test_antichess_pawn_move_resets_the_clock():
    board = play("antichess", "8/7p/8/8/8/8/7P/K6k w - - 99 80", "h2h3")
    assert board.halfmove_clock == 0
    assert_going_on(board)


# --- csc111 ----------------------------------------------------------------------------------


def test_csc111_pawn_on_last_rank_stays_a_pawn_without_moves():
    board = Board("csc111", "3k/P3/4/K3 w - - 0 3")
    board.push_uci("a3a4")
    assert board.piece_at(parse_square("a4")).symbol() == "P"
    board.push_uci("d4d3")
    assert not [m for m in board.legal_moves if m.from_square == parse_square("a4")]


def test_csc111_pawn_move_to_last_rank_takes_no_promotion_letter():
    board = Board("csc111", "3k/P3/4/K3 w - - 0 3")
    assert "a3a4" in {m.uci() for m in board.legal_moves}
    assert not [m for m in board.legal_moves if m.promotion]


def test_csc111_checkmate_loses():
    # Queen b3 (guarded by the king c2) checks a4; a3 and b4 are covered too.
    assert_over(Board("csc111", "k3/1Q2/2K1/4 b - - 0 10"), Termination.CHECKMATE, WHITE)


def test_csc111_no_legal_move_without_check_also_loses():
    # The queen c3 covers a3, b3 and b4 but not a4: no legal move, which loses in csc111 (the
    # termination is "no legal move"; "stalemate" is kept for the drawn case).
    board = Board("csc111", "k3/2Q1/4/3K b - - 0 10")
    assert not board.is_check()
    assert_over(board, Termination.NO_LEGAL_MOVES, WHITE)


MATE_IN_ONE_FOR_BLACK = "4/2k1/3q/K3 b - - 0 {fullmove}"
"""Qd2-b2 mates the king a1 (b2 is guarded by the king c3)."""


def test_csc111_mate_before_the_fiftieth_ply_wins():
    board = play("csc111", MATE_IN_ONE_FOR_BLACK.format(fullmove=24), "d2b2")
    assert board.ply() == 48
    assert_over(board, Termination.CHECKMATE, BLACK)


def test_csc111_mate_on_the_fiftieth_ply_is_a_draw():
    # The 50-ply draw is checked before anything else.
    board = play("csc111", MATE_IN_ONE_FOR_BLACK.format(fullmove=25), "d2b2")
    assert board.ply() == 50
    assert_over(board, Termination.MOVE_LIMIT, DRAW)


def test_csc111_pinned_piece_and_check_legality():
    # The rook b2 is pinned to its king b1 by the rook b4: it may only move along the b-file.
    board = Board("csc111", "1r1k/4/1R2/1K2 w - - 0 3")
    assert {m.uci() for m in board.legal_moves if m.from_square == parse_square("b2")} == {
        "b2b3", "b2b4",
    }
    # The king's own moves: a1, c1, a2 and c2 are not attacked by the rook b4 or the king d4.
    assert {m.uci() for m in board.legal_moves if m.from_square == parse_square("b1")} == {
        "b1a1", "b1c1", "b1a2", "b1c2",
    }


# --- gardner and losalamos -------------------------------------------------------------------


def test_gardner_promotion_choices():
    board = Board("gardner", "4k/P4/5/5/K4 w - - 0 3")
    assert {m.uci() for m in board.legal_moves if m.from_square == parse_square("a4")} == {
        "a4a5q", "a4a5r", "a4a5b", "a4a5n",
    }


def test_losalamos_promotion_choices_have_no_bishop():
    board = Board("losalamos", "5k/P5/6/6/6/K5 w - - 0 3")
    assert {m.uci() for m in board.legal_moves if m.from_square == parse_square("a5")} == {
        "a5a6q", "a5a6r", "a5a6n",
    }


@pytest.mark.parametrize("variant", ["gardner", "losalamos"])
def test_gardner_and_losalamos_pawns_step_once(variant):
    board = Board(variant)
    assert all(abs(m.to_square - m.from_square) == 8 for m in board.legal_moves
               if board.piece_at(m.from_square).symbol() == "P")


def test_gardner_checkmate_and_stalemate():
    # The queen b4, guarded by the king c3, checks a5 and covers a4 and b5: checkmate.
    assert_over(Board("gardner", "k4/1Q3/2K2/5/5 b - - 0 9"), Termination.CHECKMATE, WHITE)
    # The queen c4 covers a4, b4 and b5 but not a5: stalemate, a draw.
    assert_over(Board("gardner", "k4/2Q2/5/5/4K b - - 0 9"), Termination.STALEMATE, DRAW)
