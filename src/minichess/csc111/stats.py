"""The plot of a series of game results (``run_games(..., show_stats=True)``).

As in the course library, the plot shows each game's outcome (1 when White won, else 0),
White's winning share over all games so far, and over the last 50 games. With plotly installed
(``pip install 'minichess[course]'``) and a screen or a notebook to show it in, it is the
course library's plotly figure; otherwise a chart drawn in the terminal with rich.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

ROLLING_GAMES = 50
"""The window of the rolling share."""
_TITLE = "Minichess Game Results"


@dataclass(frozen=True)
class ResultSeries:
    """What the plot shows, game by game."""

    outcomes: list[int]
    """1 when White won the game, 0 for a draw or a Black win."""
    cumulative: list[float]
    """White's share of wins in the games so far."""
    rolling: list[float]
    """White's share of wins in the last ``ROLLING_GAMES`` games so far."""


def result_series(results: Sequence[str]) -> ResultSeries:
    """The series of ``results`` (``'White'``, ``'Black'`` or ``'Draw'`` per game).

    >>> result_series(['White', 'Draw', 'White', 'Black']).cumulative
    [1.0, 0.5, 0.6666666666666666, 0.5]
    """
    unknown = set(results) - {"White", "Black", "Draw"}
    if unknown:
        raise ValueError(f"results must be 'White', 'Black' or 'Draw', not {sorted(unknown)}")
    outcomes = [1 if result == "White" else 0 for result in results]
    cumulative, rolling = [], []
    wins = 0
    for i, outcome in enumerate(outcomes, start=1):
        wins += outcome
        cumulative.append(wins / i)
        recent = outcomes[max(i - ROLLING_GAMES, 0):i]
        rolling.append(sum(recent) / len(recent))
    return ResultSeries(outcomes, cumulative, rolling)


def plot_game_statistics(results: Sequence[str]) -> None:
    """Plot ``results``: the course library's plotly figure where plotly can show it, else a
    chart in the terminal."""
    series = result_series(results)
    if _can_show_figures():
        try:
            figure = plotly_figure(series)
        except ImportError:
            pass
        else:
            figure.show()
            return
    Console(highlight=False).print(terminal_chart(series))


def _can_show_figures() -> bool:
    """Whether a figure has somewhere to appear: a notebook, or a desktop session."""
    if "ipykernel" in sys.modules:
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def plotly_figure(series: ResultSeries):  # -> plotly.graph_objects.Figure
    """The course library's figure: the outcomes above, the two shares below."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    figure = make_subplots(rows=2, cols=1)
    figure.add_trace(go.Scatter(y=series.outcomes, mode="markers",
                                name="Outcome (1 = White win, 0 = Draw/Black win)"), row=1, col=1)
    figure.add_trace(go.Scatter(y=series.cumulative, mode="lines",
                                name="White win percentage (cumulative)"), row=2, col=1)
    figure.add_trace(go.Scatter(y=series.rolling, mode="lines",
                                name=f"White win percentage (most recent {ROLLING_GAMES} games)"),
                     row=2, col=1)
    figure.update_yaxes(range=[0.0, 1.0], row=2, col=1)
    figure.update_layout(title=_TITLE, xaxis_title="Game")
    return figure


_BARS = " ▁▂▃▄▅▆▇█"
_CHART_ROWS = 8
_CHART_COLUMNS = 60


def terminal_chart(series: ResultSeries) -> Text:
    """The results as text: White's winning share over the games (``●`` all games so far,
    ``·`` the last 50), with a bar per column for the share of White wins among its games."""
    games = len(series.outcomes)
    columns = min(games, _CHART_COLUMNS)
    # each column stands for the games from bounds[c] to bounds[c + 1]
    bounds = [round(c * games / columns) for c in range(columns + 1)]
    text = Text(f"{_TITLE}: White won {sum(series.outcomes)} of {games}\n", style="bold")
    grid = [[" "] * columns for _ in range(_CHART_ROWS)]
    for c in range(columns):
        last = bounds[c + 1] - 1
        for share, mark in ((series.rolling[last], "·"), (series.cumulative[last], "●")):
            grid[min(int(share * _CHART_ROWS), _CHART_ROWS - 1)][c] = mark
    for row in reversed(range(_CHART_ROWS)):
        label = f"{100 * row // _CHART_ROWS:>3}% " if row % 2 == 0 else "     "
        text.append(label + "│", style="dim")
        text.append("".join(grid[row]) + "\n", style="cyan")
    wins = Text("wins │", style="dim")
    for c in range(columns):
        chunk = series.outcomes[bounds[c]:bounds[c + 1]]
        wins.append(_BARS[round(8 * sum(chunk) / len(chunk))], style="green")
    text.append_text(wins)
    text.append(f"\n     └{'─' * columns}\n", style="dim")
    text.append(f"      game 1{f'game {games}':>{max(columns - 6, 0)}}\n", style="dim")
    text.append(f"      ● White's share of wins so far  · in the last {ROLLING_GAMES} games"
                "  bars: White wins", style="dim")
    return text
