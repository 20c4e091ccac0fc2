"""The command-line options the subcommands share, in groups (the game, the opponent, how
bots are run, the outputs), and what `--resume` refuses."""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Callable

from judge.games import GAMES
from judge.games.base import InputError
from judge.plan import LIMIT_OPTIONS
from judge.report import FORMATS


def add_game_options(p: argparse.ArgumentParser, required: bool = True) -> None:
    """`--game` and `--rules`."""
    # the registry itself, not its names: a built-in game is then checked without reading
    # every installed package's entry points, which `judge games` lists
    p.add_argument("--game", required=required, choices=GAMES, type=str.lower,
                   metavar="GAME", help="the game: any installed one (judge games lists "
                   "them, with their rules, variants, points and position notation)")
    p.add_argument("--rules", default="", metavar='"KEY=VALUE ..."',
                   help="rule options of the game, KEY=VALUE tokens (judge games lists each "
                   "game's keys and defaults; protocols/<game>.md says what they mean)")


DEFAULT_DB = "judge-results.sqlite"


def argument_type(check: Callable[[str], str]) -> Callable[[str], str]:
    """`check` as an argparse type: its `InputError` is the message argparse shows (argparse
    words any other ValueError as "invalid check value", which names no range)."""
    @functools.wraps(check)
    def checked(text: str) -> str:
        try:
            return check(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return checked


def add_opponent_option(p: argparse.ArgumentParser) -> None:
    """`--opponent`: which perfect player plays where the optimal player is named."""
    from judge.players.optimal import opponent_kind

    p.add_argument("--opponent", type=argument_type(opponent_kind), default="optimal",
                   metavar="{optimal,tricky,level:N}",
                   help="the perfect opponent: optimal (a best move; with --seed a random one "
                   "of them), or tricky: just as perfect (a perfect bot gets the same result), "
                   "but among its best moves it plays the one that leaves the bot the fewest "
                   "replies that keep its value; or a weaker one, level:N from 0 (random "
                   "play) to 10 (perfect play): a best move with probability N/10, else any "
                   "legal move (default: optimal)")


#: the formats a course takes from a grading run (`judge.exports`)
EXPORTS = ("gradebook", "gradescope")


def add_output_options(p: argparse.ArgumentParser, extra: tuple[str, ...] = ("html",)) -> None:
    """`--format` (the table formats and `extra` ones), `--output`, `--details`, `--wide`,
    `--db`."""
    p.add_argument("--format", choices=(*FORMATS, *extra), default="table",
                   help="output format: html is one self-contained page (a game viewer for "
                   "every game)" + (", jsonl one transcript line per game, replayable"
                                    if "jsonl" in extra else "")
                   + (", gradebook a grade book's CSV (name, score, max), gradescope "
                      "Gradescope's autograder results.json (a test per game; one bot, or "
                      "with --output-dir a NAME.json per bot)" if "gradebook" in extra
                      else ""))
    p.add_argument("--output", metavar="FILE",
                   help="write the output to FILE (whole, or not at all) instead of stdout")
    p.add_argument("--force", action="store_true",
                   help="let --output and --output-dir replace any file but a bot and the "
                   "database (by default only a file the judge wrote, as it wrote it: never "
                   "a source file, nor one it did not write)")
    if "gradescope" in extra:
        p.add_argument("--gradescope-tests", choices=("game", "seat"), default="game",
                       help="Gradescope's tests: one per game (a start in a seat, the "
                       "default), or one per graded seat (first player, second player)")
        from judge.exports import VISIBILITIES

        p.add_argument("--gradescope-visibility", choices=VISIBILITIES, default="visible",
                       help="when students see Gradescope's tests and score, as Gradescope "
                       "names it (default: visible)")
    p.add_argument("--details", action="store_true", help="also list every game")
    p.add_argument("--wide", action="store_true",
                   help="--format table in full: every column, whole names and paths, the "
                   "rules in the heading (by default a table fits 80 columns: long paths "
                   "keep their end, …/alice/main.c, and some columns are merged or left out; "
                   "the other formats always give everything)")
    p.add_argument("--output-dir", metavar="DIR",
                   help="write every table (bots or standings, crosstable, games) to its "
                   "own file in DIR, in the --format (csv: NAME.csv)"
                   + ("; with --format html, a grading run's page per bot for its author "
                      "(NAME.html: its games only, at the --feedback level) and index.html"
                      if "gradebook" in extra else "")
                   + ". Files only: stdout gets one line saying what was written where, "
                   "and the report itself goes to --output FILE if given")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help=f"the results database (default: {DEFAULT_DB} in this directory)")


