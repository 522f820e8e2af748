"""Compiled attack computation and pseudo-legal move generation for any variant's tables.

One definition both writes moves into a buffer and, with ``count_only``, just counts them by
popcount (bulk counting for perft), so the rules of movement live in one place; it is compiled
once for each use (``generate`` and ``count_moves``).
"""

from minichess.core.bits import HAS_FAST_PEXT, clz, ctz, pext, popcount
from minichess.core.jit import (
    BOOL,
    INT,
    MOVES,
    NONE,
    POSITION,
    TABLES,
    kernel,
    leaf_kernel,
)
from minichess.core.layout import (
    BB,
    DROP,
    F_DOUBLE_STEP,
    F_ISOLATED,
    F_PROMOTION_TYPES,
    F_PROMOTIONS,
    F_REENTRY,
    F_SLIDES,
    FLAGS,
    KING,
    LEAP,
    M_BOARD,
    M_DOUBLE_STEP,
    M_NOT_FIRST_FILE,
    M_NOT_LAST_FILE,
    M_PROMOTION_RANK,
    M_REENTRY_RANK,
    MAILBOX,
    MASKS,
    NEIGHBOURS,
    PAWN,
    PAWN_CAPTURE,
    QUIET,
    RAY,
    RESERVE,
    SLIDE_DIAGONAL,
    SLIDE_ORTHOGONAL,
    SLIDER_MASK,
    SLIDER_OFFSET,
    SLIDER_TABLE,
    STM,
)

GEN_CAPTURES = 1
GEN_STEPS = 2
"""Moves onto empty squares."""
GEN_DROPS = 4
GEN_QUIETS = GEN_STEPS | GEN_DROPS
GEN_ALL = GEN_CAPTURES | GEN_QUIETS
EVERYWHERE = -1
"""A square mask with every square (all bits set)."""
_TOP_BIT = -(1 << 63)  # bit 63 as an int64


@leaf_kernel
def ray_attacks(tab, direction, sq, occ):
    """Squares along ``direction`` from ``sq`` up to and including the first occupied one.

    Branch-free: a sentinel bit stands in for "no blocker" on a square (h8 or a1) whose ray in
    that direction is empty."""
    ray = tab[RAY + direction, sq]
    blockers = ray & occ
    first = ctz(blockers | _TOP_BIT) if direction < 4 else 63 - clz(blockers | 1)
    return ray ^ tab[RAY + direction, first]


@leaf_kernel
def ray_slider_attacks(tab, slides, sq, occ):
    """Squares attacked by slides of kind ``slides`` (SLIDE_* bits) from ``sq``, ray by ray."""
    att = 0
    if slides & SLIDE_ORTHOGONAL:
        att |= ray_attacks(tab, 0, sq, occ) | ray_attacks(tab, 1, sq, occ)
        att |= ray_attacks(tab, 4, sq, occ) | ray_attacks(tab, 5, sq, occ)
    if slides & SLIDE_DIAGONAL:
        att |= ray_attacks(tab, 2, sq, occ) | ray_attacks(tab, 3, sq, occ)
        att |= ray_attacks(tab, 6, sq, occ) | ray_attacks(tab, 7, sq, occ)
    return att


@leaf_kernel
def _table_attacks(tab, kind, sq, occ):
    index = tab[SLIDER_OFFSET + kind, sq] + pext(occ, tab[SLIDER_MASK + kind, sq])
    return tab[SLIDER_TABLE + (index >> 6), index & 63]


@leaf_kernel
def slider_attacks(tab, slides, sq, occ):
    """Squares attacked by slides of kind ``slides`` (SLIDE_* bits) from ``sq``.

    Looked up in the PEXT tables where the machine has fast PEXT, else walked ray by ray."""
    if not HAS_FAST_PEXT:
        return ray_slider_attacks(tab, slides, sq, occ)
    att = 0
    if slides & SLIDE_ORTHOGONAL:
        att |= _table_attacks(tab, 0, sq, occ)
    if slides & SLIDE_DIAGONAL:
        att |= _table_attacks(tab, 1, sq, occ)
    return att


