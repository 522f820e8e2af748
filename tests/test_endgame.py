"""The endgame tables: values of hand-built positions with the reason each is right, a sample
checked by plain minimax over the Board API, the search reading them, and the command."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from minichess import Board
from minichess.cli.main import main
from minichess.engine import Engine, Limit
from minichess.engine.endgame import (
    DIRECTORY_VARIABLE,
    EndgameTables,
    build_order,
    build_tables,
    endgame_applies,
    limited_result,
    load_tables,
    material_name,
    table_size,
)
from minichess.engine.search import MATE_BOUND
from minichess.match.specs import parse_player
from minichess.outcome import Termination
from minichess.variants import VARIANTS

BoardFactory = Callable[..., Board]


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 3-piece tables of minitchess, built once for the module."""
    folder = tmp_path_factory.mktemp("endgame")
    build_tables("minitchess", pieces=3, directory=folder)
    return folder


@pytest.fixture(scope="module")
def tables(directory: Path) -> EndgameTables:
    return load_tables("minitchess", directory)


def wins_within(board: Board, plies: int) -> bool:
    """Whether the side to move can force a win within ``plies`` plies (plain minimax)."""
    if plies <= 0 or board.is_game_over():
        return False
    for move in board.legal_moves:
        board.push(move)
        won = board.outcome() is not None and board.outcome().winner is not None
        won = won or loses_within(board, plies - 1)
        board.pop()
        if won:
            return True
    return False


def loses_within(board: Board, plies: int) -> bool:
    """Whether the side to move loses within ``plies`` plies however it plays; having no legal
    move loses on the ply it cannot play (the tables' count)."""
    outcome = board.outcome()
    if outcome is not None:
        needed = 1 if outcome.termination == Termination.NO_LEGAL_MOVES else 0
        return outcome.winner is not None and outcome.winner != board.turn and plies >= needed
    if plies <= 1:
        return False
    for move in board.legal_moves:
        board.push(move)
        held = not wins_within(board, plies - 1)
        board.pop()
        if held:
            return False
    return True


def test_the_king_capture_variants_have_tables():
    assert [name for name, variant in VARIANTS.items() if endgame_applies(variant)] == [
        "minitchess", "minichess-classic"]


def test_tables_are_built_in_the_order_of_their_captures_and_promotions():
    names = [[material_name(material) for material in group] for group in build_order(3)]
    assert names == [["KvK"], ["KNvK", "KBvK", "KRvK", "KQvK"], ["KPvK"]]
    assert sum(len(group) for group in build_order(4)) == 36  # up to the colour swap


def test_a_king_that_can_be_taken_is_a_win_in_one(tables):
    # adjacent kings: whoever moves takes the other
    board = Board("minitchess", "5/5/5/2k2/2K2/5 b - - 0 1")
    assert tables.distance(board) == 1
    assert tables.value(board).describe() == "Black wins in 1 ply"
    assert [move.uci() for move in tables.keeping_moves(board)] == ["c3c2"]


def test_queen_wins_agree_with_minimax(tables):
    # the lone king in the corner against king and queen: a short forced win, which plain
    # minimax finds at the stored distance and not a ply sooner
    board = Board("minitchess", "5/5/5/5/2Q2/k1K2 w - - 0 1")
    distance = tables.distance(board)
    assert distance is not None and distance > 0
    assert wins_within(board, distance) and not wins_within(board, distance - 1)


def test_the_colour_swap_gives_the_same_value(tables):
    # the same position turned round with the colours swapped
    white = Board("minitchess", "5/5/1k3/5/3Q1/4K w - - 0 1")
    black = Board("minitchess", "k4/1q3/5/3K1/5/5 b - - 0 1")
    assert tables.distance(white) == tables.distance(black) != 0


