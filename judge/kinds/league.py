"""A league (`judge league`): a ladder that never stops, bots added while it plays. Its
schedule (the matchmaker: the next games as it plays), its rows (the leaderboard, a bot's
history, a pair's games), its numbering of games, its text, with a page of its tables, and
its command, whose actions (new, add, token, remove, play, show) keep its members, play it
and show it. Games are matched as arenas match them (new versions and bots with few games
first, then opponents near in skill, both seats of a start) and rated one by one, with
their uncertainty. The league is a stored run like any other (its plan holds its members,
its games are records in the store), one per database, held by a run's lock while it
plays."""

from __future__ import annotations

import argparse
import functools
import hashlib
import html
import math
import os
import random
import re
import shutil
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.backends import LocalPool
from judge.clock import Clocks
from judge.games.base import InputError
from judge.kinds.base import (
    Inputs,
    Kind,
    Numbered,
    Options,
    Output,
    Runs,
    Subcommands,
    Text,
    Wait,
    clock_words,
)
from judge.league import MEETINGS, TOP_MU, LeagueState, Member, Placement, Standing, game_number
from judge.plan import OPTIMAL, PLANS, BotSource, GameSpec, Plan
from judge.players.level import PREFIX, is_level, parse_level
from judge.report import Number, plural, render_rows, to_json, wtl
from judge.results import failures_text
from judge.store import Store, StoredRun, keep_private
from judge.summaries import listed_games

if TYPE_CHECKING:
    from judge.records import PlayedGame

#: how often a league that plays reads its members again (seconds)
REREAD_SECONDS = 0.25
#: how often a league with fewer than two playable versions looks for new ones (seconds)
WAIT_SECONDS = 0.5


@PLANS.register
@dataclass(frozen=True, kw_only=True)
class LeaguePlan(Plan):
    """`judge league`: players come and go (`members`, every version kept); games are
    matched while the league plays, so the plan has no schedule of its own."""

    kind: ClassVar[str] = "league"
    members: tuple[Member, ...] = ()
    starts_file: str | None = None
    start_positions: tuple[str, ...] = ()
    #: a version whose first N games all end with the same failure on its first move is
    #: broken: placed last, and matched no more
    fail_fast: int = 3
    #: the SHA-256 of each contestant's upload token, by bot name (never the token)
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(m.seat for m in self.members)

    @property
    def active(self) -> tuple[Member, ...]:
        """The members matched now."""
        return tuple(m for m in self.members if m.active)

    def member(self, seat: str) -> Member:
        return next(m for m in self.members if m.seat == seat)

    def display_names(self) -> dict[str, str]:
        return {m.seat: m.label for m in self.members}

    def seat_clocks(self) -> Clocks:
        """--tc-for names a member: every version of it plays on that clock."""
        clocks = self.harness.clocks
        if not clocks.by_bot:
            return clocks
        return replace(clocks, by_bot={m.seat: clocks.by_bot[m.name] for m in self.members
                                       if m.name in clocks.by_bot})

    def schedule(self) -> list[GameSpec]:
        return []  # matched as the league plays (`play_league`)

    def _own_config(self) -> dict[str, Any]:
        return {"entrants": [m.seat for m in self.active],
                "members": [m._asdict() for m in self.members],
                "starts": self.starts_file, "start_positions": list(self.start_positions),
                "fail_fast": self.fail_fast, "tokens": dict(self.tokens)}

    @classmethod
    def rebuild(cls, common: dict[str, Any], config: dict[str, Any]) -> LeaguePlan:
        c = config
        return cls(**common, members=tuple(stored_member(m) for m in c.get("members") or ()),
                   starts_file=c.get("starts"),
                   start_positions=tuple(c.get("start_positions") or ()),
                   fail_fast=int(c.get("fail_fast") or 3), tokens=dict(c.get("tokens") or {}))

    def _own_argv(self) -> list[str]:
        words = ["--starts", self.starts_file] if self.starts_file else []
        return words + ["--fail-fast", str(self.fail_fast)]

    def to_argv(self) -> list[str]:
        words = super().to_argv()
        return words[:1] + ["league", "new"] + words[2:]

    def _bot_args(self) -> list[str]:
        return []


