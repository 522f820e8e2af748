"""The Elo difference a match result shows, with its 95% interval (``minichess.match.elo``)."""

from __future__ import annotations

import math

import pytest

from minichess.match.elo import Z_95, elo_estimate, elo_from_score, expected_score


@pytest.mark.parametrize(
    ("score", "elo"),
    [(0.5, 0.0), (0.75, 190.85), (0.25, -190.85), (0.9, 381.70), (0.64, 99.95)],
)
def test_elo_from_score(score, elo):
    # 0.75 is three points per point lost: 400 log10(3)
    assert elo_from_score(score) == pytest.approx(elo, abs=0.01)


@pytest.mark.parametrize("score", [0.1, 0.5, 0.75, 0.99])
def test_expected_score_is_the_inverse(score):
    assert expected_score(elo_from_score(score)) == pytest.approx(score)


@pytest.mark.parametrize("score", [0.0, 1.0])
def test_a_perfect_or_zero_score_has_no_finite_elo(score):
    assert elo_from_score(score) is None


def test_a_score_outside_0_to_1_is_an_error():
    with pytest.raises(ValueError, match="between 0 and 1"):
        elo_from_score(1.5)


def test_estimate_with_known_values():
    # 10 wins, 5 draws, 5 losses: score 0.625; per-game variance
    # (10 * 0.375^2 + 5 * 0.125^2 + 5 * 0.625^2) / 20 = 0.171875
    estimate = elo_estimate(wins=10, draws=5, losses=5)
    margin = Z_95 * math.sqrt(0.171875 / 20)
    assert estimate.elo == pytest.approx(88.74, abs=0.01)
    assert estimate.lower == pytest.approx(elo_from_score(0.625 - margin))
    assert estimate.upper == pytest.approx(elo_from_score(0.625 + margin))
    assert (estimate.lower, estimate.upper) == pytest.approx((-39.56, 248.18), abs=0.01)
    assert estimate.error == pytest.approx(143.87, abs=0.01)


def test_the_estimate_is_symmetric_between_the_players():
    for_first, for_second = elo_estimate(12, 6, 2), elo_estimate(2, 6, 12)
    assert for_first.elo == pytest.approx(-for_second.elo)
    assert for_first.error == pytest.approx(for_second.error)


def test_more_games_give_a_smaller_error():
    assert elo_estimate(40, 20, 20).error < elo_estimate(10, 5, 5).error


def test_all_draws_is_exactly_even():
    estimate = elo_estimate(wins=0, draws=30, losses=0)
    assert (estimate.elo, estimate.error) == (0.0, 0.0)


def test_an_interval_reaching_a_perfect_score_is_unbounded_above():
    estimate = elo_estimate(wins=9, draws=1, losses=0)
    assert estimate.elo == pytest.approx(511.5, abs=0.1)
    assert estimate.lower == pytest.approx(311.1, abs=0.1)
    assert estimate.upper is None
    assert estimate.error is None


@pytest.mark.parametrize(("wins", "losses"), [(5, 0), (0, 5), (0, 0)])
def test_all_wins_all_losses_or_no_games_give_no_estimate(wins, losses):
    estimate = elo_estimate(wins=wins, draws=0, losses=losses)
    assert (estimate.elo, estimate.lower, estimate.upper, estimate.error) == (None,) * 4
