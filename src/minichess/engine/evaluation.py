"""Static evaluation: a weighted sum of features, each variant with its own weights.

The features are material, piece placement (a piece-square table per type, from the owner's
side of the board), mobility per piece type, pieces in reserve and the move. The score is linear in
the weights, so one definition serves both the search (``evaluate``) and tuning (the feature
vector, ``evaluate_features``, see ``tuning.py``).
"""


from minichess.core.bits import ctz, popcount
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import (
    BB,
    F_RANKS,
    FLAGS,
    MAILBOX,
    PAWN,
    QUIET,
    RESERVE,
    STM,
)
from minichess.core.movegen import move_set, piece_attacks

W_MATERIAL = 0  # + piece type
W_MOBILITY = 8  # + piece type: per square a piece can move to
W_TEMPO = 16  # for the side to move
W_RESERVE = 24  # + piece type: per piece in reserve
W_PLACEMENT = 32  # + piece type * 64 + square (seen from the owner's side)
WEIGHT_COUNT = W_PLACEMENT + 8 * 64


def _evaluation_kernel(record: bool, doc: str):
    """The evaluation compiled with or without recording the features (``record`` is a
    constant of the compiled code: the search's evaluation does no recording work)."""

    def evaluation(pos, tab, weights, features):
        ranks = tab[FLAGS, F_RANKS]
        occ = pos[BB] | pos[BB + 8]
        score = 0
        for colour in range(2):
            sign = 1 - 2 * colour
            own = pos[BB + colour * 8]
            for piece_type in range(1, 7):
                pieces = pos[BB + colour * 8 + piece_type]
                while pieces != 0:
                    sq = ctz(pieces)
                    pieces &= pieces - 1
                    seen = sq if colour == 0 else (ranks - 1 - (sq >> 3)) * 8 + (sq & 7)
                    place = W_PLACEMENT + piece_type * 64 + seen
                    score += sign * (weights[W_MATERIAL + piece_type] + weights[place])
                    if record:
                        features[W_MATERIAL + piece_type] += sign
                        features[place] += sign
                    if piece_type == PAWN:
                        continue
                    moves = move_set(tab, piece_type, sq, occ)
                    reach = piece_attacks(tab, moves, sq, occ) & ~own
                    reach |= tab[QUIET + moves, sq] & ~occ
                    mobility = popcount(reach)
                    score += sign * mobility * weights[W_MOBILITY + piece_type]
                    if record:
                        features[W_MOBILITY + piece_type] += sign * mobility
            for piece_type in range(2, 6):
                count = pos[RESERVE + colour * 8 + piece_type]
                score += sign * count * weights[W_RESERVE + piece_type]
                if record:
                    features[W_RESERVE + piece_type] += sign * count
        tempo = 1 if pos[STM] == 0 else -1
        score += tempo * weights[W_TEMPO]
        if record:
            features[W_TEMPO] += tempo
        return score if pos[STM] == 0 else -score

    evaluation.__doc__ = doc
    return kernel()(evaluation)


evaluate = _evaluation_kernel(
    False,
    """Score of the position in centipawns for the side to move (``features`` is not used).""",
)
evaluate_features = _evaluation_kernel(
    True,
    """``evaluate``, also adding the feature values (White's minus Black's) to ``features``.""",
)


@leaf_kernel
def piece_value(pos, weights, sq):
    """Material weight of the piece on ``sq`` (0 when empty), for move ordering."""
    code = pos[MAILBOX + sq]
    return abs(weights[W_MATERIAL + (code & 7)]) if code != 0 else 0

