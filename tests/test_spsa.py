"""SPSA tuning of the search's constants: the schedule, the update, runs that resume."""

from __future__ import annotations

import json

import pytest

from minichess.engine import Techniques
from minichess.engine.search import SEARCH_CONSTANTS
from minichess.engine.spsa import SpsaError, SpsaRun, learn, main, new_run, tasks
from minichess.match import parse_player
from minichess.variants import get_variant


def test_a_run_starts_from_the_variants_constants_each_perturbed_by_a_tenth():
    run = new_run(get_variant("gardner"), games=200, time_control="1+0.01", seed=3)
    assert [c.name for c in run.constants] == list(SEARCH_CONSTANTS)
    razor = run.constants[0]
    assert (razor.value, razor.step) == (Techniques().razor_margin, Techniques().razor_margin / 10)
    assert run.pairs == 100


def test_the_schedule_ends_at_the_given_step_and_rate():
    run = new_run(get_variant("gardner"), 200, "1+0.01", 3, ["razor_margin=300:20"])
    assert run.perturbation(run.pairs - 1) == pytest.approx(1)
    assert run.learning_rate(run.pairs - 1) == pytest.approx(1)
    assert run.perturbation(0) > 1 and run.learning_rate(0) > 1


def test_each_pair_plays_the_constants_moved_both_ways_and_learns_towards_the_winner():
    run = new_run(get_variant("gardner"), 20, "1+0.01", 3, ["razor_margin=300:20"])
    task = next(tasks(run, __import__("random").Random(1)))
    sign = task.signs[0]
    assert task.up["razor_margin"] - 300 == 300 - task.down["razor_margin"]
    assert sign * (task.up["razor_margin"] - 300) > 20  # the first step perturbs more
    learn(run, task, 2.0)  # the up engine won both games
    assert sign * (run.constants[0].value - 300) > 0
    assert run.done == 1 and run.score == 2.0


def test_the_engine_plays_with_the_constants_a_spec_names():
    spec = parse_player("level:10,razor_margin=250,reduction_scale=1200")
    player = spec.create()
    player._configure(get_variant("gardner"))
    assert player.engine.techniques.razor_margin == 250
    assert player.engine.techniques.reduction_scale == 1200
    with pytest.raises(ValueError, match="unknown option"):
        parse_player("level:10,razor_margin=0")


def test_bad_constants_are_clear_errors():
    with pytest.raises(SpsaError, match="unknown search constant 'razor'"):
        new_run(get_variant("gardner"), 20, "1+0.01", 3, ["razor"])
    with pytest.raises(SpsaError, match="NAME=START:STEP"):
        new_run(get_variant("gardner"), 20, "1+0.01", 3, ["razor_margin=x"])
    with pytest.raises(SpsaError, match="one pair"):
        new_run(get_variant("gardner"), 1, "1+0.01", 3)


def test_a_run_plays_its_pairs_writes_its_file_and_resumes(tmp_path, capsys):
    output = tmp_path / "run.json"
    args = ["--variant", "csc111", "--games", "2", "--time", "0.3+0.01", "--concurrency", "1",
            "--tune", "razor_margin=300:30", "futility_margin", "--output", str(output)]
    assert main(args) == 0
    saved = json.loads(output.read_text())
    assert saved["done"] == 1 and len(saved["history"]) == 1
    assert saved["spec"].startswith("level:10,razor_margin=")
    parse_player(saved["spec"])  # the spec plays
    assert capsys.readouterr().out.strip().endswith(saved["spec"])
    run = SpsaRun.from_dict(saved)
    run.pairs = 2
    output.write_text(json.dumps(run.to_dict()))
    assert main(["--resume", str(output), "--concurrency", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["done"] == 2


def test_a_file_that_is_no_run_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["--resume", str(bad)]) == 2
    assert "not a tuning run" in capsys.readouterr().err
