"""The league of `judge serve --db FILE` in the browser (docs/league.md): the live
leaderboard at ``/league``, each bot's rating history with links to its stored games, and
uploads of a new version with the contestant's token.

Many browsers poll the leaderboard: `LeagueView` keeps the league's state and adds only the
games stored since its last look, and answers from a cache while neither the games nor the
members changed, so that a poll costs the league a count and no rating. No route serves a
bot's source: the pages show names, labels and games only.
"""

from __future__ import annotations

import asyncio
import bisect
import hmac
import math
import sqlite3
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from judge.games.base import InputError
from judge.kinds.league import LeaguePlan, league_of, token_hash
from judge.league import LeagueState, game_number
from judge.web.sessions import AddsVersion, Served, WebError

#: the largest source uploaded, in bytes (UTF-8)
MAX_SOURCE = 256 * 1024
#: the largest upload request read (a source of MAX_SOURCE, escaped as JSON)
MAX_UPLOAD = 8 * MAX_SOURCE
#: a bot file's name as uploaded: letters, digits, '.', '_' and '-' with a suffix
FILE_NAME = r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}\.[A-Za-z0-9]{1,8}"
#: how long an answer is given again without a look at the database (seconds)
FRESH_SECONDS = 1.0
#: the latest games listed under the leaderboard
RECENT = 20
#: uploads of one contestant under way at once: its versions are numbered in turn, and
#: one token cannot keep the compilers busy
UPLOADS_IN_FLIGHT = 1
#: uploads of one contestant in a minute (each compiles a program); more: 429
UPLOADS_PER_MINUTE = 6
#: uploads compiled at once, every contestant's together: the league plays on the rest
UPLOADS_AT_ONCE = 2
#: what a contestant whose upload is under way is told to wait (seconds)
UPLOAD_RETRY_SECONDS = 5


def token_matches(plan: LeaguePlan, name: str, token: Any) -> bool:
    """Whether `token` is `name`'s, compared in constant time (a wrong one, another
    contestant's, none or not a string: False)."""
    kept = plan.tokens.get(name) if isinstance(name, str) else None
    given = token if isinstance(token, str) and len(token) <= 200 else ""
    # compared all the same when NAME has no token: the time tells nothing
    same = hmac.compare_digest(token_hash(given), kept or "-" * 64)
    return same and kept is not None and bool(given)


