"""The web app end to end: Playwright driving Debian's chromium against a ``minichess serve``
process. Skipped when chromium or Playwright is missing (``scripts/test`` installs both).

Screenshots of each variant's board go to ``build/screenshots/``.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
Image = pytest.importorskip("PIL.Image")

from imcs_support import KING_CAPTURE, game  # noqa: E402
from minichess import Board  # noqa: E402
from minichess.squares import square_name  # noqa: E402
from minichess.variants import VARIANTS  # noqa: E402
from web_server import CHROMIUM, CHROMIUM_ARGS, Server, warm_engine  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.solo,
    pytest.mark.xdist_group("web"),
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason=f"no {CHROMIUM}"),
]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
WAIT = 60_000
"""Milliseconds to wait for the engine (its first move may load the compiled search)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    warm_engine()
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite3") as server:
        yield server


@pytest.fixture(scope="module")
def imcs_server(tmp_path_factory) -> Iterator[Server]:
    """``minichess serve`` with the IMCS server beside the web app."""
    warm_engine()
    folder = tmp_path_factory.mktemp("imcs")
    with Server(folder / "games.sqlite3", "--imcs-port", "0", "--imcs-db",
                str(folder / "imcs.db"), "--hash-cost", "4") as server:
        yield server


@pytest.fixture
def page(browser) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(WAIT)
    yield page
    context.close()
    assert not errors, errors


