"""A tournament (`judge tournament`): every pair of entrants on every start in both seats,
or a Swiss or a knockout of game pairs. Its schedule (a round robin's: the plan's, every
game at once; a Swiss's or a knockout's: round by round from the results stored), its rows
(standings, ratings, crosstable, Swiss tie-breaks, a knockout's ties), its numbering of
games, its text, its HTML page and its command."""

from __future__ import annotations

import argparse
import enum
import os
import random
from collections import defaultdict
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from judge.games.base import InputError
from judge.kinds.base import (
    AllGames,
    Command,
    Inputs,
    Kind,
    Options,
    Page,
    Schedule,
    Text,
    by_key,
    run_state,
)
from judge.pairing import Game as PairedGame
from judge.pairing import Round, bracket, pair
from judge.pairing import standings as swiss_standings
from judge.plan import OPTIMAL, PLANS, GameSpec, Plan, is_program
from judge.players.level import PREFIX, is_level, parse_level
from judge.report import (
    Fit,
    Number,
    notes,
    outcome,
    plural,
    printable_line,
    render_rows,
    render_table,
    rules_line,
    shortened,
    to_json,
    write_tables,
    wtl,
)
from judge.results import (
    TOURNAMENT_POINTS,
    compile_errors_text,
    failures_text,
    memory_text,
    seconds_text,
)
from judge.store import Store, StoredRun
from judge.summaries import (
    Standing,
    Standings,
    SwissScore,
    Tie,
    View,
    listed_games,
    summarise,
)

if TYPE_CHECKING:
    from judge.backends import Backend
    from judge.games.base import Game
    from judge.records import PlayedGame


class System(enum.Enum):
    """How a tournament pairs its entrants: each against each, by score round by round, or
    in a bracket where the loser of each tie is out."""

    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"


#: the most game pairs a knockout's tie adds to its --pairs when they leave it level
DECIDER_PAIRS = 4


