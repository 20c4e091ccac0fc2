"""A tournament (`judge tournament`): every pair of entrants on every start in both seats.
Its schedule (the plan's, every game at once), its rows (standings, ratings, crosstable),
its numbering of games, its text and its HTML page."""

from __future__ import annotations

import sys
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from judge.kinds.base import AllGames, Kind, Page, by_key, run_state
from judge.plan import TournamentPlan
from judge.report import (
    Fit,
    Number,
    notes,
    outcome,
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
from judge.summaries import Standing, Standings, View, listed_games, summarise

if TYPE_CHECKING:
    from judge.games.base import Game
    from judge.records import PlayedGame


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
    return Standings(table, crosstable, identical, games)


#: the standings at 80 columns: wins, ties and losses in one column, no interval
NARROW_STANDINGS = (["rank", "bot", "points", "w/t/l", "rating", "accuracy", "slow", "cpu",
                     "memory", "failures"],
                    Fit({"bot": "path", "failures": "text"}, drop=("slow",),
                        optional=("cpu", "memory")))


#: the games at 80 columns: the names shortened, result and verdict in one column, the
#: messages under it
NARROW_GAMES = (["game", "players", "results", "moves"],
                Fit({"moves": "text", "players": "text", "results": "text"}))


#: the crosstable's columns per block at 80 columns (its rows repeated under each block)
CROSS_BLOCK = 8


#: a name in a narrowed players column
NAME_WIDTH = 16


def print_tournament(store: Store, run_id: int, fmt: str, details: bool,
                     output_dir: str | None = None, wide: bool = False,
                     report: bool = True) -> list[str]:
    """Print a stored tournament (CSV: one table); a `table` fits 80 columns unless `wide`.
    With `output_dir`, every table is written there as a file, and the tournament printed
    only if `report`; returns the names of the files."""
    info = store.run(run_id)
    plan = info.plan
    assert isinstance(plan, TournamentPlan)
    records = store.games(run_id)
    data = standings(plan, records)
    state = run_state(store, info, len(records))
    if fmt == "json":
        sys.stdout.write(to_json({"run": run_id, "game": info.game, "state": state,
                                  "seed": plan.seed, "tier": plan.harness.tier,
                                  **data.to_json()}))
        return []
    rows = []
    for rank, s in enumerate(data.standings, 1):
        b = s.row
        interval = "" if s.rating is None else f"[{s.rating_low:.0f}, {s.rating_high:.0f}]"
        rows.append(dict(s.to_json(), rank=rank, points=f"{b.points:g}/{b.games}",
                         rating="" if s.rating is None else Number(f"{s.rating:.0f}"),
                         interval=interval,
                         failures=failures_text(b.failures, b.judge_errors),
                         slow=b.slow_moves, cpu=seconds_text(b.max_cpu_seconds),
                         memory=memory_text(b.max_memory_bytes),
                         **{"w/t/l": wtl(b.wins, b.ties, b.losses)},
                         accuracy="" if b.accuracy is None else f"{100 * b.accuracy:.1f}%"))
    names = [s.row.bot for s in data.standings]
    cross = data.crosstable
    cross_rows = [{"bot": a, **{f"#{j}": (f"{cross[a][b]:g}" if b in cross[a] else "")
                                for j, b in enumerate(names, 1)}} for a in names]
    games = [dict(g.to_json(), game=n, players=" vs ".join(g.players),
                  results="-".join(g.results), moves=", ".join(g.moves))
             for n, g in enumerate(data.games, 1)]
    tables = {
        "standings": (rows, ["rank", "bot", "points", "wins", "ties", "losses", "rating",
                             "interval", "accuracy", "slow", "cpu", "memory", "failures"]),
        "crosstable": (cross_rows, ["bot", *[f"#{j}" for j in range(1, len(names) + 1)]]),
        "games": (games, ["game", "key", "players", "results", "verdict", "message", "moves"]),
    }
    written = [] if output_dir is None else write_tables(output_dir, fmt, tables)
    if not report:
        return written
    if fmt == "csv":  # one table: the games with --details, else the standings
        sys.stdout.write(render_table(tables["games" if details else "standings"], fmt))
        return written
    narrow = fmt == "table" and not wide
    if fmt == "table":
        sys.stdout.write(f"tournament {run_id}: {plan.game if narrow else info.game} (seed "
                         f"{plan.seed}, confinement {plan.harness.tier})\n")
    if narrow:
        sys.stdout.write(rules_line(info.game))
    sys.stdout.write(render_rows(rows, fmt, *NARROW_STANDINGS) if narrow
                     else render_table(tables["standings"], fmt))
    sys.stdout.write(compile_errors_text((shortened(s.row.bot, 64, keep_end=True) if narrow
                                          else s.row.bot, s.row.compile_error)
                                         for s in data.standings))
    sys.stdout.write("\n")
    if narrow:
        for first in range(1, len(names) + 1, CROSS_BLOCK):
            columns = [f"#{j}" for j in range(first, min(first + CROSS_BLOCK, len(names) + 1))]
            sys.stdout.write(("\n" if first > 1 else "")
                             + render_rows(cross_rows, fmt, ["bot", *columns],
                                           Fit({"bot": "path"})))
    else:
        sys.stdout.write(render_table(tables["crosstable"], fmt))
    if data.identical_games:
        repeat = "game repeats" if data.identical_games == 1 else "games repeat"
        sys.stdout.write(f"\n{data.identical_games} {repeat} an earlier game move for "
                         "move (deterministic bots): more rounds add no information.\n")
    if details:
        sys.stdout.write("\n")
        if narrow:
            write_narrow_games(games, [g.players for g in data.games],
                               [(g.results, g.verdict) for g in data.games], NARROW_GAMES)
        else:
            sys.stdout.write(render_table(tables["games"], fmt))
    return written


def write_narrow_games(rows: list[dict], players: list[tuple[str, ...]],
                       outcomes: list[tuple[tuple[str, ...], str]],
                       narrow: tuple[list[str], Fit]) -> None:
    """A tournament's or a match's games at 80 columns: the players' names shortened,
    results and verdict in one column, the messages under the table."""
    for row, who, (results, verdict) in zip(rows, players, outcomes, strict=True):
        row.update(players=" vs ".join(shortened(name, NAME_WIDTH, keep_end=True)
                                       for name in who),
                   results=outcome("-".join(results), verdict))
    sys.stdout.write(render_rows(rows, "table", *narrow))
    sys.stdout.write(notes([(row["game"], row["message"]) for row in rows]))


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


KIND = Kind("tournament", by_key,
            lambda store, run_id, fmt, details, folder, wide, report, output:
            print_tournament(store, run_id, fmt, details, folder, wide, report),
            page, lambda plan, store, run_id, backend: AllGames(plan, store, run_id))