def test_a_win_longer_than_the_plies_left_is_a_draw(tables):
    fen = "5/5/5/2k2/5/N3K {turn} - - 0 {move}"
    board = Board("minitchess", fen.format(turn="w", move=1))
    distance = tables.distance(board)
    assert distance is not None and distance > 2
    assert tables.value(board).result == 1
    plies_left = distance - 1  # one ply short: the move limit comes first
    late = Board("minitchess", fen.format(turn="w", move=(80 - plies_left) // 2 + 1))
    assert 80 - late.ply() == plies_left
    assert tables.value(late).describe() == "Draw"
    assert limited_result(distance, distance) == 1 and limited_result(-distance, distance) == -1
    assert limited_result(distance, distance - 1) == 0


def test_a_promotion_leads_into_the_queens_table(tables):
    # the pawn promotes at once (c6 is free and the black king is far): the win is one ply
    # longer than the queen's from the position after the promotion
    board = Board("minitchess", "5/2P2/5/5/k4/4K w - - 0 1")
    after = board.copy()
    after.push_uci("c5c6q")
    queen = tables.distance(after)
    assert queen is not None and queen < 0  # Black to move loses
    assert tables.distance(board) == 1 - queen
    assert "c5c6q" in [move.uci() for move in tables.keeping_moves(board)]


def test_a_sample_agrees_with_minimax(tables, place):
    rng = random.Random(5)
    checked = {1: 0, 0: 0, -1: 0}
    for board in _sample_boards(rng, 200, place):
        distance = tables.distance(board)
        assert distance is not None
        if 0 < distance <= 5:
            assert wins_within(board, distance) and not wins_within(board, distance - 1)
        elif -6 <= distance < 0:
            assert loses_within(board, -distance) and not loses_within(board, -distance - 1)
        elif distance == 0:
            assert not wins_within(board, 3) and not loses_within(board, 4)
        else:
            continue
        checked[int(np.sign(distance))] += 1
    assert min(checked.values()) >= 8, checked


def _sample_boards(rng: random.Random, count: int, place: BoardFactory) -> list[Board]:
    """Random 3-piece positions still going on (pawns off the first and last ranks)."""
    boards = []
    squares = [f"{file}{rank}" for file in "abcde" for rank in range(1, 7)]
    while len(boards) < count:
        piece = rng.choice("QRBNPqrbnp")
        white_king, black_king, other = rng.sample(squares, 3)
        if piece in "Pp" and other[1] in "16":
            continue
        board = place("minitchess", f"K{white_king} k{black_king} {piece}{other}",
                      turn=rng.choice("wb"))
        if not board.is_game_over():
            boards.append(board)
    return boards


def test_the_search_scores_table_positions_exactly(directory, monkeypatch):
    monkeypatch.setenv(DIRECTORY_VARIABLE, str(directory))
    board = Board("minitchess", "5/5/5/2k2/5/N3K w - - 0 1")
    distance = load_tables("minitchess").distance(board)
    assert distance is not None and distance > 4
    with_tables = Engine(seed=1).analyse(board, Limit(depth=2))
    assert with_tables.mate == (distance + 1) // 2  # the winner's moves
    without = Engine(seed=1, endgame=False).analyse(board, Limit(depth=2))
    assert without.mate is None and abs(without.score or 0) < MATE_BOUND


def test_a_new_game_reads_the_tables_before_its_clock_runs(directory, monkeypatch):
    monkeypatch.setenv(DIRECTORY_VARIABLE, str(directory))
    read = []
    monkeypatch.setattr("minichess.engine.engine.load_tables",
                        lambda variant: read.append(variant.name) or load_tables(variant))
    # as when the search has run in this process before: no warm-up, which reads them too
    monkeypatch.setattr("minichess.engine.engine._WARMED_UP", {"minitchess"})
    player = parse_player("level:10").create()
    player.new_game(VARIANTS["minitchess"])  # what a match does before the game's clock runs
    assert read == ["minitchess"]
    parse_player("level:10,endgame=none").create().new_game(VARIANTS["minitchess"])
    assert read == ["minitchess"]  # switched off: nothing read


def test_the_player_option_switches_the_tables_off():
    player = parse_player("level:10,endgame=none").create()
    assert player.engine.endgame is False  # type: ignore[attr-defined]
    assert parse_player("level:10").create().engine.endgame is True  # type: ignore[attr-defined]


def test_the_command_builds_and_answers(directory, tmp_path, capsys):
    assert main(["endgame", "--variant", "minitchess", "--build", "--pieces", "2", "-j", "1",
                 "--directory", str(tmp_path), "--json"]) == 0
    built = json.loads(capsys.readouterr().out)
    assert (built["tables"], built["positions"], built["longest_win"]) == (1, 1740, 1)
    assert main(["endgame", "--variant", "minitchess", "--fen", "5/5/5/2k2/2K2/5 w - - 0 1",
                 "--directory", str(directory), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["value"], answer["moves"]) == ("White wins in 1 ply", ["c2c3"])
    assert main(["endgame", "--variant", "minitchess", "--fen", "5/5/5/2k2/2K2/5 w - - 0 1",
                 "--directory", str(directory)]) == 0
    assert capsys.readouterr().out.splitlines() == ["White wins in 1 ply",
                                                    "moves that keep it: Kxc3"]
    assert main(["endgame", "--variant", "minitchess", "--directory", str(tmp_path)]) == 2
    assert "no table holds this position" in capsys.readouterr().err


def test_classic_draws_the_lone_minor_pieces_at_once(tmp_path):
    # K v K, K+N v K and K+B v K are drawn at once there, even where a king could be taken
    build_tables("minichess-classic", pieces=3, directory=tmp_path)
    classic = load_tables("minichess-classic", tmp_path)
    assert classic.names == ["KvK", "KNvK", "KBvK", "KRvK", "KQvK", "KPvK"]
    drawn = sum(table_size(classic.variant, material) for material in classic.materials[:3])
    assert not classic.values[:drawn].any() and classic.values[drawn:].any()
    kings = "5/5/5/2k2/2K2/{} w - - 0 1"
    assert classic.distance(Board("minichess-classic", kings.format("5"))) == 0
    assert classic.distance(Board("minichess-classic", kings.format("R4"))) == 1
