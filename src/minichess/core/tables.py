"""Build a variant's compiled tables from its definition (plain Python, run once per variant)."""

from __future__ import annotations

import numpy as np

from minichess.core import layout as L
from minichess.core.bits import HAS_FAST_PEXT
from minichess.core.movegen import fill_slider_table
from minichess.variants.definition import DIAGONAL, ORTHOGONAL, MoveSet, VariantDefinition

# Ray direction index for each slide offset (see layout: 0..3 go up the square numbers).
_RAY_OFFSETS = {
    L.NORTH: (0, 1), L.EAST: (1, 0), L.NORTH_EAST: (1, 1), L.NORTH_WEST: (-1, 1),
    L.SOUTH: (0, -1), L.WEST: (-1, 0), L.SOUTH_WEST: (-1, -1), L.SOUTH_EAST: (1, -1),
}
_ZOBRIST_SEED = 0x5EED_C4E55
_SLIDER_DIRECTIONS = (
    (L.NORTH, L.EAST, L.SOUTH, L.WEST),
    (L.NORTH_EAST, L.NORTH_WEST, L.SOUTH_WEST, L.SOUTH_EAST),
)


def _bit(square: int) -> int:
    return 1 << square


def _as_int64(value: int) -> np.int64:
    """Reinterpret an unsigned 64-bit pattern as int64 (bit 63 is h8 on an 8x8 board)."""
    return np.int64(value - (1 << 64) if value >= 1 << 63 else value)


