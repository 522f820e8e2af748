"""Tuning the evaluation: self-play samples and the fit that learns from them."""

from __future__ import annotations

import shlex
import sys

import numpy as np
import pytest

from minichess.board import Board
from minichess.engine.evaluation import W_MATERIAL, WEIGHT_COUNT
from minichess.engine.labelling import Labeller, Position, expected_results, quiet_positions
from minichess.engine.tuning import Samples, fit, labelled_samples, self_play
from minichess.engine.weights import starting_weights
from minichess.game import Game
from minichess.match import parse_player
from minichess.variants import get_variant

PROJECT_ENGINE = f"uci:{shlex.quote(sys.executable)} -m minichess.cli.main uci"


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


def test_positions_from_games_are_the_quiet_ones_each_once():
    game = Game("minitchess")
    for move in ["b2b3", "c5c4", "b3c4", "b5b4", "a2a3", "b4a3"]:
        game.push(game.board.parse_uci(move))
    positions = quiet_positions([game, game])
    fens = [position.fen for position in positions]
    assert len(fens) == len(set(fens))
    for position in positions:
        board = Board("minitchess", position.fen)
        assert not board.is_check()
        assert not any(board.is_capture(move) for move in board.legal_moves)
    assert "kqbnr/p1ppp/1p3/2P2/P1PPP/RNBQK w - - 0 3" not in fens  # b5xc4 could be answered
    assert all(position.result is None for position in positions)  # the game goes on


@pytest.mark.parametrize("label", ["search", PROJECT_ENGINE])
def test_searches_label_positions_with_whites_expected_result(label):
    positions = [Position("2k1/4/1R2/K3 w - - 0 10", None),  # White is a rook up
                 Position("2k1/4/3r/K3 w - - 0 10", None)]  # Black is
    labels = expected_results(positions, "csc111", Labeller.parse(label, depth=3), concurrency=1)
    assert labels[0] > 0.9 and labels[1] < 0.1


@pytest.fixture
def pgn(tmp_path):
    """A PGN file of one csc111 game that White wins, with quiet moves on both sides."""
    path = tmp_path / "game.pgn"
    path.write_text('[Variant "csc111"]\n[SetUp "1"]\n[FEN "r1kr/q1Pp/p1P1/RQKR w - - 0 3"]\n'
                    '[Result "1-0"]\n\n3. Qb2 Qxc3 4. Qxc3+ Kxc3 5. Rxa2 Kb4 6. Rxa4+ Kxa4'
                    ' 7. cxd3 Rc4+ 8. dxc4 Kb3 9. Kd2 Kb4 10. Rc1 Ka4 11. Kc3 Ka3 12. Ra1# 1-0\n')
    return path


def test_labelled_samples_come_from_the_games_of_a_pgn_file(pgn):
    variant = get_variant("csc111")
    samples = labelled_samples(variant, starting_weights(variant), [pgn], Labeller("result"))
    assert samples.features.shape == (len(samples.results), WEIGHT_COUNT)
    assert len(samples.results) > 0 and set(samples.results) == {1.0}  # White won


def test_a_search_labelling_positions_reports_its_progress(pgn, capsys):
    variant = get_variant("csc111")
    samples = labelled_samples(variant, starting_weights(variant), [pgn],
                               Labeller.parse("search", depth=2), concurrency=1)
    last = capsys.readouterr().err.splitlines()[-1]  # stderr is no terminal here: lines
    done, total = last.removesuffix(" positions labelled").split("/")
    assert done == total and int(total) >= len(samples.results) > 0


def test_an_external_engine_evaluates_a_position():
    spec = parse_player(PROJECT_ENGINE)
    with spec.create() as engine:
        evaluation = engine.evaluate(Board("csc111", "2k1/4/1R2/K3 b - - 0 10"), depth=3)
    assert evaluation.centipawns is not None and evaluation.centipawns < -300
    assert evaluation.nodes is not None and evaluation.nodes > 0
