"""The play page in headless Chromium: one move per click however fast the clicks, the
computer's reply marked, the hint marked in place in the page's notation, the address that
holds the game (reload, Back, a server that forgot it), the page on a phone's width, and the
keys and labels of the board."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from test_html import browser  # noqa: E402,F401  (the headless Chromium fixture)
from test_web_browser import by_css, settled  # noqa: E402
from webserver import serving  # noqa: E402

from judge.games import load_game  # noqa: E402
from judge.solvers import solver_for  # noqa: E402

pytestmark = pytest.mark.needs_chromium


@pytest.fixture(scope="module")
def server():
    with serving("--bots", "bots", "--move-time", "5") as url:
        yield url


def api(server: str, method: str, path: str) -> dict:
    import httpx

    return httpx.request(method, server + path, timeout=10).json()


def game_id(driver) -> str:
    return driver.execute_script("return window.judgePlay.state().id")


def double_click(driver, element) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).double_click(element).perform()


def quiet(driver, seconds: float = 0.5) -> None:
    """Wait until no request has been in flight for `seconds`."""
    deadline = time.monotonic() + 20
    calm = time.monotonic()
    while time.monotonic() < deadline:
        if driver.execute_script("return document.body.dataset.busy") != "0":
            calm = time.monotonic()
        elif time.monotonic() - calm > seconds:
            return
        time.sleep(0.05)


def played(driver, url: str, moves: int, css: str = "#moves [data-move]") -> str:
    """Open `url` and play its first legal move `moves` times (clicking `css`); the version
    of the page drawn last."""
    driver.get(url)
    version = settled(driver)
    for _ in range(moves):
        by_css(driver, css)[0].click()
        version = settled(driver, version)
    return version


def test_a_double_click_plays_one_move(browser, server):  # noqa: F811
    browser.get(f"{server}/play/nim?position=5%205%205&opponent=human")
    settled(browser)
    double_click(browser, by_css(browser, '#moves [data-move="3 1"]')[0])
    quiet(browser)
    board = by_css(browser, "#board")[0]
    assert board.get_attribute("data-position") == "5 5 4"
    assert len(by_css(browser, "#history li")) == 2
    assert api(server, "GET", f"/api/sessions/{game_id(browser)}")["ply"] == 1
    # a server faster than the hand: the second click of the double-click lands on the
    # control drawn anew after the first move's answer, and is still not a move
    browser.execute_script(
        "document.querySelector('#moves [data-move=\"3 1\"]').dispatchEvent("
        "new MouseEvent('click', {bubbles: true, cancelable: true, detail: 2}))")
    quiet(browser)
    assert api(server, "GET", f"/api/sessions/{game_id(browser)}")["ply"] == 1
    assert board.get_attribute("data-position") == "5 5 4"
    # against the computer: one move of mine and its reply, not a second move after it
    browser.get(f"{server}/play/nim?position=5%205%205&opponent=optimal")
    settled(browser)
    double_click(browser, by_css(browser, '#board [data-move="1 1"]')[0])
    quiet(browser)
    assert api(server, "GET", f"/api/sessions/{game_id(browser)}")["ply"] == 2
    assert len(by_css(browser, "#history li")) == 3


def test_the_computers_reply_is_marked_on_the_board_and_in_the_moves(browser, server):  # noqa: F811
    browser.get(f"{server}/play/ioiwari?opponent=optimal")
    version = settled(browser)
    assert not by_css(browser, "[data-last]")
    by_css(browser, "#board [data-move]")[0].click()
    settled(browser, version)
    state = browser.execute_script("return window.judgePlay.state()")
    reply = state["history"][1]
    marked = by_css(browser, '#history li[data-last="true"]')
    assert len(marked) == 1
    assert marked[0].get_attribute("data-position") == state["history"][2]["position"]
    assert marked[0].find_element("css selector", "button").text == \
        "2. optimal: " + reply["label"]
    pits = by_css(browser, '#board [data-last="true"]')
    assert [p.get_attribute("data-pit") for p in pits] == [reply["move"]]
    assert "optimal" in by_css(browser, "#last")[0].text
    assert "flash" in by_css(browser, "#board")[0].get_attribute("class")
    # Chopsticks: the reply's two hands
    browser.get(f"{server}/play/chopsticks?rules=hands%3D2&opponent=optimal")
    version = settled(browser)
    by_css(browser, "#moves [data-move]")[0].click()
    settled(browser, version)
    hands = by_css(browser, '#board .hand[data-last="true"]')
    assert sorted(h.get_attribute("data-hand")[0] for h in hands) == ["L", "R"]


def test_the_hint_is_marked_in_place_in_the_pages_notation_until_the_next_move(
        browser, server):  # noqa: F811
    game = load_game("chopsticks", "hands=2")
    browser.get(f"{server}/play/chopsticks?rules=hands%3D2&opponent=human")
    version = settled(browser)
    by_css(browser, "#hint")[0].click()
    version = settled(browser, version)
    pos = game.parse_position(by_css(browser, "#board")[0].get_attribute("data-position"))
    best = solver_for(game).evaluate(pos).best_moves
    wire = sorted(game.format_move(m, pos) for m in best)
    hinted = by_css(browser, '#moves [data-hint="true"]')
    assert sorted(b.get_attribute("data-move") for b in hinted) == wire
    message = by_css(browser, "#message")[0].text
    assert all(game.move_label(m, pos) in message for m in best)
    assert not any(w in message.split("Hint: ")[1].split(" (")[0] for w in wire)
    assert by_css(browser, '#board .hand[data-hint="true"]')  # the hand that plays it
    time.sleep(0.3)  # still there after a while (no redraw wipes it)
    assert len(by_css(browser, '#moves [data-hint="true"]')) == len(wire)
    by_css(browser, "#moves [data-move]")[0].click()
    settled(browser, version)
    assert not by_css(browser, '[data-hint="true"]')


def test_the_address_holds_the_game_through_reload_back_and_a_lost_game(
        browser, server):  # noqa: F811
    played(browser, f"{server}/play/nim?position=4%205%206&opponent=optimal&values=on", 2,
           "#board [data-move]")
    board = by_css(browser, "#board")[0]
    position = board.get_attribute("data-position")
    first = game_id(browser)
    assert "moves=" in browser.current_url
    browser.refresh()
    version = settled(browser)
    board = by_css(browser, "#board")[0]
    assert board.get_attribute("data-position") == position
    assert len(by_css(browser, "#history li")) == 5
    assert api(server, "GET", f"/api/sessions/{first}")["error"].startswith("the game was closed")
    browser.back()  # the address before my second move
    deadline = time.monotonic() + 20
    while len(by_css(browser, "#history li")) != 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(by_css(browser, "#history li")) == 3
    quiet(browser)
    # the server forgot the game (a restart, the idle timeout): the address brings it back
    api(server, "DELETE", f"/api/sessions/{game_id(browser)}")
    version = settled(browser, None)
    by_css(browser, "#board [data-move]")[0].click()
    settled(browser, version)
    assert len(by_css(browser, "#history li")) == 5
    assert by_css(browser, "#message")[0].text == ""


def test_a_failed_start_leaves_no_control_to_press(browser, server):  # noqa: F811
    browser.get(f"{server}/play/nim?position=0%200&opponent=human")
    quiet(browser)
    assert "end of the game" in by_css(browser, "#message")[0].text
    for control in ("undo", "redo", "hint"):
        assert by_css(browser, f"#{control}")[0].get_attribute("disabled")
    assert browser.execute_script("return document.title") == "nim: play · judge"
    assert browser.execute_script(
        "return document.querySelector('link[rel=icon]').href.startsWith('data:image/svg')")


def test_keys_focus_and_labels(browser, server):  # noqa: F811
    from test_html import press

    browser.get(f"{server}/play/chopsticks?rules=hands%3D2&opponent=optimal")
    version = settled(browser)
    hands = {h.get_attribute("data-hand"): h.get_attribute("aria-label")
             for h in by_css(browser, "#board .hand")}
    assert hands["L1"].startswith("your left hand, 1 finger")
    assert hands["R2"] == "optimal's right hand, 1 finger"
    by_css(browser, "#board .hand.chooser")[0].click()
    by_css(browser, "#board [data-move]")[0].click()
    version = settled(browser, version)
    assert browser.execute_script("return document.activeElement.id") == "board"
    press(browser, "u")
    version = settled(browser, version)
    assert len(by_css(browser, "#history li")) == 1
    press(browser, "r")
    version = settled(browser, version)
    assert len(by_css(browser, "#history li")) == 3
    press(browser, "\ue012")  # the left arrow: back one position
    version = settled(browser, version)
    assert by_css(browser, "#board")[0].get_attribute("data-ply") == "1"
    press(browser, "h")
    settled(browser, version)
    assert "Hint" in by_css(browser, "#message")[0].text
    browser.get(f"{server}/play/nim?position=3%202&opponent=human")
    settled(browser)
    counter = by_css(browser, '#board [data-move="1 1"]')[0]
    assert counter.get_attribute("aria-label").startswith("heap 1, counter 3 of 3")
    assert counter.size["width"] >= 44 and counter.size["height"] >= 44


def contrast(foreground: str, background: str) -> float:
    """The WCAG contrast ratio of two CSS colours rgb(a)(r, g, b...)."""
    def luminance(colour: str) -> float:
        r, g, b = (float(v) / 255 for v in re.findall(r"[\d.]+", colour)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: a value's mark, as the page writes it on each control
MARKS = {"win": "W", "lose": "L", "tie": "T", "draw": "D"}


def opaque(driver, element, prop: str = "background-color") -> str:
    """The colour `prop` of `element` as seen: its own, or its nearest opaque ancestor's."""
    return driver.execute_script(
        "let e = arguments[0], c = getComputedStyle(e)[arguments[1]];"
        "while (e && /rgba\\(.*, 0\\)$|transparent/.test(c)) {"
        "  e = e.parentElement;"
        "  c = e ? getComputedStyle(e).backgroundColor : 'rgb(255, 255, 255)'; }"
        "return c;", element, prop)