@PLANS.register
@dataclass(frozen=True, kw_only=True)
class TournamentPlan(Plan):
    """`judge tournament`: every pair of entrants (or the gauntlet's bot against each), both
    seats of every start, for some rounds; or (`system`) a Swiss of `rounds` rounds or a
    knockout, whose pairs of games are decided round by round from the results."""

    kind: ClassVar[str] = "tournament"
    #: bot paths, and OPTIMAL when the perfect player takes part (in seed order)
    entrants: tuple[str, ...]
    gauntlet: str | None = None
    #: the file the starts came from (None: the default set)
    starts_file: str | None = None
    start_positions: tuple[str, ...] = ()
    rounds: int = 1
    system: System = System.ROUND_ROBIN
    #: game pairs per pairing: a Swiss's each round, a knockout's per tie before any decider
    pairs: int = 2

    @property
    def players(self) -> tuple[str, ...]:
        return self.entrants

    def round_start(self, number: int) -> str:
        """The start of game pair `number` (from 0) of a Swiss or a knockout (a Swiss plays
        `pairs` a round, the same for every pairing): the starts in turn, in an order
        shuffled by the run's seed."""
        starts = list(self.start_positions)
        random.Random(f"{self.seed}|starts").shuffle(starts)
        return starts[number % len(starts)]

    def pair_games(self, label: str, a: str, b: str, start: str) -> list[GameSpec]:
        """The two games of `a` and `b` on `start`, seats swapped, with one seed; their keys
        start with `label` (the round, and a knockout's tie and pair)."""
        pair_key = f"{label}|{start}|{a}|{b}"
        return [GameSpec(f"{label}|{start}|{first}|{second}", (first, second), start,
                         pair_key) for first, second in ((a, b), (b, a))]

    def schedule(self) -> list[GameSpec]:
        """Every game of a round robin (each pair, both seats of every start, every round),
        in an order shuffled by the run's seed; a Swiss's or a knockout's games are
        decided as it goes (`judge.kinds.tournament`)."""
        if self.system is not System.ROUND_ROBIN:
            return []
        game = self.load_game()
        if self.gauntlet:
            pairs = [(self.gauntlet, b) for b in self.entrants if b != self.gauntlet]
        else:
            pairs = list(combinations(self.entrants, 2))
        specs = []
        for rnd in range(1, self.rounds + 1):
            for text in self.start_positions:
                mover = game.mover(game.parse_position(text))
                for a, b in pairs:
                    for first, second in ((a, b), (b, a)):
                        players = (first, second) if mover == 0 else (second, first)
                        specs.append(GameSpec(f"{rnd}|{text}|{first}|{second}", players, text))
        random.Random(self.seed).shuffle(specs)
        return specs

    def _own_config(self) -> dict[str, Any]:
        return {"entrants": list(self.entrants), "gauntlet": self.gauntlet,
                "starts": self.starts_file, "start_positions": list(self.start_positions),
                "rounds": self.rounds, "system": self.system.value, "pairs": self.pairs}

    @classmethod
    def rebuild(cls, common: dict[str, Any], config: dict[str, Any]) -> TournamentPlan:
        c = config
        system = System(c.get("system") or System.ROUND_ROBIN.value)
        # a Swiss stored before version 5 played one game pair a pairing
        one = system is System.SWISS and int(c.get("version") or 1) < 5
        return cls(**common, entrants=tuple(c["entrants"]), gauntlet=c.get("gauntlet"),
                   starts_file=c.get("starts"),
                   start_positions=tuple(c.get("start_positions") or ()),
                   rounds=int(c.get("rounds") or 1), system=system,
                   pairs=1 if one else int(c.get("pairs") or 2))

    def _own_argv(self) -> list[str]:
        words = ["--starts", self.starts_file] if self.starts_file else []
        if self.rounds != 1:
            words += ["--rounds", str(self.rounds)]
        if self.gauntlet:
            words += ["--gauntlet", self.gauntlet]
        if self.system is not System.ROUND_ROBIN:
            words += ["--system", self.system.value]
        if self.system is not System.ROUND_ROBIN and self.pairs != 2:
            words += ["--pairs", str(self.pairs)]
        if OPTIMAL in self.entrants:
            words.append("--include-optimal")
        return words


class Progress(NamedTuple):
    """How far a Swiss or a knockout has got: its rounds played to the end (a Swiss's as
    `judge.pairing` rounds), a knockout's ties so far, and the games of the pairs it plays
    now (none: it is over)."""

    rounds: list[Round]
    ties: list[Tie]
    current: list[GameSpec]


def pair_points(records: dict[str, PlayedGame], specs: list[GameSpec], who: str
                ) -> float | None:
    """`who`'s points (0 to 2) in a game pair, a void game counted as a tie; None while a
    game of it is not stored."""
    if any(s.key not in records for s in specs):
        return None
    results = (records[s.key].result_for(s.players.index(who)) for s in specs)
    return sum(TOURNAMENT_POINTS[r] if r is not None else 0.5 for r in results)


def swiss_progress(plan: TournamentPlan, records: dict[str, PlayedGame]) -> Progress:
    """A Swiss's rounds, each paired (`judge.pairing.pair`, seeds in the entrants' order)
    from the rounds before it; every pairing plays `plan.pairs` game pairs on the round's
    starts (keyed by the round, ``001``, then ``001.2``, ... for the second pair on), and
    scores for the pairing the share of their points."""
    played: list[Round] = []
    for number in range(plan.rounds):
        pairing = pair(len(plan.entrants), played)
        labels = [f"{number + 1:03d}" + (f".{k + 1}" if k else "") for k in range(plan.pairs)]
        starts = [plan.round_start(number * plan.pairs + k) for k in range(plan.pairs)]
        games, specs = [], []
        for p in pairing.pairs:
            a, b = plan.entrants[p.first], plan.entrants[p.second]
            game_pairs = [plan.pair_games(label, a, b, start)
                          for label, start in zip(labels, starts, strict=True)]
            specs += [spec for pair_specs in game_pairs for spec in pair_specs]
            points = [x for pair_specs in game_pairs
                      if (x := pair_points(records, pair_specs, a)) is not None]
            if len(points) == len(game_pairs):
                games.append(PairedGame(p.first, p.second, sum(points) / (2 * plan.pairs)))
        if len(games) < len(pairing.pairs):
            return Progress(played, [], specs)
        played.append(Round(tuple(games), pairing.bye))
    return Progress(played, [], [])


