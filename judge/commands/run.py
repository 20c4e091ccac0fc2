"""`judge run`: grade bots against the optimal opponent on a test set, stored and resumable."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from judge import verdicts
from judge.commands.inputs import (
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
    add_feedback_options,
    add_game_options,
    add_harness_options,
    add_opponent_option,
    add_output_options,
    remember_defaults,
)
from judge.commands.runs import AllGames, Output, RunKind, execute, open_store, run_state
from judge.exports import Gradescope
from judge.games.base import Game, InputError
from judge.plan import OPTIMAL, GameSpec, GradingPlan, Plan
from judge.report import (
    Fit,
    notes,
    outcome,
    printable_line,
    render_rows,
    rules_line,
    shortened,
    to_json,
    wrapped,
    write_files,
    write_tables,
    wtl,
)
from judge.results import (
    compile_errors_text,
    failures_text,
    memory_text,
    seconds_text,
    slow_text,
    twin_groups,
    twin_marks,
    usage_cells,
)
from judge.store import Store
from judge.summaries import BotRow, GradedGame, View, grading_rows, numbered_games
from judge.testsets import default_tests

if TYPE_CHECKING:
    from judge.records import PlayedGame


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
        "  judge show 3 --details          (show it again without playing)\n"
        "  judge show 3 --feedback mistakes --share --format html --output class.html "
        "--output-dir pages\n"
        "                                  (for the class, and a page per student)",
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
    p.add_argument("--fail-fast", type=fail_fast_count, metavar="N",
                   help="when a bot's first N games all end with the same failure on its "
                   "first move (it does not compile, crashes at start, waits for input it "
                   "will not get), record its other games as not played, and lost "
                   "(verdict not-played), instead of playing each to the same end")
    p.add_argument("--names", metavar="FILE",
                   help="the bots' display names (shown with --share, in the grade book, the "
                   "pages per bot and `judge show`'s list): one bot a line, PATH<TAB>NAME, "
                   "PATH,NAME or PATH;NAME (a CSV row), PATH relative to the names file's "
                   "folder; default: where each bot has a folder of its own "
                   "(alice/main.c, bob/main.c) the folder's name, else the file name")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted run, playing only its missing games")
    add_opponent_option(p)
    add_harness_options(p)
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
        raise InputError("name at least one BOT to grade")
    game = game_from_args(args)
    harness = harness_setup(args)
    starts = test_starts(game, args.tests, args.seats)
    names = display_names(args.names, args.bots) if args.names else {}
    bots, skipped = check_bots(args.bots)
    check_export(args.format, len(bots), args.output_dir)
    plan = GradingPlan(
        game=game.name, rules=game.rules_string(), harness=harness, opponent=args.opponent,
        directory=os.getcwd(), sources=sources(bots), bots=tuple(bots), tests=args.tests,
        seats=args.seats, starts=starts, fail_fast=args.fail_fast,
        names={bot: name for bot, name in names.items() if bot in bots})
    return replace(plan, planned=len(plan.schedule())), skipped


def run(args: argparse.Namespace) -> int:
    """Grade the bots (or resume a run) and print the results."""
    output = Output.of(args)
    if args.resume is not None and args.format == "gradescope":
        with open_store(args.db, must_exist=True, read_only=True) as store:
            plan = store.run(args.resume).plan
        check_export(args.format, len(plan.players), args.output_dir)
    return execute(args, RunKind(
        "run", ("--game", "--rules", "--tests", "--seats", "--fail-fast", "--names"), new_plan,
        lambda store, run_id, fmt, details, folder, wide, report: print_run(
            store, run_id, fmt, details, folder, wide, output, report),
        lambda plan, store, run_id, backend: FailFast(plan, store, run_id)))


class FailFast(AllGames):
    """A grading run's games; with --fail-fast N, each bot's first N games first: a bot
    whose N games all ended with the same failure on its first move has its other games
    recorded as not played, and lost, rather than each failing the same way again."""

    def __init__(self, plan: Plan, store: Store, run_id: int) -> None:
        super().__init__(plan, store, run_id)
        assert isinstance(plan, GradingPlan)
        self.fail_fast = plan.fail_fast
        games: dict[str, list[GameSpec]] = {}
        for spec in self.specs:
            games.setdefault(bot_of(spec), []).append(spec)
        #: each bot's first games, in the schedule's order
        self.trial = {bot: specs[:self.fail_fast or 0] for bot, specs in games.items()}
        #: why each bot's other games are not played (None: they are), once its first
        #: games are stored
        self.reasons: dict[str, str | None] | None = None

    def next(self, done: set[str]) -> list[GameSpec]:
        if not self.fail_fast:
            return super().next(done)
        if self.reasons is None:
            first = [s for specs in self.trial.values() for s in specs if s.key not in done]
            if first:
                return self.counted(first, done)
            records = self.store.games(self.run_id)
            self.reasons = {bot: given_up(bot, [records[s.key] for s in specs], self.fail_fast)
                            for bot, specs in self.trial.items()}
        return self.counted([s._replace(not_played=self.reasons[bot_of(s)] or "")
                             for s in self.specs if s.key not in done], done)


def bot_of(spec: GameSpec) -> str:
    """The graded bot of a grading game."""
    return spec.players[1] if spec.players[0] == OPTIMAL else spec.players[0]


def given_up(bot: str, records: list[PlayedGame], n: int) -> str | None:
    """Why the rest of `bot`'s games are not played: its first `n` games (`records`) all
    ended with the same failure on its first move; None if they did not."""
    codes = {rec.first_move_failure(rec.seat_of(bot)) for rec in records}
    if len(records) < n or len(codes) != 1 or codes & {None, verdicts.NOT_PLAYED}:
        return None
    return verdicts.failed_first(codes.pop(), n)


#: the bot table at 80 columns: wins, ties and losses in one column, long names shortened
NARROW_BOTS = (["bot", "points", "w/t/l", "accuracy", "slow", "cpu", "memory", "failures"],
               Fit({"bot": "path", "failures": "text"}, drop=("slow",),
                   optional=("cpu", "memory")))
#: the games at 80 columns: result and verdict in one column, the messages under it
NARROW_GAMES = (["game", "bot", "seat", "start", "result", "first_mistake", "slow", "cpu",
                 "memory", "moves"],
                Fit({"moves": "text", "first_mistake": "text", "slow": "text", "start": "text",
                     "bot": "path"}, drop=("moves", "slow", "first_mistake"),
                    optional=("cpu", "memory")))


def quoted(name: str) -> str:
    """A name in a list of names: in double quotes when it holds a comma, a quote or
    spaces at its ends (`"Bella, Student"`), as it is otherwise."""
    if "," in name or '"' in name or name != name.strip():
        return '"' + name.replace('"', '\\"') + '"'
    return name


def twins_text(twins: list[tuple[str, str, tuple[str, ...]]], narrow: bool,
               name: Callable[[str], str] = str,
               short: Callable[[str], str] = str) -> str:
    """The note under the bot table for each group of bots flagged as one program, each
    bot as `name` shows it, quoted when it holds a comma (at 80 columns when `narrow`: a
    name over 40 columns by its distinguishing part, `short`, the lines wrapped)."""
    lines = []
    for mark, what, group in twins:
        names = [quoted(printable_line(name(bot) if not narrow or len(name(bot)) <= 40
                                       else shortened(short(bot), 40))) for bot in group]
        line = f"{mark}: {', '.join(names)} {what}: the same program?"
        lines.append(wrapped(line) if narrow else line + "\n")
    return "\n" + "".join(lines) if lines else ""


def print_run(store: Store, run_id: int, fmt: str, details: bool,
              output_dir: str | None = None, wide: bool = False,
              output: Output | None = None, report: bool = True) -> list[str]:
    """Print a stored grading run in the chosen format (CSV: one table), showing what
    `output` lets through; a `table` fits 80 columns unless `wide`. With `output_dir`, its
    files are written there (every table; html: a page per bot; gradescope: a results.json
    per bot), and the run printed only if `report`; returns the names of the files."""
    info = store.run(run_id)
    plan = info.plan
    assert isinstance(plan, GradingPlan)
    records = store.games(run_id)
    bots, games = grading_rows(plan, records)
    state = run_state(store, info, len(records))
    opponent = plan.opponent
    output = output or Output()
    view = output.view(plan)
    if fmt == "html":
        from judge.html import render_pages, render_report

        written = [] if output_dir is None else write_files(  # a page per bot, and an index
            output_dir, render_pages(store, run_id, view))
        if report:
            sys.stdout.write(render_report(store, run_id, view))
        return written
    if fmt in ("gradebook", "gradescope"):
        return export(plan, records, (bots, games), fmt, view, output_dir, output.gradescope)
    if fmt == "json":
        sys.stdout.write(to_json({"run": run_id, "game": info.game, "state": state,
                                  "tier": plan.harness.tier, "opponent": opponent,
                                  "bots": [view.bot_json(b) for b in bots],
                                  "games": [{"game": n, **view.game_json(g)}
                                            for n, g in enumerate(games, 1)]}))
        return []
    twins = [] if view.share else twin_groups(bots)  # (the teacher's, never shared)
    marks = twin_marks(twins)
    rows = [dict(view.bot_json(b), points=f"{b.points:g}/{b.max_points:g}",
                 accuracy="" if b.accuracy is None else f"{100 * b.accuracy:.1f}%",
                 **{"w/t/l": wtl(b.wins, b.ties, b.losses)},
                 slow=b.slow_moves, cpu=seconds_text(b.max_cpu_seconds),
                 memory=memory_text(b.max_memory_bytes),
                 failures=failures_text(b.failures, b.judge_errors)) for b in bots]
    headers = view.headers(["bot", "games", "wins", "ties", "losses", "points", "accuracy",
                            "slow", "cpu", "memory", "failures"])
    detail_headers = view.headers(["game", "bot", "start", "seat", "result", "verdict",
                                   "message", "first_mistake", "slow", "cpu", "wall",
                                   "memory", "moves"])
    detail = [dict(view.game_json(g), moves=", ".join(g.moves), game=n,
                   first_mistake=view.mistake_text(g), slow=slow_text(g.slow),
                   **usage_cells(g.usage))
              for n, g in enumerate(games, 1)]
    narrow = fmt == "table" and not wide
    written = [] if output_dir is None else write_tables(
        output_dir, fmt, {"bots": (rows, headers), "games": (detail, detail_headers)})
    if not report:
        return written
    if fmt == "csv":  # one table: the games with --details, else the bots
        sys.stdout.write(render_rows(detail, fmt, detail_headers) if details
                         else render_rows(rows, fmt, headers))
        return written
    if fmt == "table":
        against = "" if opponent == "optimal" else f", against the {opponent} opponent"
        sys.stdout.write(f"run {run_id}: {plan.game if narrow else info.game} (confinement "
                         f"{plan.harness.tier}{against})\n")
    # a bot flagged as one program with another: its marks after its name, a note below
    shown = [dict(row, bot=f"{row['bot']} {marks[b.bot]}" if b.bot in marks else row["bot"])
             for row, b in zip(rows, bots, strict=True)]
    # cut at 80 columns, a bot keeps its distinguishing part (its folder or display name)
    # and its marks whole: `…/main.py =1` would not say whose
    short: dict[str, tuple[str, str]] = {}
    for b in bots:
        part = view.names.get(b.bot, b.bot)
        short[view.name(b.bot)] = (part, "")
        if b.bot in marks:
            short[f"{view.name(b.bot)} {marks[b.bot]}"] = (part, marks[b.bot])
    if narrow:
        sys.stdout.write(rules_line(info.game))
        narrow_headers, fit = NARROW_BOTS
        sys.stdout.write(render_rows(shown, fmt, view.headers(narrow_headers),
                                     fit._replace(short=short)))
    else:
        sys.stdout.write(render_rows(shown, fmt, headers))
    sys.stdout.write(twins_text(twins, narrow, view.name, lambda b: view.names.get(b, b)))
    if fmt in ("table", "markdown"):  # CSV stays one table; JSON has compile_error
        sys.stdout.write(compile_errors_text(
            (shortened(r.bot, 64, keep_end=True) if narrow else r.bot, r.compile_error)
            for r in map(view.bot_row, bots)))
    if details:
        sys.stdout.write("\n")
        if not narrow:
            sys.stdout.write(render_rows(detail, fmt, detail_headers))
            return written
        for row, g in zip(detail, games, strict=True):
            row["result"] = outcome(g.result, g.verdict)
        headers, fit = NARROW_GAMES
        headers = view.headers(h for h in headers if h != "seat" or plan.seats == "both")
        sys.stdout.write(render_rows(detail, fmt, headers, fit._replace(short=short)))
        sys.stdout.write(notes([(row["game"], row["message"]) for row in detail]))
    return written


def export(plan: GradingPlan, records: dict[str, PlayedGame],
           rows: tuple[list[BotRow], list[GradedGame]], fmt: str, view: View,
           output_dir: str | None, how: Gradescope) -> list[str]:
    """The grade book's CSV, or Gradescope's results.json (cut and shown as `how` says):
    of the one bot on stdout, or of each bot into `output_dir`/NAME.json; returns the
    names of the files written."""
    bots, games = rows
    from judge.exports import file_names, gradebook, gradescope

    if fmt == "gradebook":
        sys.stdout.write(gradebook(bots, view))
        return []
    # each game by its number in the whole run (`judge show RUN --game N`)
    numbered = [(n, g, rec, seat) for n, (g, (rec, seat))
                in enumerate(zip(games, numbered_games(plan, records), strict=True), 1)]
    results = [to_json(gradescope(plan.game, bot, [game for game in numbered
                                                   if game[1].bot == bot.bot], view, how))
               for bot in bots]
    if output_dir is None:
        sys.stdout.write(results[0])
        return []
    names = file_names([view.names.get(b.bot, b.bot) for b in bots])
    return write_files(output_dir, {f"{name}.json": text for name, text in zip(names, results,
                                                                        strict=True)})
