"""Games on a Ray cluster: a local Ray instance started here (two CPUs), a few short csc111
games, with the same results and reports as on local processes."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from minichess.engine.spsa import new_run, tune
from minichess.engine.tuning import self_play
from minichess.engine.weights import starting_weights
from minichess.match import play_match
from minichess.match.sprt import Decision, Sprt
from minichess.variants import get_variant

ray = pytest.importorskip("ray", reason="Ray is an optional extra (minichess[ray])")
pytestmark = pytest.mark.solo  # a Ray instance's servers take more than their share of the cores


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray instance with two CPUs for this module's tests."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR",
             log_to_driver=False, object_store_memory=100 * 2**20)
    yield
    ray.shutdown()


def _comparable(result):
    """What a match's report says, without what varies from run to run (the games' moves)."""
    data = result.to_dict()
    return {key: data[key] for key in ("players", "variant", "time_control", "seed", "games")}


def test_a_match_on_ray_reports_as_one_on_local_processes(local_ray):
    arguments = dict(games=4, time_control="2+0.02", concurrency=2, seed=4)
    on_ray = play_match(["greedy", "random"], "csc111", ray="auto", **arguments)
    local = play_match(["greedy", "random"], "csc111", **arguments)
    assert _comparable(on_ray) == _comparable(local)
    assert [game.round for game in on_ray.games] == [1, 2, 3, 4]
    assert [game.white for game in on_ray.games] == [game.white for game in local.games]
    assert [game.pgn.split("[FEN")[1][:60] for game in on_ray.games] == [
        game.pgn.split("[FEN")[1][:60] for game in local.games]  # the same openings
    assert on_ray.wins + on_ray.draws + on_ray.losses == 4
    assert ray.is_initialized()  # the pool used this process's Ray and left it running


def test_an_sprt_stops_a_match_on_ray(local_ray):
    result = play_match(["random", "greedy"], "minitchess", games=None, time_control="2+0.02",
                        concurrency=2, seed=5, sprt=Sprt(0, 200), ray="auto")
    assert result.decision is Decision.H0
    assert result.games_played < 40


def test_self_play_on_ray_gives_the_samples_of_local_processes(local_ray):
    variant = get_variant("csc111")
    weights = starting_weights(variant)
    on_ray = self_play(variant, weights, games=3, depth=2, seed=1, ray="auto")
    local = self_play(variant, weights, games=3, depth=2, seed=1, concurrency=2)
    np.testing.assert_array_equal(on_ray.features, local.features)
    np.testing.assert_array_equal(on_ray.results, local.results)


def test_spsa_plays_its_pairs_on_ray(local_ray):
    run = new_run(get_variant("csc111"), games=4, time_control="0.5+0.01", seed=2,
                  tune=["razor_margin=300:30"])
    tune(run, output=None, ray="auto")
    assert run.done == 2 and len(run.history) == 2


def test_the_match_command_starts_and_ends_its_own_ray():
    completed = subprocess.run(
        [sys.executable, "-m", "minichess.cli.main", "match", "greedy", "random", "--variant",
         "csc111", "--games", "2", "--time", "2+0.02", "--concurrency", "2", "--ray", "auto",
         "--json"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["games"] == 2 and report["players"] == ["greedy", "random"]


def test_the_match_command_joins_a_running_cluster_by_its_address(local_ray):
    address = ray.get_runtime_context().gcs_address
    completed = subprocess.run(
        [sys.executable, "-m", "minichess.cli.main", "match", "greedy", "random", "--variant",
         "csc111", "--games", "2", "--time", "2+0.02", "--ray", address, "--json"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["games"] == 2
    assert ray.cluster_resources()["CPU"] == 2  # the cluster outlives the command


def test_a_cluster_that_is_not_there_is_a_clear_error():
    completed = subprocess.run(
        [sys.executable, "-m", "minichess.cli.main", "match", "greedy", "random", "--games",
         "2", "--ray", "127.0.0.1:1"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert completed.returncode == 2
    assert "cannot join the Ray cluster at '127.0.0.1:1'" in completed.stderr
