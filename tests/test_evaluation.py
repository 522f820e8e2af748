"""The evaluation's features, counted by hand on small positions: each is White's count minus
Black's, and a feature that is bad for its side (as the attacks on its king) gets a negative
weight."""

from minichess import Board
from minichess.core.layout import KNIGHT
from minichess.engine import evaluation as E
from minichess.engine.tuning import features_of
from minichess.engine.weights import variant_weights

# White's king on a1 alone; Black's queen on c4 and knight on c3 bear on the squares around it.
QUEEN_AND_KNIGHT = "5k/6/2q3/2n3/6/K5 w - - 0 1"


def feature(fen: str, name: str, offset: int = 0) -> float:
    """The feature ``name`` (plus ``offset``: a piece type, a rank) of a losalamos position."""
    features = features_of(Board("losalamos", fen), variant_weights("losalamos"))
    return features[getattr(E, name) + offset]


def test_the_attacks_on_the_squares_around_the_king():
    # the zone of the king on a1 is a1, b1, a2, b2: the queen attacks a2 (c4-b3-a2), the
    # knight a2 and b1 (not a1: no check); Black's king on f6 has no White piece near it
    assert feature(QUEEN_AND_KNIGHT, "W_KING_ZONE") == 2
    assert feature(QUEEN_AND_KNIGHT, "W_KING_ATTACKERS") == 2


def test_the_count_of_attacked_squares_does_not_ask_who_defends_them():
    # a white rook on b2 defends a2 and b1; Black still attacks both, and the rook reaches
    # none of e5, e6 and f5, the squares around Black's king in the corner
    with_rook = "5k/6/2q3/2n3/1R4/K5 w - - 0 1"
    assert feature(with_rook, "W_KING_ZONE") == 2
    assert feature(with_rook, "W_KING_ATTACKERS") == 2


def test_a_hanging_piece_counts_for_the_side_it_belongs_to_and_whether_it_is_to_move():
    # White's rook on b2 attacks Black's knight on b5, which nothing defends
    white_to_move = "5k/6/1n4/6/1R4/K5 w - - 0 1"
    black_to_move = white_to_move.replace(" w ", " b ")
    assert feature(white_to_move, "W_HANGING_WAITER", KNIGHT) == -1
    assert feature(white_to_move, "W_HANGING_MOVER", KNIGHT) == 0
    assert feature(black_to_move, "W_HANGING_MOVER", KNIGHT) == -1


def test_a_passed_pawn_counts_by_the_ranks_it_has_come():
    # White's pawn on c4 has no black pawn ahead of it on its own or the next files
    assert feature("5k/6/2P3/6/6/K5 w - - 0 1", "W_PASSED", 3) == 1
    # a black pawn on d5 stops it (it guards c4's way through c5)
    assert feature("5k/3p2/2P3/6/6/K5 w - - 0 1", "W_PASSED", 3) == 0


def test_nothing_attacks_either_king_at_the_start():
    start = Board("losalamos").fen()
    assert feature(start, "W_KING_ZONE") == feature(start, "W_KING_ATTACKERS") == 0
