"""The Elo difference a match result shows, with its 95% confidence interval.

The score ``s`` is the first player's points per game (win 1, draw 1/2, loss 0). The logistic
Elo model gives the difference ``elo = -400 log10(1/s - 1)``. The interval comes from the
trinomial variance of the per-game scores: with ``n`` games, the standard deviation of the mean
score is ``sqrt(var / n)``; the 95% interval of the score, ``s +- 1.96 sd``, is mapped through
the Elo formula at both ends, and the error is half its width (as cutechess reports it).

A score of 0 or 1 has no finite Elo difference, and an interval end at or beyond 0 or 1 has no
finite bound either: such a value is ``None`` (``null`` in JSON), read "unbounded".

>>> estimate = elo_estimate(wins=10, draws=5, losses=5)
>>> round(estimate.elo, 1), round(estimate.error, 1)
(88.7, 143.9)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95% confidence interval; None stands for unbounded."""

    elo: float | None
    """The difference itself; None when the score is 0 or 1 (or there are no games)."""
    lower: float | None
    """The interval's lower end; None when unbounded below."""
    upper: float | None
    """The interval's upper end; None when unbounded above."""

    @property
    def error(self) -> float | None:
        """Half the interval's width (``elo +- error``); None when either end is unbounded."""
        if self.lower is None or self.upper is None:
            return None
        return (self.upper - self.lower) / 2


def elo_from_score(score: float) -> float | None:
    """The Elo difference of a player scoring ``score`` (0..1) per game; None for 0 or 1."""
    if not 0 <= score <= 1:
        raise ValueError(f"a score is between 0 and 1, not {score}")
    if score in (0, 1):
        return None
    return 400 * math.log10(score / (1 - score))  # = -400 log10(1/s - 1)


def expected_score(elo: float) -> float:
    """The score per game that an Elo advantage ``elo`` predicts (the inverse of
    :func:`elo_from_score`)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference and its 95% interval for a player with these results."""
    games = wins + draws + losses
    if games == 0:
        return EloEstimate(None, None, None)
    score = (wins + draws / 2) / games
    variance = (
        wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2
    ) / games
    margin = Z_95 * math.sqrt(variance / games)
    return EloEstimate(
        elo_from_score(score),
        _bound(score - margin),
        _bound(score + margin),
    )


def _bound(score: float) -> float | None:
    """The Elo of an interval end; None when it lies at or beyond 0 or 1."""
    return elo_from_score(score) if 0 < score < 1 else None