@kernel(NONE(TABLES))
def fill_slider_table(tab):
    """Fill the PEXT slider tables from the rays: every occupancy of every square's mask."""
    for kind in range(2):
        slides = SLIDE_ORTHOGONAL if kind == 0 else SLIDE_DIAGONAL
        for sq in range(64):
            mask = tab[SLIDER_MASK + kind, sq]
            if tab[MASKS, M_BOARD] >> sq & 1 == 0:
                continue
            subset = 0
            while True:  # every subset of mask, by the carry-rippler trick
                index = tab[SLIDER_OFFSET + kind, sq] + pext(subset, mask)
                tab[SLIDER_TABLE + (index >> 6), index & 63] = ray_slider_attacks(
                    tab, slides, sq, subset
                )
                subset = (subset - mask) & mask
                if subset == 0:
                    break


@leaf_kernel
def move_set(tab, piece_type, sq, occ):
    """The move-set index a piece of ``piece_type`` on ``sq`` uses in the position at hand."""
    if tab[FLAGS, F_ISOLATED + piece_type] != 0 and tab[NEIGHBOURS, sq] & occ == 0:
        return piece_type + 8
    return piece_type


@leaf_kernel
def piece_attacks(tab, moves, sq, occ):
    """Squares a piece with move set ``moves`` on ``sq`` may capture on (or move to)."""
    att = tab[LEAP + moves, sq]
    slides = tab[FLAGS, F_SLIDES + moves]
    if slides != 0:
        att |= slider_attacks(tab, slides, sq, occ)
    return att


BOTH_COLOURS = 2
"""``attackers``' ``by`` for the pieces of both colours."""


@kernel(INT(POSITION, TABLES, INT, INT, INT))
def attackers(pos, tab, sq, by, occ):
    """The pieces of colour ``by`` (or of both, ``BOTH_COLOURS``) that attack ``sq`` when the
    board's occupancy is ``occ``."""
    white = 1 if by != 1 else 0
    black = 1 if by != 0 else 0
    found = ((tab[PAWN_CAPTURE + 1, sq] & pos[BB + PAWN] & -white)
             | (tab[PAWN_CAPTURE, sq] & pos[BB + 8 + PAWN] & -black))
    orthogonal = 0
    diagonal = 0
    for piece_type in range(2, 7):
        pieces = (pos[BB + piece_type] & -white) | (pos[BB + 8 + piece_type] & -black)
        if pieces == 0:
            continue
        if tab[FLAGS, F_ISOLATED + piece_type] != 0:
            while pieces != 0:
                s = ctz(pieces)
                moves = move_set(tab, piece_type, s, occ)
                if (piece_attacks(tab, moves, s, occ) >> sq) & 1 != 0:
                    found |= pieces & -pieces
                pieces &= pieces - 1
            continue
        found |= tab[LEAP + piece_type, sq] & pieces
        slides = tab[FLAGS, F_SLIDES + piece_type]
        if slides & SLIDE_ORTHOGONAL:
            orthogonal |= pieces
        if slides & SLIDE_DIAGONAL:
            diagonal |= pieces
    if orthogonal != 0:
        found |= slider_attacks(tab, SLIDE_ORTHOGONAL, sq, occ) & orthogonal
    if diagonal != 0:
        found |= slider_attacks(tab, SLIDE_DIAGONAL, sq, occ) & diagonal
    return found


@leaf_kernel
def sliding_pieces(pos, tab, kind, by):
    """The pieces of colour ``by`` (or of both, ``BOTH_COLOURS``) that slide along ``kind``
    lines (SLIDE_ORTHOGONAL or SLIDE_DIAGONAL)."""
    white = 1 if by != 1 else 0
    black = 1 if by != 0 else 0
    found = 0
    for piece_type in range(2, 7):
        if tab[FLAGS, F_SLIDES + piece_type] & kind:
            found |= (pos[BB + piece_type] & -white) | (pos[BB + 8 + piece_type] & -black)
    return found


@leaf_kernel
def square_attacked(pos, tab, sq, by):
    """Whether any piece of colour ``by`` attacks ``sq``."""
    return attackers(pos, tab, sq, by, pos[BB] | pos[BB + 8]) != 0


