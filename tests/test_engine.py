"""The engine: forced wins found (checked by brute force), legal moves, limits and levels."""

from __future__ import annotations

import threading
import time
from dataclasses import fields, replace

import pytest

from minichess import WHITE, Board, MinichessError
from minichess.engine import Engine, Limit, Techniques, time_budget
from minichess.engine.opponent import materially_best_moves
from minichess.engine.search import SEARCH_CONSTANTS, TECHNIQUE_CONTROLS
from minichess.engine.timing import LatencyGauge
from minichess.engine.weights import variant_weights
from minichess.game import Game, TimeControl
from minichess.players import EnginePlayer, GreedyPlayer, RandomPlayer
from minichess.variants import get_variant
from solver import forced_win_plies, move_wins

# Positions from random playouts where the side to move wins by force: (variant, FEN, plies).
FORCED_WINS = [
    ("minitchess", "1qr2/p1pbp/1p1k1/PP1KP/2P1Q/1RB2 b - - 0 11", 1),
    ("minitchess", "k1qbr/1ppP1/p4/N3p/PPPBP/2RQK w - - 0 9", 3),
    ("minichess-classic", "kqr2/1Q3/p2pb/Pn2P/2p2/RNBK1 w - - 1 13", 1),
    ("minichess-classic", "2br1/P1k2/4R/1P1Qp/3PP/2B1K w - - 1 25", 3),
    ("antichess", "8/8/8/1p6/7P/2Q1P3/8/RN5R b - - 0 28", 2),  # b4, Qxb4 forced: no black piece
    ("chess36", "rbk2r/1p4/B3pp/q1pPPP/PPPN2/RK3R[Qn] b - - 0 12", 1),
    ("chess36", "rbk1nr/p1p3/2PpPq/1Pp3/P1Q1pP/RK3R[BN] b - - 1 13", 3),
    ("csc111", "2kr/r1Pp/1K1P/3R w - - 1 7", 1),
    ("csc111", "1R2/4/K1k1/2pR w - - 1 16", 3),
    ("gardner", "2k2/p1P1p/b2pP/5/1q1RK b - - 2 19", 1),
    ("gardner", "5/1Qp1k/PPK1P/5/R4 w - - 5 21", 3),
    ("losalamos", "2rk2/1pqpr1/P2Ppp/n2P2/2N1PP/RNK2R b - - 0 13", 1),
    ("losalamos", "1N2kr/6/1P3p/Qp3P/P2Pn1/3RKR w - - 0 21", 3),
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(seed=1)


@pytest.mark.parametrize(("variant", "fen", "plies"), FORCED_WINS)
def test_engine_finds_the_forced_win_the_brute_force_solver_finds(engine, variant, fen, plies):
    board = Board(variant, fen)
    assert forced_win_plies(board, plies) == plies  # the position is what it claims to be
    info = engine.analyse(board, Limit(depth=plies + 2))
    assert info.score is None
    assert info.mate == (plies + 1) // 2
    assert move_wins(board, info.pv[0], plies)


def test_csc111_start_is_a_white_win_found_within_seven_plies(engine):
    info = engine.analyse(Board("csc111"), Limit(depth=7))
    assert info.mate == 4  # White's 4th move wins: 7 plies


def test_the_losing_side_sees_its_loss_as_negative_mate(engine):
    board = Board("minitchess", "k1qbr/1ppP1/p4/N3p/PPPBP/2RQK w - - 0 9")
    board.push(engine.play(board, Limit(depth=5)).move)  # White wins on its next move
    info = engine.analyse(board, Limit(depth=4))
    assert info.mate == -1


@pytest.mark.parametrize(
    "variant", ["minitchess", "minichess-classic", "antichess", "chess36", "csc111", "gardner"]
)
def test_engine_plays_only_legal_moves_to_the_end_of_a_game(variant):
    game = Game(variant)
    players = [EnginePlayer(level=4, limit=Limit(depth=3), seed=2), GreedyPlayer(seed=3)]
    while not game.is_game_over() and len(game.moves) < 120:
        move = players[len(game.moves) % 2].choose_move(game)
        assert move in game.board.legal_moves
        game.push(move, seconds=0)


def test_a_move_time_is_respected(engine):
    engine.play(Board("chess36"), Limit(depth=1))  # compiled before the clock starts
    start = time.perf_counter()
    result = engine.play(Board("chess36"), Limit(time=0.3))
    assert time.perf_counter() - start < 0.3 + 0.15
    assert result.move in Board("chess36").legal_moves


def test_a_short_clock_gives_a_quick_move(engine):
    engine.play(Board("minitchess"), Limit(depth=1))  # compiled before the clock starts
    start = time.perf_counter()
    engine.play(Board("minitchess"), Limit(white_clock=0.5, black_clock=0.5))
    assert time.perf_counter() - start < 0.25


def test_the_engine_never_loses_on_time_in_a_fast_game():
    game = Game("minitchess", clock=TimeControl(2.0, 0.02))
    players = [EnginePlayer(level=10, seed=1), EnginePlayer(level=10, seed=2)]
    while not game.is_game_over():
        game.push(players[len(game.moves) % 2].choose_move(game))  # the wall time is charged
    assert game.outcome().termination.name != "TIME_FORFEIT"


def test_a_new_game_runs_the_search_once_before_its_clock_runs(monkeypatch):
    # A process's first search loads the compiled search from numba's cache, or compiles it
    # after an install (a minute): inside a clock, that lost a match's first games on time.
    monkeypatch.setattr("minichess.engine.engine._WARMED_UP", set())
    searched = []
    analyse = Engine.analyse
    monkeypatch.setattr(Engine, "analyse", lambda engine, board, limit=None, on_info=None: (
        searched.append(board.variant.name) or analyse(engine, board, limit, on_info)))
    engine = Engine(seed=1)
    engine.new_game(get_variant("gardner"))
    engine.new_game(get_variant("gardner"))
    assert searched == ["gardner"]  # once in a process
    # and what that search learnt is forgotten: the game's searches are as a fresh engine's
    board = Board("gardner")
    assert engine.analyse(board, Limit(depth=6)).nodes == Engine(seed=1).analyse(
        board, Limit(depth=6)).nodes


@pytest.mark.parametrize("clock", [0.05, 1.0, 60.0, 600.0])
def test_the_time_budget_stays_inside_the_clock(clock):
    board = Board("minitchess")
    soft, hard = time_budget(board, Limit(white_clock=clock, black_clock=clock), 0.05)
    assert 0 < soft <= hard < clock


def test_a_long_game_keeps_a_floor_of_increments_on_the_clock():
    board = Board("antichess")  # no move limit
    def budget(clock):
        return time_budget(board, Limit(white_clock=clock, black_clock=5.0, increment=0.05), 0.05)
    fresh, _ = budget(5.0)
    low, hard = budget(0.3)
    _, hard_above = budget(0.6)
    assert fresh > 0.25  # a full clock is spent more freely than one move in twenty
    # below five increments no search, however hard, spends more than its increment brings
    assert low == hard == pytest.approx(0.9 * 0.05)
    assert hard_above > 0.05  # above them a hard move may draw on the clock


def test_below_the_floor_a_move_spends_the_increment_less_what_moves_cost_beyond_it():
    board = Board("losalamos")  # no move limit
    limit = Limit(white_clock=0.08, black_clock=2.0, increment=0.02)
    _, hard = time_budget(board, limit, 0.02)
    assert hard == pytest.approx(0.9 * 0.02)
    # each move costs 12 ms more than its search (pipes, a loaded machine): searching 18 ms
    # of the 20 the increment brings would lose 10 ms a move until the flag falls
    _, hard = time_budget(board, limit, 0.02, latency=0.012)
    assert hard == pytest.approx(0.9 * 0.02 - 0.012)
    _, hard = time_budget(board, limit, 0.02, latency=0.05)
    assert hard == pytest.approx(0.005)  # still a moment to find some move


def test_the_clock_is_planned_for_fewer_moves_where_captures_are_compulsory():
    limit = Limit(white_clock=5.0, black_clock=5.0, increment=0.05)
    antichess, _ = time_budget(Board("antichess"), limit, 0.05)
    gardner, _ = time_budget(Board("gardner"), limit, 0.05)  # no move limit either
    # many antichess moves are the only legal one and take no time
    assert antichess > 1.4 * gardner


def test_the_engine_keeps_back_the_latency_its_clock_shows():
    gauge = LatencyGauge(least=0.05)
    board = Board("minitchess")
    first = Limit(white_clock=5.0, black_clock=5.0, increment=0.1)
    assert gauge.overhead(board, first) == 0.05  # nothing measured yet
    gauge.searched(board, first, seconds=0.5)
    board.push_uci("b2b3")
    board.push_uci("d5d4")
    # 5.0 + 0.1 - 0.5 = 4.6 expected; 4.3 left: each move costs 0.3 s more than its search
    second = Limit(white_clock=4.3, black_clock=5.0, increment=0.1)
    assert gauge.overhead(board, second) == pytest.approx(0.45)
    gauge.reset()
    assert gauge.overhead(board, second) == 0.05


def test_a_node_limit_stops_the_search(engine):
    info = engine.analyse(Board("gardner"), Limit(nodes=20_000))
    assert info.nodes <= 20_000 + 1024


def test_the_correction_history_corrects_the_evaluation_in_losalamos_only():
    losalamos = Techniques.for_variant(get_variant("losalamos"))
    assert losalamos.correction
    assert not Techniques.for_variant(get_variant("gardner")).correction
    board = Board("losalamos")
    corrected = Engine(seed=1).analyse(board, Limit(depth=8))
    plain = Engine(seed=1, techniques=replace(losalamos, correction=False)).analyse(
        board, Limit(depth=8))
    assert corrected.nodes != plain.nodes  # what it learns steers the search
    assert corrected.pv[0] in board.legal_moves


def test_no_null_move_on_boards_of_25_squares_or_fewer():
    assert not Techniques.for_variant(get_variant("csc111")).null_move
    assert not Techniques.for_variant(get_variant("gardner")).null_move
    assert Techniques.for_variant(get_variant("minitchess")).null_move
    # A gardner opening where White wins by the sacrifice Bd2 (cxd2 Nxd2: Fairy-Stockfish
    # +362 at depth 22); with null moves our search chose a repetition even at depth 28.
    board = Board("gardner", fen="rnbqk/1p1pp/pPpP1/P1P1P/RNBQK w - - 0 3")
    info = Engine(seed=1).analyse(board, Limit(depth=16))
    assert board.san(info.pv[0]) == "Bd2" and info.score > 200


def test_the_forced_move_extension_reaches_as_far_as_its_span():
    antichess = Techniques.for_variant(get_variant("antichess"))
    assert antichess.forced_span == 2
    board = Board("antichess", fen="r1bqkbnr/ppppp2p/n7/5PN1/8/8/PPPPPP1P/RNBQKB1R b - - 0 4")
    narrow = Engine(seed=1).analyse(board, Limit(depth=6))
    wide = Engine(seed=1, techniques=replace(antichess, forced_span=3)).analyse(
        board, Limit(depth=6))
    assert wide.seldepth > narrow.seldepth  # forced lines followed beyond twice the depth
    assert wide.nodes != narrow.nodes


def test_every_technique_reaches_the_search_by_a_control_entry():
    names = {field.name for field in fields(Techniques)}
    assert names == set(TECHNIQUE_CONTROLS) | set(SEARCH_CONSTANTS)
    assert len(set(TECHNIQUE_CONTROLS.values()) | set(SEARCH_CONSTANTS.values())) == len(names)


def test_stop_ends_an_unlimited_search_from_another_thread():
    engine = Engine(seed=1)
    threading.Timer(0.3, engine.stop).start()
    start = time.perf_counter()
    info = engine.analyse(Board("losalamos"), Limit())
    assert time.perf_counter() - start < 1.0
    assert info.pv[0] in Board("losalamos").legal_moves


def test_a_stop_before_the_search_thread_begins_is_not_lost():
    engine = Engine(seed=1)
    iterations = engine.iter_analysis(Board("losalamos"), Limit())  # unlimited
    engine.stop()  # the thread below has not begun iterating yet
    results = []
    thread = threading.Thread(target=lambda: results.extend(iterations))
    thread.start()
    thread.join(5.0)
    assert not thread.is_alive()
    assert results[-1].pv[0] in Board("losalamos").legal_moves


def test_a_fixed_seed_makes_a_weak_level_reproducible():
    def moves_of(seed: int) -> list[str]:
        engine, board, played = Engine(level=2, seed=seed), Board("minitchess"), []
        for _ in range(8):
            move = engine.play(board, Limit(depth=2)).move
            board.push(move)
            played.append(move.uci())
        return played

    assert moves_of(5) == moves_of(5)


def test_each_completed_depth_is_reported_with_a_legal_principal_variation(engine):
    board = Board("chess36")
    infos = []
    engine.analyse(board, Limit(depth=5), on_info=infos.append)
    assert [info.depth for info in infos] == [1, 2, 3, 4, 5]
    for info in infos:
        replay = board.copy()
        for move in info.pv:
            replay.push(move)


def test_searching_a_finished_game_is_an_error(engine):
    board = Board("minitchess", "1qr2/p1pbp/1p1K1/PP2P/2P1Q/1RB2 b - - 0 11")  # king taken
    with pytest.raises(MinichessError, match="game is over"):
        engine.play(board, Limit(depth=1))


def test_levels_outside_one_to_ten_are_refused():
    with pytest.raises(MinichessError):
        Engine(level=11)


# csc111 positions that hold the draw against a perfect opponent by more than one move, checked
# exactly by benchmarks/csc111_draws.py: after the rook moves Rd4-c4 / Rd1-c1, greedy's reply
# Rd1-c1 / ...Rxc1 forces the trade into a dead draw; the king moves keep the winning chances
# (greedy loses 93.3% of the time after Kb4-a4 and every time after Kb1-a1, against 50% and
# never after the rook moves).
KEEPS_CHANCES = [("1k1r/p2p/P2P/1K1R b - - 0 5", "b4a4"), ("1kr1/p2p/P2P/1K1R w - - 2 6", "b1a1")]
LIMIT_SEEN = Limit(depth=48)  # beyond the 50-ply limit from here: the search's score is a draw


@pytest.mark.parametrize(("fen", "played"), KEEPS_CHANCES)
def test_among_drawing_moves_the_engine_keeps_a_weak_opponent_chances_to_go_wrong(fen, played):
    assert Engine(seed=1).play(Board("csc111", fen), LIMIT_SEEN).move.uci() == played


def test_the_opponent_model_changes_the_move_played_not_the_analysis():
    board = Board("csc111", KEEPS_CHANCES[0][0])
    assert Engine(seed=1).analyse(board, LIMIT_SEEN).pv[0].uci() == "d4c4"  # draws too
    result = Engine(seed=1).play(board, LIMIT_SEEN)
    assert result.move.uci() == "b4a4"
    assert result.pv == [result.move]


def test_the_weak_opponent_model_takes_the_most_material_else_any_move():
    board = Board("csc111", "rqkr/p1Pp/P1pP/RQKR w - - 0 2")
    weights = variant_weights("csc111")
    # both ways to take the queen on b4 (pawn c3 or queen b1), nothing less
    assert [move.uci() for move in materially_best_moves(board, weights)] == ["c3b4", "b1b4"]
    quiet = Board("csc111", KEEPS_CHANCES[0][0])  # no capture: every move is as good
    assert materially_best_moves(quiet, weights) == quiet.legal_moves


def _csc111_from_the_start(white, black) -> Game:
    """A csc111 game from the start position between two players, without clocks."""
    game = Game("csc111")
    for player in (white, black):
        player.new_game(game.variant)
    while game.outcome() is None:
        game.push((white if game.board.turn == WHITE else black).choose_move(game))
    return game


CSC111_OPPONENTS = {
    **{f"random-{seed}": lambda seed=seed: RandomPlayer(seed=seed) for seed in range(4)},
    **{f"greedy-{seed}": lambda seed=seed: GreedyPlayer(seed=seed) for seed in range(2)},
    **{f"level-{level}": lambda level=level: EnginePlayer(level=level, seed=1) for level in (3, 7)},
}
"""Opponents by name: each test makes its own, so that their random choices are the same in
every run."""


@pytest.mark.parametrize("opponent", CSC111_OPPONENTS)
def test_csc111_level_10_as_white_wins_every_game_from_the_start(opponent):
    # The start is a forced win for White (mate in 4): level 10 must never let it go.
    game = _csc111_from_the_start(EnginePlayer(limit=Limit(depth=12), seed=1),
                                  CSC111_OPPONENTS[opponent]())
    assert game.outcome().winner == WHITE, game.san_moves


@pytest.mark.parametrize("opponent", CSC111_OPPONENTS)
def test_csc111_level_10_as_black_loses_only_to_perfect_play(opponent):
    # White wins by force, so Black may lose; but only if every White move kept the forced
    # win: after each of them the exact solver still finds White's win.
    game = _csc111_from_the_start(CSC111_OPPONENTS[opponent](),
                                  EnginePlayer(limit=Limit(depth=12), seed=1))
    if game.outcome().winner != WHITE:
        return
    board = Board("csc111")
    for move in game.moves:
        if board.turn == WHITE:
            plies = forced_win_plies(board, 7)
            assert plies is not None and move_wins(board, move, plies), (
                f"White's {board.san(move)} let the win go and Black still lost: {game.san_moves}")
        board.push(move)


def test_csc111_level_10_as_white_wins_against_every_defence():
    # Not only against some opponents: every Black move at every turn, level 10 choosing
    # White's (each as a fresh game would), ends in White's win.
    engine = Engine(seed=1)
    lines = [Board("csc111")]
    games = 0
    while lines:
        board = lines.pop()
        if board.is_game_over():
            assert board.outcome().winner == WHITE, board.move_stack
            games += 1
            continue
        if board.turn == WHITE:
            engine.new_game()
            board.push(engine.play(board, Limit(depth=8)).move)
            lines.append(board)
        else:
            for move in board.legal_moves:
                after = board.copy()
                after.push(move)
                lines.append(after)
    assert games >= 2  # Black's defences: few, the win is short
