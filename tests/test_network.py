"""The evaluation's network: its integer kernels compute what its definition says, the search's
accumulators kept move by move equal those computed afresh, and training writes a network the
engine plays with."""

import random
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from minichess import Board
from minichess.core import layout as L
from minichess.core.makemove import UNDO_CAPTURED
from minichess.engine import Engine, Limit
from minichess.engine.evaluation import evaluate, weighted_sum
from minichess.engine.labelling import Labeller
from minichess.engine.network import (
    ACCUMULATOR_ROW,
    ACTIVATION,
    INPUTS,
    MAX_UPDATES,
    N_EDGES,
    OUTPUT,
    UNIT_TYPE,
    UNITS,
    block_parts,
    network_block,
    network_ensemble,
    network_score,
    network_score_at,
    record_move,
    record_root,
    record_same,
    search_network,
)
from minichess.engine.training import (
    Positions,
    input_features,
    position_fen,
    relabelled,
    self_play_positions,
)
from minichess.engine.weights import NO_NETWORK, variant_weights
from minichess.errors import MinichessError
from minichess.match.specs import parse_player

HIDDEN = 8


def random_block(seed: int = 1, buckets: int = 1) -> np.ndarray:
    """A network with random parameters of the size a trained one has; with more than one
    output, the outputs part positions of 20, 22, ... pieces."""
    rng = np.random.default_rng(seed)
    return network_block(rng.normal(0, 0.1, (INPUTS, HIDDEN)), rng.uniform(0.2, 0.8, HIDDEN),
                         rng.normal(0, 50, (buckets, 2 * HIDDEN)), rng.normal(0, 5, buckets),
                         18 + 2 * np.arange(1, buckets))


def float_network(block: np.ndarray, own: np.ndarray, other: np.ndarray, pieces: int) -> float:
    """The network's definition in floats, on the active features of the two viewers and the
    number of pieces on the board."""
    edges, outputs, biases, inputs = block_parts(block)
    output = outputs[np.searchsorted(edges, pieces, side="right")]

    def units(features: np.ndarray) -> np.ndarray:
        return np.clip(biases / ACTIVATION
                       + inputs[features[features < INPUTS]].sum(axis=0) / ACTIVATION, 0, 1)

    return float(np.concatenate([units(own), units(other)]) @ output[1:] / OUTPUT
                 + output[0] / (ACTIVATION * OUTPUT))


