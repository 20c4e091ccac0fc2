"""The HTML report (`judge.html.report.render_report`): self-contained, escaped, whole and lazy on
big runs, and in a real browser its viewer shows the positions the rules give. (How fast a
big run renders is a benchmark's: benchmarks/bench_report.py.)"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMEDRIVER, CHROMIUM

from judge.analysis import replay
from judge.html.boards import drawable, position_after
from judge.html.report import render_report
from judge.kinds.grading import graded_games
from judge.records import PlayedGame
from judge.store import Store

#: slow: whole runs rendered and opened in a browser (`-m slow` runs them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
STATIC = ROOT / "judge" / "html" / "static"

HOSTILE_NAME = "x<script>alert(1)<.py"  # a file name cannot hold the slash of </script>
HOSTILE_BOT = '''import sys
print("<script>alert(1)</script>", file=sys.stderr, flush=True)
sys.stdin.readline()
print("1 1", flush=True)
sys.stdin.readline()
print("<script>alert(3)</script>", flush=True)
'''
BAD_C = "#error <img src=x onerror=alert(1)>\nint main(void) { return 0; }\n"


def judge(*args: str, cwd: Path) -> None:
    """Run the command line in a fresh interpreter (a run's exit status may be non-zero)."""
    out = subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True,
                         text=True, timeout=600, cwd=cwd)
    assert out.returncode in (0, 3), out.stderr


