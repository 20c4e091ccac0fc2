"""From the user's arguments to the parts of a plan: the game, start positions from files, the
harness (limits checked against what this machine allows, the confinement tier), the bots
(each compiled once, before any game)."""

from __future__ import annotations

import argparse
import errno
import math
import os
import sys
from pathlib import Path
from typing import Any

from judge.clock import Clocks
from judge.exits import ExitStatus
from judge.folders import MOST_BYTES, read_file
from judge.games import load_game
from judge.games.base import Game, InputError, played_starts
from judge.plan import LIMIT_OPTIONS, OPTIMAL, BotSource, Harness, identical
from judge.report import printable_line


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
    """The lines of a user's text file; a missing or unreadable file, or one that is no
    regular file (a FIFO, a device) or holds over `MOST_BYTES`, is an `InputError`."""
    try:
        data = read_file(path, MOST_BYTES)
        if len(data) > MOST_BYTES:
            raise OSError(errno.EFBIG, f"over {MOST_BYTES >> 20} MiB")
        return data.decode("utf-8-sig").splitlines()  # a BOM (Notepad) is no text
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read {path}: {exc}") from None


def display_names(path: str, bots: list[str]) -> dict[str, str]:
    """The display names `--names FILE` gives the bots (bot path as given -> name).

    A line is ``PATH<TAB>NAME``, ``PATH,NAME`` or ``PATH;NAME`` (a CSV row, as a spreadsheet
    saves it where `;` separates: a name holding the separator is quoted); the file's first
    row without a tab decides between `,` and `;`. Blank lines, lines starting with ``#``
    and a first line ``path,name`` are skipped. PATH, when relative, is read from the names
    file's folder (or, where that is none of the bots, from the current one); it names a bot
    when it is the same file. A line that is neither, a path that is not one of the bots, a
    bot named twice, or two bots with the same display name (the others keep their default
    ones) is an `InputError` naming the file and line."""
    import csv

    from judge.plan import default_names

    files = {os.path.realpath(b): b for b in bots}
    names: dict[str, str] = {}
    rows = [(n, line) for n, line in enumerate(read_lines(Path(path)), 1)
            if line.strip() and not line.lstrip().startswith("#")]
    first = next((line for _, line in rows if "\t" not in line), "")
    separator = ";" if ";" in first and "," not in first else ","
    folder = os.path.dirname(os.path.abspath(path))
    for n, line in rows:
        fields = line.split("\t", 1) if "\t" in line else next(
            csv.reader([line], delimiter=separator))
        fields = [f.strip() for f in fields]
        if n == rows[0][0] and [f.lower() for f in fields] in (["path", "name"],
                                                                ["file", "name"]):
            continue
        if len(fields) != 2 or not all(fields):
            raise InputError(f"{path}, line {n}: not PATH<TAB>NAME nor PATH{separator}NAME: "
                             f"{line!r}")
        bot = files.get(os.path.realpath(os.path.join(folder, fields[0]))) \
            or files.get(os.path.realpath(fields[0]))
        if bot is None:
            raise InputError(f"{path}, line {n}: {fields[0]} is none of the bots given")
        if bot in names:
            raise InputError(f"{path}, line {n}: {fields[0]} is given a name twice")
        names[bot] = fields[1]
    shown = {**default_names(bots), **names}
    twins = sorted({name for name in shown.values() if list(shown.values()).count(name) > 1})
    if twins:
        raise InputError(f"{path}: two bots would be shown as {twins[0]!r}: give each bot a "
                         f"name of its own")
    return names


