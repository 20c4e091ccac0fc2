"""`judge serve --tc`: games in the browser on a clock. The API gives both seats' clocks,
counts a person's thinking from the position shown to the move received, ends the game on
time when their flag falls (at their next move, or when the page asks), and charges a bot
as the referee does in `judge run`."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from starlette.testclient import TestClient  # noqa: E402
from test_html import browser  # noqa: E402,F401  (the headless Chromium fixture)
from webserver import serving  # noqa: E402

from judge import verdicts  # noqa: E402
from judge.clock import Clocks  # noqa: E402
from judge.sandbox import Limits  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.sessions import Served  # noqa: E402
from tests.command import judge  # noqa: E402
from tests.test_clock import bot  # noqa: E402

HERE = "http://127.0.0.1:8000"
FAST = Limits(first_move_seconds=20.0, move_seconds=5.0)


def client(tc: str | None, bots: Path | None = None, *tc_for: str) -> TestClient:
    """The app serving `bots` with `--tc tc` and each `--tc-for NAME=SPEC` of `tc_for`."""
    served = Served(bots=bots, limits=FAST, sandbox="none",
                    clocks=Clocks.given(tc, list(tc_for), False))
    return TestClient(create_app(served), raise_server_exceptions=False, base_url=HERE)


def create(c: TestClient, **body: object) -> dict:
    r = c.post("/api/sessions", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_both_clocks_are_given_and_a_move_is_charged_its_thinking() -> None:
    with client("60+1") as c:
        s = create(c, game="nim", position="5 5 5", opponent="optimal")
        assert s["time_control"] == "60+1"
        you, optimal = s["clocks"]
        assert you == {"seat": 1, "who": "you", "left": 60.0, "free": 0.0,
                       "text": "Your clock: 1:00.0",
                       "running": True, "fallen": False}
        assert optimal == {"seat": 2, "who": "optimal", "left": None, "free": 0.0,
                           "text": "optimal: untimed", "running": False, "fallen": False}
        time.sleep(0.2)  # thinking
        s = c.post(f"/api/sessions/{s['id']}/move", json={"move": "1 1", "ply": 0}).json()
        left = s["clocks"][0]["left"]
        assert 60 + 1 - 0.2 - 5 < left <= 60 + 1 - 0.2  # charged its thinking, +1 added
        assert s["clocks"][0]["text"] == f"Your clock: 1:00.{int(left * 10) % 10}"
        # a game on a clock takes no move back, and its address holds no moves
        assert s["can_undo"] is False and s["resumable"] is False
        r = c.post(f"/api/sessions/{s['id']}/undo", json={})
        assert r.status_code == 409 and "on a clock" in r.json()["error"]
        # two people at one screen, or a game opened with its moves, play without one
        assert create(c, game="nim", position="5 5 5")["clocks"] is None
        s = create(c, game="nim", position="5 5 5", moves=["1 1"], opponent="optimal")
        assert s["clocks"] is None and s["time_control"] is None


def test_a_person_whose_flag_fell_loses_on_time_when_the_page_asks_or_at_their_move() -> None:
    with client("0.3") as c:
        asked = create(c, game="nim", position="5 5 5", opponent="optimal")
        moved = create(c, game="nim", position="5 5 5", opponent="optimal")
        time.sleep(0.5)  # more than the clock holds
        s = c.get(f"/api/sessions/{asked['id']}").json()
        assert s["over"] is True and s["result"] == "2" and s["your_turn"] is False
        assert s["verdict"]["code"] == verdicts.TIME_FORFEIT and s["verdict"]["seat"] == 0
        assert re.fullmatch(r"move 1: its clock ran out \(0\.000 s left of 0\.3; the move "
                            r"took \d\.\d{3} s\)", s["verdict"]["message"])
        assert s["clocks"][0]["fallen"] is True and s["clocks"][0]["left"] == 0
        assert s["clocks"][0]["text"] == "Your clock: 0:00.0"
        assert s["end"].startswith("you lost on time: move 1: its clock ran out")
        # the move that comes too late is not played
        s = c.post(f"/api/sessions/{moved['id']}/move", json={"move": "1 1"}).json()
        assert s["over"] is True and s["ply"] == 0 and s["result"] == "2"
        assert s["verdict"]["code"] == verdicts.TIME_FORFEIT
        r = c.post(f"/api/sessions/{moved['id']}/move", json={"move": "1 1"})
        assert r.status_code == 409 and "over" in r.json()["error"]


@pytest.mark.slow
def test_a_bot_loses_on_time_exactly_when_its_clock_says(tmp_path: Path) -> None:
    bot(tmp_path, "slow.py", sleep=0.1)
    with client("1+0.01", tmp_path) as c:
        # from two equal heaps the bot (player 1) takes from heap 1, the person mirrors
        s = create(c, game="nim", position="60 60", opponent="slow.py", seat=2)
        readings = []
        while not s["over"]:
            readings.append(s["clocks"][0]["left"])
            s = c.post(f"/api/sessions/{s['id']}/move",
                       json={"move": "2 1", "ply": s["ply"]}).json()
        assert s["result"] == "2" and s["verdict"]["code"] == verdicts.TIME_FORFEIT
        assert s["verdict"]["seat"] == 0 and s["clocks"][0]["fallen"] is True
        made = sum(1 for h in s["history"] if h.get("by") == "slow.py")
        found = re.fullmatch(r"move (\d+): its clock ran out \(0\.000 s left of 1\+0\.01; "
                             r"the move took (\d+\.\d{3}) s\)", s["verdict"]["message"])
        assert found, s["verdict"]["message"]
        assert int(found[1]) == made + 1 <= 12  # 0.1 s a move against 0.01 gained
        assert float(found[2]) >= readings[-1] - 0.0005  # more than its clock held
        assert readings == sorted(readings, reverse=True) and readings[-1] >= 0
        assert s["end"].startswith("slow.py lost on time: move")
        assert s["clocks"][1]["fallen"] is False


@pytest.mark.slow
def test_a_watched_bot_plays_on_the_clock_and_loses_on_time(tmp_path: Path) -> None:
    bot(tmp_path, "slow.py", sleep=0.1)
    query = "game=nim&position=60%2060&bot=slow.py&opponent=optimal&seat=1&pause=0"
    with client("1+0.01", tmp_path) as c, \
            c.websocket_connect(f"ws://127.0.0.1:8000/api/watch?{query}") as ws:
        assert ws.receive_json()["type"] == "start"
        events = [ws.receive_json()]
        while events[-1]["type"] != "end":
            events.append(ws.receive_json())
    mine = [e for e in events if e["type"] == "move" and e["seat"] == 1]
    assert [e["clock"] for e in mine] == pytest.approx(
        [1 + 0.01 * n - sum(e["seconds"] for e in mine[:n]) for n in range(1, len(mine) + 1)])
    assert all(e["clock"] is None for e in events if e["type"] == "move" and e["seat"] == 2)
    end = events[-1]
    assert end["result"] == "2" and end["verdict"]["code"] == verdicts.TIME_FORFEIT
    assert end["verdict"]["message"].startswith(f"move {len(mine) + 1}: its clock ran out")


def test_a_watched_bot_plays_on_its_own_clock(tmp_path: Path) -> None:
    bot(tmp_path, "slow.py", sleep=0.2), bot(tmp_path, "fast.py")
    query = "game=nim&position=60%2060&bot=slow.py&opponent=fast.py&seat=1&pause=0"
    with client("60", tmp_path, "slow.py=0.6,first=2") as c, \
            c.websocket_connect(f"ws://127.0.0.1:8000/api/watch?{query}") as ws:
        assert ws.receive_json()["type"] == "start"
        events = [ws.receive_json()]
        while events[-1]["type"] != "end":
            events.append(ws.receive_json())
    moves = [e for e in events if e["type"] == "move"]
    mine = [e["seconds"] for e in moves if e["seat"] == 1]
    # its start-up free, its moves 2 and 3 of 0.2 s held by its 0.6 s, not its move 4
    assert [e["clock"] for e in moves if e["seat"] == 1] == pytest.approx(
        [0.6, 0.6 - mine[1], 0.6 - mine[1] - mine[2]])
    theirs = [e["seconds"] for e in moves if e["seat"] == 2]  # the other bot: --tc 60
    assert len(theirs) == 3 and [e["clock"] for e in moves if e["seat"] == 2] \
        == pytest.approx([60 - sum(theirs[:n]) for n in range(1, 4)])
    end = events[-1]
    assert end["result"] == "2" and end["verdict"]["code"] == verdicts.TIME_FORFEIT
    assert end["verdict"]["message"].startswith("move 4: its clock ran out")


def test_a_bot_and_the_person_each_play_on_their_own_clock(tmp_path: Path) -> None:
    bot(tmp_path, "a.py"), bot(tmp_path, "b.py")
    with client("60+1", tmp_path, "a.py=5,first=2", "you=30") as c:
        s = create(c, game="nim", position="5 5 5", opponent="a.py", seat=2)
        assert s["time_control"] == "player 1 5,first=2; player 2 30"
        (first, second) = s["clocks"]
        assert (first["who"], first["left"], second["who"], second["left"]) == \
            ("a.py", 5.0, "you", 30.0)
        s = create(c, game="nim", position="5 5 5", opponent="b.py")  # --tc
        assert s["time_control"] == "player 1 30; player 2 60+1"
        assert [k["left"] for k in s["clocks"]] == [30.0, 60.0]
        s = create(c, game="nim", position="5 5 5", opponent="optimal")
        assert [k["left"] for k in s["clocks"]] == [30.0, None]
    with client(None, tmp_path, "a.py=5,first=2") as c:  # a bot's own alone: you untimed
        s = create(c, game="nim", position="5 5 5", opponent="a.py", seat=2)
        assert [k["left"] for k in s["clocks"]] == [5.0, None]
        assert create(c, game="nim", position="5 5 5", opponent="b.py")["clocks"] is None


@pytest.mark.parametrize(("args", "says"), [
    (["--tc", "10+x"], "time control '10+x': give [MOVES/]BASE"),
    (["--tc-for", "a.py=10+x"], "time control '10+x': give [MOVES/]BASE"),
    (["--tc-for", "a.py"], "--tc-for 'a.py': give BOT=SPEC"),
    (["--tc-for", "nobody.py=5"], "--tc-for 'nobody.py': not a player of the served games "
     "(you, optimal, tricky, level:N or a bot of --bots: a.py)"),
    (["--tc-for", "level:x=5"], "--tc-for 'level:x': not a player of the served games"),
    (["--tell-time"], "--tell-time tells a bot its clock: give --tc (or --tc-for)"),
])
def test_a_bad_clock_stops_the_server_before_it_starts(tmp_path: Path, args: list[str],
                                                       says: str) -> None:
    (tmp_path / "bots").mkdir()
    bot(tmp_path / "bots", "a.py")
    out = judge("serve", "--no-browser", "--port", "0", "--bots", "bots", *args,
                cwd=tmp_path, timeout=60)  # (a server let start would serve on)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith(f"judge: error: {says}"), out.stderr
    assert out.stderr.count("\n") == 1


def test_a_clock_for_a_bot_needs_the_bots_served(tmp_path: Path) -> None:
    out = judge("serve", "--no-browser", "--port", "0", "--tc-for", "a.py=5", cwd=tmp_path,
                timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("judge: error: --tc-for 'a.py': not a player of the served games "
                          "(you, optimal, tricky, level:N; no bots are served: --bots "
                          "FOLDER)\n")


@pytest.mark.slow
@pytest.mark.needs_chromium
def test_the_page_shows_both_clocks_in_words_and_says_lost_on_time(browser) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def text(css: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, css).text

    with serving("--tc", "3") as url:
        browser.set_window_size(390, 900)  # a phone
        browser.get(f"{url}/play/nim?position=5%205%205&opponent=optimal")
        WebDriverWait(browser, 30).until(
            lambda d: text("#clock-1").startswith("Your clock: 0:0"))
        assert text("#clock-1").endswith("(running)")  # said, not only shown in bold
        assert text("#clock-2") == "optimal: untimed"
        assert text("#status") == "Your move (player 1)"
        # nobody moves: the page asks the server when the clock is out
        WebDriverWait(browser, 30).until(
            lambda d: text("#status") == "Game over: you lost on time")
        assert text("#clock-1") == "Your clock: 0:00.0 (flag fell)"
        assert text("#end").startswith("Why it ended: you lost on time: move 1: its clock ran")
        assert browser.find_element(By.ID, "board").get_attribute("data-result") == "2"
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
