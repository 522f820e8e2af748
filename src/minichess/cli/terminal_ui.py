"""What ``minichess play`` shows: the board, the clocks and the texts of its commands.

Everything here is pure: functions of a game or a board that return text or a ``rich``
renderable, so that they are tested without a terminal. The player that reads the human's
input is :mod:`minichess.players.human`, the game loop :mod:`minichess.cli.terminal_game`.
"""

from __future__ import annotations

import math
from collections.abc import Collection

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from minichess.board import Board
from minichess.engine import PlayResult
from minichess.errors import MinichessError
from minichess.game import Game
from minichess.move import Move
from minichess.pieces import (
    BLACK,
    COLOR_NAMES,
    PIECE_NAMES,
    WHITE,
    Color,
    Piece,
    PieceType,
    piece_type_from_symbol,
)
from minichess.squares import FILE_NAMES, Square, parse_square, square, square_name
from minichess.variants import Royalty

LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"

LAST_MOVE_LIGHT = "#cdd26a"
LAST_MOVE_DARK = "#aaa23a"
CHECKED_KING = "#e06666"

HELP_TEXT = """\
Type a move in any notation: a2a3, a2-a3, SAN (Nc3, bxc4, a6=Q) or a drop (Q@d6).
Commands:
  moves [SQUARE|PIECE]  legal moves in SAN: all, the piece on a square (moves b2)
                        or the pieces of a kind (moves N)
  undo                  take back the engine's last reply and your move
  hint                  ask the engine for a move
  resign                give up the game
  save FILE.pgn         save the game so far
  load FILE.pgn         continue a saved game (its variant, moves and clocks)
  flip                  turn the board around
  help                  this text
  quit                  leave the game (Ctrl-D and Ctrl-C too)"""


# --- the board ---------------------------------------------------------------------------------


def square_shade(sq: Square, highlighted: Collection[Square] = (),
                 checked: Square | None = None) -> str:
    """The background colour of ``sq``: red for a king in check, yellow for the last move's
    squares, else the light or dark square colour."""
    light = (sq & 7) % 2 != (sq >> 3) % 2
    if sq == checked:
        return CHECKED_KING
    if sq in highlighted:
        return LAST_MOVE_LIGHT if light else LAST_MOVE_DARK
    return LIGHT_SQUARE if light else DARK_SQUARE


def board_text(board: Board, orientation: Color = WHITE, highlighted: Collection[Square] = (),
               checked: Square | None = None) -> Text:
    """The board with chess figurines as seen by ``orientation``'s player (its first rank at the
    bottom), rank numbers left and right and file letters above and below."""
    files = list(range(board.variant.files))
    ranks = list(reversed(range(board.variant.ranks)))
    if orientation == BLACK:
        files.reverse()
        ranks.reverse()
    letters = ("  " + "".join(f" {FILE_NAMES[file]} " for file in files)).rstrip()
    text = Text()
    text.append(letters + "\n", style="bold")
    for rank in ranks:
        text.append(f"{rank + 1} ", style="bold")
        for file in files:
            sq = square(file, rank)
            piece = board.piece_at(sq)
            figure = piece.unicode_symbol() if piece else " "
            text.append(f" {figure} ", style=f"black on {square_shade(sq, highlighted, checked)}")
        text.append(f" {rank + 1}\n", style="bold")
    text.append(letters, style="bold")
    return text


def last_move_squares(board: Board) -> tuple[Square, ...]:
    """The squares the last move left and reached (a drop: its one square); none at the start."""
    if not board.move_stack:
        return ()
    move = board.peek()
    return (move.to_square,) if move.drop else (move.from_square, move.to_square)


def checked_king(board: Board) -> Square | None:
    """The side to move's king when it is attacked, in variants where the king is royal."""
    if board.variant.royalty == Royalty.NONE or not board.is_check():
        return None
    return board.king(board.turn)


# --- the facts beside the board ----------------------------------------------------------------