class _Builder:
    def __init__(self, variant: VariantDefinition) -> None:
        self.v = variant
        self.rows = [[0] * 64 for _ in range(L.TABLE_ROWS)]

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.v.files and 0 <= rank < self.v.ranks

    def squares(self):
        for rank in range(self.v.ranks):
            for file in range(self.v.files):
                yield file, rank, rank * 8 + file

    def step_set(self, file: int, rank: int, offsets) -> int:
        bits = 0
        for df, dr in offsets:
            if self.on_board(file + df, rank + dr):
                bits |= _bit((rank + dr) * 8 + file + df)
        return bits

    def ray(self, file: int, rank: int, df: int, dr: int) -> int:
        bits = 0
        f, r = file + df, rank + dr
        while self.on_board(f, r):
            bits |= _bit(r * 8 + f)
            f, r = f + df, r + dr
        return bits

    def move_set(self, index: int, moves: MoveSet) -> None:
        directions = set(moves.slides)
        slides = 0
        if directions >= set(ORTHOGONAL):
            slides |= L.SLIDE_ORTHOGONAL
        if directions >= set(DIAGONAL):
            slides |= L.SLIDE_DIAGONAL
        if directions - set(ORTHOGONAL) - set(DIAGONAL) or len(directions) != 4 * bin(
            slides
        ).count("1"):
            raise ValueError(f"{self.v.name}: slides must be all orthogonal and/or all diagonal")
        self.rows[L.FLAGS][L.F_SLIDES + index] = slides
        for file, rank, sq in self.squares():
            self.rows[L.LEAP + index][sq] = self.step_set(file, rank, moves.leaps)
            self.rows[L.QUIET + index][sq] = self.step_set(file, rank, moves.quiet_steps)

    def pieces(self) -> None:
        for letter, piece in self.v.pieces.items():
            piece_type = L.PIECE_LETTERS.index(letter)
            if piece_type == L.PAWN:
                continue
            self.move_set(piece_type, piece.moves)
            if piece.isolated_moves is not None:
                self.rows[L.FLAGS][L.F_ISOLATED + piece_type] = 1
                self.rows[L.FLAGS][L.F_ANY_ISOLATED] = 1
                self.move_set(piece_type + 8, piece.isolated_moves)

    def pawns(self) -> None:
        for colour, forward in ((L.WHITE, 1), (L.BLACK, -1)):
            for file, rank, sq in self.squares():
                self.rows[L.PAWN_PUSH + colour][sq] = self.step_set(file, rank, [(0, forward)])
                self.rows[L.PAWN_CAPTURE + colour][sq] = self.step_set(
                    file, rank, [(-1, forward), (1, forward)]
                )
                self.rows[L.PAWN_SPAN + colour][sq] = sum(
                    self.ray(file + df, rank, 0, forward)
                    for df in (-1, 0, 1) if 0 <= file + df < self.v.files
                )

    def geometry(self) -> None:
        masks = self.rows[L.MASKS]
        last_rank = self.v.ranks - 1

        def rank_mask(rank: int) -> int:
            return sum(_bit(rank * 8 + f) for f in range(self.v.files))

        for file, rank, sq in self.squares():
            masks[L.M_BOARD] |= _bit(sq)
            if file > 0:
                masks[L.M_NOT_FIRST_FILE] |= _bit(sq)
            if file < self.v.files - 1:
                masks[L.M_NOT_LAST_FILE] |= _bit(sq)
            self.rows[L.NEIGHBOURS][sq] = self.step_set(
                file, rank, ORTHOGONAL + DIAGONAL
            )
            for direction, (df, dr) in _RAY_OFFSETS.items():
                self.rows[L.RAY + direction][sq] = self.ray(file, rank, df, dr)
        if self.v.promotion:
            masks[L.M_PROMOTION_RANK + L.WHITE] = rank_mask(last_rank)
            masks[L.M_PROMOTION_RANK + L.BLACK] = rank_mask(0)
        if self.v.pawn_double_step:
            masks[L.M_DOUBLE_STEP + L.WHITE] = rank_mask(2)
            masks[L.M_DOUBLE_STEP + L.BLACK] = rank_mask(last_rank - 2)
        if self.v.king_reentry:
            masks[L.M_REENTRY_RANK + L.WHITE] = rank_mask(last_rank - 1)
            masks[L.M_REENTRY_RANK + L.BLACK] = rank_mask(1)

    def rules(self) -> None:
        flags = self.rows[L.FLAGS]
        v = self.v
        flags[L.F_ROYALTY] = int(v.royalty)
        flags[L.F_COMPULSORY] = int(v.compulsory_capture)
        flags[L.F_NO_MOVES] = int(v.no_moves)
        flags[L.F_MOVE_LIMIT] = v.move_limit
        flags[L.F_FIFTY] = v.fifty_move_plies
        flags[L.F_REPETITION] = int(v.repetition)
        flags[L.F_MINOR_DRAW] = int(v.minor_piece_draw)
        flags[L.F_REENTRY] = int(v.king_reentry)
        flags[L.F_DOUBLE_STEP] = int(v.pawn_double_step)
        flags[L.F_FILES] = v.files
        flags[L.F_RANKS] = v.ranks
        flags[L.F_PROMOTIONS] = len(v.promotion)
        for i, letter in enumerate(v.promotion):
            flags[L.F_PROMOTION_TYPES + i] = L.PIECE_LETTERS.index(letter)

    def zobrist(self) -> None:
        rng = np.random.default_rng(_ZOBRIST_SEED)
        rows = L.ZOBRIST_MISC + 1 - L.ZOBRIST
        keys = rng.integers(1, 1 << 63, size=(rows, 64), dtype=np.int64)
        for row in range(L.ZOBRIST, L.ZOBRIST_MISC + 1):
            self.rows[row] = [int(k) for k in keys[row - L.ZOBRIST]]

    def slider_masks(self) -> int:
        """Occupancy masks and table offsets for PEXT slider lookups; returns the entry count."""
        offset = 0
        for kind, directions in enumerate(_SLIDER_DIRECTIONS):
            for _file, _rank, sq in self.squares():
                mask = 0
                for direction in directions:
                    ray = self.rows[L.RAY + direction][sq]
                    if ray:  # the farthest square of a ray never blocks anything beyond it
                        far = 1 << (ray.bit_length() - 1) if direction < 4 else ray & -ray
                        mask |= ray & ~far
                self.rows[L.SLIDER_MASK + kind][sq] = mask
                self.rows[L.SLIDER_OFFSET + kind][sq] = offset
                offset += 1 << mask.bit_count()
        return offset

    def build(self) -> np.ndarray:
        self.geometry()
        self.pawns()
        self.pieces()
        self.rules()
        self.zobrist()
        entries = self.slider_masks() if HAS_FAST_PEXT else 0
        table = np.zeros((L.TABLE_ROWS + (entries + 63) // 64, 64), dtype=np.int64)
        for r, row in enumerate(self.rows):
            for c, value in enumerate(row):
                table[r, c] = _as_int64(value)
        if entries:
            fill_slider_table(table)
        return table


_TABLES: dict[str, np.ndarray] = {}


def variant_tables(variant: VariantDefinition) -> np.ndarray:
    """The int64 tables of ``variant`` (see ``layout.py`` for their rows), built once."""
    if variant.name not in _TABLES:
        _TABLES[variant.name] = _Builder(variant).build()
    return _TABLES[variant.name]
