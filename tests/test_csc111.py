"""The CSC111 course library's interface (``minichess.csc111``): its moves in its order, its
errors, its winner rules, and the same move sets as the core on thousands of positions."""

from __future__ import annotations

import random

import pytest

from fairy_oracle import oracle_moves
from minichess import Board
from minichess.csc111 import MAX_MOVES, MinichessGame, _Piece

START_MOVES = ["a2b3", "b2c3", "b2a3", "c2d3", "c2b3", "d2c3"]


def course_board(picture: str) -> list[list[str | None]]:
    """A board in the course library's layout (rows from rank 1) from a picture drawn rank 4
    first, ``.`` for an empty square."""
    rows = picture.split()
    assert len(rows) == 4 and all(len(row) == 4 for row in rows)
    return [[None if c == "." else c for c in row] for row in reversed(rows)]


def moves_from(game: MinichessGame, origin: str) -> list[str]:
    return [move for move in game.get_valid_moves() if move.startswith(origin)]


def board_of(game: MinichessGame) -> Board:
    """The project's Board of the same position, read from the course FEN (not from the game's
    own arrays)."""
    rows = []
    for row in game.get_fen().split("/"):
        cells = row[:-1]  # the course writes each empty square as 1, then 4 for files e-h
        text, empty = "", 0
        for cell in cells:
            if cell == "1":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    side = "w" if game.is_white_move() else "b"
    return Board("csc111", f"{'/'.join(rows)} {side} - - 0 1")


# --- the start and the course library's own example ---------------------------------------------


def test_start_position_moves_in_the_course_order():
    assert MinichessGame().get_valid_moves() == START_MOVES


def test_the_course_librarys_example_game():
    game = MinichessGame()
    game.make_move("a2b3")
    assert game.get_valid_moves() == ["b4b3"]  # Black must take back: the only valid move
    game.make_move("b4b3")
    assert game.get_url() == "https://lichess.org/analysis/standard/8/8/8/8/r1kr4/pqpp4/1PPP4/RQKR4"
    assert game.is_white_move()


def test_fen_writes_each_empty_square_as_one_and_pads_to_eight_files():
    game = MinichessGame(course_board("...k ...r .... K..."))
    assert game.get_fen() == "111k4/111r4/11114/K1114"
    assert game.get_url().endswith("/8/8/8/8/111k4/111r4/11114/K1114")


# --- the order: squares a1, b1, ..., d4; each piece's directions in the course's order --------


def test_moves_go_square_by_square_not_captures_first():
    # The core lists captures first; the course goes by origin square: the king on a1 comes
    # before the pawn capture b2xc3.
    game = MinichessGame(course_board("...k ..r. .P.. K..."))
    assert game.get_valid_moves() == ["a1b1", "a1a2", "b2b3", "b2c3"]


def test_pawn_forward_then_towards_the_higher_file_then_the_lower():
    game = MinichessGame(course_board("...k r.r. .P.. ...K"))
    assert moves_from(game, "b2") == ["b2b3", "b2c3", "b2a3"]


def test_black_pawn_forward_is_down_the_board_and_the_higher_file_still_comes_first():
    game = MinichessGame(course_board("k... ..p. .P.P ...K"), white_active=False)
    assert moves_from(game, "c3") == ["c3c2", "c3d2", "c3b2"]


def test_pawn_on_the_last_rank_stays_without_moves():
    game = MinichessGame(course_board("P..k .... .... ...K"))
    assert moves_from(game, "a4") == []


def test_rook_rays_higher_file_higher_rank_lower_file_lower_rank_nearest_first():
    game = MinichessGame(course_board("K.k. .... .R.. ...."))
    assert moves_from(game, "b2") == ["b2c2", "b2d2", "b2b3", "b2b4", "b2a2", "b2b1"]


def test_queen_rook_rays_then_diagonals_by_rank_then_file():
    game = MinichessGame(course_board("K.k. .... .Q.. ...."))
    assert moves_from(game, "b2") == [
        "b2c2", "b2d2", "b2b3", "b2b4", "b2a2", "b2b1",  # as a rook
        "b2a1",  # lower rank, lower file
        "b2c1",  # lower rank, higher file
        "b2a3",  # higher rank, lower file
        "b2c3", "b2d4",  # higher rank, higher file, nearest first
    ]  # fmt: skip


def test_a_ray_stops_at_the_first_piece_taking_it_if_it_is_an_enemy():
    game = MinichessGame(course_board("K.k. .p.. .R.P ...."))
    assert moves_from(game, "b2") == ["b2c2", "b2b3", "b2a2", "b2b1"]


