"""The browser app's HTTP API (docs/web.md): every route, hostile requests answered with a
clear 4xx, separate games, the idle timeout, and a small load on a real server."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from starlette.testclient import TestClient  # noqa: E402
from webserver import BOTS, serving, stored_run  # noqa: E402

from judge.games import load_game  # noqa: E402
from judge.sandbox import Limits  # noqa: E402
from judge.solvers import solver_for  # noqa: E402
from judge.web.app import MAX_BODY, create_app  # noqa: E402
from judge.web.sessions import MAX_TEXT, Served, Sessions, WebError  # noqa: E402

FAST = Limits(first_move_seconds=20.0, move_seconds=5.0)
#: the app as a browser on this machine reaches it (the guard answers loopback names only)
HERE, WS = "http://127.0.0.1:8000", "ws://127.0.0.1:8000"
#: the type every request with a body declares
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return stored_run(tmp_path_factory.mktemp("web-db"))


@pytest.fixture(scope="module")
def client(db):
    served = Served(bots=BOTS / "nim", limits=FAST, db=db)
    with TestClient(create_app(served), raise_server_exceptions=False, base_url=HERE) as c:
        yield c


def create(client, **body) -> dict:
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 201, r.text
    return r.json()


#: a new game against a bot of the served folder
BOT_GAME = {"game": "nim", "position": "5 5 5", "opponent": "greedy.py"}


def nim_bots_served() -> TestClient:
    """A client of an app serving the Nim bots, that answers the app's failures too."""
    return TestClient(create_app(Served(bots=BOTS / "nim", limits=FAST)),
                      raise_server_exceptions=False, base_url=HERE)


def refused(response, status: int, words: str) -> None:
    """A clear JSON refusal: the status, an error message naming the fault, no traceback."""
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert words in error
    assert "Traceback" not in response.text


# --- every route ----------------------------------------------------------------------------

def test_the_pages_are_served_with_their_assets_and_nothing_from_the_network(client):
    for path in ("/", "/play/nim?values=on&opponent=optimal", "/play/chopsticks?rules=hands%3D2",
                 "/watch/nim?bot=greedy.py", "/run/1/game/1?move=2"):
        r = client.get(path)
        assert r.status_code == 200, (path, r.text)
        assert "http://" not in r.text and "https://" not in r.text
    for asset in ("app.css", "board.js", "play.js", "watch.js", "index.js"):
        r = client.get(f"/static/{asset}")
        assert r.status_code == 200
        assert "http://" not in r.text.replace("http://www.w3.org/2000/svg", "")


def test_the_games_route_lists_each_game_its_rules_and_the_served_bots(client):
    data = client.get("/api/games").json()
    from judge.games import GAMES

    assert [g["game"] for g in data["games"]] == list(GAMES)  # every installed game
    assert {"ioiwari", "nim", "chopsticks", "tictactoe"} <= set(GAMES)
    assert "greedy.py" in data["bots"] and "optimal_misere.py" in data["bots"]


def test_values_are_the_solvers_for_every_move(client):
    data = client.get("/api/values", params={"game": "nim", "rules": "misere=on",
                                              "position": "1 2 3"}).json()
    game = load_game("nim", "misere=on")
    pos = game.parse_position("1 2 3")
    solver = solver_for(game)
    words = {"win": "win", "loss": "lose"}
    expected = {game.format_move(m.move, pos): (words[m.value], m.remoteness)
                for m in solver.move_values(pos)}
    assert {m["move"]: (m["value"], m["remoteness"]) for m in data["moves"]} == expected
    assert data["value"] == words[solver.evaluate(pos).value]


def test_ioiwari_values_count_the_banks_and_chopsticks_gives_the_outcome_class(client):
    io = client.get("/api/values", params={"game": "ioiwari",
                                            "position": "0 0 0 0 0 0 1 | 3 3 2"}).json()
    assert io["to_move"] == 2 and io["difference"] == -1 and io["value"] == "lose"
    ch = client.get("/api/values", params={"game": "chopsticks"}).json()
    assert ch["outcome"] == "P" and ch["value"] == "lose" and ch["remoteness"] == 14
    tie = client.get("/api/values", params={"game": "ioiwari",
                                             "position": "0 0 0 0 0 0 1 | 4 3 1"}).json()
    assert tie["moves"][0]["value"] == "tie"  # the last bead goes to the opponent: 4-4


def test_the_server_keeps_a_bounded_number_of_solved_variants_and_tables(client):
    import judge.solvers as solvers
    from judge.games.chopsticks.solver import TABLES_KEPT

    def values(rules: str, position: str = "") -> dict:
        r = client.get("/api/values", params={"game": "chopsticks", "rules": rules,
                                              "position": position})
        assert r.status_code == 200, r.text
        return r.json()

    variants = [f"hands=2 fingers={f}" for f in range(3, 3 + solvers.KEPT + 4)]
    first = values(variants[0])
    for rules in variants[1:]:
        values(rules)
    assert len(solvers._cache) <= solvers.KEPT
    assert not any("fingers=3 " in key for key in solvers._cache)  # the oldest went
    assert values(variants[0]) == first  # and is read again as it was
    # one variant, positions of many shapes (hand counts): a table each, a few kept
    shapes = ["(1 | 1)", "(1 1 | 1)", "(1 1 | 1 1)", "(1 1 1 | 1)", "(1 1 1 | 1 1)",
              "(1 1 1 1 | 1)", "(1 1 1 1 | 1 1)"]
    answers = [values("fingers=4", shape) for shape in shapes]
    solver = solver_for(load_game("chopsticks", "fingers=4"))
    assert len(solver._tables) <= TABLES_KEPT < len(shapes)
    assert values("fingers=4", shapes[0]) == answers[0]


def test_a_game_against_optimal_plays_undoes_redoes_goes_back_and_ends(client):
    s = create(client, game="nim", position="1 2", opponent="optimal", values=True)
    sid = s["id"]
    assert s["your_turn"] and s["players"] == ["you", "optimal"]
    s = client.post(f"/api/sessions/{sid}/move", json={"move": "2 1"}).json()
    assert len(s["history"]) == 3  # your move, the reply, and the position now
    assert client.get(f"/api/sessions/{sid}/hint").json()["moves"]
    s = client.post(f"/api/sessions/{sid}/undo").json()
    assert s["position"] == "1 2" and s["can_redo"]
    s = client.post(f"/api/sessions/{sid}/redo").json()
    assert len(s["history"]) == 3
    s = client.post(f"/api/sessions/{sid}/goto", json={"ply": 1}).json()
    assert s["to_move"] == 2 and not s["your_turn"]
    s = client.post(f"/api/sessions/{sid}/advance").json()
    assert s["your_turn"]
    while not s["over"]:
        s = client.post(f"/api/sessions/{sid}/move", json={"move": s["moves"][0]["move"]}).json()
    assert s["result"] == "1" and s["moves"] == []  # (1 1) was lost for the optimal player
    refused(client.post(f"/api/sessions/{sid}/move", json={"move": "1 1"}), 409, "over")
    s = client.post(f"/api/sessions/{sid}/options", json={"values": False}).json()
    assert "value" not in s
    assert client.delete(f"/api/sessions/{sid}").status_code == 200
    refused(client.get(f"/api/sessions/{sid}"), 410, "closed")


