"""`judge serve` under slow, idle and flooding clients (docs/web.md, "Slow clients and
floods"): a request head not whole within a few seconds closes its connection, one address
holds a bounded number of connections and the server a bounded total (above them a new one is
answered 503 at once), one contestant's uploads wait their turn (429 past one in flight or a
few a minute) while another's is answered; and its token never on its command line.

Every server here is on 127.0.0.1; a flood comes from another loopback address (127.0.0.2),
as another machine's would. The waits are generous liveness checks, not speed bounds.
"""

from __future__ import annotations

import re
import resource
import select
import socket
import stat
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

#: slow: a thousand connections, and header timeouts waited out (`-m slow` runs them)
pytestmark = pytest.mark.slow

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
httpx = pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from tests.command import judge  # noqa: E402
from tests.webserver import BOTS, started  # noqa: E402

GREEDY = BOTS / "nim" / "greedy.py"
#: how long a client waits for an answer: a liveness check, not a speed bound
ANSWERED = 30.0
#: how long a connection the server should close may stay open: the header timeout and then
#: some, on a machine shared with other runs
CLOSED = 60.0
#: the address a flood comes from (the server and the other clients use 127.0.0.1)
FLOODER = "127.0.0.2"
#: a request head that is never finished
HALF_HEAD = b"GET / HTTP/1.1\r\nHost: x"
TOKEN = "a-token-of-the-test-0123456789"
#: the connections of a flood: more than a process may open by default (1,024)
FLOOD = 1100


def league(folder: Path, *args: str) -> str:
    out = judge("league", *args, "--db", "l.db", cwd=folder)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A Nim league of two contestants, amy and bob, and an anchor."""
    folder = tmp_path_factory.mktemp("serve-flood")
    (folder / "starts.txt").write_text("1 2 4\n2 3\n")
    league(folder, "new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
    league(folder, "add", "--anchor", "level:2")
    league(folder, "add", "amy", str(GREEDY))
    league(folder, "add", "bob", str(GREEDY))
    return folder


def source(n: int) -> str:
    """A new version of the greedy bot, told apart by `n`."""
    return GREEDY.read_text() + f"# version {n}\n"


def upload(url: str, name: str, token: str, n: int) -> httpx.Response:
    body = {"name": name, "token": token, "filename": f"{name}.py", "source": source(n)}
    return httpx.post(url + "/api/league/upload", json=body, timeout=ANSWERED * 4)


@contextmanager
def enough_descriptors(count: int) -> Iterator[None]:
    """This process's soft descriptor limit raised to hold `count` more sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, count + 256))
    if want < count + 64:
        pytest.skip(f"this process may open {hard} descriptors, the test needs {count}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def half_open(port: int, count: int, stack: ExitStack, source: str = FLOODER) -> list:
    """`count` connections from `source`, each having sent half a request head."""
    socks = []
    for _ in range(count):
        s = stack.enter_context(socket.socket())
        s.bind((source, 0))
        s.settimeout(10)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(HALF_HEAD)
        except OSError:  # refused at once: as good as answered
            pass
        socks.append(s)
    return socks


def all_ended(socks: list, within: float) -> int:
    """Wait until every socket of `socks` is answered or closed by the server (at most
    `within` seconds); how many are still open and silent then."""
    waiting = {s.fileno(): s for s in socks if s.fileno() >= 0}
    deadline = time.monotonic() + within
    while waiting and time.monotonic() < deadline:
        poller = select.poll()
        for fd in waiting:
            poller.register(fd, select.POLLIN)
        for fd, _ in poller.poll(1000):
            waiting.pop(fd, None)
    return len(waiting)


def whole_answer(sock: socket.socket, within: float = ANSWERED) -> bytes:
    """One whole answer read from `sock` (its head and Content-Length bytes of body)."""
    sock.settimeout(within)
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        assert chunk, got
        got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, got
        body += chunk
    assert len(body) == length
    return head + b"\r\n\r\n" + body


def port_of(url: str) -> int:
    found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/.*", url)
    assert found, url
    return int(found.group(1))


# --- slow and idle clients ----------------------------------------------------------------

def test_a_connection_without_a_whole_request_head_is_closed_after_the_header_timeout():
    with started() as (_, url), ExitStack() as stack:
        port = port_of(url)
        silent = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        half = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        half.sendall(HALF_HEAD)
        # a kept-alive connection that starts a second request and never finishes it
        kept = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        kept.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert whole_answer(kept).startswith(b"HTTP/1.1 200 ")
        kept.sendall(b"G")
        began = time.monotonic()
        socks = [silent, half, kept]
        assert all_ended(socks, CLOSED) == 0
        print(f"closed after {time.monotonic() - began:.1f} s")
        for s in socks:
            s.settimeout(1)
            assert s.recv(65536) == b""  # closed, with nothing said


def test_a_body_that_does_not_come_whole_is_answered_408():
    with started() as (_, url), ExitStack() as stack:
        slow = stack.enter_context(socket.create_connection(("127.0.0.1", port_of(url))))
        slow.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: "
                     b"application/json\r\ncontent-length: 100\r\n\r\n{\"game\"")
        began = time.monotonic()
        answer = whole_answer(slow, CLOSED)
        print(f"answered after {time.monotonic() - began:.1f} s")
        assert answer.startswith(b"HTTP/1.1 408 ") and b'"error"' in answer, answer


