"""Matches between players: ``play_match`` in Python and ``minichess match`` on the command line.

Games run in worker processes, so each match here costs a few seconds of start-up: the tests
share a few short matches between ``random`` and ``greedy`` (fast players) on short clocks.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from minichess import Board
from minichess.cli.main import main
from minichess.engine.weights import starting_weights
from minichess.errors import MinichessError
from minichess.game import Game, TimeControl
from minichess.match import (
    Opening,
    PlayerSpec,
    PlayerSpecError,
    balanced_openings,
    parse_player,
    play_match,
    read_openings,
)
from minichess.match.sprt import Decision, Sprt
from minichess.notation.pgn import read_pgn, read_pgn_file
from minichess.players import UciEngineError, UciPlayer, UciTimeoutError
from minichess.variants import get_variant

PROJECT_ENGINE = f"uci:{shlex.quote(sys.executable)} -m minichess.cli.main uci"
"""The project's own UCI engine (``minichess uci``) as a player spec."""

FAKE_ENGINE = textwrap.dedent('''\
    """A stand-in UCI engine: its behaviour on 'go' is chosen by its argument."""
    import sys

    behaviour = sys.argv[1]
    for line in sys.stdin:
        command = line.split()[:1]
        if command == ["uci"]:
            print("id name fake", "option name UCI_Variant type combo default minitchess"
                  " var minitchess var csc111", "uciok", sep="\\n", flush=True)
        elif command == ["isready"]:
            print("readyok", flush=True)
        elif command == ["go"] and behaviour == "crash":
            sys.exit("out of memory")
        elif command == ["go"] and behaviour == "illegal":
            print("bestmove a1a6", flush=True)
        elif command == ["quit"]:
            break
''')


