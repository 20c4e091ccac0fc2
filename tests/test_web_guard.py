"""Who can reach `judge serve` (docs/web.md, "Who can reach judge serve"): only requests
addressed to a served host; no request that changes state, and no live game, from another
site's page; JSON bodies only; and off loopback, only with the token printed at start."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from webserver import BOTS, announced, serving, stored_run  # noqa: E402

from judge.sandbox import Limits  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.sessions import Served  # noqa: E402

FAST = Limits(first_move_seconds=20.0, move_seconds=5.0)
#: how the tests reach the app, as a browser on this machine does
HERE = "http://127.0.0.1:8000"
GAME = '{"game": "nim", "position": "3 4 5", "opponent": "human"}'
WATCH = "/api/watch?game=nim&position=3%204%205&bot=greedy.py&opponent=optimal&pause=0"
TOKEN = "a-token-of-the-test-0123456789"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return stored_run(tmp_path_factory.mktemp("web-guard"))


def app_for(db: Path | None = None, **guard):
    """The app serving the Nim bots (and `db`); with `guard`, behind a guard of the settings
    `judge serve` makes of these options (bind, allow, token)."""
    served = Served(bots=BOTS / "nim", limits=FAST, db=db)
    if not guard:
        return create_app(served)
    from judge.web.guard import GuardSettings

    return create_app(served, GuardSettings.serving(**guard))


@pytest.fixture
def watched(monkeypatch) -> list:
    """The watched games the app starts (each would run a bot), recorded."""
    import judge.web.app as app

    started: list = []
    real = app.watch

    def record(*args, **kwargs):
        started.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(app, "watch", record)
    return started


def ws(client: TestClient, path: str) -> str:
    """The WebSocket address of `path` on the client's host (the test client's
    ``websocket_connect`` takes its host from the address only)."""
    return str(client.base_url).replace("http", "ws", 1).rstrip("/") + path


def refused_socket(client: TestClient, path: str, **headers: str) -> WebSocketDisconnect:
    """The close of a WebSocket the server refused before accepting it."""
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(ws(client, path), headers=headers) as socket:
            while socket.receive_json()["type"] not in ("end", "error"):  # let in: to the end
                pass
    assert closed.value.code == 1008
    return closed.value


# --- hosts ------------------------------------------------------------------------------

def test_a_request_for_another_host_name_is_refused_with_421_and_reads_nothing(db):
    with TestClient(create_app(Served(db=db)), base_url="http://rebound.example:8000") as c:
        r = c.get("/api/runs")
        assert r.status_code == 421
        assert r.headers["content-type"].startswith("text/plain")
        assert "runs" not in r.text and "--allow-host" in r.text
        assert c.get("/").status_code == 421
        assert c.get("/api/runs", headers={"host": "127.0.0.1.rebound.example"}).status_code \
            == 421
        assert c.get("/api/runs", headers={"host": ""}).status_code == 421


def test_a_websocket_for_another_host_name_is_refused_and_starts_no_bot(watched):
    with TestClient(app_for(), base_url="http://rebound.example:8000") as c:
        assert "host name" in refused_socket(c, WATCH).reason
    assert watched == []


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000",
                                  "LOCALHOST", "127.0.0.1", "localhost:1", "[0:0::1]:80"])
def test_the_loopback_names_are_answered_on_any_port(db, host):
    with TestClient(create_app(Served(db=db)), base_url=HERE) as c:
        r = c.get("/api/runs", headers={"host": host})
        assert r.status_code == 200 and r.json()["runs"][0]["games"] == 2


def test_allow_host_adds_a_name_and_the_host_served_is_answered():
    app = app_for(bind="0.0.0.0", allow=["judge.lan", "10.1.2.3"], token=TOKEN)
    auth = {"authorization": f"Token {TOKEN}"}
    with TestClient(app, base_url=HERE) as c:
        for host in ("judge.lan:8000", "JUDGE.lan", "10.1.2.3:8000", "0.0.0.0:8000"):
            assert c.get("/api/games", headers={**auth, "host": host}).status_code == 200
        for host in ("other.lan", "judge.lan.example", "10.1.2.4"):
            assert c.get("/api/games", headers={**auth, "host": host}).status_code == 421


# --- origins and content types ----------------------------------------------------------

@pytest.mark.parametrize("headers, status", [
    ({"origin": "http://evil.example", "content-type": "text/plain"}, 403),
    ({"origin": "http://evil.example", "content-type": "application/json"}, 403),
    ({"origin": "http://127.0.0.1:3000", "content-type": "application/json"}, 403),
    ({"origin": "https://127.0.0.1:8000", "content-type": "application/json"}, 403),
    ({"origin": "null", "content-type": "application/json"}, 403),
    ({"sec-fetch-site": "cross-site", "content-type": "application/json"}, 403),
    ({"sec-fetch-site": "same-site", "content-type": "application/json"}, 403),
    ({"content-type": "text/plain"}, 415),  # an old browser sending no Origin
    ({"content-type": "application/x-www-form-urlencoded"}, 415),
    ({"content-type": "multipart/form-data; boundary=x"}, 415),
    ({}, 415),  # a body of no declared type
])
def test_a_request_another_site_could_send_creates_no_game(headers, status):
    with TestClient(app_for(), base_url=HERE) as c:
        r = c.post("/api/sessions", content=GAME, headers=headers)
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith("text/plain")
        assert len(c.app.state.sessions) == 0


def test_a_cross_origin_delete_or_move_does_not_touch_a_game():
    with TestClient(app_for(), base_url=HERE) as c:
        game = c.post("/api/sessions", content=GAME,
                      headers={"content-type": "application/json"}).json()
        sid = game["id"]
        foreign = {"origin": "http://evil.example", "content-type": "application/json"}
        assert c.post(f"/api/sessions/{sid}/move", content='{"move": "1 3"}',
                      headers=foreign).status_code == 403
        assert c.delete(f"/api/sessions/{sid}", headers=foreign).status_code == 403
        assert c.post(f"/api/sessions/{sid}/move", content='{"move": "1 3"}',
                      headers={"content-type": "text/plain"}).status_code == 415
        assert c.get(f"/api/sessions/{sid}").json()["position"] == "3 4 5"


@pytest.mark.parametrize("origin", [None, HERE, "http://127.0.0.1:8000"])
def test_a_same_origin_json_request_still_plays(origin):
    headers = {"sec-fetch-site": "same-origin"} | ({"origin": origin} if origin else {})
    with TestClient(app_for(), base_url=HERE) as c:
        r = c.post("/api/sessions", json={"game": "nim", "position": "3 4 5",
                                          "opponent": "optimal"}, headers=headers)
        assert r.status_code == 201, r.text
        sid = r.json()["id"]
        r = c.post(f"/api/sessions/{sid}/move", content='{"move": "1 3"}',
                   headers={**headers, "content-type": "application/json; charset=utf-8"})
        assert r.status_code == 200 and len(r.json()["history"]) == 3
        # a request without a body needs no type (curl -X POST ...): the app answers
        assert c.post(f"/api/sessions/{sid}/options", headers=headers).status_code == 400
        assert c.delete(f"/api/sessions/{sid}", headers=headers).status_code == 200
        assert len(c.app.state.sessions) == 0


def test_a_page_on_localhost_posts_with_its_own_origin():
    with TestClient(app_for(), base_url="http://localhost:8000") as c:
        r = c.post("/api/sessions", content=GAME,
                   headers={"origin": "http://localhost:8000",
                            "content-type": "application/json"})
        assert r.status_code == 201
        r = c.post("/api/sessions", content=GAME,
                   headers={"origin": "http://127.0.0.1:8000",  # not this page's origin
                            "content-type": "application/json"})
        assert r.status_code == 403


@pytest.mark.parametrize("headers", [{"origin": "http://evil.example"},
                                     {"origin": "http://localhost:8000"},
                                     {"origin": "null"},
                                     {"origin": HERE, "sec-fetch-site": "cross-site"}])
def test_a_websocket_from_another_origin_is_refused_and_starts_no_bot(watched, headers):
    with TestClient(app_for(), base_url=HERE) as c:
        closed = refused_socket(c, WATCH, **headers)
        assert "judge serve refuses" in closed.reason
    assert watched == []


def test_a_websocket_from_the_apps_own_origin_or_no_browser_is_watched(watched):
    with TestClient(app_for(), base_url=HERE) as c:
        for headers in ({"origin": HERE, "sec-fetch-site": "same-origin"}, {}):
            with c.websocket_connect(ws(c, WATCH), headers=headers) as socket:
                assert socket.receive_json()["type"] == "start"
                while socket.receive_json()["type"] != "end":
                    pass
    assert len(watched) == 2


@pytest.mark.parametrize("headers", [{"sec-fetch-site": "cross-site"},
                                     {"sec-fetch-site": "same-site"},
                                     {"origin": "http://evil.example"}])
def test_another_sites_page_cannot_make_the_api_solve_even_by_a_get(monkeypatch, headers):
    """A page elsewhere can send a GET without asking (an image, a no-cors fetch): it could
    not read the answer, but it would make the server solve. The API refuses it; the app's
    own pages, a program and the address bar (Sec-Fetch-Site: none) are answered."""
    import judge.web.app as app

    asked: list = []
    real = app.move_values_json
    monkeypatch.setattr(app, "move_values_json", lambda *a: asked.append(a) or real(*a))
    values = "/api/values?game=nim&position=3%204%205"
    with TestClient(app_for(), base_url=HERE) as c:
        r = c.get(values, headers=headers)
        assert r.status_code == 403 and "judge serve refuses" in r.text
        assert asked == []
        for own in ({"sec-fetch-site": "same-origin", "origin": HERE}, {},
                    {"sec-fetch-site": "none"}):
            assert c.get(values, headers=own).status_code == 200
        assert len(asked) == 3
        # a page of the app stays open to a link from anywhere (a shared position)
        assert c.get("/play/nim?position=3%204%205", headers=headers).status_code == 200


# --- the token off loopback -------------------------------------------------------------

def test_off_loopback_every_request_needs_the_token(watched):
    with TestClient(app_for(bind="0.0.0.0"), base_url=HERE) as c:
        for path in ("/", "/api/games", "/static/play.js", "/play/nim"):
            r = c.get(path)
            assert r.status_code == 403 and "token" in r.text, path
        assert c.post("/api/sessions", content=GAME,
                      headers={"content-type": "application/json"}).status_code == 403
        assert c.get("/api/games", headers={"authorization": "Token wrong"}).status_code == 403
        assert c.get("/api/games", params={"token": "wrong"}).status_code == 403
        assert c.get("/api/games", headers={"cookie": "judge-serve-token-8000=wrong"}
                     ).status_code == 403
        refused_socket(c, WATCH)
        assert len(c.app.state.sessions) == 0
    assert watched == []


def test_the_token_in_a_pages_address_sets_a_strict_cookie_and_is_dropped():
    with TestClient(app_for(bind="0.0.0.0", token=TOKEN), base_url=HERE) as c:
        r = c.get(f"/play/nim?values=on&token={TOKEN}&opponent=optimal",
                  follow_redirects=False)
        assert r.status_code == 303
        assert r.headers["location"] == "/play/nim?values=on&opponent=optimal"
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"judge-serve-token-8000={TOKEN};")
        assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= set(cookie.replace(" ", "")
                                                                .split(";"))
        page = c.get(r.headers["location"])  # the client keeps the cookie, as a browser does
        assert page.status_code == 200 and 'id="board"' in page.text
        assert c.post("/api/sessions", json={"game": "nim", "opponent": "human"},
                      headers={"origin": HERE}).status_code == 201
        with c.websocket_connect(ws(c, "/api/watch?game=nim")) as socket:  # let in
            assert socket.receive_json()["error"]  # and answered by the app


def test_the_token_is_taken_from_a_header_or_the_query_of_an_api_request():
    with TestClient(app_for(bind="192.0.2.7", token=TOKEN), base_url=HERE) as c:
        r = c.get("/api/games", headers={"authorization": f"Token {TOKEN}"})
        assert r.status_code == 200 and "set-cookie" not in r.headers
        r = c.get("/api/games", params={"token": TOKEN}, follow_redirects=False)
        assert r.status_code == 200 and "set-cookie" not in r.headers
        r = c.post("/api/sessions", json={"game": "nim", "opponent": "human"},
                   headers={"authorization": f"token {TOKEN}"})
        assert r.status_code == 201
        with c.websocket_connect(ws(c, f"/api/watch?game=nim&token={TOKEN}")) as socket:
            assert socket.receive_json()["error"]
        assert c.get("/api/games").status_code == 403  # nothing was kept


def test_a_token_given_is_needed_on_loopback_too_and_none_is_made_there():
    from judge.web.guard import GuardSettings

    assert GuardSettings.serving("127.0.0.1").token is None
    assert GuardSettings.serving("localhost").token is None
    assert GuardSettings.serving("::1").token is None
    made = {GuardSettings.serving("0.0.0.0").token for _ in range(3)}
    assert len(made) == 3 and all(t and len(t) >= 40 for t in made)
    with TestClient(app_for(bind="127.0.0.1", token=TOKEN), base_url=HERE) as c:
        assert c.get("/api/games").status_code == 403
        assert c.get("/api/games", headers={"authorization": f"Token {TOKEN}"}
                     ).status_code == 200


# --- the command ------------------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--allow-host", ""], "--allow-host"),
    (["--allow-host", "two words"], "--allow-host"),
    (["--allow-host", "judge.lan:8000"], "--allow-host"),
    (["--allow-host", "http://judge.lan"], "--allow-host"),
    (["--allow-host", "[judge.lan]"], "--allow-host"),
    (["--host", ""], "--host"),
    (["--token", ""], "--token"),
    (["--token", "short"], "--token"),
    (["--token", "sixteen;chars;and;more"], "--token"),
])
def test_bad_option_values_stop_the_command_with_status_2(capsys, monkeypatch, args, words):
    import uvicorn

    from judge.cli import main

    async def started(self):
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "serve", started)
    assert main(["serve", "--no-browser", "--port", "0", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("judge: error: ") and words in err


def test_on_loopback_the_printed_address_has_no_token_and_needs_none():
    import httpx

    with announced() as url:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
        assert httpx.get(url + "api/games", timeout=10).status_code == 200


def test_off_loopback_the_printed_address_carries_the_token_that_lets_in():
    import httpx

    with announced("--host", "0.0.0.0") as url:
        found = re.fullmatch(r"http://0\.0\.0\.0:(\d+)/\?token=([\w-]{40,})", url)
        assert found, url
        here, token = f"http://127.0.0.1:{found.group(1)}", found.group(2)
        assert httpx.get(here + "/api/games", timeout=10).status_code == 403
        opened = httpx.get(f"{here}/?token={token}", timeout=10)
        assert opened.status_code == 303 and opened.headers["location"] == "/"
        with httpx.Client(base_url=here, timeout=10) as browser:
            browser.cookies.set(*opened.headers["set-cookie"].split(";")[0].split("=", 1))
            assert browser.get("/api/games").status_code == 200
        assert httpx.get(here + "/api/games", headers={"authorization": f"Token {token}"},
                         timeout=10).status_code == 200


def test_the_real_server_refuses_a_foreign_host_and_a_foreign_websocket():
    import httpx
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with serving("--bots", str(BOTS / "nim")) as url:
        r = httpx.get(url + "/api/games", headers={"host": "rebound.example"}, timeout=10)
        assert r.status_code == 421
        ws_url = url.replace("http://", "ws://") + WATCH
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url, origin="http://evil.example", open_timeout=10)
        assert refused.value.response.status_code == 403
        with connect(ws_url, origin=url, open_timeout=30) as ws:
            assert '"start"' in ws.recv(timeout=30)


def test_no_other_sites_page_may_show_the_app_in_a_frame(db):
    # (a page that laid the app under its own would turn a click on it into the user's)
    with TestClient(create_app(Served(db=db)), base_url=HERE) as c:
        for answer in (c.get("/"), c.get("/api/runs"), c.get("/api/runs",
                                                                 headers={"host": "x.example"})):
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["content-security-policy"] == "frame-ancestors 'none'"
