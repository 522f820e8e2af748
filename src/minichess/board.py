"""The Board: a position of any variant with its move history, in the style of python-chess."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from minichess.core import layout as L
from minichess.core.arrays import new_undo_stack
from minichess.core.makemove import make_move, unmake_move
from minichess.core.movegen import in_check
from minichess.core.rules import perft, rules_for
from minichess.core.tables import variant_tables
from minichess.errors import IllegalMoveError
from minichess.move import Move
from minichess.notation.fen import format_fen, parse_fen
from minichess.notation.san import move_to_san, parse_san
from minichess.outcome import Outcome
from minichess.pieces import BLACK, KING, PIECE_NAMES, WHITE, Color, Piece, PieceType, color_name
from minichess.position import Setup, mailbox_placement, position_array
from minichess.squares import FILE_NAMES, Square, square, square_name
from minichess.variants import VariantDefinition, get_variant


class CoreState(NamedTuple):
    """Copies of the compiled core's arrays for a position, for kernels outside the Board."""

    position: np.ndarray
    tables: np.ndarray
    undo: np.ndarray
    """The undo stack: the game's moves so far, then room for more."""
    plies: int
    """Moves in ``undo`` so far (where the next one goes)."""


class Board:
    """A position of ``variant`` and the moves that led to it from ``fen`` (its start position
    when None).

    >>> board = Board("minitchess")
    >>> board.push_uci("b2b3")
    Move.from_uci('b2b3')
    >>> board.fen()
    'kqbnr/ppppp/5/1P3/P1PPP/RNBQK b - - 0 1'
    """

    def __init__(self, variant: str | VariantDefinition = "minitchess", fen: str | None = None):
        self.variant: VariantDefinition = get_variant(variant)
        self._tables = variant_tables(self.variant)
        self._rules = rules_for(self._tables)
        self._buffer = np.zeros(L.MAX_MOVES, dtype=np.int64)
        self.set_fen(self.variant.start_fen if fen is None else fen)

    # --- setting up ---------------------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN and clear the move history."""
        self.set_setup(parse_fen(self.variant, fen))

    def set_setup(self, setup: Setup) -> None:
        """Set the position from a :class:`Setup` (already validated) and clear the history."""
        self._pos = position_array(self._tables, setup)
        self._undo = new_undo_stack(64)
        self._start_ply = setup.ply
        self.move_stack: list[Move] = []
        self._legal_cache: tuple[int, bool, list[Move]] | None = None

    def setup(self) -> Setup:
        """The current position as a :class:`Setup`."""
        pos = self._pos
        placement = mailbox_placement(pos[L.MAILBOX:L.POS_SIZE])
        reserves = {
            Piece.from_code(code): int(pos[L.RESERVE + code])
            for code in range(16)
            if pos[L.RESERVE + code]
        }
        return Setup(
            placement,
            self.turn,
            reserves,
            int(pos[L.HALFMOVE]),
            int(pos[L.PLY]) // 2 + 1,
        )

    def fen(self) -> str:
        """The position as FEN (Fairy-Stockfish convention)."""
        return format_fen(self.variant, self.setup())

    def copy(self, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` the copy forgets the move history."""
        board = Board.__new__(Board)
        board.variant = self.variant
        board._tables = self._tables
        board._rules = self._rules
        board._buffer = np.zeros(L.MAX_MOVES, dtype=np.int64)
        board._pos = self._pos.copy()
        board._legal_cache = None
        if stack:
            board._undo = self._undo.copy()
            board._start_ply = self._start_ply
            board.move_stack = list(self.move_stack)
        else:
            board._undo = new_undo_stack(64)
            board._start_ply = int(self._pos[L.PLY])
            board.move_stack = []
        return board

    # --- the position -------------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move."""
        return WHITE if self._pos[L.STM] == 0 else BLACK

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move."""
        return int(self._pos[L.HALFMOVE])

    @property
    def fullmove_number(self) -> int:
        """Move number: starts at 1 and goes up after Black's move."""
        return int(self._pos[L.PLY]) // 2 + 1

    def ply(self) -> int:
        """Plies played since the game's start (as the FEN counters tell)."""
        return int(self._pos[L.PLY])

    def squares(self) -> Iterator[Square]:
        """The squares of this board, a1 first, rank by rank."""
        for rank in range(self.variant.ranks):
            for file in range(self.variant.files):
                yield square(file, rank)

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on ``sq``, or None."""
        code = int(self._pos[L.MAILBOX + sq])
        return Piece.from_code(code) if code else None

    def piece_type_at(self, sq: Square) -> PieceType | None:
        """The type of the piece on ``sq``, or None."""
        piece = self.piece_at(sq)
        return None if piece is None else piece.piece_type

    def pieces(self, piece_type: PieceType, color: Color) -> list[Square]:
        """Squares of ``color``'s pieces of ``piece_type``."""
        bits = int(self._pos[L.BB + Piece(piece_type, color).code]) & ((1 << 64) - 1)
        return [sq for sq in range(64) if bits >> sq & 1]

    def king(self, color: Color) -> Square | None:
        """Square of ``color``'s king (None if it has none)."""
        kings = self.pieces(KING, color)
        return kings[0] if kings else None

    def reserve(self, color: Color) -> dict[PieceType, int]:
        """Pieces in ``color``'s reserve by type (chess36)."""
        base = 0 if color == WHITE else 8
        return {t: int(self._pos[L.RESERVE + base + t]) for t in range(2, 6)
                if self._pos[L.RESERVE + base + t]}

    def is_check(self) -> bool:
        """Whether the side to move's king is attacked (in every variant with a king)."""
        return bool(in_check(self._pos, self._tables, self._pos[L.STM]))

    def core_state(self, extra_plies: int = 0) -> CoreState:
        """Copies of the core's arrays for this position with room for ``extra_plies`` more
        moves (the engine searches on them; the board is not changed)."""
        plies = len(self.move_stack)
        undo = new_undo_stack(plies + extra_plies + 2)
        undo[:plies] = self._undo[:plies]
        return CoreState(self._pos.copy(), self._tables, undo, plies)

    def zobrist_hash(self) -> int:
        """The position's Zobrist key (pieces, side to move, reserves)."""
        return int(self._pos[L.HASH])

    # --- moves --------------------------------------------------------------------------------

    def _reserve_undo(self, extra: int) -> None:
        needed = len(self.move_stack) + extra + 2
        if needed > len(self._undo):
            grown = new_undo_stack(max(needed, 2 * len(self._undo)))
            grown[: len(self._undo)] = self._undo
            self._undo = grown

    def _end_code(self) -> int:
        self._reserve_undo(1)
        return int(self._rules.game_end(self._pos, self._tables, self._buffer, self._undo,
                                        len(self.move_stack)))

    def _moves_and_end(self) -> tuple[list[Move], bool]:
        """The moves of the position (cached until the next move) and whether the game has
        ended."""
        key = len(self.move_stack)
        if self._legal_cache is None or self._legal_cache[0] != key:
            over = self._end_code() != L.END_NONE
            self._reserve_undo(1)
            n = self._rules.legal_moves(self._pos, self._tables, self._buffer, self._undo, key,
                                        False)
            self._legal_cache = (key, over, [Move.from_code(code) for code in self._buffer[:n]])
        return self._legal_cache[2], self._legal_cache[1]

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves (none once the game is over), in generation order."""
        moves, over = self._moves_and_end()
        return [] if over else list(moves)

    @property
    def position_moves(self) -> list[Move]:
        """The moves the rules of movement give the side to move here, whether or not the game
        has ended, in generation order: a position past the move limit, or one whose side to
        move has lost its king, still has them. Course move generators list these (the end of
        the game is the referee's business); :attr:`legal_moves` is what may be played."""
        return list(self._moves_and_end()[0])

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` takes a piece (as in python-chess)."""
        return not move.drop and self.piece_at(move.to_square) is not None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return move in self.legal_moves

    def push(self, move: Move, *, after_end: bool = False) -> None:
        """Play a legal move; raise IllegalMoveError (and change nothing) otherwise.

        With ``after_end`` a move of :attr:`position_moves` is played even when the game has
        ended (a course harness's state operations: the referee decides the end)."""
        moves, over = self._moves_and_end()
        if move not in moves or (over and not after_end):
            raise IllegalMoveError(self._why_illegal(move, after_end))
        self._reserve_undo(1)
        make_move(self._pos, self._tables, move.code, self._undo, len(self.move_stack))
        self.move_stack.append(move)

    def pop(self) -> Move:
        """Take back the last move and return it (IndexError when there is none)."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        move = self.move_stack.pop()
        unmake_move(self._pos, self._tables, self._undo, len(self.move_stack))
        return move

    def peek(self) -> Move:
        """The last move played."""
        return self.move_stack[-1]

    def parse_uci(self, text: str, *, after_end: bool = False) -> Move:
        """The legal move written as ``a2a3``, ``a2-a3``, ``a5a6q`` or ``Q@d6``.

        A promotion may leave out the piece where the variant allows only one (as IMCS does).
        With ``after_end`` any move of :attr:`position_moves` is accepted, even when the game
        has ended."""
        move = Move.from_uci(text)
        moves, over = self._moves_and_end()
        candidates = moves if after_end or not over else []
        if move.promotion is None and not move.drop:
            promotions = [m for m in candidates
                          if (m.from_square, m.to_square) == (move.from_square, move.to_square)
                          and m.promotion]
            if len(promotions) == 1:
                return promotions[0]
            if promotions:
                choices = "".join(Piece(m.promotion, WHITE).symbol() for m in promotions
                                  if m.promotion)
                raise IllegalMoveError(
                    f"{text.strip()} promotes a pawn: add the piece, one of {choices}"
                    f" (e.g. {move.uci()}{choices[0].lower()})"
                )
        if move not in candidates:
            raise IllegalMoveError(self._why_illegal(move, after_end))
        return move

    def push_uci(self, text: str) -> Move:
        """Parse a move in coordinate notation, play it and return it."""
        move = self.parse_uci(text)
        self.push(move)
        return move

    def san(self, move: Move) -> str:
        """The move in Standard Algebraic Notation (e.g. ``Nc3``, ``bxc4``, ``d6=Q``)."""
        return move_to_san(self, move)

    def parse_san(self, text: str) -> Move:
        """The legal move written in SAN."""
        return parse_san(self, text)

    def push_san(self, text: str) -> Move:
        """Parse a move in SAN, play it and return it."""
        move = self.parse_san(text)
        self.push(move)
        return move

    def parse_move(self, text: str) -> Move:
        """The legal move in any accepted notation: coordinates, IMCS, drop or SAN."""
        try:
            return self.parse_uci(text)
        except IllegalMoveError:
            raise
        except ValueError:
            return self.parse_san(text)

    def _why_illegal(self, move: Move, after_end: bool = False) -> str:
        text = move.uci()
        outcome = self.outcome()
        if outcome is not None and not after_end:
            return f"{text} is not possible: the game is over ({outcome})"
        on_board = set(self.squares())
        for sq in (move.from_square, move.to_square):
            if sq not in on_board:
                last = FILE_NAMES[self.variant.files - 1] + str(self.variant.ranks)
                return (f"{text}: {square_name(sq)} is not on the {self.variant.name} board"
                        f" (a1-{last})")
        side = color_name(self.turn)
        if move.drop:
            return f"{text} is not a legal drop for {side} here"
        piece = self.piece_at(move.from_square)
        if piece is None:
            return f"{text}: there is no piece on {square_name(move.from_square)}"
        if piece.color != self.turn:
            return f"{text}: the piece on {square_name(move.from_square)} is not {side}'s"
        moves = self.position_moves if after_end else self.legal_moves
        targets = sorted(m.uci() for m in moves if m.from_square == move.from_square)
        if not targets:
            where = square_name(move.from_square)
            return f"{text}: the {PIECE_NAMES[piece.piece_type]} on {where} has no legal move"
        return f"{text} is illegal; legal moves of that piece: {', '.join(targets)}"

    # --- game end -----------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on."""
        code = self._end_code()
        return None if code == L.END_NONE else Outcome.from_core(code, self.turn)

    def is_game_over(self) -> bool:
        """Whether the game has ended by the rules."""
        return self._end_code() != L.END_NONE

    def result(self) -> str:
        """``'1-0'``, ``'0-1'``, ``'1/2-1/2'`` or ``'*'`` while the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def perft(self, depth: int) -> int:
        """Leaf nodes ``depth`` plies below this position (a finished game has no moves)."""
        self._reserve_undo(depth + 1)
        return perft(self._pos, self._tables, depth, self._undo, len(self.move_stack))

    # --- text ---------------------------------------------------------------------------------

    def __str__(self) -> str:
        rows = []
        for rank in reversed(range(self.variant.ranks)):
            cells = []
            for file in range(self.variant.files):
                piece = self.piece_at(square(file, rank))
                cells.append(piece.symbol() if piece else ".")
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def unicode(self, coordinates: bool = True) -> str:
        """The board with chess figurines and, by default, coordinates."""
        rows = []
        for rank in reversed(range(self.variant.ranks)):
            cells = []
            for file in range(self.variant.files):
                piece = self.piece_at(square(file, rank))
                cells.append(piece.unicode_symbol() if piece else "·")
            row = " ".join(cells)
            rows.append(f"{rank + 1} {row}" if coordinates else row)
        if coordinates:
            rows.append("  " + " ".join(FILE_NAMES[: self.variant.files]))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as a picture, with the last move and a check marked (notebooks show it)."""
        from minichess.svg import board_picture

        return board_picture(self, size=min(400, 60 * self.variant.files))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.variant is other.variant and self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]
