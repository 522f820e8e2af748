"""Fairy-Stockfish (``pyffish``) as an independent oracle for move generation.

The oracle knows nothing of the project's own code. It wraps ``pyffish`` with the variant
definitions of ``tests/data/fairy.ini`` and adds the end-of-game rules that Fairy-Stockfish does
not know, so that its move lists and perft counts follow RULES.md (and docs/rules.md for the two
extra variants):

* minitchess: drawn once 80 plies have been played (the ply is taken from the FEN's fullmove
  number and side to move); pyffish already ends the game when a king is captured and gives no
  moves to a side without legal moves.
* minichess-classic: as minitchess, plus the immediate draw when one side has only a king and the
  other only a king, a king and a knight, or a king and a bishop.
* csc111: drawn once 50 plies have been played.
* antichess: drawn when the halfmove clock reaches 100 (the project's decision); pyffish already
  ends the game when the side to move has no pieces or no moves.
* gardner, losalamos: pyffish's built-in rules, plus the project's decisions (docs/rules.md)
  that draws are automatic: halfmove clock 100, insufficient material (apart from the kings
  nothing or one bishop or knight) and threefold repetition. pyffish reports the first and the
  last only as claims (``is_optional_game_end``), the second only through
  ``has_insufficient_material``, and goes on giving moves.

A FEN carries no history, so repetition counts only positions met inside one ``oracle_perft``
line (the root included); ``oracle_moves`` never sees a repetition.

Move and position notation are pyffish's, which is the project's: ``a2a3``, promotion ``a5a6q``
(lower-case letter for both colours), FEN with castling and en passant fields ``-``.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pyffish

FAIRY_INI: Path = Path(__file__).resolve().parent / "data" / "fairy.ini"
"""The project's Fairy-Stockfish definitions of its variants."""

ORACLE_VARIANTS: dict[str, str] = {
    "minitchess": "minitchess",
    "minichess-classic": "minichess-classic",
    "csc111": "csc111",
    "antichess": "antichess-mit",
    "gardner": "gardner",
    "losalamos": "losalamos",
}
"""Project variant name -> pyffish variant name."""

PLY_LIMITS: dict[str, int] = {"minitchess": 80, "minichess-classic": 80, "csc111": 50}
"""Variants drawn once this many plies have been played (pyffish knows no such limit)."""

HALFMOVE_LIMITS: dict[str, int] = {"antichess": 100, "gardner": 100, "losalamos": 100}
"""Variants drawn when the halfmove clock reaches this value (pyffish only offers a claim)."""

MINOR_PIECE_DRAW: frozenset[str] = frozenset({"minichess-classic", "gardner", "losalamos"})
"""Variants drawn at once when, apart from the kings, only one bishop or knight is left."""

REPETITION_DRAW: frozenset[str] = frozenset({"gardner", "losalamos"})
"""Variants drawn at once when a position occurs for the third time."""

_MINOR_PIECE_DRAW_MAX_PIECES = 3
"""At most this many pieces are on the board when a minor-piece draw applies."""

_REPETITION_MIN_PLIES = 8
"""The fewest plies in which a position can occur a third time."""


@cache
def load() -> None:
    """Load the variant definitions of ``fairy.ini`` into pyffish (once per process)."""
    pyffish.load_variant_config(FAIRY_INI.read_text(encoding="utf-8"))


def _pyffish_name(variant: str) -> str:
    try:
        return ORACLE_VARIANTS[variant]
    except KeyError:
        raise ValueError(f"no oracle for variant {variant!r}") from None


def _ply(fen: str) -> int:
    """Plies played before this position, from the FEN's fullmove number and side to move."""
    fields = fen.split()
    fullmove = int(fields[5]) if len(fields) > 5 else 1
    return 2 * (fullmove - 1) + (1 if fields[1] == "b" else 0)


def _halfmove_clock(fen: str) -> int:
    fields = fen.split()
    return int(fields[4]) if len(fields) > 4 else 0


def _pieces(fen: str) -> str:
    """The piece letters on the board (the FEN's first field without digits and slashes)."""
    return "".join(c for c in fen.split()[0] if c.isalpha())


