"""The browser app in headless Chromium: whole games played by clicks against the optimal
player with every shown value checked against the solver, undo and redo, a bot watched to its
end, a stored game opened at a move, another origin's page refused a live game, and the app
played through the token's cookie off loopback."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from test_html import browser  # noqa: E402,F401  (the headless Chromium fixture)
from webserver import announced, serving, stored_run  # noqa: E402

from judge.analysis import result_sign  # noqa: E402
from judge.games import load_game  # noqa: E402
from judge.solvers import solver_for  # noqa: E402

pytestmark = pytest.mark.needs_chromium

WORDS = {1: "win", -1: "lose"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = stored_run(tmp_path_factory.mktemp("web-browser"))
    with serving("--bots", "bots", "--db", str(db), "--move-time", "5") as url:
        yield url


def by_css(driver, css: str) -> list:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def settled(driver, after: str | None = None, timeout: float = 30) -> str:
    """Wait until the page has drawn an answer newer than version `after`; the version."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version = driver.execute_script(
            "const b = document.getElementById('board');"
            "return document.body.dataset.busy === '0' ? b.dataset.version : null")
        if version is not None and version != after:
            return version
        time.sleep(0.05)
    raise AssertionError(f"the page did not update: {by_css(driver, '#message')[0].text}")


def word(game, value, pos) -> str:
    """The solver's value for the mover as the page writes it."""
    score = game.score(pos)
    mover = game.mover(pos)
    lead = score[mover] - score[1 - mover] if score else 0
    sign = result_sign(value, lead)
    return WORDS.get(sign, "tie" if isinstance(value, int) else "draw")


def check_values(driver, game, pos) -> None:
    """Every legal move's control shows the solver's value and remoteness for the mover."""
    solver = solver_for(game)
    expected = {game.format_move(m.move, pos): (word(game, m.value, pos),
                                                "" if m.remoteness is None else str(m.remoteness))
                for m in solver.move_values(pos)}
    shown = {b.get_attribute("data-move"): (b.get_attribute("data-value"),
                                            b.get_attribute("data-remoteness"))
             for b in by_css(driver, "#moves [data-move]")}
    assert shown == expected
    colours = {b.get_attribute("data-value"): b.value_of_css_property("border-top-color")
               for b in by_css(driver, "#moves [data-move]")}
    palette = {"win": "rgba(0, 107, 0, 1)", "lose": "rgba(179, 0, 27, 1)",
               "draw": "rgba(107, 83, 0, 1)", "tie": "rgba(107, 83, 0, 1)"}
    assert all(colours[v] == palette[v] for v in colours)


def click_first_move(driver, game_name: str) -> None:
    """Play the first legal move by clicking the board (a Chopsticks hand, then its target)."""
    if game_name == "chopsticks":
        by_css(driver, "#board .hand.chooser")[0].click()
    by_css(driver, "#board [data-move]")[0].click()


@pytest.mark.parametrize("game_name, rules", [("nim", ""), ("ioiwari", ""),
                                              ("chopsticks", "hands=2")])
def test_a_whole_game_by_clicks_against_optimal_shows_the_solvers_values(
        browser, server, game_name, rules):  # noqa: F811
    game = load_game(game_name, rules)
    browser.get(f"{server}/play/{game_name}?rules={rules}&opponent=optimal&values=on")
    version = settled(browser)
    board = by_css(browser, "#board")[0]
    seen = 0
    while board.get_attribute("data-result") is None:
        pos = game.parse_position(board.get_attribute("data-position"))
        assert int(board.get_attribute("data-to-move")) == game.mover(pos) + 1
        check_values(browser, game, pos)
        click_first_move(browser, game_name)
        version = settled(browser, version)
        seen += 1
    final = game.parse_position(board.get_attribute("data-position"))
    winner = game.winner(final)
    assert board.get_attribute("data-result") == ("tie" if winner is None else str(winner + 1))
    # the chart: a point per move, the value for player 1 of the position it led to as the
    # solver has it
    dots = by_css(browser, "#chart circle.point")
    positions = [(e.get_attribute("data-position"), e.get_attribute("data-to-move"))
                 for e in by_css(browser, "#history li")]  # the start's point first
    assert len(dots) == len(positions) >= 2 * seen
    solver = solver_for(game)
    for dot, (text, to_move) in zip(dots, positions, strict=True):
        pos = game.parse_position(text)  # (a Nim position does not say who moves)
        mine = word(game, solver.evaluate(pos).value, pos)
        first = mine if to_move == "1" else {"win": "lose", "lose": "win"}.get(mine, mine)
        assert dot.get_attribute("data-value") == first


def test_undo_and_redo_by_clicks(browser, server):  # noqa: F811
    browser.get(f"{server}/play/nim?position=2%203&opponent=optimal")
    version = settled(browser)
    board = by_css(browser, "#board")[0]
    assert board.get_attribute("data-position") == "2 3"
    assert by_css(browser, "#undo")[0].get_attribute("disabled")
    by_css(browser, '#board [data-move="2 1"]')[0].click()
    version = settled(browser, version)
    after = board.get_attribute("data-position")
    assert after != "2 3"
    by_css(browser, "#undo")[0].click()
    version = settled(browser, version)
    assert board.get_attribute("data-position") == "2 3"
    by_css(browser, "#redo")[0].click()
    version = settled(browser, version)
    assert board.get_attribute("data-position") == after
    by_css(browser, '#history button[data-ply="0"]')[0].click()  # back to the start, branch
    version = settled(browser, version)
    by_css(browser, '#board [data-move="1 1"]')[0].click()
    settled(browser, version)
    assert by_css(browser, "#history button")[1].text == "1. you: take 1 from heap 1"