def add_feedback_options(p: argparse.ArgumentParser) -> None:
    """`--feedback` and `--share`: what a grading run's results give away."""
    from judge.results import Feedback

    g = p.add_argument_group("what the results give away (for every --format)")
    g.add_argument("--feedback", choices=[f.value for f in Feedback], default=None,
                   help="full: every game's first mistake with the right moves, and in the "
                   "HTML every move judged with its values (the default for the teacher's "
                   "own output); mistakes: where each game was lost (the number of the first "
                   "mistake and the move played), but no right move, value or remoteness "
                   "(the default for what students read: --share, --format gradescope, the "
                   "pages per bot of --output-dir); results: only the results and "
                   "verdicts (no first mistake, no move judged, no accuracy)")
    g.add_argument("--share", action="store_true",
                   help="output meant for the class: bots by their display names (see "
                   "--names), and no path, working directory or database of the organiser's")


def add_credentials_option(p: argparse.ArgumentParser) -> None:
    """`--credentials DIR`: the cluster's credentials folder."""
    from judge.credentials import ENV

    p.add_argument("--credentials", metavar="DIR",
                   help=f"the cluster's credentials: the folder `judge scheduler` made (copied "
                   f"here from its machine); default: ${ENV}, else the folder cluster of "
                   f"the judge's cache")


def add_harness_options(p: argparse.ArgumentParser, jobs: bool = True, seed: bool = True,
                        limits: dict[str, str] | None = None, entry: bool = False,
                        clocks: bool = False) -> None:
    """How bots are run: parallel jobs, sandbox, seed and limits (only those that apply),
    with `entry` the entry of a bot given as a folder, and with `clocks` the bots' clocks.

    `limits` maps the limit flags that apply to their help (default: all, as in games).
    """
    if entry:
        p.add_argument("--entry", metavar="NAME",
                       help="the file of each bot's folder that is its program (default: "
                       "its main.* of a known language, else its only program of one)")
    if jobs:
        p.add_argument("--jobs", type=int, metavar="N", default=None,
                       help=f"games played at once (default: the number of cores, "
                       f"{os.cpu_count()})")
        p.add_argument("--cluster", metavar="ADDRESS",
                       help="play the games on the cluster whose scheduler is at ADDRESS "
                       "(printed by `judge scheduler`, e.g. tls://10.0.0.5:8786; workers "
                       "started with `judge worker ADDRESS`); the results are stored here as "
                       "they arrive")
        add_credentials_option(p)
    p.add_argument("--sandbox", choices=("auto", "bwrap", "none", "gvisor"), default="auto",
                   help="confine bots with bubblewrap (no network, a minimal read-only "
                   "system, a private tmpfs) when it is installed (auto, the default), always "
                   "(bwrap), or without namespaces (none); as root each game also gets a uid "
                   "and cgroups of its own. gvisor (runsc installed) runs each game in a "
                   "gVisor sandbox, a kernel of its own: slower, chosen by auto only with "
                   "--sandbox-prefer gvisor. The tier a run had is printed and recorded")
    add_sandbox_prefer_option(p)
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list each confinement guarantee that does not hold here, and how to "
                   "get it (by default one line counts them)")
    p.add_argument("--languages", metavar="FILE",
                   help="a TOML file that changes or adds languages (the shape of the "
                   "judge's own table: see docs/bots.md)")
    p.add_argument("--flags", action="append", metavar='LANG="FLAGS"',
                   help="compiler flags for one language instead of its own, e.g. "
                   "cpp=\"-O2 -std=c++98 -fpermissive\" (repeatable)")
    # the language table is read only when the help is shown (not at every start-up)
    p.format_help = functools.partial(_help_with_languages, p.format_help)  # type: ignore
    if seed:
        p.add_argument("--seed", type=int, default=None, metavar="N",
                       help="let the optimal player choose at random among equally good moves, "
                       "and give each bot a BOT_SEED in its environment, both derived from N "
                       "so that the same seed plays the same games")
    from judge.sandbox import Limits

    g = p.add_argument_group("limits per bot (defaults suit Python bots)")
    for flag, field, scale, text in LIMIT_OPTIONS:
        if limits is not None and flag not in limits:
            continue
        default = getattr(Limits(), field) / scale
        g.add_argument(flag, dest=f"limit_{field}", type=float, default=None, metavar="N",
                       help=f"{(limits or {}).get(flag, text)} (default: {default:g})")
    if clocks:
        add_clock_options(p)


#: what --tc-for names in a batch run
BOT_ODDS = "BOT's own time control (BOT as given among the bots), for time odds (repeatable)"


