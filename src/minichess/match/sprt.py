"""The sequential probability ratio test over game pairs, as the engine-testing frameworks
(fishtest, fastchess) run it: the generalized SPRT on pentanomial frequencies.

The two games of a pair start from the same opening with colours swapped, so their results
are correlated; the test therefore counts pairs, not games. A pair's score for the first
player is 0, 1/2, 1, 3/2 or 2 points, and the **pentanomial** counts how many pairs ended
with each (``LL``, ``LD+DL``, ``WL+LW+DD``, ``WD+DW``, ``WW``).

The hypotheses are about the first player's logistic Elo advantage (the Elo of the match
report: a score ``s`` per game is ``400 log10(s / (1 - s))``): H0, ``elo = elo0``, against
H1, ``elo = elo1``. Each maps to an expected score per game ``s0``, ``s1``. With ``N`` pairs
whose pair scores, halved to 0..1, have the empirical distribution ``p̂`` over the values
``a = 0, 1/4, 1/2, 3/4, 1``, the log-likelihood ratio is

    LLR = N * sum_i p̂_i * log(p1_i / p0_i)

where ``p0`` and ``p1`` are the distributions most likely to have produced the counts among
those with expectation ``s0`` and ``s1`` (the maximum-likelihood estimates under each
hypothesis): ``p_i = p̂_i / (1 + x (a_i - s))`` with ``x`` the root of
``sum_i p̂_i (a_i - s) / (1 + x (a_i - s)) = 0`` (Van den Bergh, "Comments on normalized Elo",
proposition 1.1). Empty cells count as 0.001 pairs, as in fishtest and fastchess.

The test stops at the first pair after which the LLR leaves the interval
``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: below, it accepts H0 (the advantage is
at most ``elo0``, with error rate ``beta`` of wrongly rejecting a true ``elo1``); above, it
accepts H1 (error rate ``alpha``).

>>> test = Sprt(0, 5)
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> round(test.llr((10, 200, 600, 260, 30)), 2)
4.36
>>> test.decision(3.1)
<Decision.H1: 'H1'>
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from minichess.errors import MinichessError
from minichess.match.elo import expected_score

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The values of a pair's score per game (its points halved), one per pentanomial cell."""
EMPTY_CELL = 1e-3
"""What an empty pentanomial cell counts as: an LLR needs every outcome to have been seen."""

Pentanomial = tuple[int, int, int, int, int]
"""Pairs whose first player scored 0, 1/2, 1, 3/2 and 2 points."""


class SprtError(MinichessError):
    """SPRT parameters that make no test (``elo0 >= elo1``, error rates outside 0..1)."""


class Decision(Enum):
    """What the test accepted."""

    H0 = "H0"
    """The first player's advantage is at most ``elo0``."""
    H1 = "H1"
    """The first player's advantage is at least ``elo1``."""


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0 ``elo = elo0`` against H1 ``elo = elo1``
    (logistic Elo of the first player), with error rates ``alpha`` (accepting H1 when H0
    holds) and ``beta`` (accepting H0 when H1 holds)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise SprtError(f"SPRT bounds: elo0 ({self.elo0:g}) must be below elo1"
                            f" ({self.elo1:g})")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise SprtError(f"SPRT error rates: alpha ({self.alpha:g}) and beta"
                            f" ({self.beta:g}) must lie between 0 and 1, with a sum below 1")
        if not (self.elo0 > -1000 and self.elo1 < 1000):
            raise SprtError("SPRT bounds must lie between -1000 and 1000 Elo")

    @property
    def lower(self) -> float:
        """The LLR at or below which the test accepts H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which the test accepts H1."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 against H0 after these pairs (0 before any)."""
        return log_likelihood_ratio(pentanomial, self.elo0, self.elo1)

    def decision(self, llr: float) -> Decision | None:
        """What the test accepts at this LLR; None while it goes on."""
        if llr >= self.upper:
            return Decision.H1
        if llr <= self.lower:
            return Decision.H0
        return None

    def __str__(self) -> str:
        return (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g}"
                f" beta={self.beta:g}")


def parse_sprt(text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """The test that ``"ELO0,ELO1"`` (e.g. ``"0,5"``, ``"-3,1.5"``) describes; raises SprtError
    saying what is wrong."""
    match = re.fullmatch(r"\s*([-+]?[\d.]+)\s*,\s*([-+]?[\d.]+)\s*", text)
    try:
        if match is None:
            raise ValueError(text)
        elo0, elo1 = float(match[1]), float(match[2])
    except ValueError:
        raise SprtError(f"bad SPRT bounds {text!r}: expected ELO0,ELO1 such as 0,5") from None
    return Sprt(elo0, elo1, alpha, beta)


def pentanomial(pair_scores: Iterable[float]) -> Pentanomial:
    """The pentanomial of pairs with these scores (first player's points, 0..2).

    >>> pentanomial([2, 1, 1, 0.5, 1.5, 1])
    (0, 1, 3, 1, 1)
    """
    counts = [0] * 5
    for score in pair_scores:
        cell = round(2 * score)
        if not (0 <= cell <= 4 and cell == 2 * score):
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {score}")
        counts[cell] += 1
    losses, one_half, one, three_halves, wins = counts
    return losses, one_half, one, three_halves, wins


def log_likelihood_ratio(pentanomial: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of ``elo = elo1`` against ``elo = elo0``
    (logistic Elo per game) after the pairs counted in ``pentanomial``."""
    if len(pentanomial) != len(PAIR_SCORES):
        raise ValueError(f"a pentanomial has 5 counts, not {len(pentanomial)}")
    if not any(pentanomial):
        return 0.0
    counts = [count or EMPTY_CELL for count in pentanomial]
    pairs = sum(counts)
    observed = [count / pairs for count in counts]
    likeliest0 = likeliest_distribution(observed, expected_score(elo0))
    likeliest1 = likeliest_distribution(observed, expected_score(elo1))
    return pairs * sum(
        p * (math.log(p1) - math.log(p0))
        for p, p0, p1 in zip(observed, likeliest0, likeliest1, strict=True)
    )


def likeliest_distribution(observed: Sequence[float], mean: float) -> list[float]:
    """Among the distributions over PAIR_SCORES whose expectation is ``mean`` (strictly
    between 0 and 1), the one under which the ``observed`` frequencies (all positive) are most
    likely: ``observed_i / (1 + x (a_i - mean))``, with ``x`` the root of the secular equation,
    found by bisection on the interval where every probability stays positive."""
    shifted = [value - mean for value in PAIR_SCORES]

    def secular(x: float) -> float:  # strictly decreasing on the interval
        return sum(p * a / (1 + x * a) for p, a in zip(observed, shifted, strict=True))

    low, high = -1 / max(shifted), -1 / min(shifted)
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if secular(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    return [p / (1 + x * a) for p, a in zip(observed, shifted, strict=True)]
