"""Static evaluation: a weighted sum of features, each variant with its own weights.

The features, each counted for White minus Black:

- material, and piece placement (a piece-square table per type, from the owner's side);
- mobility per piece type (squares a piece can move to) and pieces in reserve;
- threats per type of the threatened piece: attacked by any enemy piece, by an enemy pawn, by
  a lesser enemy piece, and hanging (attacked and not defended); attacks and hanging pieces
  count apart for the side to move (which can answer them) and the other side;
- passed pawns by how far they have advanced;
- the king's safety: enemy attacks on the squares around the king, and the enemy pieces that
  attack them;
- forcing play where captures are compulsory: the empty squares a side can step to that the
  enemy attacks (offers the enemy must take), and whether a side can capture at all, apart for
  the side to move and the other;
- the move (tempo).

The score is linear in the weights, so one definition serves both the search
(``weighted_sum``) and tuning (the feature vector, ``evaluate_features``, see ``tuning.py``).
Where the variant has a network (``network.py``: its block follows the ``WEIGHT_COUNT`` linear
weights), the evaluation (``evaluate``) adds the network's score to the weighted sum.
"""


from minichess.core.bits import ctz, popcount
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import (
    BB,
    F_RANKS,
    FLAGS,
    KING,
    MAILBOX,
    NEIGHBOURS,
    PAWN,
    PAWN_PUSH,
    PAWN_SPAN,
    QUIET,
    RESERVE,
    STM,
)
from minichess.core.movegen import move_set, pawn_captures, piece_attacks
from minichess.engine.network import network_score

W_MATERIAL = 0  # + piece type
W_MOBILITY = 8  # + piece type: per square a piece can move to
W_TEMPO = 16  # for the side to move
W_RESERVE = 24  # + piece type: per piece in reserve
W_PLACEMENT = 32  # + piece type * 64 + square (seen from the owner's side)
W_ATTACKED_MOVER = W_PLACEMENT + 8 * 64  # + type: the side to move's pieces under attack
W_ATTACKED_WAITER = W_ATTACKED_MOVER + 8  # + type: the other side's pieces under attack
W_BY_PAWN = W_ATTACKED_WAITER + 8  # + type: pieces attacked by an enemy pawn
W_BY_LESSER = W_BY_PAWN + 8  # + type: pieces attacked by an enemy piece of a lower type
W_HANGING_MOVER = W_BY_LESSER + 8  # + type: the side to move's attacked, undefended pieces
W_HANGING_WAITER = W_HANGING_MOVER + 8  # + type: the other side's
W_PASSED = W_HANGING_WAITER + 8  # + ranks advanced: a pawn no enemy pawn can stop
W_KING_ZONE = W_PASSED + 8  # enemy attacks on the king's square and the squares around it
W_KING_ATTACKERS = W_KING_ZONE + 1  # enemy pieces attacking those squares
W_OFFERS = W_KING_ATTACKERS + 1  # empty squares a piece can step to that the enemy attacks
W_CAN_CAPTURE_MOVER = W_OFFERS + 1  # 1 when the side to move attacks an enemy piece
W_CAN_CAPTURE_WAITER = W_CAN_CAPTURE_MOVER + 1  # 1 when the other side does
WEIGHT_COUNT = W_CAN_CAPTURE_WAITER + 4
FIRST_THREAT_FEATURE = W_ATTACKED_MOVER
"""Features from here on were added after the first tuned weights; a weights file without
them leaves them at their starting values."""


@leaf_kernel
def _add(score, weights, features, record, index, count):
    """``score`` plus ``count`` times the weight ``index``; the feature is recorded too."""
    if record:
        features[index] += count
    return score + count * weights[index]


@leaf_kernel
def _king_zone(pos, tab, colour):
    """The king's square and the squares around it (0 without a king)."""
    king = pos[BB + colour * 8 + KING]
    return tab[NEIGHBOURS, ctz(king)] | king if king != 0 else 0


@leaf_kernel
def _pieces_of(pos, tab, weights, features, record, colour, occ, enemy_zone):
    """Material, placement, mobility and reserve of ``colour``'s pieces (signed for White),
    with its attack maps: entry ``t`` of the map tuple is what the types below ``t`` attack
    (entry 7: everything; entry 0: the empty squares its pieces can step to without
    capturing), and the number of its pieces attacking ``enemy_zone``."""
    ranks = tab[FLAGS, F_RANKS]
    sign = 1 - 2 * colour
    own = pos[BB + colour * 8]
    score = 0
    low, high = pawn_captures(tab, pos[BB + colour * 8 + PAWN], colour)
    below = low | high
    below_knight = below
    below_bishop = below_rook = below_queen = below_king = 0
    zone_attackers = 0
    steps = 0
    for piece_type in range(1, 7):
        if piece_type == 3:
            below_bishop = below
        elif piece_type == 4:
            below_rook = below
        elif piece_type == 5:
            below_queen = below
        elif piece_type == 6:
            below_king = below
        pieces = pos[BB + colour * 8 + piece_type]
        while pieces != 0:
            sq = ctz(pieces)
            pieces &= pieces - 1
            seen = sq if colour == 0 else (ranks - 1 - (sq >> 3)) * 8 + (sq & 7)
            score = _add(score, weights, features, record, W_MATERIAL + piece_type, sign)
            score = _add(score, weights, features, record,
                         W_PLACEMENT + piece_type * 64 + seen, sign)
            if piece_type == PAWN:
                steps |= tab[PAWN_PUSH + colour, sq] & ~occ
                continue
            moves = move_set(tab, piece_type, sq, occ)
            attacks = piece_attacks(tab, moves, sq, occ)
            below |= attacks
            if attacks & enemy_zone != 0:
                zone_attackers += 1
            reach = (attacks & ~own) | (tab[QUIET + moves, sq] & ~occ)
            steps |= reach & ~occ
            score = _add(score, weights, features, record, W_MOBILITY + piece_type,
                         sign * popcount(reach))
    for piece_type in range(2, 6):
        score = _add(score, weights, features, record, W_RESERVE + piece_type,
                     sign * pos[RESERVE + colour * 8 + piece_type])
    maps = (steps, 0, below_knight, below_bishop, below_rook, below_queen, below_king, below)
    return score, maps, zone_attackers