class LeagueView:
    """The served database's league, kept up to date game by game; what the pages show,
    cached by the stored games and the members."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.lock = threading.Lock()
        self.run_id: int | None = None
        self.state: LeagueState | None = None
        self.cached: dict[str, Any] = {}
        self.running = False
        self.looked = -math.inf  # when the database was last looked at
        self.cost = 0.0  # how long the last look at the board took (seconds)
        self.order: list[int] = []  # the games' numbers, in order: the viewer's

    def refresh(self) -> LeagueState:
        """The state after every stored game (the cache emptied when it changed)."""
        from judge.store import Store

        try:
            store = Store(self.db, read_only=True)
        except InputError as exc:
            raise WebError(404, str(exc)) from None
        try:
            if self.run_id is None:
                found = [r.id for r in store.runs() if r.kind == "league"]
                if not found:
                    raise WebError(404, f"there is no league in {self.db.name}")
                self.run_id = found[0]
            plan = store.run(self.run_id).plan
            assert isinstance(plan, LeaguePlan)
            running = store.running(self.run_id)
            if self.state is None:
                self.state = LeagueState(plan)
            changed = plan != self.state.plan or running != self.running
            self.state.plan = plan
            before = len(self.state.games)
            changed = self.state.catch_up(store, self.run_id) > 0 or changed
        finally:
            store.db.close()
        if changed:
            self.cached.clear()
            self.running = running
        for key, _ in self.state.games[before:]:
            bisect.insort(self.order, game_number(key))
        return self.state

    def cache(self, what: str, make: Callable[[LeagueState], Any]) -> Any:
        with self.lock:
            # many browsers: one look a second at most, and a big league's board (drawn
            # again from every game) at most a twentieth of the time
            fresh = max(FRESH_SECONDS, 20 * self.cost)
            if what in self.cached and time.monotonic() - self.looked < fresh:
                return self.cached[what]
            began = time.monotonic()
            state = self.refresh()
            if what not in self.cached:
                self.cached[what] = make(state)
            self.looked = time.monotonic()
            self.cost = self.looked - began if what == "board" else self.cost
            return self.cached[what]

    def link(self, number: int) -> str:
        """The viewer's address of the league's game `number`: the viewer numbers a league's
        games in the order of their numbers (`numbered_games`), so the two agree but where a
        game matched was never stored (one in flight at a stop)."""
        return f"/run/{self.run_id}/game/{bisect.bisect_left(self.order, number) + 1}"

    def board(self) -> dict[str, Any]:
        def make(state: LeagueState) -> dict[str, Any]:
            labels = state.plan.display_names()
            recent = [{"game": game_number(key), "start": rec.start,
                       "players": [labels.get(p, p) for p in rec.players],
                       "results": list(rec.results), "link": self.link(game_number(key))}
                      for key, rec in state.games[-RECENT:][::-1]]
            return {"league": self.run_id, "game": state.plan.game,
                    "games": len(state.games), "running": self.running,
                    # a version by its label: its seat is the path of the server's copy
                    "leaderboard": [{k: v for k, v in s.to_json().items() if k != "seat"}
                                    | {"rank": n}
                                    for n, s in enumerate(state.leaderboard(), 1)],
                    "recent": recent}
        return self.cache("board", make)

    def bot(self, name: str) -> dict[str, Any]:
        def make(state: LeagueState) -> dict[str, Any]:
            versions = [m for m in state.plan.members if m.name == name]
            if not versions:
                raise WebError(404, f"there is no bot {name!r} in the league")
            labels = state.plan.display_names()
            return {"name": name, "versions": [
                {"label": m.label, "active": m.active, "anchor": m.anchor,
                 "history": [dict(step.to_json(),
                                  opponent=labels.get(step.opponent, step.opponent),
                                  link=self.link(step.game))
                             for step in state.history.get(m.seat, [])]}
                for m in versions]}
        try:
            return self.cache(f"bot {name}", make)
        finally:
            if len(self.cached) > 64:  # many names asked for: keep the board only
                self.cached = {k: v for k, v in self.cached.items() if k == "board"}


class UploadTurns:
    """Whose uploads may go on: at most `UPLOADS_IN_FLIGHT` of one contestant under way and
    `UPLOADS_PER_MINUTE` in a minute, so that one token's flood is refused at once (429) and
    leaves the others' uploads their turn."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.lock = threading.Lock()
        self.running: dict[str, int] = {}
        self.recent: dict[str, list[float]] = {}

    def take(self, name: str) -> None:
        """Start an upload of `name`; a `WebError` 429 if it must wait."""
        with self.lock:
            now = self.clock()
            times = [t for t in self.recent.get(name, []) if now - t < 60.0]
            self.recent = {k: v for k, v in self.recent.items() if k == name or
                           v and now - v[-1] < 60.0}  # forget who has not sent for a minute
            if self.running.get(name, 0) >= UPLOADS_IN_FLIGHT:
                raise WebError(429, f"an upload of {name} is under way: send the next once "
                               "it is answered", retry_after=UPLOAD_RETRY_SECONDS)
            if len(times) >= UPLOADS_PER_MINUTE:
                wait = math.ceil(60.0 - (now - times[0]))
                raise WebError(429, f"{name} has sent {UPLOADS_PER_MINUTE} uploads in the "
                               f"last minute: try again in {wait} s", retry_after=max(1, wait))
            self.recent[name] = [*times, now]
            self.running[name] = self.running.get(name, 0) + 1

    def give_back(self, name: str) -> None:
        """End an upload of `name` (taken with `take`)."""
        with self.lock:
            self.running[name] -= 1
            if not self.running[name]:
                del self.running[name]


