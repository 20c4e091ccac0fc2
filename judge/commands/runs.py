"""A stored run from start to finish, the same for every kind (grading, tournament, match):
refuse a bad --output before anything is played, create or resume the run, hold it while
its games are played where the `judge.backends.Backend` plays them and stored as they end,
mark it finished, render it, and end with its exit status."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from judge import verdicts
from judge.backends import Backend, BackendLost, LocalPool, plays_here
from judge.commands.inputs import jobs_from
from judge.commands.options import refuse_with_resume
from judge.exits import ExitStatus
from judge.exports import Gradescope
from judge.games.base import InputError, Stopped
from judge.plan import GameSpec, Plan
from judge.playing import Setup
from judge.report import plural, printable_line
from judge.results import Feedback
from judge.store import Store, StoredRun


@contextmanager
def output_to(path: str | None) -> Iterator[None]:
    """What the block prints goes to `path`, written whole when the block ends well (a
    failure leaves no half-written file), or to stdout when there is no `path`."""
    if path is None:
        yield
        return
    import io

    from judge.report import write_whole

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        yield
    try:
        write_whole(path, buffer.getvalue())
    except OSError as exc:
        raise InputError(f"--output {path}: {exc.strerror or exc}") from None
    print(f"judge: wrote {path}", file=sys.stderr)


def rendered(args: argparse.Namespace, render: Callable[[bool], list[str]]) -> None:
    """Show a stored run as `args` ask: `render(report)` writes the files of --output-dir
    (returning their names) and, when `report` is true, prints the run; the report goes to
    --output FILE or stdout, but with --output-dir and no --output it is not printed at
    all: stdout has one line that says which files were written where."""
    folder = args.output_dir
    with output_to(args.output):
        written = render(folder is None or args.output is not None)
    if folder is not None:
        print(files_line(folder, written))


def files_line(folder: str, names: list[str], shown: int = 3) -> str:
    """The line that says which files of --output-dir were written: `judge: wrote 31 files
    to pages/ (index.html, alice.html, bob.html and 28 more)`."""
    listed = ", ".join(names[:shown])
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return (f"judge: wrote {len(names)} file{'s' if len(names) != 1 else ''} to "
            f"{printable_line(folder)} ({listed}{more})")


def check_output(path: str | None, keep: list[str] | None = None) -> None:
    """Refuse an --output FILE that cannot be written, or that is one of the files in
    `keep` (the database, a bot), before anything is played."""
    if path is None:
        return
    target = Path(path)
    for precious in keep or []:
        for suffix in ("", "-wal", "-shm"):
            if target.exists() and Path(precious + suffix).exists() and \
                    os.path.samefile(target, precious + suffix):
                raise InputError(f"--output {path} is {precious}{suffix}, which it would "
                                 f"overwrite: give another file")
    if target.is_dir() or not os.access(target.parent if str(target.parent) else ".",
                                        os.W_OK | os.X_OK):
        raise InputError(f"--output {path}: not a file that can be written here")


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
    if fmt == "html" and kind not in ("run", ""):
        raise InputError(f"--output-dir with --format html writes a grading run's page per "
                         f"bot: a {kind}'s page is one, give --output FILE")
    path = Path(folder)
    probe = path if path.is_dir() else next((p for p in path.parents if p.exists()), Path("."))
    if (path.exists() and not path.is_dir()) or not os.access(probe, os.W_OK | os.X_OK):
        raise InputError(f"--output-dir {folder}: not a folder that can be written")


def open_store(path: str, must_exist: bool = False, read_only: bool = False) -> Store:
    """The results database at `path` (created unless it `must_exist`; only read, even
    where it cannot be written, when `read_only`)."""
    if must_exist and not Path(path).exists():
        raise InputError(f"no results database {path} (give --db FILE)")
    return Store(path, read_only=read_only)


def resumed(store: Store, run_id: int, kind: str) -> Plan:
    """The plan of the stored run `run_id`, which must be of `kind`, with its bots as they
    were: a bot that is gone or changed since the run started is an `InputError`."""
    info = store.run(run_id)
    if info.kind != kind:
        raise InputError(f"run {run_id} is a {info.kind}, not a {kind}: "
                         f"{resume_hint(store, info)}")
    info.plan.check_resumable(run_id)
    return info.plan


@contextmanager
def storing(store: Store, run_id: int, stored: Callable[[], str]) -> Iterator[None]:
    """Hold run `run_id` while the block plays and stores its games (one judge plays a run
    at a time), and mark it finished when the block ends well. A stop says how many games
    are kept (`stored()`: "12" or "12 of 357") and how to resume; a database held up too
    long, or a backend that could not go on, is a one-line error."""
    store.lock_run(run_id)
    try:
        yield
    except KeyboardInterrupt:
        print(f"judge: stopped with {plural(stored(), 'game')} stored; "
              f"{resume_hint(store, store.run(run_id))}", file=sys.stderr)
        raise
    except sqlite3.OperationalError as exc:  # e.g. locked by another program for too long
        raise InputError(f"cannot store a game in {store.path}: {exc}; the games stored so "
                         f"far are kept: {resume_hint(store, store.run(run_id))}") from None
    except BackendLost as exc:  # a killed worker process, a cluster that went
        raise Stopped(f"{exc}; stored: {plural(stored(), 'game')}; "
                      f"{resume_hint(store, store.run(run_id))}") from None
    else:
        store.finish(run_id)
    finally:
        store.unlock_run(run_id)


def exit_status(store: Store, run_id: int, skipped: bool) -> int:
    """OK when every game of the run was played; VOID when some were void (judge error),
    else SKIPPED when a bot could not be graded."""
    void = store.count_verdict(run_id, verdicts.JUDGE_ERROR)
    if void:
        print(f"judge: warning: {plural(void, 'game')} void (judge error): see the verdicts",
              file=sys.stderr)
        return ExitStatus.VOID
    return ExitStatus.SKIPPED if skipped else ExitStatus.OK


def resume_hint(store: Store, info: StoredRun) -> str:
    """How to continue the stored run `info` (its kind is the command's name)."""
    return f"continue with: judge {info.kind} --resume {info.id} --db {store.path}"


def run_state(store: Store, info: StoredRun, stored: int) -> str:
    """``finished``, ``running`` (a judge plays it now), or ``interrupted`` with a warning on
    stderr: the figures are partial."""
    if info.finished:
        return "finished"
    if store.running(info.id):
        print(f"judge: note: {info.kind} {info.id} is being played right now: these "
              f"results are partial ({plural(stored, 'game')} stored so far)", file=sys.stderr)
        return "running"
    print(f"judge: warning: {info.kind} {info.id} was interrupted: these results are "
          f"partial ({plural(stored, 'game')} stored); {resume_hint(store, info)}", file=sys.stderr)
    return "interrupted"


class Schedule(Protocol):
    """What a kind of run plays next, and how its progress shows."""

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        """The line on stderr before the games (the run, its games, its tier, its store)."""
        ...

    def next(self, done: set[str]) -> list[GameSpec]:
        """The games to play next, given the keys of those stored; none: the run is over."""
        ...

    def stored(self, spec: GameSpec, record: Any) -> None:
        """A game ended and was stored."""
        ...

    def stored_text(self, done: int) -> str:
        """How many games are stored, in words ("12" or "12 of 357")."""
        ...

    def close(self) -> None:
        """The games are over (or stopped): end the progress shown."""
        ...


class AllGames:
    """Every game of the plan's schedule that is not stored yet, at once, with a progress
    bar on a terminal (a grading run, a tournament)."""

    def __init__(self, plan: Plan, store: Store, run_id: int) -> None:
        self.plan, self.store, self.run_id = plan, store, run_id
        self.specs = plan.schedule()
        self.bar: Any = None

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        todo = sum(s.key not in done for s in self.specs)
        seed = f", seed {self.plan.seed}" if self.plan.seed is not None else ""
        return (f"{self.plan.kind} {run_id}: {self.plan.game}: "
                f"{plural(len(self.specs), 'game')}, "
                f"{todo} to play{seed}, confinement {self.plan.harness.tier} ({store.path})")

    def next(self, done: set[str]) -> list[GameSpec]:
        return self.counted([s for s in self.specs if s.key not in done], done)

    def counted(self, specs: list[GameSpec], done: set[str]) -> list[GameSpec]:
        """`specs`, the progress bar shown (on a terminal) from the first batch of the run
        to its last game (the games not in `done` when it starts)."""
        if specs and self.bar is None and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=len(self.specs) - len(done), unit="game", file=sys.stderr,
                            dynamic_ncols=True)
        return specs

    def stored(self, spec: GameSpec, record: Any) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def stored_text(self, done: int) -> str:
        return f"{done} of {len(self.specs)}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class Output(NamedTuple):
    """What a rendering lets through (`--feedback`, `--share`) and how Gradescope's tests
    are cut: built once from the command line, turned into the run's
    `judge.summaries.View` by the renderer."""

    feedback: Feedback = Feedback.FULL
    share: bool = False
    #: how Gradescope's results.json is cut and shown
    gradescope: Gradescope = Gradescope()

    @classmethod
    def of(cls, args: argparse.Namespace) -> Output:
        """The choice the command line made (the defaults where it has no such options)."""
        return cls(Feedback(getattr(args, "feedback", None) or "full"),
                   bool(getattr(args, "share", False)),
                   Gradescope(getattr(args, "gradescope_tests", None) or "game",
                              getattr(args, "gradescope_visibility", None) or "visible"))

    def view(self, plan: Plan) -> Any:
        """The `judge.summaries.View` of `plan`'s run."""
        from judge.summaries import View

        return View.of(plan, self.feedback, self.share)


