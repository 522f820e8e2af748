"""The Board API by example: moves in and out, copies, parsing, text forms, Zobrist keys."""

from __future__ import annotations

import random

import pytest

from minichess import (
    BISHOP,
    BLACK,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    VARIANTS,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Piece,
    parse_square,
)

MINITCHESS_START = "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1"


# --- push and pop ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_push_then_pop_restores_fen_and_hash_over_random_games(variant):
    rng = random.Random(2011)
    for _ in range(6):
        board = Board(variant)
        history = [(board.fen(), board.zobrist_hash())]
        while board.legal_moves and len(history) < 120:
            board.push(rng.choice(board.legal_moves))
            history.append((board.fen(), board.zobrist_hash()))
        while board.move_stack:
            assert (board.fen(), board.zobrist_hash()) == history[len(board.move_stack)]
            board.pop()
        assert (board.fen(), board.zobrist_hash()) == history[0]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_hash_after_moves_equals_hash_of_the_same_position_set_up_fresh(variant):
    rng = random.Random(7)
    board = Board(variant)
    for _ in range(40):
        if not board.legal_moves:
            break
        board.push(rng.choice(board.legal_moves))
        assert board.zobrist_hash() == Board(variant, board.fen()).zobrist_hash()


def test_push_returns_nothing_and_records_the_move():
    board = Board()
    move = Move.from_uci("b2b3")
    board.push(move)
    assert board.move_stack == [move]
    assert board.peek() == move
    assert board.pop() == move
    assert board.fen() == MINITCHESS_START


def test_pop_on_a_fresh_board_raises_index_error():
    with pytest.raises(IndexError):
        Board().pop()


def test_rejected_move_leaves_the_board_unchanged():
    board = Board()
    for bad in ("a2a4", "b1b2", "e6e5"):
        with pytest.raises(IllegalMoveError):
            board.push_uci(bad)
    with pytest.raises(IllegalMoveError):
        board.push(Move.from_uci("a2a4"))
    assert board.fen() == MINITCHESS_START
    assert board.move_stack == []


# --- copies ----------------------------------------------------------------------------------


def test_copy_is_independent():
    board = Board("chess36")
    board.push_uci("b1a3")
    copy = board.copy()
    copy.push_uci("e6f4")
    assert board.move_stack == [Move.from_uci("b1a3")]
    assert board.turn == BLACK
    assert copy.turn == WHITE
    board.pop()
    assert copy.fen() == "rbkq1r/pppppp/5n/N5/PPPPPP/R1QKBR[] w - - 2 2"
    assert board.fen() == Board("chess36").fen()


def test_copy_keeps_or_forgets_the_history():
    board = Board("chess36")
    for move in ("b1a3", "e6f4"):
        board.push_uci(move)
    assert board.copy().move_stack == board.move_stack
    fresh = board.copy(stack=False)
    assert fresh.move_stack == []
    assert fresh.fen() == board.fen()
    with pytest.raises(IndexError):
        fresh.pop()


def test_copy_keeps_the_repetition_history():
    # The copy knows the start position was seen before, so the third repetition ends it too.
    board = Board("chess36")
    for move in ("b1a3", "e6f4", "a3b1", "f4e6", "b1a3", "e6f4", "a3b1"):
        board.push_uci(move)
    copy = board.copy()
    copy.push_uci("f4e6")
    assert copy.is_game_over()


# --- legal moves -----------------------------------------------------------------------------


def test_legal_moves_of_the_start_positions():
    assert sorted(m.uci() for m in Board("minitchess").legal_moves) == [
        "a2a3", "b1a3", "b1c3", "b2b3", "c2c3", "d2d3", "e2e3",
    ]
    assert len(Board("csc111").legal_moves) == 6
    assert len(Board("antichess").legal_moves) == 20


def test_legal_moves_is_a_fresh_list_each_time():
    board = Board()
    moves = board.legal_moves
    moves.clear()
    assert len(board.legal_moves) == 7


def test_is_legal():
    board = Board()
    assert board.is_legal(Move.from_uci("b1c3"))
    assert not board.is_legal(Move.from_uci("b1d2"))


# --- parsing moves ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "uci"), [("a2a3", "a2a3"), ("a2-a3", "a2a3"), (" b2b3 ", "b2b3"), ("b1-c3", "b1c3")]
)
def test_parse_uci_coordinate_forms(text, uci):
    assert Board().parse_uci(text).uci() == uci