def check_export(fmt: str, bots: int, output_dir: str | None) -> None:
    """Refuse Gradescope's results.json of several bots on one output: it is one bot's."""
    if fmt == "gradescope" and bots > 1 and output_dir is None:
        raise InputError(f"--format gradescope writes one bot's results.json, and the run "
                         f"has {bots} bots: give --output-dir DIR for a NAME.json per bot")


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
    default set (`played_starts`: the game's tournament starts less those no move
    changes the result of), checked to be solvable here; none left is an `InputError`."""
    if path:
        return load_starts(game, path)
    starts = played_starts(game)
    if not starts:
        raise InputError(f"every default start of {game.describe()} ends "
                         f"the same whatever either player does: give --starts FILE")
    return [game.format_position(p) for p in solvable(game, starts)]


#: the most games played at once on one machine (each is a process of the judge's)
MAX_JOBS = 256


def jobs_from(asked: int) -> int:
    """The number of `--jobs`, checked."""
    if asked < 1:
        raise InputError("--jobs must be at least 1")
    if asked > MAX_JOBS:
        raise InputError(f"--jobs {asked} is more than {MAX_JOBS} games at once")
    return asked


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
    jobs = (os.cpu_count() or 1) if asked is None else jobs_from(asked)
    from judge.sandbox import languages
    from judge.sandbox.context import sandbox_context

    overrides = languages.read_overrides(getattr(args, "languages", None),
                                         getattr(args, "flags", None))
    sandbox_context().configure_languages(overrides)  # before the bots are compiled
    clocks = clocks_given(args)
    tier = tier_for_run(args.sandbox, getattr(args, "verbose", False),
                        getattr(args, "sandbox_prefer", "bwrap"))
    return Harness(limits, tier.sandbox, tier.name, tier.holds(), jobs,
                   getattr(args, "seed", None), overrides,
                   entry=getattr(args, "entry", None), clocks=clocks)


#: the limits a clock takes the place of
CLOCKED_LIMITS = ("--move-time", "--first-move-time")


def clocks_given(args: argparse.Namespace) -> Clocks:
    """The clocks the command line gives (`--tc`, `--tc-for`, `--tell-time`); a limit per
    move beside them is refused, as the clock gives each move its time."""
    clocks = Clocks.given(getattr(args, "tc", None), getattr(args, "tc_for", None),
                          getattr(args, "tell_time", False), odds=hasattr(args, "tc_for"))
    if clocks.any:
        for flag, field, *_ in LIMIT_OPTIONS:
            if flag in CLOCKED_LIMITS and getattr(args, f"limit_{field}", None) is not None:
                raise InputError(f"{flag} does not apply with a clock (--tc): the clock gives "
                                 f"each move its time (,first=S and ,move=S add to it)")
    return clocks


#: what `tier_for_run` has to say of the tier, kept until bots are known to run
#: (`report_tier`), so that an error in the arguments comes alone
_tier_report: list[str] = []


def tier_for_run(mode: str, verbose: bool = False, prefer: str = "bwrap") -> Any:
    """The confinement tier a `--sandbox` mode gives here under `--sandbox-prefer`
    (recorded with the run). What `report_tier` then says on stderr: why a preferred
    gvisor was not taken, one line for the guarantees that do not hold on this machine
    (with `verbose`, each of them and how to get it), and a note when a bot waiting for
    input cannot be seen (it then loses at its time limit)."""
    from judge.report import plural
    from judge.sandbox import tier_for
    from judge.sandbox.tiers import auto_choice
    from judge.sandbox.waiting import blind_reason

    chosen, why = auto_choice(mode, prefer)
    tier = tier_for(chosen)
    lines = [f"judge: note: {why}, {tier.name}"] if why and chosen != "gvisor" else []
    missing = tier.warnings()
    no_bwrap = tier.sandbox == "none" and mode == "auto"
    if missing or no_bwrap:
        head = (f"bubblewrap is not installed or does not work here, so confinement is "
                f"{tier.name}" if no_bwrap else f"confinement {tier.name}")
        lines.append(f"judge: warning: {head}: {plural(len(missing), 'guarantee')} missing "
                     + ("here:" if verbose else "here (judge doctor says which)"))
        lines += [f"judge: warning: {line}" for line in missing if verbose]
    blind = blind_reason(tier)
    if blind is not None:
        lines.append(f"judge: note: a bot that waits for input it will not get is not seen "
                     f"here ({blind}): it loses at its time limit, not at once")
    if tier.uid:
        from judge.sandbox.build import private_runtime

        lines += [f"judge: warning: {path} may not be read by other users, so Python bots, "
                  "which run under a uid of their own, cannot start: make it readable "
                  f"(chmod o+rx {path})" for path in private_runtime()]
    _tier_report[:] = lines
    return tier


def report_tier() -> None:
    """Say on stderr, once, what `tier_for_run` found, now that bots are to run in it."""
    for line in _tier_report:
        print(line, file=sys.stderr)
    _tier_report.clear()


class NothingToGrade(InputError):
    """Nothing can be played because bots were skipped, their language not installed here:
    the command ends with `ExitStatus.SKIPPED` (the machine lacks a toolchain), not as bad
    input."""

    status = ExitStatus.SKIPPED


#: folders that a shell's glob catches among the bots' and that are no submission
NOT_SUBMISSIONS = frozenset({"__pycache__", "node_modules"})


def as_given(paths: list[str]) -> list[str]:
    """The bot paths as a run keeps them: a folder without the slash a shell's ``class/*/``
    leaves at its end (``class/alice``, whose name is then ``alice``)."""
    return [p.rstrip("/") or p if os.path.isdir(p) else p for p in paths]


#: the suffixes of files that no one hands in as a program: a glob of a bots' folder that
#: catches one skips it with a note, where any other file that cannot be graded (a language
#: the judge does not know, too big) makes the run end with status 3, not graded
DOCUMENTS = frozenset((
    "", ".md", ".txt", ".rst", ".pdf", ".html", ".htm", ".csv", ".json", ".jsonl", ".toml",
    ".yaml", ".yml", ".ini", ".cfg", ".log", ".png", ".jpg", ".jpeg", ".gif", ".svg",
    ".zip", ".gz", ".tgz", ".tar", ".sqlite", ".db", ".lock", ".o", ".class", ".pyc",
    ".h", ".hh", ".hpp", ".inc"))


def not_a_program(path: Path) -> bool:
    """Whether `path`, which cannot be a bot, is a file no one hands in as a program (a
    README, a header, a picture, a file without a suffix such as LICENSE or Makefile)."""
    return path.name.startswith(".") or path.suffix.lower() in DOCUMENTS


def _folder_hint(path: str, folders: bool) -> str:
    """What a command that takes bot files says of a student's folder given to it: the
    file to give instead, its entry as judge run finds it."""
    from judge.folders import folder_listing
    from judge.sandbox import NotGradable
    from judge.sandbox.build import folder_entry

    if folders or Path(path).name in NOT_SUBMISSIONS or Path(path).name.startswith("."):
        return ", not a bot"
    said = " (only judge run and judge tournament take a folder per student: give a bot's file"
    try:
        entry = folder_entry(Path(path))
    except NotGradable:
        return said + ")"
    alone = "" if len(folder_listing(entry.parent)) == 1 else \
        ", which plays without the folder's other files"
    return f"{said}, {os.path.join(path, entry.name)} here{alone})"


def check_bots(paths: list[str], folders: bool = False, entry: str | None = None
               ) -> tuple[list[str], list[str]]:
    """(the bot paths as given, after checking each names a runnable program; the messages
    of bots skipped: their language not installed here, or a program that cannot be graded).

    Every bot is compiled here, once, before any game: one that does not compile gets the
    compile-error verdict in each of its games, its message reported once. With `folders`,
    a folder is a bot (its entry `entry`, or found by convention), and one that cannot be
    graded is one too, which gets the not-graded verdict in each of its games, saying why;
    else folders are skipped with a note on stderr, as are files that cannot be bots (a
    shell glob such as ``bots/nim/*`` may catch a README or ``__pycache__``), which count
    as skipped bots unless they are documents (`not_a_program`); a missing file is an
    error. With bots to run, the tier's warnings follow (`report_tier`).
    """
    from judge.sandbox import CompileError, NotGradable, ToolchainMissing, program_for
    from judge.sandbox.languages import SettingsError

    bots: list[str] = []
    skipped: list[str] = []
    seen: dict[Path, str] = {}
    for path in paths:
        if path != path.encode(errors="replace").decode():  # undecodable bytes: not storable
            raise InputError(f"{printable_line(path)}: its name is not UTF-8 text; rename it")
        if Path(path).is_dir() and (not folders or Path(path).name in NOT_SUBMISSIONS
                                    or Path(path).name.startswith(".")):
            hint = _folder_hint(path, folders)
            print(printable_line(f"judge: skipping {path}: a folder{hint}"), file=sys.stderr)
            continue
        try:
            program_for(path, entry)  # compiled (and cached) once, here
        except CompileError:
            pass  # every game of that bot gets the compile-error verdict
        except NotGradable as exc:  # a folder: a row all the same, its verdict says why
            print(printable_line(f"judge: {path}: not-graded: {exc}"), file=sys.stderr)
        except SettingsError:
            raise  # the user's flags or table: no bot of that language could run
        except ToolchainMissing as exc:
            message = f"bot {path}: {exc}"
            print(printable_line(f"judge: skipping {message}"), file=sys.stderr)
            skipped.append(message)
            continue
        except InputError as exc:
            if not Path(path).exists() or len(paths) == 1:
                raise
            print(printable_line(f"judge: skipping {exc}"), file=sys.stderr)
            if not_a_program(Path(path)):  # a README, a header, a picture ... a glob caught
                continue
            skipped.append(str(exc))  # a program that cannot be graded: a student not graded
            continue
        real = Path(path).resolve()
        if real in seen:
            raise InputError(printable_line(f"{path} and {seen[real]} are the same bot"))
        seen[real] = path
        bots.append(path)
        note = shadowing_note(Path(path))
        if note is not None:
            print(printable_line(f"judge: note: bot {path} {note}"), file=sys.stderr)
    if not bots and skipped:  # each was named above, with the package to install
        raise NothingToGrade("nothing to grade: " + (
            "the bot was skipped" if len(skipped) == 1 else "every bot was skipped")
            + " (as said above)")
    if not bots:
        raise InputError("no bot files among the arguments")
    report_tier()
    return bots, skipped


def base_files(paths: list[str] | None) -> tuple[BotSource, ...]:
    """The base files of --base as they are now: each must be a readable file (not a
    folder) of a language the programs are compared in."""
    from judge.report import printable_line
    from judge.similarity import family

    found = []
    for path in paths or ():
        if os.path.isdir(path):
            raise InputError(f"--base {printable_line(path)}: a folder: give its files "
                             f"(--base {printable_line(path.rstrip('/'))}/*)")
        if family(path) is None:
            raise InputError(f"--base {printable_line(path)}: not a language compared (a "
                             "source file: .c, .cpp, .java, .py, ...)")
        try:
            found.append(BotSource.read(path))
        except OSError as exc:
            raise InputError(f"--base {printable_line(path)}: cannot be read "
                             f"({exc.strerror or exc})") from None
    return tuple(found)


def shadowing_note(path: Path) -> str | None:
    """What to say of a Python bot named like a module of Python's standard library
    (``random.py``): Python puts a script's folder first on its module path, so importing
    that module, in the bot or in a library it uses, imports the bot itself. None for any
    other bot, and for one that takes its folder off the path itself (its source names
    ``sys.path``, as the sample bots called ``random.py`` do), or named like a module built
    into the interpreter (``math`` in Debian's Python), which comes before any path."""
    module = path.stem
    if (path.suffix != ".py" or module not in sys.stdlib_module_names
            or module in sys.builtin_module_names):
        return None
    try:
        if "sys.path" in path.read_text(errors="replace"):
            return None
    except OSError:
        return None
    return (f"is named like Python's standard module {module!r}: Python puts a bot's folder "
            f"first on its module path, so `import {module}` there (the bot's or a "
            f"library's) finds the bot itself; rename it ({module}_bot.py)")


def sources(bots: list[str]) -> tuple[BotSource, ...]:
    """The bots' files as they are now (the perfect player has none), with a warning on
    stderr for each group of files with the same content (a copied submission)."""
    found = tuple(BotSource.read(b) for b in bots if b != OPTIMAL)
    for group in identical(found):
        print(f"judge: warning: {', '.join(group)} are the same program (identical files)",
              file=sys.stderr)
    return found
