"""SVG pictures: every variant, both orientations, valid XML, each piece on its square."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import minichess
from minichess import svg
from minichess.cli.main import main
from minichess.pieces import BLACK, WHITE, Piece
from minichess.squares import parse_square, square_file, square_rank
from minichess.variants import VARIANTS

NS = "{http://www.w3.org/2000/svg}"
TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def parsed(picture: str) -> ET.Element:
    return ET.fromstring(picture)  # raises on anything that is not well-formed XML


def placed_pieces(root: ET.Element) -> dict[str, tuple[str, float, float]]:
    """data-square -> (data-piece, x, y) of every piece on the board."""
    pieces = {}
    for group in root.iter(f"{NS}g"):
        if "data-square" in group.attrib and "piece" in group.get("class", ""):
            x, y = map(float, TRANSLATE.search(group.get("transform")).groups())
            pieces[group.get("data-square")] = (group.get("data-piece"), x, y)
    return pieces


def expected_corner(board: minichess.Board, name: str, orientation: bool) -> tuple[float, float]:
    """Where the square ``name`` must be drawn, worked out apart from the module's geometry."""
    sq = parse_square(name)
    files, ranks = board.variant.files, board.variant.ranks
    column = square_file(sq) if orientation == WHITE else files - 1 - square_file(sq)
    row = ranks - 1 - square_rank(sq) if orientation == WHITE else square_rank(sq)
    return svg.MARGIN + column * svg.SQUARE_SIZE, svg.MARGIN + row * svg.SQUARE_SIZE


@pytest.mark.parametrize("orientation", [WHITE, BLACK], ids=["white", "black"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_piece_is_drawn_on_its_square(variant: str, orientation: bool) -> None:
    board = minichess.Board(variant)
    for move in board.legal_moves[:1]:  # and a position after a move
        board.push(move)
    root = parsed(svg.board(board, orientation=orientation, lastmove=board.peek()))
    pieces = placed_pieces(root)
    expected = {minichess.square_name(sq): board.piece_at(sq).symbol()
                for sq in board.squares() if board.piece_at(sq)}
    assert {name: letter for name, (letter, _, _) in pieces.items()} == expected
    for name, (_, x, y) in pieces.items():
        assert (x, y) == expected_corner(board, name, orientation)
    squares = [r for r in root.iter(f"{NS}rect") if "square" in r.get("class", "").split()]
    assert len(squares) == board.variant.files * board.variant.ranks
    assert root.get("data-orientation") == ("white" if orientation == WHITE else "black")


def test_square_colours_a1_is_dark_in_every_variant() -> None:
    for variant in VARIANTS:
        root = parsed(svg.board(minichess.Board(variant)))
        a1 = next(r for r in root.iter(f"{NS}rect") if "a1" in r.get("class", "").split())
        assert "dark" in a1.get("class")


def test_coordinates_follow_the_orientation() -> None:
    board = minichess.Board("csc111")
    texts = [t.text for t in parsed(svg.board(board, orientation=BLACK)).iter(f"{NS}text")]
    assert texts[:2] == ["a", "a"] and {"1", "4", "d"} <= set(texts)
    assert not list(parsed(svg.board(board, coordinates=False)).iter(f"{NS}text"))


def test_last_move_check_arrows_and_fills_are_marked() -> None:
    board = minichess.Board("chess36", "rbk1nr/ppp1pp/6/6/PPP1PP/RNQKBR[] w - - 0 1")
    board.push_uci("c1d2")
    picture = svg.board(board, lastmove=board.peek(), check=parse_square("c6"),
                        arrows=[svg.Arrow(parse_square("a2"), parse_square("a4"), "red"),
                                (parse_square("b2"), parse_square("b2"))],
                        fill={parse_square("e4"): "#ff000080"})
    root = parsed(picture)
    classes = [e.get("class", "") for e in root.iter()]
    assert "lastmove c1" in classes and "lastmove d2" in classes
    assert "check c6" in classes
    assert "arrow a2a4" in classes and "arrow b2b2" in classes
    assert "fill e4" in classes


def test_check_square_finds_the_attacked_king_only_where_kings_matter() -> None:
    assert svg.check_square(minichess.Board("csc111", "1k2/4/4/1R1K b - - 0 1")) == \
        parse_square("b4")
    assert svg.check_square(minichess.Board("csc111")) is None
    assert svg.check_square(minichess.Board("antichess")) is None


def test_chess36_reserves_are_drawn_beside_the_board() -> None:
    board = minichess.Board("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[QRRbn] w - - 0 1")
    root = parsed(svg.board(board))
    reserve = {g.get("data-reserve"): int(g.get("data-count")) for g in root.iter(f"{NS}g")
               if g.get("data-reserve")}
    assert reserve == {"Q": 1, "R": 2, "b": 1, "n": 1}
    width = float(root.get("viewBox").split()[2])
    assert width > 2 * svg.MARGIN + 6 * svg.SQUARE_SIZE  # the reserve column is outside
    assert not any(g.get("data-reserve") for g in
                   parsed(svg.board(board, reserves=False)).iter(f"{NS}g"))


def test_size_sets_width_and_height_by_the_board_shape() -> None:
    root = parsed(svg.board(minichess.Board("minitchess"), size=300))
    assert root.get("width") == "300"
    assert int(root.get("height")) > 300  # 6 ranks, 5 files


def test_single_piece_and_figures() -> None:
    figures = svg.piece_figures()
    assert sorted(figures) == sorted("PNBRQKpnbrqk")
    root = parsed(svg.piece(Piece.from_symbol("q"), size=60))
    assert root.get("width") == "60"


def test_board_repr_svg_for_notebooks() -> None:
    board = minichess.Board("minitchess")
    board.push_uci("b2b3")
    root = parsed(board._repr_svg_())
    assert any("lastmove" in e.get("class", "") for e in root.iter())


def test_show_writes_svg_and_png(tmp_path) -> None:
    picture, png = tmp_path / "board.svg", tmp_path / "board.png"
    assert main(["show", "--variant", "chess36", "--svg", str(picture), "--png", str(png),
                 "--flip", "--size", "240"]) == 0
    root = parsed(picture.read_text())
    assert root.get("data-orientation") == "black" and root.get("width") == "240"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_reports_an_unwritable_picture(tmp_path, capsys) -> None:
    assert main(["show", "--svg", str(tmp_path / "missing" / "x.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err
