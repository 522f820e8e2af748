"""The variants minichess knows, each a small definition, and lookup by name or alias."""

from __future__ import annotations

from minichess.errors import UnknownVariantError
from minichess.variants.definition import (
    DIAGONAL,
    KING_STEPS,
    KNIGHT_JUMPS,
    ORTHOGONAL,
    MoveSet,
    PieceDefinition,
    Result,
    Royalty,
    VariantDefinition,
)

PAWN = PieceDefinition(MoveSet())  # pawn moves depend on colour: the core builds them itself
KNIGHT = PieceDefinition(MoveSet(leaps=KNIGHT_JUMPS))
BISHOP = PieceDefinition(MoveSet(slides=DIAGONAL))
ROOK = PieceDefinition(MoveSet(slides=ORTHOGONAL))
QUEEN = PieceDefinition(MoveSet(slides=ORTHOGONAL + DIAGONAL))
KING = PieceDefinition(MoveSet(leaps=KING_STEPS))
STANDARD_PIECES = {"P": PAWN, "N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}

MINITCHESS_BISHOP = PieceDefinition(MoveSet(slides=DIAGONAL, quiet_steps=ORTHOGONAL))
CHESS36_BISHOP = PieceDefinition(MoveSet(slides=DIAGONAL, leaps=ORTHOGONAL))
CHESS36_KNIGHT = PieceDefinition(
    MoveSet(leaps=KNIGHT_JUMPS + ORTHOGONAL), isolated_moves=MoveSet(leaps=KING_STEPS)
)

MINITCHESS = VariantDefinition(
    name="minitchess",
    title="MinitChess (MiniChess 2011)",
    aliases=("minichess", "minichess-2011", "imcs"),
    files=5,
    ranks=6,
    start_fen="kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1",
    pieces={**STANDARD_PIECES, "B": MINITCHESS_BISHOP},
    royalty=Royalty.CAPTURE,
    no_moves=Result.LOSS,
    move_limit=80,
    pyffish_name="minitchess",
    decisions=("A king capture on Black's 40th move still wins; the game is drawn only after it.",),
)

MINICHESS_CLASSIC = VariantDefinition(
    name="minichess-classic",
    title="Mini-Chess (the earlier rules)",
    aliases=("classic", "minichess-old", "minichess2010"),
    files=5,
    ranks=6,
    start_fen=MINITCHESS.start_fen,
    pieces=STANDARD_PIECES,
    royalty=Royalty.CAPTURE,
    no_moves=Result.DRAW,
    move_limit=80,
    minor_piece_draw=True,
    pyffish_name="minichess-classic",
)

ANTICHESS = VariantDefinition(
    name="antichess",
    title="Antichess (MIT 6.170 rules)",
    aliases=("giveaway", "losing-chess", "antichess-mit", "suicide"),
    files=8,
    ranks=8,
    start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    pieces=STANDARD_PIECES,
    royalty=Royalty.NONE,
    pawn_double_step=True,
    compulsory_capture=True,
    no_moves=Result.WIN,
    fifty_move_plies=100,
    default_clock=300.0,
    pyffish_name="antichess-mit",
    decisions=(
        "Drawn when 50 moves by each side pass with no capture and no pawn move.",
    ),
)

CHESS36 = VariantDefinition(
    name="chess36",
    title="Chess36 (Rick C. Hodgin's 6x6 chess)",
    aliases=("hodgin", "chess-36", "6x6"),
    files=6,
    ranks=6,
    start_fen="rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[] w - - 0 1",
    pieces={**STANDARD_PIECES, "B": CHESS36_BISHOP, "N": CHESS36_KNIGHT},
    royalty=Royalty.CHECK,
    promotion="QRBN",
    no_moves=Result.DRAW,
    fifty_move_plies=100,
    repetition=True,
    minor_piece_draw=True,
    king_reentry=True,
    decisions=(
        "Checkmate wins; stalemate, threefold repetition (automatic, the start position counts),"
        " the 50-move rule and insufficient material draw.",
        "The bishop's orthogonal step may capture.",
        "Captured queens, rooks, bishops and knights go to their owner's reserve as what they"
        " are now (a promoted queen as a queen); captured pawns do not.",
        "Re-entry: a king one rank before the opponent's back rank, not in check, may drop a"
        " reserve piece onto the empty square straight ahead; the square may be attacked; the"
        " move must not leave the king in check; a drop does not reset the 50-move count.",
        "A knight's neighbours are judged in the position at hand.",
        "Insufficient material counts reserves: drawn when, apart from kings, the material on"
        " the board and in both reserves is nothing, one bishop or one knight.",
        "Order of game ends: no legal move, insufficient material, 50-move rule, repetition.",
    ),
)

CSC111 = VariantDefinition(
    name="csc111",
    title="CSC111 Minichess (University of Toronto, 4x4)",
    aliases=("csc111-minichess", "toronto", "4x4"),
    files=4,
    ranks=4,
    start_fen="rqkr/pppp/PPPP/RQKR w - - 0 1",
    pieces={k: STANDARD_PIECES[k] for k in "PRQK"},
    royalty=Royalty.CHECK,
    promotion="",
    no_moves=Result.LOSS,
    move_limit=50,
    pyffish_name="csc111",
)

GARDNER = VariantDefinition(
    name="gardner",
    title="Gardner's 5x5 minichess",
    aliases=("gardner-minichess", "5x5"),
    files=5,
    ranks=5,
    start_fen="rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1",
    pieces=STANDARD_PIECES,
    royalty=Royalty.CHECK,
    promotion="QRBN",
    no_moves=Result.DRAW,
    fifty_move_plies=100,
    repetition=True,
    minor_piece_draw=True,
    pyffish_name="gardner",
)

LOSALAMOS = VariantDefinition(
    name="losalamos",
    title="Los Alamos chess (6x6)",
    aliases=("los-alamos", "los_alamos"),
    files=6,
    ranks=6,
    start_fen="rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
    pieces={k: STANDARD_PIECES[k] for k in "PNRQK"},
    royalty=Royalty.CHECK,
    promotion="QRN",
    no_moves=Result.DRAW,
    fifty_move_plies=100,
    repetition=True,
    minor_piece_draw=True,
    pyffish_name="losalamos",
)

VARIANTS: dict[str, VariantDefinition] = {
    v.name: v
    for v in (MINITCHESS, MINICHESS_CLASSIC, ANTICHESS, CHESS36, CSC111, GARDNER, LOSALAMOS)
}
"""All variants by their canonical name, the five of the rules first."""

_BY_ALIAS = {alias: v for v in VARIANTS.values() for alias in (v.name, *v.aliases)}


def get_variant(name: str | VariantDefinition) -> VariantDefinition:
    """Return the variant called ``name`` (canonical name or alias, any case)."""
    if isinstance(name, VariantDefinition):
        return name
    key = name.strip().lower().replace(" ", "-")
    try:
        return _BY_ALIAS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}") from None