def add_clock_options(p: argparse.ArgumentParser, odds: str | None = BOT_ODDS,
                      who: str = "each bot plays on a clock") -> None:
    """`--tc`, `--tc-for` (where `odds` says what it names) and `--tell-time`: the clocks
    (docs/tournaments.md); `who` says who plays on the clock of --tc."""
    g = p.add_argument_group("clocks (instead of the limits per move; see docs/tournaments.md)")
    g.add_argument("--tc", metavar="SPEC",
                   help=f"{who}, fastchess's time control: BASE+INC "
                   "seconds (10+0.1), MOVES/BASE+INC (40/60+0.5: the base again after "
                   "every 40 moves), BASE in minutes:seconds too (1:30+1); ,first=S gives "
                   "the first move S seconds more (the bot's start-up), ,move=S gives each "
                   "move S seconds free, Kaggle's overage (2,move=1); inf: no clock. A "
                   "move beyond its clock loses on time (time-forfeit)")
    if odds is not None:
        g.add_argument("--tc-for", action="append", metavar="BOT=SPEC", help=odds)
    g.add_argument("--tell-time", action="store_true",
                   help="before each of its moves a bot on a clock first reads a line "
                   "`time REMAINING INCREMENT` (seconds; off by default: IOI-protocol bots "
                   "read none)")


def add_sandbox_prefer_option(p: argparse.ArgumentParser) -> None:
    """`--sandbox-prefer`: the tier `--sandbox auto` takes first where it works."""
    from judge.sandbox.tiers import PREFERENCES

    p.add_argument("--sandbox-prefer", choices=PREFERENCES, default="bwrap",
                   help="the tier --sandbox auto takes where it works: bwrap (the default; "
                   "else none), or gvisor where runsc starts a sandbox here (else the next "
                   "tier, with a note): for a course file that asks for the strongest "
                   "confinement wherever the judge runs")


def _help_with_languages(format_help: Callable[[], str]) -> str:
    from judge.sandbox.languages import help_text

    return format_help() + "\n" + help_text()


def add_copy_options(p: argparse.ArgumentParser, what: str) -> None:
    """Add --base and --common: the passages that never count as copied (`what` says when
    they are used)."""
    from judge.similarity import COMMON, FEWEST

    p.add_argument("--base", nargs="+", action="extend", metavar="FILE",
                   help="starter code the class was given (a file, or several): passages of "
                   "the programs found in a base file never count as copied, as MOSS's -b "
                   f"and JPlag's -bc ({what}); the bots go before --base, or after `--`")
    p.add_argument("--common", type=share, metavar="SHARE",
                   help="passages found in more than SHARE of the programs of a language "
                   f"(and in {FEWEST} at least) do not count as copied: the statement's "
                   f"given code or its idioms, as MOSS's -m ({what}; default {COMMON:g}; "
                   "1: every passage counts)")


def share(text: str) -> float:
    """A share of the programs, above 0 and at most 1 (for argparse)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a share of the programs, above 0 "
                                         "and at most 1 (0.75: three quarters)")
    return value


#: the argparse destination of each limit flag
LIMIT_DESTS = {flag: f"limit_{field}" for flag, field, *_ in LIMIT_OPTIONS}


def remember_defaults(p: argparse.ArgumentParser) -> None:
    """Keep the parser's defaults in `args.defaults` (for `refuse_with_resume`)."""
    p.set_defaults(defaults={a.dest: a.default for a in p._actions})


def given_here(args: argparse.Namespace, dest: str) -> bool:
    """Whether the command line set option `dest`: a value other than its default (the
    parser's, kept by `remember_defaults`, or the course file's, which it makes the
    default)."""
    value = getattr(args, dest, None)
    return value not in (None, [], False) and value != getattr(args, "defaults", {}).get(dest)


#: the settings a stored run keeps: given again with --resume, they are refused
HARNESS_SETTINGS = ["--sandbox", "--sandbox-prefer", "--seed", "--languages", "--flags",
                    "--opponent", *(flag for flag, *_ in LIMIT_OPTIONS), "--tc", "--tc-for",
                    "--tell-time"]


def refuse_with_resume(args: argparse.Namespace, *names: str) -> None:
    """--resume continues a stored run as it was set up: other settings are an error.

    A setting counts as given when it differs from its default (`args.defaults`, the
    parser's defaults); --jobs may change, as it does not change any game.
    """
    given = []
    for name in [*names, *HARNESS_SETTINGS]:
        if given_here(args, LIMIT_DESTS.get(name, name.lstrip("-").replace("-", "_"))):
            given.append(name if name.startswith("-") else "the BOT arguments")
    if given:
        raise InputError(f"--resume continues the stored run as it was set up; "
                         f"drop {', '.join(given)}")
