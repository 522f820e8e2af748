"""External UCI engines with options and their own variant names: a stand-in engine written
here (which, like Fairy-Stockfish, offers more variants once a variant file is set), and
Fairy-Stockfish itself when ../shared/bin/fairy-stockfish is there."""

from __future__ import annotations

import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from minichess.game import Game, TimeControl
from minichess.match import PlayerSpec, PlayerSpecError, parse_player, play_match
from minichess.players import UciEngineError, UciPlayer
from minichess.variants import get_variant

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
FAIRY_STOCKFISH = SHARED / "bin" / "fairy-stockfish"
FAIRY_VARIANTS = SHARED / "oracle" / "fairy.ini"

OPTION_ENGINE = textwrap.dedent('''\
    """A stand-in UCI engine that logs what it is told to the file named by its argument and
    plays the first legal move. Like Fairy-Stockfish, it offers antichess-mit (beside an
    antichess of other rules) only once its VariantPath is set."""
    import sys

    from minichess.board import Board

    log = open(sys.argv[1], "a")
    variants = ["minitchess", "antichess", "csc111"]
    variant = "minitchess"
    board = None
    for line in sys.stdin:
        log.write(line)
        log.flush()
        words = line.split()
        if words[:1] == ["uci"]:
            print("id name optionfake", "option name Hash type spin default 16 min 1 max 64",
                  "option name Skill Level type spin default 20 min 0 max 20",
                  "option name VariantPath type string default <empty>",
                  "option name UCI_Variant type combo default minitchess "
                  + " ".join("var " + name for name in variants), "uciok", sep="\\n",
                  flush=True)
        elif words[:4] == ["setoption", "name", "VariantPath", "value"]:
            variants.append("antichess-mit")
        elif words[:4] == ["setoption", "name", "UCI_Variant", "value"]:
            variant = {"antichess-mit": "antichess"}.get(words[4], words[4])
        elif words[:1] == ["isready"]:
            print("readyok", flush=True)
        elif words[:2] == ["position", "fen"]:
            fen, _, moves = " ".join(words[2:]).partition(" moves ")
            board = Board(variant, fen)
            for move in moves.split():
                board.push_uci(move)
        elif words[:1] == ["go"]:
            print("bestmove", board.legal_moves[0].uci(), flush=True)
        elif words[:1] == ["quit"]:
            break
''')


@pytest.fixture
def option_engine(tmp_path: Path) -> tuple[str, Path]:
    """The stand-in engine's command, and the file where it logs what it was sent."""
    script = tmp_path / "option_engine.py"
    script.write_text(OPTION_ENGINE)
    log = tmp_path / "sent.txt"
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}", log


def _sent(log: Path, prefix: str) -> list[str]:
    return [line.strip() for line in log.read_text().splitlines() if line.startswith(prefix)]


# --- specs --------------------------------------------------------------------------------------


def test_a_uci_spec_takes_options_a_variant_and_a_name():
    spec = parse_player(f"uci:{sys.executable} -V,variant=antichess-mit,option.Skill Level=3,"
                        "option.VariantPath=/tmp/v.ini,time=0.5,name=fairy")
    assert spec.engine_options == (("variant", "antichess-mit"), ("option.Skill Level", "3"),
                                   ("option.VariantPath", "/tmp/v.ini"))
    assert (spec.time_factor, spec.name, spec.display_name) == (0.5, "fairy", "fairy")
    assert parse_player(str(spec)) == spec
    assert PlayerSpec("random", name="monkey").display_name == "monkey"
    assert parse_player("greedy,name=g") == PlayerSpec("greedy", name="g")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [("level:5,option.Hash=1", "unknown option"), ("random,time=0.5", "unknown option"),
     (f"uci:{sys.executable},variant=", "unknown option"),
     (f"uci:{sys.executable},nullmove=0", "unknown option")],
)
def test_options_a_player_does_not_take_are_refused(text, complaint):
    with pytest.raises(PlayerSpecError, match=complaint):
        parse_player(text)


# --- the client ---------------------------------------------------------------------------------


def test_options_are_set_and_the_variants_refreshed(option_engine):
    command, log = option_engine
    with UciPlayer(command, options=[("hash", "32"), ("Skill Level", "5"),
                                     ("VariantPath", "/tmp/v.ini")]) as engine:
        engine.new_game("antichess")
        assert engine.engine_variant_name(get_variant("antichess")) == "antichess-mit"
    assert _sent(log, "setoption") == [
        "setoption name Hash value 32",  # the engine's spelling of the name
        "setoption name Skill Level value 5",
        "setoption name VariantPath value /tmp/v.ini",
        "setoption name UCI_Variant value antichess-mit",
    ]
    assert _sent(log, "uci") == ["uci", "uci", "ucinewgame"]  # asked again after the options


def test_without_the_variant_file_the_project_name_is_taken(option_engine):
    command, _ = option_engine
    with UciPlayer(command) as engine:
        engine.start()
        assert engine.engine_variant_name(get_variant("antichess")) == "antichess"


def test_an_explicit_variant_name_is_trusted(option_engine):
    command, log = option_engine
    with UciPlayer(command, variant="my-minitchess") as engine:
        engine.new_game("minitchess")
    assert _sent(log, "setoption") == ["setoption name UCI_Variant value my-minitchess"]


def test_an_unknown_option_is_a_clear_error(option_engine):
    command, _ = option_engine
    with UciPlayer(command, name="fake", options=[("Threads", "2")]) as engine, pytest.raises(
        UciEngineError, match=r"fake has no option 'Threads' \(its options: Hash, Skill Level,"
    ):
        engine.start()


def test_a_match_with_engine_options(option_engine):
    command, log = option_engine
    spec = f"uci:{command},option.VariantPath=/tmp/v.ini,name=fake"
    result = play_match([spec, "random"], "antichess", games=2, time_control="5+0.1",
                        concurrency=1, seed=3)
    assert result.players == ("fake", "random")
    assert result.failures == []
    assert {game.white for game in result.games} == {"fake", "random"}
    assert "setoption name UCI_Variant value antichess-mit" in _sent(log, "setoption")


# --- Fairy-Stockfish ----------------------------------------------------------------------------

needs_fairy_stockfish = pytest.mark.skipif(
    not (FAIRY_STOCKFISH.exists() and FAIRY_VARIANTS.exists()),
    reason="Fairy-Stockfish is not in ../shared/bin",
)


@needs_fairy_stockfish
def test_fairy_stockfish_plays_our_antichess_as_antichess_mit():
    with UciPlayer(str(FAIRY_STOCKFISH),
                   options=[("VariantPath", str(FAIRY_VARIANTS))]) as engine:
        game = Game("antichess", clock=TimeControl(2, 0.02))
        engine.new_game(game.variant)
        assert engine.engine_variant_name(game.variant) == "antichess-mit"
        for _ in range(6):
            game.push(engine.choose_move(game))


@needs_fairy_stockfish
def test_a_match_against_fairy_stockfish_with_the_projects_command_only():
    spec = (f"uci:{FAIRY_STOCKFISH},option.VariantPath={FAIRY_VARIANTS},"
            "name=fairy-stockfish")
    result = play_match([spec, "greedy"], "minitchess", games=2, time_control="1+0.01",
                        concurrency=1, seed=1)
    assert result.failures == []
    assert result.players[0] == "fairy-stockfish"
    assert result.score > 0.5