def test_two_people_at_one_screen_and_a_weaker_level(client):
    s = create(client, game="chopsticks", rules="hands=2", opponent="human")
    s = client.post(f"/api/sessions/{s['id']}/move", json={"move": "1 1"}).json()
    assert s["your_turn"] and s["to_move"] == 2 and s["players"] == ["player 1", "player 2"]
    s = create(client, game="ioiwari", opponent="level:0", seat=2)
    assert s["players"][0] == "level:0" and len(s["history"]) == 2


def test_a_bot_of_the_served_folder_plays_confined_and_cannot_take_back(client):
    s = create(client, game="nim", position="3 4 5", opponent="greedy.py")
    sid = s["id"]
    refused(client.post(f"/api/sessions/{sid}/undo"), 409, "cannot take a move back")
    while not s["over"]:
        s = client.post(f"/api/sessions/{sid}/move", json={"move": s["moves"][-1]["move"]}).json()
    assert s["result"] in ("1", "2") and s["verdict"] is None


def test_a_stale_or_repeated_move_is_refused_and_plays_nothing_twice(client):
    s = create(client, game="nim", position="5 5 5", opponent="human")
    move = f"/api/sessions/{s['id']}/move"
    assert s["ply"] == 0
    s = client.post(move, json={"move": "3 1", "ply": 0}).json()
    assert s["position"] == "5 5 4" and s["ply"] == 1
    refused(client.post(move, json={"move": "3 1", "ply": 0}), 409, "moved on")  # replayed
    assert client.get(f"/api/sessions/{s['id']}").json()["position"] == "5 5 4"
    refused(client.post(move, json={"move": "3 1", "ply": "1"}), 400, "whole number")
    # against the computer: the reply moves the count on, a replayed move is refused
    s = create(client, game="nim", position="5 5 5", opponent="optimal")
    sid = s["id"]
    s = client.post(f"/api/sessions/{sid}/move", json={"move": "1 1", "ply": 0}).json()
    assert s["ply"] == 2 and s["last"]["by"] == "optimal" and s["last"]["seat"] == 2
    refused(client.post(f"/api/sessions/{sid}/move", json={"move": "1 1", "ply": 0}), 409,
            "moved on")
    for step in ("undo", "redo", "advance"):
        refused(client.post(f"/api/sessions/{sid}/{step}", json={"ply": 5}), 409, "moved on")
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 2
    s = client.post(f"/api/sessions/{sid}/undo", json={"ply": 2}).json()
    assert s["ply"] == 0 and s["last"] is None


def test_the_last_move_and_the_hint_are_given_with_their_board_parts_and_labels(client):
    s = create(client, game="chopsticks", rules="hands=2", opponent="optimal")
    s = client.post(f"/api/sessions/{s['id']}/move", json={"move": "1 2", "ply": 0}).json()
    last = s["last"]
    assert last["ply"] == 2 and last["seat"] == 2 and last["by"] == "optimal"
    game = load_game("chopsticks", "hands=2")
    before = game.parse_position(s["history"][1]["position"])
    assert last["move"] == s["history"][1]["move"] and last["label"] == s["history"][1]["label"]
    assert last["control"] == {"hand": [1, game.parse_move(last["move"], before)[1]],
                               "target": [0, game.parse_move(last["move"], before)[2]]}
    hint = client.get(f"/api/sessions/{s['id']}/hint").json()
    pos = game.parse_position(s["position"])
    best = solver_for(game).evaluate(pos).best_moves
    assert hint["moves"] == [game.format_move(m, pos) for m in best]
    assert hint["labels"] == [game.move_label(m, pos) for m in best] and hint["ply"] == 2
    assert all(">" in label for label in hint["labels"])  # the page's notation: L1>R2


def test_ioiwari_gives_each_moves_own_final_score_difference(client):
    game = load_game("ioiwari")
    solver = solver_for(game)
    pos = game.start()
    seen = set()
    while not game.is_over(pos):  # along a game, every move of every position
        data = client.get("/api/values", params={"game": "ioiwari",
                                                 "position": game.format_position(pos)}).json()
        score = game.score(pos)
        mover = game.mover(pos)
        lead = score[mover] - score[1 - mover]
        for entry, mv in zip(data["moves"], solver.move_values(pos), strict=True):
            assert entry["move"] == game.format_move(mv.move, pos)
            assert entry["difference"] == mv.value
            assert entry["final_difference"] == lead + mv.value
            sign = (lead + mv.value > 0) - (lead + mv.value < 0)
            assert entry["value"] == {1: "win", 0: "tie", -1: "lose"}[sign]
            seen.add(entry["final_difference"])
        assert data["final_difference"] == lead + solver.evaluate(pos).value
        assert data["final_difference"] == max(e["final_difference"] for e in data["moves"])
        pos = game.play(pos, solver.move_values(pos)[-1].move)
    assert len(seen) > 3  # moves of one position differ: each has its own


def test_a_game_opens_from_its_address_with_its_moves_played(client):
    page = client.get("/play/nim", params={"position": "5 5 5", "moves": "1 1,2 2",
                                          "opponent": "human"})
    assert page.status_code == 200 and '"moves": ["1 1", "2 2"]' in page.text
    for moves, status, words in (("1 1,9 9", 400, "move 2"), ("1 6", 400, "move 1"),
                                 ("x" * 9000, 413, "characters long"),
                                 (",".join(["1 1"] * 1001), 400, "at most")):
        r = client.get("/play/nim", params={"position": "5 5 5", "moves": moves})
        assert r.status_code == status and words in r.text and "Traceback" not in r.text
        r = client.post("/api/sessions", json={"game": "nim", "position": "5 5 5",
                                               "moves": moves.split(",")})
        refused(r, status, words)
    refused(client.post("/api/sessions", json={"game": "nim", "moves": 5}), 400, "list")
    s = create(client, game="nim", position="5 5 5", moves=["1 1", "2 2"], opponent="optimal")
    assert s["position"] == "4 3 5" and s["ply"] == 2 and s["your_turn"]
    s = create(client, game="nim", position="5 5 5", moves=["1 1"], opponent="optimal")
    assert s["ply"] == 2 and s["your_turn"]  # the computer's turn: it replies
    s = create(client, game="nim", position="5 5 5", moves=["1 1", "2 2"], opponent="optimal",
               seat=2)
    assert s["ply"] == 3 and s["history"][0]["move"] == "1 1"
    refused(client.post("/api/sessions", json={"game": "nim", "position": "3 4 5",
                                               "moves": ["1 1"], "opponent": "greedy.py"}),
            400, "bot")
    r = client.get("/play/nim", params={"position": "3 4 5", "moves": "1 1",
                                        "opponent": "greedy.py"})
    assert r.status_code == 400 and "bot" in r.text


