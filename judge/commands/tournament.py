"""`judge tournament`: every pair on every start in both seats; standings, ratings, crosstable."""

from __future__ import annotations

import argparse
import os
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
from judge.commands.runs import RunKind, execute
from judge.games.base import InputError
from judge.plan import OPTIMAL, TournamentPlan, is_program
from judge.players.level import PREFIX, is_level, parse_level


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
                   help="start positions, one per line (default: the game's own set, 12 of "
                   "its test positions unless it says otherwise)")
    p.add_argument("--rounds", type=int, default=1, metavar="K",
                   help="play the whole schedule K times (default 1)")
    p.add_argument("--gauntlet", metavar="BOT",
                   help="this bot plays each of the others; the others do not meet")
    p.add_argument("--include-optimal", action="store_true",
                   help="add the optimal player as a participant")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted tournament, playing only its missing games")
    add_harness_options(p, clocks=True)
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
                       "--include-optimal"), new_plan))