def start_game(page, url: str, variant: str, level: int = 1, fen: str | None = None,
               color: str = "white") -> str:
    """Start a game from the play page's form; its id."""
    page.goto(url)
    page.select_option("#variant", variant)
    page.select_option("#color", color)
    page.select_option("#level", str(level))
    page.select_option("#clock", "")
    if fen:
        page.fill("#fen", fen)
    page.click("#start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("svg.board g.piece")
    return page.url.rsplit("/", 1)[1]


def game_view(page, url: str, game_id: str) -> dict:
    return page.request.get(f"{url}api/games/{game_id}").json()


def square(page, name: str):
    return page.locator(f'svg.board rect.sq[data-square="{name}"]')


def piece_on(page, name: str):
    return page.locator(f'svg.board g.piece[data-square="{name}"]')


def square_box(page, name: str) -> dict:
    """Where a square is on the screen.

    The server's news redraws the board at any moment, and a square caught between its old
    and new drawing has no box: ask again until one comes.
    """
    for _ in range(WAIT // 20):
        box = square(page, name).bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(20)
    raise AssertionError(f"square {name} never had a box on the screen")


def drag(page, origin: str, target: str) -> None:
    start, end = square_box(page, origin), square_box(page, target)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(start["x"] + (end["x"] - start["x"]) * step / 5 + end["width"] / 2,
                        start["y"] + (end["y"] - start["y"]) * step / 5 + end["height"] / 2)
    page.mouse.up()


def wait_for_moves(page, count: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length >= {count}")


def wait_for_my_turn_or_the_end(page) -> bool:
    """True when the game is over."""
    page.wait_for_function("document.querySelector('#result') ||"
                           " document.querySelector('#status').textContent === 'Your move'")
    return page.locator("#result").count() > 0


def play_by_clicks(page, url: str, game_id: str, moves: int) -> None:
    """Play ``moves`` of the first legal moves by clicking their squares, with the replies."""
    for _ in range(moves):
        assert not wait_for_my_turn_or_the_end(page)
        view = game_view(page, url, game_id)
        move = view["legal"][0]
        square(page, move[:2]).click()
        square(page, move[2:4]).click()
        wait_for_moves(page, len(view["moves"]) + 2)


class ImcsGame(threading.Thread):
    """1. a3 b4 2. axb4 axb4 3. Rxa6 between two scripted IMCS clients, alice and bob, in a
    thread: two moves (then ``halfway`` is set), a wait for ``go``, then a move every
    ``pause`` seconds. Bounded: every wait has its time limit."""

    def __init__(self, port: int, pause: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.pause = pause
        self.halfway = threading.Event()
        self.go = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(asyncio.wait_for(self.scenario(), 120))
        except BaseException as error:  # reported by finish()
            self.error = error
        finally:
            self.halfway.set()

    async def scenario(self) -> None:
        white, black, _ = await game(self.port, timeout=60)
        turns = [(white, move) for move in KING_CAPTURE["W"]]
        turns[1:1] = [(black, KING_CAPTURE["B"][0])]
        turns[3:3] = [(black, KING_CAPTURE["B"][1])]
        for ply, (mover, move) in enumerate(turns):
            if ply == 2:
                self.halfway.set()
                await asyncio.get_running_loop().run_in_executor(None, self.go.wait, 60)
            if ply >= 2:
                await asyncio.sleep(self.pause)
            await mover.prompt(60)
            await mover.send(move)
        for peer in (white, black):
            await peer.closed()

    def finish(self) -> None:
        self.go.set()
        self.join(30)
        assert not self.is_alive() and self.error is None, self.error


def test_a_whole_csc111_game_by_clicks(page, server) -> None:
    game_id = start_game(page, server.url, "csc111")
    for _ in range(30):  # a csc111 game ends by ply 50
        if wait_for_my_turn_or_the_end(page):
            break
        view = game_view(page, server.url, game_id)
        move = view["legal"][-1]
        square(page, move[:2]).click()
        assert page.locator("svg.board circle.target").count() > 0  # the legal targets show
        square(page, move[2:4]).click()
        page.wait_for_function(
            f"document.querySelector('#result') || document.querySelectorAll('#moves .mv')"
            f".length > {len(view['moves'])}")
    result = page.locator("#result").inner_text()
    view = game_view(page, server.url, game_id)
    assert view["outcome"] and view["outcome"]["text"] in result and view["result"] in result
    assert page.locator("#moves .mv").count() == len(view["moves"]) >= 3
    print(f"csc111 by clicks: {view['sans']} {view['outcome']['text']}")


def test_minitchess_promotion(page, server) -> None:
    game_id = start_game(page, server.url, "minitchess", fen="4k/P4/5/5/5/4K w - - 0 1")
    drag(page, "a5", "a6")
    page.wait_for_selector('svg.board g.piece[data-square="a6"][data-piece="Q"]')
    assert game_view(page, server.url, game_id)["moves"][0] == "a5a6q"


def test_chess36_promotion_choice(page, server) -> None:
    game_id = start_game(page, server.url, "chess36", fen="5k/1P4/6/6/6/K5[] w - - 0 1")
    square(page, "b5").click()
    square(page, "b6").click()
    page.locator('.promotion .promo-choice[data-piece="N"]').click()
    page.wait_for_selector('svg.board g.piece[data-square="b6"][data-piece="N"]')
    assert game_view(page, server.url, game_id)["moves"][0] == "b5b6n"


def test_chess36_reentry_drop_from_the_reserve(page, server) -> None:
    game_id = start_game(page, server.url, "chess36", fen="k5/3K2/6/6/6/6[Q] w - - 0 1")
    page.locator('.reserve-piece[data-piece="Q"]').click()
    assert page.locator('svg.board circle.target[data-square="d6"]').count() == 1
    square(page, "d6").click()
    page.wait_for_selector('svg.board g.piece[data-square="d6"][data-piece="Q"]')
    wait_for_moves(page, 1)
    assert game_view(page, server.url, game_id)["moves"][0] == "Q@d6"
    assert page.locator('.reserve-piece[data-piece="Q"]').count() == 0


def test_an_illegal_drag_puts_the_piece_back(page, server) -> None:
    game_id = start_game(page, server.url, "minitchess")
    drag(page, "b2", "b5")
    piece_on(page, "b2").wait_for()
    assert piece_on(page, "b2").get_attribute("data-piece") == "P"
    assert piece_on(page, "b5").get_attribute("data-piece") == "p"
    assert page.locator("svg.board g.piece.dragging").count() == 0
    assert game_view(page, server.url, game_id)["moves"] == []
    drag(page, "b2", "b3")  # and the piece still moves legally after that
    wait_for_moves(page, 1)


def test_a_game_goes_on_after_the_server_restarts(browser, tmp_path) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(WAIT)
    server = Server(tmp_path / "games.sqlite3")
    try:
        url = server.start()
        game_id = start_game(page, url, "csc111")
        play_by_clicks(page, url, game_id, 1)
        server.stop()
        url = server.start()  # another port: the session cookie is the host's
        page.goto(f"{url}#/game/{game_id}")
        wait_for_moves(page, 2)
        play_by_clicks(page, url, game_id, 1)
        assert len(game_view(page, url, game_id)["moves"]) == 4
    finally:
        context.close()
        server.stop()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variants_board_shows_its_pieces(page, server, variant: str) -> None:
    page.goto(f"{server.url}#/analysis?variant={variant}")
    page.locator("#engine-on").uncheck()
    board = page.locator("svg.board")
    fen = Board(variant).fen()
    page.wait_for_function(f"document.querySelector('svg.board').dataset.fen === {fen!r}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{variant}.png"
    board.screenshot(path=str(path))
    image = Image.open(path).convert("RGB")
    assert len(image.getcolors(1 << 20)) > 20  # not blank
    box = board.bounding_box()
    position = Board(variant)
    for sq in position.squares():
        name = square_name(sq)
        cell = square_box(page, name)
        left, top = cell["x"] - box["x"], cell["y"] - box["y"]
        inner = image.crop((int(left + cell["width"] * 0.35), int(top + cell["height"] * 0.35),
                            int(left + cell["width"] * 0.65), int(top + cell["height"] * 0.65)))
        data = inner.tobytes()
        figure = sum(1 for pixel in zip(data[0::3], data[1::3], data[2::3], strict=True)
                     if min(pixel) > 235 or max(pixel) < 60)  # white or black piece ink
        has_piece = position.piece_at(sq) is not None
        assert (figure > 10) == has_piece, f"{variant} {name}: {figure} figure pixels"



def test_analysis_imports_steps_evaluates_and_exports(page, server) -> None:
    game = page.request.post(f"{server.url}api/pgn/write", data={
        "variant": "csc111", "moves": ["b2a3", "b3a2", "a1a2"]}).json()
    page.goto(f"{server.url}#/analysis?variant=csc111")
    page.fill("#pgn-input", game["pgn"])
    page.click("#pgn-import")
    wait_for_moves(page, 3)
    page.click("#back")
    page.wait_for_selector('#moves .mv.current[data-ply="2"]')
    fen = page.request.post(f"{server.url}api/position", data={
        "variant": "csc111", "moves": ["b2a3", "b3a2"]}).json()["fen"]
    page.wait_for_function(f"document.querySelector('svg.board').dataset.fen === {fen!r}")
    page.wait_for_function("document.querySelectorAll('#lines div').length >= 3")  # by depth
    assert page.locator("#eval").inner_text()[0] in "+-#"
    square(page, "b1").click()  # a new move at ply 2 replaces the rest of the game
    square(page, "b2").click()
    page.wait_for_selector('#moves .mv.current[data-ply="3"]')
    page.click("#pgn-export")
    page.wait_for_function("document.querySelector('#pgn-input').value.includes('Qb2')")
    assert "1. bxa3 bxa2 2. Qb2" in page.locator("#pgn-input").input_value()


def test_analysis_sets_up_a_position_by_placing_pieces(page, server) -> None:
    page.goto(f"{server.url}#/analysis?variant=csc111")
    page.wait_for_selector("svg.board g.piece")
    page.click("#edit")
    page.click("#edit-clear")  # only the kings stay
    page.click('#palette button[data-piece="Q"]')
    square(page, "a2").click()
    page.click("#edit-done")
    page.wait_for_function("document.querySelectorAll('svg.board g.piece').length === 3")
    assert page.locator("#fen-input").input_value() == "2k1/4/Q3/2K1 w - - 0 1"


def test_watching_an_engine_game(page, server) -> None:
    page.goto(f"{server.url}#/watch")
    page.select_option("#variant", "csc111")
    page.select_option("#white", "1")
    page.select_option("#black", "2")
    page.fill("#movetime", "0.05")
    page.click("button[type=submit]")
    page.wait_for_url("**/#/game/*")
    wait_for_moves(page, 4)  # the moves arrive as they are played
    assert "engine against engine" in page.locator("#about").inner_text()
    assert page.locator("#undo").is_hidden()


def test_watching_a_live_imcs_game_and_the_ratings(page, imcs_server) -> None:
    url = imcs_server.url
    page.goto(f"{url}#/watch")
    card = page.locator("#feed-imcs")
    card.locator(".feed-title").wait_for()
    assert f"IMCS server 127.0.0.1:{imcs_server.imcs_port}" in card.inner_text()
    played = ImcsGame(imcs_server.imcs_port)
    played.start()
    try:
        live = card.locator(".live li[data-game] a")
        live.wait_for()  # the game shows as it starts, without a reload
        assert live.inner_text() == "alice (1000) – bob (1000)"
        assert played.halfway.wait(60)
        card.locator(".live li[data-game]", has_text="move 2").wait_for()
        live.click()  # joining mid-game: the two moves so far
        page.wait_for_url("**/#/watch/imcs/game/*")
        wait_for_moves(page, 2)
        game_id = page.url.rsplit("/", 1)[1]
        assert page.locator("#status").inner_text() == "White to move"
        page.wait_for_selector("#bottom-player .clock.running")  # White's clock, ticking
        assert page.locator("#bottom-player .clock").inner_text() in ("5:00", "4:59", "4:58")
        assert page.locator("#top-player .clock.running").count() == 0
        played.go.set()
        for count in (3, 4, 5):  # the moves as they are played
            wait_for_moves(page, count)
        page.wait_for_selector("#result")
        assert page.locator("#result").inner_text() == "1-0 — W wins"
        assert page.locator("#moves").inner_text().split() == [
            "1.", "a3", "b4", "2.", "axb4", "axb4", "3.", "Rxa6"]
        page.wait_for_selector('svg.board g.piece[data-square="a6"][data-piece="R"]')
        assert "alice (1016, +16)" in page.locator("#bottom-player .name").inner_text()
        page.click("#back")  # stepping through the finished game
        page.wait_for_selector('#moves .mv.current[data-ply="4"]')
        page.wait_for_selector('svg.board g.piece[data-square="a1"][data-piece="R"]')
        pgn = page.request.get(url + page.locator("#pgn").get_attribute("href").lstrip("/"))
        assert "3. Rxa6" in pgn.text()
        played.finish()
    finally:
        played.go.set()
    page.goto(f"{url}#/watch")
    finished = card.locator(f'.finished li[data-game="{game_id}"]')
    finished.wait_for()
    assert "1-0" in finished.inner_text() and "W wins" in finished.inner_text()
    card.locator(".ratings-link").click()
    page.wait_for_url("**/#/watch/imcs/ratings")
    page.wait_for_selector('#ratings-table tr[data-name="alice"]')
    rows = [row.inner_text().split() for row in page.locator("#ratings-table tbody tr").all()]
    assert rows == [["1", "alice", "1016", "1"], ["2", "bob", "984", "1"]]
