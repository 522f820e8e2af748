"""chess36's own rules, pinned by hand-built positions (there is no outside oracle for them).

Every expected answer is worked out from RULES.md in the comment beside it. Positions are built
with the ``place`` fixture: ``place("chess36", "Kd5 ka1 Pf2", reserve="QRBN")``. Most positions
carry a spare pawn so that the material is not insufficient (which would end the game at once).
"""

from __future__ import annotations

import pytest

from minichess import BISHOP, BLACK, KNIGHT, QUEEN, ROOK, WHITE, Board, Termination, parse_square

C36 = "chess36"


# --- knight ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pieces", "knight", "expected"),
    [
        # Nothing on the 8 squares around c3: it steps one square in any direction, like a king.
        ("Kf1 Pf2 Nc3 ke6", "c3", {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}),
        # Lone on the edge: the five squares around a3.
        ("Kf1 Pf2 Na3 ke6", "a3", {"a2", "a4", "b2", "b3", "b4"}),
        # Lone in the corner: the three squares around a1.
        ("Kf1 Pf2 Na1 ke6", "a1", {"a2", "b1", "b2"}),
    ],
)
def test_lone_knight_steps_like_a_king(place, targets_of, pieces, knight, expected):
    assert targets_of(place(C36, pieces), knight) == expected


@pytest.mark.parametrize(
    ("pieces", "knight", "expected"),
    [
        # Own pawn on c4 (orthogonally adjacent): the 8 knight jumps from c3 (a2 a4 b1 b5 d1 d5
        # e2 e4) plus the orthogonal steps b3 c2 d3; c4 itself is taken by its own pawn.
        ("Kf1 Pf2 Nc3 Pc4 ke6", "c3",
         {"a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4", "b3", "c2", "d3"}),
        # An enemy pawn on d4 (diagonally adjacent) is a neighbour too. The knight then jumps and
        # steps N, S, E, W (c4 b3 c2 d3); it never moves diagonally, so it cannot take on d4.
        ("Kf1 Pf2 Nc3 pd4 ke6", "c3",
         {"a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4", "c4", "b3", "c2", "d3"}),
        # Edge: own pawn b4 beside a3. Jumps b1 b5 c2 c4, orthogonal steps a2 a4 b3.
        ("Kf1 Pf2 Na3 Pb4 ke6", "a3", {"b1", "b5", "c2", "c4", "a2", "a4", "b3"}),
        # Corner: own bishop b1 beside a1. Jumps b3 c2, orthogonal step a2 (b1 is its own).
        ("Kf1 Pf2 Na1 Bb1 ke6", "a1", {"b3", "c2", "a2"}),
        # Corner with an enemy neighbour on b2 (diagonal): jumps b3 c2, steps a2 b1; no b2.
        ("Kf1 Pf2 Na1 pb2 ke6", "a1", {"b3", "c2", "a2", "b1"}),
    ],
)
def test_knight_with_a_neighbour_jumps_or_steps_orthogonally(
    place, targets_of, pieces, knight, expected
):
    assert targets_of(place(C36, pieces), knight) == expected


def test_knight_with_a_neighbour_captures_by_jump_and_by_orthogonal_step(place, targets_of):
    # Neighbour: the enemy rook on c4 (orthogonal), which it may take by the step; the enemy
    # bishop on e4 it may take by the jump c3-e4.
    board = place(C36, "Kf1 Pf2 Nc3 rc4 be4 ke6")
    assert {"c4", "e4"} <= targets_of(board, "c3")


def test_king_may_step_away_from_a_lone_knight_onto_its_jump_square(place, targets_of):
    # The black knight c4 has the white king d3 as its only neighbour. Where the king goes, the
    # knight is judged anew: on d2 or e3 (jump squares of c4) the knight is lone again and only
    # attacks the squares around c4, so both are safe. On c3 or d4 (orthogonally next to c4) the
    # knight has a neighbour and attacks them by its orthogonal step. c2, e2 and e4 are neither
    # jumps nor adjacent; c4 takes the undefended knight.
    board = place(C36, "Kd3 Pa2 nc4 kf6")
    assert targets_of(board, "d3") == {"c2", "d2", "e2", "e3", "e4", "c4"}


