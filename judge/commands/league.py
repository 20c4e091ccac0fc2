"""`judge league`: a ladder that never stops. Bots (and new versions of them) are added while
it plays; games are matched as arenas match them (new versions and bots with few games
first, then opponents near in skill, both seats of a start) and rated one by one, with
their uncertainty. The league is a stored run like any other (its plan holds its members,
its games are records in the store), one per database, held by a run's lock while it
plays."""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

from judge.backends import LocalPool
from judge.commands.inputs import check_bots, game_from_args, harness_setup, paired_starts
from judge.commands.options import (
    add_clock_options,
    add_credentials_option,
    add_game_options,
    add_harness_options,
)
from judge.commands.runs import backend_for, open_store, play, write_output
from judge.games.base import InputError
from judge.kinds.base import clock_words
from judge.kinds.league import (
    LeagueGames,
    LeaguePlan,
    league_of,
    league_text,
    token_hash,
)
from judge.league import Member, Placement
from judge.plan import OPTIMAL, BotSource
from judge.players.level import PREFIX, is_level, parse_level
from judge.store import keep_private
from judge.words import plural

DEFAULT_DB = "judge-results.sqlite"
#: a bot's name in the league: letters, digits, and . _ - inside
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: what --tc-for names in a league
MEMBER_ODDS = ("NAME's own time control (a bot of the league by its name, added now or "
               "later: every version of it), for time odds (repeatable); the anchors "
               "play without a clock")
#: the anchors the judge plays itself
ANCHORS = ("optimal", "tricky")
#: the sigma of an anchor pinned with --mu
PINNED_SIGMA = 1.0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `league` subcommand and its actions."""
    p = sub.add_parser(
        "league", help="a ladder that never stops: bots added while it plays, rated with "
        "their uncertainty",
        description="A league plays games between its bots until it is stopped, matching "
        "new versions and bots with few games first, then opponents near in skill, both "
        "seats of a start. Skills are OpenSkill's (mu, sigma); the leaderboard ranks by "
        "mu - 3 sigma. One league per database.",
        epilog="examples:\n  judge league new --game nim\n  judge league add alice alice.py\n"
        "  judge league add --anchor level:5\n  judge league play --jobs 8\n"
        "  judge league show\n  judge league show --bot alice\n"
        "  judge league token alice   # for uploads at judge serve's /league\n"
        "  judge league show --pair alice bob --format csv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="make the league of this database")
    add_game_options(new)
    new.add_argument("--starts", metavar="FILE",
                     help="start positions, one per line (default: the tournament's)")
    new.add_argument("--fail-fast", type=int, default=3, metavar="N",
                     help="a version whose first N games all end with the same failure on "
                     "its first move is broken: placed last and matched no more (default 3)")
    add_harness_options(new, jobs=False)
    add_clock_options(new, odds=MEMBER_ODDS)
    add_db_option(new)
    new.set_defaults(func=new_league)

    add = actions.add_parser("add", help="add a bot, or a new version of it (the old one "
                             "retires; its games and ratings stay)")
    add.add_argument("name", metavar="NAME",
                     help="the bot's name; with --anchor: optimal, tricky or level:N")
    add.add_argument("file", nargs="?", metavar="FILE", help="the bot's program")
    add.add_argument("--anchor", action="store_true",
                     help="NAME is one of the judge's own players, a permanent member of "
                     "fixed rating that keeps the ratings' meaning as bots come and go")
    add.add_argument("--mu", type=float, metavar="MU",
                     help="with --anchor: pin its skill at MU (sigma 1; default: placed by "
                     "its games against the other anchors)")
    add.add_argument("--unpinned", action="store_true",
                     help="with --anchor: rate it like a bot instead (its skill moves)")
    add_db_option(add)
    add.set_defaults(func=add_member)

    token = actions.add_parser("token", help="print a new upload token for a bot (the "
                               "page `judge serve` shows at /league takes its new versions)")
    token.add_argument("name", metavar="NAME")
    token.add_argument("--new", action="store_true",
                       help="NAME is not in the league yet: its first upload adds it")
    add_db_option(token)
    token.set_defaults(func=issue_token)

    remove = actions.add_parser("remove", help="retire a bot (its games and ratings stay)")
    remove.add_argument("name", metavar="NAME")
    add_db_option(remove)
    remove.set_defaults(func=remove_member)

    play = actions.add_parser("play", help="play games until stopped (Ctrl-C, SIGTERM); "
                              "bots added meanwhile join without a restart")
    play.add_argument("--jobs", type=int, metavar="N", default=None,
                      help="games played at once (default: the number of cores)")
    play.add_argument("--cluster", metavar="ADDRESS",
                      help="play the games on the cluster whose scheduler is at ADDRESS")
    add_credentials_option(play)
    play.add_argument("--games", type=int, metavar="N",
                      help="stop after N games (default: play until stopped)")
    add_db_option(play)
    play.set_defaults(func=play_league)

    show = actions.add_parser("show", help="the leaderboard, a bot's history, a pair's games")
    show.add_argument("--format", choices=("text", "table", "json", "csv", "markdown", "html"),
                      default="text", help="output format (text and table are the same)")
    show.add_argument("--bot", metavar="NAME",
                      help="the bot's versions and its rating after each of its games")
    show.add_argument("--pair", nargs=2, metavar=("A", "B"),
                      help="the games between two bots (any of their versions)")
    show.add_argument("--retired", action="store_true",
                      help="list retired versions on the leaderboard too")
    show.add_argument("--output", metavar="FILE", help="write the output to FILE")
    add_db_option(show)
    show.set_defaults(func=show_league)


def add_db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help=f"the results database of the league (default: {DEFAULT_DB})")


def copies_folder(db: str) -> Path:
    """Where the league keeps each version's file: beside its database."""
    path = Path(db).resolve()
    return path.with_name(f"{path.name}.league")


