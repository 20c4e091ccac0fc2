"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import functools
import math
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any

from judge import verdicts
from judge.exits import ExitStatus
from judge.games import GAMES, load_game
from judge.games.base import Game, InputError, Stopped
from judge.plan import LIMIT_OPTIONS, OPTIMAL, BotSource, Harness, Plan
from judge.report import FORMATS
from judge.store import Store, StoredRun


def add_game_options(p: argparse.ArgumentParser, required: bool = True) -> None:
    """`--game` and `--rules`."""
    p.add_argument("--game", required=required, choices=sorted(GAMES), type=str.lower,
                   help="the game")
    p.add_argument("--rules", default="", metavar='"KEY=VALUE ..."',
                   help="rule options, e.g. 'misere=on' for Nim or 'hands=2/3 fingers=4 "
                   "split=on' for Chopsticks (all keys: see protocols/<game>.md)")


def game_from_args(args: argparse.Namespace) -> Game:
    """The game named by `--game` under `--rules`."""
    return load_game(args.game, args.rules)


def solvable(game: Game, positions: list[Any]) -> list[Any]:
    """The positions, once the solver has confirmed it can solve them here (else `InputError`)."""
    from judge.solvers import solver_for

    solver_for(game).check(positions)
    return positions


def start_from(game: Game, text: str | None) -> Any:
    """The start position of `--start` (or the game's own), checked to be solvable."""
    pos = game.parse_position(text) if text else game.start()
    return solvable(game, [pos])[0]


def read_lines(path: Path) -> list[str]:
    """The lines of a user's text file; a missing or unreadable file is an `InputError`."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None


DEFAULT_DB = "judge-results.sqlite"

def add_opponent_option(p: argparse.ArgumentParser) -> None:
    """`--opponent`: which perfect player plays where the optimal player is named."""
    from judge.players.optimal import opponent_kind

    p.add_argument("--opponent", type=opponent_kind, default="optimal",
                   metavar="{optimal,tricky,level:N}",
                   help="the perfect opponent: optimal (a best move; with --seed a random one "
                   "of them), or tricky: just as perfect (a perfect bot gets the same result), "
                   "but among its best moves it plays the one that leaves the bot the fewest "
                   "replies that keep its value; or a weaker one, level:N from 0 (random "
                   "play) to 10 (perfect play): a best move with probability N/10, else any "
                   "legal move (default: optimal)")


def add_output_options(p: argparse.ArgumentParser, extra: tuple[str, ...] = ("html",)) -> None:
    """`--format` (the table formats and `extra` ones), `--output`, `--details`, `--db`."""
    p.add_argument("--format", choices=(*FORMATS, *extra), default="table",
                   help="output format: html is one self-contained page (a game viewer for "
                   "every game)" + (", jsonl one transcript line per game, replayable"
                                    if "jsonl" in extra else ""))
    p.add_argument("--output", metavar="FILE",
                   help="write the output to FILE (whole, or not at all) instead of stdout")
    p.add_argument("--details", action="store_true", help="also list every game")
    p.add_argument("--output-dir", metavar="DIR",
                   help="also write every table (bots or standings, crosstable, games) to "
                   "its own file in DIR, in the --format (csv: NAME.csv); stdout then has one")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help=f"the results database (default: {DEFAULT_DB} in this directory)")


def add_credentials_option(p: argparse.ArgumentParser) -> None:
    """`--credentials DIR`: the cluster's credentials folder."""
    from judge.credentials import ENV

    p.add_argument("--credentials", metavar="DIR",
                   help=f"the cluster's credentials: the folder `judge scheduler` made (copied "
                   f"here from its machine); default: ${ENV}, else the folder cluster of "
                   f"the judge's cache")


def add_harness_options(p: argparse.ArgumentParser, jobs: bool = True, seed: bool = True,
                        limits: dict[str, str] | None = None) -> None:
    """How bots are run: parallel jobs, sandbox, seed and limits (only those that apply).

    `limits` maps the limit flags that apply to their help (default: all, as in games).
    """
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
    p.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto",
                   help="confine bots with bubblewrap (no network, a minimal read-only "
                   "system, a private tmpfs) when it is installed (auto, the default), always "
                   "(bwrap), or without namespaces (none); as root each game also gets a uid "
                   "and cgroups of its own. The tier a run had is printed and recorded")
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


def _help_with_languages(format_help: Callable[[], str]) -> str:
    from judge.sandbox.languages import help_text

    return format_help() + "\n" + help_text()


#: the argparse destination of each limit flag
LIMIT_DESTS = {flag: f"limit_{field}" for flag, field, *_ in LIMIT_OPTIONS}


def remember_defaults(p: argparse.ArgumentParser) -> None:
    """Keep the parser's defaults in `args.defaults` (for `refuse_with_resume`)."""
    p.set_defaults(defaults={a.dest: a.default for a in p._actions})


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