def test_knight_never_attacks_a_diagonally_adjacent_square(place, targets_of):
    # King d3 stands diagonally next to the knight c4: the knight has a neighbour (the king) and
    # then attacks only jumps and orthogonal steps, so d3 is not attacked.
    assert not place(C36, "Kd3 Pa2 nc4 kf6").is_check()
    # A king may also step diagonally next to a lone knight: e2-d3 is legal.
    assert "d3" in targets_of(place(C36, "Ke2 Pa2 nc4 kf6"), "e2")


def test_knight_gives_check_by_jump_only_with_a_neighbour(place):
    # c4-e3 is a knight jump. With the black pawn c5 beside it the knight jumps: check.
    assert place(C36, "Ke3 Pa2 nc4 pc5 kf6").is_check()
    # Alone, the knight only steps to adjacent squares: e3 is not attacked.
    assert not place(C36, "Ke3 Pa2 nc4 pf5 kf6").is_check()


def test_check_by_knight_orthogonal_step_and_escape_to_its_jump_square(place, targets_of):
    # The knight d6 has the king d5 as neighbour and attacks d5 by its orthogonal step: check.
    # The king may go to c4 or e4 (jump squares of d6): d6 has no neighbour there any more. c5
    # and e5 are diagonal to d6 (never attacked); c6 and e6 orthogonal (attacked); d4 is neither
    # and d6 takes the knight. The pawn f2 may not move: it does not answer the check.
    board = place(C36, "Kd5 ka1 Pf2 nd6")
    assert board.is_check()
    assert {m.uci() for m in board.legal_moves} == {
        "d5c4", "d5e4", "d5c5", "d5e5", "d5d4", "d5d6",
    }


def test_moving_the_only_neighbour_away_answers_a_knight_jump_check(place, legal):
    # The black knight b3 jumps to a1 because the white pawn c4 stands beside it: check. After
    # c4-c5 the knight has no neighbour and only steps to the squares around b3: a1 is safe,
    # so the pawn move answers the check. The king may go to a2 (diagonal to b3: never
    # attacked) or b1 (neither a jump nor next to b3); b2 is an orthogonal step of the knight.
    board = place(C36, "Ka1 Pc4 nb3 kf6 pa5")
    assert board.is_check()
    assert legal(board) == {"c4c5", "a1a2", "a1b1"}


def test_a_piece_arriving_beside_a_lone_knight_lets_it_jump_at_the_king(place, targets_of):
    # The black knight c2 has no neighbour: it only steps around c2, so a1 (a jump square of
    # c2) is not attacked. A white piece arriving on b1, c1 or d1 gives it a neighbour; it then
    # jumps to a1 and the move would leave the king in check. The rook's other moves are legal.
    board = place(C36, "Ka1 Re1 Pf2 nc2 kf6 pa5")
    assert not board.is_check()
    assert targets_of(board, "e1") == {"e2", "e3", "e4", "e5", "e6", "f1"}
    # The king itself may go next to the knight on b1 (diagonal to c2, so not attacked once
    # the knight jumps), but not on b2 (an orthogonal step of the knight); a2 is out of reach.
    assert targets_of(board, "a1") == {"a2", "b1"}


# --- bishop ------------------------------------------------------------------------------------


def test_bishop_slides_diagonally_and_steps_orthogonally(place, targets_of):
    # Diagonals from c3: b2 a1, d2 e1, b4 a5, d4 e5 f6; plus the orthogonal steps b3 c2 c4 d3
    # (one square only).
    board = place(C36, "Kf1 Pf2 Bc3 ke6")
    assert targets_of(board, "c3") == {
        "b2", "a1", "d2", "e1", "b4", "a5", "d4", "e5", "f6", "b3", "c2", "c4", "d3",
    }


