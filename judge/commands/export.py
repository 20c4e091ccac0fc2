"""`judge export`: a game as a problem of a contest system, or as a course's autograder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands.inputs import load_starts, solvable
from judge.commands.opponent import chooser
from judge.commands.options import add_opponent_option
from judge.games import GAMES, load_game
from judge.games.base import InputError
from judge.words import did_you_mean

#: the systems a game is exported to
SYSTEMS = ("kattis", "domjudge", "dmoj", "cms", "gradescope", "classroom")
#: the systems whose package runs the judge itself (no interactor, no replies table)
RUN_JUDGE = ("gradescope", "classroom")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `export` subcommand."""
    p = sub.add_parser(
        "export",
        help="write a game as a problem package of a contest system or a course's autograder",
        description="Write GAME as a package for another system: kattis (the Kattis problem "
        "package format: an interactive problem whose interactor is the judge's optimal "
        "opponent, run without the judge installed), domjudge (the same, with "
        "domjudge-problem.ini); dmoj (init.yml with a bridged interactor, testlib's "
        "contract, the opponent as one Python file); cms (a Communication task, the "
        "opponent its manager); gradescope (an autograder zip: "
        "setup.sh installs the judge and the course's toolchains, run_autograder grades the "
        "student's bot with judge run); classroom (a GitHub Classroom starter repository "
        "whose workflow runs the judge with GitHub's autograding actions). The cases are "
        "the game's test set (or --tests FILE) for the first seat, or both; the sample bots "
        "go in as submissions. The folder is written whole or not at all (docs/export.md).",
        epilog="example:\n  judge export kattis nim --output nim-problem\n"
        "  verifyproblem nim-problem",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("system", choices=SYSTEMS, metavar="SYSTEM",
                   help=f"where the package goes: {', '.join(SYSTEMS)}")
    p.add_argument("game", metavar="GAME", type=str.lower,
                   help="the game (judge games lists them)")
    p.add_argument("--rules", default="", metavar='"KEY=VALUE ..."',
                   help="rule options of the game, KEY=VALUE tokens (judge games lists them)")
    p.add_argument("--tests", metavar="FILE",
                   help="start positions, one a line (default: the game's test set)")
    p.add_argument("--seats", choices=("first", "both"), default="first",
                   help="cases of the first seat (default), or of both")
    add_opponent_option(p)
    p.add_argument("--output", required=True, metavar="DIR",
                   help="the package's folder (made; a folder with files in it needs --force)")
    p.add_argument("--force", action="store_true", help="replace the --output folder")
    course = p.add_argument_group("an autograder's grading (gradescope, classroom)")
    course.add_argument("--bot-file", default="", metavar="NAME",
                        help="the file the student submits (default: the one file submitted "
                        "to Gradescope; bot.py in a Classroom repository)")
    course.add_argument("--feedback", choices=("full", "mistakes", "results"),
                        default="mistakes",
                        help="what the student sees, as judge run --feedback (default: "
                        "mistakes, results without the right moves)")
    course.add_argument("--apt", action="append", default=[], metavar="PACKAGE",
                        help="an Ubuntu package of a toolchain the course's bots need (gcc "
                        "is always installed), repeatable: --apt default-jdk-headless")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the package and write it."""
    from judge.packages import classroom, cms, dmoj, gradescope, kattis
    from judge.packages.problem import build, check_output, write_whole

    if args.game not in GAMES:
        raise InputError(f"unknown game {args.game!r}{did_you_mean(args.game, list(GAMES))}"
                         " (judge games lists them)")
    if args.opponent not in ("optimal", "tricky"):
        raise InputError(f"--opponent {args.opponent}: a package's opponent is optimal or "
                         "tricky (perfect play)")
    output = Path(args.output)
    check_output(output, args.force)
    game = load_game(args.game, args.rules)
    starts = None
    if args.tests:
        starts = solvable(game, [game.parse_position(s) for s in load_starts(game, args.tests)])
    if args.bot_file and ("/" in args.bot_file or args.bot_file.startswith(".")):
        raise InputError(f"--bot-file {args.bot_file}: a file name, not a path")
    problem = build(game, starts, args.seats,
                    None if args.system in RUN_JUDGE else chooser(game, args.opponent))
    if args.system == "gradescope":
        course = gradescope.Course(args.bot_file, args.feedback, args.opponent,
                                   tuple(args.apt))
        write_whole(output, args.force, lambda folder: gradescope.write(problem, course, folder))
    elif args.system == "classroom":
        write_whole(output, args.force, lambda folder: classroom.write(
            problem, args.bot_file or "bot.py", tuple(args.apt), args.opponent, folder))
    elif args.system in ("dmoj", "cms"):
        writer = dmoj.write if args.system == "dmoj" else cms.write
        write_whole(output, args.force, lambda folder: writer(problem, folder))
    else:
        write_whole(output, args.force, lambda folder: kattis.write(
            problem, folder, domjudge=args.system == "domjudge"))
    holds = (f"{len(problem.cases)} cases" if args.system in RUN_JUDGE else
             f"{len(problem.cases)} cases, {len(problem.replies)} replies, "
             f"{len(problem.bots)} sample bots")
    print(f"{args.system}: {game.describe()}, {holds} -> {output}", file=sys.stderr)
    return 0