def check_output_dir(folder: str | None) -> None:
    """Refuse an --output-dir that cannot be written, before anything is played."""
    if folder is None:
        return
    path = Path(folder)
    probe = path if path.is_dir() else next((p for p in path.parents if p.exists()), Path("."))
    if (path.exists() and not path.is_dir()) or not os.access(probe, os.W_OK | os.X_OK):
        raise InputError(f"--output-dir {folder}: not a folder that can be written")


#: the most games played at once on one machine (each is a process of the judge's)
MAX_JOBS = 256


def limit_ceilings() -> dict[str, tuple[float, str]]:
    """The largest value each limit option may take here, and why (what the system allows:
    its memory, its thread count, a clock that fits a number)."""
    try:
        memory_mib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 20)
    except (ValueError, OSError):
        memory_mib = float(1 << 22)
    try:
        threads = int(Path("/proc/sys/kernel/threads-max").read_text())
    except (OSError, ValueError):
        threads = 1 << 15
    week = 7 * 24 * 3600.0
    memory = (memory_mib, "this machine's memory in MiB")
    return {
        "--move-time": (week, "a week in seconds"),
        "--first-move-time": (week, "a week in seconds"),
        "--cpu-time": (week, "a week in seconds"),
        "--game-time": (week, "a week in seconds"),
        "--memory": memory,
        "--disk": memory,  # a tmpfs: memory too
        "--processes": (float(threads), "the threads this machine allows"),
        "--output-limit": (1 << 20, "1 GiB in KiB (the judge reads it)"),
        "--move-limit": (1e6, "a million moves"),
    }


