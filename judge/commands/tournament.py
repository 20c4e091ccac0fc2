"""`judge tournament`: every pair on every start in both seats, or a Swiss or a knockout of
game pairs; standings, ratings, crosstable."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace

from judge.commands.inputs import (
    NothingToGrade,
    as_given,
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
from judge.kinds.tournament import DECIDER_PAIRS, System, TournamentPlan
from judge.plan import OPTIMAL, is_program
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
        "every game is stored as it ends, so --resume plays exactly the missing games. "
        "--system swiss pairs the entrants round by round by score (each pairing --pairs "
        "pairs of games, seats swapped), --system knockout in a seeded bracket.",
        epilog="examples:\n  judge tournament --game ioiwari bots/ioiwari/*.py\n"
        "  judge tournament --game nim --include-optimal --rounds 2 bots/nim/*\n"
        "  judge tournament --game nim bots/nim/greedy.py level:3 level:6 optimal\n"
        "  judge tournament --game ioiwari --gauntlet bots/ioiwari/greedy.py bots/ioiwari/*\n"
        "  judge tournament --game nim --system swiss --rounds 7 bots/nim/*\n"
        "  judge tournament --game nim --system knockout --pairs 2 bots/nim/*",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p, required=False)
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
    add_harness_options(p, entry=True, clocks=True)
    add_output_options(p)
    p.set_defaults(func=run)
    remember_defaults(p)


#: the most rounds of a tournament (each plays every pair on every start twice)
MAX_ROUNDS = 1000


def new_plan(args: argparse.Namespace) -> tuple[TournamentPlan, list[str]]:
    """The plan of a new tournament, and the messages of bots skipped."""
    gauntlet = args.gauntlet and seat_name(as_given([args.gauntlet])[0])
    names = [seat_name(n) for n in as_given(args.bots)]
    if gauntlet and gauntlet not in names:
        names.insert(0, gauntlet)
    judges = judge_players(names, args.include_optimal)
    programs = [n for n in names if is_program(n)]
    harness = harness_setup(args)  # the language table first: bots are compiled next
    bots, skipped = (check_bots(programs, folders=True, entry=harness.entry) if programs
                     else ([], []))
    entrants = bots + judges
    if len(entrants) < 2:
        error = NothingToGrade if skipped else InputError  # 3: a language is missing
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
    game = game_from_args(args)
    plan = TournamentPlan(
        game=game.name, rules=game.rules_string(), harness=harness.seeded(),
        directory=os.getcwd(), sources=sources(bots), entrants=tuple(entrants),
        gauntlet=gauntlet, starts_file=args.starts,
        start_positions=tuple(paired_starts(game, args.starts)), rounds=args.rounds,
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


def run(args: argparse.Namespace) -> int:
    """Play (or resume) a tournament and print the standings."""
    return execute(args, RunKind(
        "tournament", ("--game", "--rules", "--starts", "--gauntlet", "--rounds",
                       "--include-optimal", "--system", "--pairs", "--entry"), new_plan))