def league_of(store: Store) -> StoredRun:
    """The league of the database; `InputError` when it has none."""
    found = [r for r in store.runs() if r.kind == "league"]
    if not found:
        raise InputError(f"there is no league in {store.path}: make one with "
                         f"`judge league new --game GAME --db {store.path}`")
    return store.run(found[0].id)


def token_hash(token: str) -> str:
    """What a league keeps of a contestant's token: its SHA-256 (the token is random)."""
    return hashlib.sha256(token.encode()).hexdigest()


def stored_member(config: dict[str, Any]) -> Member:
    """A league's member from its JSON (the pin a list there)."""
    pinned = config.get("pinned")
    return Member(**{**config, "pinned": tuple(pinned) if pinned else None})


class Matchmaker:
    """The next games of a league, as arenas match them: the playable version with the
    fewest games (stored and in flight) first, against an opponent drawn with a weight
    that falls with the distance of their skills (a Gaussian in mu, as wide as both
    uncertainties and the model's beta); the two games of a start with seats swapped.
    Anchors with games to play to place a fitted one play them first, against each other
    only (the pair with the fewest); two placed anchors never meet (their game would rate
    nobody). A version on its first `fail_fast` games has no more than those stored and in
    flight (the last one of a pair alone, if need be), so that a broken one is found, and
    left, at once."""

    def __init__(self, state: LeagueState, seed: int | None) -> None:
        self.state = state
        self.rng = random.Random(f"{seed}|{state.next_number}")
        self.number = state.next_number
        self.flight: Counter[str] = Counter()
        self.meeting: Counter[frozenset[str]] = Counter()  # anchors' games in flight

    def playable(self) -> list[str]:
        state = self.state
        return [m.seat for m in state.plan.active if not state.broken(m.seat)]

    def room(self, seat: str) -> int:
        """How many games more `seat` may have in flight: those left of its first
        `fail_fast` (which tell whether it is broken), else any number (2, a pair; an anchor,
        the judge's own player, always)."""
        first = self.state.plan.fail_fast - self.state.games_of(seat)
        if first <= 0 or self.state.plan.member(seat).anchor:
            return 2
        return max(0, first - self.flight[seat])

    def due(self, a: str, b: str) -> bool:
        """Whether anchors `a` and `b` have a game to play, counting those in flight."""
        return self.state.due(a, b, self.meeting[frozenset((a, b))])

    def rivals(self, a: str, free: list[str]) -> list[str]:
        """Whom `a` may meet now: an anchor with games to place meets only anchors it has
        games with, other anchors meet only bots, bots meet anyone but a placing anchor."""
        state = self.state
        if not state.fixed(a):
            return [t for t in free if t != a and not state.placing(t)]
        if state.placing(a):
            return [t for t in free if t != a and state.fixed(t) and self.due(a, t)]
        return [t for t in free if t != a and not state.fixed(t)]

    def batch(self, size: int) -> list[GameSpec]:
        """Up to `size` games (pairs: an even number, but for a last odd one)."""
        state, plan = self.state, self.state.plan
        ready = self.playable()
        game = plan.load_game()
        specs: list[GameSpec] = []
        while len(specs) < size:
            free = [s for s in ready if self.room(s)]
            rival = {s: self.rivals(s, free) for s in free}
            free = [s for s in free if rival[s]]
            if not free:
                break
            placing = [s for s in free if state.placing(s)] or free  # they play first
            count = {s: state.games_of(s) + self.flight[s] for s in placing}
            low = min(count.values())
            a = self.rng.choice(sorted(s for s, n in count.items() if n == low))
            others = rival[a]
            if state.placing(a):  # the pair with the fewest games between them
                met = {t: state.met[frozenset((a, t))] + self.meeting[frozenset((a, t))]
                       for t in others}
                b = self.rng.choice(sorted(t for t in others if met[t] == min(met.values())))
                self.meeting[frozenset((a, b))] += min(2, self.room(a), self.room(b))
            else:
                b = self.rng.choices(others, [self.weight(a, s) for s in others])[0]
            start = self.rng.choice(plan.start_positions)
            mover = game.mover(game.parse_position(start))
            pair = f"pair {self.number}|{start}"
            # one game of the pair only when either has room for no more of its first
            for x, y in ((a, b), (b, a))[:min(2, self.room(a), self.room(b))]:
                seats = (x, y) if mover == 0 else (y, x)
                specs.append(GameSpec(f"{self.number}|{seats[0]}|{seats[1]}|{start}", seats,
                                      start, pair))
                self.number += 1
                self.flight.update((a, b))
        return specs[:size]

    def weight(self, a: str, b: str) -> float:
        skills = self.state.skills
        sa, sb = skills[a], skills[b]
        beta = skills.model.beta
        spread = 2 * beta ** 2 + sa.sigma ** 2 + sb.sigma ** 2
        return math.exp(-(sa.mu - sb.mu) ** 2 / (2 * spread)) + 0.01

    def ended(self, spec: GameSpec) -> None:
        self.flight.subtract(spec.players)
        pair = frozenset(spec.players)
        if self.meeting[pair]:
            self.meeting[pair] -= 1


