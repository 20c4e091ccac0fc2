"""`judge run`: grade bots against the optimal opponent on a test set, stored and resumable."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from judge.commands.common import (
    add_game_options,
    add_harness_options,
    add_opponent_option,
    add_output_options,
    check_bots,
    check_cluster,
    check_output,
    check_output_dir,
    exit_status,
    game_from_args,
    harness_setup,
    load_starts,
    open_store,
    output_to,
    play_missing,
    refuse_with_resume,
    remember_defaults,
    resumed,
    run_state,
    sources,
)
from judge.games.base import Game, InputError
from judge.plan import GradingPlan
from judge.report import render_rows, to_json, write_tables
from judge.results import (
    compile_errors_text,
    failures_text,
    mistake_text,
)
from judge.schedule import OPTIMAL, GameSpec
from judge.summaries import grading_rows
from judge.testsets import default_tests


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` subcommand."""
    p = sub.add_parser(
        "run",
        help="grade bots against the optimal opponent on a test set",
        description="Grade each BOT against the optimal opponent on every start of a test set. "
        "Scoring per game: Ioiwari 4/2/0 (as in IOI 2001), Nim 1/0, Chopsticks 1/0.5/0. The "
        "default test set holds starts that the graded seat can win (or hold, in loopy "
        "Chopsticks variants), so every lost point is the bot's doing. Every game is stored "
        "in the results database as it ends: an interrupted run continues with --resume.",
        epilog="examples:\n  judge run --game ioiwari bots/ioiwari/*\n"
        "  judge run --game nim --rules misere=on --seats both bots/nim/optimal_misere.py\n"
        "  judge run --resume 3            (continue run 3 of judge-results.sqlite)\n"
        "  judge show 3 --details          (show it again without playing)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="bot programs: a source file in one of the languages below, or any "
                   "executable")
    p.add_argument("--tests", metavar="FILE",
                   help="start positions, one per line (default: the game's standard set)")
    p.add_argument("--seats", choices=("first", "both"), default="first",
                   help="grade the bot as the first player only (default), or in both seats")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted run, playing only its missing games")
    add_opponent_option(p)
    add_harness_options(p)
    add_output_options(p)
    p.set_defaults(func=run)
    remember_defaults(p)


def test_starts(game: Game, tests_file: str | None, seats: str) -> dict[str, tuple[str, ...]]:
    """The starts a grading run plays, per graded seat ("first", "second"), as texts."""
    starts = {}
    for first in (True, False) if seats == "both" else (True,):
        if tests_file:
            starts[SEATS[first]] = tuple(load_starts(game, tests_file))
        else:
            starts[SEATS[first]] = tuple(game.format_position(p)
                                         for p in default_tests(game, first))
            if not starts[SEATS[first]]:
                raise InputError(f"no standard start of {game.describe()} is won (or held) by "
                                 f"the {SEATS[first]} player: give --tests FILE")
    return starts


SEATS = {True: "first", False: "second"}


def schedule(game: Game, bots: tuple[str, ...] | list[str],
             starts: dict[str, tuple[str, ...]]) -> list[GameSpec]:
    """Every (bot, start, seat) game of a grading run, in a fixed order."""
    specs = []
    for seat_name, texts in starts.items():
        first = seat_name == "first"
        for text in texts:
            pos = game.parse_position(text)
            bot_seat = game.mover(pos) if first else 1 - game.mover(pos)
            for bot in bots:
                players = (bot, OPTIMAL) if bot_seat == 0 else (OPTIMAL, bot)
                key = f"{bot}|{text}|{seat_name}"
                specs.append(GameSpec(key, players, text))
    return specs