def random_boards(variant: str, count: int, seed: int = 2) -> list[Board]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = Board(variant)
        for _ in range(rng.randrange(0, 30)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over():
            boards.append(board)
    return boards


@pytest.mark.parametrize(("variant", "buckets"), [
    ("losalamos", 1), ("antichess", 1), ("minitchess", 1), ("losalamos", 3), ("antichess", 4)])
def test_the_integer_network_computes_its_float_definition(variant, buckets):
    block = random_block(buckets=buckets)
    params = np.concatenate([variant_weights(variant, network=NO_NETWORK), block])
    network = search_network(block)
    units = np.zeros(UNITS, dtype=UNIT_TYPE)
    for board in random_boards(variant, 10):
        state = board.core_state()
        squares = state.position[L.MAILBOX:L.MAILBOX + 64][None, :]
        mover = np.array([state.position[L.STM]])
        positions = Positions(squares, mover, np.zeros(1), np.zeros(1), np.zeros(1))
        own, other = input_features(positions, board.variant.ranks)
        expected = float_network(block, own[0], other[0], int(np.count_nonzero(squares)))
        got = network_score(state.position, state.tables, params, len(params) - len(block),
                            network, units)
        assert abs(got - expected) < 1.5  # integer rounding
        assert evaluate(state.position, state.tables, params, network, units) == (
            got + weighted_sum(state.position, state.tables, params, units))


@pytest.mark.parametrize(("variant", "fen"), [
    ("losalamos", None),
    ("chess36", "k4r/pppKpp/6/6/PPPPP1/RNQ1BR[Rq] w - - 0 1"),  # drops too: R@d6 at once
])
def test_accumulators_kept_move_by_move_equal_those_computed_afresh(variant, fen):
    # a game's moves, a null move and a position searched again, and a line longer than the
    # updates kept before computing afresh
    block = random_block(3)
    params = np.concatenate([variant_weights(variant, network=NO_NETWORK), block])
    start = len(params) - len(block)
    network = search_network(block)
    accumulators = np.zeros((64, ACCUMULATOR_ROW), dtype=UNIT_TYPE)
    units = np.zeros(UNITS, dtype=UNIT_TYPE)
    board = Board(variant, fen)
    rng = random.Random(4)
    kinds = set()
    state = board.core_state()
    record_root(state.position, state.tables, params, start, network, accumulators, 0)
    plies = 0
    while plies < 2 * MAX_UPDATES + 10 and not board.is_game_over():
        if plies % 7 == 3:
            record_same(accumulators, plies + 1)  # the same pieces one ply down
        else:
            drops = [move for move in board.legal_moves if move.drop]
            move = rng.choice(drops if drops and rng.random() < 0.5 else board.legal_moves)
            board.push(move)
            state = board.core_state()
            captured = state.undo[state.plies - 1, UNDO_CAPTURED]
            record_move(accumulators, plies + 1, state.position, move.code, captured)
            kinds.add("drop" if move.drop else "capture" if captured else "move")
        plies += 1
        # leave some plies unevaluated: the next one updates across them, or computes afresh
        # after more than MAX_UPDATES of them
        unevaluated = plies % 3 == 0 or MAX_UPDATES < plies <= 2 * MAX_UPDATES + 1
        if not unevaluated:
            pos, tab = state.position, state.tables
            assert network_score_at(pos, tab, params, start, network, accumulators, plies) == \
                network_score(pos, tab, params, start, network, units)
    assert plies == 2 * MAX_UPDATES + 10
    assert kinds == ({"move", "capture", "drop"} if variant == "chess36" else {"move", "capture"})


def test_an_ensemble_scores_the_mean_of_its_networks(tmp_path):
    members = [random_block(seed=1), random_block(seed=2, buckets=3),
               random_block(seed=3, buckets=2)]
    ensemble = network_ensemble(members)
    assert int(ensemble[0]) == 3 * HIDDEN
    assert block_parts(ensemble)[0].tolist() == [20, 22]  # the members' piece counts together

    def score(board: Board, block: np.ndarray) -> int:
        state = board.core_state()
        params = np.concatenate([variant_weights("losalamos", network=NO_NETWORK), block])
        return network_score(state.position, state.tables, params, len(params) - len(block),
                             search_network(block), np.zeros(UNITS, dtype=UNIT_TYPE))

    for board in random_boards("losalamos", 10):
        mean = np.mean([score(board, block) for block in members])
        assert abs(score(board, ensemble) - mean) < 2  # integer rounding
    for number, block in enumerate(members):
        np.savez(tmp_path / f"member{number}.npz", block=block)
    files = [str(tmp_path / f"member{number}.npz") for number in range(3)]
    subprocess.run([sys.executable, "-m", "minichess.engine.training", "--variant", "losalamos",
                    "--ensemble", *files, "--output", str(tmp_path / "all.npz")], check=True,
                   capture_output=True)
    assert np.array_equal(variant_weights("losalamos", network=tmp_path / "all.npz"),
                          np.concatenate([variant_weights("losalamos", network=NO_NETWORK),
                                          ensemble]))
    with pytest.raises(ValueError, match="at most"):
        network_ensemble([random_block(seed=s) for s in range(65)])  # 520 units


def test_a_network_beyond_the_search_integers_is_refused():
    rng = np.random.default_rng(1)
    inputs = rng.normal(0, 0.1, (INPUTS, HIDDEN))
    inputs[:64, 0] = 2.5  # 64 pieces could lift the first unit to 64 * 2.5 * ACTIVATION
    with pytest.raises(ValueError, match="a hidden unit may reach 4"):
        network_block(inputs, np.zeros(HIDDEN), np.ones((1, 2 * HIDDEN)), np.zeros(1))
    with pytest.raises(ValueError, match="an output weight is"):
        network_block(np.zeros((INPUTS, HIDDEN)), np.zeros(HIDDEN),
                      np.full((1, 2 * HIDDEN), 600.0), np.zeros(1))  # 600 * OUTPUT


def test_the_network_changes_the_search_but_not_its_legality():
    board = Board("losalamos")
    engine = Engine(level=10, seed=1)
    params = np.concatenate([variant_weights("losalamos", network=NO_NETWORK), random_block()])
    engine.use_weights(board.variant, params)
    result = engine.play(board, Limit(depth=6))
    assert result.move in board.legal_moves


def test_a_network_file_is_checked_when_loaded(tmp_path):
    unordered = random_block(buckets=3)
    unordered[N_EDGES:N_EDGES + 2] = [22, 20]  # the outputs' piece counts must increase
    for number, broken in enumerate([random_block()[:-5], random_block(buckets=3)[:-1],
                                     unordered]):
        bad = tmp_path / f"bad{number}.npz"
        np.savez(bad, block=broken)
        with pytest.raises(MinichessError, match="incomplete"):
            variant_weights("losalamos", network=bad)
    with pytest.raises(MinichessError, match="no network"):
        variant_weights("losalamos", network=tmp_path / "missing.npz")
    too_large = random_block()
    too_large[-HIDDEN:] = 30000  # one piece's input weights: a unit beyond 16 bits
    np.savez(tmp_path / "large.npz", block=too_large)
    with pytest.raises(MinichessError, match="does not fit the search's integers"):
        variant_weights("losalamos", network=tmp_path / "large.npz")
    good = tmp_path / "good.npz"
    np.savez(good, block=random_block())
    assert len(variant_weights("losalamos", network=good)) == len(
        variant_weights("losalamos", network=NO_NETWORK)) + len(random_block())
    assert parse_player(f"level:10,network={good}").create() is not None
    assert parse_player("level:10,network=none").engine_options == (("network", "none"),)


def test_self_play_keeps_quiet_positions_with_their_labels():
    variant = Board("csc111").variant
    positions = self_play_positions(variant, variant_weights(variant), games=2, nodes=300,
                                    seed=1, concurrency=1)
    assert len(positions) > 0
    assert positions.boards.shape == (len(positions), 64)
    assert set(np.unique(positions.results)) <= {0.0, 0.5, 1.0}
    assert set(np.unique(positions.movers)) <= {0, 1}


def unscored_positions(boards: list[Board]) -> Positions:
    """Training positions of ``boards``, with scores and sums 0 and drawn results."""
    rows = [board.core_state().position for board in boards]
    squares = np.array([row[L.MAILBOX:L.MAILBOX + 64] for row in rows], np.int8)
    movers = np.array([row[L.STM] for row in rows], np.int8)
    zeros = np.zeros(len(boards), np.int32)
    return Positions(squares, movers, zeros, zeros, np.full(len(boards), 0.5, np.float32))


def test_positions_are_scored_again_by_another_search():
    boards = random_boards("losalamos", 4)
    variant = boards[0].variant
    positions = unscored_positions(boards)
    for board, placed, mover in zip(boards, positions.boards, positions.movers, strict=True):
        assert position_fen(variant, placed, mover).split()[:2] == board.fen().split()[:2]
    scored = relabelled(positions, variant, Labeller("search", depth=3), concurrency=1)
    assert np.array_equal(scored.boards, positions.boards)
    assert np.array_equal(scored.sums, positions.sums)
    for board, score in zip(boards, scored.scores, strict=True):
        info = Engine(level=10, seed=1).analyse(board, Limit(depth=3))
        expected = 1600 * np.sign(info.mate) if info.mate is not None else info.score
        assert abs(score - np.clip(expected, -1600, 1600)) <= 1  # the score for the side to move
    own = positions.scores + 100  # with a share, the mean of the two searches' scores
    halved = relabelled(replace(positions, scores=own), variant, Labeller("search", depth=3),
                        concurrency=1, share=0.5)
    assert np.all(abs(halved.scores - (scored.scores + own) / 2) <= 1)


def test_scored_positions_are_kept_for_later_fits(tmp_path):
    pytest.importorskip("torch")
    from minichess.engine.training import train

    boards = random_boards("losalamos", 100)  # the fewest a fit takes
    positions = unscored_positions(boards)
    positions.save(tmp_path / "played.npz")
    labeller = Labeller("search", depth=1)
    report = train("losalamos", games=0, nodes=0, hidden=4, epochs=1, seed=1,
                   positions_files=(str(tmp_path / "played.npz"),), concurrency=1,
                   output=str(tmp_path / "net.npz"), labeller=labeller,
                   save_scored=str(tmp_path / "scored.npz"))
    assert report["saved"] == str(tmp_path / "net.npz")
    kept = Positions.load(tmp_path / "scored.npz")
    scored = relabelled(positions, boards[0].variant, labeller, concurrency=1)
    assert np.array_equal(kept.boards, positions.boards)
    assert np.array_equal(kept.scores, scored.scores)


@pytest.mark.parametrize(("arguments", "message"), [
    (["--label-share", "0.5"], "--label-share: a share from 0 to 1, with --label"),
    (["--label", "search", "--label-share", "2"], "--label-share: a share from 0 to 1"),
    (["--save-scored", "scored.npz"], "--save-scored: with --label"),
    (["--label", "result"], "--label: search or uci:SPEC"),
    (["--games", "10", "--start", "missing.npz"], "missing.npz: no network there"),
    (["--games", "10", "--rate", "0"], "--rate: a step size above 0"),
])
def test_training_refuses_options_that_do_not_fit_together(arguments, message):
    command = [sys.executable, "-m", "minichess.engine.training", "--variant", "gardner"]
    finished = subprocess.run(command + arguments, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 2 and message in finished.stderr


@pytest.mark.parametrize("buckets", [1, 2])
def test_a_fit_learns_what_the_weighted_sum_misses(tmp_path, buckets):
    pytest.importorskip("torch")
    from minichess.engine.training import fit_network, save_network

    # the search's score: the weighted sum plus 200 centipawns whenever the side to move has a
    # knight on the board's last rank; the network has to learn that correction
    rng = np.random.default_rng(5)
    count = 4000
    boards = np.zeros((count, 64), dtype=np.int8)
    boards[:, 0] = L.KING  # a1
    boards[:, 3 * 8 + 5] = 8 + L.KING  # f4
    knight = np.arange(count) % 2 == 0
    square = rng.integers(0, 6, count) + 5 * 8  # the sixth rank
    boards[knight, square[knight]] = L.KNIGHT
    sums = rng.integers(-100, 100, count)
    scores = sums + np.where(knight, 200, 0)
    positions = Positions(boards, np.zeros(count, np.int8), scores.astype(np.int32),
                          sums.astype(np.int32), np.full(count, 0.5, np.float32))
    block, report = fit_network(positions, ranks=6, hidden=4, epochs=15, mix=1.0, batch=128,
                                buckets=buckets, log=lambda _: None)
    assert report.held_out_loss_with < report.held_out_loss_without / 4
    assert block_parts(block)[0].tolist() == ([3] if buckets == 2 else [])  # 2 or 3 pieces
    path = save_network(Board("losalamos").variant, block, {}, tmp_path / "net.npz")
    params = variant_weights("losalamos", network=path)
    board = Board("losalamos", "N5/6/5k/6/6/K5 w - - 0 1")
    state = board.core_state()
    units = np.zeros(UNITS, dtype=UNIT_TYPE)
    network = search_network(params[len(variant_weights("losalamos", network=NO_NETWORK)):])
    correction = evaluate(state.position, state.tables, params, network, units) - weighted_sum(
        state.position, state.tables, params, units)
    assert 150 < correction < 250


def test_a_fit_goes_on_from_a_network_it_is_given():
    pytest.importorskip("torch")
    from minichess.engine.training import fit_network

    rng = np.random.default_rng(6)
    count = 1000
    boards = np.zeros((count, 64), dtype=np.int8)
    boards[:, 0], boards[:, 35] = L.KING, 8 + L.KING
    boards[np.arange(count), rng.integers(8, 30, count)] = L.ROOK
    sums = rng.integers(-100, 100, count).astype(np.int32)
    positions = Positions(boards, np.zeros(count, np.int8), sums + 100, sums,
                          np.full(count, 0.5, np.float32))
    start = network_block(rng.normal(0, 0.1, (INPUTS, 3)), np.full(3, 0.5),
                          rng.normal(0, 30, (2, 6)), np.array([5.0, -5.0]), np.array([3]))
    same, report = fit_network(positions, ranks=6, epochs=0, start=start, log=lambda _: None)
    assert same.tolist() == start.tolist()  # its parameters, read back unchanged
    better, after = fit_network(positions, ranks=6, epochs=3, batch=100, start=start,
                                log=lambda _: None)
    assert len(better) == len(start) and block_parts(better)[0].tolist() == [3]
    assert after.held_out_loss_with < report.held_out_loss_with


def test_long_training_steps_report_their_progress(capsys):
    from minichess.engine.progress import progress_reports

    with progress_reports(1000, "positions scored") as report:  # stderr is no terminal here
        for done in [*range(64, 1000, 64), 1000]:  # chunks of 64 positions
            report(done)
    lines = capsys.readouterr().err.splitlines()
    assert 9 <= len(lines) <= 11  # about one a tenth, not one a chunk
    assert lines[0] == "128/1000 positions scored" and lines[-1] == "1000/1000 positions scored"