def test_bishop_orthogonal_step_may_capture(place, targets_of):
    # Decision in RULES.md: the orthogonal step captures like any ordinary move. c4 (pawn) and
    # b3 (knight) are taken by the step; the step is still one square (no c5).
    board = place(C36, "Kf1 Pf2 Bc3 pc4 nb3 ke6")
    reached = targets_of(board, "c3")
    assert {"c4", "b3"} <= reached
    assert "c5" not in reached


# --- pawn --------------------------------------------------------------------------------------


def test_pawn_moves_one_step_even_from_its_start_rank(place, targets_of):
    # b2 is White's pawn start rank; chess36 has no double step, so b4 is out.
    assert targets_of(place(C36, "Ka1 Pb2 kf6"), "b2") == {"b3"}
    assert {m.uci() for m in Board(C36).legal_moves if m.uci()[1] == "2"} == {
        "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3",
    }


def test_pawn_captures_diagonally_forward_only(place, targets_of):
    # Blocked by the bishop b3, the pawn can only take the pawn c3 (diagonally forward); the
    # knight c1, diagonally behind it, is out of its reach.
    assert targets_of(place(C36, "Ka1 Pb2 bb3 pc3 nc1 kf6"), "b2") == {"c3"}


def test_pawn_promotes_to_each_of_queen_rook_bishop_knight(place):
    # b6 straight ahead and c6 by capture: each with the four choices of RULES.md.
    board = place(C36, "Ka1 Pb5 rc6 kf6")
    promotions = {m.uci() for m in board.legal_moves if m.from_square == parse_square("b5")}
    assert promotions == {f"b5{t}{p}" for t in ("b6", "c6") for p in "qrbn"}


@pytest.mark.parametrize(("letter", "symbol"), [("q", "Q"), ("r", "R"), ("b", "B"), ("n", "N")])
def test_promotion_puts_the_chosen_piece_on_the_last_rank(place, letter, symbol):
    board = place(C36, "Ka1 Pb5 kf6")
    board.push_uci(f"b5b6{letter}")
    assert board.piece_at(parse_square("b6")).symbol() == symbol
    assert board.halfmove_clock == 0


# --- king re-entry -----------------------------------------------------------------------------


def test_reentry_offers_one_drop_per_reserve_type(place, legal):
    # White king d5 is one rank before Black's back rank (6) and not in check; d6 is empty.
    # The reserve holds Q, R, B, N: one drop of each onto d6, beside the ordinary moves.
    board = place(C36, "Kd5 ka1 Pf2", reserve="QRBNqrbn", halfmove_clock=7, fullmove_number=30)
    drops = {u for u in legal(board) if "@" in u}
    assert drops == {"Q@d6", "R@d6", "B@d6", "N@d6"}


def test_reentry_drop_keeps_the_king_and_takes_one_piece_from_the_reserve(place):
    board = place(C36, "Kd5 ka1 Pf2", reserve="QRBNqrbn", halfmove_clock=7, fullmove_number=30)
    board.push_uci("R@d6")
    assert board.piece_at(parse_square("d6")).symbol() == "R"
    assert board.king(WHITE) == parse_square("d5")  # the king stays where it is
    assert board.reserve(WHITE) == {QUEEN: 1, BISHOP: 1, KNIGHT: 1}
    assert board.reserve(BLACK) == {QUEEN: 1, ROOK: 1, BISHOP: 1, KNIGHT: 1}
    # A drop is neither a capture nor a pawn move: the halfmove clock goes on counting.
    assert board.halfmove_clock == 8
    assert board.fen() == "3R2/3K2/6/6/5P/k5[QBNqrbn] b - - 8 30"


def test_black_reentry_on_whites_back_rank_written_upper_or_lower_case(place):
    # Black king d2 is one rank before White's back rank (1). The drop is written with an
    # upper-case letter for both colours; lower case is accepted on input.
    board = place(C36, "Kf6 Pa3 kd2", turn="b", reserve="QRBNqrbn")
    assert {m.uci() for m in board.legal_moves if m.drop} == {"Q@d1", "R@d1", "B@d1", "N@d1"}
    move = board.push_uci("q@d1")
    assert move.uci() == "Q@d1"
    assert board.piece_at(parse_square("d1")).symbol() == "q"
    assert board.reserve(BLACK) == {ROOK: 1, BISHOP: 1, KNIGHT: 1}