def private_copies_folder(db: str) -> Path:
    """The league's folder of copies, made (or kept) the judge's user's alone, mode 0700: no
    bot under a uid of its own reads another contestant's file there (each is shown its own
    file alone)."""
    folder = copies_folder(db)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the league's folder {folder}: "
                         f"{exc.strerror or exc}") from None
    keep_private(folder)
    return folder


# --- new ----------------------------------------------------------------------------


def new_league(args: argparse.Namespace) -> int:
    """Make the league of `--db` (refused when it has one)."""
    if args.fail_fast < 1:
        raise InputError("--fail-fast must be at least 1")
    game = game_from_args(args)
    starts = tuple(paired_starts(game, args.starts))
    harness = harness_setup(args).seeded()
    for name in harness.clocks.by_bot:  # (members come later: a name, not a file)
        try:
            check_name(name)
        except InputError as exc:
            raise InputError(f"--tc-for {name!r}: {exc}") from None
    plan = LeaguePlan(game=game.name, rules=game.rules_string(), harness=harness,
                      directory=os.getcwd(), starts_file=args.starts,
                      start_positions=starts, fail_fast=args.fail_fast)
    with open_store(args.db) as store:
        if any(r.kind == "league" for r in store.runs()):
            raise InputError(f"{store.path} has a league already (one per database): give "
                             f"another --db")
        run_id = store.create_run(plan)
    private_copies_folder(args.db)
    print(f"league {run_id}: {game.describe()}, {len(starts)} starts{clock_words(plan)}, "
          f"confinement {harness.tier} ({args.db}); add bots with `judge league add NAME FILE`")
    return 0


# --- add, remove --------------------------------------------------------------------


def anchor_pin(mu: float | None, unpinned: bool) -> tuple[float, float] | None:
    """The skill (mu, sigma) an anchor is pinned at with --mu; None without (placed by its
    games, or with `unpinned` rated as a bot is)."""
    if unpinned and mu is not None:
        raise InputError("--mu pins an anchor: give it without --unpinned")
    if mu is None:
        return None
    if not math.isfinite(mu) or not 0 <= mu <= 100:
        raise InputError(f"--mu is a skill from 0 to 100, not {mu}")
    return (mu, PINNED_SIGMA)


def anchor_seat(name: str) -> str:
    """The seat of an anchor `name` (optimal, tricky, level:N); `InputError` otherwise."""
    if name in ANCHORS:
        return OPTIMAL
    if is_level(name):
        return f"{PREFIX}{parse_level(name)}"
    raise InputError(f"--anchor takes one of the judge's own players: optimal, tricky or "
                     f"level:N, not {name!r}")