PROMOTING = "5k/1P4/6/6/6/K5[] w - - 0 1"
"""chess36: the pawn b5 promotes on b6."""


@pytest.mark.parametrize(
    ("text", "uci", "imcs"),
    [
        ("b5b6q", "b5b6q", "b5-b6"),  # IMCS writes a queen promotion without a letter
        ("b5b6Q", "b5b6q", "b5-b6"),
        ("b5b6=Q", "b5b6q", "b5-b6"),
        ("b5-b6n", "b5b6n", "b5-b6n"),
    ],
)
def test_parse_uci_promotion_forms(text, uci, imcs):
    move = Board("chess36", PROMOTING).parse_uci(text)
    assert move.uci() == uci
    assert move.imcs() == imcs


def test_parse_uci_drop_in_either_case():
    board = Board("chess36", "k5/3K2/6/6/6/6[Qn] w - - 0 1")
    for text in ("Q@d6", "q@d6"):
        move = board.parse_uci(text)
        assert move == Move(parse_square("d6"), parse_square("d6"), drop=QUEEN)
        assert move.uci() == move.imcs() == "Q@d6"


@pytest.mark.parametrize("text", ["", "zz", "a2a", "a2a3a4", "B2B3", "a9a3", "i2i3", "K@d6",
                                  "P@d6", "b5b6p", "a2+a3"])
def test_unreadable_move_text_is_an_invalid_move_error(text):
    with pytest.raises(InvalidMoveError, match=r"cannot read move|not a square|not a piece"):
        Board("chess36", PROMOTING).parse_uci(text)


@pytest.mark.parametrize(
    ("variant", "fen", "text", "message"),
    [
        ("minitchess", None, "a2a4", r"a2a4 is illegal; legal moves of that piece: a2a3"),
        ("minitchess", None, "f2f3", r"f2 is not on the minitchess board \(a1-e6\)"),
        ("minitchess", None, "a1a2", r"the rook on a1 has no legal move"),
        ("minitchess", None, "e6e5", r"the piece on e6 is not White's"),
        ("minitchess", None, "c3c4", r"there is no piece on c3"),
        ("minitchess", None, "Q@d6", r"Q@d6 is not a legal drop for White"),
        ("chess36", "k5/3K2/6/6/6/6[Qn] w - - 0 1", "N@d6", r"not a legal drop for White"),
        ("chess36", PROMOTING, "b5b6k", r"legal moves of that piece: b5b6b, b5b6n, b5b6q, b5b6r"),
    ],
)
def test_well_formed_but_illegal_move_is_an_illegal_move_error(variant, fen, text, message):
    board = Board(variant, fen)
    before = board.fen()
    with pytest.raises(IllegalMoveError, match=message):
        board.push_uci(text)
    assert board.fen() == before


def test_promotion_without_piece_letter_says_which_letters_to_add():
    board = Board("chess36", PROMOTING)
    with pytest.raises(IllegalMoveError, match=r"b5b6 promotes a pawn: add the piece, one of QRBN"):
        board.parse_uci("b5b6")
    with pytest.raises(IllegalMoveError, match=r"\(e.g. b5b6q\)"):
        board.push_uci("b5-b6")
    assert board.move_stack == []


@pytest.mark.parametrize(
    ("variant", "fen", "text", "uci"),
    [
        ("minitchess", "k4/2P2/5/5/5/4K w - - 0 5", "c5c6", "c5c6q"),
        ("minitchess", "k4/2P2/5/5/5/4K w - - 0 5", "c5-c6", "c5c6q"),
        ("antichess", "8/P7/8/8/8/8/8/7k w - - 0 1", "a7a8", "a7a8q"),
    ],
)
def test_promotion_letter_may_be_left_out_where_only_a_queen_is_possible(
    variant, fen, text, uci
):
    # IMCS writes promotions without a letter; with a single choice the move is unambiguous.
    assert Board(variant, fen).parse_uci(text).uci() == uci


def test_move_on_a_finished_game_says_the_game_is_over():
    board = Board("minitchess", "k4/5/5/5/5/K3q b - - 0 40")
    board.push_uci("a6b6")
    with pytest.raises(IllegalMoveError, match=r"the game is over \(draw by move limit\)"):
        board.push_uci("a1a2")