def test_reentry_square_may_be_attacked(place, legal):
    # The rook a6 attacks d6, so the king may not step there, but a piece may be dropped there.
    board = place(C36, "Kd5 kf1 Pa2 ra6", reserve="N")
    assert "d5d6" not in legal(board)
    assert "N@d6" in legal(board)


@pytest.mark.parametrize(
    ("pieces", "reserve", "why"),
    [
        ("Kd4 ka1 Pf2", "QRBN", "the king is two ranks before Black's back rank"),
        ("Kd6 ka1 Pf2", "QRBN", "the king stands on Black's back rank itself"),
        ("Kd5 ka1 Pf2 ra5", "QRBN", "the king is in check (rook a5 along rank 5)"),
        ("Kd5 ka1 Pf2 bd6", "QRBN", "the square ahead is occupied (by an enemy piece)"),
        ("Kd5 ka1 Pf2 Nd6", "QRBN", "the square ahead is occupied (by an own piece)"),
        ("Kd5 ka1 Pf2", "", "the reserve is empty"),
        ("Kd5 ka1 Pf2", "qrbn", "only Black's reserve holds pieces"),
    ],
)
def test_reentry_refused(place, legal, pieces, reserve, why):
    board = place(C36, pieces, reserve=reserve)
    assert not [u for u in legal(board) if "@" in u], why


def test_reentry_drop_with_a_knight_beside_the_drop_square(place, legal):
    # The rule says a drop must not leave the own king in check. A drop only adds a piece on the
    # square straight ahead of a king that is not in check: it can block lines but open none, and
    # every square next to the drop square is also next to the king, so any knight there already
    # has the king as a neighbour and its attacks do not change. The black knight c6 (neighbour:
    # the king d5) attacks b4 d4 a5 e5 b6 d6 c5 ... but not d5, before and after N@d6.
    board = place(C36, "Kd5 ka1 Pf2 nc6 pb5", reserve="N")
    assert not board.is_check()
    assert "N@d6" in legal(board)
    board.push_uci("N@d6")
    board.push_uci("a1a2")
    assert not board.is_check()


def test_only_the_reserve_types_present_can_be_dropped(place, legal):
    board = place(C36, "Kd5 ka1 Pf2", reserve="N")
    assert {u for u in legal(board) if "@" in u} == {"N@d6"}


# --- reserves ----------------------------------------------------------------------------------


def test_captured_piece_goes_to_its_owners_reserve(place):
    # The knight c4 (neighbour: the pawn c5) jumps to b6 and takes the rook, which goes into
    # Black's reserve; White's stays empty. A capture resets the halfmove clock.
    board = place(C36, "Ka1 Pa2 Nc4 pc5 rb6 kf6")
    board.push_uci("c4b6")
    assert board.reserve(BLACK) == {ROOK: 1}
    assert board.reserve(WHITE) == {}
    assert board.fen().split()[0].endswith("[r]")
    assert board.halfmove_clock == 0


def test_captured_pawn_goes_nowhere(place):
    board = place(C36, "Ka1 Pb2 pc3 kf6")
    board.push_uci("b2c3")
    assert board.reserve(BLACK) == {}
    assert board.fen().split()[0].endswith("[]")


def test_captured_promoted_queen_goes_to_the_reserve_as_a_queen(place):
    # b5-b6=Q checks the king f6 along rank 6; the rook a6 takes the new queen, which goes into
    # White's reserve as what it is now: a queen (not a pawn).
    board = place(C36, "ra6 kf6 Pb5 Ke1", fullmove_number=30)
    board.push_uci("b5b6q")
    assert board.is_check()
    board.push_uci("a6b6")
    assert board.reserve(WHITE) == {QUEEN: 1}
    assert board.fen() == "1r3k/6/6/6/6/4K1[Q] w - - 0 31"


