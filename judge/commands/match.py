"""`judge match`: two bots play paired games until a sequential probability ratio test
decides which is stronger (or a bound on the games is reached)."""

from __future__ import annotations

import argparse
import os

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
    add_opponent_option,
    add_output_options,
    remember_defaults,
)
from judge.commands.runs import RunKind, execute
from judge.games.base import InputError
from judge.kinds.match import MatchPlan
from judge.plan import OPTIMAL, is_program
from judge.players.level import PREFIX, is_level, parse_level
from judge.sprt import DEFAULTS, SprtParams, parse_sprt

#: the names of the perfect player among the bots (its kind: `--opponent`, or tricky)
PERFECT = (OPTIMAL, "tricky")
#: --sprt when it is not given
DEFAULT_SPRT = " ".join(f"{k}={v:g}" for k, v in DEFAULTS.items())
#: --max-games when it is not given
DEFAULT_MAX_GAMES = 2000
def register(sub: argparse._SubParsersAction) -> None:
    """Add the `match` subcommand."""
    p = sub.add_parser(
        "match",
        help="two bots play paired games until an SPRT decides (like fishtest, fastchess)",
        description="BOT_A and BOT_B play each start twice, seats swapped, with the same\n"
        "seed (a pair), in batches, until a sequential probability ratio test on the\n"
        "pairs (the pentanomial model and logistic Elo of fishtest and fastchess) accepts\n"
        "H1 (BOT_A is stronger: Elo elo1 rather than elo0) or H0 (Elo elo0 rather than\n"
        "elo1), or --max-games is reached. Starts repeat in rounds, each round in an order\n"
        "and with seeds of its own. Every game is stored as it ends; --resume continues.",
        epilog="examples:\n  judge match --game nim bots/nim/optimal.py bots/nim/random.py\n"
        "  judge match --game ioiwari --opponent tricky bots/ioiwari/greedy.py optimal\n"
        "  judge match --game ioiwari --sprt 'elo0=0 elo1=5' --max-games 10000 new.py old.py\n"
        "  judge match --resume 4 --format json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="the two bots, BOT_A then BOT_B (Elo and the SPRT are BOT_A's "
                   "view): a source file in one of the languages below, or any executable; "
                   "or one of them 'optimal' (the perfect player of --opponent) or 'tricky'; "
                   "or a weaker level, level:N from 0 (random play) to 10 (perfect play)")
    p.add_argument("--starts", metavar="FILE",
                   help="start positions, one per line (default: the tournament's, which "
                   "the game chooses: 12 of its test positions unless it says otherwise, "
                   "less any whose result no move of either player changes)")
    p.add_argument("--sprt", metavar='"elo0=E0 elo1=E1 alpha=A beta=B"', default=None,
                   help="the test, in logistic Elo of BOT_A over BOT_B: H0 Elo = elo0 "
                   "against H1 Elo = elo1, error rates alpha and beta; keys left out keep "
                   f"their defaults (default: {DEFAULT_SPRT!r})")
    p.add_argument("--max-games", type=int, default=None, metavar="N",
                   help=f"stop without a decision after N games, N/2 pairs (an even number; "
                   f"default {DEFAULT_MAX_GAMES})")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue a stopped match until the SPRT decides or --max-games")
    add_opponent_option(p)
    add_harness_options(p, clocks=True)
    add_output_options(p)
    p.set_defaults(func=run)
    remember_defaults(p)


def sprt_from(text: str | None) -> SprtParams:
    """The SPRT of --sprt (its default when None); `InputError` naming what is wrong."""
    try:
        return parse_sprt(DEFAULT_SPRT if text is None else text)
    except ValueError as exc:
        raise InputError(f"--sprt {text!r}: {exc}") from None


def new_plan(args: argparse.Namespace) -> tuple[MatchPlan, list[str]]:
    """The plan of a new match (no bot is skipped: a match needs both)."""
    if len(args.bots) != 2:
        raise InputError(f"a match is between two bots, BOT_A and BOT_B (given "
                         f"{len(args.bots)})")
    params = sprt_from(args.sprt)  # bad input is refused before any bot is compiled
    max_games = DEFAULT_MAX_GAMES if args.max_games is None else args.max_games
    if max_games < 2 or max_games % 2:
        raise InputError(f"--max-games {max_games}: games are played in pairs, so it "
                         f"must be an even number of at least 2")
    perfect = [name for name in args.bots if name in PERFECT]
    if len(perfect) > 1:
        raise InputError("a match needs a bot program: name one, the perfect player "
                         "may be the other")
    opponent = "tricky" if "tricky" in perfect else args.opponent
    levels = [f"{PREFIX}{parse_level(n)}" for n in args.bots if is_level(n)]
    if len(set(levels)) < len(levels):
        raise InputError(f"a match between {levels[0]} and itself decides nothing")
    harness = harness_setup(args)  # the language table first: bots are compiled next
    names = [n for n in args.bots if n not in PERFECT and is_program(n)]
    programs, skipped = check_bots(names) if names else ([], [])
    if len(programs) + len(perfect) + len(levels) != 2:
        error = NothingToGrade if skipped else InputError
        raise error("a match needs both bots: " + "; ".join(skipped or
                                                            ["a bot was skipped"]))
    # the schedule seats the perfect player as "optimal"; the run records its kind
    bots = [OPTIMAL if n in PERFECT else levels.pop(0) if is_level(n) else programs.pop(0)
            for n in args.bots]
    game = game_from_args(args)
    plan = MatchPlan(
        game=game.name, rules=game.rules_string(), harness=harness.seeded(),
        opponent=opponent, directory=os.getcwd(),
        sources=sources(list(filter(is_program, bots))), planned=max_games,
        bots=(bots[0], bots[1]), starts_file=args.starts,
        start_positions=tuple(paired_starts(game, args.starts)), sprt=params,
        max_games=max_games)
    return plan, []


def run(args: argparse.Namespace) -> int:
    """Play (or resume) a match and print its result."""
    return execute(args, RunKind(
        "match", ("--game", "--rules", "--starts", "--sprt", "--max-games"), new_plan))