def add_member(args: argparse.Namespace) -> int:
    """Add a bot, a new version of one, or an anchor."""
    name = args.name
    if not args.anchor:
        if args.mu is not None or args.unpinned:
            raise InputError("--mu and --unpinned are for an anchor (--anchor)")
        if args.file is None and check_name(name):
            raise InputError(f"give the file of {name}: judge league add {name} FILE")
        new, retired = add_version(args.db, name, args.file)
        with open_store(args.db, must_exist=True, read_only=True) as store:
            run_id = league_of(store).id
        print(f"league {run_id}: added {new.label}" + (f" ({retired[0]} retires)"
                                                       if retired else ""))
        return 0
    if args.file is not None:
        raise InputError("an anchor is one of the judge's own players: give no FILE")
    seat = anchor_seat(name)
    name = seat if is_level(seat) else name
    pin = anchor_pin(args.mu, args.unpinned)
    member = Member(name, 1, seat, anchor=True, added=time.time(), pinned=pin,
                    fitted=pin is None and not args.unpinned)

    def added(plan: LeaguePlan) -> LeaguePlan:
        if any(m.name == name for m in plan.members):
            raise InputError(f"{name} is in the league already")
        if seat == OPTIMAL and any(m.anchor and m.seat == OPTIMAL for m in plan.members):
            raise InputError("the league has optimal or tricky already (one of the two)")
        opponent = name if seat == OPTIMAL else plan.opponent
        return replace(plan, members=(*plan.members, member), opponent=opponent)

    with open_store(args.db, must_exist=True) as store:
        info = league_of(store)
        store.change_plan(info.id, LeaguePlan, added)
    how = {Placement.FITTED: "placed by its games against the other anchors",
           Placement.PINNED: f"pinned at mu {args.mu}", Placement.RATED: "rated as a bot is"}
    print(f"league {info.id}: added {name} ({how[member.placement]})")
    return 0


def check_name(name: str) -> str:
    """`name`, a bot's name (not an anchor's); `InputError` otherwise."""
    if name in ANCHORS or is_level(name):
        raise InputError(f"{name} is one of the judge's own players: add it with --anchor")
    if not NAME.fullmatch(name):
        raise InputError(f"a bot's name is letters, digits, '.', '_' and '-' (at most 64, a "
                         f"letter or digit first), not {name!r}")
    return name


def add_version(db: str, name: str, file: str,
                refuse_compile_error: bool = False) -> tuple[Member, list[str]]:
    """Add `file` as the next version of the bot `name` (the league of `db`): compiled
    once, copied into the league's folder; (the new member, the label of the version it
    retires, if any). With `refuse_compile_error` (an upload) a program that does not
    compile is refused, else it is added and found broken by its first games."""
    check_name(name)
    if not Path(file).is_file():
        raise InputError(f"no bot file {file}")
    with open_store(db, must_exist=True) as store:
        info = league_of(store)
        plan = info.plan
        assert isinstance(plan, LeaguePlan)
        from judge.sandbox import CompileError, program_for
        from judge.sandbox.context import sandbox_context

        sandbox_context().configure_languages(plan.harness.languages)
        if refuse_compile_error:
            try:
                program_for(file)
            except CompileError as exc:
                raise InputError(f"it does not compile: {exc}") from None
        check_bots([file])  # compiled once here, before the league sees it
        source = BotSource.read(file)
        made: list[Path] = []
        retired: list[str] = []  # what this version retires, as the plan it changes says

        def added(plan: LeaguePlan) -> LeaguePlan:
            mine = [m for m in plan.members if m.name == name]
            if any(m.anchor for m in mine):
                raise InputError(f"{name} is an anchor")
            last = mine[-1] if mine else None
            if last is not None and last.active and \
                    plan.fingerprints().get(last.seat) == source.fingerprint:
                raise InputError(f"{file} is the same program as {last.label}: nothing "
                                 f"to add")
            version = last.version + 1 if last else 1
            target = private_copies_folder(db) / name / f"v{version}" / Path(file).name
            target.parent.mkdir(parents=True, exist_ok=True)
            made.append(target.parent)
            shutil.copy2(file, target)
            copy = BotSource(str(target), source.fingerprint)
            copy.check()  # the copy is the file that was compiled
            member = Member(name, version, str(target), added=time.time())
            retired[:] = [m.label for m in mine if m.active]
            members = tuple(m._replace(active=False) if m.name == name else m
                            for m in plan.members)
            return replace(plan, members=(*members, member),
                           sources=(*plan.sources, copy),
                           names={**plan.names, str(target): member.label})

        try:
            changed = store.change_plan(info.id, LeaguePlan, added)
        except BaseException:
            for path in made:  # nothing half-written
                shutil.rmtree(path, ignore_errors=True)
            raise
    return changed.members[-1], retired