def test_hundreds_of_reloads_never_find_the_server_full():
    """A client reloading its page (each load a new game, the old one never ended) ends the
    games left alone longest instead of being refused: no 503."""
    from judge.web.sessions import MAX_SESSIONS

    with TestClient(create_app(Served(limits=FAST)), base_url=HERE) as c:
        first = create(c, game="nim", position="5 5 5", opponent="optimal")
        for i in range(300):
            assert c.get("/play/nim", params={"position": "5 5 5"}).status_code == 200
            r = c.post("/api/sessions", json={"game": ("nim", "ioiwari")[i % 2],
                                              "opponent": "optimal", "values": True})
            assert r.status_code == 201, (i, r.text)
        assert len(c.app.state.sessions) == MAX_SESSIONS
        refused(c.get(f"/api/sessions/{first['id']}"), 410, "its link opens it again")
        # ended from a closing page: a POST with a JSON body, as fetch(keepalive) sends it
        last = r.json()["id"]
        assert c.post(f"/api/sessions/{last}/end", json={},
                      headers={"origin": HERE}).status_code == 200
        refused(c.get(f"/api/sessions/{last}"), 410, "closed")


def test_the_pages_have_a_title_an_icon_and_every_level(client):
    page = client.get("/").text
    assert 'value="level:10"' in page and 'rel="icon"' in page
    assert "<title>play, watch, replay · judge</title>" in page
    assert "<title>nim: play · judge</title>" in client.get("/play/nim").text


def test_two_browsers_keep_separate_games(client):
    a = create(client, game="nim", position="5 5", opponent="human")
    b = create(client, game="nim", position="5 5", opponent="human")
    assert a["id"] != b["id"] and len(a["id"]) >= 20
    client.post(f"/api/sessions/{a['id']}/move", json={"move": "1 5"})
    assert client.get(f"/api/sessions/{b['id']}").json()["position"] == "5 5"
    assert client.get(f"/api/sessions/{a['id']}").json()["position"] == "0 5"


def test_a_stored_game_opens_at_a_move_numbered_as_judge_show_numbers_it(client):
    runs = client.get("/api/runs").json()["runs"]
    assert runs[0]["games"] == 2
    stored = client.get("/api/runs/1/games/2").json()
    assert stored["start"] == "2 5 6" and stored["players"][0] == "greedy.py"
    s = create(client, run=1, number=2, move=1, values=True)
    assert len(s["history"]) == 2 and s["can_redo"]
    s = client.post(f"/api/sessions/{s['id']}/redo").json()
    assert s["history"][1]["move"] == stored["moves"][1]
    refused(client.get("/api/runs/1/games/3"), 404, "2 stored games")
    refused(client.get("/api/runs/9/games/1"), 404, "no run 9")


def test_a_stored_game_opens_at_its_end_with_its_players_and_result(client):
    import json
    import re

    stored = client.get("/api/runs/1/games/2").json()
    page = client.get("/run/1/game/2").text
    config = json.loads(re.search(r'<script[^>]*id="config"[^>]*>(.*?)</script>', page,
                                  re.S).group(1))
    assert config["stored"]["move"] == len(stored["moves"])  # its end, not move 0
    s = create(client, run=1, number=2)
    assert s["ply"] == len(stored["moves"]) and s["over"]
    assert s["players"] == stored["players"]  # greedy.py and optimal, not player 1 and 2
    winner = stored["results"].index("win") + 1
    assert s["result"] == str(winner)
    back = create(client, run=1, number=2, move=0)  # stepped back: the same names
    assert back["players"] == stored["players"] and not back["over"]


