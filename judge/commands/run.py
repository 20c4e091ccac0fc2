"""`judge run`: grade bots against the optimal opponent on a test set, stored and resumable."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path
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
from judge.plan import GradingPlan, MatchPlan
from judge.report import render_rows, to_json, write_tables
from judge.results import (
    POINTS,
    compile_error,
    compile_errors_text,
    failures_text,
    first_mistake,
    game_message,
    mistake_text,
    result_for,
    seat_of,
    summarise,
)
from judge.schedule import OPTIMAL, GameSpec
from judge.testsets import default_tests


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` and `show` subcommands."""
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

    s = sub.add_parser("show", help="show a stored run again without playing it",
                       description="Print the results of a stored run (grading or tournament).")
    s.add_argument("run_id", type=int, nargs="?", metavar="RUN",
                   help="the run number (default: list the runs)")
    s.add_argument("--game", type=int, metavar="N", dest="game_number",
                   help="replay game N of the run (its number in --details) move by move, "
                        "with the boards and every bot move judged, as `judge play` does")
    add_output_options(s, extra=("html", "jsonl"))
    s.add_argument("--replay", metavar="FILE",
                   help="replay the transcripts of FILE (lines of --format jsonl) through the "
                   "rules and say whether each is consistent")
    s.set_defaults(func=show)


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
            from judge.sandbox.slots import warm

            warm()  # games played here: their slots made ready meanwhile
        store = open_store(args.db)  # only now: a refused command leaves no database behind
        run_id = store.create_run(plan)
    specs = schedule(plan.load_game(), plan.bots, plan.starts)
    play_missing(store, run_id, plan, specs, args)
    with output_to(args.output):
        print_run(store, run_id, args.format, args.details, args.output_dir)
    return exit_status(store, run_id, args.resume is None and bool(skipped))


def graded_games(plan: GradingPlan, records: dict[str, dict[str, Any]]
                 ) -> list[tuple[str, list[tuple[dict[str, Any], int]]]]:
    """Per bot of a grading run, its games (record, the bot's seat), in the order the
    details list them (numbered from 1 across the bots: `judge show RUN --game N`)."""
    starts = plan.starts
    order = {f"{text}|{seat}": (n, i) for n, (seat, texts) in enumerate(starts.items())
             for i, text in enumerate(texts)}

    def place(rec: dict[str, Any]) -> tuple[int, int]:  # where its start is in the schedule
        start_seat = str(rec.get("key", "")).split("|", 1)[-1]
        return order.get(start_seat, (len(order), 0))

    return [(bot, sorted(((rec, seat_of(rec, bot)) for rec in records.values()
                          if bot in rec["players"]), key=lambda rs: place(rs[0])))
            for bot in plan.bots]


def grading_rows(plan: GradingPlan, records: dict[str, dict[str, Any]]
                 ) -> tuple[list[dict], list[dict]]:
    """The per-bot summaries and per-game rows of a grading run."""
    points = POINTS[plan.game]
    bots, games = [], []
    for bot, mine in graded_games(plan, records):
        bots.append(dict(summarise(bot, mine, points), compile_error=compile_error(mine)))
        for rec, seat in mine:
            games.append({
                "bot": bot,
                "start": rec["start"],
                "seat": seat + 1,
                "result": result_for(rec, seat) or "void",
                "verdict": rec["verdict"]["code"],
                "message": game_message(rec),
                "first_mistake": first_mistake(rec, seat),
                "moves": [m["move"] for m in rec["moves"]],
            })
    return bots, games


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


def show(args: argparse.Namespace) -> int:
    """Print a stored run, list the runs, or replay transcripts."""
    check_output_dir(args.output_dir)
    check_output(args.output, [args.db])
    if args.replay is not None:
        if (args.run_id is not None or args.game_number is not None or args.output
                or args.format != "table" or args.output_dir or args.details):
            raise InputError("--replay checks a file of transcripts: give it alone")
        return replay_file(args.replay)
    if args.run_id is None and args.format in ("html", "jsonl"):
        raise InputError(f"--format {args.format} writes one run: give the RUN "
                         "(`judge show` alone lists them)")
    if args.game_number is not None:
        if args.run_id is None:
            raise InputError("--game N replays a game of a run: give the RUN too")
        if args.format != "table" or args.output_dir:
            raise InputError("--game N prints the game as text; for a machine, give "
                             "--format jsonl (every game) or json without --game")
    if args.output_dir and args.format in ("json", "jsonl", "html"):
        raise InputError("--output-dir writes tables: give --format csv, markdown or table")
    store = open_store(args.db, must_exist=True, read_only=True)
    with output_to(args.output):
        return _show(store, args)


