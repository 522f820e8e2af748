"""Showing games as they are played (``run_games(..., visualize=True)``).

The course library draws each position in a pygame window. Here that window is used when pygame
is installed (``pip install 'minichess[course]'``) and there is a screen to put it on; otherwise
the game is drawn in the terminal with rich. Closing the window (or Esc) stops the drawing; the
games go on.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Protocol

from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

from minichess.cli.terminal_ui import DARK_SQUARE, LAST_MOVE_DARK, LAST_MOVE_LIGHT, LIGHT_SQUARE
from minichess.cli.terminal_ui import board_text as terminal_board
from minichess.csc111.game import SIZE, MinichessGame
from minichess.pieces import UNICODE_PIECES
from minichess.squares import FILE_NAMES, parse_square, square

WINNER_TEXTS = {"White": "White wins!", "Black": "Black wins!", "Draw": "Draw!"}
"""What the course library's window says when a game ends."""


class GameDisplay(Protocol):
    """Something that shows the positions of games one after the other."""

    def show(self, game: MinichessGame, move: str | None) -> None:
        """Show ``game`` after ``move`` (None: before the first move)."""

    def close(self) -> None:
        """Stop showing games."""


def open_display() -> GameDisplay:
    """A pygame window when pygame is installed and there is a screen, else the terminal."""
    if _screen_available():
        try:
            return WindowDisplay()
        except (ImportError, RuntimeError):  # no pygame, or no window to be had
            pass
    return TerminalDisplay()


def _screen_available() -> bool:
    """Whether a window can be shown: a desktop session (or SDL told where to draw)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def caption(game: MinichessGame, move: str | None) -> str:
    """The line under the board: the move just played, and the game's end once it is over."""
    winner = game.get_winner()
    if move is None:
        played = "White to move" if game.is_white_move() else "Black to move"
    else:
        mover = "Black" if game.is_white_move() else "White"
        played = f"{game._move_count}. {mover} played {move}"
    return played if winner is None else f"{played}: {WINNER_TEXTS[winner]}"


def _move_squares(move: str | None) -> tuple[int, ...]:
    return () if move is None else (parse_square(move[:2]), parse_square(move[2:4]))