def test_a_stored_game_names_the_perfect_player_as_the_run_s_opponent(tmp_path):
    """A grading run against `--opponent tricky`: the viewer names that seat tricky, as the
    run played it, not optimal."""
    import subprocess
    import sys

    (tmp_path / "starts.txt").write_text("3 4 5\n")
    out = subprocess.run([sys.executable, "-m", "judge", "run", "--game", "nim", "--db",
                          str(tmp_path / "r.db"), "--tests", str(tmp_path / "starts.txt"),
                          "--opponent", "tricky", str(BOTS / "nim" / "greedy.py")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    with TestClient(create_app(Served(db=tmp_path / "r.db")), base_url=HERE) as c:
        stored = c.get("/api/runs/1/games/1").json()
    assert sorted(stored["players"]) == ["greedy.py", "tricky"]


def test_a_stored_game_a_bot_lost_by_a_failure_ends_there_with_it():
    from judge.records import Verdict
    from judge.web.sessions import Recorded

    crash = Verdict("crash", "the bot exited with status 3", 1)
    sessions = Sessions(Served(limits=FAST))
    ended = sessions.create("nim", "", "3 4 5", moves=["3 5"], at=1,
                            recorded=Recorded(("a.py", "b.py"), crash)).state()
    assert ended["over"] and ended["result"] == "1"  # b.py crashed: a.py wins
    assert ended["verdict"]["code"] == "crash" and "status 3" in ended["end"]
    before = sessions.create("nim", "", "3 4 5", moves=["3 5"], at=0,
                             recorded=Recorded(("a.py", "b.py"), crash)).state()
    assert not before["over"] and before["result"] is None
    assert before["players"] == ["a.py", "b.py"]


def test_judge_show_gives_the_link_that_opens_a_stored_game_in_the_app(client, db):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "judge", "show", "1", "--db", str(db),
                          "--game", "2"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "2 5 6" in out.stdout
    assert f"judge serve --db {db}" in out.stderr
    link = out.stderr.split("http://127.0.0.1:8000", 1)[1].split()[0]
    assert link == "/run/1/game/2?move=0"
    page = client.get(link)
    assert page.status_code == 200 and 'id="board"' in page.text


def test_a_bot_is_watched_live_move_by_move_with_each_move_judged(client):
    query = "game=nim&position=3%204%205&bot=greedy.py&opponent=optimal&seat=1&pause=0"
    with client.websocket_connect(f"{WS}/api/watch?{query}") as ws:
        start = ws.receive_json()
        assert start["type"] == "start" and start["players"] == ["greedy.py", "optimal"]
        events = []
        while True:
            event = ws.receive_json()
            events.append(event)
            if event["type"] == "end":
                break
    moves = [e for e in events if e["type"] == "move"]
    assert moves and all("judgement" in e for e in moves)
    assert moves[0]["judgement"]["before"] == "win"
    assert events[-1]["result"] in ("1", "2")


def test_games_watched_at_once_are_bounded(monkeypatch):
    import judge.web.app as app

    monkeypatch.setattr(app, "MAX_WATCHES", 1)  # each watched game runs a bot
    query = "game=nim&position=3%204%205&bot=greedy.py&opponent=optimal&pause="
    with TestClient(create_app(Served(bots=BOTS / "nim", limits=FAST)), base_url=HERE) as c:
        with c.websocket_connect(f"{WS}/api/watch?{query}0.5") as first:
            assert first.receive_json()["type"] == "start"
            with c.websocket_connect(f"{WS}/api/watch?{query}0.5") as second:
                refusal = second.receive_json()
            assert refusal["type"] == "error" and refusal["status"] == 503
            while first.receive_json()["type"] != "end":
                pass
        with c.websocket_connect(f"{WS}/api/watch?{query}0") as again:
            assert again.receive_json()["type"] == "start"  # the first one's place is free
            while again.receive_json()["type"] != "end":
                pass


def test_one_address_watches_at_most_its_share_of_the_games(monkeypatch):
    # each watched game runs a bot: one client could hold all 8 places, reconnecting
    query = "game=nim&position=3%204%205&bot=greedy.py&opponent=optimal&pause="
    served = Served(bots=BOTS / "nim", limits=FAST, bot_games_per_address=1)
    with TestClient(create_app(served), base_url=HERE) as c:
        with c.websocket_connect(f"{WS}/api/watch?{query}0.5") as first:
            assert first.receive_json()["type"] == "start"
            with c.websocket_connect(f"{WS}/api/watch?{query}0.5") as second:
                refusal = second.receive_json()
            assert refusal["type"] == "error" and refusal["status"] == 429
            assert "--bot-games-per-address" in refusal["error"]
            while first.receive_json()["type"] != "end":
                pass
        with c.websocket_connect(f"{WS}/api/watch?{query}0") as again:
            assert again.receive_json()["type"] == "start"  # its place is its own again
            while again.receive_json()["type"] != "end":
                pass


def test_a_game_too_big_to_solve_is_refused_before_two_bots_are_watched(tmp_path):
    # each watched move is judged by perfect play, between two bots too: Connect Four 6x7
    # was searched (for ever, in a thread of the server) and the spectator waited
    folder = tmp_path / "bots"
    (folder / "connect4").mkdir(parents=True)
    (folder / "connect4" / "weak.py").write_text((BOTS / "connect4" / "weak.py").read_text())
    query = ("game=connect4&rules=rows%3D6%20cols%3D7&bot=connect4/weak.py"
             "&opponent=connect4/weak.py&seat=1&pause=0")
    with TestClient(create_app(Served(bots=folder, limits=FAST)), base_url=HERE) as c:
        with c.websocket_connect(f"{WS}/api/watch?{query}") as ws:
            refusal = ws.receive_json()
    assert refusal["type"] == "error" and refusal["status"] == 413


def test_requests_waiting_for_a_busy_game_leave_the_server_threads_to_others():
    # a game answers one request at a time (a bot's move may take its whole limit): the
    # requests that wait for it waited in the server's worker threads, so a few dozen of one
    # client's held all of them, and every other game's request waited too
    with TestClient(create_app(Served(limits=FAST)), base_url=HERE) as c:
        busy = create(c, game="nim", position="5 5 5", opponent="optimal")
        session = c.app.state.sessions.get(busy["id"])
        answers: list[int] = []

        def ask(path: str) -> None:
            answers.append(c.get(path).status_code)

        waiting = [threading.Thread(target=ask, args=(f"/api/sessions/{busy['id']}",))
                   for _ in range(50)]
        with session.lock:  # (as a bot's long move holds it)
            for each in waiting:
                each.start()
            time.sleep(1)  # (they wait for the game)
            other = threading.Thread(target=ask, args=("/api/values?game=nim&position=1%202",))
            other.start()
            other.join(60)
            assert not other.is_alive() and answers == [200]
        for each in waiting:
            each.join(60)
        assert answers == [200] * 51


# --- hostile requests -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../nim/greedy.py", "/etc/passwd", "..", ".hidden.py",
                                  "a/../../x.py", "x\\..\\y", "no-such.py", "", "sub/.."])
def test_a_bot_name_never_leaves_the_served_folder(client, name):
    r = client.post("/api/sessions", json={"game": "nim", "opponent": name or "-"})
    assert r.status_code in (400, 404), r.text
    assert "Traceback" not in r.text


def test_a_symlink_leading_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "bots"
    folder.mkdir()
    (tmp_path / "outside.py").write_text("print('1 1')\n")
    (folder / "link.py").symlink_to(tmp_path / "outside.py")
    (folder / "inner.py").write_text("print('1 1')\n")
    with TestClient(create_app(Served(bots=folder)), base_url=HERE) as c:
        refused(c.post("/api/sessions", json={"game": "nim", "opponent": "link.py"}), 404,
                "no bot")
        assert c.get("/api/games").json()["bots"] == ["inner.py"]


@pytest.mark.parametrize("body, status, words", [
    ({"game": "go"}, 404, "unknown game"),
    ({"game": "nim", "rules": "misere=maybe"}, 400, "misere"),
    ({"game": "chopsticks", "rules": "colour=red"}, 400, "unknown rule"),
    ({"game": "chopsticks", "rules": "hands=16 fingers=1000"}, 413, "hands"),
    ({"game": "chopsticks", "rules": "hands=6 fingers=8"}, 413, "moves to solve"),
    ({"game": "nim", "position": "1 " * 13}, 413, "at most 12 heaps"),
    ({"game": "nim", "position": "9" * 300}, 413, "counters"),
    ({"game": "nim", "position": "1 " * MAX_TEXT}, 413, "characters"),
    ({"game": "ioiwari", "position": "4 3 2"}, 400, "7 pits"),
    ({"game": "nim", "position": "0 0"}, 400, "already the end"),
    ({"game": "nim", "position": ["3"]}, 400, "string"),
    ({"game": "nim", "seat": "3"}, 400, "seat"),
    ({"game": "nim", "seat": True}, 400, "seat"),
    ({"game": "nim", "values": "no"}, 400, "values is true or false"),
    ({"run": 1, "number": 1, "values": "no"}, 400, "values is true or false"),
    ({"game": "nim", "opponent": "level:99"}, 400, "level:N"),
    ({"run": 1, "number": "x"}, 400, "number"),
    ({"game": "nim", "rules": "misere=on\u0000"}, 400, "control"),
])
def test_bad_requests_get_a_clear_4xx(client, body, status, words):
    refused(client.post("/api/sessions", json=body), status, words)


def test_advance_is_refused_where_a_person_is_to_move(client):
    sid = create(client, game="nim", position="1 2", opponent="human")["id"]
    refused(client.post(f"/api/sessions/{sid}/advance"), 400, "two people")
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 0
    sid = create(client, game="nim", position="1 2", opponent="optimal")["id"]
    refused(client.post(f"/api/sessions/{sid}/advance"), 409, "a person is to move")
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 0


