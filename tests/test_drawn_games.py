"""Tic-tac-toe and Connect Four drawn in headless Chromium: whole games played by clicking the
drawn board against the optimal player, with the board, its buttons and the move lists
checked against the rules after each click; the report's viewer drawing the grid of every
step of a stored game; and Connect Four boards of every shape fitting a phone's width."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from test_html import BOTS, browser, judge, lines, listed_games, open_game, press  # noqa: E402,F401
from test_web_browser import by_css, settled  # noqa: E402
from webserver import serving  # noqa: E402

from judge.games import load_game  # noqa: E402
from judge.games.base import Game  # noqa: E402
from judge.html.boards import position_after  # noqa: E402
from judge.solvers import solver_for  # noqa: E402
from judge.store import Store  # noqa: E402
from judge.words import plural  # noqa: E402

pytestmark = pytest.mark.needs_chromium

TINY = "rows=3 cols=4 connect=3"
MARK = {"x": "X", "o": "O"}

#: the cells the page draws, row by row from the top ("x", "o" or "."), whichever game
DRAWN_CELLS = """
const b = document.getElementById(arguments[0]);
const ttt = [...b.querySelectorAll('.tictactoe-board [data-cell]')]
  .sort((p, q) => p.dataset.cell - q.dataset.cell).map(e => e.dataset.mark || '.');
const c4 = [...b.querySelectorAll('.connect4-board .slot')]
  .sort((p, q) => (p.dataset.row - q.dataset.row) || (p.dataset.col - q.dataset.col))
  .map(e => e.dataset.disc || '.');