class LeagueGames:
    """A league's games as `judge.commands.runs.play` plays them: matched as it plays (a
    pair at a time, by its `Matchmaker`), each handed to a slot as one frees, until `games`
    are handed out (None: until stopped). Its members are read again at most every
    `REREAD_SECONDS`, so that bots added or removed meanwhile count at once; with no two
    to match it waits for them."""

    one_by_one = True

    def __init__(self, plan: LeaguePlan, store: Store, run_id: int,
                 games: int | None = None) -> None:
        self.store, self.run_id, self.left = store, run_id, games
        self.state = LeagueState(plan)
        self.matchmaker = Matchmaker(self.state, plan.seed)
        self.read = -math.inf  # when the members were read last
        #: the games stored here
        self.played = 0

    @property
    def plan(self) -> LeaguePlan:
        return self.state.plan

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        # the games stored, read once the league is held (its numbers go on from them)
        self.state = LeagueState.of(self.plan, store, run_id)
        self.matchmaker = Matchmaker(self.state, self.plan.seed)
        plan = self.plan
        return (f"league {run_id}: {store.run(run_id).game}: {plural(len(plan.active), 'bot')}, "
                f"{plural(len(self.state.games), 'game')} stored{clock_words(plan)}, confinement "
                f"{plan.harness.tier} ({store.path})")

    def next(self, done: set[str]) -> list[GameSpec] | Wait:
        if self.left is not None and self.left <= 0:
            return []
        if time.monotonic() - self.read >= REREAD_SECONDS:
            plan = self.store.run(self.run_id).plan
            assert isinstance(plan, LeaguePlan)
            self.state.plan = plan
            self.read = time.monotonic()
        specs = self.matchmaker.batch(2 if self.left is None else min(2, self.left))
        if not specs:
            self.read = -math.inf  # nothing to play: the members are read again first
            return Wait("fewer than two bots to match: waiting for `judge league add`",
                        WAIT_SECONDS)
        if self.left is not None:
            self.left -= len(specs)
        return specs

    def stored(self, spec: GameSpec, record: PlayedGame) -> None:
        self.state.add(spec.key, record)
        self.matchmaker.ended(spec)
        self.played += 1

    def stored_text(self, done: int) -> str:
        return plural(done, "game")

    def close(self) -> None:
        pass


def goes_on(store: Store, info: StoredRun) -> str:
    """How to continue a league that stopped."""
    return f"`judge league play --db {store.path}` goes on"


LEADERBOARD = ["rank", "name", "version", "rating", "skill", "games", "w/t/l", "accuracy",
               "failures"]


HISTORY = ["version", "game", "opponent", "result", "rating", "skill"]


GAMES = ["game", "players", "start", "results", "verdict", "moves"]


def skill_text(mu: float, sigma: float) -> str:
    return f"{mu:.1f} ± {sigma:.1f}"


def leaderboard_rows(table: list[Standing]) -> list[dict]:
    rows = []
    for rank, s in enumerate(table, 1):
        row, m = s.row, s.member
        failures = failures_text(row.failures, row.judge_errors)
        rows.append({"rank": rank, "name": m.name,
                     "version": f"anchor, {s.placement}" if m.anchor else
                     f"v{m.version}" + ("" if m.active else " (retired)"),
                     "rating": Number(f"{s.rating:.1f}"),
                     "skill": skill_text(s.skill.mu, s.skill.sigma), "games": row.games,
                     "w/t/l": wtl(row.wins, row.ties, row.losses),
                     "accuracy": "" if row.accuracy is None else f"{100 * row.accuracy:.1f}%",
                     "failures": f"broken: {s.broken}" if s.broken else failures})
    return rows