@leaf_kernel
def in_check(pos, tab, colour):
    """Whether ``colour``'s king (if it has one) is attacked."""
    kings = pos[BB + colour * 8 + KING]
    return kings != 0 and square_attacked(pos, tab, ctz(kings), 1 - colour)


@leaf_kernel
def _emit(buf, n, origin, targets, count_only):
    if count_only:
        return n + popcount(targets)
    while targets != 0:
        buf[n] = origin | (ctz(targets) << 6)
        n += 1
        targets &= targets - 1
    return n


@leaf_kernel
def _emit_pawns(tab, buf, n, targets, delta, promotion_rank, count_only):
    """Pawn moves to ``targets``, each from ``to - delta``; promotions on ``promotion_rank``."""
    choices = tab[FLAGS, F_PROMOTIONS]
    promoting = targets & promotion_rank
    plain = targets ^ promoting
    if count_only:
        return n + popcount(plain) + popcount(promoting) * choices
    while plain != 0:
        to = ctz(plain)
        buf[n] = (to - delta) | (to << 6)
        n += 1
        plain &= plain - 1
    while promoting != 0:
        to = ctz(promoting)
        for i in range(choices):
            buf[n] = (to - delta) | (to << 6) | (tab[FLAGS, F_PROMOTION_TYPES + i] << 12)
            n += 1
        promoting &= promoting - 1
    return n


@leaf_kernel
def _shift_forward(bits, colour, amount):
    """Shift towards the opponent's side by ``amount`` bits (a logical shift for Black)."""
    if colour == 0:
        return bits << amount
    return (bits >> amount) & ((1 << (64 - amount)) - 1)


@leaf_kernel
def piece_moves(tab, buf, n, piece_type, sq, occ, targets, empty, kinds, count_only):
    """The moves of one piece (not a pawn) of ``piece_type`` on ``sq`` that capture on
    ``targets`` or go to ``empty`` squares, appended to ``buf`` from ``n`` (or counted)."""
    moves = move_set(tab, piece_type, sq, occ)
    att = piece_attacks(tab, moves, sq, occ)
    reach = 0
    if kinds & GEN_CAPTURES:
        reach = att & targets
        if not count_only:  # captures first, as in every list of moves
            n = _emit(buf, n, sq, reach, False)
            reach = 0
    if kinds & GEN_STEPS:
        reach |= (att | tab[QUIET + moves, sq]) & empty
    return _emit(buf, n, sq, reach, count_only)


@leaf_kernel
def pawn_captures(tab, pawns, colour):
    """The squares ``pawns`` of ``colour`` capture on, towards the lower and the higher file."""
    # towards the lower file: +7 for White, -9 for Black; higher file: +9 / -7
    to_lower, to_higher = (7, 9) if colour == 0 else (9, 7)
    lower = _shift_forward(pawns & tab[MASKS, M_NOT_FIRST_FILE], colour, to_lower)
    higher = _shift_forward(pawns & tab[MASKS, M_NOT_LAST_FILE], colour, to_higher)
    return lower, higher


@leaf_kernel
def _pawn_moves(pos, tab, buf, n, colour, kinds, count_only, movers, allowed):
    pawns = pos[BB + colour * 8 + PAWN] & movers
    if pawns == 0:
        return n
    empty = ~(pos[BB] | pos[BB + 8]) & tab[MASKS, M_BOARD]
    promotion_rank = tab[MASKS, M_PROMOTION_RANK + colour]
    forward = 8 if colour == 0 else -8
    theirs = pos[BB + (1 - colour) * 8] & allowed
    lower, higher = pawn_captures(tab, pawns, colour)
    single = _shift_forward(pawns, colour, 8) & empty
    double = 0
    if tab[FLAGS, F_DOUBLE_STEP] != 0:
        double = _shift_forward(single & tab[MASKS, M_DOUBLE_STEP + colour], colour, 8) & empty
    # captures towards the lower and the higher file, then single and double steps: one
    # emitting loop (each copy of it costs compile time)
    for stage in range(4):
        if stage < 2:
            if kinds & GEN_CAPTURES == 0:
                continue
            targets = (lower if stage == 0 else higher) & theirs
            delta = forward - 1 if stage == 0 else forward + 1
        else:
            if kinds & GEN_STEPS == 0:
                continue
            targets = (single if stage == 2 else double) & allowed
            delta = forward if stage == 2 else 2 * forward
        n = _emit_pawns(tab, buf, n, targets, delta, promotion_rank, count_only)
    return n


