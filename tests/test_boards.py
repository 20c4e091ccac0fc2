"""Each game draws its board with one renderer, the board.js of its package: the HTML report
inlines it and the browser app serves it, the very same source, and a game without one (its
board hooks left at their defaults) is shown as its own text in both."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from starlette.testclient import TestClient  # noqa: E402

from judge.games import GAMES, load_game  # noqa: E402
from judge.games.base import Game  # noqa: E402
from judge.games.drawing import kit_script  # noqa: E402
from judge.html.boards import board_meta, drawable  # noqa: E402
from judge.html.report import render_report  # noqa: E402
from judge.store import Store  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.sessions import Served  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HERE = "http://127.0.0.1:8000"
#: the report page's one script: the kit, the game's renderer, the viewer
INLINE = re.compile(r"<script>(.*?)</script>", re.S)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, str]:
    """The HTML report of a short stored match (two computer players, two games) of every
    installed game."""
    tmp = tmp_path_factory.mktemp("boards")
    pages = {}
    for name in GAMES:
        db = tmp / f"{name}.db"
        out = subprocess.run([sys.executable, "-m", "judge", "match", "--game", name,
                              "--max-games", "2", "--seed", "1", "--db", str(db),
                              "level:3", "level:0"],
                             capture_output=True, text=True, timeout=600, cwd=tmp)
        assert out.returncode in (0, 3), out.stderr
        pages[name] = render_report(Store(db, read_only=True), 1)
    return pages


@pytest.fixture(scope="module")
def client():
    served = Served(bots=ROOT / "bots" / "nim")
    with TestClient(create_app(served), raise_server_exceptions=False, base_url=HERE) as c:
        yield c


def served_scripts(client, page: str) -> list[str]:
    """The text of every same-origin script a page of the app loads, in order."""
    return [client.get(src).text for src in re.findall(r'<script src="([^"]+)"></script>', page)]


def test_the_report_and_the_app_draw_every_game_with_the_same_renderer(reports, client):
    kit = kit_script()
    assert client.get("/boards.js").text == kit
    for name in GAMES:
        game = load_game(name)
        own = game.board_script()
        inline = INLINE.findall(reports[name])
        assert len(inline) == 1, name
        script = inline[0]
        play = client.get(f"/play/{name}")
        assert play.status_code == 200, play.text
        served = served_scripts(client, play.text)
        # the kit first, then the game's renderer, then the page's own scripts
        assert script.startswith(kit) and served[0] == kit, name
        viewer = script.index("window.judgeViewer")
        if own is None:
            assert client.get(f"/boards/{name}.js").status_code == 404
            assert ".register(" not in script[len(kit):viewer], name
            continue
        assert ".register(" + json.dumps(name) + "," in own, name  # registers itself
        after_kit = script[len(kit):viewer].lstrip("\n")
        assert after_kit.startswith(own), name
        assert client.get(f"/boards/{name}.js").text == own
        assert own in served, name
        meta = json.loads(re.search(r'<script type="application/json" id="report-meta">(.*?)'
                                    r"</script>", reports[name], re.S).group(1))["board"]
        api = {g["game"]: g["meta"] for g in client.get("/api/games").json()["games"]}
        assert meta == api[name] == board_meta(game) and meta["game"] == name


def test_the_play_and_watch_pages_load_every_drawn_games_renderer(client):
    """A play page may open a record of another game: it loads every renderer."""
    drawn = [name for name in GAMES if load_game(name).board_script() is not None]
    assert {"ioiwari", "nim", "chopsticks"} <= set(drawn)
    for path in ("/play/nim", "/watch/nim?bot=greedy.py"):
        page = client.get(path).text
        loaded = re.findall(r'<script src="/boards/([^"]+)\.js"></script>', page)
        assert loaded == drawn, path


class Bare(Game[int, int]):
    """A game of only the abstract methods: take 1 or 2 from a pile, who takes the last wins."""

    name = "bare"

    def start(self) -> int:
        return 4

    def standard_starts(self) -> list[int]:
        return [4]

    def parse_position(self, text: str) -> int:
        return int(text)

    def format_position(self, pos: int) -> str:
        return str(pos)

    def mover(self, pos: int) -> int:
        return 0

    def legal_moves(self, pos: int) -> list[int]:
        return [m for m in (1, 2) if m <= pos]

    def play(self, pos: int, move: int) -> int:
        return pos - move

    def is_over(self, pos: int) -> bool:
        return pos == 0

    def winner(self, pos: int) -> int | None:
        return 1

    def wire_start(self, pos: int) -> list[str]:
        return [str(pos)]

    def parse_move(self, line: str, pos: int) -> int:
        return int(line)

    def format_move(self, move: int, pos: int) -> str:
        return str(move)

    def render(self, pos: int) -> str:
        return f"pile of {pos}"


def test_a_game_with_only_the_abstract_methods_is_drawn_as_its_text():
    game = Bare()
    assert game.board_script() is None
    assert board_meta(game) == {"game": "bare", "text": True}
    assert drawable(game, 3) == {"text": "pile of 3", "over": 0}
    assert drawable(game, 0) == {"text": "pile of 0", "over": 1}


def test_a_game_without_a_drawing_is_shown_as_text_in_the_report_and_the_app(reports, client):
    game = load_game("octal")
    assert game.board_script() is None
    page = reports["octal"]
    meta = json.loads(re.search(r'<script type="application/json" id="report-meta">(.*?)'
                                r"</script>", page, re.S).group(1))["board"]
    assert meta == {"game": "octal", "text": True}
    first = json.loads(re.search(r'<script type="application/json" id="game-1">(.*?)</script>',
                                 page, re.S).group(1))
    start = game.parse_position(first["s"])
    assert first["b"]["text"][0] == game.render(start) and set(first["b"]) == {"text", "over"}
    state = client.post("/api/sessions", json={"game": "octal", "opponent": "human"}).json()
    assert state["meta"] == meta
    assert state["board"] == {"text": game.render(game.start()), "over": 0}
    assert all(m["control"] == {} for m in state["moves"])
    assert client.get("/boards/octal.js").status_code == 404
