"""The routes of `judge serve`: pages, the JSON API (docs/web.md) and the live WebSocket.

Starlette and uvicorn are imported here and in `guard` only (the optional extra ``web``).
Every request passes the checks of `guard` first (host, token, origin, content type; short
plain-text refusals). Every answer of the app to a bad request is a JSON object
``{"error": "..."}`` with a 4xx status; a failure of the app itself is a 500 with no
traceback. Solver and bot work runs in worker threads, so a slow move never holds up the
other games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from judge.games import game_class
from judge.games.base import InputError, RulesError
from judge.games.drawing import kit_script
from judge.html.boards import drawn_games, script_of
from judge.kinds import KINDS  # (also: a stored run of every kind is read, judge.plan.PLANS)
from judge.records import Verdict
from judge.sandbox.context import slot_wait
from judge.sandbox.slots import NoSlot
from judge.web.connections import client_address
from judge.web.explain import OPPONENTS
from judge.web.guard import LOCAL, Guard, GuardSettings
from judge.web.league import league_routes
from judge.web.sessions import (
    BOT_MOVES,
    HUMAN,
    MAX_WATCHES,
    Recorded,
    Served,
    Session,
    Sessions,
    WebError,
    bot_game,
    bot_names,
    check_opponent,
    flag_of,
    game_info,
    is_bot,
    load,
    move_values_json,
    moves_of,
    players_of,
    replayed,
    text_of,
    watch,
)
from judge.words import plural

#: the largest request body read
MAX_BODY = 16 * 1024
#: seconds for a request's whole body: an upload's 2 MiB at 1 Mbit/s, and a slow client
#: holds its connection no longer
BODY_SECONDS = 30.0


@dataclass(frozen=True)
class StoredGame:
    """A stored game as the app opens it (``GET /api/runs/RUN/games/N``): its place, its
    game and rules, its start and moves, its players and how it ended."""

    run: int
    #: numbered as `judge show RUN --details` numbers it
    number: int
    name: str
    rules: str
    start: str
    moves: tuple[str, ...]
    #: by seat: the player's name as the run's text gives it (a bot's file name, or its
    #: folder's, its --names name or its league version; the run's opponent kind)
    players: tuple[str, ...]
    results: tuple[str, ...]
    verdict: Verdict

    def to_json(self) -> dict[str, Any]:
        """The game as the API answers it."""
        return {"run": self.run, "number": self.number, "name": self.name,
                "rules": self.rules, "start": self.start, "moves": list(self.moves),
                "players": list(self.players), "results": list(self.results),
                "verdict": self.verdict.to_dict()}

#: seconds between looks for idle games
REAP_SECONDS = 5.0
#: what a game refused for want of a game slot (every one of the machine in a game) is
#: told to wait, in seconds
NO_SLOT_RETRY_SECONDS = 30
#: the longest pause between the moves of a watched game
MAX_PAUSE = 5.0
STATIC = Path(__file__).parent / "static"

_templates = Environment(loader=PackageLoader("judge.web", "templates"),
                         autoescape=select_autoescape(["j2"]))
#: the games whose renderers the play and watch pages load (a page may open any game)
_templates.globals["drawn_games"] = drawn_games


def error(status: int, message: str) -> JSONResponse:
    """The JSON answer to a refused request."""
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request's JSON object, read up to `limit` bytes within `BODY_SECONDS`."""
    body = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise WebError(413, f"the request is larger than {limit} bytes")
    except TimeoutError:
        raise WebError(408, f"the request's body took over {BODY_SECONDS:g} s to come: "
                       "send it again") from None
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise WebError(400, "the request body is not JSON") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise WebError(400, "the request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise WebError(400, "the request body is a JSON object")
    return data


def query(request: Request, name: str, default: str = "") -> str:
    """A query parameter, bounded in length."""
    return text_of(request.query_params.get(name, default), name)


def shows_values(request: Request) -> bool:
    """Whether a page shows the values: yes for learners, unless in practice
    (``practice=on``, or ``values=off``)."""
    return query(request, "practice") != "on" and query(request, "values") != "off"


def seat_of(text: Any) -> int:
    """A seat given as 1 or 2 (text or number)."""
    if not isinstance(text, bool) and text in (1, 2, "1", "2"):
        return int(text)
    raise WebError(400, "seat is 1 or 2")


async def board_script(request: Request) -> Response:
    """``/boards.js``: the kit of the board renderers; ``/boards/GAME.js``: that game's
    renderer, the very source the HTML report inlines (404 for a game drawn as text)."""
    name = request.path_params.get("game")
    text = kit_script() if name is None else await run_in_threadpool(script_of, name)
    if text is None:
        raise WebError(404, f"no board renderer for {name!r}")
    return Response(text, media_type="text/javascript; charset=utf-8")


async def protocol_page(request: Request) -> Response:
    """``/protocol/GAME``: the game's protocol page, as its package ships it (Markdown, shown
    as plain text); 404 for an unknown game or one without a page."""
    name = request.path_params["game"]
    try:
        text = game_class(name).protocol_text()
    except RulesError:
        text = None
    if text is None:
        raise WebError(404, f"no protocol page for {name!r}")
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page rendered from its template; the config it carries is JSON in the page."""
    template = _templates.get_template(name)
    return HTMLResponse(template.render(**context), status_code=status)


def create_app(served: Served, guard: GuardSettings = LOCAL) -> Starlette:
    """The application serving `served` (the bots' folder, limits, database), behind the
    checks of `guard` (the hosts answered, the token): see judge/web/guard.py."""
    sessions = Sessions(served)
    #: each game's turn to be answered, waited for here: a request for a game busy with
    #: another (a bot's move may take its whole limit) holds no worker thread while it waits
    turns: weakref.WeakKeyDictionary[Session, asyncio.Lock] = weakref.WeakKeyDictionary()

    async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
        return await run_in_threadpool(fn, *args)

    async def session_call(request: Request, action: Callable[[Session], Any]) -> Response:
        """Run `action` on the request's game under its lock, then answer its state."""
        session = sessions.get(request.path_params["sid"])

        def work() -> Any:
            with session.lock:
                extra = action(session)
                return extra if extra is not None else session.state()

        async with turns.setdefault(session, asyncio.Lock()):
            return JSONResponse(await in_thread(work))

    # --- pages --------------------------------------------------------------------------
    async def index(request: Request) -> Response:
        return page("index.html.j2", title="play, watch, replay", games=game_info(),
                    bots=[(b, bot_game(b)) for b in bot_names(served)],
                    runs=await in_thread(stored_runs) if served.db else [])

    async def play_page(request: Request) -> Response:
        name = request.path_params["game"]
        config = {"game": name, "rules": query(request, "rules"),
                  "position": query(request, "position"),
                  "moves": moves_of(request.query_params.get("moves", "")),
                  "opponent": query(request, "opponent", HUMAN) or HUMAN,
                  "values": shows_values(request),
                  "seat": seat_of(query(request, "seat", "1"))}
        game, start = await in_thread(load, name, config["rules"], config["position"])
        await in_thread(replayed, game, start, config["moves"])
        config["players"] = players_of(served, query(request, "players"))
        check_opponent(served, config["opponent"])
        if config["moves"] and any(map(is_bot, config["players"] or [config["opponent"]])):
            raise WebError(400, BOT_MOVES)
        return page("play.html.j2", config=config, title=f"{game.name}: play")

    async def stored_page(request: Request) -> Response:
        run, number = request.path_params["run"], request.path_params["number"]
        stored = await in_thread(stored_game, run, number)
        check_opponent(served, query(request, "opponent", HUMAN) or HUMAN)
        move = query(request, "move", "")  # none: at its end, as it was played out
        config = {"stored": {"run": run, "number": number,
                             "move": int(move) if move.isdigit() and len(move) < 6
                             else len(stored.moves)},
                  "opponent": query(request, "opponent", HUMAN) or HUMAN,
                  "values": shows_values(request), "seat": 1}
        return page("play.html.j2", config=config, title=f"run {run}, game {number}")

    async def watch_page(request: Request) -> Response:
        name = request.path_params["game"]
        config = {"game": name, "rules": query(request, "rules"),
                  "position": query(request, "position"), "bot": query(request, "bot"),
                  "opponent": query(request, "opponent", "optimal") or "optimal",
                  "seat": seat_of(query(request, "seat", "1")),
                  "pause": query(request, "pause", "0.5")}
        await in_thread(load, name, config["rules"], config["position"])
        for who in (config["bot"] or "-", config["opponent"]):
            check_opponent(served, who)
        return page("watch.html.j2", config=config, title=f"{name}: watch a bot")

    # --- the API ------------------------------------------------------------------------
    async def api_games(request: Request) -> Response:
        return JSONResponse({"games": game_info(), "bots": bot_names(served),
                             "opponents": [HUMAN, "optimal", "tricky", "level:0 .. level:10"],
                             "about": OPPONENTS})

    async def api_values(request: Request) -> Response:
        args = [query(request, k) for k in ("game", "rules", "position")]
        return JSONResponse(await in_thread(move_values_json, *args))

    async def api_create(request: Request) -> Response:
        data = await read_json(request)
        opponent = data.get("opponent", HUMAN)
        values = flag_of(data.get("values", False), "values")
        if "run" in data:
            stored = await in_thread(stored_game, data.get("run"), data.get("number"))
            at = data.get("move", len(stored.moves))  # none: at its end
            if not isinstance(at, int) or isinstance(at, bool):
                raise WebError(400, "move is a whole number")
            if is_bot(opponent):
                raise WebError(400, "a stored game is taken over by a person or a computer "
                               "player, not a bot")

            def create() -> Session:
                return sessions.create(stored.name, stored.rules, stored.start,
                                       opponent, 1, values, list(stored.moves), at,
                                       recorded=Recorded(stored.players, stored.verdict))
        else:
            seat = seat_of(data.get("seat", 1))

            def create() -> Session:
                return sessions.create_json(data, seat, client_address(request.scope))

        session = await in_thread(create)
        try:
            state = await in_thread(lambda: _locked_state(session))
        except Exception:  # (a solver's refusal): the game is not kept, nor its bot
            await in_thread(sessions.end, session.id)
            raise
        return JSONResponse(state, status_code=201)

    async def api_state(request: Request) -> Response:
        return await session_call(request, lambda s: None)

    def expecting(step: Callable[[Session, dict[str, Any]], Any]) -> Callable[..., Any]:
        """A route that plays `step` with the request's JSON; refused (409) if the body's
        `ply` (optional) is not the number of moves played, so that a repeated click or a
        replayed request does nothing twice."""
        async def route(request: Request) -> Response:
            data = await read_json(request)

            def action(session: Session) -> Any:
                session.expect(data.get("ply"))
                return step(session, data)

            return await session_call(request, action)
        return route

    api_move = expecting(lambda s, data: s.play(data.get("move")))
    api_undo = expecting(lambda s, data: s.undo())
    api_redo = expecting(lambda s, data: s.redo())
    api_advance = expecting(lambda s, data: s.advance(data.get("one", False)))

    async def api_goto(request: Request) -> Response:
        data = await read_json(request)
        return await session_call(request, lambda s: s.goto(data.get("ply")))

    async def api_options(request: Request) -> Response:
        data = await read_json(request)
        flag_of(data.get("values"), "values")

        def switch(session: Session) -> Any:
            """Values on or off; left as they were when the solver refuses the game."""
            before, session.values = session.values, data["values"]
            try:
                return session.state()
            except (InputError, WebError):
                session.values = before
                raise

        return await session_call(request, switch)

    async def api_hint(request: Request) -> Response:
        return await session_call(request, lambda s: s.hint())

    async def api_end(request: Request) -> Response:
        sid = request.path_params["sid"]
        sessions.get(sid)
        await in_thread(sessions.end, sid)
        return JSONResponse({"ended": sid})

    def stored_runs() -> list[dict[str, Any]]:
        from judge.store import Store

        if served.db is None:
            return []
        store = Store(served.db, read_only=True)
        try:
            return [{"id": r.id, "kind": r.kind, "game": r.game, "games": r.games,
                     "bots": r.bots} for r in store.runs()]
        finally:
            store.db.close()

    def stored_game(run: Any, number: Any) -> StoredGame:
        """Game `number` of stored run `run`, numbered as `judge show RUN --details` does."""
        if served.db is None:
            raise WebError(404, "no results database is served: start with --db FILE")
        for value, what in ((run, "run"), (number, "number")):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 1 << 62:
                raise WebError(400, f"{what} is a whole number from 1")
        from judge.store import Store

        try:
            store = Store(served.db, read_only=True)
        except InputError as exc:
            raise WebError(404, str(exc)) from None
        try:
            try:
                info = store.run(run)
            except InputError as exc:
                raise WebError(404, str(exc)) from None
            listed = KINDS[info.kind].numbered_games(info.plan, store.games(run))
        finally:
            store.db.close()
        if not 1 <= number <= len(listed):
            raise WebError(404, f"run {run} has {len(listed)} stored games")
        rec, _ = listed[number - 1]
        game = info.plan.load_game()
        names = info.plan.display_names()
        return StoredGame(run, number, game.name, game.rules_string(), rec.start,
                          tuple(rec.move_texts),
                          tuple(names.get(p, Path(info.plan.shown_name(p)).name)
                                for p in rec.players),
                          rec.results, rec.verdict)

    async def api_stored(request: Request) -> Response:
        run, number = request.path_params["run"], request.path_params["number"]
        return JSONResponse((await in_thread(stored_game, run, number)).to_json())

    async def api_runs(request: Request) -> Response:
        if served.db is None:
            raise WebError(404, "no results database is served: start with --db FILE")
        return JSONResponse({"runs": await in_thread(stored_runs)})

    #: the games being watched now (each with a bot process), by client address
    watching: Counter[str] = Counter()

    async def api_watch(socket: WebSocket) -> None:
        """A watched game, unless `MAX_WATCHES` are being watched already (503), or the
        client's address watches its share of them (429, as for games with a bot)."""
        address, share = client_address(socket.scope), served.bot_games_per_address
        refusal = None
        if watching.total() >= MAX_WATCHES:
            refusal = WebError(503, f"{MAX_WATCHES} games are being watched; try again later")
        elif watching[address] >= share:
            refusal = WebError(429, f"this address watches {plural(share, 'game')}, as many "
                               "as one address may (judge serve --bot-games-per-address): "
                               "try again when one ends")
        if refusal is not None:
            await socket.accept()
            await _refuse(socket, refusal)
            return
        watching[address] += 1
        try:
            await stream_watch(socket)
        finally:
            watching[address] -= 1
            if not watching[address]:
                del watching[address]

    async def stream_watch(socket: WebSocket) -> None:
        """A bot's game streamed live: one message per move, judged, then the end."""
        await socket.accept()
        params = socket.query_params
        try:
            pause = float(text_of(params.get("pause", "0"), "pause") or 0)
            if not 0 <= pause <= MAX_PAUSE:
                raise ValueError
        except ValueError:
            await _refuse(socket, WebError(400, f"pause is 0 to {MAX_PAUSE} seconds"))
            return
        try:
            game = await in_thread(
                watch, served, params.get("game"), params.get("rules", ""),
                params.get("position", ""), params.get("bot"),
                params.get("opponent", "optimal"), seat_of(params.get("seat", "1")))
        except WebError as exc:
            await _refuse(socket, exc)
            return
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def send(event: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(events.put_nowait, event)

        await socket.send_json({"type": "start", "players": [p.name for p in game.players],
                                "position": game.game.format_position(game.start),
                                "to_move": game.game.mover(game.start) + 1,
                                "meta": _meta(game.game), "board": _board(game)})
        playing = asyncio.ensure_future(run_in_threadpool(game.run, send, pause))
        try:
            while True:
                event = await events.get()
                await socket.send_json(event)
                if event["type"] == "end":
                    break
        except WebSocketDisconnect:
            pass
        finally:
            game.stopped.set()
            with contextlib.suppress(Exception):
                await playing
            with contextlib.suppress(Exception):
                await socket.close()

    # --- errors -------------------------------------------------------------------------
    async def web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        answer: Response
        if _wants_page(request):
            answer = page("error.html.j2", status=exc.status, message=exc.message,
                          title="error")
        else:
            answer = error(exc.status, exc.message)
        if exc.retry_after is not None:
            answer.headers["retry-after"] = str(exc.retry_after)
        return answer

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(exc.status_code, str(exc.detail))

    async def too_large(request: Request, exc: Exception) -> Response:
        """An input the app's own checks let through that a solver refuses: too many
        positions to solve (a game without a browser limit of its own)."""
        return await web_error(request, WebError(413, str(exc)))

    async def no_slot(request: Request, exc: Exception) -> Response:
        """Every game slot of the machine is in a game (this server's and other judges'):
        a bot cannot start now."""
        return await web_error(request, WebError(503, f"{exc}: try again later",
                                                 retry_after=NO_SLOT_RETRY_SECONDS))

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, f"the app failed: {type(exc).__name__}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def reaper() -> None:
            while True:
                await asyncio.sleep(REAP_SECONDS)
                await run_in_threadpool(sessions.reap)

        task = asyncio.ensure_future(reaper())
        try:
            yield
        finally:
            task.cancel()
            await run_in_threadpool(sessions.close)

    sid = "/api/sessions/{sid:str}"
    routes = [
        Route("/", index),
        Route("/play/{game:str}", play_page),
        Route("/watch/{game:str}", watch_page),
        Route("/run/{run:int}/game/{number:int}", stored_page),
        *league_routes(served, page, read_json),
        Route("/api/games", api_games),
        Route("/api/values", api_values),
        Route("/api/runs", api_runs),
        Route("/api/runs/{run:int}/games/{number:int}", api_stored),
        Route("/api/sessions", api_create, methods=["POST"]),
        Route(sid, api_state, methods=["GET"]),
        Route(sid, api_end, methods=["DELETE"]),
        Route(sid + "/end", api_end, methods=["POST"]),
        Route(sid + "/move", api_move, methods=["POST"]),
        Route(sid + "/undo", api_undo, methods=["POST"]),
        Route(sid + "/redo", api_redo, methods=["POST"]),
        Route(sid + "/goto", api_goto, methods=["POST"]),
        Route(sid + "/advance", api_advance, methods=["POST"]),
        Route(sid + "/options", api_options, methods=["POST"]),
        Route(sid + "/hint", api_hint, methods=["GET"]),
        WebSocketRoute("/api/watch", api_watch),
        Route("/boards.js", board_script),
        Route("/boards/{game:str}.js", board_script),
        Route("/protocol/{game:str}", protocol_page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, settings=guard), Middleware(AtOnce)],
                    exception_handlers={WebError: web_error, HTTPException: http_error,
                                        InputError: too_large, NoSlot: no_slot,
                                        Exception: server_error})
    app.state.sessions = sessions
    return app


class AtOnce:
    """ASGI middleware: a bot a request starts takes a game slot without waiting for one
    (`NoSlot` at once, answered 503 with Retry-After), so that a full machine never holds
    the server's worker threads: a batch run's game waits up to `SLOT_WAIT_SECONDS`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with slot_wait(0):
            await self.app(scope, receive, send)


def _locked_state(session: Session) -> dict[str, Any]:
    with session.lock:
        return session.state()


def _wants_page(request: Request) -> bool:
    return not request.url.path.startswith("/api/")


def _meta(game: Any) -> dict[str, Any]:
    from judge.html.boards import board_meta

    return board_meta(game)


def _board(watched: Any) -> dict[str, Any]:
    from judge.html.boards import drawable

    return drawable(watched.game, watched.start)


async def _refuse(socket: WebSocket, exc: WebError) -> None:
    """Tell a spectator why the game cannot be watched, and close."""
    await socket.send_json({"type": "error", "status": exc.status, "error": exc.message})
    await socket.close(code=4000 + exc.status)