class TerminalDisplay:
    """Draws each position in the terminal (redrawn in place; each game's last position stays
    on the screen). Where output is not a terminal, each position is printed in turn."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False)
        self._live: Live | None = None

    def show(self, game: MinichessGame, move: str | None) -> None:
        """Draw ``game`` after ``move``."""
        frame = Group(
            terminal_board(game.to_board(), highlighted=_move_squares(move)),
            Text(caption(game, move), style="bold"),
        )
        if not (self.console.is_terminal or self.console.is_jupyter):
            self.console.print(frame)
            self.console.print()
            return
        if self._live is None:
            self._live = Live(frame, console=self.console, auto_refresh=False)
            self._live.start()
        else:
            self._live.update(frame, refresh=True)
        if game.get_winner() is not None:
            self.close()

    def close(self) -> None:
        """Leave the last position on the screen."""
        if self._live is not None:
            self._live.stop()
            self._live = None


_SQUARE_PIXELS = 96
_MARGIN = 28
_CAPTION_PIXELS = 56
_FIGURINE_FONTS = "dejavusans,notosanssymbols2,segoeuisymbol,applesymbols,freeserif,symbola"


class WindowDisplay:
    """Draws each position in a pygame window, as the course library does."""

    def __init__(self) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self._pygame = pygame
        try:
            pygame.display.init()
            pygame.font.init()
            board = SIZE * _SQUARE_PIXELS
            self.screen = pygame.display.set_mode(
                (board + 2 * _MARGIN, board + 2 * _MARGIN + _CAPTION_PIXELS))
        except pygame.error as error:
            raise RuntimeError(f"no window: {error}") from None
        pygame.display.set_caption("minichess: CSC111 Minichess")
        self._pieces = _figurine_font(pygame, int(_SQUARE_PIXELS * 0.8))
        self._letters = pygame.font.Font(None, int(_SQUARE_PIXELS * 0.6))
        self._text = pygame.font.Font(None, 32)
        self.open = True

    def show(self, game: MinichessGame, move: str | None) -> None:
        """Draw ``game`` after ``move`` (nothing once the window has been closed)."""
        if not self.open or self._closed_by_user():
            return
        pygame = self._pygame
        self.screen.fill((50, 50, 50))
        highlighted = _move_squares(move)
        mailbox = game.get_fen().split("/")
        for rank in range(SIZE):
            for file in range(SIZE):
                sq = square(file, rank)
                light = (file + rank) % 2 == 1
                shade = ((LAST_MOVE_LIGHT if light else LAST_MOVE_DARK) if sq in highlighted
                         else (LIGHT_SQUARE if light else DARK_SQUARE))
                area = self._square_area(file, rank)
                pygame.draw.rect(self.screen, pygame.Color(shade), area)
                letter = mailbox[SIZE - 1 - rank][file]
                if letter != "1":
                    self._draw_piece(letter, area)
        for index in range(SIZE):
            self._label(FILE_NAMES[index], self._square_area(index, 0).centerx,
                        _MARGIN + SIZE * _SQUARE_PIXELS + _MARGIN // 2)
            self._label(str(index + 1), _MARGIN // 2, self._square_area(0, index).centery)
        text = self._text.render(caption(game, move), True, (240, 240, 240))
        self.screen.blit(text, text.get_rect(
            center=(self.screen.get_width() // 2, self.screen.get_height() - _CAPTION_PIXELS // 2)))
        pygame.display.flip()

    def close(self) -> None:
        """Close the window."""
        if self.open:
            self._pygame.display.quit()
            self.open = False

    def _closed_by_user(self) -> bool:
        pygame = self._pygame
        for event in pygame.event.get():
            escape = event.type == pygame.KEYUP and event.key == pygame.K_ESCAPE
            if event.type == pygame.QUIT or escape:
                self.close()
                return True
        return False

    def _square_area(self, file: int, rank: int) -> Any:
        top = _MARGIN + (SIZE - 1 - rank) * _SQUARE_PIXELS
        return self._pygame.Rect(_MARGIN + file * _SQUARE_PIXELS, top, _SQUARE_PIXELS,
                                 _SQUARE_PIXELS)

    def _label(self, text: str, x: int, y: int) -> None:
        label = self._text.render(text, True, (220, 220, 220))
        self.screen.blit(label, label.get_rect(center=(x, y)))

    def _draw_piece(self, letter: str, area: Any) -> None:
        """A figurine (filled in the piece's colour, outlined) where the font has them, else
        the letter on a disc."""
        white = letter.isupper()
        ink, edge = ((250, 250, 250), (20, 20, 20)) if white else ((20, 20, 20), (20, 20, 20))
        if self._pieces is not None:
            solid = self._pieces.render(UNICODE_PIECES[letter.lower()], True, ink)
            self.screen.blit(solid, solid.get_rect(center=area.center))
            outline = self._pieces.render(UNICODE_PIECES[letter.upper()], True, edge)
            self.screen.blit(outline, outline.get_rect(center=area.center))
            return
        self._pygame.draw.circle(self.screen, ink, area.center, _SQUARE_PIXELS * 0.38)
        self._pygame.draw.circle(self.screen, edge, area.center, _SQUARE_PIXELS * 0.38, 3)
        text = self._letters.render(letter.upper(), True, (20, 20, 20) if white else (250,) * 3)
        self.screen.blit(text, text.get_rect(center=area.center))


def _figurine_font(pygame: Any, size: int) -> Any:
    """A font with the chess figurines, or None when the system has none."""
    path = pygame.font.match_font(_FIGURINE_FONTS)
    if path is None:
        return None
    font = pygame.font.Font(path, size)
    if any(metric is None for metric in font.metrics("♔♚")):
        return None
    return font