def test_errors_are_value_errors():
    assert issubclass(InvalidMoveError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)


# --- the position ----------------------------------------------------------------------------


def test_piece_at_and_pieces():
    board = Board()
    assert board.piece_at(parse_square("a1")) == Piece.from_symbol("R")
    assert board.piece_at(parse_square("e6")) == Piece.from_symbol("r")
    assert board.piece_at(parse_square("c3")) is None
    assert board.pieces(PAWN, BLACK) == [parse_square(s) for s in ("a5", "b5", "c5", "d5", "e5")]
    assert board.king(WHITE) == parse_square("e1")
    assert board.king(BLACK) == parse_square("a6")


def test_squares_lists_only_the_board():
    assert len(list(Board("csc111").squares())) == 16
    assert len(list(Board("chess36").squares())) == 36
    assert list(Board("minitchess").squares())[:6] == [0, 1, 2, 3, 4, 8]


def test_reserve_by_colour():
    board = Board("chess36", "rbkq1r/pppp1p/6/6/PPP1PP/R1QKBR[QNNrb] w - - 0 12")
    assert board.reserve(WHITE) == {QUEEN: 1, KNIGHT: 2}
    assert board.reserve(BLACK) == {ROOK: 1, BISHOP: 1}
    assert Board("chess36").reserve(WHITE) == {}


def test_is_check():
    assert not Board("csc111").is_check()
    assert Board("csc111", "k3/4/4/K2r w - - 0 1").is_check()
    # In minitchess the king is not royal, but an attacked king is still reported.
    assert Board("minitchess", "k3r/5/5/5/P4/4K w - - 0 5").is_check()


def test_turn_and_counters():
    board = Board("chess36", "rbkq1r/pppp1p/6/6/PPP1PP/R1QKBR[QNNrb] b - - 9 12")
    assert board.turn == BLACK
    assert (board.halfmove_clock, board.fullmove_number, board.ply()) == (9, 12, 23)


def test_boards_compare_by_variant_and_position():
    moved = Board()
    moved.push_uci("b2b3")
    assert moved == Board(fen="kqbnr/ppppp/5/1P3/P1PPP/RNBQK b - - 0 1")
    assert Board("minitchess") != Board("minichess-classic")
    assert Board() != moved


# --- text ------------------------------------------------------------------------------------


def test_str_shows_the_board_from_whites_side():
    assert str(Board()) == "\n".join(
        ["k q b n r", "p p p p p", ". . . . .", ". . . . .", "P P P P P", "R N B Q K"]
    )


def test_unicode_with_and_without_coordinates():
    board = Board("csc111")
    assert board.unicode() == "\n".join(
        ["4 ♜ ♛ ♚ ♜", "3 ♟ ♟ ♟ ♟", "2 ♙ ♙ ♙ ♙", "1 ♖ ♕ ♔ ♖", "  a b c d"]
    )
    assert board.unicode(coordinates=False).splitlines()[0] == "♜ ♛ ♚ ♜"


def test_repr_names_variant_and_fen():
    assert repr(Board()) == f"Board('minitchess', fen='{MINITCHESS_START}')"


# --- Zobrist keys ----------------------------------------------------------------------------


def test_transpositions_have_equal_hashes():
    one = Board("chess36")
    two = Board("chess36")
    for move in ("a2a3", "a5a4", "b2b3", "b5b4"):
        one.push_uci(move)
    for move in ("b2b3", "b5b4", "a2a3", "a5a4"):
        two.push_uci(move)
    assert one.fen() == two.fen()
    assert one.zobrist_hash() == two.zobrist_hash()


def test_hash_tells_side_to_move_and_reserves_apart():
    white = Board("chess36", "k5/3K2/6/6/6/6[Qn] w - - 0 1")
    black = Board("chess36", "k5/3K2/6/6/6/6[Qn] b - - 0 1")
    other_reserve = Board("chess36", "k5/3K2/6/6/6/6[Nq] w - - 0 1")
    assert len({white.zobrist_hash(), black.zobrist_hash(), other_reserve.zobrist_hash()}) == 3


def test_hash_ignores_the_move_counters():
    assert (Board(fen="kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 7 9").zobrist_hash()
            == Board().zobrist_hash())
