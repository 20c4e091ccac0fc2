"""`judge tournament`: every pair on every start in both seats; standings, ratings, crosstable."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from judge.commands.inputs import (
    NothingToGrade,
    check_bots,
    game_from_args,
    harness_setup,
    paired_starts,
    sources,
)
from judge.commands.options import (
    add_game_options,
    add_harness_options,
    add_output_options,
    remember_defaults,
)
from judge.commands.runs import RunKind, execute, run_state
from judge.games.base import InputError
from judge.plan import OPTIMAL, TournamentPlan, is_program
from judge.players.level import PREFIX, is_level, parse_level
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
from judge.results import compile_errors_text, failures_text, memory_text, seconds_text
from judge.store import Store
from judge.summaries import standings


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `tournament` subcommand."""
    p = sub.add_parser(
        "tournament",
        help="play bots against each other: standings, ratings, crosstable",
        description="Every pair of bots plays every start in both seats (a round robin), or "
        "one bot plays each of the others (--gauntlet). Points 1/0.5/0 per game; ratings "
        "on the Elo scale from a joint Bradley-Terry model with a prior, with 95% intervals; "
        "move accuracy against perfect play. The schedule comes from a recorded seed, and "
        "every game is stored as it ends, so --resume plays exactly the missing games.",
        epilog="examples:\n  judge tournament --game ioiwari bots/ioiwari/*.py\n"
        "  judge tournament --game nim --include-optimal --rounds 2 bots/nim/*\n"
        "  judge tournament --game nim bots/nim/greedy.py level:3 level:6 optimal\n"
        "  judge tournament --game ioiwari --gauntlet bots/ioiwari/greedy.py bots/ioiwari/*",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="bot programs: a source file in one of the languages below, or any "
                   "executable; or the judge's own players: optimal (as --include-optimal) "
                   "and weaker levels level:N, N from 0 (random play) to 10 (perfect play)")
    p.add_argument("--starts", metavar="FILE",
                   help="start positions, one per line (default: the game's standard starts; "
                   "for Ioiwari the 51 up to rotation)")
    p.add_argument("--rounds", type=int, default=1, metavar="K",
                   help="play the whole schedule K times (default 1)")
    p.add_argument("--gauntlet", metavar="BOT",
                   help="this bot plays each of the others; the others do not meet")
    p.add_argument("--include-optimal", action="store_true",
                   help="add the optimal player as a participant")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted tournament, playing only its missing games")
    add_harness_options(p)
    add_output_options(p)
    p.set_defaults(func=run)
    remember_defaults(p)


#: the most rounds of a tournament (each plays every pair on every start twice)
MAX_ROUNDS = 1000


def new_plan(args: argparse.Namespace) -> tuple[TournamentPlan, list[str]]:
    """The plan of a new tournament, and the messages of bots skipped."""
    gauntlet = args.gauntlet and seat_name(args.gauntlet)
    names = [seat_name(n) for n in args.bots]
    if gauntlet and gauntlet not in names:
        names.insert(0, gauntlet)
    judges = judge_players(names, args.include_optimal)
    programs = [n for n in names if is_program(n)]
    harness = harness_setup(args)  # the language table first: bots are compiled next
    bots, skipped = check_bots(programs) if programs else ([], [])
    entrants = bots + judges
    if len(entrants) < 2:
        error = NothingToGrade if skipped else InputError  # 3: a language is missing
        raise error("a tournament needs at least two participants "
                    "(name two bots, or add optimal or a level:N)")
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise InputError(f"--rounds must be from 1 to {MAX_ROUNDS}")
    game = game_from_args(args)
    plan = TournamentPlan(
        game=game.name, rules=game.rules_string(), harness=harness.seeded(),
        directory=os.getcwd(), sources=sources(bots), entrants=tuple(entrants),
        gauntlet=gauntlet, starts_file=args.starts,
        start_positions=tuple(paired_starts(game, args.starts)), rounds=args.rounds)
    return replace(plan, planned=len(plan.schedule())), skipped


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


def run(args: argparse.Namespace) -> int:
    """Play (or resume) a tournament and print the standings."""
    return execute(args, RunKind(
        "tournament", ("--game", "--rules", "--starts", "--gauntlet", "--rounds",
                       "--include-optimal"), new_plan, print_tournament))


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
    if fmt == "html":
        from judge.html import render_report

        sys.stdout.write(render_report(store, run_id))
        return []
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