@kernel(INT(POSITION, TABLES, MOVES, INT, INT, BOOL))
def _drops(pos, tab, buf, n, colour, count_only):
    """chess36 king re-entry: drop a reserve piece on the empty square ahead of the king."""
    king = pos[BB + colour * 8 + KING]
    if king & tab[MASKS, M_REENTRY_RANK + colour] == 0:
        return n
    ksq = ctz(king)
    to = ksq + 8 if colour == 0 else ksq - 8
    if pos[MAILBOX + to] != 0:
        return n
    available = 0
    for piece_type in range(2, 6):
        if pos[RESERVE + colour * 8 + piece_type] > 0:
            available += 1
    if available == 0 or square_attacked(pos, tab, ksq, 1 - colour):
        return n
    if count_only:
        return n + available
    for piece_type in range(2, 6):
        if pos[RESERVE + colour * 8 + piece_type] > 0:
            buf[n] = to | (to << 6) | (piece_type << 12) | DROP
            n += 1
    return n


def _pseudo_legal(count_only: bool, doc: str):
    """The pseudo-legal move generator, for writing moves or for counting them: ``count_only``
    is a constant of the compiled code, which keeps only what it needs."""

    def pseudo_legal(pos, tab, buf, n, kinds, movers, allowed):
        colour = pos[STM]
        own = pos[BB + colour * 8]
        theirs = pos[BB + (1 - colour) * 8]
        occ = own | theirs
        empty = ~occ & tab[MASKS, M_BOARD] & allowed
        n = _pawn_moves(pos, tab, buf, n, colour, kinds, count_only, movers, allowed)
        theirs &= allowed
        for piece_type in range(2, 7):
            pieces = pos[BB + colour * 8 + piece_type] & movers
            while pieces != 0:
                sq = ctz(pieces)
                pieces &= pieces - 1
                n = piece_moves(tab, buf, n, piece_type, sq, occ, theirs, empty, kinds, count_only)
        king = pos[BB + colour * 8 + KING]
        if kinds & GEN_DROPS and tab[FLAGS, F_REENTRY] != 0 and movers & king != 0:
            n = _drops(pos, tab, buf, n, colour, count_only)
        return n

    pseudo_legal.__doc__ = doc
    return pseudo_legal


_PSEUDO_LEGAL = INT(POSITION, TABLES, MOVES, INT, INT, INT, INT)
_COUNT_DOC = """``n`` plus the number of moves ``generate`` would write (``buf`` stays as it is)."""
generate = kernel(_PSEUDO_LEGAL)(_pseudo_legal(
    False,
    """Pseudo-legal moves of the given ``kinds`` (GEN_* bits) of the side to move's pieces on
    ``movers`` to squares in ``allowed`` (EVERYWHERE for all). Drops count as moves of the
    king (which brings the piece back), wherever they go.

    Appends them to ``buf`` from index ``n`` and returns the new end index. Compulsory capture
    is not applied here.""",
))
count_moves = kernel(_PSEUDO_LEGAL)(_pseudo_legal(True, _COUNT_DOC))
_count_moves_inlined = leaf_kernel(_pseudo_legal(True, _COUNT_DOC))


@kernel()
def count_all_moves(pos, tab):
    """The number of pseudo-legal moves of every kind: ``count_moves`` compiled with its kinds
    and squares as constants, and no buffer to pass (a count writes none), for perft's leaves
    (compiled with the first perft that needs it)."""
    return _count_moves_inlined(pos, tab, pos, 0, GEN_ALL, EVERYWHERE, EVERYWHERE)


@leaf_kernel
def generate_or_count(pos, tab, buf, n, kinds, count_only, movers, allowed):
    """``generate``, or with ``count_only`` add the number of those moves to ``n``."""
    if count_only:
        return count_moves(pos, tab, buf, n, kinds, movers, allowed)
    return generate(pos, tab, buf, n, kinds, movers, allowed)