def _show(store: Any, args: argparse.Namespace) -> int:
    if args.run_id is None:
        rows = [dict(asdict(r), state=("finished" if r.finished else "running"
                                       if store.running(r.id) else "interrupted"))
                for r in store.runs()]
        if args.format == "json":
            sys.stdout.write(to_json(rows))
        else:
            shown = [dict(r, date=time.strftime("%Y-%m-%d %H:%M", time.localtime(r["created"])),
                          bots=", ".join(Path(r["opponent"] if b == OPTIMAL else b).name
                                         for b in r["bots"]),
                          progress=f"{r['games']}/{r['planned'] or '?'}") for r in rows]
            sys.stdout.write(render_rows(shown, args.format, ["id", "kind", "date", "game",
                                                              "bots", "progress", "state"]))
        return 0
    info = store.run(args.run_id)
    if args.format == "jsonl":
        from judge.transcripts import transcript_lines

        for line in transcript_lines(store, args.run_id):
            sys.stdout.write(line + "\n")
        return 0
    if args.game_number is not None:
        sys.stdout.write(replay_text(store, args.run_id, args.game_number))
        return 0
    if info.kind == "match":
        from judge.commands.match import print_match

        print_match(store, args.run_id, args.format, args.details, args.output_dir)
    elif info.kind == "tournament":
        from judge.commands.tournament import print_tournament

        print_tournament(store, args.run_id, args.format, args.details, args.output_dir)
    else:
        print_run(store, args.run_id, args.format, args.details, args.output_dir)
    return 0


def replay_text(store: Any, run_id: int, number: int) -> str:
    """Game `number` (as --details numbers them) of a stored run, move by move."""
    from judge.analysis import review
    from judge.commands.play import play_text

    info = store.run(run_id)
    plan, records = info.plan, store.games(run_id)
    if isinstance(plan, MatchPlan):
        from judge.commands.match import ordered_records

        listed = [(rec, 0) for _, rec in ordered_records(plan, records)]
    elif isinstance(plan, GradingPlan):
        listed = [game for _, mine in graded_games(plan, records) for game in mine]
    else:
        listed = [(records[key], 0) for key in sorted(records)]
    if not 1 <= number <= len(listed):
        raise InputError(f"run {run_id} has {len(listed)} stored games: give --game 1 to "
                         f"{len(listed)}" if listed else f"run {run_id} has no stored games")
    rec, seat = listed[number - 1]
    game = plan.load_game()
    start = game.parse_position(rec["start"])
    reviews = review(game, start, [m["move"] for m in rec["moves"]])
    names = [plan.shown_name(who) for who in rec["players"]]
    return play_text(game, start, rec, reviews, names, seat)


#: the exit status of `show --replay` when a transcript does not replay as recorded
EXIT_INCONSISTENT = 5


def replay_file(path: str) -> int:
    """Check every transcript line of `path` against the rules; print what is wrong."""
    from judge.commands.common import read_lines
    from judge.report import printable_line
    from judge.transcripts import check_line

    lines = [(n, line) for n, line in enumerate(read_lines(Path(path)), 1) if line.strip()]
    if not lines:
        raise InputError(f"{path}: no transcript lines in the file")
    bad = 0
    for n, line in lines:
        try:
            problems = check_line(line)
        except InputError as exc:
            raise InputError(f"{path}, line {n}: {exc}") from None
        if problems:
            bad += 1
            for problem in problems:
                print(f"{path}, line {n}: inconsistent: {printable_line(problem)}")
    print(f"{len(lines) - bad} of {len(lines)} transcripts replay as recorded")
    return EXIT_INCONSISTENT if bad else 0