def test_malformed_and_huge_bodies_and_unknown_routes_get_json_4xx(client):
    refused(client.post("/api/sessions", content=b"{not json", headers=JSON), 400, "not JSON")
    refused(client.post("/api/sessions", content=b"[1, 2]", headers=JSON), 400, "JSON object")
    refused(client.post("/api/sessions", content=b"[" * 5000 + b"]" * 5000, headers=JSON), 400,
            "nested too deeply")
    refused(client.post("/api/sessions", content=b"x" * (MAX_BODY + 1), headers=JSON), 413,
            "larger")
    refused(client.get("/api/sessions/nope"), 404, "no such game")
    refused(client.get("/api/nothing"), 404, "Not Found")
    refused(client.put("/api/sessions"), 405, "Method Not Allowed")
    s = create(client, game="nim", opponent="human")
    refused(client.post(f"/api/sessions/{s['id']}/move", json={"move": "1 9"}), 400,
            "holds only 3")
    refused(client.post(f"/api/sessions/{s['id']}/move", json={"move": 5}), 400, "string")
    refused(client.post(f"/api/sessions/{s['id']}/goto", json={"ply": "a"}), 400, "ply")
    refused(client.post(f"/api/sessions/{s['id']}/options", json={"values": "yes"}), 400,
            "true or false")
    refused(client.get("/api/values", params={"game": "nim", "position": "x"}), 400,
            "heap size")
    assert client.get("/play/nope").status_code == 404
    assert client.get("/run/1/game/99").status_code == 404
    # a link's opponent is checked before the page is served (no bot is started)
    assert client.get("/play/nim", params={"opponent": "level:5"}).status_code == 200
    for path, params, status in (("/play/nim", {"opponent": "../x.py"}, 400),
                                 ("/play/nim", {"opponent": "level:12"}, 400),
                                 ("/play/nim", {"opponent": "none.py"}, 404),
                                 ("/run/1/game/1", {"opponent": "level:x"}, 400),
                                 ("/watch/nim", {"bot": "/etc/passwd"}, 400),
                                 ("/watch/nim", {"bot": "greedy.py", "opponent": "x.py"}, 404)):
        page = client.get(path, params=params)
        assert page.status_code == status and "Traceback" not in page.text, (path, params)


def test_names_from_the_browser_reach_the_page_escaped(client):
    r = client.get("/play/<script>alert(1)</script>")
    assert r.status_code == 404 and "<script>alert" not in r.text
    r = client.get("/watch/nim", params={"bot": "</script><script>alert(1)</script>"})
    assert r.status_code == 404 and "<script>alert" not in r.text and "&lt;script&gt;" in r.text


def test_a_bot_that_fails_loses_and_its_stderr_comes_back_as_data(tmp_path):
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "bad.py").write_text(
        "import sys\nprint('<img src=x onerror=alert(1)>', file=sys.stderr, flush=True)\n"
        "sys.stdin.readline()\nprint('7 7', flush=True)\n")
    with TestClient(create_app(Served(bots=folder, limits=FAST)), base_url=HERE) as c:
        s = create(c, game="nim", position="3 4 5", opponent="bad.py", seat=2)
        assert s["over"] and s["result"] == "2"
        assert s["verdict"]["code"] == "illegal-move"
        assert "<img src=x" in s["verdict"]["stderr"]  # data; the page sets it as text