def clock_text(seconds: float) -> str:
    """A clock reading: ``4:58``, ``1:02:03``, tenths under 20 seconds (``0:09.4``). Whole
    seconds are rounded up, so that a clock that has just started still reads ``5:00``."""
    seconds = max(seconds, 0.0)
    if seconds < 20:
        return f"0:{seconds:04.1f}"
    minutes, rest = divmod(math.ceil(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{rest:02}" if hours else f"{minutes}:{rest:02}"


def player_lines(game: Game, names: dict[Color, str]) -> list[Text]:
    """One line per side, White first: a marker for the side to move, its name and its clock."""
    lines = []
    width = max(len(name) for name in names.values())
    for color in (WHITE, BLACK):
        moving = game.board.turn == color and not game.is_game_over()
        line = Text("▶ " if moving else "  ", style="bold")
        line.append(f"{COLOR_NAMES[color]:<6} {names[color]:<{width}}",
                    style="bold" if moving else "")
        seconds = game.check_time() if moving else game.remaining(color)
        if seconds is not None:
            line.append(f"  {clock_text(seconds)}", style="bold cyan" if moving else "cyan")
        lines.append(line)
    return lines


def last_move_text(game: Game) -> str | None:
    """The last move with its number, ``12... Nc4``; None before the first move."""
    sans = game.san_moves
    if not sans:
        return None
    board = game.board
    if board.turn == WHITE:
        return f"{board.fullmove_number - 1}... {sans[-1]}"
    return f"{board.fullmove_number}. {sans[-1]}"


def reserve_figures(board: Board, color: Color) -> str:
    """``color``'s reserve (chess36) as figurines, ``♕♘``, or ``none``."""
    reserve = sorted(board.reserve(color).items(), reverse=True)
    return "".join(Piece(kind, color).unicode_symbol() * count for kind, count in reserve) or "none"


def state_lines(game: Game, human: Color) -> list[Text]:
    """Whose turn it is, check, the last move, the reserves, and the end once there is one."""
    board = game.board
    outcome = game.outcome()
    lines = []
    if outcome is not None:
        lines.append(Text(f"Game over: {outcome}", style="bold magenta"))
    else:
        whose = "your move" if board.turn == human else "the engine's move"
        lines.append(Text(f"Move {board.fullmove_number}: {COLOR_NAMES[board.turn]} to move"
                          f" ({whose})"))
        if checked_king(board) is not None:
            lines.append(Text(check_warning(board), style="bold red"))
    last = last_move_text(game)
    if last is not None:
        lines.append(Text(f"Last move: {last}"))
    if board.variant.has_reserves:
        lines.append(Text(f"Reserves: White {reserve_figures(board, WHITE)},"
                          f" Black {reserve_figures(board, BLACK)}"))
    return lines


def check_warning(board: Board) -> str:
    """What check means in the variant."""
    if board.variant.royalty == Royalty.CAPTURE:
        return "Check: the king is attacked and can be captured"
    return "Check!"


def game_view(game: Game, human: Color, names: dict[Color, str],
              orientation: Color | None = None) -> RenderableType:
    """The board (from ``orientation``, by default the human's side) beside the players, their
    clocks and the state of the game."""
    board = game.board
    drawing = board_text(board, human if orientation is None else orientation,
                         last_move_squares(board), checked_king(board))
    facts = [Text(f"{board.variant.name}: {board.variant.title}", style="bold"), Text()]
    facts += player_lines(game, names)
    facts.append(Text())
    facts += state_lines(game, human)
    grid = Table.grid(padding=(0, 4))
    grid.add_row(drawing, Group(*facts))
    return grid


# --- texts of the commands ---------------------------------------------------------------------


def moves_text(board: Board, subject: str | None = None) -> str:
    """The legal moves in SAN: all of them, those of the piece on a square (``b2``) or those of
    the pieces of a kind (``N``, drops of that piece included). Raises MinichessError for a
    subject that is neither a square nor a piece letter."""
    moves = board.legal_moves
    if subject is None:
        return f"Legal moves ({len(moves)}): {_san_list(board, moves)}"
    if len(subject) == 1:
        return _moves_of_kind(board, _piece_kind(subject))
    return _moves_from_square(board, parse_square(subject.lower()))


def _piece_kind(letter: str) -> PieceType:
    try:
        return piece_type_from_symbol(letter)
    except MinichessError:
        raise MinichessError(
            f"moves {letter}: expected a square (moves b2) or a piece letter (moves N)"
        ) from None


def _moves_of_kind(board: Board, kind: PieceType) -> str:
    moves = [m for m in board.legal_moves
             if (m.drop or board.piece_type_at(m.from_square)) == kind]
    name = PIECE_NAMES[kind]
    if not moves:
        return f"No {name} of {COLOR_NAMES[board.turn]}'s can move."
    return f"{name.capitalize()} moves: {_san_list(board, moves)}"


def _moves_from_square(board: Board, sq: Square) -> str:
    where = square_name(sq)
    if sq not in set(board.squares()):
        return f"{where} is not on the {board.variant.name} board."
    piece = board.piece_at(sq)
    if piece is None:
        return f"There is no piece on {where}."
    name = f"{COLOR_NAMES[piece.color]}'s {PIECE_NAMES[piece.piece_type]} on {where}"
    if piece.color != board.turn:
        return f"The piece on {where} is {COLOR_NAMES[piece.color]}'s, and it is not its turn."
    moves = [m for m in board.legal_moves if m.from_square == sq and not m.drop]
    if not moves:
        return f"{name} has no legal move."
    return f"{name}: {_san_list(board, moves)}"


def _san_list(board: Board, moves: list[Move]) -> str:
    return ", ".join(board.san(move) for move in moves) or "none"


def hint_text(board: Board, result: PlayResult) -> str:
    """The engine's suggestion in SAN with its score for the side to move: ``Hint: Nc3 (+0.35,
    depth 9)`` or ``Hint: Qxc1 (mate in 2)``."""
    if result.mate is not None:
        verdict = f"mate in {result.mate}" if result.mate > 0 else f"mated in {-result.mate}"
    else:
        verdict = f"{(result.score or 0) / 100:+.2f}, depth {result.depth}"
    return f"Hint: {board.san(result.move)} ({verdict})"
