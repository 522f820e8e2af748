"""PGN: writing games with the variant tags, and reading them back (several per text)."""

import random

import pytest

from minichess import BLACK, VARIANTS, WHITE, InvalidPgnError, Move, Termination
from minichess.game import Game, TimeControl
from minichess.notation.pgn import LINE_WIDTH, read_pgn, read_pgn_file, write_pgn, write_pgn_file


def random_game(variant: str, seed: int, fen: str | None = None, **options) -> Game:
    rng = random.Random(seed)
    game = Game(variant, fen, **options)
    while not game.is_game_over():
        game.push(rng.choice(game.board.legal_moves), seconds=rng.random())
    return game


def movetext(pgn: str) -> str:
    return pgn.split("\n\n", 1)[1]


def assert_same_game(read: Game, written: Game) -> None:
    assert read.variant is written.variant
    assert read.start_fen == written.start_fen
    assert read.moves == written.moves
    assert read.san_moves == written.san_moves
    assert read.outcome() == written.outcome()


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_round_trip(variant):
    games = [random_game(variant, seed) for seed in range(3)]
    text = "\n".join(write_pgn(game) for game in games)
    read = read_pgn(text)
    assert len(read) == 3
    for read_game, game in zip(read, games, strict=True):
        assert_same_game(read_game, game)
        assert write_pgn(read_game) == write_pgn(game)


def test_game_from_a_fen_with_black_to_move():
    game = random_game("minitchess", 1, fen="kqbnr/p1ppp/1p3/5/PPPPP/RNBQK b - - 0 1")
    text = write_pgn(game)
    assert '[SetUp "1"]\n[FEN "kqbnr/p1ppp/1p3/5/PPPPP/RNBQK b - - 0 1"]' in text
    assert movetext(text).startswith(f"1... {game.san_moves[0]} 2. {game.san_moves[1]} ")
    assert_same_game(read_pgn(text)[0], game)


def test_chess36_drops_round_trip():
    fen = "k5/3K2/6/6/6/6[Qrb] w - - 0 30"
    game = Game("chess36", fen)
    game.push("Q@d6")
    game.push("Ka5")
    rest = random_game("chess36", 3, fen=game.board.fen())
    for move in rest.moves:
        game.push(move)
    text = write_pgn(game)
    assert movetext(text).startswith("30. Q@d6+ Ka5 31.")
    assert_same_game(read_pgn(text)[0], game)


def test_clocks_round_trip():
    game = random_game("antichess", 5, clock=TimeControl(300, 2))
    text = write_pgn(game)
    assert '[TimeControl "300+2"]' in text
    assert movetext(text).startswith(f"1. {game.san_moves[0]} {{[%clk 0:05:0")
    read = read_pgn(text)[0]
    assert read.clock == TimeControl(300, 2)
    for read_times, times in zip(read.clock_log, game.clock_log, strict=True):
        assert read_times == pytest.approx(times, abs=0.002)
    assert write_pgn(read) == text


@pytest.mark.parametrize("ending", ["resign", "time"])
def test_resignation_and_time_forfeit_round_trip(ending):
    game = Game("csc111", clock=TimeControl(60))
    game.push("axb3", seconds=5)
    if ending == "resign":
        game.resign(BLACK)
    else:
        game.push("Qxb3", seconds=99)
    text = write_pgn(game)
    assert f'[Termination "{game.outcome().termination.value}"]' in text
    assert movetext(text).endswith(" 1-0\n")
    assert read_pgn(text)[0].outcome() == game.outcome()


def test_files_hold_several_games(tmp_path):
    games = [random_game("minitchess", seed) for seed in range(4)]
    path = tmp_path / "games.pgn"
    write_pgn_file(path, games)
    read = read_pgn_file(path)
    assert [g.moves for g in read] == [g.moves for g in games]


# --- writing ----------------------------------------------------------------------------------


def test_tags_of_a_finished_game():
    headers = {"White": "Alice", "Black": "Bob", "Annotator": "me", "FEN": "ignored"}
    game = Game("minitchess", fen="k4/5/5/5/5/R3K w - - 0 1", headers=headers)
    game.push("Rxa6")
    assert write_pgn(game) == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "Alice"]\n'
        '[Black "Bob"]\n[Result "1-0"]\n[Variant "minitchess"]\n[SetUp "1"]\n'
        '[FEN "k4/5/5/5/5/R3K w - - 0 1"]\n[Termination "king capture"]\n[Annotator "me"]\n'
        "\n1. Rxa6 1-0\n"
    )


