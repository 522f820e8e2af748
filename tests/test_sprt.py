"""The SPRT over game pairs: the log-likelihood ratio against values computed independently,
the bounds, the decisions and the parsing of the command line's ``ELO0,ELO1``."""

from __future__ import annotations

import math

import pytest

from minichess.match.elo import expected_score
from minichess.match.sprt import (
    PAIR_SCORES,
    Decision,
    Sprt,
    SprtError,
    log_likelihood_ratio,
    parse_sprt,
    pentanomial,
)

# LLRs computed with fishtest's procedure (server/fishtest/stats/LLRcalc.py, LLR_logistic):
# empty cells as 0.001, the secular equation solved by scipy.optimize.brentq (xtol 1e-15).
FISHTEST_VALUES = [
    ((10, 200, 600, 260, 30), 0, 5, 4.361616938131513),
    ((10, 200, 600, 260, 30), 0, 2, 1.9391901727086311),
    ((3, 40, 120, 45, 2), -5, 5, 0.34303992735861855),
    ((0, 3, 10, 2, 0), 0, 10, -0.24286105384289447),
    ((1, 0, 0, 0, 0), 0, 5, -0.014523779645967582),
    ((0, 0, 0, 0, 1), 0, 5, 0.014315849412829656),
    ((5, 0, 0, 0, 7), -10, 10, 0.11515333591862215),
    ((120, 460, 1410, 520, 110), 0, 5, 0.0906202100553451),
    ((10, 20, 30, 40, 50), -50, 50, 28.480195762901822),
    ((12, 8, 20, 9, 11), 0, 5, -0.02953412181188421),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "expected"), FISHTEST_VALUES)
def test_the_llr_is_fishtests(counts, elo0, elo1, expected):
    assert log_likelihood_ratio(counts, elo0, elo1) == pytest.approx(expected, rel=1e-9)


def _llr_from_the_dual(counts, elo0, elo1):
    """The same LLR derived another way: the log-likelihood of the likeliest distribution
    with mean ``s`` is the empirical one minus ``max_x sum p_i log(1 + x (a_i - s))`` (a concave
    function of x), so the LLR is N times the difference of the two maxima, found here by a
    golden-section search instead of a root of the derivative."""
    counts = [count or 1e-3 for count in counts]
    pairs = sum(counts)
    observed = [count / pairs for count in counts]

    def best(mean):
        shifted = [a - mean for a in PAIR_SCORES]
        low, high = -1 / max(shifted) + 1e-12, -1 / min(shifted) - 1e-12

        def dual(x):
            return sum(p * math.log(1 + x * a) for p, a in zip(observed, shifted, strict=True))

        ratio = (math.sqrt(5) - 1) / 2
        for _ in range(300):
            left, right = high - ratio * (high - low), low + ratio * (high - low)
            if dual(left) < dual(right):
                low = left
            else:
                high = right
        return dual((low + high) / 2)

    return pairs * (best(expected_score(elo0)) - best(expected_score(elo1)))


@pytest.mark.parametrize(("counts", "elo0", "elo1", "_"), FISHTEST_VALUES)
def test_the_llr_agrees_with_the_dual_derivation(counts, elo0, elo1, _):
    assert log_likelihood_ratio(counts, elo0, elo1) == pytest.approx(
        _llr_from_the_dual(counts, elo0, elo1), rel=1e-7, abs=1e-9)


def test_the_llr_is_near_the_normal_approximation_on_many_pairs():
    # fishtest's LLR_alt2 (and fastchess's earlier formula): N (s1-s0)(2s-s0-s1) / (2 var).
    counts = (120, 460, 1410, 520, 110)
    pairs = sum(counts)
    mean = sum(n * a for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n * (a - mean) ** 2 for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    s0, s1 = expected_score(-3), expected_score(3)
    approximation = pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert log_likelihood_ratio(counts, -3, 3) == pytest.approx(approximation, rel=0.01)


def test_no_pairs_no_evidence_and_symmetry():
    assert log_likelihood_ratio((0, 0, 0, 0, 0), 0, 5) == 0
    counts = (3, 11, 25, 9, 2)
    mirrored = counts[::-1]
    assert log_likelihood_ratio(counts, -4, 4) == pytest.approx(
        -log_likelihood_ratio(mirrored, -4, 4))


def test_bounds_and_decisions():
    test = Sprt(0, 5, alpha=0.05, beta=0.05)
    assert test.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert test.upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.decision(0.0) is None
    assert test.decision(test.upper) is Decision.H1
    assert test.decision(test.lower - 0.1) is Decision.H0
    uneven = Sprt(0, 5, alpha=0.01, beta=0.1)
    assert (uneven.lower, uneven.upper) == pytest.approx((math.log(0.1 / 0.99),
                                                          math.log(0.9 / 0.01)))
    assert test.decision(test.llr((10, 200, 600, 260, 30))) is Decision.H1


def test_pentanomial_counts_pair_scores():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2]) == (1, 1, 2, 1, 2)
    with pytest.raises(ValueError, match="pair scores"):
        pentanomial([0.75])


@pytest.mark.parametrize(
    ("text", "bounds"), [("0,5", (0, 5)), ("-3, 1.5", (-3, 1.5)), ("+0.5,2", (0.5, 2))]
)
def test_parse_sprt(text, bounds):
    test = parse_sprt(text, alpha=0.1)
    assert (test.elo0, test.elo1, test.alpha, test.beta) == (*bounds, 0.1, 0.05)


@pytest.mark.parametrize(
    ("text", "alpha", "complaint"),
    [("5", 0.05, "expected ELO0,ELO1"), ("a,b", 0.05, "expected ELO0,ELO1"),
     ("5,0", 0.05, "must be below"), ("0,5", 1.2, "error rates"), ("0,2000", 0.05, "1000")],
)
def test_bad_sprt_parameters_say_what_is_wrong(text, alpha, complaint):
    with pytest.raises(SprtError, match=complaint):
        parse_sprt(text, alpha=alpha)