def run(args: argparse.Namespace) -> int:
    """Grade the bots (or resume a run) and print the results."""
    skipped: list[str] = []
    check_output_dir(args.output_dir)
    check_output(args.output, [args.db, *args.bots])
    if args.resume is not None:
        store = open_store(args.db, must_exist=True)
        refuse_with_resume(args, "--game", "--rules", "--tests", "--seats", "bots")
        run_id = args.resume
        plan = resumed(store, args.resume, "run")
        assert isinstance(plan, GradingPlan)
        check_cluster(args, plan)  # before the run is touched
    else:
        if not args.game:
            raise InputError("--game is required (or --resume RUN)")
        if not args.bots:
            raise InputError("name at least one BOT to grade")
        game = game_from_args(args)
        harness = harness_setup(args)
        starts = test_starts(game, args.tests, args.seats)
        bots, skipped = check_bots(args.bots)
        plan = GradingPlan(
            game=game.name, rules=game.rules_string(), harness=harness,
            opponent=args.opponent, directory=os.getcwd(), sources=sources(bots),
            planned=len(schedule(game, bots, starts)), bots=tuple(bots), tests=args.tests,
            seats=args.seats, starts=starts)
        check_cluster(args, plan)
        from judge.schedule import plays_here

        if not getattr(args, "cluster", None) and plays_here(harness.jobs, plan.planned):
            from judge.sandbox.context import sandbox_context

            sandbox_context().warm()  # games played here: their slots made ready meanwhile
        store = open_store(args.db)  # only now: a refused command leaves no database behind
        run_id = store.create_run(plan)
    specs = schedule(plan.load_game(), plan.bots, plan.starts)
    play_missing(store, run_id, plan, specs, args)
    with output_to(args.output):
        print_run(store, run_id, args.format, args.details, args.output_dir)
    return exit_status(store, run_id, args.resume is None and bool(skipped))


def print_run(store: Any, run_id: int, fmt: str, details: bool,
              output_dir: str | None = None) -> None:
    """Print a stored grading run in the chosen format (CSV: one table; all of them as
    files in `output_dir`)."""
    info = store.run(run_id)
    plan = info.plan
    assert isinstance(plan, GradingPlan)
    records = store.games(run_id)
    bots, games = grading_rows(plan, records)
    state = run_state(store, info, len(records))
    opponent = plan.opponent
    if fmt == "html":
        from judge.html import render_report

        sys.stdout.write(render_report(store, run_id))
        return
    if fmt == "json":
        sys.stdout.write(to_json({"run": run_id, "game": info.game, "state": state,
                                  "tier": plan.harness.tier, "opponent": opponent,
                                  "bots": bots, "games": games}))
        return
    rows = [dict(b, points=f"{b['points']:g}/{b['max_points']:g}",
                 accuracy="" if b["accuracy"] is None else f"{100 * b['accuracy']:.1f}%",
                 failures=failures_text(b["failures"], b["judge_errors"])) for b in bots]
    headers = ["bot", "games", "wins", "ties", "losses", "points", "accuracy", "failures"]
    detail_headers = ["game", "bot", "start", "seat", "result", "verdict", "message",
                      "first_mistake", "moves"]
    detail = [dict(g, moves=", ".join(g["moves"]), game=n,
                   first_mistake=mistake_text(g["first_mistake"]))
              for n, g in enumerate(games, 1)]
    if output_dir is not None and fmt != "json":
        write_tables(output_dir, fmt, {"bots": (rows, headers),
                                       "games": (detail, detail_headers)})
    if fmt == "csv":  # one table: the games with --details, else the bots
        sys.stdout.write(render_rows(detail, fmt, detail_headers) if details
                         else render_rows(rows, fmt, headers))
        return
    if fmt == "table":
        against = "" if opponent == "optimal" else f", against the {opponent} opponent"
        sys.stdout.write(f"run {run_id}: {info.game} (confinement {plan.harness.tier}"
                         f"{against})\n")
    sys.stdout.write(render_rows(rows, fmt, headers))
    if fmt in ("table", "markdown"):  # CSV stays one table; JSON has compile_error
        sys.stdout.write(compile_errors_text(bots))
    if details:
        sys.stdout.write("\n")
        sys.stdout.write(render_rows(detail, fmt, detail_headers))
