"""The play page as a student meets it, in headless Chromium: no wait that never ends, the
values and the moves in plain words, values not told by colour alone, the chart readable,
the keyboard and the phone."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from test_html import browser  # noqa: E402,F401  (the headless Chromium fixture)
from test_web_browser import by_css, settled  # noqa: E402
from test_web_page import played, server  # noqa: E402,F401  (the app, with the bots)

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