def number(value: float) -> str:
    """A limit's value as a person writes it: 100000000, 1048576, 0.0009765625, 1e+30."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.10g}"


def harness_setup(args: argparse.Namespace) -> Harness:
    """The recorded harness settings of a run: limits, sandbox, jobs, seed, languages."""
    from judge.sandbox import Limits

    defaults = Limits()
    overrides = {}
    ceilings = limit_ceilings()
    for flag, field, scale, _ in LIMIT_OPTIONS:
        value = getattr(args, f"limit_{field}", None)
        if value is not None:
            if not math.isfinite(value) or value <= 0:
                raise InputError(f"{flag} must be a positive number, not {number(value)}")
            whole = type(getattr(defaults, field)) is int
            if whole and value * scale < 1:
                raise InputError(f"{flag} {number(value)} is less than {number(1 / scale)}, "
                                 f"its smallest step")
            top, why = ceilings[flag]
            if value > top:
                raise InputError(f"{flag} {number(value)} is more than {why} "
                                 f"({number(math.floor(top))})")
            if flag in ("--memory", "--disk") and value < 1:
                raise InputError(f"{flag} {number(value)} is less than 1 MiB")
            overrides[field] = type(getattr(defaults, field))(value * scale)
    try:
        limits = Limits(**overrides)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    asked = getattr(args, "jobs", None)  # commands that play one game at a time have none
    if asked is not None and asked < 1:
        raise InputError("--jobs must be at least 1")
    if asked is not None and asked > MAX_JOBS:
        raise InputError(f"--jobs {asked} is more than {MAX_JOBS} games at once")
    jobs = asked or os.cpu_count() or 1
    from judge.sandbox import languages
    from judge.sandbox.context import sandbox_context

    overrides = languages.read_overrides(getattr(args, "languages", None),
                                         getattr(args, "flags", None))
    sandbox_context().configure_languages(overrides)  # before the bots are compiled
    tier = tier_for_run(args.sandbox)
    return Harness(limits, tier.sandbox, tier.name, tier.holds(), jobs,
                   getattr(args, "seed", None), overrides)


def tier_for_run(mode: str) -> Any:
    """The confinement tier a `--sandbox` mode gives here (recorded with the run), with a
    warning on stderr for each guarantee that does not hold on this machine, and a note
    when a bot waiting for input cannot be seen (it then loses at its time limit)."""
    from judge.sandbox import tier_for
    from judge.sandbox.waiting import blind_reason

    tier = tier_for(mode)
    if tier.sandbox == "none" and mode == "auto":
        print("judge: warning: bubblewrap is not installed or does not work here: bots run "
              "without namespaces", file=sys.stderr)
    for line in tier.warnings():
        print(f"judge: warning: {line}", file=sys.stderr)
    blind = blind_reason(tier)
    if blind is not None:
        print(f"judge: note: a bot that waits for input it will not get is not seen here "
              f"({blind}): it loses at its time limit, not at once", file=sys.stderr)
    if tier.uid:
        from judge.sandbox.build import private_runtime

        for path in private_runtime():
            print(f"judge: warning: {path} may not be read by other users, so Python bots, "
                  "which run under a uid of their own, cannot start: make it readable "
                  f"(chmod o+rx {path})", file=sys.stderr)
    return tier




class NothingToGrade(InputError):
    """Nothing can be played because bots were skipped, their language not installed here:
    the command ends with `ExitStatus.SKIPPED` (the machine lacks a toolchain), not as bad
    input."""

    status = ExitStatus.SKIPPED



def exit_status(store: Store, run_id: int, skipped: bool) -> int:
    """OK when every game of the run was played; VOID when some were void (judge error),
    else SKIPPED when a bot could not be graded."""
    void = store.count_verdict(run_id, verdicts.JUDGE_ERROR)
    if void:
        print(f"judge: warning: {void} games were void (judge error): see the verdicts",
              file=sys.stderr)
        return ExitStatus.VOID
    return ExitStatus.SKIPPED if skipped else ExitStatus.OK


def check_bots(paths: list[str]) -> tuple[list[str], list[str]]:
    """(the bot paths as given, after checking each names a runnable program; the messages
    of bots skipped because their language is not installed here).

    Every bot is compiled here, once, before any game: one that does not compile gets the
    compile-error verdict in each of its games, its message reported once. Folders and
    files that cannot be bots (a shell glob such as ``bots/nim/*`` may catch a README or
    ``__pycache__``) are skipped with a note on stderr; a missing file is an error.
    """
    from judge.sandbox import CompileError, ToolchainMissing, program_for
    from judge.sandbox.languages import SettingsError

    bots: list[str] = []
    skipped: list[str] = []
    seen: dict[Path, str] = {}
    for path in paths:
        if Path(path).is_dir():
            print(f"judge: skipping {path}: a folder, not a bot", file=sys.stderr)
            continue
        try:
            program_for(path)  # compiled (and cached) once, here
        except CompileError:
            pass  # every game of that bot gets the compile-error verdict
        except SettingsError:
            raise  # the user's flags or table: no bot of that language could run
        except ToolchainMissing as exc:
            message = f"bot {path}: {exc}"
            print(f"judge: skipping {message}", file=sys.stderr)
            skipped.append(message)
            continue
        except InputError as exc:
            if not Path(path).exists() or len(paths) == 1:
                raise
            print(f"judge: skipping {exc}", file=sys.stderr)  # e.g. a README among the bots
            continue
        real = Path(path).resolve()
        if real in seen:
            raise InputError(f"{path} and {seen[real]} are the same bot")
        seen[real] = path
        bots.append(path)
    if not bots and skipped:  # each was named above, with the package to install
        raise NothingToGrade("nothing to grade: " + (
            "the bot was skipped" if len(skipped) == 1 else "every bot was skipped")
            + " (its language is not installed here)")
    if not bots:
        raise InputError("no bot files among the arguments")
    return bots, skipped


def open_store(path: str, must_exist: bool = False, read_only: bool = False) -> Store:
    """The results database at `path` (created unless it `must_exist`; only read, even
    where it cannot be written, when `read_only`)."""
    if must_exist and not Path(path).exists():
        raise InputError(f"no results database {path} (give --db FILE)")
    return Store(path, read_only=read_only)


def show_progress(args: argparse.Namespace) -> bool:
    """A progress bar only on a terminal."""
    return sys.stderr.isatty()


def resumed(store: Store, run_id: int, kind: str) -> Plan:
    """The plan of the stored run `run_id`, which must be of `kind`, with its bots as they
    were: a bot that is gone or changed since the run started is an `InputError`."""
    info = store.run(run_id)
    if info.kind != kind:
        raise InputError(f"run {run_id} is a {info.kind}, not a {kind}")
    info.plan.check_resumable(run_id)
    return info.plan


def sources(bots: list[str]) -> tuple[BotSource, ...]:
    """The bots' files as they are now (the perfect player has none)."""
    return tuple(BotSource.read(b) for b in bots if b != OPTIMAL)


@contextmanager
def storing(store: Store, run_id: int, stored: Callable[[], str]) -> Iterator[None]:
    """Hold run `run_id` while the block plays and stores its games (one judge plays a run
    at a time), and mark it finished when the block ends well. A stop says how many games
    are kept (`stored()`: "12" or "12 of 357") and how to resume; a database held up too
    long, or a killed process of the pool, is a one-line error."""
    store.lock_run(run_id)
    try:
        yield
    except KeyboardInterrupt:
        print(f"judge: stopped with {stored()} games stored; "
              f"{resume_hint(store, store.run(run_id))}", file=sys.stderr)
        raise
    except sqlite3.OperationalError as exc:  # e.g. locked by another program for too long
        raise InputError(f"cannot store a game in {store.path}: {exc}; the games stored so "
                         f"far are kept: {resume_hint(store, store.run(run_id))}") from None
    except Exception as exc:
        from concurrent.futures.process import BrokenProcessPool  # only a pool raises it

        from judge.cluster import ClusterLost

        if isinstance(exc, ClusterLost):
            raise Stopped(f"{exc}; {stored()} games are stored: "
                          f"{resume_hint(store, store.run(run_id))}") from None
        if not isinstance(exc, BrokenProcessPool):
            raise
        raise Stopped(f"a process of the judge that played games was killed; "
                      f"{stored()} games are stored: "
                      f"{resume_hint(store, store.run(run_id))}") from None
    else:
        store.finish(run_id)
    finally:
        store.unlock_run(run_id)


def check_cluster(args: argparse.Namespace, plan: Plan) -> int | None:
    """With --cluster: how many games its workers play at once, asked before anything is
    stored (an address other than tls://, a sandbox under which bots would have the
    network, a scheduler that does not answer or does not take the credentials, or one
    without a `judge worker`, is an `InputError` and leaves no run behind); None without
    --cluster."""
    address = getattr(args, "cluster", None)
    if address is None:
        return None
    from judge.cluster import refuse_unconfined, slots

    refuse_unconfined(plan.harness.sandbox, "--cluster")
    return slots(address, args.credentials)  # (its connection takes only tls://)


def play_missing(store: Store, run_id: int, plan: Plan, specs: list,
                 args: argparse.Namespace) -> None:
    """Play the scheduled games the run has not stored yet, storing each as it ends."""
    from judge.schedule import Setup, run_specs

    with storing(store, run_id,
                 lambda: f"{len(store.done_keys(run_id))} of {len(specs)}"):
        done = store.done_keys(run_id)
        todo = [s for s in specs if s.key not in done]
        seed = f", seed {plan.seed}" if plan.seed is not None else ""
        print(f"judge: {plan.kind} {run_id}: {store.run(run_id).game}: "
              f"{len(specs)} games, {len(todo)} to play{seed}, confinement "
              f"{plan.harness.tier} ({store.path})", file=sys.stderr)
        run_specs(Setup.of(plan), todo, plan.harness.jobs if args.jobs is None else args.jobs,
                  lambda spec, rec: store.add_game(run_id, spec.key, rec),
                  progress=show_progress(args), cluster=getattr(args, "cluster", None),
                  credentials=getattr(args, "credentials", None))


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
              f"results are partial ({stored} games stored so far)", file=sys.stderr)
        return "running"
    print(f"judge: warning: {info.kind} {info.id} was interrupted: these results are "
          f"partial ({stored} games stored); {resume_hint(store, info)}", file=sys.stderr)
    return "interrupted"


def load_starts(game: Game, path: str) -> list[str]:
    """The start positions of a user's file, in canonical notation; errors name the file.

    Positions where the game is already over are refused; repeated ones are played once.
    """
    try:
        positions = solvable(game, game.parse_positions(read_lines(Path(path))))
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    texts: list[str] = []
    for pos in positions:
        text = game.format_position(pos)
        if game.is_over(pos):
            raise InputError(f"{path}: {text!r} is the end of a game, not a start")
        if text in texts:
            print(f"judge: {path}: {text!r} is listed twice; it is played once",
                  file=sys.stderr)
            continue
        texts.append(text)
    if not texts:
        raise InputError(f"{path}: no start positions in the file")
    return texts


def paired_starts(game: Game, path: str | None) -> list[str]:
    """The starts of a tournament or match, as texts: those of --starts FILE, or the
    default set (`judge.testsets.tournament_starts`), checked to be solvable here."""
    if path:
        return load_starts(game, path)
    from judge.testsets import tournament_starts

    return [game.format_position(p) for p in solvable(game, tournament_starts(game))]


#: the settings a stored run keeps: given again with --resume, they are refused
HARNESS_SETTINGS = ["--sandbox", "--seed", "--languages", "--flags", "--opponent",
                    *(flag for flag, *_ in LIMIT_OPTIONS)]


def refuse_with_resume(args: argparse.Namespace, *names: str) -> None:
    """--resume continues a stored run as it was set up: other settings are an error.

    A setting counts as given when it differs from its default (`args.defaults`, the
    parser's defaults); --jobs may change, as it does not change any game.
    """
    defaults = getattr(args, "defaults", {})
    given = []
    for name in [*names, *HARNESS_SETTINGS]:
        dest = LIMIT_DESTS.get(name, name.lstrip("-").replace("-", "_"))
        value = getattr(args, dest, None)
        if value not in (None, [], False) and value != defaults.get(dest):
            given.append(name if name.startswith("-") else "the BOT arguments")
    if given:
        raise InputError(f"--resume continues the stored run as it was set up; "
                         f"drop {', '.join(given)}")