def check_value_marks(driver) -> set[str]:
    """Every valued control (board and move list) bears its value's mark and an outline in
    its colour, not a fill: the outline 3:1 against what it surrounds (the control's
    background, or the light ring inside it that parts it from a dark board, itself 3:1
    against that background) and the mark's text 4.5:1 against the mark, the board's own
    graphics 3:1 too; the values seen."""
    seen = set()
    for control in by_css(driver, "#board [data-value], #moves [data-value]"):
        value = control.get_attribute("data-value")
        seen.add(value)
        mark = control.find_element("css selector", ".mark")
        assert mark.text == MARKS[value]
        inside = opaque(driver, control)
        outline = control.value_of_css_property("border-top-color")
        assert float(control.value_of_css_property("border-top-width")[:-2]) >= 3
        assert outline == mark.value_of_css_property("background-color"), value  # its colour
        ring = re.match(r"(rgba?\([^)]*\)) 0px 0px 0px (\d+)px inset",
                        control.value_of_css_property("box-shadow"))
        if ring:  # the outline surrounds the ring, and the ring the control's background
            assert int(ring.group(2)) >= 2 and contrast(ring.group(1), inside) >= 3, value
            assert contrast(outline, ring.group(1)) >= 3, (value, outline, ring.group(1))
        else:
            assert contrast(outline, inside) >= 3, (value, outline, inside)
        assert contrast(mark.value_of_css_property("color"), opaque(driver, mark)) >= 4.5
        for bead in control.find_elements("css selector", ".bead"):
            assert contrast(bead.value_of_css_property("fill"), inside) >= 3, value
    return seen


