"""Index layout of the arrays the compiled core works on.

Squares are numbered ``rank * 8 + file`` on every board (a1 = 0, b1 = 1, a2 = 8), so boards up
to 8x8 share one layout; squares outside a smaller board are simply never set.

A position is one int64 array (``POS_SIZE`` entries):

- ``BB + colour * 8 + type``: bitboard of that colour's pieces of that type (types 1..6);
  ``BB + colour * 8`` (type 0) is all pieces of the colour;
- ``STM`` side to move (0 White, 1 Black), ``HASH`` Zobrist key, ``HALFMOVE`` plies since the
  last capture or pawn move, ``PLY`` plies since the game start (for move limits);
- ``RESERVE + colour * 8 + type``: pieces in reserve (chess36);
- ``MAILBOX + square``: piece code ``colour * 8 + type`` on the square, 0 when empty.

A variant's tables are one int64 array of shape ``(TABLE_ROWS, 64)`` (see ``tables.py``).
"""

WHITE = 0
BLACK = 1

EMPTY = 0
PAWN = 1
KNIGHT = 2
BISHOP = 3
ROOK = 4
QUEEN = 5
KING = 6
PIECE_LETTERS = ".PNBRQK"

# --- position array -------------------------------------------------------------------------
BB = 0
STM = 16
HASH = 17
HALFMOVE = 18
PLY = 19
RESERVE = 24
MAILBOX = 40
POS_SIZE = 104

# --- moves: from | to << 6 | piece << 12 | DROP ------------------------------------------------
# ``piece`` is the promotion type of a pawn move, or the dropped type of a drop (from == to).
DROP = 1 << 15
MAX_MOVES = 512
"""Room for the moves of one position in a move buffer."""

# --- tables array rows -------------------------------------------------------------------------
# A "move set" index is a piece type (its usual moves) or type + 8 (its moves while isolated).
LEAP = 0  # + move set: squares reached by a single jump or step that may capture
QUIET = 16  # + move set: single steps onto empty squares only
PAWN_PUSH = 32  # + colour: the square one step ahead
PAWN_CAPTURE = 34  # + colour: the squares a pawn captures on
RAY = 36  # + direction 0..7: the ray from a square to the board's edge
NEIGHBOURS = 44  # the 8 squares around a square
FLAGS = 45  # one row of scalar switches, indexed by F_*
MASKS = 46  # one row of bitboard masks, indexed by M_*
ZOBRIST = 47  # + piece code (colour * 8 + type): key per square
ZOBRIST_RESERVE = 63  # + piece code: key per reserve count (1..63)
ZOBRIST_MISC = 79  # [0]: side to move
SLIDER_MASK = 80  # + 0 orthogonal, + 1 diagonal: squares whose occupancy matters for slides
SLIDER_OFFSET = 82  # + 0 orthogonal, + 1 diagonal: where a square's entries start
PAWN_SPAN = 84  # + colour: the squares ahead of a pawn on its own and the neighbouring files
TABLE_ROWS = 86
SLIDER_TABLE = TABLE_ROWS
"""Rows from here on hold slider attacks by PEXT index: entry i is at [SLIDER_TABLE + i // 64,
i % 64] (only on machines with fast PEXT; see bits.HAS_FAST_PEXT)."""

# Ray directions: 0..3 run towards higher square numbers, 4..7 towards lower ones.
NORTH, EAST, NORTH_EAST, NORTH_WEST, SOUTH, WEST, SOUTH_WEST, SOUTH_EAST = range(8)

# FLAGS row
F_ROYALTY = 0  # Royalty: 0 none, 1 king capture, 2 check
F_COMPULSORY = 1
F_NO_MOVES = 2  # Result (-1, 0, 1) for the side to move without a legal move
F_MOVE_LIMIT = 3
F_FIFTY = 4
F_REPETITION = 5
F_MINOR_DRAW = 6
F_REENTRY = 7
F_DOUBLE_STEP = 8
F_PROMOTIONS = 9  # how many promotion choices
F_PROMOTION_TYPES = 10  # .. 13: the choices
F_FILES = 14
F_RANKS = 15
F_SLIDES = 16  # + move set: bit 0 orthogonal slides, bit 1 diagonal slides
F_ISOLATED = 32  # + type: 1 when the type has a separate move set while isolated
F_ANY_ISOLATED = 40  # 1 when some type has: attacks then depend on the neighbourhood

SLIDE_ORTHOGONAL = 1
SLIDE_DIAGONAL = 2

# MASKS row
M_BOARD = 0
M_PROMOTION_RANK = 1  # + colour: the rank where that colour's pawns promote
M_DOUBLE_STEP = 3  # + colour: squares one step ahead of the pawn start rank
M_NOT_FIRST_FILE = 5
M_NOT_LAST_FILE = 6
M_REENTRY_RANK = 7  # + colour: the rank before the opponent's back rank

# Game end reasons reported by the core (result in the low 2 bits: result + 1).
END_NONE = 0
END_KING_CAPTURED = 1
END_MOVE_LIMIT = 2
END_CHECKMATE = 3
END_STALEMATE = 4
END_NO_LEGAL_MOVES = 5
END_INSUFFICIENT_MATERIAL = 6
END_FIFTY_MOVES = 7
END_REPETITION = 8