def league_text(store: Store, info: StoredRun, fmt: str, bot: str | None = None,
                pair: list[str] | None = None, retired: bool = False) -> str:
    """A league as text (also `judge show RUN`): its leaderboard, or the history of `bot`,
    or the games of `pair`, in `fmt` (text, table, json, csv, markdown, html)."""
    fmt = "table" if fmt == "text" else fmt
    plan = info.plan
    assert isinstance(plan, LeaguePlan)
    state = LeagueState.of(plan, store, info.id)
    stored = len(state.games)
    by_name = {m.name for m in plan.members}
    for name in ([bot] if bot else []) + list(pair or []):
        if name not in by_name:
            raise InputError(f"there is no bot {name!r} in the league")
    title = (f"league {info.id}: {info.game}: {plural(stored, 'game')}, "
             f"{plural(len(plan.active), 'bot')} (confinement {plan.harness.tier})")
    note = anchors_note(plan)
    labels = plan.display_names()
    tables: dict[str, tuple[list[dict], list[str]]] = {}
    data: dict = {"league": info.id, "game": info.game, "games": stored, "anchors": note,
                  "running": store.running(info.id)}
    if bot:
        versions = [m for m in plan.members if m.name == bot]
        standings = [state.standing(m) for m in versions]
        tables["versions"] = (leaderboard_rows(standings), LEADERBOARD[1:])
        steps = [(m, step) for m in versions for step in state.history.get(m.seat, [])]
        tables["history"] = ([{"version": m.label, **step.to_json(),
                               "opponent": labels.get(step.opponent, step.opponent),
                               "rating": Number(f"{step.rating:.1f}"),
                               "skill": skill_text(step.mu, step.sigma)}
                              for m, step in steps], HISTORY)
        data.update(bot=bot, versions=[s.to_json() for s in standings],
                    history={m.label: [dict(step.to_json(), opponent=labels.get(
                        step.opponent, step.opponent))
                        for step in state.history.get(m.seat, [])] for m in versions})
    elif pair:
        a, b = ([m.seat for m in plan.members if m.name == n] for n in pair)
        found = sorted(((key, rec) for x in a for y in b
                        for key, rec in state.pair_games(x, y)),
                       key=lambda kr: game_number(kr[0]))
        listed = listed_games(found)
        rows = [dict(g.to_json(), game=game_number(g.key),
                     players=" vs ".join(labels.get(p, p) for p in g.players),
                     results="-".join(g.results), moves=", ".join(g.moves))
                for g in listed]
        tables["games"] = (rows, GAMES)
        data.update(pair=list(pair), games_of_pair=[
            dict(g.to_json(), players=[labels.get(p, p) for p in g.players])
            for g in listed])
    else:
        table = state.leaderboard(retired)
        tables["leaderboard"] = (leaderboard_rows(table), LEADERBOARD)
        data["leaderboard"] = [dict(s.to_json(), rank=n) for n, s in enumerate(table, 1)]
    if fmt == "json":
        return to_json(data)
    if fmt == "html":
        return html_page(title, tables, note)
    if fmt == "csv":
        rows, headers = list(tables.values())[-1]
        return render_rows(rows, "csv", headers)
    return title + "\n" + (note + "\n" if note else "") + "".join(
        "\n" + (f"{name}:\n" if len(tables) > 1 else "") + render_rows(rows, fmt, headers)
        for name, (rows, headers) in tables.items())


def anchors_note(plan: LeaguePlan) -> str:
    """How the league's anchors are placed, in a line ("" without anchors)."""
    anchors = [m for m in plan.members if m.anchor]
    top = any(m.placement is Placement.FITTED and m.seat == OPTIMAL for m in anchors) and \
        not any(m.placement is Placement.PINNED for m in anchors)
    how = {Placement.FITTED: f"placed by their games against each other ({MEETINGS} a "
           f"pair, played first{f'; optimal at {TOP_MU:g}' if top else ''})",
           Placement.PINNED: "pinned by --mu", Placement.RATED: "rated as bots are"}
    parts = []
    for placement, text in how.items():
        names = [m.name for m in anchors if m.placement is placement]
        if names:
            parts.append(f"{', '.join(names)} {text}")
    return "anchors: " + "; ".join(parts) if parts else ""