def test_king_steps_by_rank_change_then_file_change_legal_ones_only():
    # Rank change -1, 0, 1 outside, file change -1, 0, 1 inside; c3 is next to the black king.
    game = MinichessGame(course_board("...k .... .K.. ...."))
    assert game.get_valid_moves() == ["b2a1", "b2b1", "b2c1", "b2a2", "b2c2", "b2a3", "b2b3"]


def test_a_pinned_piece_keeps_its_moves_along_the_pin_in_the_course_order():
    # The white rook on b2 shields its king on b1 from the black rook on b4.
    game = MinichessGame(course_board(".r.k .... .R.. .K.."))
    assert moves_from(game, "b2") == ["b2b3", "b2b4"]


def test_in_check_only_the_moves_that_answer_it():
    game = MinichessGame(course_board("...k .... .... K..r"))
    assert game.get_valid_moves() == ["a1a2", "a1b2"]


# --- the winner -------------------------------------------------------------------------------


MATE_IN_ONE = course_board(".q.. ..k. .... K...")
"""Black to move mates with b4b2 (the queen, guarded by the king, next to the white king)."""


def test_a_mate_on_the_fiftieth_ply_is_a_draw():
    game = MinichessGame(MATE_IN_ONE, white_active=False, move_count=MAX_MOVES - 1)
    assert game.get_winner() is None
    game.make_move("b4b2")
    assert game.get_valid_moves() == []  # mated, but the 50 plies come first
    assert game.get_winner() == "Draw"


def test_the_same_mate_earlier_wins():
    game = MinichessGame(MATE_IN_ONE, white_active=False, move_count=MAX_MOVES - 2)
    game.make_move("b4b2")
    assert game.get_winner() == "Black"


def test_no_valid_move_loses_even_without_check():
    # Black's king on a4 has no move and is not attacked: it loses all the same.
    game = MinichessGame(course_board("k... ..Q. .K.. ...."), white_active=False)
    assert game.get_valid_moves() == []
    assert game.get_winner() == "White"


def test_after_fifty_plies_the_moves_are_still_listed_but_the_game_is_drawn():
    game = MinichessGame(move_count=MAX_MOVES)
    assert game.get_winner() == "Draw"
    assert game.get_valid_moves() == START_MOVES


def test_game_on():
    assert MinichessGame().get_winner() is None


# --- errors leave everything as it was ----------------------------------------------------------


def snapshot(game: MinichessGame):
    return (game.get_fen(), list(game.get_valid_moves()), game.is_white_move(),
            game.get_winner(), game._move_count)


@pytest.mark.parametrize("move", ["a4d1", "a2a3", "b2b3 ", "A2B3", "a2-b3", "", None, 7])
def test_an_invalid_move_is_a_value_error_and_changes_nothing(move):
    game = MinichessGame()
    before = snapshot(game)
    with pytest.raises(ValueError, match=f'^Move "{move}" is not valid$'):
        game.make_move(move)
    with pytest.raises(ValueError, match=f'^Move "{move}" is not valid$'):
        game.copy_and_make_move(move)
    assert snapshot(game) == before


def test_copy_and_make_move_leaves_the_game_as_it_was():
    game = MinichessGame()
    before = snapshot(game)
    after = game.copy_and_make_move("c2b3")
    assert snapshot(game) == before
    assert after.get_valid_moves() == ["b4b3"]  # the pawn guarded by a2 checks: the queen takes
    assert not after.is_white_move()
    assert after._move_count == 1


def test_the_valid_moves_are_the_games_own_list_as_in_the_course_library():
    game = MinichessGame()
    moves = game.get_valid_moves()
    moves.reverse()
    assert game.get_valid_moves() == list(reversed(START_MOVES))
    moves.remove("a2b3")
    with pytest.raises(ValueError, match="a2b3"):
        game.make_move("a2b3")
    moves.append("a1a1")  # a move only in the list is no move
    with pytest.raises(ValueError, match="a1a1"):
        game.make_move("a1a1")
    game.make_move("d2c3")
    assert game.get_fen() == "rqkr4/ppPp4/PPP14/RQKR4"


# --- boards given to the constructor ------------------------------------------------------------


def test_boards_of_course_pieces_letters_or_none():
    pieces = [[_Piece(c.lower(), c.isupper()) if c else None for c in row]
              for row in course_board("rqkr pppp PPPP RQKR")]
    assert MinichessGame(pieces).get_valid_moves() == START_MOVES
    assert MinichessGame(course_board("rqkr pppp PPPP RQKR")).get_valid_moves() == START_MOVES