def knockout_progress(plan: TournamentPlan, records: dict[str, PlayedGame]) -> Progress:
    """A knockout's ties round by round: the seeded bracket (`judge.pairing.bracket`), each
    tie `plan.pairs` game pairs, then while level one more pair at a time, up to
    `DECIDER_PAIRS` more, after which the higher seed goes on."""
    seeds = {who: n for n, who in enumerate(plan.entrants)}
    alive = [None if s is None else plan.entrants[s] for s in bracket(len(plan.entrants))]
    ties: list[Tie] = []
    number = 0
    while len(alive) > 1:
        current: list[GameSpec] = []
        winners: list[str | None] = []
        for slot in range(0, len(alive), 2):
            a, b = alive[slot], alive[slot + 1]
            if a is None or b is None:
                ties.append(Tie(number + 1, a or b or "", None, (), a or b))
                winners.append(a or b)
                continue
            high, low = sorted((a, b), key=seeds.__getitem__)
            tie, missing = knockout_tie(plan, records, number, slot // 2, high, low)
            ties.append(tie)
            winners.append(tie.winner)
            current += missing
        if current:
            return Progress([], ties, current)
        alive, number = winners, number + 1
    return Progress([], ties, [])


def knockout_tie(plan: TournamentPlan, records: dict[str, PlayedGame], number: int,
                 index: int, high: str, low: str) -> tuple[Tie, list[GameSpec]]:
    """Tie `index` of round `number` (both from 0) as far as it is played, and the games of
    the pairs it plays next (its first `plan.pairs` at once, a decider alone)."""
    most = plan.pairs + DECIDER_PAIRS

    def games(k: int) -> list[GameSpec]:
        return plan.pair_games(f"{number + 1:02d}.{index + 1:03d}.{k + 1:02d}", high, low,
                               plan.round_start(number * most + k))

    points: list[float] = []
    lead = 0.0
    for k in range(most):
        got = pair_points(records, games(k), high)
        if got is None:
            missing = [g for j in range(k, max(k + 1, plan.pairs)) for g in games(j)]
            return Tie(number + 1, high, low, tuple(points), None), missing
        points.append(got)
        lead = 2 * sum(points) - 2 * len(points)  # high's points minus low's
        if k + 1 >= plan.pairs and lead:
            break
    return Tie(number + 1, high, low, tuple(points), high if lead >= 0 else low), []


def progress(plan: TournamentPlan, records: dict[str, PlayedGame]) -> Progress:
    """A Swiss's or a knockout's progress."""
    if plan.system is System.SWISS:
        return swiss_progress(plan, records)
    return knockout_progress(plan, records)


class Rounds:
    """A Swiss's or a knockout's games: the pairs of its current round, each round decided
    from the games stored before it, so a resumed run plays the same pairs."""

    one_by_one = False

    def __init__(self, plan: TournamentPlan) -> None:
        self.plan = plan
        self.records: dict[str, PlayedGame] = {}

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        self.records.update(store.games(run_id))  # the run is held: read once
        plan = self.plan
        what = (f"a Swiss of {plural(plan.rounds, 'round')}, {plural(plan.pairs, 'game pair')} a "
                f"pairing" if plan.system is System.SWISS
                else f"a knockout of {plural(plan.pairs, 'game pair')} a tie")
        return (f"tournament {run_id}: {plan.game}: {what}, "
                f"{plural(len(plan.entrants), 'entrant')}, "
                f"{plural(len(self.records), 'game')} stored, seed {plan.seed}, "
                f"confinement {plan.harness.tier} ({store.path})")

    def next(self, done: set[str]) -> list[GameSpec]:
        return [s for s in progress(self.plan, self.records).current if s.key not in done]

    def stored(self, spec: GameSpec, record: PlayedGame) -> None:
        self.records[spec.key] = record

    def stored_text(self, done: int) -> str:
        return plural(done, "game")

    def close(self) -> None:
        pass


def schedule(plan: Plan, store: Store, run_id: int, backend: Backend) -> Schedule:
    """A round robin's games all at once; a Swiss's or a knockout's round by round."""
    assert isinstance(plan, TournamentPlan)
    if plan.system is System.ROUND_ROBIN:
        return AllGames(plan, store, run_id)
    return Rounds(plan)


def standings(plan: TournamentPlan, records: dict[str, PlayedGame]) -> Standings:
    """Standings (best first), crosstable and the games, from the stored records."""
    entrants = plan.entrants
    per_bot: dict[str, list[tuple[PlayedGame, int]]] = defaultdict(list)
    cross: dict[str, dict[str, list[float]]] = {b: defaultdict(list) for b in entrants}
    pairs = []
    for key in sorted(records):
        rec = records[key]
        a, b = rec.players
        per_bot[a].append((rec, 0))
        per_bot[b].append((rec, 1))
        res = rec.result_for(0)
        if res is not None:
            score = TOURNAMENT_POINTS[res]
            pairs.append((a, b, score))
            cross[a][b].append(score)
            cross[b][a].append(1 - score)
    games = listed_games((key, records[key]) for key in sorted(records))
    from judge.ratings import fit  # NumPy: only once there are games to rate

    ratings = fit(entrants, pairs) if pairs else {}
    table = []
    for bot in entrants:
        row = summarise(bot, per_bot[bot], TOURNAMENT_POINTS)
        # against other bots the most a bot can score is a win in every game played
        row = row._replace(max_points=row.games * TOURNAMENT_POINTS["win"])
        r = ratings.get(bot)
        table.append(Standing(row, None if r is None else round(r.rating, 1),
                              None if r is None else round(r.low, 1),
                              None if r is None else round(r.high, 1)))
    # by share of the points (a gauntlet's bots play different numbers of games), then rating
    table.sort(key=lambda s: (-(s.row.points / s.row.games if s.row.games else 0),
                              -(s.rating or 0)))
    crosstable = {a: {b: sum(v) for b, v in cross[a].items()} for a in entrants}
    identical = sum(1 for g in games if g.identical_to)
    if plan.system is System.ROUND_ROBIN:
        return Standings(table, crosstable, identical, games)
    done = progress(plan, records)
    if plan.system is System.KNOCKOUT:
        return Standings(table, crosstable, identical, games, done.ties)
    # a Swiss: by its score (in points of games: a pairing's share times its games), then
    # tie-breaks
    line = {s.row.bot: s for s in table}
    games_a_pairing = 2 * plan.pairs
    table = [line[entrants[r.player]]._replace(swiss=SwissScore(
        games_a_pairing * r.points, games_a_pairing * r.buchholz,
        games_a_pairing * r.sonneborn_berger, r.byes))
        for r in swiss_standings(len(entrants), done.rounds)]
    return Standings(table, crosstable, identical, games)


#: the standings at 80 columns: wins, ties and losses in one column, no interval
NARROW_STANDINGS = (["rank", "bot", "points", "w/t/l", "rating", "accuracy", "slow", "cpu",
                     "memory", "failures"],
                    Fit({"bot": "path", "failures": "text"}, drop=("slow",),
                        optional=("cpu", "memory")))


#: a Swiss's standings at 80 columns: its score and tie-breaks first
NARROW_SWISS = (["rank", "bot", "score", "buchholz", "s-b", "w/t/l", "rating", "accuracy",
                 "failures"],
                Fit({"bot": "path", "failures": "text"}, optional=("accuracy",)))


#: the games at 80 columns: the names shortened, result and verdict in one column, the
#: messages under it
NARROW_GAMES = (["game", "players", "results", "moves"],
                Fit({"moves": "text", "players": "text", "results": "text"}))


#: the crosstable's columns per block at 80 columns (its rows repeated under each block)
CROSS_BLOCK = 8


#: a name in a narrowed players column
NAME_WIDTH = 16


def tournament_text(store: Store, run_id: int, fmt: str, details: bool,
                    output_dir: str | None = None, wide: bool = False,
                    report: bool = True) -> Text:
    """A stored tournament as text (CSV: one table); a `table` fits 80 columns unless
    `wide`. With `output_dir`, every table is written there as a file, and the tournament
    given as text only if `report`."""
    info = store.run(run_id)
    plan = info.plan
    assert isinstance(plan, TournamentPlan)
    records = store.games(run_id)
    data = standings(plan, records)
    state = run_state(store, info, len(records))
    if fmt == "json":
        return Text(to_json({"run": run_id, "game": info.game, "state": state,
                             "seed": plan.seed, "tier": plan.harness.tier,
                             **data.to_json()}))
    rows = []
    for rank, s in enumerate(data.standings, 1):
        b = s.row
        swiss = {} if s.swiss is None else {
            "score": f"{s.swiss.points:g}", "buchholz": f"{s.swiss.buchholz:g}",
            "s-b": f"{s.swiss.sonneborn_berger:g}", "byes": s.swiss.byes}
        interval = "" if s.rating is None else f"[{s.rating_low:.0f}, {s.rating_high:.0f}]"
        rows.append(dict(s.to_json(), rank=rank, points=f"{b.points:g}/{b.games}",
                         rating="" if s.rating is None else Number(f"{s.rating:.0f}"),
                         interval=interval,
                         failures=failures_text(b.failures, b.judge_errors),
                         slow=b.slow_moves, cpu=seconds_text(b.max_cpu_seconds),
                         memory=memory_text(b.max_memory_bytes),
                         **{"w/t/l": wtl(b.wins, b.ties, b.losses)},
                         accuracy="" if b.accuracy is None else f"{100 * b.accuracy:.1f}%",
                         **swiss))
    names = [s.row.bot for s in data.standings]
    cross = data.crosstable
    cross_rows = [{"bot": a, **{f"#{j}": (f"{cross[a][b]:g}" if b in cross[a] else "")
                                for j, b in enumerate(names, 1)}} for a in names]
    games = [dict(g.to_json(), game=n, players=" vs ".join(g.players),
                  results="-".join(g.results), moves=", ".join(g.moves))
             for n, g in enumerate(data.games, 1)]
    swiss_columns = ["score", "buchholz", "s-b", "byes"] if plan.system is System.SWISS else []
    tables = {
        "standings": (rows, ["rank", "bot", *swiss_columns, "points", "wins", "ties",
                             "losses", "rating", "interval", "accuracy", "slow", "cpu",
                             "memory", "failures"]),
        "crosstable": (cross_rows, ["bot", *[f"#{j}" for j in range(1, len(names) + 1)]]),
        "games": (games, ["game", "key", "players", "results", "verdict", "message", "moves"]),
    }
    out: list[str] = []
    written = [] if output_dir is None else write_tables(output_dir, fmt, tables)
    if not report:
        return Text("".join(out), tuple(written))
    if fmt == "csv":  # one table: the games with --details, else the standings
        out.append(render_table(tables["games" if details else "standings"], fmt))
        return Text("".join(out), tuple(written))
    narrow = fmt == "table" and not wide
    if fmt == "table":
        out.append(f"tournament {run_id}: {plan.game if narrow else info.game} (seed "
                   f"{plan.seed}, confinement {plan.harness.tier})\n")
    if narrow:
        out.append(rules_line(info.game))
    out.append(render_rows(rows, fmt, *(NARROW_SWISS if swiss_columns
                                        else NARROW_STANDINGS)) if narrow
               else render_table(tables["standings"], fmt))
    if data.ties is not None:
        out.append("\n" + ties_text(data.ties))
    out.append(compile_errors_text((shortened(s.row.bot, 64, keep_end=True) if narrow
                                    else s.row.bot, s.row.compile_error)
                                   for s in data.standings))
    out.append("\n")
    if narrow:
        for first in range(1, len(names) + 1, CROSS_BLOCK):
            columns = [f"#{j}" for j in range(first, min(first + CROSS_BLOCK, len(names) + 1))]
            out.append(("\n" if first > 1 else "")
                       + render_rows(cross_rows, fmt, ["bot", *columns],
                                     Fit({"bot": "path"})))
    else:
        out.append(render_table(tables["crosstable"], fmt))
    if data.identical_games:
        repeat = "game repeats" if data.identical_games == 1 else "games repeat"
        out.append(f"\n{data.identical_games} {repeat} an earlier game move for "
                   "move (deterministic bots): more rounds add no information.\n")
    if details:
        out.append("\n")
        if narrow:
            out.append(narrow_games(games, [g.players for g in data.games],
                                    [(g.results, g.verdict) for g in data.games],
                                    NARROW_GAMES))
        else:
            out.append(render_table(tables["games"], fmt))
    return Text("".join(out), tuple(written))


def ties_text(ties: list[Tie]) -> str:
    """A knockout's bracket, round by round: each tie's pairs (the higher seed's points
    first) and who goes on."""
    lines: list[str] = []
    for n, tie in enumerate(ties):
        if n == 0 or tie.round != ties[n - 1].round:
            lines.append(f"round {tie.round}")
        high = printable_line(tie.high)
        if tie.low is None:
            lines.append(f"  {high}: bye")
            continue
        pairs = ", ".join(f"{p:g}-{2 - p:g}" for p in tie.points) or "not played"
        goes_on = "playing" if tie.winner is None else f"{printable_line(tie.winner)} goes on"
        lines.append(f"  {high} v {printable_line(tie.low)}: {pairs}: {goes_on}")
    return "".join(line + "\n" for line in lines)


def narrow_games(rows: list[dict], players: list[tuple[str, ...]],
                 outcomes: list[tuple[tuple[str, ...], str]],
                 narrow: tuple[list[str], Fit]) -> str:
    """A tournament's or a match's games at 80 columns: the players' names shortened,
    results and verdict in one column, the messages under the table."""
    for row, who, (results, verdict) in zip(rows, players, outcomes, strict=True):
        row.update(players=" vs ".join(shortened(name, NAME_WIDTH, keep_end=True)
                                       for name in who),
                   results=outcome("-".join(results), verdict))
    return (render_rows(rows, "table", *narrow)
            + notes([(row["game"], row["message"]) for row in rows]))


TOURNAMENT_COLUMNS = [("n", "#", 9), ("one", "player 1", 40), ("two", "player 2", 40),
                      ("start", "start", 30), ("result", "result", 8),
                      ("verdict_text", "verdict", 26), ("moves", "moves", 8),
                      ("twin", "repeats", None), ("seed", "seed", 13)]


def page(store: Store, info: StoredRun, game: Game, records: dict[str, PlayedGame],
         view: View, numbered: list[tuple[int, tuple[PlayedGame, int]]]) -> Page:
    """Standings, rating chart, crosstable heat map and games of a tournament."""
    from judge.html.pages import (
        column_widths,
        crosstable,
        failure_totals,
        rating_chart,
        result_words,
        tournament_result,
    )

    plan = info.plan
    assert isinstance(plan, TournamentPlan)
    data = standings(plan, records)
    table = data.standings
    names = [s.row.bot for s in table]
    number = {g.key: n for n, g in enumerate(data.games, 1)}
    games: list[dict[str, Any]] = []
    for n, g in enumerate(data.games, 1):
        games.append({
            "n": n, "players": list(g.players), "start": g.start,
            "result": tournament_result(g.results), "verdict": g.verdict,
            "verdict_text": verdict_text(g.verdict, records[g.key].verdict.seat),
            "moves": len(g.moves), "seed": g.seed,
            "twin": number.get(g.identical_to) if g.identical_to else None,
            "results": [result_words(g.results, s) for s in (0, 1)],
        })
    listed: list[tuple[int, tuple[PlayedGame, int | None]]] = [
        (n, (records[g.key], None)) for n, g in enumerate(data.games, 1)]
    return Page("tournament.html.j2", {
        "standings": [s.to_json() for s in table],
        "swiss": plan.system is System.SWISS,
        "ties": None if data.ties is None else [t.to_json() for t in data.ties],
        "chart": rating_chart(table),
        "cross": crosstable(names, records, data.crosstable),
        "names": names,
        "failures": failure_totals(table),
        "identical": data.identical_games,
        "games": games,
        "columns": column_widths([dict(g, one=g["players"][0], two=g["players"][1])
                                  for g in games], TOURNAMENT_COLUMNS),
    }, listed)


def verdict_text(code: str, seat: int | None) -> str:
    """`garbage (player 2)`: the verdict and the seat it was charged to."""
    return code if code == "ok" or seat is None else f"{code} (player {seat + 1})"


# --- its command: judge tournament --------------------------------------------------------

def arguments(p: argparse.ArgumentParser, options: Options) -> None:
    """The arguments of `judge tournament`."""
    options.add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="bot programs: a source file in one of the languages below, or any "
                   "executable; or the judge's own players: optimal (as --include-optimal) "
                   "and weaker levels level:N, N from 0 (random play) to 10 (perfect play)")
    p.add_argument("--starts", metavar="FILE",
                   help="start positions, one per line (default: the game's own set, 12 of "
                   "its test positions unless it says otherwise, less any whose result no "
                   "move of either player changes)")
    p.add_argument("--rounds", type=int, default=1, metavar="K",
                   help="play the whole schedule K times (default 1); a Swiss: its rounds")
    p.add_argument("--system", choices=[s.value for s in System],
                   default=System.ROUND_ROBIN.value,
                   help="round-robin (each against each, the default); swiss (--rounds "
                   "rounds, each paired by score, in the bots' order as seeds); knockout "
                   "(a seeded bracket, the bots' order as seeds)")
    p.add_argument("--pairs", type=int, default=2, metavar="K",
                   help=f"game pairs per pairing (default 2, each on a start of its own): "
                   f"a Swiss's each round; a knockout's per tie, and while level up to "
                   f"{DECIDER_PAIRS} more, one at a time, then the higher seed goes on")
    p.add_argument("--gauntlet", metavar="BOT",
                   help="this bot plays each of the others; the others do not meet")
    p.add_argument("--include-optimal", action="store_true",
                   help="add the optimal player as a participant")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted tournament, playing only its missing games")
    options.add_harness_options(p, entry=True, clocks=True)
    options.add_output_options(p)