def issue_token(args: argparse.Namespace) -> int:
    """Print a new upload token for the bot `name` of the league, or with `--new` for one not
    in it yet (the old token stops working); the league keeps only its hash."""
    import secrets

    name = check_name(args.name)
    token = secrets.token_urlsafe(32)

    def with_token(plan: LeaguePlan) -> LeaguePlan:
        member = any(m.name == name for m in plan.members)
        if not member and not args.new:
            raise InputError(f"there is no bot {name!r} in the league: add it (judge league "
                             f"add {name} FILE), or give --new for a token whose first "
                             f"upload adds it")
        if member and args.new:
            raise InputError(f"{name} is in the league already: its token needs no --new")
        return replace(plan, tokens={**plan.tokens, name: token_hash(token)})

    with open_store(args.db, must_exist=True) as store:
        store.change_plan(league_of(store).id, LeaguePlan, with_token)
    print(token)
    return 0


def remove_member(args: argparse.Namespace) -> int:
    """Retire a bot's active version."""

    def removed(plan: LeaguePlan) -> LeaguePlan:
        mine = [m for m in plan.members if m.name == args.name]
        if not mine:
            raise InputError(f"there is no bot {args.name!r} in the league")
        if mine[-1].anchor:
            raise InputError(f"{args.name} is a permanent anchor")
        if not mine[-1].active:
            raise InputError(f"{args.name} is retired already")
        return replace(plan, members=tuple(m._replace(active=False) if m.name == args.name
                                           else m for m in plan.members))

    with open_store(args.db, must_exist=True) as store:
        info = league_of(store)
        store.change_plan(info.id, LeaguePlan, removed)
    print(f"league {info.id}: {args.name} retired")
    return 0


# --- play ---------------------------------------------------------------------------


def play_league(args: argparse.Namespace) -> int:
    """Play until stopped (or `--games`), storing each game as it ends."""
    if args.games is not None and args.games < 1:
        raise InputError("--games must be at least 1")
    store = open_store(args.db, must_exist=True)
    with store:
        info = league_of(store)
        plan = info.plan
        assert isinstance(plan, LeaguePlan)
        private_copies_folder(args.db)  # (one an older judge made open to all: closed)
        backend = backend_for(args, plan)
        if isinstance(backend, LocalPool):
            compile_members(plan)
        games = LeagueGames(plan, store, info.id, args.games)
        play(store, info.id, plan, backend, games)
    print(f"judge: league {info.id}: {plural(games.played, 'game')} played", file=sys.stderr)
    return 0


def compile_members(plan: LeaguePlan) -> None:
    """Compile the league's active bots here, before its workers fork: a compile that fails
    for want of time or memory is then tried once, not once in each worker (the workers
    have its failure; a bot added later is compiled once in each worker that plays it)."""
    from judge.sandbox import CompileError, program_for
    from judge.sandbox.context import sandbox_context

    sandbox_context().configure_languages(plan.harness.languages)
    for member in plan.active:
        if not member.anchor:
            try:
                program_for(member.seat)
            except (CompileError, InputError):  # (its games say so, as they would have)
                continue


# --- show ---------------------------------------------------------------------------


def show_league(args: argparse.Namespace) -> int:
    """Print the leaderboard, a bot's history or a pair's games."""
    with open_store(args.db, must_exist=True, read_only=True) as store:
        text = league_text(store, league_of(store), args.format, args.bot, args.pair,
                           args.retired)
    write_output(args.output, text)
    return 0