def test_reserve_round_trips_through_fen_in_qrbn_order():
    fen = "rbkq1r/pppp1p/6/6/PPP1PP/R1QKBR[QNNrb] w - - 0 12"
    board = Board(C36, fen)
    assert board.reserve(WHITE) == {QUEEN: 1, KNIGHT: 2}
    assert board.reserve(BLACK) == {ROOK: 1, BISHOP: 1}
    assert board.fen() == fen


# --- check legality and game ends --------------------------------------------------------------


def test_pinned_rook_moves_only_along_the_pin(place, targets_of):
    # Rook d2 stands between its king d1 and the black rook d5: it may only stay on the d-file.
    board = place(C36, "Kd1 Rd2 rd5 kf6 Pa2")
    assert targets_of(board, "d2") == {"d3", "d4", "d5"}


def test_check_must_be_answered(place, legal):
    # Rook d1 checks the king a1 along rank 1; the rook e2 can neither block (b1, c1) nor take,
    # the pawn a2 cannot help, so the king must go to b2 (b1 is attacked, a2 is its own pawn).
    board = place(C36, "Ka1 Pa2 Re2 kd6 rd1")
    assert board.is_check()
    assert legal(board) == {"a1b2"}


def test_checkmate_wins(place):
    # Queen b6 (defended by the king c5) checks a6; a5, b5 and b6 are all covered.
    board = place(C36, "ka6 Qb6 Kc5", turn="b", fullmove_number=40)
    outcome = board.outcome()
    assert outcome.termination == Termination.CHECKMATE
    assert outcome.winner == WHITE
    assert board.result() == "1-0"
    assert board.is_game_over()
    assert board.legal_moves == []


def test_stalemate_draws(place):
    # Black king a6 only: a5 b5 b6 are covered by the queen c5, and a6 itself is not attacked.
    board = place(C36, "ka6 Qc5 Kf1", turn="b", fullmove_number=40)
    assert not board.is_check()
    outcome = board.outcome()
    assert outcome.termination == Termination.STALEMATE
    assert outcome.winner is None
    assert board.result() == "1/2-1/2"
    assert board.legal_moves == []


KNIGHT_SHUFFLE = ["b1a3", "e6f4", "a3b1", "f4e6"]
"""Both knights out and back: the start position again after four plies."""


def test_threefold_repetition_counting_the_start_position():
    # The start position stands at ply 0, 4 and 8: the third time ends the game at once.
    board = Board(C36)
    for move in KNIGHT_SHUFFLE + KNIGHT_SHUFFLE[:3]:
        board.push_uci(move)
        assert board.outcome() is None
    board.push_uci(KNIGHT_SHUFFLE[3])
    assert board.outcome().termination == Termination.THREEFOLD_REPETITION
    assert board.result() == "1/2-1/2"
    assert board.legal_moves == []


def test_twofold_repetition_goes_on():
    board = Board(C36)
    for move in KNIGHT_SHUFFLE:
        board.push_uci(move)
    assert board.outcome() is None
    assert board.legal_moves


BACK_RANK = "ka6 pa5 pb5 Kd1 Rf1"
"""Rf1-f6 mates the king a6 behind its pawns (a quiet move: not a capture, not a pawn move)."""


def test_fifty_move_rule_at_halfmove_clock_100(place):
    board = place(C36, BACK_RANK, halfmove_clock=99, fullmove_number=60)
    assert board.outcome() is None
    board.push_uci("d1d2")
    assert board.halfmove_clock == 100
    assert board.outcome().termination == Termination.FIFTY_MOVES
    assert board.result() == "1/2-1/2"
    assert board.legal_moves == []


def test_mate_on_the_hundredth_ply_wins(place):
    # No legal move is decided before the 50-move rule: checkmate with the clock at 100 wins.
    board = place(C36, BACK_RANK, halfmove_clock=99, fullmove_number=60)
    board.push_uci("f1f6")
    assert board.halfmove_clock == 100
    outcome = board.outcome()
    assert outcome.termination == Termination.CHECKMATE
    assert outcome.winner == WHITE


