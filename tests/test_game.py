"""The Game: a board with its SAN record, headers, resignation and chess clocks."""

import time

import pytest

from minichess import BLACK, WHITE, IllegalMoveError, MinichessError, Move, Termination
from minichess.game import Game, TimeControl, parse_time_control


def test_a_game_records_moves_in_san():
    game = Game("minitchess", headers={"White": "Alice"})
    game.push("b3")
    game.push(Move.from_uci("b5b4"))
    game.push("b1c3")
    assert game.san_moves == ["b3", "b4", "Nc3"]
    assert game.moves == [Move.from_uci(m) for m in ("b2b3", "b5b4", "b1c3")]
    assert game.headers == {"White": "Alice"}
    assert game.result() == "*"


def test_a_game_can_start_from_a_fen():
    game = Game("minitchess", fen="k4/5/5/5/5/R3K w - - 0 1")
    game.push("Rxa6")
    assert game.outcome().termination == Termination.KING_CAPTURED
    assert game.result() == "1-0"


def test_no_move_after_the_end():
    game = Game("minitchess", fen="k4/5/5/5/5/R3K w - - 0 1")
    game.push("Rxa6")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.push("Ke2")


def test_resignation():
    game = Game("csc111")
    game.resign(WHITE)
    assert game.outcome().termination == Termination.RESIGNATION
    assert game.outcome().winner == BLACK
    assert game.result() == "0-1"
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.push("a3")
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.resign(BLACK)


def test_pop_takes_back_a_move():
    game = Game("minitchess")
    game.push("b3")
    assert game.pop() == Move.from_uci("b2b3")
    assert game.san_moves == []
    assert game.board.fen() == game.start_fen
    with pytest.raises(IndexError):
        game.pop()


# --- clocks -----------------------------------------------------------------------------------


def test_without_clocks_there_is_no_time():
    game = Game("minitchess")
    game.push("b3", seconds=1000)
    assert game.remaining(WHITE) is None
    assert game.check_time() is None
    assert game.clock_log == []


def test_time_is_deducted_from_the_mover():
    game = Game("minitchess", clock=TimeControl(60))
    game.push("b3", seconds=10)
    game.push("b4", seconds=2.5)
    assert game.remaining(WHITE) == 50
    assert game.remaining(BLACK) == 57.5
    assert game.clock_log == [(50, 60), (50, 57.5)]


def test_increment_is_added_after_the_move():
    game = Game("minitchess", clock=TimeControl(60, increment=2))
    game.push("b3", seconds=10)
    assert game.remaining(WHITE) == 52


def test_without_seconds_the_wall_time_counts():
    game = Game("minitchess", clock=TimeControl(60))
    time.sleep(0.05)
    game.push("b3")
    assert 59 < game.remaining(WHITE) <= 59.95
    assert game.remaining(BLACK) == 60


def test_a_move_that_comes_too_late_loses_on_time():
    game = Game("minitchess", clock=TimeControl(60, increment=5))
    game.push("b3", seconds=30)
    game.push("b4", seconds=61)  # more than Black's 60 seconds: the increment does not save it
    assert game.moves == [Move.from_uci("b2b3")]
    assert game.outcome().termination == Termination.TIME_FORFEIT
    assert game.result() == "1-0"
    with pytest.raises(IllegalMoveError, match="White wins by time forfeit"):
        game.push("b4", seconds=0)


def test_check_time_counts_the_running_turn():
    game = Game("minitchess", clock=TimeControl(0.3))
    assert 0 < game.check_time() <= 0.3
    time.sleep(0.35)
    assert game.check_time() < 0
    assert game.outcome().termination == Termination.TIME_FORFEIT
    assert game.outcome().winner == BLACK


def test_clocks_stop_when_the_game_ends():
    game = Game("minitchess", fen="k4/5/5/5/5/R3K w - - 0 1", clock=TimeControl(0.05))
    game.push("Rxa6", seconds=0.01)
    time.sleep(0.06)
    assert game.check_time() == 0.05
    assert game.outcome().termination == Termination.KING_CAPTURED


def test_pop_restores_the_clocks_and_undoes_a_forfeit():
    game = Game("minitchess", clock=TimeControl(60, increment=1))
    game.push("b3", seconds=10)
    game.push("b4", seconds=20)
    game.push("Nc3", seconds=100)
    assert game.result() == "0-1"
    assert game.pop() == Move.from_uci("b5b4")  # the late knight move was never played
    assert game.outcome() is None
    assert (game.remaining(WHITE), game.remaining(BLACK)) == (51, 60)
    game.pop()
    assert (game.remaining(WHITE), game.remaining(BLACK)) == (60, 60)


def test_negative_time_is_refused():
    with pytest.raises(MinichessError, match="negative"):
        Game("minitchess", clock=TimeControl(60)).push("b3", seconds=-1)


def test_default_clock_of_the_variant():
    assert TimeControl.default_for("antichess") == TimeControl(300)
    assert TimeControl.default_for("minitchess") is None
    game = Game("antichess", clock=TimeControl.default_for("antichess"))
    assert game.remaining(WHITE) == 300


@pytest.mark.parametrize(
    ("text", "initial", "increment"),
    [
        ("300", 300, 0),
        ("5:00", 300, 0),
        ("10+0.1", 10, 0.1),
        ("5:00+2", 300, 2),
        ("1:30:00", 5400, 0),
        (" 2.5 ", 2.5, 0),
    ],
)
def test_parse_time_control(text, initial, increment):
    assert parse_time_control(text) == TimeControl(initial, increment)


@pytest.mark.parametrize(
    "text", ["", "five minutes", "5:", "5::00", "1:2:3:4", "5+", "+2", "-5", "5+.", "5+1.2.3"]
)
def test_bad_time_control_text(text):
    with pytest.raises(MinichessError, match="cannot read time control"):
        parse_time_control(text)


def test_zero_time_is_no_clock():
    with pytest.raises(MinichessError, match="positive"):
        parse_time_control("0+5")


def test_time_control_is_written_as_in_pgn():
    assert str(TimeControl(300)) == "300"
    assert str(TimeControl(10, 0.1)) == "10+0.1"
    assert str(parse_time_control("5:00+2")) == "300+2"
