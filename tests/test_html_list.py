"""The report's game list in a browser: filtered by bot, result and verdict, sorted by a
column, also with ten thousand games."""

from __future__ import annotations

import pytest
from test_html import big, browser, pages, runs  # noqa: F401 - the pages and the browser

#: slow: runs of ten thousand games rendered (`-m slow` runs them)
pytestmark = pytest.mark.slow


def shown(driver) -> list[int]:
    """The numbers of the games the list shows, top to bottom."""
    return driver.execute_script("return window.judgeGameList.shown()")


def choose(driver, name: str, value: str) -> None:
    """Pick `value` in the filter `name` (bot, result, verdict), as a user does."""
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", f"filter-{name}")).select_by_value(value)


def rows(driver) -> list[dict[str, str]]:
    """The data attributes of the rows shown, top to bottom."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#game-list tr[data-game]')]"
        ".map(r => Object.assign({}, r.dataset))")


@pytest.mark.needs_chromium
def test_the_game_list_is_filtered_by_bot_result_and_verdict(browser, pages):  # noqa: F811
    browser.get(pages["nim"].as_uri())
    every = rows(browser)
    assert len({r["bot"] for r in every}) == 2 and len(every) == len(shown(browser))
    bot = every[0]["bot"]
    choose(browser, "bot", bot)
    assert rows(browser) == [r for r in every if r["bot"] == bot]
    choose(browser, "result", "loss")
    wanted = [r for r in every if r["bot"] == bot and r["result"] == "loss"]
    assert wanted and rows(browser) == wanted
    assert browser.find_element("id", "game-count").text == f"{len(wanted)} of {len(every)} games"
    choose(browser, "bot", "")
    choose(browser, "result", "")
    assert rows(browser) == every
    browser.get(pages["hostile"].as_uri())
    verdicts = {r["verdict"] for r in rows(browser)}
    assert len(verdicts) > 1
    for verdict in verdicts:
        choose(browser, "verdict", verdict)
        assert {r["verdict"] for r in rows(browser)} == {verdict}


@pytest.mark.needs_chromium
def test_a_tournament_list_is_filtered_by_either_player(browser, pages):  # noqa: F811
    browser.get(pages["tournament"].as_uri())
    every = rows(browser)
    name = every[0]["one"]
    choose(browser, "bot", name)
    assert rows(browser) == [r for r in every if name in (r["one"], r["two"])]


@pytest.mark.needs_chromium
def test_a_click_on_a_header_sorts_by_that_column_and_again_the_other_way(
        browser, pages):  # noqa: F811
    browser.get(pages["ioiwari"].as_uri())
    header = browser.find_element("css selector", "#game-table th.h-moves")
    header.click()
    moves = browser.execute_script(
        "return [...document.querySelectorAll('#game-list tr[data-game]')]"
        ".map(r => Number(r.cells[8].textContent))")
    assert moves == sorted(moves) and len(set(moves)) > 1
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    again = browser.execute_script(
        "return [...document.querySelectorAll('#game-list tr[data-game]')]"
        ".map(r => Number(r.cells[8].textContent))")
    assert again == sorted(moves, reverse=True)
    browser.find_element("css selector", "#game-table th.h-n").click()
    assert shown(browser) == sorted(shown(browser))
    # a game opened from the sorted list is the game of its number
    link = browser.find_element("css selector", '#game-list tr[data-game="2"] a.open')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    assert browser.find_element("id", "viewer").get_attribute("data-game") == "2"


@pytest.mark.needs_chromium
def test_ten_thousand_games_are_filtered_and_sorted_in_chunks(browser, big):  # noqa: F811
    path, _ = big
    browser.get(path.as_uri())
    assert len(shown(browser)) == 10_000
    choose(browser, "bot", "bots/ioiwari/bot3.py")
    numbers = shown(browser)
    assert len(numbers) == 1000
    chunks = browser.execute_script(
        "return [...document.querySelectorAll('#game-list .chunk')]"
        ".map(c => c.hidden ? 0 : c.querySelectorAll('tr').length)")
    assert chunks[:4] == [250, 250, 250, 250] and not any(chunks[4:])
    browser.find_element("css selector", "#game-table th.h-n").click()
    browser.find_element("css selector", "#game-table th.h-n").click()
    assert shown(browser) == sorted(numbers, reverse=True)