@pytest.mark.slow
def test_values_are_marked_and_outlined_with_enough_contrast_not_told_by_colour_alone(
        browser, server):  # noqa: F811
    seen = set()
    for path in ("/play/ioiwari?position=0%200%200%200%200%201%201%20%7C%203%203%202"
                 "&opponent=human", "/play/ioiwari?opponent=human",
                 "/play/nim?position=1%202%203&opponent=human",
                 "/play/tictactoe?position=x.o/.x./...&opponent=human",
                 "/play/connect4?opponent=human"):  # its columns on a dark blue frame
        browser.get(server + path)  # values are on by default
        settled(browser)
        assert by_css(browser, "#board [data-value]"), path  # the board's own controls
        seen |= check_value_marks(browser)
    assert {"win", "lose", "tie"} <= seen
    browser.get(f"{server}/play/nim?position=1%202%203&opponent=human&practice=on")
    settled(browser)  # practice: no value anywhere
    assert not by_css(browser, "[data-value], .mark") and not by_css(browser, "#value p")
    assert by_css(browser, "#practice")[0].is_selected()  # the practice box, ticked


@pytest.mark.slow
def test_on_a_phone_the_board_moves_and_chart_come_first_and_nothing_scrolls_sideways(
        browser, server):  # noqa: F811
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        for path in ("/", "/play/ioiwari?opponent=optimal&values=on",
                     "/play/nim?position=9%209%209&opponent=optimal",
                     "/play/chopsticks?opponent=optimal&values=on",
                     "/watch/nim?bot=nim/greedy.py&position=1%201&pause=0"):
            browser.get(server + path)
            if path.startswith("/play/"):
                version = settled(browser)
                by_css(browser, "#board [data-move], #moves [data-move]")[0].click()
                settled(browser, version)
            else:
                time.sleep(0.3)
            width = browser.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
            if path.startswith("/play/"):
                assert in_order(browser, "#board", ".moves-box", ".chart-box", ".controls",
                                ".history-box", "#cvc", "#record-box"), path
        # a long game's chart, wider than the phone, scrolls in its box, not the page
        played(browser, f"{server}/play/nim?position=9%209%209%209&opponent=human", 15)
        chart = by_css(browser, "#chart")[0]
        assert int(chart.get_attribute("scrollWidth")) > 390  # the chart is wider
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390 and chart.rect["x"] + chart.rect["width"] <= 390, width
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # on a desktop, the same order: board, moves, chart (at the top of the side column)
    browser.get(server + "/play/ioiwari?opponent=optimal")
    settled(browser)
    assert in_order(browser, "#board", ".moves-box", ".controls", "#cvc")
    assert in_order(browser, ".chart-box", ".history-box", "#rules-panel")


