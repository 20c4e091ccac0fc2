"""The play page as a student meets it, in headless Chromium: no wait that never ends, the
values and the moves in plain words, values not told by colour alone, the chart readable,
the keyboard and the phone."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from test_html import browser  # noqa: E402,F401  (the headless Chromium fixture)
from test_web_browser import by_css, settled  # noqa: E402
from test_web_page import computers_play, played, server  # noqa: E402,F401  (server: the app)

pytestmark = pytest.mark.needs_chromium


def status(driver) -> str:
    return by_css(driver, "#status")[0].text


def test_stepping_back_to_the_computers_turn_says_what_to_press_and_waits_for_nothing(
        browser, server):  # noqa: F811
    version = played(browser, f"{server}/play/nim?position=4%205%206&opponent=optimal", 1,
                     "#board [data-move]")
    by_css(browser, '#history button[data-ply="1"]')[0].click()  # optimal's turn
    version = settled(browser, version)
    text = status(browser)
    assert not text.startswith("Waiting"), text
    button = by_css(browser, "#advance")[0]
    assert button.is_displayed() and button.text in text
    button.click()
    settled(browser, version)
    assert status(browser).startswith("Your move")


def test_values_moves_and_the_game_so_far_are_in_plain_words(browser, server):  # noqa: F811
    version = played(browser, f"{server}/play/ioiwari?opponent=optimal&values=on", 1,
                     "#board [data-move]")
    state = browser.execute_script("return window.judgePlay.state()")
    value = by_css(browser, "#value")[0].text
    assert value.startswith(state["says"])
    assert state["says"].startswith(("You can win", "Optimal wins", "A tie with best play"))
    assert "Moves are counted to the end of the game" in value
    for jargon in ("remoteness", "for player", "outcome class", "final score difference"):
        assert jargon not in value
    buttons = by_css(browser, "#moves [data-move]")
    assert [(b.find_element("css selector", ".label").text,
             b.find_element("css selector", ".val").text) for b in buttons] == [
        (m["label"], m["says"]) for m in state["moves"]]
    assert buttons[0].text.startswith("pit ")
    first, reply = state["history"][:2]
    items = [b.text for b in by_css(browser, "#history button.goto")]
    assert items == ["Start", f"1. you: {first['label']}", f"2. optimal: {reply['label']}"]
    assert by_css(browser, "#last")[0].text == f"Last move: optimal played {reply['label']}"
    by_css(browser, "#hint")[0].click()
    settled(browser, version)
    hint = browser.execute_script(
        "return fetch('/api/sessions/' + window.judgePlay.state().id + '/hint')"
        ".then((r) => r.json())")
    assert by_css(browser, "#message")[0].text == \
        "Hint: " + " or ".join(hint["labels"]) + ": " + hint["says"]
    assert hint["labels"][0].startswith("pit ")


@pytest.mark.slow
def test_the_watch_and_play_forms_offer_only_the_chosen_games_bots(browser, server):  # noqa: F811
    from selenium.webdriver.support.ui import Select

    from judge.games import GAMES

    browser.get(server + "/")
    form = by_css(browser, "#play-form")[0]
    Select(form.find_element("name", "game")).select_by_value("ioiwari")
    bots = [o.get_attribute("value") for o in Select(form.find_element("name", "opponent")).options
            if o.is_enabled() and "/" in o.get_attribute("value")]
    assert bots and all("ioiwari" in b.split("/") for b in bots)
    form = by_css(browser, "#watch-form")[0]
    game = Select(form.find_element("name", "game"))
    for name in (game.first_selected_option.get_attribute("value"), "nim", "chopsticks"):
        game.select_by_value(name)
        for field in ("bot", "opponent"):
            select = Select(form.find_element("name", field))
            offered = [o.get_attribute("value") for o in select.options if o.is_enabled()
                       and o.is_displayed() and o.get_attribute("value") != "optimal"
                       and o.get_attribute("value") != "tricky"
                       and not o.get_attribute("value").startswith("level:")]
            assert offered, (name, field)
            for bot in offered:  # a bot of this game's folder, or of no game's
                folders = [p for p in bot.split("/")[:-1] if p in GAMES]
                assert folders in ([name], []), (name, bot)
        bot = Select(form.find_element("name", "bot")).first_selected_option
        assert name in bot.get_attribute("value").split("/")


def test_a_hand_chosen_with_enter_keeps_the_focus_and_a_click_draws_no_focus_box(
        browser, server):  # noqa: F811
    from test_html import press

    browser.get(f"{server}/play/chopsticks?rules=hands%3D2&opponent=optimal")
    version = settled(browser)
    hand = by_css(browser, "#board .hand.chooser")[0]
    name = hand.get_attribute("data-hand")
    browser.execute_script("arguments[0].focus()", hand)
    press(browser, "\ue007")  # Enter: the hand is chosen, and the board drawn again
    active = browser.execute_script("return document.activeElement")
    assert active.get_attribute("data-hand") == name
    assert "selected" in active.get_attribute("class")
    target = by_css(browser, "#board [data-move]")[0]
    target.click()  # by the mouse: the board takes the focus, without a box round it
    settled(browser, version)
    board = by_css(browser, "#board")[0]
    assert browser.execute_script("return document.activeElement.id") == "board"
    assert board.value_of_css_property("outline-style") == "none"


CHART_TEXT = """
const box = document.getElementById('chart').getBoundingClientRect();
return [...document.querySelectorAll('#chart svg text')].map((t) => {
  const r = t.getBoundingClientRect();
  return [t.textContent, parseFloat(getComputedStyle(t).fontSize),
          r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 &&
          r.bottom <= box.bottom + 0.5, t.getAttribute('class')];
});
"""


def check_chart(driver) -> None:
    """Every text of the chart at least 12 px and inside it, every point inside it too."""
    texts = driver.execute_script(CHART_TEXT)
    assert texts and all(size >= 12 for _, size, _, _ in texts), texts
    assert all(inside for _, _, inside, _ in texts), texts
    box = by_css(driver, "#chart")[0].rect
    for point in by_css(driver, "#chart circle.point"):
        r = point.rect
        assert box["x"] <= r["x"] and r["x"] + r["width"] <= box["x"] + box["width"] + 0.5
        assert box["y"] <= r["y"] and r["y"] + r["height"] <= box["y"] + box["height"] + 0.5


def test_the_chart_has_a_start_point_readable_labels_move_names_and_nothing_clipped(
        browser, server):  # noqa: F811
    browser.get(f"{server}/play/nim?position=1%201&opponent=human")
    settled(browser)
    points = by_css(browser, "#chart circle.point")
    assert len(points) == 1 and points[0].get_attribute("data-ply") == "0"  # the start
    check_chart(browser)
    labels = [t.text for t in by_css(browser, "#chart text.tick")]
    assert len(labels) == len(set(labels)) * 2  # each remoteness once a side (1 1 0 0, no 1 1 1)
    played(browser, f"{server}/play/ioiwari?opponent=optimal", 5, "#board [data-move]")
    state = browser.execute_script("return window.judgePlay.state()")
    points = by_css(browser, "#chart circle.point")
    assert len(points) == state["ply"] + 1
    check_chart(browser)
    for point, entry in zip(points[1:], state["history"], strict=False):
        name = f"{entry['by']}: {entry['label']}"
        assert name in point.get_attribute("aria-label")
        assert point.get_attribute("data-move") == entry["move"]
    names = [t.text for t in by_css(browser, "#chart text.move-label")]
    assert names == [str(n) for n in range(1, state["ply"] + 1)]
    points[-1].click()  # its words under the chart
    caption = by_css(browser, "#chart-caption")[0].text
    last = state["history"][-2]
    assert caption.startswith(f"Move {state['ply']}, {last['by']}: {last['label']}")


def test_ioiwari_s_chart_has_a_win_by_view_placing_points_by_the_final_difference(
        browser, server):  # noqa: F811
    played(browser, f"{server}/play/ioiwari?opponent=optimal", 3, "#board [data-move]")
    views = by_css(browser, "#chart-views button")
    assert [b.text for b in views] == ["Moves to the end", "Win by"]
    assert views[0].get_attribute("aria-pressed") == "true"
    # each move made is marked with how much player 1 ends ahead after it, a level end
    # ("0": the first pit's sowing) as well as the others
    state = browser.execute_script("return window.judgePlay.state()")
    made = [c["final_difference"] for h in state["history"] for c in h.get("choices", [])
            if c["played"]]
    assert 0 in made
    assert [t.text for t in by_css(browser, "#chart text.winby")] == [
        f"+{d}" if d > 0 else str(d) for d in made]
    views[1].click()
    assert by_css(browser, "#chart-views button")[1].get_attribute("aria-pressed") == "true"
    check_chart(browser)
    state = browser.execute_script("return window.judgePlay.state()")
    points = by_css(browser, "#chart circle.point")
    differences = [entry["final_difference"] for entry in state["history"]]
    assert [int(p.get_attribute("data-difference")) for p in points] == differences
    heights = [float(p.get_attribute("cy")) for p in points]
    middle = float(by_css(browser, "#chart line.middle")[0].get_attribute("y1"))
    pairs = list(zip(differences, heights, strict=True))
    for d, y in pairs:  # above the middle: player 1 ahead
        assert (d > 0) == (y < middle) and (d == 0) == (y == middle), (d, y, middle)
    for (d1, y1), (d2, y2) in itertools.pairwise(pairs):
        assert (d1 < d2) == (y1 > y2)  # a larger difference higher
    labels = [t.text for t in by_css(browser, "#chart text.tick")]
    assert "0" in labels and any(t.startswith("+") for t in labels)
    said = browser.execute_script("return document.getElementById('chart-desc').textContent")
    assert "ends ahead by" in said and "moves to the end" not in said
    browser.get(f"{server}/play/nim?position=1%202&opponent=human")  # no score, no such view
    settled(browser)
    assert not by_css(browser, "#chart-views")[0].is_displayed()


def test_a_chart_without_a_count_shows_none(browser, server):  # noqa: F811
    played(browser, f"{server}/play/octal?position=4%201&opponent=optimal", 1)
    assert browser.execute_script("return window.judgePlay.state()")["remoteness"] is None
    assert by_css(browser, "#chart text.tick") == []
    labels = " ".join(t.text for t in by_css(browser, "#chart text.axis-label"))
    assert "you win" in labels and "moves to the end" not in labels
    check_chart(browser)


SMALL_TEXT = """
const small = [];
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walk.nextNode(); n; n = walk.nextNode()) {
  const e = n.parentElement;
  if (!n.textContent.trim() || !e || !e.getClientRects().length) continue;
  if (e.closest('[hidden], script, style, title, desc, option')) continue;
  const size = parseFloat(getComputedStyle(e).fontSize);
  if (size < 12) small.push([n.textContent.trim().slice(0, 30), size]);
}
return small;
"""


def test_on_a_phone_a_big_nim_position_has_no_text_under_12_px(browser, server):  # noqa: F811
    heaps = "%20".join(["12"] * 12)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        for mode in ("", "&practice=on"):
            browser.get(f"{server}/play/nim?position={heaps}&opponent=optimal{mode}")
            settled(browser)
            assert browser.execute_script(SMALL_TEXT) == [], mode
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_link_to_this_position_stays_in_the_game(browser, server):  # noqa: F811
    played(browser, f"{server}/play/nim?position=4%205%206&opponent=optimal", 1,
           "#board [data-move]")
    before = browser.execute_script("return window.judgePlay.state()")
    url = browser.current_url
    share = by_css(browser, "#share")[0]
    link = share.get_attribute("href")
    share.click()
    assert browser.current_url == url
    after = browser.execute_script("return window.judgePlay.state()")
    assert (after["id"], after["ply"], after["can_undo"]) == (before["id"], before["ply"], True)
    assert link in by_css(browser, "#message")[0].text


WATCH_DISABLED = """
window.flips = 0;
new MutationObserver((list) => list.forEach((m) => {
  if ((m.oldValue !== null) !== m.target.hasAttribute('disabled')) window.flips += 1;
})).observe(document.querySelector('.controls'), {attributes: true, subtree: true,
                                                   attributeOldValue: true,
                                                   attributeFilter: ['disabled']});