def html_page(title: str, tables: dict[str, tuple[list[dict], list[str]]],
              note: str = "") -> str:
    """One self-contained page of the tables (`note` a line under the title)."""
    parts = [f"<!doctype html>\n<html><head><meta charset='utf-8'><title>"
             f"{html.escape(title)}</title><style>body{{font-family:sans-serif}}"
             f"table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;"
             f"padding:2px 6px}}</style></head><body><h1>{html.escape(title)}</h1>"
             + (f"<p>{html.escape(note)}</p>" if note else "")]
    for name, (rows, headers) in tables.items():
        parts.append(f"<h2>{html.escape(name)}</h2><table><tr>"
                     + "".join(f"<th>{html.escape(h)}</th>" for h in headers) + "</tr>")
        parts.extend("<tr>" + "".join(f"<td>{html.escape(str(row.get(h, '')))}</td>"
                                      for h in headers) + "</tr>" for row in rows)
        parts.append("</table>")
    return "".join(parts) + "</body></html>\n"


def stored_text(store: Store, run_id: int, fmt: str, details: bool, folder: str | None,
                wide: bool, report: bool, output: Output) -> Text:
    """`judge show RUN` of a league: its leaderboard, in `fmt` (no files written)."""
    return Text(league_text(store, store.run(run_id), fmt))


def numbered_games(plan: Plan, records: dict[str, PlayedGame]) -> Numbered:
    """A league's games in the order of their numbers (game N is the N-th but where a game
    matched was never stored)."""
    return [(records[key], 0) for key in sorted(records, key=game_number)]


# --- its command --------------------------------------------------------------------


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


def add_actions(p: argparse.ArgumentParser, options: Options, inputs: Inputs,
                runs: Runs) -> None:
    """Add the league's actions under its parser `p`."""
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="make the league of this database")
    options.add_game_options(new)
    new.add_argument("--starts", metavar="FILE",
                     help="start positions, one per line (default: the tournament's)")
    new.add_argument("--fail-fast", type=int, default=3, metavar="N",
                     help="a version whose first N games all end with the same failure on "
                     "its first move is broken: placed last and matched no more (default 3)")
    options.add_harness_options(new, jobs=False)
    options.add_clock_options(new, odds=MEMBER_ODDS)
    add_db_option(new)
    new.set_defaults(func=functools.partial(new_league, inputs, runs))

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
    add.set_defaults(func=functools.partial(add_member, inputs, runs))

    token = actions.add_parser("token", help="print a new upload token for a bot (the "
                               "page `judge serve` shows at /league takes its new versions)")
    token.add_argument("name", metavar="NAME")
    token.add_argument("--new", action="store_true",
                       help="NAME is not in the league yet: its first upload adds it")
    add_db_option(token)
    token.set_defaults(func=functools.partial(issue_token, runs))

    remove = actions.add_parser("remove", help="retire a bot (its games and ratings stay)")
    remove.add_argument("name", metavar="NAME")
    add_db_option(remove)
    remove.set_defaults(func=functools.partial(remove_member, runs))

    play = actions.add_parser("play", help="play games until stopped (Ctrl-C, SIGTERM); "
                              "bots added meanwhile join without a restart")
    play.add_argument("--jobs", type=int, metavar="N", default=None,
                      help="games played at once (default: the number of cores)")
    play.add_argument("--cluster", metavar="ADDRESS",
                      help="play the games on the cluster whose scheduler is at ADDRESS")
    options.add_credentials_option(play)
    play.add_argument("--games", type=int, metavar="N",
                      help="stop after N games (default: play until stopped)")
    add_db_option(play)
    play.set_defaults(func=functools.partial(play_league, runs))

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
    show.set_defaults(func=functools.partial(show_league, runs))


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