def in_order(driver, *css: str) -> bool:
    """Whether the elements `css` stand one below the other, in this order."""
    tops = [by_css(driver, c)[0].rect["y"] for c in css]
    return tops == sorted(tops) and len(set(tops)) == len(tops)


def test_leaving_the_page_ends_its_game(browser, server):  # noqa: F811
    browser.get(f"{server}/play/nim?position=5%205&opponent=optimal")
    settled(browser)
    sid = game_id(browser)
    browser.get(server + "/")
    deadline = time.monotonic() + 10
    while "error" not in api(server, "GET", f"/api/sessions/{sid}") and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert api(server, "GET", f"/api/sessions/{sid}")["error"] == "the game was closed"


def test_the_rules_panel_explains_the_variant_the_players_and_why_the_game_ended(
        browser, server):  # noqa: F811
    browser.get(f"{server}/play/nim?rules=misere&position=0%202&opponent=tricky&values=on")
    version = settled(browser)
    by_css(browser, "#rules-panel summary")[0].click()
    text = by_css(browser, "#rules-text")[0].text
    assert "variant misere: misere=on" in text
    assert load_game("nim").rules_text()[0] in text and "Misère" in text
    assert "Player 2: tricky plays perfectly too" in text
    nimsum = by_css(browser, "#grundy")[0]
    assert nimsum.get_attribute("data-grundy") == "2" and "10 = 2" in nimsum.text
    assert by_css(browser, '#moves [data-move="2 2"]')[0].get_attribute("data-grundy") == "0"
    assert not by_css(browser, "#end")[0].is_displayed()
    by_css(browser, '#moves [data-move="2 2"]')[0].click()
    settled(browser, version)
    assert by_css(browser, "#end")[0].text == \
        "Why it ended: player 1 took the last counter and loses (misère)."
    # the start page names the variants and says what the opponent does
    browser.get(server + "/")
    by_css(browser, '#game-select option[value="nim"]')[0].click()
    options = [o.text for o in by_css(browser, "#variant option")]
    assert options[0].startswith("normal") and options[1].startswith("misere")
    by_css(browser, "#variant option")[1].click()
    assert by_css(browser, "#rules")[0].get_attribute("value") == "misere=on"
    by_css(browser, '#opponent option[value="level:3"]')[0].click()
    assert "probability N/10" in by_css(browser, "#opponent-help")[0].text