def test_the_board_is_read_back_as_course_pieces():
    rows = MinichessGame()._board
    assert [[str(p) if p else None for p in row] for row in rows] == course_board(
        "rqkr pppp PPPP RQKR")
    assert isinstance(rows[0][0], _Piece) and rows[0][0].kind == "r" and rows[0][0].is_white


def test_a_board_without_kings_is_a_course_board_too():
    game = MinichessGame(course_board(".... ..p. .P.. ...."))
    assert game.get_valid_moves() == ["b2b3", "b2c3"]


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (course_board("k... .... .... KK.."), "White has 2 kings"),
        (course_board("k... .... .... K..n"), "d1: 'n' is not a piece of this game"),
        (course_board("k... .... .... K..x"), "d1: 'x' is not a piece"),
        ([[None] * 4] * 3, "4 rows"),
        ([[None] * 4] * 3 + [[None] * 5], "4 rows"),
        (course_board("k..R .... .... K..."), "Black's king is in check, but it is not Black's"),
    ],
)
def test_boards_the_game_cannot_have_are_value_errors(board, message):
    with pytest.raises(ValueError, match=message):
        MinichessGame(board)


# --- the same moves as the core, position after position ---------------------------------------


def random_games(seed: int, count: int):
    """Positions along random games played through the course interface."""
    rng = random.Random(seed)
    seen = 0
    while True:
        game = MinichessGame()
        while game.get_winner() is None:
            yield game
            seen += 1
            if seen == count:
                return
            game = game.copy_and_make_move(rng.choice(game.get_valid_moves()))


def random_boards(seed: int, count: int):
    """Games on random boards (one king a side, other pieces anywhere but pawns on their own
    back rank, either side to move) that the game accepts."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        letters = ["K", "k"] + [rng.choice("PPPRQprq") for _ in range(rng.randint(1, 8))]
        free = list(range(16))
        rng.shuffle(free)
        board: list[list[str | None]] = [[None] * 4 for _ in range(4)]
        for letter in letters:
            home = {"P": 0, "p": 3}.get(letter)
            sq = next(sq for sq in free if sq // 4 != home)
            free.remove(sq)
            board[sq // 4][sq % 4] = letter
        try:
            yield MinichessGame(board, white_active=rng.random() < 0.5)
        except ValueError:  # the side not to move is in check
            continue
        made += 1


def course_walk(game: MinichessGame) -> list[str]:
    """Every square each piece of the side to move reaches by its course directions, in the
    course's order (legality aside), written straight from the course's description."""
    board = game._board
    white = game.is_white_move()
    walk = []
    for rank in range(4):
        for file in range(4):
            piece = board[rank][file]
            if piece is None or piece.is_white != white:
                continue
            forward = 1 if white else -1
            slides = [(1, 0), (0, 1), (-1, 0), (0, -1)]
            directions = {
                "p": [(0, forward), (1, forward), (-1, forward)],
                "r": slides,
                "q": [*slides, (-1, -1), (1, -1), (-1, 1), (1, 1)],
                "k": [(df, dr) for dr in (-1, 0, 1) for df in (-1, 0, 1)],
            }[piece.kind]
            reach = 4 if piece.kind in "rq" else 1
            for df, dr in directions:
                for step in range(1, reach + 1):
                    f, r = file + df * step, rank + dr * step
                    if not (0 <= f < 4 and 0 <= r < 4) or (df, dr) == (0, 0):
                        break
                    walk.append("abcd"[file] + str(rank + 1) + "abcd"[f] + str(r + 1))
                    if board[r][f] is not None:
                        break
    return walk


def in_walk_order(moves: list[str], walk: list[str]) -> bool:
    places = [walk.index(move) for move in moves]
    return places == sorted(places)


@pytest.mark.parametrize("positions", [random_games(3, 3000), random_boards(4, 2000)],
                         ids=["random-games", "random-boards"])
def test_valid_moves_are_the_cores_legal_moves_in_the_course_order(positions):
    for game in positions:
        moves = game.get_valid_moves()
        core = {move.uci() for move in board_of(game).position_moves}
        assert sorted(moves) == sorted(core), game.get_fen()
        assert in_walk_order(moves, course_walk(game)), (game.get_fen(), moves)


def test_valid_moves_agree_with_fairy_stockfish():
    for game in random_games(5, 400):
        fen = board_of(game).fen()
        assert sorted(game.get_valid_moves()) == oracle_moves("csc111", fen), fen