#: the most rounds of a tournament (each plays every pair on every start twice)
MAX_ROUNDS = 1000


def new_plan(args: argparse.Namespace, inputs: Inputs
             ) -> tuple[TournamentPlan, list[str]]:
    """The plan of a new tournament, and the messages of bots skipped."""
    gauntlet = args.gauntlet and seat_name(inputs.as_given([args.gauntlet])[0])
    names = [seat_name(n) for n in inputs.as_given(args.bots)]
    if gauntlet and gauntlet not in names:
        names.insert(0, gauntlet)
    judges = judge_players(names, args.include_optimal)
    programs = [n for n in names if is_program(n)]
    harness = inputs.harness_setup(args)  # the language table first: bots are compiled next
    bots, skipped = (inputs.check_bots(programs, folders=True, entry=harness.entry) if programs
                     else ([], []))
    entrants = bots + judges
    if len(entrants) < 2:
        error = inputs.NothingToGrade if skipped else InputError  # 3: a language is missing
        raise error("a tournament needs at least two participants "
                    "(name two bots, or add optimal or a level:N)")
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise InputError(f"--rounds must be from 1 to {MAX_ROUNDS}")
    system = System(args.system)
    if system is not System.ROUND_ROBIN and gauntlet:
        raise InputError(f"--gauntlet plays a round robin, not --system {system.value}")
    if system is not System.ROUND_ROBIN:  # seeded in the order named (--include-optimal last)
        entrants.sort(key=lambda e: names.index(e) if e in names else len(names))
    if not 1 <= args.pairs <= MAX_ROUNDS:
        raise InputError(f"--pairs must be from 1 to {MAX_ROUNDS}")
    if system is System.KNOCKOUT and args.rounds != 1:
        raise InputError("--rounds goes with a round robin or a Swiss: a knockout plays "
                         "until one is left, each tie --pairs K game pairs")
    if system is System.ROUND_ROBIN and args.pairs != 2:
        raise InputError("--pairs K is a Swiss's or a knockout's game pairs per pairing "
                         "(--system swiss or knockout): a round robin plays every start")
    game = inputs.game_from_args(args)
    plan = TournamentPlan(
        game=game.name, rules=game.rules_string(), harness=harness.seeded(),
        directory=os.getcwd(), sources=inputs.sources(bots), entrants=tuple(entrants),
        gauntlet=gauntlet, starts_file=args.starts,
        start_positions=tuple(inputs.paired_starts(game, args.starts)), rounds=args.rounds,
        system=system, pairs=args.pairs)
    return replace(plan, planned=planned(plan)), skipped