class RunKind(NamedTuple):
    """What a kind of stored run brings to `execute`."""

    #: its command (and the run's kind in the database)
    kind: str
    #: the options that set up a run: given again with --resume, they are refused
    fixed: tuple[str, ...]
    #: the plan of a new run from the arguments, and the messages of bots skipped (their
    #: language not installed here)
    build: Callable[[argparse.Namespace], tuple[Plan, list[str]]]
    #: print a stored run: (store, run, format, details, output folder, tables in full,
    #: the report printed too); returns the names of the files written in the folder
    render: Callable[[Store, int, str, bool, str | None, bool, bool], list[str]]
    #: what it plays next, given its store and backend
    schedule: Callable[[Plan, Store, int, Backend], Schedule] = \
        lambda plan, store, run_id, backend: AllGames(plan, store, run_id)


def execute(args: argparse.Namespace, kind: RunKind) -> int:
    """Create (or with --resume continue) a run of `kind`, play its missing games, storing
    each as it ends, mark it finished, print it, and return its exit status.

    Everything that can be refused (the outputs, the settings, the bots, the cluster) is
    refused before the database is touched: a refused command leaves nothing behind.
    """
    check_output_dir(args.output_dir, args.format, kind.kind)
    check_output(args.output, [args.db, *args.bots])
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
        backend = backend_for(args, plan)
        if isinstance(backend, LocalPool) and plays_here(backend.jobs, plan.planned):
            from judge.sandbox.context import sandbox_context

            sandbox_context().warm()  # games played here: their slots made ready meanwhile
        store = open_store(args.db)  # only now: a refused command leaves no database behind
    with store:  # closed however the command ends (Ctrl-C, SIGTERM, an error): left whole
        run_id = store.create_run(plan) if args.resume is None else args.resume
        play(store, run_id, plan, backend, kind.schedule(plan, store, run_id, backend))
        rendered(args, lambda report: kind.render(store, run_id, args.format, args.details,
                                                  args.output_dir, args.wide, report))
        return exit_status(store, run_id, bool(skipped))


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
    asks for none, then mark the run finished (`storing`)."""
    done: set[str] = set()
    try:
        with storing(store, run_id, lambda: schedule.stored_text(len(done))):
            done |= store.done_keys(run_id)
            print(f"judge: {schedule.header(run_id, store, done)}", file=sys.stderr)
            setup = Setup.of(plan)
            while specs := schedule.next(done):
                for spec, record in backend.play(setup, specs):
                    store.add_game(run_id, spec.key, record)
                    done.add(spec.key)
                    schedule.stored(spec, record)
    finally:
        schedule.close()