@pytest.fixture(scope="module")
def fake_engine(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The command of the stand-in engine, to be followed by crash, illegal or hang."""
    script = tmp_path_factory.mktemp("engine") / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.fixture(scope="module")
def match():
    """Four games, greedy against random, with the reports seen through ``on_game``."""
    seen = []
    result = play_match(["greedy", "random"], "minitchess", games=4, time_control="5+0.1",
                        concurrency=2, seed=7, on_game=lambda game, so_far: seen.append(
                            (game.round, so_far.games_played)))
    return result, seen


# --- player specs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("level:7", PlayerSpec("level", "7")),
        ("random", PlayerSpec("random")),
        ("greedy", PlayerSpec("greedy")),
        ("level:10,time=0.5", PlayerSpec("level", "10", 0.5)),
        (f"uci:{sys.executable} -m minichess.cli.main uci",
         PlayerSpec("uci", f"{shlex.quote(sys.executable)} -m minichess.cli.main uci")),
    ],
)
def test_player_specs(text, spec):
    assert parse_player(text) == spec


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("stockfish", "expected level:N"),
        ("level:0", "level must be 1..10"),
        ("level:x", "level must be 1..10"),
        ("random:3", "takes no argument"),
        ("uci:", "expected level:N"),
        ("uci:/no/such/engine", "no program '/no/such/engine'"),
        ("uci:'unclosed", "No closing quotation"),
        ("level:5,time=1.5", "at most 1"),
    ],
)
def test_bad_player_specs_say_what_is_wrong(text, complaint):
    with pytest.raises(PlayerSpecError, match=complaint):
        parse_player(text)


# --- openings -----------------------------------------------------------------------------------


def test_openings_are_balanced_different_and_the_same_for_a_seed():
    openings = balanced_openings("minitchess", 6, seed=3)
    assert openings == balanced_openings("minitchess", 6, seed=3)
    assert openings != balanced_openings("minitchess", 6, seed=4)
    assert len({opening.fen for opening in openings}) == 6
    for opening in openings:
        assert 2 <= len(opening.moves) <= 4 and abs(opening.score) <= 50
        game = Game("minitchess")
        for move in opening.moves:
            game.push(move)
        assert game.board.fen() == opening.fen


def test_openings_from_a_file_of_fens(tmp_path):
    path = tmp_path / "openings.fen"
    start = Board("minitchess").fen()
    after_one = Board("minitchess")
    after_one.push_uci("a2a3")
    path.write_text(f"# two positions\n{start}\n\n{after_one.fen()}\n")
    openings = read_openings(path, "minitchess")
    assert [opening.fen for opening in openings] == [start, after_one.fen()]


def test_a_matchs_own_pgn_gives_back_its_openings(match, tmp_path):
    result, _ = match
    path = tmp_path / "games.pgn"
    path.write_text(result.pgn())
    openings = read_openings(path, "minitchess")
    fens = [read_pgn(game.pgn)[0].start_fen for game in result.games]
    assert [opening.fen for opening in openings] == fens[::2]  # one for each pair of games


@pytest.mark.parametrize(
    ("name", "text", "complaint"),
    [
        ("bad.fen", "# fine\nrnbqk/8 w - - 0 1\n", r"bad\.fen, line 2: "),
        ("over.fen", "4k/5/5/5/5/5 w - - 0 1\n", r"over\.fen, line 1: the game is already over"),
        ("empty.fen", "# nothing\n\n", "holds no opening"),
        ("other.pgn", '[Variant "csc111"]\n\n*\n', r"other\.pgn, game 1: a game of csc111"),
        ("broken.pgn", '[Variant "minitchess"]\n\n1. Zz9 *\n', r"broken\.pgn: game 1"),
    ],
)
def test_a_bad_openings_file_says_where(tmp_path, name, text, complaint):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(MinichessError, match=complaint):
        read_openings(path, "minitchess")


def test_a_missing_openings_file_is_named():
    with pytest.raises(MinichessError, match=r"cannot read /no/such/openings\.fen"):
        read_openings("/no/such/openings.fen", "minitchess")


# --- play_match ---------------------------------------------------------------------------------


def test_a_match_counts_the_first_players_results(match):
    result, _ = match
    assert result.games_played == 4
    assert result.wins + result.draws + result.losses == 4
    assert result.score == (result.wins + result.draws / 2) / 4
    assert result.players == ("greedy", "random")
    assert sum(result.terminations.values()) == 4


def test_colours_alternate_and_each_pair_shares_an_opening(match):
    result, _ = match
    games = result.games
    assert [game.round for game in games] == [1, 2, 3, 4]
    assert [game.white for game in games] == ["greedy", "random", "greedy", "random"]
    fens = [read_pgn(game.pgn)[0].start_fen for game in games]
    assert fens[0] == fens[1] != fens[2] == fens[3]


def test_on_game_sees_every_game_with_the_result_so_far(match):
    _, seen = match
    assert sorted(round_ for round_, _ in seen) == [1, 2, 3, 4]
    assert [played for _, played in seen] == [1, 2, 3, 4]


def test_a_seed_replays_the_players_chance_moves_whichever_worker_plays_a_game(match):
    result, _ = match
    again = play_match(["greedy", "random"], "minitchess", games=4, time_control="5+0.1",
                       concurrency=1, seed=7)
    other = play_match(["greedy", "random"], "minitchess", games=4, time_control="5+0.1",
                       concurrency=1, seed=8)

    def moves(games):
        return [read_pgn(game.pgn)[0].san_moves for game in games]

    assert moves(again.games) == moves(result.games)
    assert moves(other.games) != moves(result.games)


def test_the_json_result_is_plain_data(match):
    result, _ = match
    data = json.loads(json.dumps(result.to_dict()))
    assert data["games"] == 4 and data["score"] == result.score
    assert data["elo"] == (None if result.elo.elo is None else round(result.elo.elo, 1))


def test_bad_match_arguments_are_errors():
    with pytest.raises(PlayerSpecError):
        play_match(["random", "nobody"])
    with pytest.raises(ValueError, match="two players"):
        play_match(["random"])
    with pytest.raises(ValueError, match="at least one game"):
        play_match(["random", "greedy"], games=0)


# --- the command line ---------------------------------------------------------------------------


def test_match_command_plays_the_openings_of_a_file_in_turn(capsys, tmp_path):
    board = Board("csc111")
    second = Board("csc111")
    second.push(second.legal_moves[0])
    path = tmp_path / "openings.fen"
    path.write_text(f"{board.fen()}\n{second.fen()}\n")
    pgn = tmp_path / "games.pgn"
    status = main(["match", "random", "greedy", "--variant", "csc111", "--games", "6",
                   "--time", "5+0.1", "--concurrency", "2", "--openings", str(path),
                   "--pgn", str(pgn)])
    assert status == 0
    starts = [game.start_fen for game in read_pgn_file(pgn)]
    assert starts == [board.fen()] * 2 + [second.fen()] * 2 + [board.fen()] * 2


def test_a_match_takes_the_start_or_given_openings_not_both():
    with pytest.raises(MinichessError, match="not both"):
        play_match(["random", "greedy"], "csc111", games=2, from_start=True,
                   openings=[Opening(Board("csc111").fen(), (), 0)])
    with pytest.raises(MinichessError, match="at least one opening"):
        play_match(["random", "greedy"], "csc111", games=2, openings=[])


def test_match_command_json_and_pgn(capsys, tmp_path):
    pgn = tmp_path / "games.pgn"
    status = main(["match", "random", "greedy", "--variant", "csc111", "--games", "4",
                   "--time", "5+0.1", "--concurrency", "2", "--seed", "1", "--json",
                   "--pgn", str(pgn)])
    out, _ = capsys.readouterr()
    assert status == 0
    report = json.loads(out)
    assert report["games"] == 4
    assert report["wins"] + report["draws"] + report["losses"] == 4
    assert {"score", "elo", "elo_error", "terminations"} <= report.keys()
    games = read_pgn_file(pgn)
    assert [game.headers["Round"] for game in games] == ["1", "2", "3", "4"]
    for game in games:
        assert game.variant.name == "csc111"
        assert game.clock == TimeControl(5, 0.1)
        assert game.is_game_over()
        assert {"White", "Black", "Event", "Result", "FEN", "Termination"} <= game.headers.keys()


def test_an_interrupted_match_keeps_the_games_it_finished(monkeypatch, tmp_path):
    pgn = tmp_path / "games.pgn"
    finished = play_match(["random", "greedy"], "csc111", games=2, time_control="5+0.1",
                          seed=1)

    def interrupted(*args, on_game, **kwargs):
        on_game(finished.games[0], finished)
        raise KeyboardInterrupt

    monkeypatch.setattr("minichess.cli.match.play_match", interrupted)
    assert main(["match", "random", "greedy", "--variant", "csc111", "--pgn", str(pgn)]) == 130
    assert [game.headers["Round"] for game in read_pgn_file(pgn)] == ["1"]


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name: state, parent, ... (Linux)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _workers(pid: int) -> set[int]:
    """The worker processes that process ``pid`` started."""
    workers = set()
    for process in Path("/proc").glob("[0-9]*"):
        try:
            parent = int(_stat_fields(int(process.name))[1])
            command = (process / "cmdline").read_bytes()
        except OSError:  # the process ended meanwhile
            continue
        if parent == pid and b"spawn_main" in command:
            workers.add(int(process.name))
    return workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_the_workers_end_when_the_match_is_killed():
    match = subprocess.Popen([sys.executable, "-m", "minichess.cli.main", "match", "random",
                              "random", "--games", "200", "--concurrency", "2"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(workers := _workers(match.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(workers) >= 2, "the match started no workers"
        time.sleep(1)  # the workers are playing
    finally:
        match.kill()  # no chance to close its pool
        match.wait()
    deadline = time.monotonic() + 15
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(map(_running, workers))


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (it is not gone, nor a zombie left for its parent)."""
    try:
        return _stat_fields(pid)[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(
    "arguments",
    [
        ["level:11", "random"],
        ["random", "uci:/no/such/engine"],
        ["random"],
        ["random", "greedy", "--games", "0"],
        ["random", "greedy", "--time", "fast"],
        ["random", "greedy", "--variant", "checkers"],
    ],
)
def test_match_command_rejects_bad_input_with_status_2(capsys, arguments):
    status = main(["match", *arguments])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.startswith("minichess: error: ")


# --- external UCI engines -----------------------------------------------------------------------


@pytest.mark.skipif(
    not (Path(__file__).parents[1] / "src/minichess/protocols/uci.py").exists(),
    reason="the project's UCI engine (minichess.protocols.uci) does not exist yet",
)
def test_a_match_against_the_projects_own_uci_engine():
    result = play_match([PROJECT_ENGINE, "random"], "csc111", games=2, time_control="5+0.1",
                        concurrency=2, seed=2)
    assert result.failures == []
    assert result.players[0] == PROJECT_ENGINE
    assert result.score >= 0.5


def test_an_engine_that_crashes_loses_with_a_clear_message(fake_engine):
    result = play_match([f"uci:{fake_engine} crash", "random"], "minitchess", games=2,
                        time_control="5+0.1", concurrency=2)
    assert (result.wins, result.losses) == (0, 2)
    for game in result.failures:
        assert "exited while 'bestmove' was awaited (exit status 1): out of memory" in game.failure
        assert "[Forfeit " in game.pgn


@pytest.mark.parametrize(
    ("behaviour", "error", "message"),
    [
        ("crash", UciEngineError, "exited .* out of memory"),
        ("illegal", UciEngineError, "chose 'a1a6', which is not a legal move"),
        ("hang", UciTimeoutError, "did not answer 'bestmove' within"),
    ],
)
def test_uci_player_failures(fake_engine, behaviour, error, message):
    game = Game("minitchess", clock=TimeControl(0.3))
    with UciPlayer(f"{fake_engine} {behaviour}", grace=0.2) as engine:
        engine.new_game(game.variant)
        with pytest.raises(error, match=message):
            engine.choose_move(game)


def test_uci_player_refuses_a_variant_the_engine_does_not_offer(fake_engine):
    with UciPlayer(f"{fake_engine} hang") as engine, pytest.raises(
        UciEngineError, match=r"does not play chess36 \(its UCI_Variant choices: minitchess"
    ):
        engine.new_game("chess36")


def test_engine_options_in_a_player_spec_switch_techniques_and_weights():
    spec = parse_player("level:10,time=0.5,nullmove=0,weights=start")
    assert str(spec) == "level:10,time=0.5,nullmove=0,weights=start"
    assert spec.engine_options == (("nullmove", "0"), ("weights", "start"))
    with pytest.raises(PlayerSpecError, match="unknown option"):
        parse_player("level:10,nullmove=2")


def test_a_player_spec_sets_how_deep_quiescence_goes():
    player = parse_player("level:10,quiescence=6,nullmove=0").create()
    game = Game("antichess")
    assert player.choose_move(game) in game.board.legal_moves
    assert player.engine.techniques.quiescence_plies == 6
    assert not player.engine.techniques.null_move
    for plies in ("0", "33", "six"):
        with pytest.raises(PlayerSpecError, match="unknown option"):
            parse_player(f"level:10,quiescence={plies}")


def test_a_player_spec_sets_how_far_forced_moves_are_extended():
    player = parse_player("level:10,forced_span=3").create()
    game = Game("antichess")
    assert player.choose_move(game) in game.board.legal_moves
    assert player.engine.techniques.forced_span == 3
    for span in ("0", "9", "two"):
        with pytest.raises(PlayerSpecError, match="unknown option"):
            parse_player(f"level:10,forced_span={span}")


# --- the SPRT -----------------------------------------------------------------------------------


def test_an_sprt_stops_the_match_once_it_decides():
    seen = []
    result = play_match(["random", "greedy"], "minitchess", games=None, time_control="5+0.1",
                        concurrency=2, seed=5, sprt=Sprt(0, 200),
                        on_game=lambda game, so_far: seen.append(so_far.decision))
    assert result.decision is Decision.H0  # random is not 200 Elo stronger than greedy
    assert result.llr <= result.sprt.lower
    assert seen[-1] is Decision.H0 and set(seen[:-1]) == {None}  # no game after the decision
    assert len(seen) == result.games_played < 40
    pairs = sum(result.pentanomial)
    # a finished game whose partner is still running or unstarted when the test decides is not in a
    # pair yet: at most one such game per concurrent slot
    assert 0 <= result.games_played - 2 * pairs <= 2
    data = result.to_dict()
    assert data["sprt"]["decision"] == "H0" and data["pentanomial"] == list(result.pentanomial)
    assert data["sprt"]["lower"] == pytest.approx(-2.944, abs=1e-3)


def test_an_sprt_with_a_game_limit_may_end_undecided(capsys):
    status = main(["match", "random", "greedy", "--games", "4", "--sprt", "-5,5", "--time",
                   "5+0.1", "--concurrency", "2", "--seed", "2"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "4 games" in out
    assert "SPRT elo0=-5 elo1=5 alpha=0.05 beta=0.05 (logistic Elo)" in out
    assert "(bounds -2.94, 2.94): undecided" in out
    assert "pairs by points 0-0.5-1-1.5-2: " in out


def test_a_match_without_a_game_count_needs_an_sprt():
    with pytest.raises(ValueError, match="needs an SPRT"):
        play_match(["random", "greedy"], games=None)
    assert main(["match", "random", "greedy", "--sprt", "5,0"]) == 2


def test_an_engine_player_can_take_its_weights_from_a_file(tmp_path):
    weights = tmp_path / "antichess.json"
    weights.write_text(json.dumps({"weights": [int(w) for w in starting_weights(
        get_variant("antichess"))]}))
    spec = parse_player(f"level:3,weights={weights}")
    assert dict(spec.engine_options)["weights"] == str(weights)
    result = play_match([spec, "random"], "antichess", games=2, time_control="5+0.1", seed=1)
    assert result.games_played == 2
    with pytest.raises(PlayerSpecError, match="unknown option"):
        parse_player(f"level:3,weights={tmp_path / 'missing.json'}")


def test_a_match_can_play_every_game_from_the_start_position():
    result = play_match(["greedy", "random"], "csc111", games=4, time_control="5+0.1",
                        concurrency=1, seed=1, from_start=True)
    start = Board("csc111").fen()
    assert [read_pgn(game.pgn)[0].start_fen for game in result.games] in ([start] * 4,
                                                                          [None] * 4)
    assert [game.white for game in result.games] == ["greedy", "random", "greedy", "random"]