def test_the_value_chart_has_a_point_per_move_the_other_moves_and_goes_to_a_position(
        browser, server):  # noqa: F811
    version = played(browser, f"{server}/play/ioiwari?opponent=optimal&values=on", 2)
    state = browser.execute_script("return window.judgePlay.state()")
    points = by_css(browser, "#chart svg circle.point")[1:]  # (after the start's)
    assert len(points) == state["ply"] == 4
    assert by_css(browser, "#chart svg title#chart-title") and by_css(browser, "#chart svg desc")
    for point, entry in zip(points, state["history"], strict=False):
        assert point.get_attribute("tabindex") == "0"
        assert point.get_attribute("aria-label").startswith(f"Move {entry['ply'] + 1},")
        assert point.get_attribute("data-move") == entry["move"]
        assert point.get_attribute("data-difference") is not None  # Ioiwari: the win-by
        dots = by_css(browser, f'#chart circle.sibling[data-ply="{entry["ply"] + 1}"]')
        assert len(dots) == len(entry["choices"]) - 1
    assert by_css(browser, "#chart circle.sibling")
    points[1].click()
    settled(browser, version)
    board = by_css(browser, "#board")[0]
    assert board.get_attribute("data-ply") == "2"
    assert board.get_attribute("data-position") == state["history"][2]["position"]


def computers_play(driver, url: str, speed: str):  # noqa: ANN201 - the board
    """Open `url` and press Play for optimal against level:0 at `speed` moves a second."""
    driver.get(url)
    settled(driver)
    by_css(driver, '#cvc-1 option[value="optimal"]')[0].click()
    by_css(driver, '#cvc-2 option[value="level:0"]')[0].click()
    field = by_css(driver, "#cvc-speed")[0]
    field.clear()
    field.send_keys(speed)
    by_css(driver, "#cvc-play")[0].click()
    return by_css(driver, "#board")[0]


def test_computer_against_computer_plays_to_the_end_one_move_at_a_time(browser, server):  # noqa: F811
    board = computers_play(browser, f"{server}/play/nim?position=1%202%203&opponent=human", "20")
    deadline = time.monotonic() + 8
    while board.get_attribute("data-result") is None and time.monotonic() < deadline:
        time.sleep(0.05)
    state = browser.execute_script("return window.judgePlay.state()")
    # whoever took the last stone won (level:0 plays at random: it may win the lost 1 2 3)
    assert board.get_attribute("data-result") == ("1" if state["ply"] % 2 else "2")
    assert state["players"] == ["optimal", "level:0"] and state["stepwise"]
    assert "players=optimal%2Clevel%3A0" in browser.current_url
    assert len(by_css(browser, "#history li")) == state["ply"] + 1 >= 3
    quiet(browser)
    assert by_css(browser, "#cvc-play")[0].text == "Play"


def test_a_game_exported_then_imported_is_the_same_game(browser, server):  # noqa: F811
    browser.get(f"{server}/play/chopsticks?rules=hands%3D2&opponent=optimal")
    version = settled(browser)
    by_css(browser, "#moves [data-move]")[0].click()
    version = settled(browser, version)
    before = browser.execute_script("return window.judgePlay.state()")
    by_css(browser, "#record-box summary")[0].click()
    by_css(browser, "#export")[0].click()
    record = by_css(browser, "#record")[0].get_attribute("value")
    assert record == before["record"]
    browser.get(f"{server}/play/nim?opponent=optimal")  # another game, then the import
    version = settled(browser)
    by_css(browser, "#record-box summary")[0].click()
    box = by_css(browser, "#record")[0]
    box.clear()
    box.send_keys(record.replace("moves: ", "moves: 9 9,"))
    by_css(browser, "#import")[0].click()
    version = settled(browser, version)
    assert "move 1" in by_css(browser, "#message")[0].text  # refused by the server
    box.clear()
    box.send_keys(record)
    by_css(browser, "#import")[0].click()
    settled(browser, version)
    after = browser.execute_script("return window.judgePlay.state()")
    assert (after["name"], after["rules"], after["position"], after["ply"]) == (
        before["name"], before["rules"], before["position"], before["ply"])
    assert [h.get("move") for h in after["history"]] == [h.get("move") for h in before["history"]]
    assert "/play/chopsticks?" in browser.current_url
