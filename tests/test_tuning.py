"""Tuning the evaluation: self-play samples and the fit that learns from them."""

from __future__ import annotations

import numpy as np

from minichess.engine.evaluation import W_MATERIAL, WEIGHT_COUNT
from minichess.engine.tuning import Samples, fit, self_play
from minichess.engine.weights import starting_weights
from minichess.variants import get_variant


def test_self_play_records_feature_vectors_with_results():
    variant = get_variant("csc111")
    samples = self_play(variant, starting_weights(variant), games=4, depth=2, seed=1)
    assert samples.features.shape[1] == WEIGHT_COUNT
    assert len(samples.features) == len(samples.results) > 0
    assert set(np.unique(samples.results)) <= {0.0, 0.5, 1.0}


def test_the_fit_learns_a_material_value_the_results_reward():
    # Games are won by whoever has more rooks: the fit must raise the rook's weight.
    rng = np.random.default_rng(3)
    features = np.zeros((2000, WEIGHT_COUNT))
    features[:, W_MATERIAL + 4] = rng.integers(-2, 3, size=2000)
    results = np.where(features[:, W_MATERIAL + 4] > 0, 1.0,
                       np.where(features[:, W_MATERIAL + 4] < 0, 0.0, 0.5))
    start = np.zeros(WEIGHT_COUNT, dtype=np.int64)
    weights, loss = fit(Samples(features, results), start, start.astype(float), steps=300)
    assert weights[W_MATERIAL + 4] > 100
    assert loss < 0.1  # knowing nothing (all scores 0) the loss is 0.2