def busy(exc: sqlite3.OperationalError) -> WebError:
    """The answer to an upload when the league's database stayed busy past its wait."""
    return WebError(503, f"the league's database is busy ({exc}): nothing was added, send "
                    "it again", retry_after=UPLOAD_RETRY_SECONDS)


def contestant(db: Path, data: dict[str, Any]) -> str:
    """The contestant whose upload `data` is, if its token is theirs (else 403)."""
    from judge.store import Store

    name, token = data.get("name"), data.get("token")
    if not isinstance(name, str):
        raise WebError(400, "give name, token, filename and source, each a string")
    try:
        with Store(db, read_only=True) as store:
            plan = league_of(store).plan
    except sqlite3.OperationalError as exc:
        raise busy(exc) from None
    assert isinstance(plan, LeaguePlan)
    if not token_matches(plan, name, token):  # an unknown name too: nothing to learn
        raise WebError(403, "the token is not this contestant's")
    return name


def upload(db: Path, data: dict[str, Any], add_version: AddsVersion) -> dict[str, Any]:
    """Add the uploaded source as `name`'s next version, if the token is `name`'s: checked
    (size, a known language by the file name's suffix, it compiles) and copied into the
    league by `add_version` (`judge league add`'s); nothing is added when a check fails."""
    import re

    name = contestant(db, data)
    filename, source = data.get("filename"), data.get("source")
    if not isinstance(filename, str) or not isinstance(source, str):
        raise WebError(400, "give name, token, filename and source, each a string")
    raw = source.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_SOURCE:
        raise WebError(413, f"the source is {len(raw)} bytes; at most {MAX_SOURCE}")
    if not re.fullmatch(FILE_NAME, filename):
        raise WebError(400, "the file name is letters, digits, '_' and '-' with a suffix "
                       "(main.c, bot.py)")
    with tempfile.TemporaryDirectory(prefix="judge-upload-") as folder:
        path = Path(folder) / filename
        path.write_bytes(raw)
        try:
            added, retired = add_version(str(db), name, str(path), refuse_compile_error=True)
        except InputError as exc:
            raise WebError(422, str(exc)) from None
        except sqlite3.OperationalError as exc:
            raise busy(exc) from None
        except OSError as exc:  # such as a compiler not started: too many processes now
            raise WebError(503, f"the upload could not be compiled now ({exc.strerror or exc})"
                           ": nothing was added, send it again",
                           retry_after=UPLOAD_RETRY_SECONDS) from None
    return {"added": added.label, "retired": retired}


def league_routes(served: Served, page: Callable[..., Response],
                  read_json: Callable[..., Awaitable[dict[str, Any]]]) -> list[Route]:
    """The league's page and API, for `create_app` (`page` renders a template, `read_json`
    reads a request's JSON object up to a size)."""
    view = LeagueView(served.db) if served.db is not None else None
    turns = UploadTurns()
    compiling = asyncio.Semaphore(UPLOADS_AT_ONCE)

    def the_view() -> LeagueView:
        if view is None:
            raise WebError(404, "no results database is served: start with --db FILE")
        return view

    async def league_page(request: Request) -> Response:
        await run_in_threadpool(the_view().board)
        return page("league.html.j2", title="league")

    async def api_board(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(the_view().board))

    async def api_bot(request: Request) -> Response:
        name = request.query_params.get("name", "")
        if not 0 < len(name) <= 64:
            raise WebError(400, "name is a bot's name")
        return JSONResponse(await run_in_threadpool(the_view().bot, name))

    async def api_upload(request: Request) -> Response:
        data = await read_json(request, MAX_UPLOAD)
        the_view()
        assert served.db is not None
        if served.add_version is None:
            raise WebError(404, "this server takes no uploads")
        name = await run_in_threadpool(contestant, served.db, data)
        turns.take(name)
        try:
            async with compiling:
                done = await run_in_threadpool(upload, served.db, data, served.add_version)
        finally:
            turns.give_back(name)
        return JSONResponse(done, status_code=201)

    return [Route("/league", league_page),
            Route("/api/league", api_board),
            Route("/api/league/bot", api_bot),
            Route("/api/league/upload", api_upload, methods=["POST"])]
