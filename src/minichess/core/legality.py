"""Legal moves where the king is royal: a move may not leave one's own king attacked.

Most moves are known legal from where they go, and are counted by popcount; only the moves
that might change an enemy piece's moves are tried on the board. These kernels are compiled
only for the variants with such kings (``prepare``), so the others never pay for them.
"""

from minichess.core.bits import ctz
from minichess.core.jit import (
    BOOL,
    INT,
    MOVES,
    POSITION,
    TABLES,
    UNDO,
    compile_on_demand,
    leaf_kernel,
    on_demand_kernel,
)
from minichess.core.layout import (
    BB,
    F_ANY_ISOLATED,
    F_ISOLATED,
    F_REENTRY,
    F_SLIDES,
    FLAGS,
    KING,
    LEAP,
    M_BOARD,
    MAILBOX,
    MASKS,
    NEIGHBOURS,
    PAWN,
    SLIDE_DIAGONAL,
    SLIDE_ORTHOGONAL,
    STM,
)
from minichess.core.makemove import make_move, unmake_move
from minichess.core.movegen import (
    EVERYWHERE,
    GEN_DROPS,
    attackers,
    generate,
    generate_or_count,
    in_check,
    move_set,
    pawn_captures,
    piece_attacks,
    piece_moves,
    slider_attacks,
    sliding_pieces,
    square_attacked,
)


@on_demand_kernel(INT(POSITION, TABLES, INT, INT))
def attacked_squares(pos, tab, by, occ):
    """Every square a piece of colour ``by`` attacks when the board's occupancy is ``occ``."""
    base = BB + by * 8
    lower, higher = pawn_captures(tab, pos[base + PAWN], by)
    att = lower | higher
    for piece_type in range(2, 7):
        pieces = pos[base + piece_type]
        while pieces != 0:
            sq = ctz(pieces)
            att |= piece_attacks(tab, move_set(tab, piece_type, sq, occ), sq, occ)
            pieces &= pieces - 1
    return att & tab[MASKS, M_BOARD]


@leaf_kernel
def _pinned_moves(pos, tab, buf, n, kinds, count_only, ksq, occ, candidates, allowed):
    """The moves of those of ``candidates`` (the side to move's pieces) that shield its king
    on ``ksq`` from an enemy slider (pinned pieces): along the line between king and slider,
    or taking the slider, and to ``allowed`` squares; returns the new ``n`` and the pinned
    pieces. Each shield stands on one line through the king, so leaving its square along that
    line exposes the king to nothing."""
    colour = pos[STM]
    pinned = 0
    for kind in (SLIDE_ORTHOGONAL, SLIDE_DIAGONAL):
        snipers = sliding_pieces(pos, tab, kind, 1 - colour)
        if snipers == 0:
            continue
        seen = slider_attacks(tab, kind, ksq, occ)
        shields = seen & candidates
        while shields != 0:
            shield = shields & -shields
            shields ^= shield
            behind = occ ^ shield
            from_king = slider_attacks(tab, kind, ksq, behind)
            pinner = from_king & ~seen & snipers  # on the shield's line: seen only without it
            if pinner == 0:
                continue
            pinned |= shield
            line = (from_king & slider_attacks(tab, kind, ctz(pinner), behind)) | pinner
            if line & allowed != 0:
                n = generate_or_count(pos, tab, buf, n, kinds, count_only, shield, line & allowed)
    return n, pinned


@leaf_kernel
def _neighbour_zones(pos, tab, colour, occ):
    """Squares a move by ``colour`` must not touch (from or to) for its enemies' attacks to
    stay as they are, where some enemy pieces move differently without a neighbour (chess36
    knights): around such a piece without neighbours, every square (a piece arriving there
    changes its moves); with one neighbour, that neighbour's square (it may leave). With two
    or more, no single move can leave it alone. EVERYWHERE when such a piece also slides."""
    zones = 0
    if tab[FLAGS, F_ANY_ISOLATED] == 0:
        return zones
    for piece_type in range(2, 7):
        if tab[FLAGS, F_ISOLATED + piece_type] == 0:
            continue
        if tab[FLAGS, F_SLIDES + piece_type] | tab[FLAGS, F_SLIDES + piece_type + 8] != 0:
            return EVERYWHERE
        pieces = pos[BB + (1 - colour) * 8 + piece_type]
        while pieces != 0:
            around = tab[NEIGHBOURS, ctz(pieces)]
            if around & occ == 0:
                zones |= around
            elif around & occ & (around & occ) - 1 == 0:
                zones |= around & occ
            pieces &= pieces - 1
    return zones


