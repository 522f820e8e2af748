"""Games in the CSC111 course library's interface: players, ``run_game``, ``run_games`` and
what they print, the games shown as they are played, and the plot of the results."""

from __future__ import annotations

import copy
import io
import random
import re

import pytest
from rich.console import Console

from minichess.csc111 import (
    EnginePlayer,
    MinichessGame,
    Player,
    RandomPlayer,
    run_game,
    run_games,
)
from minichess.csc111 import display as display_module
from minichess.csc111 import play as play_module
from minichess.csc111 import stats as stats_module
from minichess.csc111.display import TerminalDisplay, caption, open_display
from minichess.csc111.stats import plot_game_statistics, plotly_figure, result_series


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    """Visualized games wait 1/fps seconds a move: not in the tests."""
    monkeypatch.setattr(play_module.time, "sleep", lambda seconds: None)


@pytest.fixture
def headless(monkeypatch):
    """No screen: no DISPLAY, no SDL driver chosen."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(display_module.sys, "platform", "linux")


class FirstMovePlayer(Player):
    """Plays the first valid move and remembers what it was told."""

    def __init__(self) -> None:
        self.told: list[str | None] = []

    def make_move(self, game: MinichessGame, previous_move: str | None) -> str:
        if previous_move is None and self.told:
            raise AssertionError("this player has played a game before")
        self.told.append(previous_move)
        return game.get_valid_moves()[0]


def test_run_game_returns_the_winner_and_the_moves_that_lead_to_it():
    random.seed(3)
    winner, moves = run_game(RandomPlayer(), RandomPlayer())
    game = MinichessGame()
    for move in moves:
        assert game.get_winner() is None
        game.make_move(move)
    assert game.get_winner() == winner


def test_each_player_is_told_the_opponents_last_move():
    white, black = FirstMovePlayer(), FirstMovePlayer()
    _, moves = run_game(white, black)
    assert white.told == [None, *moves[1::2]][: len(white.told)]
    assert black.told == moves[0::2][: len(black.told)]


def test_an_invalid_move_from_a_player_is_a_value_error():
    class Cheat(Player):
        def make_move(self, game, previous_move):
            return "a1a4"

    with pytest.raises(ValueError, match='Move "a1a4" is not valid'):
        run_game(Cheat(), RandomPlayer())


def test_run_games_prints_each_winner_then_the_totals(capsys):
    random.seed(11)
    expected = [run_game(RandomPlayer(), RandomPlayer())[0] for _ in range(4)]
    random.seed(11)
    assert run_games(4, RandomPlayer(), RandomPlayer()) is None
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [f"Game {i} winner: {winner}" for i, winner in enumerate(expected)]
    assert lines[4:] == [
        f"{side}: {expected.count(side)}/4 ({100 * expected.count(side) / 4:.2f}%)"
        for side in ("White", "Black", "Draw")
    ]


def test_run_games_plays_each_game_with_fresh_copies_of_the_players(capsys):
    white, black = FirstMovePlayer(), FirstMovePlayer()
    run_games(3, white, black)  # a copy that had played before would raise
    assert white.told == [] and black.told == []
    assert capsys.readouterr().out.count("winner:") == 3


def test_run_games_needs_a_game():
    with pytest.raises(ValueError, match="at least 1"):
        run_games(0, RandomPlayer(), RandomPlayer())


# --- visualize ------------------------------------------------------------------------------


def test_without_a_screen_games_are_shown_in_the_terminal(headless):
    assert isinstance(open_display(), TerminalDisplay)


def test_terminal_display_shows_every_position_and_the_winner(monkeypatch):
    output = io.StringIO()
    monkeypatch.setattr(play_module, "open_display",
                        lambda: TerminalDisplay(Console(file=output, width=40)))
    random.seed(5)
    winner, moves = run_game(RandomPlayer(), RandomPlayer(), visualize=True, fps=1000)
    shown = output.getvalue()
    assert "White to move" in shown
    assert all(f"played {move}" in shown for move in moves)
    assert shown.rstrip().endswith({"White": "White wins!", "Black": "Black wins!",
                                    "Draw": "Draw!"}[winner])
    assert shown.count("♔") == len(moves) + 1  # one board a position


def test_caption_says_who_played_what():
    game = MinichessGame()
    assert caption(game, None) == "White to move"
    game.make_move("a2b3")
    assert caption(game, "a2b3") == "1. White played a2b3"
    assert caption(MinichessGame(move_count=50), "d2c3") == "50. Black played d2c3: Draw!"


def test_window_display_draws_the_position_and_closes_when_asked(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    window = open_display()
    assert isinstance(window, display_module.WindowDisplay)
    try:
        game = MinichessGame()
        game.make_move("b2c3")
        window.show(game, "b2c3")

        def colour_at(file, rank, where="topleft"):
            return tuple(window.screen.get_at(getattr(window._square_area(file, rank), where)))

        def colour(name):
            return tuple(pygame.Color(name))

        assert colour_at(1, 1, "center") == colour(display_module.LAST_MOVE_DARK)  # b2, left
        assert colour_at(2, 2) == colour(display_module.LAST_MOVE_DARK)  # c3, reached
        assert colour_at(0, 3) == colour(display_module.LIGHT_SQUARE)  # a4
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        window.show(game, None)  # the user closed the window: nothing more is drawn
        assert not window.open
    finally:
        window.close()


# --- show_stats -----------------------------------------------------------------------------


def test_result_series_are_the_course_librarys():
    series = result_series(["White"] * 60 + ["Black"] * 40)
    assert series.outcomes[:2] == [1, 1] and series.outcomes[-1] == 0
    assert series.cumulative[-1] == 0.6
    assert series.rolling[-1] == 10 / 50  # the last 50 games: 10 White wins
    with pytest.raises(ValueError, match="'white'"):
        result_series(["white"])


def test_without_a_screen_the_plot_is_a_terminal_chart(headless, capsys):
    plot_game_statistics(["White", "Draw", "White", "Black"])
    out = capsys.readouterr().out
    assert out.startswith("Minichess Game Results: White won 2 of 4")
    assert "game 1" in out and "game 4" in out


def test_run_games_with_show_stats_plots_after_the_totals(headless, capsys):
    random.seed(2)
    run_games(5, RandomPlayer(), RandomPlayer(), show_stats=True)
    out = capsys.readouterr().out
    assert re.search(r"Draw: \d/5 \(\d+\.\d\d%\)\nMinichess Game Results: White won \d of 5", out)


def test_with_a_screen_and_plotly_the_course_librarys_figure_is_shown(monkeypatch):
    pytest.importorskip("plotly")
    shown = []
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(stats_module.sys, "platform", "linux")
    monkeypatch.setattr("plotly.graph_objects.Figure.show", lambda figure: shown.append(figure))
    plot_game_statistics(["White", "Black"])
    assert len(shown) == 1
    figure = shown[0]
    assert [trace.name for trace in figure.data] == [
        "Outcome (1 = White win, 0 = Draw/Black win)",
        "White win percentage (cumulative)",
        "White win percentage (most recent 50 games)",
    ]
    assert figure.layout.title.text == "Minichess Game Results"
    assert list(figure.data[1].y) == [1.0, 0.5]


def test_plotly_figure_has_the_outcomes_above_the_shares():
    pytest.importorskip("plotly")
    figure = plotly_figure(result_series(["Draw", "White"]))
    assert list(figure.data[0].y) == [0, 1]
    assert tuple(figure.layout.yaxis2.range) == (0.0, 1.0)


# --- the engine as a course player --------------------------------------------------------------


def test_engine_player_finds_the_mate():
    board = [[None] * 4 for _ in range(4)]
    board[0][0], board[2][2], board[3][1] = "K", "k", "q"  # a1, c3, b4
    game = MinichessGame(board, white_active=False)
    assert EnginePlayer(seconds=0.2).make_move(game, None) == "b4b2"


def test_engine_player_plays_whole_games_as_a_fresh_copy_each_time(capsys):
    player = EnginePlayer(level=2, seconds=0.01)
    twin = copy.deepcopy(player)
    assert (twin.level, twin.seconds) == (2, 0.01) and twin._engine is not player._engine
    random.seed(4)
    run_games(2, player, RandomPlayer())
    assert capsys.readouterr().out.count("winner:") == 2
