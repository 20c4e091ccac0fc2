"""A stored run from start to finish, the same for every kind (grading, tournament, match):
refuse a bad --output before anything is played, create or resume the run, hold it while
its games are played where the `judge.backends.Backend` plays them and stored as they end
(`play`, which a league's command, making its run its own way, uses too), mark it
finished, render it, and end with its exit status."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from judge import verdicts
from judge.backends import Backend, BackendLost, LocalPool, plays_here
from judge.commands.inputs import jobs_from
from judge.commands.options import refuse_with_resume
from judge.exits import ExitStatus
from judge.games.base import InputError, Stopped
from judge.kinds import KINDS
from judge.kinds.base import Output, Schedule, Text, Wait, run_state
from judge.plan import GameSpec, Plan, is_program
from judge.playing import Setup
from judge.report import forcing, plural, printable_line, replace_refused
from judge.store import Store

if TYPE_CHECKING:
    from judge.records import PlayedGame


def write_output(path: str | None, text: str) -> None:
    """A command's output: to stdout, or with a `path` (--output) written there whole (a
    failure leaves no half-written file) and said on stderr."""
    if path is None:
        sys.stdout.write(text)
        return
    from judge.report import write_whole

    try:
        write_whole(path, text)
    except OSError as exc:
        raise InputError(f"--output {path}: {exc.strerror or exc}") from None
    print(f"judge: wrote {path}", file=sys.stderr)


def rendered(args: argparse.Namespace, render: Callable[[bool], Text]) -> None:
    """Show a stored run as `args` ask: `render(report)` writes the files of --output-dir
    and, when `report` is true, gives the run as text, which goes to --output FILE or
    stdout; with --output-dir and no --output it is not asked for at all: stdout has one
    line that says which files were written where."""
    folder = args.output_dir
    report = folder is None or args.output is not None
    with forcing(bool(getattr(args, "force", False))):
        shown = render(report)
        if report:
            write_output(args.output, shown.text)
    if folder is not None:
        print(files_line(folder, shown.written))


def files_line(folder: str, names: Sequence[str], shown: int = 3) -> str:
    """The line that says which files of --output-dir were written: `judge: wrote 31 files
    to pages/ (index.html, alice.html, bob.html and 28 more)`."""
    listed = ", ".join(names[:shown])
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return (f"judge: wrote {len(names)} file{'s' if len(names) != 1 else ''} to "
            f"{printable_line(folder)} ({listed}{more})")


def check_output(path: str | None, keep: list[str] | None = None, force: bool = False
                 ) -> None:
    """Refuse an --output FILE that cannot be written, that is one of the files in `keep`
    (the database, a bot, a file of a bot's folder: even with `force`), or that would
    replace a file the judge may not (`replace_refused`: a source file, one it did not
    write; unless `force`), before anything is played."""
    if path is None:
        return
    target = Path(path)
    for precious in [file for name in keep or [] for file in files_of(name)]:
        for suffix in ("", "-wal", "-shm"):
            if target.exists() and Path(precious + suffix).exists() and \
                    os.path.samefile(target, precious + suffix):
                raise InputError(f"--output {path} is {precious}{suffix}, which it would "
                                 f"overwrite: give another file")
    if target.is_dir() or not os.access(target.parent if str(target.parent) else ".",
                                        os.W_OK | os.X_OK):
        raise InputError(f"--output {path}: not a file that can be written here")
    with forcing(force):
        why = replace_refused(path)
    if why:
        raise InputError(f"--output {path} {why}: give another file, or --force to replace "
                         f"it")


def files_of(bot: str) -> list[str]:
    """A bot's files: its own, or those of its folder."""
    try:
        return [os.path.join(bot, f) for f in os.listdir(bot)] if os.path.isdir(bot) else [bot]
    except OSError:
        return []


#: the formats whose --output-dir writes files: tables, a page per bot (a grading run's
#: html), a results.json per bot (gradescope)
FOLDER_FORMATS = ("table", "csv", "markdown", "html", "gradescope")


def check_output_dir(folder: str | None, fmt: str = "table", kind: str = "run") -> None:
    """Refuse an --output-dir that cannot be written, or that `fmt` writes nothing into
    (for a run of `kind`; "" when not known yet), before anything is played."""
    if folder is None:
        return
    if fmt not in FOLDER_FORMATS:
        raise InputError("--output-dir writes tables (--format csv, markdown or table), or "
                         "a page per bot (html), or a NAME.json per bot (gradescope)")
    if fmt == "html" and kind and not KINDS[kind].grades:
        raise InputError(f"--output-dir with --format html writes a grading run's page per "
                         f"bot: a {kind}'s page is one, give --output FILE")
    path = Path(folder)
    probe = path if path.is_dir() else next((p for p in path.parents if p.exists()), Path("."))
    if (path.exists() and not path.is_dir()) or not os.access(probe, os.W_OK | os.X_OK):
        raise InputError(f"--output-dir {folder}: not a folder that can be written")


def open_store(path: str, must_exist: bool = False, read_only: bool = False) -> Store:
    """The results database at `path` (created unless it `must_exist`; only read, even
    where it cannot be written, when `read_only`)."""
    if must_exist and not Path(path).exists() and Path(path).parent.is_dir():
        raise InputError(f"no results database {path} (give --db FILE)")
    return Store(path, read_only=read_only)


def resumed(store: Store, run_id: int, kind: str) -> Plan:
    """The plan of the stored run `run_id`, which must be of `kind`, with its bots as they
    were: a bot that is gone or changed since the run started is an `InputError`."""
    info = store.run(run_id)
    if info.kind != kind:
        raise InputError(f"run {run_id} is a {info.kind}, not a {kind}: "
                         f"{goes_on(store, run_id)}")
    info.plan.check_resumable(run_id)
    return info.plan


@contextmanager
def storing(store: Store, run_id: int, stored: Callable[[], str], finish: bool = True
            ) -> Iterator[None]:
    """Hold run `run_id` while the block plays and stores its games (one judge plays a run
    at a time), and mark it finished when the block ends well (if it `finish`es: a league
    never does). A stop says how many games are kept (`stored()`: "12 games" or "12 of 357
    games") and how to go on, as the run's kind says; a database held up too long, or a
    backend that could not go on, is a one-line error."""
    store.lock_run(run_id)
    try:
        yield
    except KeyboardInterrupt:
        print(f"judge: stopped with {stored()} stored; {goes_on(store, run_id)}",
              file=sys.stderr)
        raise
    except sqlite3.OperationalError as exc:  # e.g. locked by another program for too long
        raise InputError(f"cannot store a game in {store.path}: {exc}; the games stored so "
                         f"far are kept: {goes_on(store, run_id)}") from None
    except BackendLost as exc:  # a killed worker process, a cluster that went
        raise Stopped(f"{exc}; stored: {stored()}; {goes_on(store, run_id)}") from None
    else:
        if finish:
            store.finish(run_id)
    finally:
        store.unlock_run(run_id)


def goes_on(store: Store, run_id: int) -> str:
    """How to continue the stored run `run_id`, as its kind says."""
    info = store.run(run_id)
    return KINDS[info.kind].resume(store, info)


def exit_status(store: Store, run_id: int, skipped: bool) -> int:
    """OK when every game of the run was played; VOID when some were void (judge error),
    else SKIPPED when a bot could not be graded (skipped, or a folder's not-graded)."""
    void = store.count_verdict(run_id, verdicts.JUDGE_ERROR)
    if void:
        print(f"judge: warning: {plural(void, 'game')} void (judge error): see the verdicts",
              file=sys.stderr)
        return ExitStatus.VOID
    if store.count_verdict(run_id, verdicts.NOT_GRADED):
        print("judge: warning: some bots were not graded: see their verdicts (not-graded)",
              file=sys.stderr)
        return ExitStatus.SKIPPED
    if skipped:  # (each was named when it was skipped, above the table)
        print("judge: warning: some bots were not graded: skipped, as said above the table",
              file=sys.stderr)
        return ExitStatus.SKIPPED
    return ExitStatus.OK


class RunKind(NamedTuple):
    """What a command that plays a kind of stored run brings to `execute` (the kind itself,
    its schedule and its rendering, is `judge.kinds.KINDS[kind]`)."""

    #: its command (and the run's kind in the database)
    kind: str
    #: the options that set up a run: given again with --resume, they are refused
    fixed: tuple[str, ...]
    #: the plan of a new run from the arguments, and the messages of bots skipped (their
    #: language not installed here)
    build: Callable[[argparse.Namespace], tuple[Plan, list[str]]]


def execute(args: argparse.Namespace, kind: RunKind) -> int:
    """Create (or with --resume continue) a run of `kind`, play its missing games, storing
    each as it ends, mark it finished, print it, and return its exit status.

    Everything that can be refused (the outputs, the settings, the bots, the cluster) is
    refused before the database is touched: a refused command leaves nothing behind.
    """
    check_output_dir(args.output_dir, args.format, kind.kind)
    check_output(args.output, [args.db, *args.bots], args.force)
    skipped: list[str] = []
    if args.resume is not None:
        store = open_store(args.db, must_exist=True)
        try:
            refuse_with_resume(args, *kind.fixed, "bots")
            plan = resumed(store, args.resume, kind.kind)
            backend = backend_for(args, plan)  # before the run is touched
        except BaseException:
            store.close()
            raise
    else:
        if not args.game:
            raise InputError("--game is required (or --resume RUN)")
        plan, skipped = kind.build(args)
        check_clocked(plan)
        backend = backend_for(args, plan)
        if isinstance(backend, LocalPool) and plays_here(backend.jobs, plan.planned):
            from judge.sandbox.context import sandbox_context

            sandbox_context().warm()  # games played here: their slots made ready meanwhile
        store = open_store(args.db)  # only now: a refused command leaves no database behind
    schedule = KINDS[kind.kind].schedule
    assert schedule is not None
    with store:  # closed however the command ends (Ctrl-C, SIGTERM, an error): left whole
        run_id = store.create_run(plan) if args.resume is None else args.resume
        play(store, run_id, plan, backend, schedule(plan, store, run_id, backend))
        rendered(args, lambda report: render_stored(store, run_id, args, report))
        return exit_status(store, run_id, bool(skipped))


def check_clocked(plan: Plan) -> None:
    """`InputError` unless every bot given a clock of its own (--tc-for) is a bot of the
    run: the judge's own players (level:N among them) play without one."""
    for name in plan.harness.clocks.by_bot:
        if name in plan.players and not is_program(name):
            raise InputError(f"--tc-for {name!r}: the judge's own players (optimal, tricky, "
                             "level:N) play without a clock")
    plan.harness.clocks.check_named([p for p in plan.players if is_program(p)],
                                    "one of the run's bots (name a bot as it is given "
                                    "among them)")


def render_stored(store: Store, run_id: int, args: argparse.Namespace, report: bool
                  ) -> Text:
    """Stored run `run_id` as `args` ask, by its kind: its HTML report (`judge.html.report`;
    with --output-dir a page per bot), or its kind's text; writes the files of
    --output-dir and, if `report`, gives the run as text."""
    info = store.run(run_id)
    kind = KINDS[info.kind]
    output = Output.of(args)
    if args.format != "html" or kind.page is None:
        return kind.text(store, run_id, args.format, args.details, args.output_dir,
                         args.wide, report, output)
    from judge.html.report import render_pages, render_report
    from judge.report import write_files

    records = store.games(run_id)
    run_state(store, info, len(records))  # a partial run's warning
    view = output.view(info.plan)
    written = () if args.output_dir is None else tuple(write_files(  # a page per bot, an index
        args.output_dir, render_pages(store, run_id, view)))
    return Text(render_report(store, run_id, view, records=records) if report else "",
                written)


def backend_for(args: argparse.Namespace, plan: Plan) -> Backend:
    """Where the games are played: this machine's `--jobs` processes (default: the run's),
    or with --cluster its workers, asked before anything is stored (an address other than
    tls://, a sandbox under which bots would have the network, a scheduler that does not
    answer or does not take the credentials, or one without a `judge worker`, is an
    `InputError`)."""
    address = getattr(args, "cluster", None)
    if address is None:
        return LocalPool(plan.harness.jobs if args.jobs is None else jobs_from(args.jobs))
    from judge.cluster import DaskCluster

    return DaskCluster.reach(address, args.credentials, plan.harness.sandbox)


def play(store: Store, run_id: int, plan: Plan, backend: Backend, schedule: Schedule) -> None:
    """Play the games `schedule` asks for on `backend`, storing each as it ends, until it
    asks for none, then mark the run finished (`storing`) unless its kind is endless. A
    schedule that hands out its games one by one has each slot given its next game as its
    last one ends (`Backend.keep_busy`); one that answers `Wait` is asked again after it."""
    done: set[str] = set()
    waiting = False
    try:
        # (counted from the store: a stop between a game's storing and its count would say
        # one fewer; no other judge plays the run meanwhile, it is held)
        with storing(store, run_id, lambda: schedule.stored_text(len(store.done_keys(run_id))),
                     not KINDS[plan.kind].endless):
            done |= store.done_keys(run_id)
            print(f"judge: {schedule.header(run_id, store, done)}", file=sys.stderr)
            current: list[tuple[Plan, Setup]] = []

            def setup() -> Setup:  # the plan's, made again only when it changed
                if not current or current[0][0] != schedule.plan:
                    current[:] = [(schedule.plan, Setup.of(schedule.plan))]
                return current[0][1]

            while specs := schedule.next(done):
                if isinstance(specs, Wait):
                    if not waiting:
                        print(f"judge: {specs.why}", file=sys.stderr)
                    waiting = True
                    time.sleep(specs.seconds)
                    continue
                waiting = False
                for spec, record in played(backend, schedule, specs, done, setup):
                    store.add_game(run_id, spec.key, record)
                    done.add(spec.key)
                    schedule.stored(spec, record)
    finally:
        schedule.close()


def played(backend: Backend, schedule: Schedule, specs: list[GameSpec], done: set[str],
           setup: Callable[[], Setup]) -> Iterator[tuple[GameSpec, PlayedGame]]:
    """The games `specs` played on `backend`, each with its record as it ends: as a batch,
    or, for a schedule that hands out its games one by one, each slot given the next (asked
    of `schedule` as `specs` run out) as its game ends, until it has none to give now."""
    if not schedule.one_by_one:
        return backend.play(setup(), specs)
    queue = deque(specs)

    def feed() -> tuple[Setup, GameSpec] | None:
        if not queue:
            more = schedule.next(done)
            if isinstance(more, Wait) or not more:
                return None
            queue.extend(more)
        return setup(), queue.popleft()

    return backend.keep_busy(feed)
