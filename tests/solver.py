"""A brute-force solver over the Board API: the independent check of the engine's mate scores."""

from __future__ import annotations

from minichess import Board


def forced_win_plies(board: Board, max_plies: int) -> int | None:
    """The fewest plies after which the side to move has forced a win (in antichess the last
    one may be the opponent's forced capture), or None if it cannot within ``max_plies``."""
    for plies in range(1, max_plies + 1):
        if _wins_within(board, plies):
            return plies
    return None


def _wins_within(board: Board, plies: int) -> bool:
    """Whether the side to move can force a win within ``plies`` plies."""
    me = board.turn
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner == me
    if plies <= 0:
        return False
    for move in board.legal_moves:
        board.push(move)
        try:
            if _loses_within(board, plies - 1, me):
                return True
        finally:
            board.pop()
    return False


def _loses_within(board: Board, plies: int, winner) -> bool:
    """Whether the side to move (the opponent of ``winner``) loses within ``plies`` plies."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner == winner
    if plies <= 0:
        return False
    for move in board.legal_moves:
        board.push(move)
        try:
            if not _wins_within(board, plies - 1):
                return False
        finally:
            board.pop()
    return True


def move_wins(board: Board, move, plies: int) -> bool:
    """Whether ``move`` forces a win for the side to move within ``plies`` plies (its own
    move included)."""
    me = board.turn
    board.push(move)
    try:
        return _loses_within(board, plies - 1, me)
    finally:
        board.pop()