def test_a_thousand_half_open_connections_leave_another_client_answered(folder):
    bob = league(folder, "token", "bob").strip()
    with enough_descriptors(FLOOD), ExitStack() as stack, \
            started("--db", str(folder / "l.db"), open_files=1024) as (_, url):
        port = port_of(url)
        flood = half_open(port, FLOOD, stack)
        began = time.monotonic()
        got = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=ANSWERED)
        print(f"GET answered in {time.monotonic() - began:.3f} s under {FLOOD} half-open "
              "connections")
        assert got.status_code == 200
        began = time.monotonic()
        sent = upload(f"http://127.0.0.1:{port}", "bob", bob, 1)
        print(f"upload answered in {time.monotonic() - began:.3f} s")
        assert sent.status_code == 201, sent.text
        # and no connection of the flood is left hanging: answered 503 or closed
        assert all_ended(flood, CLOSED) == 0


def test_one_address_cannot_hold_every_connection(folder):
    """Past the cap for one address a new connection from it is answered 503 at once."""
    with enough_descriptors(600), ExitStack() as stack, started() as (_, url):
        port = port_of(url)
        half_open(port, 500, stack)
        late = stack.enter_context(socket.socket())
        late.bind((FLOODER, 0))
        late.settimeout(ANSWERED)
        late.connect(("127.0.0.1", port))
        late.sendall(HALF_HEAD)
        answer = late.recv(65536)
        assert answer.startswith(b"HTTP/1.1 503 "), answer
        assert b"\r\nretry-after: " in answer.lower()


def test_past_the_total_cap_a_connection_from_anywhere_is_answered_503_at_once():
    """A server that may open 300 descriptors holds 300 - RESERVED_FILES connections."""
    from judge.web.connections import RESERVED_FILES

    total = 300 - RESERVED_FILES
    with ExitStack() as stack, started(open_files=300, hard_files=300) as (_, url):
        port = port_of(url)
        held = []
        for n in range(total):  # a few from each address, below the cap of one
            held += half_open(port, 1, stack, source=f"127.0.1.{n % 8 + 1}")
        late = stack.enter_context(socket.socket())
        late.bind(("127.0.2.1", 0))
        late.settimeout(ANSWERED)
        late.connect(("127.0.0.1", port))
        answer = late.recv(65536)
        assert answer.startswith(b"HTTP/1.1 503 "), answer
        assert all_ended(held, CLOSED) == 0  # then closed by the header timeout
        got = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=ANSWERED)
        assert got.status_code == 200  # and their places free again