def new_league(inputs: Inputs, runs: Runs, args: argparse.Namespace) -> int:
    """Make the league of `--db` (refused when it has one)."""
    if args.fail_fast < 1:
        raise InputError("--fail-fast must be at least 1")
    game = inputs.game_from_args(args)
    starts = tuple(inputs.paired_starts(game, args.starts))
    harness = inputs.harness_setup(args).seeded()
    for name in harness.clocks.by_bot:  # (members come later: a name, not a file)
        try:
            check_name(name)
        except InputError as exc:
            raise InputError(f"--tc-for {name!r}: {exc}") from None
    plan = LeaguePlan(game=game.name, rules=game.rules_string(), harness=harness,
                      directory=os.getcwd(), starts_file=args.starts,
                      start_positions=starts, fail_fast=args.fail_fast)
    with runs.open_store(args.db) as store:
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


def add_member(inputs: Inputs, runs: Runs, args: argparse.Namespace) -> int:
    """Add a bot, a new version of one, or an anchor."""
    name = args.name
    if not args.anchor:
        if args.mu is not None or args.unpinned:
            raise InputError("--mu and --unpinned are for an anchor (--anchor)")
        if args.file is None and check_name(name):
            raise InputError(f"give the file of {name}: judge league add {name} FILE")
        new, retired = add_version(inputs, runs, args.db, name, args.file)
        with runs.open_store(args.db, must_exist=True, read_only=True) as store:
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

    with runs.open_store(args.db, must_exist=True) as store:
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


def add_version(inputs: Inputs, runs: Runs, db: str, name: str, file: str,
                refuse_compile_error: bool = False) -> tuple[Member, list[str]]:
    """Add `file` as the next version of the bot `name` (the league of `db`): compiled
    once, copied into the league's folder; (the new member, the label of the version it
    retires, if any). With `refuse_compile_error` (an upload) a program that does not
    compile is refused, else it is added and found broken by its first games."""
    check_name(name)
    if not Path(file).is_file():
        raise InputError(f"no bot file {file}")
    with runs.open_store(db, must_exist=True) as store:
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
        inputs.check_bots([file])  # compiled once here, before the league sees it
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


def issue_token(runs: Runs, args: argparse.Namespace) -> int:
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

    with runs.open_store(args.db, must_exist=True) as store:
        store.change_plan(league_of(store).id, LeaguePlan, with_token)
    print(token)
    return 0


def remove_member(runs: Runs, args: argparse.Namespace) -> int:
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

    with runs.open_store(args.db, must_exist=True) as store:
        info = league_of(store)
        store.change_plan(info.id, LeaguePlan, removed)
    print(f"league {info.id}: {args.name} retired")
    return 0


# --- play ---------------------------------------------------------------------------


def play_league(runs: Runs, args: argparse.Namespace) -> int:
    """Play until stopped (or `--games`), storing each game as it ends."""
    if args.games is not None and args.games < 1:
        raise InputError("--games must be at least 1")
    store = runs.open_store(args.db, must_exist=True)
    with store:
        info = league_of(store)
        plan = info.plan
        assert isinstance(plan, LeaguePlan)
        private_copies_folder(args.db)  # (one an older judge made open to all: closed)
        backend = runs.backend_for(args, plan)
        if isinstance(backend, LocalPool):
            compile_members(plan)
        games = LeagueGames(plan, store, info.id, args.games)
        runs.play(store, info.id, plan, backend, games)
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


def show_league(runs: Runs, args: argparse.Namespace) -> int:
    """Print the leaderboard, a bot's history or a pair's games."""
    with runs.open_store(args.db, must_exist=True, read_only=True) as store:
        text = league_text(store, league_of(store), args.format, args.bot, args.pair,
                           args.retired)
    runs.write_output(args.output, text)
    return 0


COMMAND = Subcommands(
    help="a ladder that never stops: bots added while it plays, rated with their "
    "uncertainty",
    description="A league plays games between its bots until it is stopped, matching new "
    "versions and bots with few games first, then opponents near in skill, both seats of a "
    "start. Skills are OpenSkill's (mu, sigma); the leaderboard ranks by mu - 3 sigma. One "
    "league per database.",
    epilog="examples:\n  judge league new --game nim\n  judge league add alice alice.py\n"
    "  judge league add --anchor level:5\n  judge league play --jobs 8\n"
    "  judge league show\n  judge league show --bot alice\n"
    "  judge league token alice   # for uploads at judge serve's /league\n"
    "  judge league show --pair alice bob --format csv",
    actions=add_actions)

KIND = Kind("league", numbered_games, stored_text, endless=True, resume=goes_on,
            command=COMMAND)
