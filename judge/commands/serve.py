"""`judge serve`: the browser app, a local web server to play, explore and watch games."""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from judge import install_hint
from judge.commands.inputs import harness_setup, report_tier
from judge.commands.options import DEFAULT_DB, add_clock_options, add_harness_options
from judge.commands.runs import open_store
from judge.games.base import InputError

if TYPE_CHECKING:
    from judge.web.sessions import Served

HINT = ("judge serve needs Starlette and uvicorn, which this installation of the judge "
        f"lacks: {install_hint('web')}")
#: the port served when --port is not given
PORT = 8000
#: the environment variable that may hold the token
TOKEN_ENV = "JUDGE_TOKEN"
#: who plays on the clock of --tc in judge serve
SERVE_CLOCKS = ("every new game against a bot or computer player is played on a clock: the "
                "person's (their thinking counted by the server from the position shown to "
                "the move received) and each bot's (the optimal, tricky and level:N players "
                "are untimed)")
#: what --tc-for names in judge serve
SERVE_ODDS = ("BOT's own time control, for time odds (repeatable): BOT is you (the person "
              "at the page), a bot of --bots as the page names it (a path under --bots: "
              "greedy.py, sub/greedy.py) "
              "or a computer player (optimal, tricky, level:N: then on a clock of its own)")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `serve` subcommand."""
    p = sub.add_parser(
        "serve",
        help="play and explore the games in the browser",
        description="Start the browser app on this machine: play any game under any rules "
        "against the optimal, tricky or a weaker opponent (level:N), a bot of --bots "
        "(confined as in grading), or another person; every move's value on request; watch "
        "a bot play live; open stored games of --db at any move. See docs/web.md.",
        epilog="examples:\n  judge serve\n  judge serve --bots bots/nim --port 8080\n"
        "  judge serve --db judge-results.sqlite --no-browser\n"
        "  judge serve --host 0.0.0.0 --allow-host judge.lan\n\n"
        "who can reach it: requests addressed to a host it does not serve are refused\n"
        "(421; served: 127.0.0.1, localhost, [::1], --host, each --allow-host; the port\n"
        "is not compared); other sites' pages cannot change a game or open a live one\n"
        "(Origin, Sec-Fetch-Site, JSON bodies only); and on any --host but loopback\n"
        "every request needs the token in the address printed at start (or yours:\n"
        f"--token-file FILE or ${TOKEN_ENV}, never on the command line).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1, this machine only); "
                   "any address but loopback needs the token printed at start")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="also answer requests addressed to NAME, a host name or address by "
                   "which browsers reach the server (repeatable); other names get 421")
    p.add_argument("--token-file", type=Path, metavar="FILE",
                   help="a file (readable by its owner only: chmod 600) holding the token "
                   "every request must carry, at least 16 characters of A-Z a-z 0-9 - _ . ~ "
                   f"(else ${TOKEN_ENV} if set; else a random one, and only when --host is "
                   "not loopback; given, it is needed on loopback too)")
    # refused: a command line is readable by every process of the machine
    p.add_argument("--token", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=PORT,
                   help=f"the port (default: {PORT}; 0: any free port)")
    p.add_argument("--bots", type=Path, metavar="FOLDER",
                   help="the folder of bots the browser may play against or watch")
    p.add_argument("--db", type=Path, metavar="FILE",
                   help=f"a results database whose stored games the browser may open "
                   f"(default: {DEFAULT_DB} in this directory, when there is one)")
    p.add_argument("--idle", type=float, default=600.0, metavar="SECONDS",
                   help="end a game (and its bot) left this long without a request "
                   "(default: 600)")
    p.add_argument("--bot-games-per-address", type=int, metavar="N",
                   help="the games with a bot program (of the 8 the server runs at once) "
                   "that one client address may hold, and watch (of the 8 watched); past "
                   "them it gets 429 (default: 4, half; a class behind one NAT address or "
                   "proxy: up to 8)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    add_harness_options(p, jobs=False)
    add_clock_options(p, odds=SERVE_ODDS, who=SERVE_CLOCKS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn

        from judge.web.app import create_app
        from judge.web.connections import caps_for, raise_descriptor_limit, server_config
        from judge.web.guard import GuardSettings
    except ImportError:
        print(f"judge: error: {HINT}", file=sys.stderr)
        return 2
    from judge.commands import inputs, runs
    from judge.kinds.league import add_version
    from judge.web.sessions import BOT_GAMES_PER_ADDRESS, MAX_BOT_GAMES, Served

    if args.bots is not None and not args.bots.is_dir():
        raise InputError(f"--bots {args.bots} is not a folder")
    db = database(args.db)
    if db is not None and not db.is_file():
        raise InputError(f"--db {db}: no such results database")
    if db is not None:  # refused now, not as a page of its games is opened
        with open_store(str(db), read_only=True) as store:
            store.check()
    if not 0 <= args.port < 65536:
        raise InputError(f"--port is 0 to 65535, not {args.port}")
    if not args.idle > 0:
        raise InputError("--idle must be a positive number of seconds")
    share = BOT_GAMES_PER_ADDRESS if args.bot_games_per_address is None \
        else args.bot_games_per_address
    if not 1 <= share <= MAX_BOT_GAMES:
        raise InputError(f"--bot-games-per-address is 1 to {MAX_BOT_GAMES}, not {share}")
    try:
        guard = GuardSettings.serving(args.host, args.allow_host, given_token(args))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    check_port(args.host, args.port)
    setup = harness_setup(args)
    served = Served(bots=args.bots, limits=setup.limits, sandbox=setup.sandbox,
                    seed=setup.seed, idle_seconds=args.idle, db=db, clocks=setup.clocks,
                    bot_games_per_address=share,
                    add_version=functools.partial(add_version, inputs, runs))
    check_clocked(served)
    if args.bots is not None:  # bots may be played: what their confinement lacks
        report_tier()
    caps = caps_for(raise_descriptor_limit())
    server = uvicorn.Server(server_config(create_app(served, guard), args.host, args.port,
                                          caps))

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        host = f"[{args.host}]" if ":" in args.host else args.host
        token = f"?token={guard.token}" if guard.token else ""
        print(f"judge: serving on http://{host}:{port}/{token} (Ctrl-C stops)", flush=True)
        if guard.token:
            print("judge: every request needs the token (a browser opening this address "
                  "keeps it); host names answered: " + ", ".join(sorted(guard.hosts))
                  + " (--allow-host NAME adds one)", flush=True)
        if not args.no_browser and _has_display():
            import webbrowser

            if args.host in ("0.0.0.0", "::"):  # every address: open it by loopback
                host = "127.0.0.1" if args.host == "0.0.0.0" else "[::1]"
            webbrowser.open(f"http://{host}:{port}/{token}")

    async def main() -> None:
        task = asyncio.ensure_future(announce())
        await server.serve()
        task.cancel()

    asyncio.run(main())
    return 0


def check_clocked(served: Served) -> None:
    """`InputError` unless every side given a clock of its own (--tc-for) plays the served
    games: you (the person), a computer player or a bot of the served folder."""
    from judge.players.level import PREFIX, is_level, parse_level
    from judge.report import printable_line
    from judge.web.sessions import YOU, WebError, bot_names, bot_path

    def plays(name: str) -> bool:
        try:
            if is_level(name):  # as the player names itself: level:3, not level:03
                return name == f"{PREFIX}{parse_level(name)}"
            return name in (YOU, "optimal", "tricky") or bool(bot_path(served, name))
        except (InputError, WebError):
            return False

    bots = bot_names(served)[:6]
    shown = ", ".join(printable_line(b) for b in bots[:5]) + (", ..." if len(bots) > 5 else "")
    which = ("; no bots are served: --bots FOLDER" if served.bots is None
             else f" or a bot of --bots: {shown}" if bots else " or a bot of --bots (none there)")
    served.clocks.check_named([n for n in served.clocks.by_bot if plays(n)],
                              f"a player of the served games ({YOU}, optimal, tricky, "
                              f"level:N{which})")


def check_port(host: str, port: int) -> None:
    """`InputError` when another program listens on `host`:`port` (the server would fail
    to start with a traceback of its own), with the way out."""
    import errno
    import socket

    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return  # the server says what is wrong with the host
    family, kind, _, _, address = infos[0]
    with socket.socket(family, kind) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as exc:
            shown = f"[{host}]" if ":" in host else host
            if exc.errno == errno.EADDRINUSE:
                raise InputError(f"--port {port}: another program listens on {shown}:{port}: "
                                 f"give another port, or --port 0 for any free one") from None
            raise InputError(f"--port {port}: cannot listen on {shown}:{port}: "
                             f"{exc.strerror or exc}") from None


def given_token(args: argparse.Namespace) -> str | None:
    """The token of --token-file, else of `TOKEN_ENV` (taken out of the environment, which
    the judge's own programs inherit), else None. `InputError` for --token (a command line
    is readable by every process of the machine, in /proc/PID/cmdline) and for a file that
    others may read."""
    if args.token is not None:
        raise InputError("--token is refused: a command line is readable by every process "
                         "of this machine. Give the token in a file: --token-file FILE "
                         f"(chmod 600 FILE), or in the environment: {TOKEN_ENV}=...")
    from_env = os.environ.pop(TOKEN_ENV, None)
    if args.token_file is None:
        return from_env
    path: Path = args.token_file
    try:
        with open(path, "rb") as fh:
            mode = os.fstat(fh.fileno()).st_mode
            if mode & 0o077:
                raise InputError(f"--token-file {path} is open to others (mode "
                                 f"{mode & 0o777:o}): chmod 600 {path}")
            text = fh.read(4096).decode("utf-8", "replace")
    except OSError as exc:
        raise InputError(f"--token-file {path}: {exc.strerror}") from None
    return text.strip()


def database(given: Path | None) -> Path | None:
    """The results database whose games the app opens: --db, else `DEFAULT_DB` of this
    directory when there is one (the database `judge show` reads), else none."""
    if given is not None:
        return given
    default = Path(DEFAULT_DB)
    return default if default.is_file() else None


def stored_game_link(db: str, run_id: int, number: int) -> str:
    """How to open game `number` of stored run `run_id` in the app, at its start."""
    import shlex

    return (f"judge serve --db {shlex.quote(db)}, then open "
            f"http://127.0.0.1:{PORT}/run/{run_id}/game/{number}?move=0")


def _has_display() -> bool:
    """Whether a browser could show a window here."""
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
