"""Positions as the API shows them: moves replayed with their SAN and FEN, and what a board
shows of a position (the side to move, a check, the last move)."""

from __future__ import annotations

from collections.abc import Iterable

from minichess import svg
from minichess.board import Board
from minichess.errors import MinichessError
from minichess.squares import square_name
from minichess.variants import get_variant
from minichess.web.live import COLOR_KEYS


def replay(variant: str, fen: str | None, moves: Iterable[str]) -> tuple[Board, list[dict]]:
    """The board after ``moves`` (any notation) from ``fen`` (None: the start), and each move
    as ``{"uci", "san", "fen"}``; an error names the move that failed."""
    board = Board(get_variant(variant), fen)
    history = []
    for index, text in enumerate(moves):
        try:
            move = board.parse_move(text)
        except MinichessError as error:
            raise type(error)(f"move {index + 1} ({text}): {error}") from None
        history.append(push(board, move))
    return board, history


def push(board: Board, move) -> dict:
    """Play the legal ``move``; it as ``{"uci", "san", "fen"}``."""
    san = board.san(move)
    board.push(move)
    return {"uci": move.uci(), "san": san, "fen": board.fen()}


def board_view(board: Board) -> dict:
    """The position's FEN, the side to move, the checked king's square and the last move."""
    check = svg.check_square(board) if board.outcome() is None else None
    last = board.peek() if board.move_stack else None
    return {"fen": board.fen(), "turn": COLOR_KEYS[board.turn],
            "check": None if check is None else square_name(check),
            "lastmove": last.uci() if last else None}


def position_view(board: Board) -> dict:
    """:func:`board_view` with the variant, the legal moves (coordinates and SAN) and the
    result and how the game ended, if it has."""
    outcome = board.outcome()
    return {
        "variant": board.variant.name,
        **board_view(board),
        "legal": [m.uci() for m in board.legal_moves],
        "legal_san": [board.san(m) for m in board.legal_moves],
        "result": board.result(),
        "outcome": None if outcome is None else {
            "winner": None if outcome.winner is None else COLOR_KEYS[outcome.winner],
            "termination": outcome.termination.value, "text": str(outcome)},
    }