def test_connections_are_counted_by_address_and_in_all():
    from judge.web.connections import Caps

    caps = Caps(per_address=2, total=3)
    a, b, c, d = object(), object(), object(), object()
    assert caps.admit(a, "10.0.0.1") and caps.admit(b, "10.0.0.1")
    assert not caps.admit(c, "10.0.0.1")  # a third from one address
    assert caps.admit(a, "10.0.0.1")  # held already (an HTTP connection made a WebSocket)
    assert caps.admit(c, "10.0.0.2")
    assert not caps.admit(d, "10.0.0.3")  # a fourth in all
    caps.release(a)
    caps.release(a)  # once only
    assert caps.admit(d, "10.0.0.3") and not caps.admit(object(), "10.0.0.4")
    assert dict(caps.by_address) == {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.3": 1}


def test_a_websocket_holds_its_connection_until_it_ends():
    import asyncio

    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket
    from websockets.sync.client import connect

    from judge.web.connections import Caps, server_config

    async def echo(socket: WebSocket) -> None:  # (open until the client ends it)
        await socket.accept()
        await socket.send_text(await socket.receive_text())
        await socket.receive_text()

    caps = Caps()
    app = Starlette(routes=[WebSocketRoute("/echo", echo)])
    server = uvicorn.Server(server_config(app, "127.0.0.1", 0, caps))
    thread = threading.Thread(target=asyncio.run, args=(server.serve(),), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + ANSWERED
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started, "the server did not start"
        port = server.servers[0].sockets[0].getsockname()[1]
        with connect(f"ws://127.0.0.1:{port}/echo", open_timeout=ANSWERED) as ws:
            ws.send("hello")
            assert ws.recv(timeout=ANSWERED) == "hello"  # (the server holds it open)
            held = dict(caps.held)
            assert len(held) == 1, held  # the HTTP connection, now a WebSocket
        deadline = time.monotonic() + CLOSED
        while caps.held and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not caps.held and not caps.by_address, (caps.held, caps.by_address)
    finally:
        server.should_exit = True
        thread.join(ANSWERED)


# --- games with a bot ------------------------------------------------------------------

def test_one_address_holds_its_share_of_the_bot_games_whatever_its_headers_say():
    # one client held every place for a game with a bot; the share is counted by the
    # connection's address, as its connections are: a header naming another is not heeded
    game = {"game": "nim", "position": "5 5 5", "opponent": "greedy.py"}
    with started("--bots", str(BOTS / "nim"), "--bot-games-per-address", "1") as (_, url):
        api = f"http://127.0.0.1:{port_of(url)}/api/sessions"
        first = httpx.post(api, json=game, timeout=ANSWERED)
        assert first.status_code == 201, first.text
        for named in ({}, {"x-forwarded-for": "10.1.2.3"}, {"forwarded": "for=10.1.2.3"}):
            more = httpx.post(api, json=game, headers=named, timeout=ANSWERED)
            assert more.status_code == 429, (named, more.text)
            assert "--bot-games-per-address" in more.json()["error"]
            assert int(more.headers["retry-after"]) > 0
        other = httpx.Client(transport=httpx.HTTPTransport(local_address=FLOODER))
        with other:
            assert other.post(api, json=game, timeout=ANSWERED).status_code == 201


# --- uploads ----------------------------------------------------------------------------

def test_a_contestant_has_one_upload_under_way_and_a_few_a_minute():
    from judge.web.league import UPLOADS_PER_MINUTE, UploadTurns
    from judge.web.sessions import WebError

    now = [1000.0]
    turns = UploadTurns(clock=lambda: now[0])
    turns.take("amy")
    with pytest.raises(WebError) as busy:
        turns.take("amy")  # the first is under way
    assert busy.value.status == 429 and busy.value.retry_after
    turns.take("bob")  # another contestant's goes on
    turns.give_back("amy")
    for _ in range(UPLOADS_PER_MINUTE - 1):
        now[0] += 5
        turns.take("amy")
        turns.give_back("amy")
    now[0] += 5
    with pytest.raises(WebError) as many:
        turns.take("amy")  # the minute's uploads sent: the first was 30 s ago
    assert many.value.status == 429 and many.value.retry_after == 60 - 5 * UPLOADS_PER_MINUTE
    now[0] += many.value.retry_after
    turns.take("amy")  # the first has left the minute


def test_sixty_uploads_of_one_token_wait_their_turn_and_another_is_answered(folder):
    amy = league(folder, "token", "amy").strip()
    bob = league(folder, "token", "bob").strip()
    with started("--db", str(folder / "l.db")) as (_, url), \
            ThreadPoolExecutor(max_workers=61) as pool:
        here = url.rstrip("/")
        go = threading.Event()

        def amy_uploads(n: int) -> httpx.Response:
            go.wait()
            return upload(here, "amy", amy, 100 + n)

        flood = [pool.submit(amy_uploads, n) for n in range(60)]
        go.set()
        began = time.monotonic()
        mine = upload(here, "bob", bob, 2)
        print(f"another contestant's upload answered in {time.monotonic() - began:.3f} s")
        assert mine.status_code == 201, mine.text
        answers = [f.result() for f in flood]
    from judge.web.league import UPLOADS_PER_MINUTE

    statuses = sorted(a.status_code for a in answers)
    print("amy's 60 uploads:", {s: statuses.count(s) for s in set(statuses)},
          [a.text for a in answers if a.status_code not in (201, 429)])
    # added, or refused for now; or the compiler's own refusal (422), never a 500
    assert set(statuses) <= {201, 422, 429}
    assert 429 in statuses and len(statuses) - statuses.count(429) <= UPLOADS_PER_MINUTE
    for a in answers:
        assert "Traceback" not in a.text and "error" in a.json() or a.status_code == 201
        if a.status_code == 429:
            assert int(a.headers["retry-after"]) >= 1


def test_an_upload_that_fails_on_the_server_is_a_json_503_to_send_again(folder):
    from starlette.testclient import TestClient

    from judge.web.app import create_app
    from judge.web.sessions import Served

    def refused(*args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")  # a fork refused

    amy = league(folder, "token", "amy").strip()
    body = {"name": "amy", "token": amy, "filename": "amy.py", "source": source(7)}
    with TestClient(create_app(Served(db=folder / "l.db", add_version=refused)),
                    raise_server_exceptions=False, base_url="http://127.0.0.1:8000") as client:
        answer = client.post("/api/league/upload", json=body)
    assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
    assert "Resource temporarily unavailable" in answer.json()["error"]
    assert "Traceback" not in answer.text


# --- the token --------------------------------------------------------------------------

def test_a_token_on_the_command_line_is_refused_with_how_to_give_it():
    out = judge("serve", "--no-browser", "--port", "0", "--token", TOKEN, timeout=60)
    assert out.returncode == 2
    assert "--token-file" in out.stderr and "JUDGE_TOKEN" in out.stderr
    assert TOKEN not in out.stderr


def test_the_token_is_taken_from_the_environment_and_is_not_on_the_command_line():
    with started(env={"JUDGE_TOKEN": TOKEN}) as (proc, url):
        cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        assert TOKEN.encode() not in cmdline
        here = f"http://127.0.0.1:{port_of(url)}"
        assert httpx.get(here + "/api/games", timeout=ANSWERED).status_code == 403
        assert httpx.get(here + "/api/games", headers={"authorization": f"Token {TOKEN}"},
                         timeout=ANSWERED).status_code == 200


def test_the_token_is_taken_from_a_file_only_its_owner_may_read(tmp_path):
    secret = tmp_path / "token"
    secret.write_text(TOKEN + "\n")
    secret.chmod(0o644)
    out = judge("serve", "--no-browser", "--port", "0", "--token-file", str(secret),
                timeout=60)
    assert out.returncode == 2 and "chmod 600" in out.stderr, out.stderr
    secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with started("--token-file", str(secret)) as (proc, url):
        assert TOKEN.encode() not in Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        here = f"http://127.0.0.1:{port_of(url)}"
        assert httpx.get(here + "/api/games", timeout=ANSWERED).status_code == 403
        assert httpx.get(here + "/api/games", headers={"authorization": f"Token {TOKEN}"},
                         timeout=ANSWERED).status_code == 200


@pytest.mark.parametrize("where", ["env", "file"])
def test_a_bad_token_is_refused_from_the_file_and_the_environment(capsys, monkeypatch,
                                                                   tmp_path, where):
    import uvicorn

    from judge.cli import main

    async def started(self):
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "serve", started)
    args = ["serve", "--no-browser", "--port", "0"]
    if where == "env":
        monkeypatch.setenv("JUDGE_TOKEN", "short")
    else:
        (tmp_path / "token").write_text("sixteen;chars;and;more\n")
        (tmp_path / "token").chmod(0o600)
        args += ["--token-file", str(tmp_path / "token")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("judge: error: the token ") and "at least 16" in err


def test_the_descriptor_limit_is_raised_to_the_hard_limit_at_start():
    with started(open_files=1024) as (proc, _):
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
        soft, hard = re.search(r"Max open files\s+(\S+)\s+(\S+)", limits).groups()
        assert soft == hard, limits