def watched_to_the_end(driver, base: str):  # noqa: ANN001, ANN201 - a WebDriver, its board
    """Open the watch page of nim/greedy.py against the optimal player on `base`, wait (up
    to 60 s) until its game has a result, and give the board."""
    driver.get(f"{base}/watch/nim?position=3%204%205&bot=nim/greedy.py&opponent=optimal"
               "&seat=1&pause=0")
    deadline = time.monotonic() + 60
    board = by_css(driver, "#board")[0]
    while board.get_attribute("data-result") is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert board.get_attribute("data-result") in ("1", "2")
    return board


def test_a_bot_is_watched_to_the_end_with_every_move_judged(browser, server):  # noqa: F811
    board = watched_to_the_end(browser, server)
    moves = by_css(browser, "#watched li")
    assert moves and all(m.get_attribute("data-judgement") in ("optimal", "mistake", "slow")
                         for m in moves)
    assert board.get_attribute("data-position") == "0 0 0"
    verdict = by_css(browser, "#verdict")[0]
    assert "verdict: ok" in verdict.text  # not an error: shown plainly, not in a pink box
    assert verdict.value_of_css_property("background-color") == "rgba(0, 0, 0, 0)"


def test_a_stored_game_opens_at_a_move_and_can_be_taken_over(browser, server):  # noqa: F811
    import httpx

    stored = httpx.get(f"{server}/api/runs/1/games/2", timeout=10).json()
    game = load_game("nim")
    pos = game.parse_position(stored["start"])
    pos = game.play(pos, game.parse_move(stored["moves"][0], pos))
    browser.get(f"{server}/run/1/game/2?move=1")
    version = settled(browser)
    board = by_css(browser, "#board")[0]
    assert board.get_attribute("data-position") == game.format_position(pos)
    assert not by_css(browser, "#redo")[0].get_attribute("disabled")
    by_css(browser, "#board [data-move]")[0].click()  # take over from here
    settled(browser, version)
    assert by_css(browser, "#redo")[0].get_attribute("disabled")


def test_the_start_page_opens_any_stored_game_at_a_move(browser, server):  # noqa: F811
    import httpx

    stored = httpx.get(f"{server}/api/runs/1/games/2", timeout=10).json()
    assert len(stored["moves"]) > 2
    game = load_game("nim")
    pos = game.parse_position(stored["start"])
    for text in stored["moves"][:2]:
        pos = game.play(pos, game.parse_move(text, pos))
    browser.get(server + "/")
    form = by_css(browser, "form.open-stored[data-run='1']")[0]
    for name, value in (("number", "2"), ("move", "2")):
        field = form.find_element("name", name)
        field.clear()
        field.send_keys(value)
    form.find_element("css selector", "button").click()
    settled(browser)
    assert browser.current_url.endswith("/run/1/game/2?move=2")
    assert by_css(browser, "#board")[0].get_attribute("data-position") == \
        game.format_position(pos)


SOCKET = """
const [url, done] = [arguments[0], arguments[arguments.length - 1]];
const socket = new WebSocket(url);
socket.onopen = () => { socket.close(); done("open"); };
socket.onerror = () => done("refused");
"""


def test_another_origins_page_cannot_open_a_live_game(browser, server):  # noqa: F811
    port = server.rsplit(":", 1)[1]
    browser.get(server + "/")  # a page of http://127.0.0.1:PORT: localhost is another origin
    watch = "/api/watch?game=nim&position=1%201&bot=nim/greedy.py&opponent=optimal&pause=0"
    assert browser.execute_async_script(SOCKET, f"ws://localhost:{port}{watch}") == "refused"
    assert browser.execute_async_script(SOCKET, f"ws://127.0.0.1:{port}{watch}") == "open"


def test_off_loopback_the_printed_address_lets_the_browser_play_and_watch(browser):  # noqa: F811
    with announced("--host", "0.0.0.0", "--bots", "bots", "--move-time", "5") as url:
        here, token = url.replace("0.0.0.0", "127.0.0.1").split("/?token=")
        browser.get(f"{here}/play/nim?position=2%203&opponent=optimal")
        assert "needs its token" in browser.page_source and not by_css(browser, "#board")
        browser.get(f"{here}/play/nim?position=2%203&token={token}&opponent=optimal")
        # sent on without the token (the page then writes its game into the address)
        assert browser.current_url.startswith(f"{here}/play/nim?")
        assert "token" not in browser.current_url
        assert browser.execute_script("return document.cookie") == ""  # HttpOnly
        version = settled(browser)
        by_css(browser, '#board [data-move="2 1"]')[0].click()  # the page's requests carry it
        settled(browser, version)
        assert len(by_css(browser, "#history li")) == 3
        watched_to_the_end(browser, here)
        browser.delete_all_cookies()
