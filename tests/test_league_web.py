"""A league in the browser (`judge serve --db FILE`, /league): the live leaderboard, a bot's
history with links to the stored-game viewer, and uploads with a contestant's token."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from starlette.testclient import TestClient  # noqa: E402

from judge.commands import inputs, runs  # noqa: E402
from judge.kinds.league import add_version  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.league import MAX_SOURCE  # noqa: E402
from judge.web.sessions import Served  # noqa: E402
from tests.command import judge  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GREEDY = ROOT / "bots/nim/greedy.py"
HERE = "http://127.0.0.1:8000"
#: a line only the uploaded source holds: no answer of the app may show it
SECRET = "# secret-strategy-7f3a9c"


def league(folder: Path, *args: str) -> str:
    out = judge("league", *args, "--db", "l.db", cwd=folder)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "starts.txt").write_text("1 2 4\n2 3\n1 1 3\n")
    league(tmp_path, "new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
    league(tmp_path, "add", "--anchor", "level:2", "--mu", "17")  # pinned: bots play at once
    league(tmp_path, "add", "--anchor", "level:8", "--mu", "23")
    (tmp_path / "amy.py").write_text(GREEDY.read_text() + SECRET + "\n")
    league(tmp_path, "add", "amy", "amy.py")
    league(tmp_path, "add", "bob", str(GREEDY))
    league(tmp_path, "play", "--games", "12", "--jobs", "1")
    return tmp_path


@pytest.fixture
def client(folder: Path, monkeypatch):
    monkeypatch.setattr("judge.web.league.FRESH_SECONDS", 0)  # each request looks
    app = create_app(Served(db=folder / "l.db",
                                   add_version=functools.partial(add_version, inputs, runs)))
    with TestClient(app, raise_server_exceptions=False, base_url=HERE) as c:
        yield c


def members(folder: Path) -> list[str]:
    return [r["label"] for r in json.loads(league(folder, "show", "--retired", "--format",
                                                  "json"))["leaderboard"]]


def test_the_leaderboard_is_live_and_each_game_links_to_the_viewer(folder, client) -> None:
    page = client.get("/league")
    assert page.status_code == 200 and "/static/league.js" in page.text
    assert "http://" not in page.text and "https://" not in page.text
    assert client.get("/static/league.js").status_code == 200
    board = client.get("/api/league").json()
    assert board["games"] == 12 and not board["running"]
    rows = {r["label"]: r for r in board["leaderboard"]}
    assert set(rows) == {"amy v1", "bob v1", "level:2", "level:8"}
    assert rows["level:8"]["placement"] == "pinned" and rows["amy v1"]["placement"] == "rated"
    league(folder, "play", "--games", "4", "--jobs", "1")  # stored meanwhile: no reload
    assert client.get("/api/league").json()["games"] == 16
    bot = client.get("/api/league/bot", params={"name": "amy"}).json()
    steps = bot["versions"][0]["history"]
    assert steps and bot["versions"][0]["label"] == "amy v1"
    for step in steps:
        run, number = re.fullmatch(r"/run/(\d+)/game/(\d+)", step["link"]).groups()
        assert client.get(step["link"]).status_code == 200
        game = client.get(f"/api/runs/{run}/games/{number}").json()
        assert "amy v1" in game["players"]  # the game the history names
        mine = game["players"].index("amy v1")
        assert game["results"][mine] == step["result"]
    for g in client.get("/api/league").json()["recent"]:
        assert client.get(g["link"]).status_code == 200
    assert client.get("/api/league/bot", params={"name": "nobody"}).status_code == 404


def test_a_contestant_uploads_a_new_version_with_its_token_only(folder, client) -> None:
    amy = league(folder, "token", "amy").strip()
    bob = league(folder, "token", "bob").strip()
    assert amy not in (folder / "l.db").read_bytes().decode("latin-1")  # its hash only
    source = GREEDY.read_text() + "# v2\n"

    def upload(**fields):
        body = {"name": "amy", "token": amy, "filename": "amy.py", "source": source, **fields}
        return client.post("/api/league/upload", json=body)

    before = (members(folder), sorted(p.name for p in (folder / "l.db.league").rglob("*")))
    for fields, status in [({"token": "x" * 43}, 403), ({"token": None}, 403),
                           ({"token": bob}, 403),  # another contestant's token
                           ({"name": "bob"}, 403),  # amy's token for bob
                           ({"name": "carol"}, 403),
                           ({"source": "x" * (MAX_SOURCE + 1)}, 413),
                           ({"filename": "amy.xyz"}, 422),
                           ({"filename": "../amy.py"}, 400),
                           ({"source": 3}, 400)]:
        r = upload(**fields)
        assert r.status_code == status, (fields, r.text)
        assert "error" in r.json() and "Traceback" not in r.text
    body = {"name": "amy", "token": amy, "filename": "amy.py", "source": source}
    foreign = client.post("/api/league/upload", content=json.dumps(body),
                          headers={"content-type": "application/json",
                                   "origin": "http://evil.example"})
    assert foreign.status_code == 403
    plain = client.post("/api/league/upload", content=json.dumps(body),
                        headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    after = (members(folder), sorted(p.name for p in (folder / "l.db.league").rglob("*")))
    assert after == before  # nothing added
    r = upload()
    assert r.status_code == 201, r.text
    assert r.json() == {"added": "amy v2", "retired": ["amy v1"]}
    league(folder, "play", "--games", "8", "--jobs", "1")
    rows = {r["label"]: r for r in client.get("/api/league").json()["leaderboard"]}
    assert rows["amy v2"]["games"] > 0 and "amy v1" not in rows


def test_no_answer_of_the_app_shows_a_bot_source(folder, client) -> None:
    paths = ["/", "/league", "/api/league", "/api/league/bot?name=amy",
             "/api/league/bot?name=bob", "/api/runs", "/static/league.js",
             "/static/..%2Fl.db.league/amy/v1/amy.py", "/l.db.league/amy/v1/amy.py"]
    games = client.get("/api/league").json()["games"]
    paths += [f"/api/runs/1/games/{n}" for n in range(1, games + 1)]
    paths += [f"/run/1/game/{n}" for n in range(1, games + 1)]
    for path in paths:
        r = client.get(path)
        assert SECRET not in r.text and "def choose" not in r.text, path


def test_no_answer_of_the_league_s_api_names_where_the_server_keeps_its_programs(
        folder, client) -> None:
    """The board and a bot's history name versions, not the server's copies of their files
    (l.db.league/amy/v1/amy.py: its folders, a contestant's file name)."""
    for path in ["/api/league", "/api/league/bot?name=amy", "/api/league/bot?name=bob"]:
        r = client.get(path)
        assert r.status_code == 200 and "l.db.league" not in r.text, (path, r.text)
        assert str(folder) not in r.text and "amy.py" not in r.text, path


@pytest.fixture
def made_up(tmp_path: Path) -> Path:
    """A league of two rated levels whose 30 games were stored out of their order (each
    its number as its start, so that the viewer's game tells which it is)."""
    import random

    from judge.cli import main
    from judge.records import PlayedGame
    from judge.store import Store

    db = str(tmp_path / "l.db")
    assert main(["league", "new", "--game", "nim", "--db", db]) == 0
    for level in ("level:3", "level:6"):
        assert main(["league", "add", "--anchor", level, "--unpinned", "--db", db]) == 0
    rng = random.Random(5)
    numbers = list(range(1, 31))
    rng.shuffle(numbers)
    with Store(db) as store:
        for n in numbers:
            key = f"{n}|level:3|level:6|{n}"
            store.add_game(1, key, PlayedGame("nim misere=off", str(n), ("level:3", "level:6"),
                                              key=key, results=rng.choice([("win", "loss"),
                                                                           ("loss", "win")])))
    return tmp_path


def test_the_page_and_league_show_rate_the_games_alike(made_up: Path, capsys) -> None:
    from judge.cli import main
    from judge.web.league import LeagueView

    web = LeagueView(made_up / "l.db").board()["leaderboard"]
    capsys.readouterr()
    assert main(["league", "show", "--format", "json", "--db", str(made_up / "l.db")]) == 0
    shown = json.loads(capsys.readouterr().out)["leaderboard"]
    assert [(r["label"], r["mu"], r["sigma"]) for r in web] == \
        [(r["label"], r["mu"], r["sigma"]) for r in shown]


def test_each_game_the_page_names_opens_in_the_viewer_as_that_game(made_up: Path) -> None:
    app = create_app(Served(db=made_up / "l.db"))
    with TestClient(app, raise_server_exceptions=False, base_url=HERE) as client:
        board = client.get("/api/league").json()
        named = [(g["game"], g["link"]) for g in board["recent"]]
        named += [(step["game"], step["link"]) for step in client.get(
            "/api/league/bot", params={"name": "level:3"}).json()["versions"][0]["history"]]
        for number, link in named:
            assert link == f"/run/1/game/{number}"
            game = client.get(f"/api/runs/1/games/{number}").json()
            assert game["number"] == number and game["start"] == str(number)


def test_the_viewer_names_a_league_game_s_players_as_the_page_does(tmp_path: Path) -> None:
    """Two contestants who both hand in a main.py: the viewer of each game the page lists
    names its seats as the page does (amy v1, bob v1), not both main.py."""
    (tmp_path / "starts.txt").write_text("1 2 4\n2 3\n")
    league(tmp_path, "new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
    for name in ("amy", "bob"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.py").write_text(GREEDY.read_text())
        league(tmp_path, "add", name, f"{name}/main.py")
    league(tmp_path, "play", "--games", "4", "--jobs", "1")
    app = create_app(Served(db=tmp_path / "l.db"))
    with TestClient(app, raise_server_exceptions=False, base_url=HERE) as client:
        recent = client.get("/api/league").json()["recent"]
        assert len(recent) == 4
        for g in recent:
            game = client.get(f"/api/runs/1/games/{g['game']}").json()
            assert game["players"] == g["players"], g
            assert game["results"] == g["results"]


def test_an_app_given_no_way_to_add_a_version_takes_no_upload(made_up: Path) -> None:
    body = {"name": "amy", "token": "t", "filename": "amy.py", "source": "print(1)\n"}
    with TestClient(create_app(Served(db=made_up / "l.db")), base_url=HERE) as client:
        answer = client.post("/api/league/upload", json=body)
    assert answer.status_code == 404 and "takes no uploads" in answer.json()["error"]


def test_an_anchor_added_later_leaves_the_page_and_league_show_alike(tmp_path: Path,
                                                                     capsys) -> None:
    import random

    from judge.cli import main
    from judge.records import PlayedGame
    from judge.store import Store
    from judge.web.league import LeagueView

    db = str(tmp_path / "l.db")
    rng = random.Random(7)

    def games(pairs: list[tuple[str, str]]) -> None:
        with Store(db) as store:
            first = len(store.games(1)) + 1
            for n, (a, b) in enumerate(pairs, first):
                key = f"{n}|{a}|{b}|1 2"
                store.add_game(1, key, PlayedGame("nim misere=off", "1 2", (a, b), key=key,
                                                  results=rng.choice([("win", "loss"),
                                                                      ("loss", "win")])))

    assert main(["league", "new", "--game", "nim", "--db", db]) == 0
    for anchor in ("optimal", "level:5"):
        assert main(["league", "add", "--anchor", anchor, "--db", db]) == 0
    assert main(["league", "add", "--anchor", "level:3", "--unpinned", "--db", db]) == 0
    games([("optimal", "level:5")] * 40 + [("level:3", "level:5")] * 20)
    view = LeagueView(Path(db))
    view.board()  # the page has read the league before level:8 came
    assert main(["league", "add", "--anchor", "level:8", "--db", db]) == 0
    games([("level:8", "optimal")] * 40 + [("level:8", "level:5")] * 40
          + [("level:3", "level:8")] * 20)
    view.refresh()  # (as a poll a second later does)
    web = view.board()["leaderboard"]
    capsys.readouterr()
    assert main(["league", "show", "--format", "json", "--db", db]) == 0
    shown = json.loads(capsys.readouterr().out)["leaderboard"]
    assert [(r["label"], r["mu"], r["sigma"]) for r in web] == \
        [(r["label"], r["mu"], r["sigma"]) for r in shown]
