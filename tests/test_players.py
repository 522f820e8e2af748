"""Players: the base class and its hooks, the lines a human types, the human player, time odds.
(Games between players: test_engine.py and test_match.py; the external UCI engine:
test_match.py.)"""

from __future__ import annotations

import re

import pytest

from minichess.board import Board
from minichess.game import Game, TimeControl
from minichess.move import Move
from minichess.players import GreedyPlayer, HumanPlayer, Player, RandomPlayer, TimeOddsPlayer
from minichess.players.human import Command, CommandError, move_subject, parse_command
from minichess.variants import get_variant
from scripted_input import plain_console, scripted

# --- typed lines --------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "command"), [
    ("a2a3", Command("move", "a2a3")),
    ("a2-a3", Command("move", "a2-a3")),
    ("Nc3", Command("move", "Nc3")),
    ("Q@d6", Command("move", "Q@d6")),
    ("moves", Command("moves")),
    ("moves b2", Command("moves", "b2")),
    ("  MOVES  N ", Command("moves", "N")),
    ("save my game.pgn", Command("save", "my game.pgn")),
    ("load ~/games/last.pgn", Command("load", "~/games/last.pgn")),
    ("undo", Command("undo")),
    ("?", Command("help")),
    ("exit", Command("quit")),
    ("", None),
    ("   ", None),
])
def test_a_typed_line_is_a_move_or_a_command(text, command):
    assert parse_command(text) == command


@pytest.mark.parametrize(("text", "message"), [
    ("hlep", "'hlep' is neither a move nor a command (did you mean 'help'?)"),
    ("banana", "type a move such as a2a3 or Nc3, or 'help'"),
    ("N", "'N' is neither a move nor a command (did you mean 'moves N'?)"),
    ("save", "save needs a file name: save FILE.pgn"),
    ("undo 2", "undo takes nothing after it"),
    ("a2 a3", "write a move as one word"),
    ("moves b2 b3", "moves takes one square or piece letter"),
])
def test_a_bad_line_gets_a_helpful_message(text, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        parse_command(text)


@pytest.mark.parametrize(("text", "subject"), [
    ("b2b5", "b2"),   # the square of one of the mover's pieces
    ("b2", "b2"),
    ("Nd4", "N"),     # a piece letter
    ("Q@d3", "Q"),
    ("a6a5", None),   # Black's pawn, and White is to move
    ("c3c4", None),   # an empty square
    ("zz9", None),
])
def test_a_rejected_move_names_the_piece_to_list_the_moves_of(text, subject):
    assert move_subject(Board("minitchess"), text) == subject


# --- the base class and time odds ---------------------------------------------------------------


class Recorder(Player):
    """A player that notes the hooks called on it and the clocks it saw."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.clocks: list[float | None] = []

    def choose_move(self, game: Game) -> Move:
        self.clocks.append(game.remaining(game.board.turn))
        return game.board.legal_moves[0]

    def seed_game(self, seed: int) -> None:
        self.calls.append(f"seed_game {seed}")

    def new_game(self, variant) -> None:
        self.calls.append(f"new_game {variant.name}")

    def close(self) -> None:
        self.calls.append("close")


def test_the_hooks_of_a_player_do_nothing_unless_it_has_something_to_do():
    player = RandomPlayer(seed=1)
    player.new_game(get_variant("csc111"))
    with player:
        assert player.choose_move(Game("csc111")) in Board("csc111").legal_moves
    player.close()


@pytest.mark.parametrize("kind", [RandomPlayer, GreedyPlayer])
def test_a_seeded_game_replays_the_same_chance_moves(kind):
    def moves(player):
        game = Game("antichess")
        while len(game.moves) < 12 and not game.is_game_over():
            game.push(player.choose_move(game))
        return game.san_moves

    player = kind(seed=1)
    player.seed_game(42)
    first = moves(player)
    player.seed_game(42)
    assert moves(player) == first
    player.seed_game(43)
    assert moves(player) != first


def test_time_odds_pass_the_hooks_on_and_scale_the_clocks():
    inner = Recorder()
    with TimeOddsPlayer(inner, 0.25) as odds:
        odds.seed_game(5)
        odds.new_game(get_variant("minitchess"))
        odds.choose_move(Game("minitchess", clock=TimeControl(60)))
    assert odds.name == "recorder,time=0.25"
    assert inner.calls == ["seed_game 5", "new_game minitchess", "close"]
    assert inner.clocks == [15.0]


# --- the human player ---------------------------------------------------------------------------


def test_the_human_is_asked_until_a_legal_move_comes():
    console = plain_console()
    human = HumanPlayer(scripted("hlep", "b2b5", "moves b2", "", "b3"), console)
    assert isinstance(human, Player)
    assert human.choose_move(Game("minitchess")) == Move.from_uci("b2b3")
    out = console.file.getvalue()
    assert "did you mean 'help'?" in out
    assert "b2b5 is illegal; legal moves of that piece: b2b3" in out
    assert "type 'moves b2' for the legal moves of b2, 'moves' for all" in out
    assert "White's pawn on b2: b3" in out


def test_the_human_hands_the_other_commands_on():
    seen = []
    human = HumanPlayer(scripted("undo", "help", "e3"), plain_console(),
                        on_command=lambda command, game: seen.append(command))
    human.choose_move(Game("minitchess"))
    assert seen == [Command("undo")]
    alone = HumanPlayer(scripted("undo", "e3"), plain_console())
    alone.choose_move(Game("minitchess"))
    assert "undo is not available here" in alone.console.file.getvalue()


def test_the_end_of_input_reaches_the_caller():
    with pytest.raises(EOFError):
        HumanPlayer(scripted(), plain_console()).choose_move(Game("minitchess"))