@leaf_kernel
def _check_blocks(pos, tab, ksq, checker, occ):
    """The squares between the king on ``ksq`` and a lone ``checker`` (a bitboard) on which
    a piece blocks the check: none unless the checker attacks by sliding only."""
    csq = ctz(checker)
    moves = move_set(tab, pos[MAILBOX + csq] & 7, csq, occ)
    if (tab[LEAP + moves, csq] >> ksq) & 1 != 0:
        return 0
    slides = tab[FLAGS, F_SLIDES + moves]
    for kind in (SLIDE_ORTHOGONAL, SLIDE_DIAGONAL):
        if slides & kind:
            from_king = slider_attacks(tab, kind, ksq, occ)
            if from_king & checker != 0:
                return from_king & slider_attacks(tab, kind, csq, occ)
    return 0


@on_demand_kernel(INT(POSITION, TABLES, MOVES, INT, INT, UNDO, INT))
def _keep_legal(pos, tab, buf, start, end, undo, sp):
    """Try each move in ``buf[start:end]`` on the board; keep those that do not leave the
    king attacked, packed from ``start``, and return how many were kept."""
    colour = pos[STM]
    kept = start
    for i in range(start, end):
        move = buf[i]
        make_move(pos, tab, move, undo, sp)
        legal = not in_check(pos, tab, colour)
        unmake_move(pos, tab, undo, sp)
        if legal:
            buf[kept] = move
            kept += 1
    return kept - start


@on_demand_kernel(INT(POSITION, TABLES, MOVES, UNDO, INT, INT, BOOL))
def legal_moves_of_kinds(pos, tab, buf, undo, sp, kinds, count_only):
    """Legal moves of the given ``kinds`` (GEN_* bits) where the king is royal, written into
    ``buf`` from index 0 (or only counted); returns their number.

    Most moves are known legal from where they go and are counted by popcount: a piece must go
    where it resolves the check (anywhere when there is none), and a pinned one stay on its
    line; the king must go where no enemy attacks. Only the moves touching the zones where an
    enemy piece's moves may change (see ``_neighbour_zones``) and drops are tried on the board
    one by one."""
    colour = pos[STM]
    king = pos[BB + colour * 8 + KING]
    if king == 0:
        return generate_or_count(pos, tab, buf, 0, kinds, count_only, EVERYWHERE, EVERYWHERE)
    ksq = ctz(king)
    own = pos[BB + colour * 8]
    theirs = pos[BB + (1 - colour) * 8]
    occ = own | theirs
    zones = _neighbour_zones(pos, tab, colour, occ)
    plain_king = king & zones == 0
    if plain_king:
        # the squares the king may not go to, and whether it is in check now
        danger = attacked_squares(pos, tab, 1 - colour, occ ^ king)
        checked = danger & king != 0
    else:
        checked = square_attacked(pos, tab, ksq, 1 - colour)
    resolving = EVERYWHERE
    if checked:
        checkers = attackers(pos, tab, ksq, 1 - colour, occ)
        resolving = 0
        if checkers & (checkers - 1) == 0:
            resolving = checkers | _check_blocks(pos, tab, ksq, checkers, occ)
    tried = zones & own
    moves = kinds & ~GEN_DROPS
    n = 0
    pinned = 0
    if resolving != 0:
        # a piece in a zone has all its moves tried below, pinned or not
        n, pinned = _pinned_moves(pos, tab, buf, n, moves, count_only, ksq, occ,
                                  own & ~tried, resolving & ~zones)
    free = own & ~tried & ~king & ~pinned
    if free != 0 and resolving != 0:
        n = generate_or_count(pos, tab, buf, n, moves, count_only, free, resolving & ~zones)
    if plain_king:
        safe = ~danger & ~zones & tab[MASKS, M_BOARD]
        n = piece_moves(tab, buf, n, KING, ksq, occ, theirs & safe, ~occ & safe, moves, count_only)
    start = 0 if count_only else n
    end = start
    if tried != 0:
        end = generate(pos, tab, buf, end, moves, tried, EVERYWHERE)
    if zones != 0:
        end = generate(pos, tab, buf, end, moves, own & ~tried, zones)
    if kinds & GEN_DROPS and tab[FLAGS, F_REENTRY] != 0:
        end = generate(pos, tab, buf, end, GEN_DROPS, king, EVERYWHERE)
    if end == start:
        return n
    return n + _keep_legal(pos, tab, buf, start, end, undo, sp)


def prepare() -> None:
    """Compile the kernels of this module (or load them from the cache), once per process,
    before any kernel that calls them."""
    compile_on_demand(attacked_squares, _keep_legal, legal_moves_of_kinds)