def lines(path: Path, starts: list[str]) -> str:
    path.write_text("\n".join(starts) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Real stored runs: a grading run of each game, a tournament, and a hostile run."""
    tmp = tmp_path_factory.mktemp("html")
    dbs = {name: tmp / f"{name}.db" for name in ("ioiwari", "nim", "chopsticks",
                                                "tournament", "hostile")}
    judge("run", "--game", "ioiwari", "--db", str(dbs["ioiwari"]), "--seed", "3", "--tests",
          lines(tmp / "io.txt", ["2 2 2 2 4 4 4", "4 4 4 2 2 2 2", "2 3 4 2 3 4 2"]),
          str(BOTS / "ioiwari/greedy.py"), cwd=ROOT)
    judge("run", "--game", "nim", "--db", str(dbs["nim"]), "--tests",
          lines(tmp / "nim.txt", ["3 4 5", "2 5 6 7", "1 2 4"]), str(BOTS / "nim/greedy.py"),
          str(BOTS / "nim/random.py"), cwd=ROOT)
    judge("run", "--game", "chopsticks", "--db", str(dbs["chopsticks"]),
          str(BOTS / "chopsticks/greedy.py"), cwd=ROOT)
    judge("tournament", "--game", "nim", "--include-optimal", "--seed", "5", "--db",
          str(dbs["tournament"]), "--starts", lines(tmp / "t.txt", ["3 4 5", "1 2 4"]),
          str(BOTS / "nim/greedy.py"), str(BOTS / "nim/random.py"),
          str(BOTS / "nim/optimal.py"), cwd=ROOT)
    hostile = tmp / "hostile"
    hostile.mkdir()
    (hostile / HOSTILE_NAME).write_text(HOSTILE_BOT)
    (hostile / "bad.c").write_text(BAD_C)
    judge("run", "--game", "nim", "--db", str(dbs["hostile"]), "--tests",
          lines(hostile / "starts.txt", ["3 4 5", "1 2 2"]), HOSTILE_NAME, "bad.c", cwd=hostile)
    return dbs


@pytest.fixture(scope="module")
def pages(runs, tmp_path_factory) -> dict[str, Path]:
    """Each run's report, written to a file."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for name, db in runs.items():
        out[name] = folder / f"{name}.html"
        out[name].write_text(render_report(Store(db, read_only=True), 1), encoding="utf-8")
    return out


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs)
            self.scripts.append((self._script, ""))

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def parse(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    return tags


def listed_games(db: Path) -> list[PlayedGame]:
    """A run's records in the report's numbering (as `judge show RUN --game N`)."""
    store = Store(db, read_only=True)
    info, records = store.run(1), store.games(1)
    if info.kind == "tournament":
        return [records[k] for k in sorted(records)]
    return [rec for _, mine in graded_games(info.plan, records) for rec, _ in mine]


# --- the page itself ------------------------------------------------------------------------

def test_the_page_is_self_contained_with_the_viewer_inline(pages):
    viewer = (STATIC / "viewer.js").read_text(encoding="utf-8")
    css = (STATIC / "report.css").read_text(encoding="utf-8")
    for name, path in pages.items():
        page = path.read_text(encoding="utf-8")
        tags = parse(page)
        for tag, attrs in tags.tags:
            for attr in ("src", "href", "xlink:href", "action", "srcset", "poster", "data"):
                value = attrs.get(attr)
                if value is not None and tag != "object":
                    assert value.startswith("#"), f"{name}: <{tag} {attr}={value!r}>"
            assert tag not in ("link", "iframe", "img", "embed", "object", "base"), name
        assert not re.search(r"url\(|@import|https?://(?!www\.w3\.org/2000/svg)", page), name
        assert viewer.strip() in page and css.strip() in page, name
        code = [text for attrs, text in tags.scripts if attrs.get("type") is None]
        assert len(code) == 1 and viewer.strip() in code[0]
        assert '<meta name="viewport"' in page and "@media print" in page


def test_the_page_runs_only_its_own_script_by_its_hash(pages):
    """The Content-Security-Policy loads nothing and allows one inline script: the page's
    own, by its SHA-256 (a script slipped into the page by any text would not run)."""
    import base64
    import hashlib

    for name, path in pages.items():
        tags = parse(path.read_text(encoding="utf-8"))
        policies = [a["content"] for t, a in tags.tags
                    if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
        assert len(policies) == 1, name
        rules = dict(r.strip().split(" ", 1) for r in (policies[0] or "").split(";"))
        assert rules["default-src"] == "'none'" and rules["base-uri"] == "'none'"
        code = [text for attrs, text in tags.scripts if attrs.get("type") is None]
        digest = base64.b64encode(hashlib.sha256(code[0].encode()).digest()).decode()
        assert rules["script-src"] == f"'sha256-{digest}'", name


def test_bot_text_is_escaped_in_html_and_in_json(pages, runs):
    page = pages["hostile"].read_text(encoding="utf-8")
    for raw in ("<script>alert(1)</script>", "<script>alert(3)</script>", "<img src=x",
                "x<script>"):
        assert raw not in page
    games = listed_games(runs["hostile"])
    if any(rec.players[0] == "bad.c" for rec in games):  # skipped where C is missing
        assert "#error &lt;img src=x onerror=alert(1)&gt;" in page  # the compile error
    assert "x&lt;script&gt;alert(1)&lt;.py" in page  # the bot's file name
    tags = parse(page)
    # every script element is either our viewer or inert JSON: no bot opened one
    kinds = [attrs.get("type") for attrs, _ in tags.scripts]
    names = 'id="move-labels"' in page  # the moves' names, once for the page
    assert kinds.count("application/json") == len(games) + 1 + names
    assert kinds.count(None) == 1
    blocks = {attrs["id"]: json.loads(text) for attrs, text in tags.scripts
              if attrs.get("type") == "application/json"}
    hostile = [blocks[f"game-{n}"] for n, rec in enumerate(games, 1)
               if rec.players[0] == HOSTILE_NAME]
    assert hostile and all(b["e"][0] == "<script>alert(1)</script>\n" for b in hostile)
    assert all("<script>alert(3)</script>" in b["v"][1] for b in hostile)


BIDI = "\u202e\u2066\u200f"


def test_bidirectional_controls_of_a_bot_cannot_reorder_the_page(tmp_path):
    """A right-to-left override in a bot's file name or stderr would show the text after it
    reversed (`evil\u202egnp.py` reads as `evilyp.png`): the page shows it as an escape."""
    from judge.report import printable

    name = f"rtl{BIDI[0]}gnp.py"
    (tmp_path / name).write_text(
        f"import sys\nsys.stderr.write('a{BIDI}b\\n')\nsys.stdin.readline()\n"
        "print('1 1', flush=True)\nsys.stdin.readline()\nprint('1 1', flush=True)\n")
    db = tmp_path / "r.db"
    judge("run", "--game", "nim", "--db", str(db), "--tests",
          lines(tmp_path / "starts.txt", ["3 4 5"]), name, cwd=tmp_path)
    page = render_report(Store(db, read_only=True), 1)
    blocks = [json.loads(text) for attrs, text in parse(page).scripts
              if attrs.get("type") == "application/json"]
    shown = html.unescape(page) + json.dumps(blocks, ensure_ascii=False)
    assert not set(BIDI) & set(shown)
    assert "rtl\\u202egnp.py" in html.unescape(page)
    game = next(b for b in blocks if "p" in b)
    assert game["p"][0] == "rtl\\u202egnp.py"
    assert game["e"][0] == "a\\u202e\\u2066\\u200fb\n"
    assert printable(f"x{BIDI}\ty") == "x\\u202e\\u2066\\u200f\ty"  # the terminal too


def test_the_json_of_every_game_holds_the_rules_positions_step_by_step(pages, runs):
    for name in ("ioiwari", "nim", "chopsticks", "tournament"):
        store = Store(runs[name], read_only=True)
        game = store.run(1).plan.load_game()
        blocks = {attrs["id"]: json.loads(text) for attrs, text in
                  parse(pages[name].read_text(encoding="utf-8")).scripts
                  if attrs.get("type") == "application/json"}
        for n, rec in enumerate(listed_games(runs[name]), 1):
            data = blocks[f"game-{n}"]
            moves = rec.move_texts
            start = game.parse_position(rec.start)
            assert [m[0] for m in data["m"]] == moves
            for k in range(len(moves) + 1):
                state = {key: values[k] for key, values in data["b"].items()}
                assert state == drawable(game, position_after(game, start, moves, k))


def element_text(page: str, ident: str) -> str:
    """The text of the element with id `ident` (no nested elements)."""
    match = re.search(rf'id="{ident}"[^>]*>([^<]*)<', page)
    assert match, ident
    return html.unescape(match.group(1))


def test_the_page_states_rules_version_tier_seeds_and_a_command_that_replays_it(
        pages, runs, tmp_path):
    import judge as package

    page = pages["tournament"].read_text(encoding="utf-8")
    plan = Store(runs["tournament"], read_only=True).run(1).plan
    assert element_text(page, "exact-rules") == "nim misere=off"
    assert element_text(page, "judge-version") == package.__version__
    assert element_text(page, "tier-name") == plan.harness.tier
    assert element_text(page, "run-seed") == "5"
    command = element_text(page, "reproduce")
    folder, _, line = command.partition(" && ")
    words = shlex.split(line)
    assert shlex.split(folder) == ["cd", str(ROOT)] and words[:4] == ["judge", "tournament",
                                                                     "--game", "nim"]
    assert {"--include-optimal", "--seed", "5", "--rules", "misere=off"} <= set(words)
    # the command plays the same games again, move for move
    again = tmp_path / "again.db"
    judge(*words[1:], "--db", str(again), cwd=ROOT)
    first = Store(runs["tournament"], read_only=True).games(1)
    second = Store(again, read_only=True).games(1)
    assert first.keys() == second.keys()
    for key, rec in first.items():
        assert rec.move_texts == second[key].move_texts


def test_the_command_that_shows_the_run_again_works_from_any_folder(runs, tmp_path,
                                                                   monkeypatch):
    """A database given by a relative path is named by its absolute one on the page."""
    monkeypatch.chdir(runs["nim"].parent)
    page = render_report(Store(Path(runs["nim"].name), read_only=True), 1)
    assert shlex.split(html.unescape(re.search(r"again: <code>([^<]*)</code>", page)[1])) == [
        "judge", "show", "1", "--db", str(runs["nim"].resolve())]


@pytest.fixture(scope="module")
def big(runs, tmp_path_factory) -> tuple[Path, Path]:
    """The reports of a run of 10,000 games and of one of a tenth of that: copies of a real
    run's games under ten bots, the runs that benchmarks/bench_report.py times."""
    spec = importlib.util.spec_from_file_location("bench_report",
                                                  ROOT / "benchmarks" / "bench_report.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    tmp = tmp_path_factory.mktemp("big")
    made = []
    for games in (BIG, BIG // 10):
        store, run_id = bench.big_run(runs["ioiwari"], tmp, games)
        made.append(tmp / f"big-{games}.html")
        made[-1].write_text(render_report(store, run_id), encoding="utf-8")
    return made[0], made[1]


BIG = 10_000


def test_a_run_of_ten_thousand_games_renders_whole_and_its_games_load_lazily(big):
    path, tenth = big
    page = path.read_text(encoding="utf-8")
    size, smaller = len(page.encode("utf-8")), tenth.stat().st_size
    print(f"\n{BIG} games: {size / 1e6:.1f} MB ({BIG // 10}: {smaller / 1e6:.2f} MB)")
    # linear in the games: ten times the games, ten times the bytes but the page's own
    assert 9 * smaller <= size <= 10 * smaller and size < 60e6
    assert page.rstrip().endswith("</html>")  # (whole)
    # each game's data is an inert JSON block (the browser does not parse it), and nothing
    # of any game is drawn in the page until the viewer opens it
    blocks = re.findall(r'<script type="application/json" id="game-(\d+)">', page)
    assert [int(n) for n in blocks] == list(range(1, BIG + 1))
    assert '<ol id="moves" class="moves"></ol>' in page
    assert re.search(r'<div id="board" class="board"[^>]*></div>', page)
    assert page.count("<tr data-game=") == BIG
    # the list is cut into tables that a browser lays out only when in view
    assert page.count('<div class="chunk"') == -(-BIG // 250)


# --- in a real browser ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (no network, a fresh profile) driven by Selenium (for tests
    marked `needs_chromium`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="judge-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def press(driver, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    actions = ActionChains(driver)
    for _ in range(times):
        actions.send_keys(key)
    actions.perform()


def open_game(driver, page: Path, number: int) -> None:
    """Load the report and open game `number` by clicking its link, as a user does."""
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    assert driver.execute_script("return window.judgeViewer.parsed()") == 0
    link = driver.find_element(By.CSS_SELECTOR, f'tr[data-game="{number}"] a.open')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    assert driver.execute_script("return window.judgeViewer.parsed()") == 1


READ_BOARD = """
const b = document.getElementById('board');
const num = v => /^-?\\d+$/.test(v) && v.length < 16 ? Number(v) : v;
const all = (sel, key) => [...b.querySelectorAll(sel)].map(e => e.dataset);
return {
  step: Number(document.getElementById('step').dataset.step),
  mover: Number(b.dataset.mover), over: b.dataset.over === '1',
  pits: all('[data-pit]').sort((x, y) => x.pit - y.pit).map(d => Number(d.beads)),
  banks: all('[data-bank]').sort((x, y) => x.bank - y.bank).map(d => Number(d.beads)),
  heaps: all('[data-heap]').sort((x, y) => x.heap - y.heap).map(d => num(d.count)),
  left: all('.hand[data-side="L"]').sort((x, y) => x.hand - y.hand).map(d => Number(d.fingers)),
  right: all('.hand[data-side="R"]').sort((x, y) => x.hand - y.hand).map(d => Number(d.fingers)),
};
"""


def shown(driver, game_name: str) -> dict[str, Any]:
    """The position the viewer shows, read from the DOM's data attributes."""
    seen = driver.execute_script(READ_BOARD)
    keys = {"ioiwari": ("pits", "banks"), "nim": ("heaps",), "chopsticks": ("left", "right")}
    state = {k: seen[k] for k in keys[game_name]}
    return dict(state, step=seen["step"], mover=seen["mover"], over=seen["over"])


def expected(game, pos) -> dict[str, Any]:
    """What the rules say the board is, in the form `shown` reads."""
    if game.name == "ioiwari":
        state = {"pits": list(pos.pits), "banks": list(pos.banks)}
    elif game.name == "nim":
        state = {"heaps": list(pos.sizes)}
    else:
        state = {"left": list(pos.left), "right": list(pos.right)}
    return dict(state, mover=game.mover(pos), over=game.is_over(pos))


@pytest.mark.parametrize("name", ["ioiwari", "nim", "chopsticks"])
@pytest.mark.needs_chromium
def test_the_browser_shows_the_rules_position_after_k_presses_of_right(
        browser, pages, runs, name):
    from selenium.webdriver.common.keys import Keys

    store = Store(runs[name], read_only=True)
    game = store.run(1).plan.load_game()
    games = listed_games(runs[name])
    number, rec = max(enumerate(games, 1), key=lambda item: len(item[1].moves))
    moves = rec.move_texts
    assert len(moves) >= 4
    start = game.parse_position(rec.start)
    open_game(browser, pages[name], number)
    assert shown(browser, name) == dict(expected(game, start), step=0)
    # each move listed as the game names it ("pit 4", "take 2 from heap 1"), its text on hover
    listed = browser.find_elements("css selector", "#moves li.move:not(.start) .mv")
    assert [e.text for e in listed] == [game.move_label(m, p) for p, m in replay(game, start,
                                                                                 moves)]
    assert [e.get_attribute("title") or e.text for e in listed] == moves
    done = 0
    for k in sorted({1, 2, 3, len(moves) // 2, len(moves)}):
        press(browser, Keys.ARROW_RIGHT, k - done)
        done = k
        pos = position_after(game, start, moves, k)
        assert shown(browser, name) == dict(expected(game, pos), step=k), f"after {k} moves"
    press(browser, Keys.ARROW_RIGHT)  # past the end: stays at the last position
    assert shown(browser, name)["step"] == len(moves)
    press(browser, Keys.ARROW_LEFT)
    pos = position_after(game, start, moves, len(moves) - 1)
    assert shown(browser, name) == dict(expected(game, pos), step=len(moves) - 1)
    press(browser, Keys.HOME)
    assert shown(browser, name) == dict(expected(game, start), step=0)
    press(browser, Keys.END)
    assert shown(browser, name)["step"] == len(moves)
    browser.find_element("id", "first").click()
    browser.find_element("id", "next").click()
    assert shown(browser, name) == dict(expected(game, position_after(game, start, moves, 1)),
                                        step=1)


@pytest.mark.needs_chromium
def test_the_browser_marks_the_move_that_lost(browser, pages, runs):
    games = listed_games(runs["ioiwari"])
    found = [(n, r) for n, rec in enumerate(games, 1) for r in rec.review
             if r.changed_result]
    assert found, "the greedy bot loses a won start in this run"
    number, review = found[0]
    open_game(browser, pages["ioiwari"], number)
    marks = browser.execute_script(
        "return [...document.querySelectorAll('#moves li[data-ply]')]"
        ".map(li => [Number(li.dataset.ply), li.className])")
    classes = {ply: set(c.split()) for ply, c in marks}
    assert {"mistake", "lost"} <= classes[review.ply]
    reviewed = {r.ply: r for r in games[number - 1].review}
    for ply, cls in classes.items():
        if ply in reviewed and not reviewed[ply].changed_result:
            assert "lost" not in cls
        if ply in reviewed and reviewed[ply].optimal:
            assert "optimal" in cls
    browser.execute_script("window.judgeViewer.go(arguments[0])", review.ply)
    caption = browser.find_element("id", "caption").text
    assert "MISTAKE" in caption and "right: " + ", ".join(review.best_moves) in caption


@pytest.mark.parametrize("before, after, lead, code, words", [
    (2, 0, 0, "d", "threw away the win"),  # won by 2, now a draw: not lost
    (0, -2, 0, "l", "lost the game"),  # a draw now lost
    (2, -2, 0, "l", "threw away the win"),  # a win now lost
    (-1, -2, 2, "d", "threw away the win"),  # ahead by 2 in the banks: won, now a draw
    ("win", "loss", 0, "l", "threw away the win"),
])
def test_a_move_that_changed_the_result_is_tagged_by_what_it_left(before, after, lead, code,
                                                                   words):
    from judge.analysis import MoveReview
    from judge.html.pages import judgement
    from judge.records import Judgement
    from judge.solvers.base import stored_value

    entry = MoveReview(ply=1, seat=0, move="1", before=stored_value(before),
                       after=stored_value(after),
                       best_moves=["2"], lead=lead)
    assert judgement(entry)[0] is Judgement(code) and words in judgement(entry)[1]


@pytest.mark.needs_chromium
def test_the_browser_tags_a_lost_game_lost_and_a_win_turned_draw_lost_the_win(
        browser, pages, runs):
    games = listed_games(runs["ioiwari"])
    changed = [(n, r) for n, rec in enumerate(games, 1) for r in rec.review
               if r.changed_result and rec.players[r.seat] != "optimal"]
    assert changed
    for number in sorted({n for n, _ in changed})[:6]:
        open_game(browser, pages["ioiwari"], number)
        tags = dict(browser.execute_script(
            "return [...document.querySelectorAll('#moves li[data-ply]')]"
            ".map(li => [Number(li.dataset.ply), (li.querySelector('.tag') || {}).textContent])"))
        for n, r in changed:
            if n == number:
                assert tags[r.ply] == ("lost" if r.lost_game else "lost the win"), (n, r)


@pytest.mark.needs_chromium
def test_the_browser_shows_one_error_bar_per_entrant(browser, pages, runs):
    browser.get(pages["tournament"].as_uri())
    entrants = Store(runs["tournament"], read_only=True).run(1).plan.entrants
    bars = browser.execute_script(
        "return [...document.querySelectorAll('svg#rating-chart g.errorbar')].map(g => "
        "[g.dataset.bot, Number(g.dataset.low), Number(g.dataset.rating),"
        " Number(g.dataset.high), g.querySelector('line.bar').getBBox().width])")
    assert sorted(b[0] for b in bars) == sorted(entrants)
    assert all(low <= rating <= high and width > 0 for _, low, rating, high, width in bars)
    cells = browser.execute_script(
        "return [...document.querySelectorAll('#crosstable-table td[data-share]')]"
        ".map(td => getComputedStyle(td).backgroundColor)")
    assert len(cells) == len(entrants) * (len(entrants) - 1) and len(set(cells)) > 1


@pytest.mark.needs_chromium
def test_the_browser_shows_bot_text_as_text(browser, pages, runs):
    from selenium.common.exceptions import NoAlertPresentException

    games = listed_games(runs["hostile"])
    number = next(n for n, rec in enumerate(games, 1) if rec.players[0] == HOSTILE_NAME)
    open_game(browser, pages["hostile"], number)
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - no script of a bot ran
    text = browser.execute_script(
        "return document.querySelector('#stderr pre[data-seat=\"0\"]').textContent")
    assert text == "<script>alert(1)</script>\n"
    assert browser.execute_script("return document.querySelectorAll('img').length") == 0
    if any(rec.players[0] == "bad.c" for rec in games):  # skipped where C is missing
        compile_error = browser.execute_script(
            "return document.querySelector('.compile-error pre').textContent")
        assert "#error <img src=x onerror=alert(1)>" in compile_error


@pytest.mark.needs_chromium
def test_the_browser_opens_ten_thousand_games_and_parses_only_the_one_opened(browser, big):
    browser.get(big[0].as_uri())
    assert browser.execute_script("return window.judgeViewer.parsed()") == 0
    browser.execute_script("window.judgeViewer.open(9999)")
    assert browser.execute_script("return window.judgeViewer.parsed()") == 1
    assert browser.find_element("id", "viewer").get_attribute("data-game") == "9999"


@pytest.mark.needs_chromium
def test_printed_the_game_list_hides_no_text(browser, pages):
    """On paper there is no hovering to read a cut cell: at a page's width (about 800 px),
    every cell of the game list shows its whole text, wrapped where it must be."""
    browser.set_window_size(800, 1000)
    try:
        browser.get(pages["ioiwari"].as_uri())
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        cut = browser.execute_script(
            "return [...document.querySelectorAll('table.games td')]"
            ".filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.textContent)")
        mistakes = browser.execute_script(
            "return document.querySelectorAll('table.games td:nth-child(8):not(:empty)').length")
        assert mistakes and cut == []
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        browser.set_window_size(1400, 1000)


@pytest.mark.needs_chromium
def test_on_a_phone_the_chart_is_legible_and_the_crosstable_in_view(browser, pages):
    """At a phone's width (390 px) the rating chart's names are drawn at a readable size
    (the chart scrolls sideways rather than shrink), and the crosstable's names wrap so that
    its cells are in view."""
    browser.set_window_size(390, 844)
    try:
        browser.get(pages["tournament"].as_uri())
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert width <= 420
        names = browser.execute_script(
            "return [...document.querySelectorAll('#rating-chart text.name')]"
            ".map(t => t.getBoundingClientRect().height)")
        assert names and min(names) >= 10
        right = browser.execute_script(
            "return Math.max(...[...document.querySelectorAll('#crosstable-table td')]"
            ".map(td => td.getBoundingClientRect().right))")
        assert right <= width
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    finally:
        browser.set_window_size(1400, 1000)


def test_the_limits_table_gives_each_value_in_its_unit() -> None:
    # (it read `memory_bytes 1024` and `file_bytes 1.67772e+07`)
    from dataclasses import asdict

    from judge.html.pages import limit_rows
    from judge.sandbox import Limits

    rows = {r["name"]: r["value"] for r in limit_rows(asdict(Limits(memory_bytes=256 << 20)))}
    assert rows["memory"] == "256 MiB"
    assert rows["file"] == "16 MiB" and "e+" not in " ".join(rows.values())
    assert rows["move"] == f"{Limits().move_seconds:g} s"