"""


def test_computer_against_computer_does_not_flicker_the_controls(browser, server):  # noqa: F811
    import time

    board = computers_play(browser, f"{server}/play/nim?position=1%202%203%201&opponent=human",
                           "10")
    deadline = time.monotonic() + 20
    while board.get_attribute("data-ply") in (None, "0") and time.monotonic() < deadline:
        time.sleep(0.02)
    browser.execute_script(WATCH_DISABLED)  # the game is under way: count from here
    while board.get_attribute("data-result") is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert board.get_attribute("data-result") is not None
    plies = int(board.get_attribute("data-ply"))
    assert plies >= 3
    # the game's end may set a control once (hint, undo); never twice a move
    assert browser.execute_script("return window.flips") <= 4


@pytest.mark.slow  # three pages, every text's contrast read from Chromium: some 8 s
def test_dark_mode_follows_the_system_with_the_same_contrasts(browser, server):  # noqa: F811
    from test_web_page import check_value_marks, contrast, opaque

    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        seen = set()
        for path in ("/play/ioiwari?opponent=optimal",
                     "/play/nim?position=1%202%203&opponent=human",
                     "/play/tictactoe?position=x.o/.x./...&opponent=human",
                     "/play/connect4?opponent=human"):
            played(browser, server + path, 0)
            page = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
            assert contrast(page, "rgb(0, 0, 0)") < 1.5, page  # dark
            seen |= check_value_marks(browser)
            for text in by_css(browser, "#status, #value p, #last, h3, .move span, .note, "
                                        "#chart-caption, #history button, .controls label, "
                                        "#chart-views button"):
                if text.text.strip():
                    colour = text.value_of_css_property("color")
                    assert contrast(colour, opaque(browser, text)) >= 4.5, (text.text, colour)
            for label in by_css(browser, "#chart svg text"):
                assert contrast(label.value_of_css_property("fill"),
                                opaque(browser, by_css(browser, "#chart svg")[0])) >= 4.5
        assert {"win", "lose", "tie"} <= seen
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