def test_a_pawn_move_resets_the_halfmove_clock(place):
    # One ply before the limit a pawn move sets the clock back to 0.
    board = place(C36, BACK_RANK, halfmove_clock=98, fullmove_number=60)
    board.push_uci("f1f5")
    assert board.halfmove_clock == 99
    board.push_uci("a5a4")
    assert board.halfmove_clock == 0
    assert board.outcome() is None


@pytest.mark.parametrize(
    ("pieces", "reserve", "drawn", "why"),
    [
        ("Ka1 kf6", "", True, "king against king"),
        ("Ka1 Bb1 kf6", "", True, "one bishop"),
        ("Ka1 Nb1 kf6", "", True, "one knight"),
        ("Ka1 kf6 nf5", "", True, "one knight, Black's"),
        ("Ka1 kf6", "n", True, "one knight, in a reserve"),
        ("Ka1 kf6", "B", True, "one bishop, in a reserve"),
        ("Ka1 Nb1 kf6", "N", False, "a knight on the board and one in a reserve: two minors"),
        ("Ka1 Nb1 kf6", "n", False, "a knight on the board and one in the other reserve"),
        ("Ka1 kf6", "Nn", False, "two knights, both in reserves"),
        ("Ka1 Bb1 kf6 nf5", "", False, "a bishop and a knight"),
        ("Ka1 Nb1 Nc1 kf6", "", False, "two knights of one side"),
        ("Ka1 kf6", "q", False, "a queen in a reserve"),
        ("Ka1 kf6", "R", False, "a rook in a reserve"),
        ("Ka1 Pb2 kf6", "", False, "a pawn"),
    ],
)
def test_insufficient_material_counts_the_reserves(place, pieces, reserve, drawn, why):
    board = place(C36, pieces, reserve=reserve)
    outcome = board.outcome()
    if drawn:
        assert outcome is not None, why
        assert outcome.termination == Termination.INSUFFICIENT_MATERIAL, why
        assert outcome.winner is None
        assert board.legal_moves == []
    else:
        assert outcome is None, why


def test_capture_into_insufficient_material_ends_the_game(place):
    # The king takes the last pawn; a bishop alone remains: drawn at once.
    board = place(C36, "Ka1 Bf1 pb2 kf6")
    board.push_uci("a1b2")
    assert board.outcome().termination == Termination.INSUFFICIENT_MATERIAL


def test_capture_of_a_minor_that_goes_to_the_reserve_keeps_the_game_going(place):
    # The bishop takes the knight c3, which goes to Black's reserve: a bishop on the board and a
    # knight in reserve remain, two minors, so the game goes on.
    board = place(C36, "Ka1 Bb2 nc3 kf6")
    board.push_uci("b2c3")
    assert board.reserve(BLACK) == {KNIGHT: 1}
    assert board.outcome() is None


# --- order of game ends: no legal move, insufficient material, 50-move rule, repetition --------


def test_stalemate_comes_before_insufficient_material(place):
    # King and bishop against king is insufficient material, but Black (a6) also has no move:
    # the king a4 covers a5 b5, the bishop c5 covers b6 (diagonal) and b5 (orthogonal step).
    board = place(C36, "ka6 Ka4 Bc5", turn="b")
    assert board.outcome().termination == Termination.STALEMATE


def test_insufficient_material_comes_before_the_fifty_move_rule(place):
    board = place(C36, "ka6 Kd1 Be1", halfmove_clock=100)
    assert board.outcome().termination == Termination.INSUFFICIENT_MATERIAL


def test_fifty_move_rule_comes_before_repetition():
    # The knight shuffle repeats the start position a third time on the clock's 100th ply.
    board = Board(C36, "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[] w - - 92 1")
    for move in KNIGHT_SHUFFLE * 2:
        board.push_uci(move)
    assert board.halfmove_clock == 100
    assert board.outcome().termination == Termination.FIFTY_MOVES
