"""The browser app against requests for games too big to answer at once: an octal game of
huge heaps, a game whose solver finds too many positions (Connect Four on a large board, a
game without a browser limit of its own). Each is refused with a clear 4xx, not a failure
of the app (docs/web.md: "no request solves for long"), and a game once found too big is
not searched again."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from starlette.testclient import TestClient  # noqa: E402

import judge.solvers  # noqa: E402
from judge.games import load_game  # noqa: E402
from judge.games import octal as octal_module  # noqa: E402
from judge.solvers import generic  # noqa: E402
from judge.solvers.generic import GenericSolver  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.sessions import Served  # noqa: E402

HERE = "http://127.0.0.1:8000"


@pytest.fixture
def client():
    with TestClient(create_app(Served()), raise_server_exceptions=False,
                    base_url=HERE) as c:
        yield c


def refused(response, status: int, words: str) -> None:
    """A clear JSON refusal naming the fault, not a failure of the app."""
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


@pytest.mark.parametrize("position", ["10000", "301", " ".join(["20"] * 20)])
def test_an_octal_position_too_big_for_the_browser_is_refused_before_its_values(
        client, monkeypatch, position):
    def grundy_values(code, upto):
        raise AssertionError("the Grundy values were computed")

    monkeypatch.setattr(octal_module, "grundy_values", grundy_values)
    refused(client.get("/api/values", params={"game": "octal", "rules": "code=0.4444",
                                              "position": position}), 413, "browser")


def test_a_small_octal_position_is_answered_with_its_values(client):
    answer = client.get("/api/values", params={"game": "octal", "position": "10 7"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["grundy"] == load_game("octal").grundy(
        load_game("octal").parse_position("10 7"))


def test_a_game_with_too_many_positions_is_refused_with_413_once_and_not_searched_again(
        client, monkeypatch):
    """A game with no browser limit of its own (as a plugin may be): its solver's refusal
    is a 413 with the solver's words, not a failure of the app, and the next request for
    the same rules is refused without a second search."""
    game = load_game("connect4", "rows=3 cols=3 connect=3")
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)  # nothing on disk
    monkeypatch.setitem(judge.solvers._cache, game.describe(), GenericSolver(game, limit=10))
    searches = []
    search = GenericSolver._search

    def counted(self, *args, **kwargs):
        searches.append(1)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(GenericSolver, "_search", counted)
    query = {"game": "connect4", "rules": "rows=3 cols=3 connect=3"}
    refused(client.get("/api/values", params=query), 413, "too many to solve")
    assert searches == [1]
    refused(client.get("/api/values", params=query), 413, "too many to solve")
    refused(client.post("/api/sessions", json={**query, "opponent": "optimal"}), 413,
            "too many to solve")
    refused(client.post("/api/sessions", json={**query, "values": True}), 413,
            "too many to solve")
    assert searches == [1]
    assert not client.app.state.sessions._games  # a refused game is not kept


def test_two_people_play_a_board_too_big_to_solve_and_its_values_are_refused_not_failed(
        client, monkeypatch):
    """Connect Four on 6x7 is drawn and played by two people; asking for its values is
    refused by the solver (413), not a failure of the app."""
    game = load_game("connect4", "rows=2 cols=3 connect=2")
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)
    monkeypatch.setitem(judge.solvers._cache, game.describe(), GenericSolver(game, limit=5))
    state = client.post("/api/sessions", json={"game": "connect4",
                                               "rules": "rows=2 cols=3 connect=2"})
    assert state.status_code == 201, state.text
    sid = state.json()["id"]
    moved = client.post(f"/api/sessions/{sid}/move", json={"move": "2"})
    assert moved.status_code == 200 and moved.json()["position"] == ".../.x."
    refused(client.post(f"/api/sessions/{sid}/options", json={"values": True}), 413,
            "too many to solve")
    refused(client.get(f"/api/sessions/{sid}/hint"), 413, "too many to solve")
    moved = client.post(f"/api/sessions/{sid}/move", json={"move": "2"})
    assert moved.status_code == 200 and moved.json()["position"] == ".o./.x."


def test_a_game_past_the_solver_memory_is_refused_with_413_naming_the_setting(
        client, monkeypatch):
    """Tic-tac-toe, rules in Python, searched under a 1K budget: its values and a computer
    opponent are refused with the solver's one line, which says what to set; no second
    search."""
    game = load_game("tictactoe")
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "1K")
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)
    monkeypatch.setitem(judge.solvers._cache, game.describe(), GenericSolver(game))
    searches = []
    search = GenericSolver._search

    def counted(self, *args, **kwargs):
        searches.append(1)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(GenericSolver, "_search", counted)
    query = {"game": "tictactoe"}
    refused(client.get("/api/values", params=query), 413, "set JUDGE_SOLVER_MEMORY to allow more")
    refused(client.post("/api/sessions", json={**query, "opponent": "optimal"}), 413,
            "needs more than")
    assert searches == [1]


@pytest.mark.parametrize("rules", ["rows=6 cols=7", "rows=1 cols=42", "rows=2 cols=10"])
def test_a_connect_four_board_too_big_to_solve_is_refused_before_any_search(
        client, monkeypatch, rules):
    """Its values, a hint, a computer opponent and a watched game are refused at once (the
    game's `solve_limit`: no search runs, whatever the rules), and two people still play."""
    def explore(self, *args, **kwargs):
        raise AssertionError("a search ran")

    monkeypatch.setattr(GenericSolver, "explore", explore)
    query = {"game": "connect4", "rules": rules}
    refused(client.get("/api/values", params=query), 413, "too many to solve while you wait")
    refused(client.post("/api/sessions", json={**query, "values": True}), 413, "positions")
    for opponent in ("optimal", "tricky", "level:3"):
        refused(client.post("/api/sessions", json={**query, "opponent": opponent}), 413,
                "positions")
    state = client.post("/api/sessions", json=query)
    assert state.status_code == 201, state.text
    sid = state.json()["id"]
    refused(client.get(f"/api/sessions/{sid}/hint"), 413, "positions")
    refused(client.post(f"/api/sessions/{sid}/options", json={"values": True}), 413,
            "positions")
    assert client.post(f"/api/sessions/{sid}/move", json={"move": "1"}).status_code == 200


def test_the_largest_connect_four_boards_the_browser_solves_are_allowed() -> None:
    for rules in ("rows=4 cols=5", "rows=5 cols=4", "rows=3 cols=6", "rows=1 cols=15"):
        game = load_game("connect4", rules)
        assert game.solve_limit(game.start()) is None, rules