def planned(plan: TournamentPlan) -> int:
    """How many games the tournament plays: a round robin's schedule; a Swiss's pairings
    of every round, --pairs pairs each; a knockout's ties of --pairs pairs each, deciders
    left out."""
    if plan.system is System.SWISS:
        return plan.rounds * (len(plan.entrants) // 2) * plan.pairs * 2
    if plan.system is System.KNOCKOUT:
        return (len(plan.entrants) - 1) * plan.pairs * 2
    return len(plan.schedule())


def seat_name(name: str) -> str:
    """A participant's name as the plan records it: ``level:N`` written one way (checked),
    anything else as given."""
    return f"{PREFIX}{parse_level(name)}" if is_level(name) else name


def judge_players(names: list[str], include_optimal: bool) -> list[str]:
    """The participants the judge plays itself: the ``level:N`` among `names`, then the
    perfect player when it is named (``optimal``) or `include_optimal`; each only once."""
    levels = [n for n in names if is_level(n)]
    twice = {n for n in levels if levels.count(n) > 1}
    if twice:
        raise InputError(f"{', '.join(sorted(twice))} is named twice")
    return levels + ([OPTIMAL] if include_optimal or OPTIMAL in names else [])


COMMAND = Command(
    help="play bots against each other: standings, ratings, crosstable",
    description="Every pair of bots plays every start in both seats (a round robin), or "
    "one bot plays each of the others (--gauntlet). Points 1/0.5/0 per game; ratings "
    "on the Elo scale from a joint Bradley-Terry model with a prior, with 95% intervals; "
    "move accuracy against perfect play. The schedule comes from a recorded seed, and "
    "every game is stored as it ends, so --resume plays exactly the missing games. "
    "--system swiss pairs the entrants round by round by score (each pairing --pairs "
    "pairs of games, seats swapped), --system knockout in a seeded bracket.",
    epilog="examples:\n  judge tournament --game ioiwari bots/ioiwari/*.py\n"
    "  judge tournament --game nim --include-optimal --rounds 2 bots/nim/*\n"
    "  judge tournament --game nim bots/nim/greedy.py level:3 level:6 optimal\n"
    "  judge tournament --game ioiwari --gauntlet bots/ioiwari/greedy.py bots/ioiwari/*\n"
    "  judge tournament --game nim --system swiss --rounds 7 bots/nim/*\n"
    "  judge tournament --game nim --system knockout --pairs 2 bots/nim/*",
    arguments=arguments,
    fixed=("--game", "--rules", "--starts", "--gauntlet", "--rounds", "--include-optimal",
           "--system", "--pairs", "--entry"),
    new_plan=new_plan,
)


KIND = Kind("tournament", by_key,
            lambda store, run_id, fmt, details, folder, wide, report, output:
            tournament_text(store, run_id, fmt, details, folder, wide, report),
            page, schedule, command=COMMAND)
