"""A league (`judge league`): a ladder that never stops, bots added while it plays. Its
schedule (the matchmaker: the next games as it plays), its rows (the leaderboard, a bot's
history, a pair's games), its numbering of games and its text, with a page of its tables."""

from __future__ import annotations

import hashlib
import html
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from judge.clock import Clocks
from judge.games.base import InputError
from judge.kinds.base import Kind, Numbered, Output, Text, Wait, clock_words
from judge.league import MEETINGS, TOP_MU, LeagueState, Member, Placement, Standing, game_number
from judge.plan import OPTIMAL, PLANS, GameSpec, Plan
from judge.report import Number, plural, render_rows, to_json, wtl
from judge.results import failures_text
from judge.store import Store, StoredRun
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
        return []  # matched as the league plays (`judge.commands.league`)

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


KIND = Kind("league", numbered_games, stored_text, endless=True, resume=goes_on)
