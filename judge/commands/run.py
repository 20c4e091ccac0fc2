"""`judge run`: grade bots against the optimal opponent on a test set, stored and resumable."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from judge.commands.inputs import (
    as_given,
    base_files,
    check_bots,
    check_export,
    display_names,
    game_from_args,
    harness_setup,
    load_starts,
    sources,
)
from judge.commands.options import (
    EXPORTS,
    add_copy_options,
    add_feedback_options,
    add_game_options,
    add_harness_options,
    add_opponent_option,
    add_output_options,
    remember_defaults,
)
from judge.commands.runs import RunKind, execute, open_store
from judge.games.base import Game, InputError
from judge.kinds.grading import GradingPlan
from judge.similarity import COMMON
from judge.testsets import default_tests


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` subcommand."""
    p = sub.add_parser(
        "run",
        help="grade bots against the optimal opponent on a test set",
        description="Grade each BOT against the optimal opponent on every start of a test set. "
        "Each game earns the bot the points its game gives a win, a tie and a loss (judge "
        "games lists them). The default test set holds starts that the graded seat can win (or "
        "hold, in games with draws), so every lost point is the bot's doing. Every game is stored "
        "in the results database as it ends: an interrupted run continues with --resume.",
        epilog="examples:\n  judge run --game ioiwari bots/ioiwari/*\n"
        "  judge run --game nim --rules misere=on --seats both bots/nim/optimal_misere.py\n"
        "  judge run --resume 3            (continue run 3 of judge-results.sqlite)\n"
        "  judge show 3 --details          (show it again without playing)\n"
        "  judge show 3 --feedback mistakes --share --format html --output class.html "
        "--output-dir pages\n"
        "                                  (for the class, and a page per student)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="bot programs: a source file in one of the languages below, or any "
                   "executable; or a folder, one student's submission: its entry (main.*, "
                   "its only program, or --entry NAME) with every file of the folder beside "
                   "it, compiled together where the language does")
    p.add_argument("--tests", metavar="FILE",
                   help="start positions, one per line (default: the game's standard set)")
    p.add_argument("--seats", choices=("first", "both"), default="first",
                   help="grade the bot as the first player only (default), or in both seats")
    p.add_argument("--fail-fast", type=fail_fast_count, metavar="N",
                   help="play each bot's games N at a time; when N in a row all end with the "
                   "same failure, on any move (it does not compile, crashes at start, times "
                   "out at its second move), record its other games as not played, and lost "
                   "(verdict not-played), instead of playing each to the same end")
    p.add_argument("--names", metavar="FILE",
                   help="the bots' display names (shown with --share, in the grade book, the "
                   "pages per bot and `judge show`'s list): one bot a line, PATH<TAB>NAME, "
                   "PATH,NAME or PATH;NAME (a CSV row), PATH relative to the names file's "
                   "folder; default: where each bot has a folder of its own "
                   "(alice/main.c, bob/main.c) the folder's name, else the file name")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted run, playing only its missing games")
    add_copy_options(p, "for the marks of bots with most of their source in common, and "
                     "`judge show RUN --similar`")
    add_opponent_option(p)
    add_harness_options(p, entry=True, clocks=True)
    add_output_options(p, extra=("html", *EXPORTS))
    add_feedback_options(p)
    p.set_defaults(func=run)
    remember_defaults(p)


def fail_fast_count(text: str) -> int:
    """The N of --fail-fast: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games (1 or more)")
    return n


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
    if tests_file and all_lost(game, starts):
        print(f"judge: warning: every start of {tests_file} is lost for the graded seat "
              f"({' and '.join(starts)} player) against perfect play, so the most a bot can "
              f"score is 0 (0/0): give --tests FILE with starts that seat can win"
              + (", or --seats both to grade the second seat too" if seats == "first" else ""),
              file=sys.stderr)
    return starts


def all_lost(game: Game, starts: dict[str, tuple[str, ...]]) -> bool:
    """Whether perfect play loses every start for the seat it is graded in (no point to win)."""
    from judge.analysis import perfect_results

    for seat_name, texts in starts.items():
        for text in texts:
            pos = game.parse_position(text)
            seat = game.mover(pos) if seat_name == "first" else 1 - game.mover(pos)
            if perfect_results(game, pos)[seat] != "loss":
                return False
    return True


SEATS = {True: "first", False: "second"}


def new_plan(args: argparse.Namespace) -> tuple[GradingPlan, list[str]]:
    """The plan of a new grading run, and the messages of bots skipped."""
    if not args.bots:
        raise InputError("name at least one BOT to grade, or the course file's submissions "
                         "(submissions = [\"class/*/\"] in judge.toml)" + (
                             " (--base takes every file after it: give the bots before "
                             "--base, or after --)" if args.base else ""))
    game = game_from_args(args)
    harness = harness_setup(args)
    starts = test_starts(game, args.tests, args.seats)
    given = as_given(args.bots)
    names = display_names(args.names, given) if args.names else {}
    bots, skipped = check_bots(given, folders=True, entry=harness.entry)
    check_export(args.format, len(bots), args.output_dir)
    plan = GradingPlan(
        game=game.name, rules=game.rules_string(), harness=harness, opponent=args.opponent,
        directory=os.getcwd(), sources=sources(bots), bots=tuple(bots), tests=args.tests,
        seats=args.seats, starts=starts, fail_fast=args.fail_fast,
        names={bot: name for bot, name in names.items() if bot in bots},
        base=base_files(args.base), common=COMMON if args.common is None else args.common)
    return replace(plan, planned=len(plan.schedule())), skipped


def run(args: argparse.Namespace) -> int:
    """Grade the bots (or resume a run) and print the results."""
    if args.resume is not None and args.format == "gradescope":
        with open_store(args.db, must_exist=True, read_only=True) as store:
            plan = store.run(args.resume).plan
        check_export(args.format, len(plan.players), args.output_dir)
    return execute(args, RunKind(
        "run", ("--game", "--rules", "--tests", "--seats", "--fail-fast", "--names", "--base",
                "--common", "--entry"), new_plan))
