"""Opening books: how one is built, stored and read, and when level 10 plays from it."""

from __future__ import annotations

import json

import pytest

from minichess import Board
from minichess.cli.main import main
from minichess.engine import Engine, Limit
from minichess.engine.book import (
    BOOKS_DIR,
    BookEntry,
    OpeningBook,
    build_book,
    position_key,
    variant_book,
)
from minichess.errors import MinichessError
from minichess.match.specs import parse_player
from minichess.pieces import BLACK, WHITE

CLOCK = Limit(white_clock=5, black_clock=5, increment=0.05)


@pytest.fixture(scope="module")
def small_book() -> OpeningBook:
    return build_book("csc111", plies=3, depth=4, concurrency=1)


def book_positions() -> dict[str, Board]:
    """The positions a csc111 book three plies deep holds, by key: the start (White), Black's
    after each White first move (ply 1), and White's after its book move and each Black answer
    (ply 2), as reached from the start."""
    start = Board("csc111")
    boards = {position_key(start): start}
    for first in start.legal_moves:
        after = start.copy()
        after.push(first)
        boards[position_key(after)] = after
    played = start.copy()
    played.push(Engine(seed=0).analyse(start, Limit(depth=4)).pv[0])
    for answer in played.legal_moves:
        after = played.copy()
        after.push(answer)
        if not after.is_game_over():
            boards[position_key(after)] = after
    return boards


def test_a_book_holds_both_colours_moves_to_its_depth(small_book):
    assert set(small_book.entries) == set(book_positions())


def test_each_entry_is_the_move_of_a_fresh_search_to_the_books_depth(small_book):
    for key, board in book_positions().items():
        info = Engine(seed=0).analyse(board, Limit(depth=4))
        entry = small_book.entries[key]
        assert (entry.move, entry.depth, entry.score, entry.mate) == (
            info.pv[0].uci(), 4, info.score, info.mate)


def test_the_same_arguments_build_the_same_book_in_several_processes(small_book):
    assert build_book("csc111", plies=3, depth=4, concurrency=2).entries == small_book.entries


def test_a_saved_book_reads_back_the_same(small_book, tmp_path):
    small_book.save(tmp_path / "book.json")
    again = OpeningBook.load(tmp_path / "book.json")
    assert (again.variant.name, again.entries, again.about) == (
        "csc111", small_book.entries, small_book.about)


@pytest.mark.parametrize("text", ["", "[]", '{"variant": "csc111"}',
                                  '{"variant": "nope", "positions": {}}',
                                  '{"variant": "csc111", "positions": {"k": {"depth": 1}}}'])
def test_a_file_that_is_no_book_is_a_clear_error(tmp_path, text):
    path = tmp_path / "book.json"
    path.write_text(text)
    with pytest.raises(MinichessError, match="not an opening book"):
        OpeningBook.load(path)


def test_a_move_not_legal_in_the_position_is_not_offered():
    board = Board("csc111")
    book = OpeningBook("csc111", {position_key(board): BookEntry("a1a4", 5, 0)})
    assert book.entry(board) is None and book.move(board) is None
    assert book.move(Board("minitchess")) is None  # another variant's position


def test_level_10_under_a_clock_plays_the_book_move_without_searching(small_book):
    engine = Engine(seed=1)
    engine.use_book(small_book)
    board = Board("csc111")
    result = engine.play(board, CLOCK)
    entry = small_book.entry(board)
    assert result.move.uci() == entry.move and result.nodes == 0
    assert (result.depth, result.mate) == (entry.depth, entry.mate)


def test_the_book_is_left_out_by_analysis_fixed_limits_lower_levels_and_on_request(small_book):
    board = Board("csc111")
    for engine, limit in [(Engine(seed=1), Limit(depth=2)), (Engine(level=9, seed=1), CLOCK),
                          (Engine(seed=1, book=False), CLOCK)]:
        engine.use_book(small_book)
        assert engine.play(board, limit).nodes > 0
    engine = Engine(seed=1)
    engine.use_book(small_book)
    assert engine.analyse(board, CLOCK).nodes > 0


def test_the_shipped_books_moves_are_legal_and_start_at_the_start():
    shipped = sorted(path.stem for path in BOOKS_DIR.glob("*.json"))
    assert "minitchess" in shipped
    for name in shipped:
        book = variant_book(name)
        assert book.variant.name == name and book.entry(Board(name)) is not None
        sides = set()
        for key in book.entries:
            board = Board(name, key + " 0 1")
            assert book.entry(board) is not None, key
            sides.add(board.turn)
        assert sides == {WHITE, BLACK}


def test_a_player_spec_can_leave_the_book_out_or_use_another(small_book, tmp_path):
    assert parse_player("level:10,book=none").create().engine.book is False
    small_book.save(tmp_path / "book.json")
    player = parse_player(f"level:10,book={tmp_path / 'book.json'}").create()
    assert player.engine.opening_book(Board("csc111").variant).entries == small_book.entries
    with pytest.raises(MinichessError, match="unknown option"):
        parse_player(f"level:10,book={tmp_path / 'missing.json'}")


def test_the_command_builds_a_book_and_looks_positions_up(tmp_path, capsys):
    path = tmp_path / "book.json"
    assert main(["book", "-v", "csc111", "--build", "--plies", "2", "--depth", "3", "-j", "1",
                 "--output", str(path), "--json"]) == 0
    built = json.loads(capsys.readouterr().out)
    assert built["positions"] == 1 + len(Board("csc111").legal_moves)
    assert built["command"] == "minichess book --variant csc111 --build --plies 2 --depth 3"
    assert main(["book", "-v", "csc111", "--book", str(path), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["move"] == OpeningBook.load(path).move(Board("csc111")).uci()
    assert found["depth"] == 3
    assert main(["book", "-v", "csc111", "--book", str(path), "--fen",
                 "rqkr/pppp/1PPP/RQKR w - - 0 1"]) == 0
    assert capsys.readouterr().out.startswith("not in the book")
    assert main(["book", "-v", "csc111", "--book", str(tmp_path / "missing.json")]) == 2