def test_unfinished_game():
    game = Game("chess36", headers={"Event": 'The "quoted" \\ event'})
    game.push("Nc3")
    text = write_pgn(game)
    assert '[Event "The \\"quoted\\" \\\\ event"]' in text
    assert '[Result "*"]' in text
    assert '[Termination "unterminated"]' in text
    assert movetext(text) == "1. Nc3 *\n"
    assert read_pgn(text)[0].headers["Event"] == 'The "quoted" \\ event'


def test_movetext_lines_are_wrapped():
    text = write_pgn(random_game("chess36", 2, clock=TimeControl(600)))
    lines = movetext(text).splitlines()
    assert len(lines) > 10
    assert max(len(line) for line in lines) <= LINE_WIDTH


# --- reading ----------------------------------------------------------------------------------

ANNOTATED = """
% an escaped line
[Event "Annotated"]
[Variant "MinitChess"]

{A comment before the moves} 1.b3 $1 b4?! (1... e4 {a variation} 2. e3 (2. d3)) 2. Nc3!
; a comment to the end of the line
bxc3 3. dxc3 *

[Variant "csc111"]
[Result "1/2-1/2"]

1. axb3 Qxb3 1/2-1/2
"""


def test_reading_skips_comments_variations_nags_and_annotations():
    first, second = read_pgn(ANNOTATED)
    assert first.headers["Event"] == "Annotated"
    assert first.variant.name == "minitchess"
    assert first.san_moves == ["b3", "b4", "Nc3", "bxc3", "dxc3"]
    assert first.result() == "*"
    assert second.variant.name == "csc111"
    assert second.outcome() is None  # a draw by agreement: the Result header keeps it
    assert '[Result "1/2-1/2"]' in write_pgn(second)
    assert movetext(write_pgn(second)) == "1. axb3+ Qxb3 1/2-1/2\n"


def test_result_the_moves_do_not_reach_is_kept_without_inventing_a_termination():
    game = read_pgn('[Variant "minitchess"]\n[Event "adjudicated"]\n\n1. b3 1-0')[0]
    assert game.outcome() is None
    text = write_pgn(game)
    assert '[Result "1-0"]' in text
    assert "Termination" not in text
    assert movetext(text) == "1. b3 1-0\n"


def test_game_without_variant_needs_a_default():
    text = "1. b3 b4 *"
    with pytest.raises(InvalidPgnError, match="game 1: no \\[Variant\\] tag"):
        read_pgn(text)
    assert read_pgn(text, default_variant="minitchess")[0].moves == [
        Move.from_uci("b2b3"), Move.from_uci("b5b4"),
    ]


def test_empty_text_has_no_games():
    assert read_pgn("") == []
    assert read_pgn("\n  \n") == []


def test_game_ended_by_the_moves_keeps_its_termination():
    game = read_pgn('[Variant "minitchess"]\n[FEN "k4/5/5/5/5/R3K w - - 0 1"]\n\n1. Rxa6 1-0')[0]
    assert game.outcome().termination == Termination.KING_CAPTURED
    assert game.outcome().winner == WHITE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Variant "minitchess"]\n1. b3 b4 *\n[Variant "minitchess"]\n1. b3 b4 2. Nd3 *',
         r"game 2, move 2\. Nd3: Nd3 is illegal; White's legal knight moves: Na3, Nc3"),
        ('[Variant "minitchess"]\n1. b3 b4 2. Nc3 Ra4 *',
         r"game 1, move 2\.\.\. Ra4: .* no legal rook move"),
        ('[Variant "minitchess"]\n1. b3 O-O *', r"game 1, move 1\.\.\. O-O: cannot read move"),
        ('[Variant "shogi"]\n1. b3 *', "game 1: unknown variant 'shogi'"),
        ('[Variant "minitchess"]\n[FEN "kqbnr/ppppp w - - 0 1"]\n*', "game 1: board has 2 ranks"),
        ('[Variant "minitchess"]\n[TimeControl "fast"]\n*', "game 1: cannot read time control"),
        ('[Variant "minitchess"]\n1. b3 (1. c3 *', r"game 1: a variation '\(' is not closed"),
        ('[Variant "minitchess"]\n1. b3 ) *', r"game 1: '\)' without '\('"),
        ('[Variant "minitchess"]\n1. b3 { unclosed *', "game 1, line 2: unexpected '{'"),
        ('[Variant "minitchess"]\n[FEN "k4/5/5/5/5/R3K w - - 0 1"]\n1. Rxa6 0-1',
         "game 1: result 0-1 contradicts the moves"),
        ('[Variant "minitchess"]\n[Result "2-0"]\n1. b3', "game 1: result '2-0' is not one of"),
    ],
)
def test_bad_pgn_says_which_game_and_move(text, message):
    with pytest.raises(InvalidPgnError, match=message):
        read_pgn(text)