def alive(group: int, wait: float = 5.0) -> bool:
    """Whether process group `group` still has a process after up to `wait` seconds."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


def test_a_game_left_idle_ends_with_its_bot_process():
    now = [0.0]
    sessions = Sessions(Served(bots=BOTS / "nim", limits=FAST, idle_seconds=30),
                        clock=lambda: now[0])
    session = sessions.create("nim", "", "3 4 5", "greedy.py")
    human = sessions.create("nim", "", "3 4 5", "optimal")
    bot = session.players[1]
    assert bot.process is not None
    group = bot.pgid
    now[0] = 20.0
    sessions.get(human.id)  # touched: stays
    now[0] = 40.0
    assert sessions.reap() == 1
    assert bot.process is None
    assert not alive(group)
    with pytest.raises(WebError) as gone:
        sessions.get(session.id)
    assert gone.value.status == 410 and "30 s without a move" in gone.value.message
    assert sessions.get(human.id) is human
    sessions.close()


def test_a_game_whose_bot_has_ended_leaves_its_place_to_a_new_one():
    # a finished game keeps its page (and its place among the open games) until it is
    # ended or idle, but its bot process is gone: it no longer counts as a bot that plays
    from judge.web.sessions import MAX_BOT_GAMES

    sessions = Sessions(Served(bots=BOTS / "nim", limits=FAST))
    try:
        for _ in range(MAX_BOT_GAMES):  # the bot moves first and takes the only heap
            over = sessions.create("nim", "", "3", "greedy.py", seat=2)
            assert over.state()["over"] and over.players[0].process is None
        playing = sessions.create("nim", "", "3", "greedy.py")
        assert playing.players[1].process is not None
    finally:
        sessions.close()


def test_past_the_bound_of_games_with_a_bot_the_503_says_when_to_ask_again(monkeypatch):
    # the 503 of a server whose every place for a game with a bot is taken said "try
    # later" without a Retry-After, unlike the server's other 503s and 429s
    from judge.web import sessions as module

    monkeypatch.setattr(module, "MAX_BOT_GAMES", 1)
    now = [1000.0]
    sessions = Sessions(Served(bots=BOTS / "nim", limits=FAST, idle_seconds=20.0),
                        clock=lambda: now[0])
    try:
        sessions.create("nim", "", "5 5 5", "greedy.py")
        now[0] += 8.0
        with pytest.raises(WebError) as full:
            sessions.create("nim", "", "5 5 5", "greedy.py")
        assert full.value.status == 503 and "1 games with a bot are open" in full.value.message
        assert full.value.retry_after == 12  # when the idlest would be ended by --idle
    finally:
        sessions.close()
    with nim_bots_served() as c:
        create(c, **BOT_GAME)
        r = c.post("/api/sessions", json=BOT_GAME)
        refused(r, 503, "games with a bot are open")
        assert 0 < int(r.headers["retry-after"]) <= module.BOT_RETRY_SECONDS


def test_one_address_holds_at_most_its_share_of_the_games_with_a_bot():
    # one client opened all 8 games with a bot and kept them by touching each within
    # --idle: every other user got 503 for as long as it liked
    from judge.web.sessions import BOT_GAMES_PER_ADDRESS, MAX_BOT_GAMES

    assert BOT_GAMES_PER_ADDRESS == MAX_BOT_GAMES // 2
    now = [1000.0]
    sessions = Sessions(Served(bots=BOTS / "nim", limits=FAST, idle_seconds=100.0),
                        clock=lambda: now[0])
    try:
        held = [sessions.create("nim", "", "5 5 5", "greedy.py", address="10.0.0.1")
                for _ in range(BOT_GAMES_PER_ADDRESS)]
        now[0] += 90.0
        sessions.get(held[0].id)  # (touched: the idlest is the second)
        with pytest.raises(WebError) as more:
            sessions.create("nim", "", "5 5 5", "greedy.py", address="10.0.0.1")
        assert more.value.status == 429
        assert f"{BOT_GAMES_PER_ADDRESS} games with a bot" in more.value.message
        assert "--bot-games-per-address" in more.value.message
        assert more.value.retry_after == 10
        # the same address may still play without a bot, and another address with one
        assert not sessions.create("nim", "", "5 5 5", "optimal", address="10.0.0.1").runs_bot()
        assert sessions.create("nim", "", "5 5 5", "greedy.py", address="10.0.0.2").runs_bot()
        sessions.end(held[1].id)  # its place is its own again
        assert sessions.create("nim", "", "5 5 5", "greedy.py", address="10.0.0.1").runs_bot()
    finally:
        sessions.close()


def test_a_class_behind_one_address_is_given_every_place_by_the_option():
    from judge.web.sessions import MAX_BOT_GAMES

    sessions = Sessions(Served(bots=BOTS / "nim", limits=FAST,
                               bot_games_per_address=MAX_BOT_GAMES))
    try:
        for _ in range(MAX_BOT_GAMES):
            sessions.create("nim", "", "5 5 5", "greedy.py", address="10.0.0.1")
        with pytest.raises(WebError) as full:
            sessions.create("nim", "", "5 5 5", "greedy.py", address="10.0.0.1")
        assert full.value.status == 503  # the server's bound, no longer the address's
    finally:
        sessions.close()


def test_the_app_answers_an_address_past_its_share_429_with_retry_after():
    served = Served(bots=BOTS / "nim", limits=FAST, bot_games_per_address=1)
    with TestClient(create_app(served), raise_server_exceptions=False, base_url=HERE) as c:
        create(c, **BOT_GAME)
        r = c.post("/api/sessions", json=BOT_GAME)
        refused(r, 429, "1 game with a bot")
        assert int(r.headers["retry-after"]) > 0
        assert create(c, game="nim", position="5 5 5", opponent="optimal")["id"]


@pytest.mark.skipif(os.geteuid() != 0, reason="game slots are root's")
def test_a_machine_with_every_game_slot_in_use_is_a_503_not_a_failure(monkeypatch):
    # other judges of the machine hold every game slot: a game with a bot is refused in
    # words, to be asked for again, not a 500 "the app failed: RuntimeError"
    from judge.sandbox import slots
    from judge.sandbox.context import sandbox_context

    monkeypatch.setattr(slots, "MAX_SLOTS", 0)
    monkeypatch.setattr(sandbox_context(), "slots", [])
    monkeypatch.setattr(sandbox_context(), "last_slot", None)
    with nim_bots_served() as c:
        r = c.post("/api/sessions", json=BOT_GAME)
        refused(r, 503, "game slots of this machine are in use")
        assert int(r.headers["retry-after"]) > 0
        assert create(c, game="nim", position="5 5 5", opponent="optimal")["id"]


@pytest.mark.skipif(os.geteuid() != 0, reason="game slots are root's")
def test_a_game_with_a_bot_on_a_machine_whose_slots_are_all_in_games_waits_for_none(
        monkeypatch):
    # every slot in a game: a new game with a bot held a worker thread of the server for
    # SLOT_WAIT_SECONDS (30 s) before its 503, and a few dozen such requests held them all
    from test_context import every_slot_in_a_game

    waits = every_slot_in_a_game(monkeypatch)
    with nim_bots_served() as c:
        r = c.post("/api/sessions", json=BOT_GAME)
        refused(r, 503, "every game slot of this machine is in a game")
        assert int(r.headers["retry-after"]) > 0
    assert waits.waits == []


def test_a_bot_that_fails_ends_its_game_and_the_other_bot_with_it(tmp_path):
    # the game is over at the failure: the other seat's bot ran on (a game slot and a place
    # among the games with a bot held) until the game was ended or left idle
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "bad.py").write_text("import sys\nsys.stdin.readline()\nprint('7 7', flush=True)\n")
    (folder / "greedy.py").write_text((BOTS / "nim" / "greedy.py").read_text())
    (folder / "broken.c").write_text("int main(void) { return }\n")
    sessions = Sessions(Served(bots=folder, limits=FAST))
    try:
        session = sessions.create("nim", "", "3 4 5", players=["bad.py", "greedy.py"])
        group = session.players[1].pgid
        session.advance(True)
        assert session.state()["over"] and session.verdict.code == "illegal-move"
        assert not session.runs_bot() and not alive(group)
        # the first bot's failure to start ends the game before the second's starts
        broken = sessions.create("nim", "", "3 4 5", players=["broken.c", "greedy.py"])
        assert broken.verdict.code == "compile-error" and not broken.runs_bot()
    finally:
        sessions.close()


@pytest.mark.slow
def test_games_with_a_bot_asked_for_at_once_are_at_most_the_bound():
    # the bound was checked before each game's bot started, and the game counted only once
    # it had: a dozen asked for at once all passed the check, each with a bot process
    from judge.web.sessions import MAX_BOT_GAMES

    sessions = Sessions(Served(bots=BOTS / "nim", limits=FAST))
    asked = MAX_BOT_GAMES + 4
    together = threading.Barrier(asked)
    statuses: list[int] = []

    def ask() -> None:
        together.wait()
        try:
            sessions.create("nim", "", "5 5 5", "greedy.py")
            statuses.append(201)
        except WebError as exc:
            statuses.append(exc.status)

    threads = [threading.Thread(target=ask) for _ in range(asked)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [201] * MAX_BOT_GAMES + [503] * 4
        assert sum(s.players[1].process is not None
                   for s in sessions._games.values()) == MAX_BOT_GAMES
    finally:
        sessions.close()


def test_the_server_is_refused_without_the_web_extra(monkeypatch, capsys):
    import builtins

    from judge.cli import main

    real = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    assert main(["serve", "--no-browser"]) == 2
    assert "pip install -e '.[web]'" in capsys.readouterr().err


# --- a small load on a real server ----------------------------------------------------------

GAMES, CLIENTS, SECONDS = 20, 4, 90


def test_twenty_games_at_once_from_four_clients_and_the_server_still_answers():
    import httpx

    errors: list[str] = []
    finished = []

    def player(url: str, games: int) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            ids = []
            for i in range(games):  # every game open at once, then played in turns
                r = http.post("/api/sessions", json={"game": ("nim", "ioiwari")[i % 2],
                                                     "opponent": "optimal", "values": True})
                if r.status_code != 201:
                    errors.append(r.text)
                    return
                ids.append(r.json())
            while ids:
                for s in list(ids):
                    if s["over"]:
                        finished.append(s["result"])
                        ids.remove(s)
                        continue
                    r = http.post(f"/api/sessions/{s['id']}/move",
                                  json={"move": s["moves"][0]["move"]})
                    if r.status_code != 200:
                        errors.append(r.text)
                        return
                    ids[ids.index(s)] = r.json()

    with serving() as url:
        started = time.monotonic()
        threads = [threading.Thread(target=player, args=(url, GAMES // CLIENTS))
                   for _ in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(SECONDS)
        took = time.monotonic() - started
        import httpx as h

        assert h.get(url + "/api/games", timeout=10).status_code == 200
    assert not errors and len(finished) == GAMES
    assert took < SECONDS


# --- explained: rules, variants, opponents, the end, the Grundy value ----------------------

def test_the_rules_text_the_named_variants_and_the_opponents_are_served(client):
    games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    for name, info in games.items():
        game = load_game(name)
        assert info["explain"]["summary"] == game.rules_text() and info["explain"]["summary"]
        # every named variant is a rule set the game takes; the first one is the defaults
        for variant in info["variants"]:
            load_game(name, variant["rules"])
        if info["variants"]:
            assert load_game(name, info["variants"][0]["rules"]).rules == game.rules
    assert games["nim"]["explain"]["summary"][0].startswith("There are some heaps")
    assert [v["name"] for v in games["connect4"]["variants"]][:2] == ["standard", "4x5"]
    assert [v["name"] for v in games["nim"]["variants"]] == ["normal", "misere"]
    assert {"rollover", "splits", "swaps", "misere"} <= {
        v["name"] for v in games["chopsticks"]["variants"]}
    about = client.get("/api/games").json()["about"]
    assert {"optimal", "tricky", "level:N"} <= set(about)
    # a variant's name is read as its rules; key=value tokens still are
    state = create(client, game="nim", rules="misere", position="2 3")
    assert state["rules"] == "misere=on" and state["explain"]["variant"] == "misere"
    assert any("Misère" in n for n in state["explain"]["notes"])
    state = create(client, game="chopsticks", rules="hands=2 knockout=rollover",
                   opponent="level:4")
    assert state["explain"]["variant"] == "rollover"
    # the person's seat is "you" against a computer; "two people" only where two people play
    assert state["explain"]["players"][0].startswith("you: ")
    assert "two people" not in state["explain"]["players"][0]
    assert state["explain"]["players"][1].startswith("level:4 plays a best move")
    state = create(client, game="nim", position="2 3", opponent="optimal", seat=2)
    assert state["explain"]["players"][0].startswith("optimal plays perfectly")
    assert state["explain"]["players"][1].startswith("you: ")
    state = create(client, game="nim", position="2 3")
    assert all("two people" in p for p in state["explain"]["players"])
    refused(client.post("/api/sessions", json={"game": "nim", "rules": "mystery"}), 400, "")


def test_the_nim_sum_of_the_position_and_after_each_move_are_the_solvers(client):
    from judge.games.nim.solver import nim_sum

    for rules, position in (("", "3 4 5"), ("", "1 2 3"), ("misere=on", "2 5 6 7")):
        game = load_game("nim", rules)
        pos = game.parse_position(position)
        state = create(client, game="nim", rules=rules, position=position, values=True)
        assert state["grundy"] == nim_sum(pos.sizes) and state["grundy_name"] == "nim-sum"
        values = {game.format_move(m.move, pos): m for m in solver_for(game).move_values(pos)}
        for move in state["moves"]:
            after = game.play(pos, game.parse_move(move["move"], pos))
            assert move["grundy"] == nim_sum(after.sizes)
            if not rules:  # normal play: a winning move is one to nim-sum 0 (Bouton)
                assert (move["grundy"] == 0) == (values[move["move"]].value == "win")
    state = create(client, game="nim", position="3 4 5", values=True)
    assert state["grundy_text"].startswith("Nim-sum (Grundy value under normal play): "
                                           "011 xor 100 xor 101 = 010 = 2: the mover wins")
    assert "grundy" not in create(client, game="nim", position="3 4 5")


def test_an_octal_game_shows_its_grundy_values_and_a_win_is_a_move_to_value_0(client):
    game = load_game("octal", "code=0.77")
    pos = game.parse_position("3 5")
    state = create(client, game="octal", rules="code=0.77", position="3 5", values=True)
    assert state["grundy_name"] == "Grundy value" and state["grundy"] == game.grundy(pos)
    assert state["grundy_text"] == (f"Grundy value: {state['grundy']}: the mover wins by a "
                                    "move to a position of value 0.")
    values = {game.format_move(m.move, pos): m for m in solver_for(game).move_values(pos)}
    for move in state["moves"]:
        after = game.play(pos, game.parse_move(move["move"], pos))
        assert move["grundy"] == game.grundy(after)
        assert (move["grundy"] == 0) == (values[move["move"]].value == "win")
    assert "grundy" not in create(client, game="ioiwari", values=True)


def test_why_a_game_ended_a_tie_at_the_move_limit_says_so():
    served = Served(limits=Limits(move_limit=6))
    with TestClient(create_app(served), base_url=HERE) as c:
        swaps = ["split 2 1", "split 2 1", "split 1 2", "split 1 2", "split 2 1"]
        state = create(c, game="chopsticks", rules="hands=2 swap=on", position="(L 1 2 1 2)",
                       moves=swaps)
        assert not state["over"] and state["end"] is None
        state = c.post(f"/api/sessions/{state['id']}/move",
                       json={"move": "split 2 1", "ply": 5}).json()
        assert state["over"] and state["result"] == "tie"
        assert "a tie at the move limit" in state["end"] and "6 moves" in state["end"]
        state = create(c, game="nim", position="0 2", moves=["2 2"])
        assert state["end"] == "player 1 took the last counter and wins"
        state = create(c, game="nim", rules="misere=on", position="0 2", moves=["2 2"])
        assert state["end"] == "player 1 took the last counter and loses (misère)"


# --- the value chart's data: every move available at each ply ------------------------------

def test_the_history_gives_every_moves_value_for_player_1_at_each_ply(client):
    state = create(client, game="ioiwari", opponent="optimal", values=True)
    state = client.post(f"/api/sessions/{state['id']}/move",
                        json={"move": state["moves"][0]["move"], "ply": 0}).json()
    game = load_game("ioiwari")
    for entry in state["history"][:-1]:
        pos = game.parse_position(entry["position"])
        choices = entry["choices"]
        assert sorted(c["move"] for c in choices) == sorted(
            game.format_move(m, pos) for m in game.legal_moves(pos))
        played = [c for c in choices if c["played"]]
        assert [c["move"] for c in played] == [entry["move"]]
        after = state["history"][entry["ply"] + 1]
        assert played[0]["value"] == after["value"]  # the value for player 1 it leads to
        assert all("final_difference" in c for c in choices)
        # the win-by chart's point: the banks' difference at the end for player 1
        assert after["final_difference"] == played[0]["final_difference"]
    assert "choices" not in state["history"][-1]
    nim = create(client, game="nim", position="1 2", opponent="human", values=True)
    assert "final_difference" not in nim["history"][0]


def test_a_move_works_out_the_values_of_the_new_positions_only(monkeypatch):
    """The history's values of the positions before are kept from the last answer (a move's
    answer cost grew with the moves played), and are what a fresh game gives."""
    from judge.web.sessions import Session

    counted = []
    choices = Session.choices
    monkeypatch.setattr(Session, "choices",
                        lambda self, pos, played: counted.append(pos) or choices(self, pos, played))
    sessions = Sessions(Served(limits=FAST))
    game = sessions.create("nim", "", "4 5 6 7", opponent="human", values=True)
    for ply in range(6):
        state = game.state()
        counted.clear()
        game.play(state["moves"][ply % len(state["moves"])]["move"])
        state = game.state()
        assert len(counted) == 1, ply  # the position the move was made from
        moves = [h["move"] for h in state["history"][:-1]]
        fresh = sessions.create("nim", "", "4 5 6 7", opponent="human", values=True,
                                played=moves).state()
        assert state["history"] == fresh["history"]
    game.undo()
    game.undo()
    game.play(game.state()["moves"][-1]["move"])  # another branch
    state = game.state()
    moves = [h["move"] for h in state["history"][:-1]]
    assert state["history"] == sessions.create("nim", "", "4 5 6 7", opponent="human",
                                               values=True, played=moves).state()["history"]
    game.values = False
    assert all("value" not in h for h in game.state()["history"])


# --- computer against computer, one move per request ---------------------------------------

def test_two_computer_players_move_one_move_per_request_with_the_ply_checked(client):
    state = create(client, game="nim", position="3 4 5", players=["optimal", "level:0"])
    assert state["ply"] == 0 and not state["your_turn"] and state["stepwise"]
    assert state["players"] == ["optimal", "level:0"]
    sid = state["id"]
    state = client.post(f"/api/sessions/{sid}/advance", json={"ply": 0, "one": True}).json()
    assert state["ply"] == 1
    refused(client.post(f"/api/sessions/{sid}/advance", json={"ply": 0, "one": True}), 409,
            "moved on")
    while not state["over"]:
        state = client.post(f"/api/sessions/{sid}/advance",
                            json={"ply": state["ply"], "one": True}).json()
    assert state["result"] == "1" and state["end"]
    refused(client.post("/api/sessions", json={"game": "nim", "players": ["human", "optimal"]}),
            400, "computer players")
    refused(client.post("/api/sessions", json={"game": "nim", "players": ["optimal"]}), 400,
            "two computer players")
    assert client.get("/play/nim?players=optimal,tricky").status_code == 200
    assert client.get("/play/nim?players=optimal,level:11").status_code == 400


# --- export and import -----------------------------------------------------------------------

def test_a_game_exported_as_text_is_imported_the_same_and_illegal_moves_are_refused(client):
    state = create(client, game="chopsticks", rules="hands=2", opponent="optimal")
    state = client.post(f"/api/sessions/{state['id']}/move",
                        json={"move": state["moves"][0]["move"], "ply": 0}).json()
    record = state["record"]
    assert record.startswith("game: chopsticks\n") and "moves: " in record
    again = create(client, record=record)
    assert (again["position"], again["ply"], again["rules"]) == (
        state["position"], state["ply"], state["rules"])
    assert [h.get("move") for h in again["history"]] == [h.get("move") for h in state["history"]]
    bad = record.replace("moves: ", "moves: 9 9,")
    refused(client.post("/api/sessions", json={"record": bad}), 400, "move 1")
    refused(client.post("/api/sessions", json={"record": "colour: red"}), 400, "game")
    refused(client.post("/api/sessions", json={"record": 5}), 400, "record")


def test_the_app_serves_each_games_protocol_page_as_plain_text_and_links_it(client) -> None:
    from judge.games import game_class

    page = client.get("/protocol/octal")
    assert page.status_code == 200 and page.text == game_class("octal").protocol_text()
    assert page.headers["content-type"].startswith("text/plain")
    assert client.get("/protocol/chess").status_code == 404
    made = client.post("/api/sessions", json={"game": "octal"}).json()
    assert made["explain"]["protocol"] == "/protocol/octal"


# --- values and moves in plain words ------------------------------------------------------

def test_ties_are_ties_with_their_remoteness_and_say_why_they_ended(client):
    for name, position, empty in (("tictactoe", "", 9), ("tictactoe", "xox/xoo/ox.", 1),
                                  ("connect4", "", 16)):
        s = create(client, game=name, position=position, opponent="human", values=True)
        assert (s["value"], s["remoteness"]) == ("tie", empty), name
        assert s["says"] == f"A tie with best play, in {empty} move" + "s" * (empty > 1)
        ties = [m for m in s["moves"] if m["value"] == "tie"]
        assert ties and all(m["remoteness"] == empty for m in ties)
        assert all(m["says"] == f"a tie in {empty} move" + "s" * (empty > 1) for m in ties)
    s = client.post(f"/api/sessions/{s['id']}/move", json={"move": "1"}).json()
    assert s["history"][0]["value"] == "tie" and s["history"][0]["remoteness"] == 16
    s = create(client, game="tictactoe", position="xox/xoo/ox.", opponent="human", values=True)
    s = client.post(f"/api/sessions/{s['id']}/move", json={"move": "9"}).json()
    assert s["over"] and s["result"] == "tie" and s["value"] == "tie" and s["remoteness"] == 0
    assert s["end"] == "the board is full and nobody made a line: a tie"


def test_the_line_on_how_moves_are_counted_comes_only_with_a_count(client):
    nim = create(client, game="nim", position="3 4", opponent="optimal", values=True)
    assert nim["remoteness"] is not None and nim["legend"].startswith("Moves are counted")
    kayles = create(client, game="octal", position="5", opponent="optimal", values=True)
    assert kayles["remoteness"] is None  # the Grundy values say who wins, not in how many moves
    assert kayles["says"] == "You can win" and "legend" not in kayles


def test_values_and_moves_are_said_in_plain_words_by_who_plays(client):
    s = create(client, game="ioiwari", opponent="optimal", values=True)
    assert s["moves"][0]["label"] == "pit 1"
    game = load_game("ioiwari")
    ev = solver_for(game).evaluate(game.start())
    assert ev.value != 0 and ev.remoteness
    who = "You can win" if ev.value > 0 else "Optimal wins"
    assert s["says"].startswith(f"{who} by {abs(ev.value)} in {ev.remoteness} moves")
    assert s["says"].endswith("whatever you do") == (ev.value < 0)
    for m in s["moves"]:
        assert m["says"] == (f"a tie in {m['remoteness']} moves" if m["value"] == "tie" else
                             f"you {m['value']} by {abs(m['final_difference'])} in "
                             f"{m['remoteness']} moves")
    s = client.post(f"/api/sessions/{s['id']}/move", json={"move": "1"}).json()
    assert [h.get("by") for h in s["history"]] == ["you", "optimal", None]
    assert s["history"][0]["label"] == "pit 1"
    assert all(c["says"].startswith(("optimal ", "a tie ")) for c in s["history"][1]["choices"])
    text = " ".join([s["says"], *(m["says"] for m in s["moves"])])
    assert "remoteness" not in text and "player 1" not in text
    s = create(client, game="nim", position="1 2", opponent="human", values=True)
    assert s["says"] == "Player 1 can win in 3 moves"
    assert client.get(f"/api/sessions/{s['id']}/hint").json()["says"] == \
        "player 1 wins in 3 moves"