def _minor_piece_draw(fen: str) -> bool:
    """Apart from the kings, nothing or a single bishop or knight is on the board.

    For minichess-classic this is RULES.md's "one side has only a king and the other only a
    king, a king and a knight, or a king and a bishop" (with both kings on the board; a game
    without one of them is already over).
    """
    others = [c for c in _pieces(fen) if c not in "Kk"]
    return len(others) <= 1 and all(c in "BNbn" for c in others)


class _Root:
    """A position handed to the oracle; nodes below it are reached by a list of moves.

    pyffish replays the moves from the root FEN on every call. The FEN of a node is only built
    when a rule that pyffish lacks could apply there, which keeps perft fast.
    """

    def __init__(self, variant: str, fen: str) -> None:
        load()
        self.variant = variant
        self.name = _pyffish_name(variant)
        if pyffish.validate_fen(fen, self.name) != pyffish.FEN_OK:
            raise ValueError(f"invalid {variant} FEN: {fen!r}")
        self.fen = fen
        self.ply = _ply(fen)
        self.halfmove = _halfmove_clock(fen)
        self.piece_count = len(_pieces(fen))

    def _node_fen(self, moves: list[str]) -> str:
        return pyffish.get_fen(self.name, self.fen, moves) if moves else self.fen

    def ended_by_project_rule(self, moves: list[str]) -> bool:
        """Whether a rule that pyffish lacks ends the game after ``moves`` (a draw).

        The halfmove clock grows by at most one a ply, and the number of pieces falls by at most
        one, so a node's FEN is only built where a rule is within reach.
        """
        ply_limit = PLY_LIMITS.get(self.variant)
        if ply_limit is not None and self.ply + len(moves) >= ply_limit:
            return True
        halfmove_limit = HALFMOVE_LIMITS.get(self.variant)
        if (
            halfmove_limit is not None
            and self.halfmove + len(moves) >= halfmove_limit
            and _halfmove_clock(self._node_fen(moves)) >= halfmove_limit
        ):
            return True
        if (
            self.variant in MINOR_PIECE_DRAW
            and self.piece_count - len(moves) <= _MINOR_PIECE_DRAW_MAX_PIECES
            and _minor_piece_draw(self._node_fen(moves))
        ):
            return True
        if self.variant in REPETITION_DRAW and len(moves) >= _REPETITION_MIN_PLIES:
            # pyffish reports a third occurrence (root included) as an optional end.
            return pyffish.is_optional_game_end(self.name, self.fen, moves)[0]
        return False

    def moves(self, moves: list[str]) -> list[str]:
        """Legal moves after ``moves`` ([] when the game is over), in pyffish's order."""
        if self.ended_by_project_rule(moves):
            return []
        return pyffish.legal_moves(self.name, self.fen, moves)

    def perft(self, moves: list[str], depth: int) -> int:
        if depth == 0:
            return 1
        legal = self.moves(moves)
        if depth == 1:
            return len(legal)
        return sum(self.perft([*moves, move], depth - 1) for move in legal)


def start_fen(variant: str) -> str:
    """The start position of ``variant`` as pyffish gives it."""
    load()
    return pyffish.start_fen(_pyffish_name(variant))


def oracle_moves(variant: str, fen: str) -> list[str]:
    """Sorted legal moves of ``fen`` in the project's notation; [] when the game is over."""
    return sorted(_Root(variant, fen).moves([]))


def oracle_perft(variant: str, fen: str, depth: int) -> int:
    """Leaf nodes at ``depth`` below ``fen``; a finished game has no moves (RULES.md's perft)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    return _Root(variant, fen).perft([], depth)


def random_playout_fens(
    variant: str, n_positions: int, seed: int, max_plies: int = 200
) -> list[str]:
    """FENs of distinct positions met along random games from the start position.

    Games are played with uniformly random legal moves until the game is over or ``max_plies``
    moves have been made, then a new game starts, until ``n_positions`` positions (not counting
    the start position) have been collected. The result depends only on the arguments.
    """
    rng = random.Random(seed)
    start = start_fen(variant)
    name = _pyffish_name(variant)
    seen: set[str] = {start}
    fens: list[str] = []
    while len(fens) < n_positions:
        fen = start
        for _ in range(max_plies):
            legal = oracle_moves(variant, fen)
            if not legal:
                break
            fen = pyffish.get_fen(name, fen, [rng.choice(legal)])
            if fen not in seen:
                seen.add(fen)
                fens.append(fen)
                if len(fens) == n_positions:
                    break
    return fens