return (ttt.length ? ttt : c4).join('');
"""


@pytest.fixture(scope="module")
def server():
    with serving("--bots", "bots") as url:
        yield url


def drawn(driver, root: str = "board") -> str:
    """The cells drawn in the element `root`, row by row from the top."""
    return driver.execute_script(DRAWN_CELLS, root)


def last_parts(driver, root: str = "board") -> list[list[int]]:
    """The parts of the board marked as the last move's: a cell number of tic-tac-toe, a
    [row, column] of Connect Four."""
    marked = by_css(driver, f"#{root} [data-last]")
    return [[int(e.get_attribute("data-cell"))] if e.get_attribute("data-cell")
            else [int(e.get_attribute("data-row")), int(e.get_attribute("data-col"))]
            for e in marked]


def expected_last(game: Game, pos, move: int) -> list[list[int]]:
    """What `last_parts` should read once `move` is played from `pos`."""
    touched = game.board_touched(pos, move)
    return [part if isinstance(part, list) else [part] for part in touched]


def check_board(driver, game: Game, pos) -> None:
    """The drawn board is the position's, and its buttons are the legal moves: each empty
    cell (each column that is not full), with the move list's value and an aria-label that
    says what it holds."""
    assert drawn(driver) == pos.cells
    legal = [game.format_move(m, pos) for m in game.legal_moves(pos)]
    listed = {b.get_attribute("data-move"): b.get_attribute("data-value")
              for b in by_css(driver, "#moves [data-move]")}
    controls = by_css(driver, "#board [data-move]")
    assert [c.get_attribute("data-move") for c in controls] == legal and list(listed) == legal
    for control in controls:
        move = int(control.get_attribute("data-move"))
        assert control.tag_name == "button" and control.is_enabled()
        assert control.get_attribute("data-value") == listed[str(move)]
        label = control.get_attribute("aria-label")
        if game.name == "tictactoe":
            assert label.startswith(f"row {(move - 1) // 3 + 1}, column {(move - 1) % 3 + 1}, "
                                    "empty: ")
            size = control.size
            assert size["width"] >= 44 and size["height"] >= 44
        else:
            discs = sum(pos.cells[r * game.cols + move - 1] != "." for r in range(game.rows))
            assert label.startswith(f"column {move}, {plural(discs, 'disc')}")
            assert control.size["height"] >= 44
    if game.name == "tictactoe":  # a taken cell is a button that plays nothing
        taken = by_css(driver, "#board button.cell:disabled")
        assert sorted(int(c.get_attribute("data-cell")) for c in taken) == [
            i + 1 for i, c in enumerate(pos.cells) if c != "."]
        for cell in taken:
            mark = pos.cells[int(cell.get_attribute("data-cell")) - 1]
            assert cell.get_attribute("aria-label").endswith(", " + MARK[mark])


@pytest.mark.parametrize("game_name, rules, seat", [("tictactoe", "", 1), ("connect4", TINY, 2),
                                                    ("connect4", "", 1)])
def test_a_whole_game_by_clicks_on_the_drawn_board_against_optimal(
        browser, server, game_name, rules, seat):  # noqa: F811
    game = load_game(game_name, rules)
    solver = solver_for(game)
    browser.get(f"{server}/play/{game_name}?rules={quote(rules)}&opponent=optimal&seat={seat}"
                "&values=on")
    version = settled(browser)
    board = by_css(browser, "#board")[0]
    pos, plies = game.start(), 0
    if seat == 2:  # the optimal player opened: its move is drawn as the last one
        reply = int(by_css(browser, "#last")[0].get_attribute("data-move"))
        assert reply in solver.evaluate(pos).best_moves
        assert last_parts(browser) == expected_last(game, pos, reply)
        pos, plies = game.play(pos, reply), 1
    clicks = 0
    while board.get_attribute("data-result") is None:
        assert game.parse_position(board.get_attribute("data-position")) == pos
        check_board(browser, game, pos)
        move = game.legal_moves(pos)[0]
        by_css(browser, f'#board [data-move="{move}"]')[0].click()
        version, clicks = settled(browser, version), clicks + 1
        history = by_css(browser, "#history button")  # a line per position, by its move
        assert f"{plies + 1}. you: {game.move_label(move, pos)}" == history[plies + 1].text
        mine, pos, plies = pos, game.play(pos, move), plies + 1
        if game.is_over(pos):
            assert last_parts(browser) == expected_last(game, mine, move)
        else:  # the optimal player answered: on the board and in the lists
            reply = int(by_css(browser, "#last")[0].get_attribute("data-move"))
            assert reply in solver.evaluate(pos).best_moves
            assert f"{plies + 1}. optimal: {game.move_label(reply, pos)}" == \
                history[plies + 1].text
            assert last_parts(browser) == expected_last(game, pos, reply)
            pos, plies = game.play(pos, reply), plies + 1
        assert len(history) == plies + 1
        assert by_css(browser, "#history li")[-1].get_attribute("data-position") == \
            game.format_position(pos)
    assert drawn(browser) == pos.cells and game.is_over(pos) and clicks >= 2
    assert by_css(browser, "#board [data-move]") == [] == by_css(browser, "#moves [data-move]")
    winner = game.winner(pos)
    assert board.get_attribute("data-result") == ("tie" if winner is None else str(winner + 1))
    won = by_css(browser, "#board .won")
    assert (len(won) >= (3 if game_name == "tictactoe" else game.connect)) == (winner is not None)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """A grading run of each game's weak sample bot, stored and written as a report."""
    from judge.html.report import render_report

    tmp = tmp_path_factory.mktemp("drawn")
    out = {}
    for name, rules, starts in (("tictactoe", "", [".../.../...", "x../.../..."]),
                                ("connect4", TINY, ["..../..../....", "..../..../.x.."])):
        db = tmp / f"{name}.db"
        judge("run", "--game", name, "--rules", rules, "--db", str(db), "--seed", "2",
              "--tests", lines(tmp / f"{name}.txt", starts), str(BOTS / name / "weak.py"),
              cwd=tmp)
        page = tmp / f"{name}.html"
        page.write_text(render_report(Store(db, read_only=True), 1), encoding="utf-8")
        out[name] = (db, page)
    return out


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_the_reports_viewer_draws_the_grid_of_every_step(browser, reports, name):  # noqa: F811
    from selenium.webdriver.common.keys import Keys

    db, page = reports[name]
    game = Store(db, read_only=True).run(1).plan.load_game()
    number, rec = max(enumerate(listed_games(db), 1), key=lambda item: len(item[1].moves))
    moves = rec.move_texts
    assert len(moves) >= 5
    start = game.parse_position(rec.start)
    open_game(browser, page, number)
    assert drawn(browser) == start.cells and last_parts(browser) == []
    assert by_css(browser, "#board button") == []  # a still picture: nothing to click
    pos = start
    for k in range(1, len(moves) + 1):
        press(browser, Keys.ARROW_RIGHT)
        move = game.parse_move(moves[k - 1], pos)
        assert last_parts(browser) == expected_last(game, pos, move), f"after {k} moves"
        pos = position_after(game, start, moves, k)
        assert drawn(browser) == pos.cells, f"after {k} moves"
    won = {e.get_attribute("data-cell") or e.get_attribute("data-row") + ","
           + e.get_attribute("data-col") for e in by_css(browser, "#board .won")}
    assert bool(won) == (game.winner(pos) is not None)
    shown = by_css(browser, "#board [aria-label]")
    assert all(e.get_attribute("aria-label") for e in shown) and len(shown) > 1


SHAPES = ["rows=1 cols=42 connect=4", "rows=42 cols=1 connect=4", "rows=6 cols=7 connect=4",
          "rows=2 cols=21 connect=4", "rows=3 cols=14 connect=4"]


def test_every_connect_four_board_fits_a_phone_without_scrolling_sideways(
        browser, server):  # noqa: F811
    size = browser.get_window_size()
    browser.set_window_size(390, 844)
    try:
        for rules in SHAPES:
            game = load_game("connect4", rules)
            browser.get(f"{server}/play/connect4?rules={quote(rules)}&opponent=human")
            settled(browser)
            width = browser.execute_script("return document.documentElement.clientWidth")
            assert width <= 390
            assert browser.execute_script(
                "return document.documentElement.scrollWidth") <= width, rules
            columns = by_css(browser, "#board button.column")
            assert [int(c.get_attribute("data-column")) for c in columns] == list(
                range(1, game.cols + 1))
            for column in columns:
                left, right = browser.execute_script(
                    "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right]",
                    column)
                assert 0 <= left < right <= width, rules
            assert len(by_css(browser, "#board .slot")) == game.rows * game.cols
    finally:
        browser.set_window_size(size["width"], size["height"])