@leaf_kernel
def _threats_to(pos, tab, weights, features, record, colour, own_maps, enemy_maps, zone,
                zone_attackers):
    """Threats to ``colour``'s pieces by the enemy whose attack maps are ``enemy_maps``,
    ``colour``'s passed pawns, its king's safety and its forcing moves (signed for White)."""
    sign = 1 - 2 * colour
    enemy = 1 - colour
    enemy_attacks = enemy_maps[7]
    own_map = own_maps[7]
    to_move = colour == pos[STM]
    attacked_base = W_ATTACKED_MOVER if to_move else W_ATTACKED_WAITER
    hanging_base = W_HANGING_MOVER if to_move else W_HANGING_WAITER
    score = 0
    for piece_type in range(1, 7):
        pieces = pos[BB + colour * 8 + piece_type]
        if pieces == 0:
            continue
        hit = pieces & enemy_attacks
        if hit == 0:
            continue
        score = _add(score, weights, features, record, attacked_base + piece_type,
                     sign * popcount(hit))
        score = _add(score, weights, features, record, hanging_base + piece_type,
                     sign * popcount(hit & ~own_map))
        score = _add(score, weights, features, record, W_BY_PAWN + piece_type,
                     sign * popcount(hit & enemy_maps[2]))
        score = _add(score, weights, features, record, W_BY_LESSER + piece_type,
                     sign * popcount(hit & enemy_maps[piece_type]))
    ranks = tab[FLAGS, F_RANKS]
    enemy_pawns = pos[BB + enemy * 8 + PAWN]
    pawns = pos[BB + colour * 8 + PAWN]
    while pawns != 0:
        sq = ctz(pawns)
        pawns &= pawns - 1
        if tab[PAWN_SPAN + colour, sq] & enemy_pawns == 0:
            advanced = sq >> 3 if colour == 0 else ranks - 1 - (sq >> 3)
            score = _add(score, weights, features, record, W_PASSED + advanced, sign)
    if zone != 0:
        score = _add(score, weights, features, record, W_KING_ZONE,
                     sign * popcount(zone & enemy_attacks))
        score = _add(score, weights, features, record, W_KING_ATTACKERS,
                     sign * zone_attackers)
    score = _add(score, weights, features, record, W_OFFERS,
                 sign * popcount(own_maps[0] & enemy_attacks))
    if own_map & pos[BB + enemy * 8] != 0:
        score = _add(score, weights, features, record,
                     W_CAN_CAPTURE_MOVER if to_move else W_CAN_CAPTURE_WAITER, sign)
    return score


def _evaluation_kernel(record: bool, doc: str):
    """The weighted sum compiled with or without recording the features (``record`` is a
    constant of the compiled code: the search's evaluation does no recording work)."""

    def evaluation(pos, tab, weights, features):
        occ = pos[BB] | pos[BB + 8]
        white_zone = _king_zone(pos, tab, 0)
        black_zone = _king_zone(pos, tab, 1)
        white, white_maps, on_black_zone = _pieces_of(pos, tab, weights, features, record, 0,
                                                      occ, black_zone)
        black, black_maps, on_white_zone = _pieces_of(pos, tab, weights, features, record, 1,
                                                      occ, white_zone)
        score = white + black
        score += _threats_to(pos, tab, weights, features, record, 0, white_maps, black_maps,
                             white_zone, on_white_zone)
        score += _threats_to(pos, tab, weights, features, record, 1, black_maps, white_maps,
                             black_zone, on_black_zone)
        score = _add(score, weights, features, record, W_TEMPO, 1 if pos[STM] == 0 else -1)
        return score if pos[STM] == 0 else -score

    evaluation.__doc__ = doc
    return kernel()(evaluation)


weighted_sum = _evaluation_kernel(
    False,
    """The weighted sum of the features in centipawns for the side to move (``features`` is
    not used).""",
)
evaluate_features = _evaluation_kernel(
    True,
    """``weighted_sum``, also adding the feature values (White's minus Black's) to
    ``features``.""",
)


@kernel()
def evaluate(pos, tab, weights, network, units):
    """Score of the position in centipawns for the side to move: the weighted sum, plus the
    network's score where the variant has one (``network``: its ``search_network``;
    ``units``: room for its hidden units, an array of ``network.UNITS`` 16-bit integers)."""
    score = weighted_sum(pos, tab, weights, units)
    if weights.shape[0] > WEIGHT_COUNT:
        score += network_score(pos, tab, weights, WEIGHT_COUNT, network, units)
    return score


@leaf_kernel
def piece_value(pos, weights, sq):
    """Material weight of the piece on ``sq`` (0 when empty), for move ordering."""
    code = pos[MAILBOX + sq]
    return abs(weights[W_MATERIAL + (code & 7)]) if code != 0 else 0
