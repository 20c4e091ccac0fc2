"""`judge doctor`: what this machine offers bots (the tier, each guarantee held or not,
the toolchains, the extras installed) and the one command that would get the strongest
tier, as `flutter doctor` does. It reports: its exit status is 0 whatever it finds."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from judge.commands.options import add_sandbox_prefer_option
from judge.games.base import InputError
from judge.report import WIDTH, printable_line, to_json, wrapped

if TYPE_CHECKING:
    from judge.commands.config import Applied
    from judge.sandbox.languages import Language, Table
    from judge.sandbox.slots import Cgroups
    from judge.sandbox.tiers import Tier

#: seconds a toolchain may take to print its version
VERSION_SECONDS = 1.5
#: the kernel settings that refuse an ordinary user the user namespace bubblewrap needs,
#: and the value that refuses it
USERNS_REFUSED = {"/proc/sys/user/max_user_namespaces": "0",
                  "/proc/sys/kernel/unprivileged_userns_clone": "0",
                  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"}
#: what each extra of the project is for (one that only repeats the judge's own
#: dependencies is not shown)
EXTRA_USES = {"cluster": "--cluster, judge scheduler, judge worker",
              "test": "the tests (selenium: the browser tests)"}


@dataclass
class Fact:
    """One thing of this machine the tier follows from."""

    name: str
    ok: bool
    text: str


@dataclass
class Guarantee:
    """One guarantee of `judge.sandbox.tiers.GUARANTEES`, held here or not."""

    key: str
    text: str
    held: bool
    #: what would give it (None when it is held)
    how: str | None


@dataclass
class Toolchain:
    """A language's compiler or interpreter as the judge finds it."""

    language: str
    name: str
    command: str
    #: where it is (None: not found)
    path: str | None
    #: the first line it prints of its version (None: not found, or it printed none)
    version: str | None
    #: the package that brings it
    package: str


@dataclass
class Extra:
    """An optional part of the project (`pip install -e '.[NAME]'`)."""

    name: str
    use: str
    #: each package it adds: its installed version, or None
    packages: dict[str, str | None]
    #: every one of them is
    installed: bool
    install: str


@dataclass
class CourseFile:
    """The course file the judge read here (`judge.commands.config`), and its settings."""

    #: its path (None: none was read)
    path: str | None
    #: why none was read, or where it is
    said: str
    #: each setting, ``[run] feedback = "mistakes"`` (its table first, but for the shared)
    settings: list[str]


@dataclass
class Report:
    """All that `judge doctor` says (its JSON)."""

    #: the tier a run takes here (`--sandbox auto`), or None when bots cannot run
    tier: str | None
    #: why bots cannot run here (with `tier` None)
    error: str | None
    facts: list[Fact]
    guarantees: list[Guarantee]
    toolchains: list[Toolchain]
    extras: list[Extra]
    #: the command that would make every guarantee hold (None: they all do, or no one
    #: command can), and what it does or what else is missing
    command: str | None
    advice: str
    #: the kernel's Landlock ABI (0: none)
    landlock_abi: int = 0
    judge_version: str = field(default="")
    #: why `--sandbox auto` takes the tier, where --sandbox-prefer asks for gvisor
    auto: str | None = None
    course: CourseFile | None = None


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `doctor` subcommand."""
    p = sub.add_parser(
        "doctor",
        help="what this machine offers bots, and how to get the strongest confinement",
        description="Say what this machine offers bots: the confinement tier a run takes\n"
        "here and why (root, bubblewrap, the exec helper, seccomp, Landlock, cgroups),\n"
        "each guarantee held or not and what would give it, the toolchain of each\n"
        "language with its version, the extras installed, and the one command that\n"
        "would get the strongest tier. It compiles nothing, and its exit status is 0\n"
        "whatever it finds. It also shows the course file it read (judge.toml) with its\n"
        "settings, each checked for the command it is for.",
        epilog="examples:\n  judge doctor\n  judge doctor --format json\n"
        "  judge doctor --languages my-languages.toml\n"
        "  judge doctor --sandbox-prefer gvisor   (the tier auto then takes, and why)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="output format (default: text)")
    p.add_argument("--languages", metavar="FILE",
                   help="a TOML file that changes or adds languages, as `judge run` takes it")
    add_sandbox_prefer_option(p)
    # the course file is checked whole, for every command, not for this one only
    p.set_defaults(func=run, check_course=True)


def run(args: argparse.Namespace) -> int:
    """Print the report."""
    from judge.sandbox.languages import Table, read_overrides

    table = Table(read_overrides(args.languages, None), f"--languages {args.languages}")
    report = examine(table, args.sandbox_prefer)
    report.course = course_file(args.course, args.no_config)
    sys.stdout.write(to_json(asdict(report)) if args.format == "json" else text(report))
    return 0


def course_file(applied: Applied | None, ignored: bool) -> CourseFile:
    """What the report says of the course file read (`applied`), or of none."""
    from judge.commands.config import DEFAULT, table_name

    if applied is None:
        return CourseFile(None, f"none: --no-config ignores {DEFAULT}" if ignored else
                          f"none: no {DEFAULT} in this folder (--config FILE names one)",
                          [])
    course = applied.course
    return CourseFile(course.path, os.path.abspath(course.path), [
        printable_line((f"[{table_name(s.table)}] " if s.table else "") + s.shown())
        for s in course.settings])


def examine(table: Table, prefer: str = "bwrap") -> Report:
    """What this machine offers, with the languages of `table`, and the tier that
    `--sandbox auto` takes under `--sandbox-prefer` `prefer`."""
    from judge import __version__
    from judge.sandbox.tiers import GUARANTEES, HOW, auto_choice, landlock_abi, tier_for

    with ThreadPoolExecutor(max_workers=len(table.languages) or 1) as pool:
        probed = pool.map(toolchain, table.languages.values())  # while the tier is probed
        mode, why = auto_choice("auto", prefer)
        try:
            tier, error = tier_for(mode), None
        except InputError as exc:
            tier, error = None, str(exc)
        toolchains = list(probed)
    holds = tier.holds() if tier else {key: False for key, _ in GUARANTEES}
    guarantees = [Guarantee(key, text, holds[key], None if holds[key] else HOW[key])
                  for key, text in GUARANTEES]
    found = facts(tier)
    command, advice = strongest(tier, error, found)
    return Report(tier.name if tier else None, error, found, guarantees, toolchains,
                  extras(), command, advice, landlock_abi(), __version__, why)


def facts(tier: Tier | None) -> list[Fact]:
    """What the tier follows from: root, bubblewrap, the exec helper, seccomp, Landlock,
    cgroups, and what a run then sees of a bot."""
    from judge.sandbox.exec_helper import helper_path
    from judge.sandbox.tiers import bwrap_path, landlock_abi

    root = os.geteuid() == 0
    helper, works = unless_refused(helper_path), unless_refused(bwrap_path)
    out = [Fact("root", root, "yes: each game runs under a uid of its own" if root else
                f"no (uid {os.geteuid()}): bots run as the judge's user")]
    exe = shutil.which("bwrap")
    refused = [] if root else userns_refused()
    old = f"{exe} is too old: it has no --size (0.8.0 and later have it)"
    out.append(Fact("bubblewrap", works is not None,
                    f"works: {works}" if works else "not installed" if exe is None else
                    old if without_size(exe) else f"{exe} cannot start a sandbox here"
                    + (f" ({', '.join(refused)})" if refused else "")))
    out.append(Fact("exec helper", helper is not None,
                    "built: it confines and starts each bot" if helper else
                    "not built: no C compiler (install gcc)"))
    kernel = seccomp_in_kernel()
    out.append(Fact("seccomp", bool(helper and kernel),
                    "a system call allowlist for each bot, set by the exec helper"
                    if helper and kernel else "not in this kernel" if not kernel else
                    "no filter without the exec helper"))
    abi = landlock_abi()
    out.append(Fact("Landlock", bool(abi and helper),
                    f"ABI {abi}: each bot in a domain of its own" if abi and helper else
                    f"ABI {abi}, unused without the exec helper" if abi else
                    "not in this kernel (Linux 5.13 and later)"))
    out.append(cgroups_fact(root))
    out.append(gvisor_fact())
    if tier is not None:
        from judge.sandbox.waiting import blind_reason

        blind = blind_reason(tier)
        out.append(Fact("waiting", blind is None,
                        "a bot waiting for input that will not come is seen at once"
                        if blind is None else f"not seen ({blind}): such a bot loses at "
                        "its time limit"))
        if tier.uid:
            from judge.sandbox.build import private_runtime

            private = private_runtime()
            out.append(Fact("Python bots", not private, "their uid can read the judge's "
                            "Python" if not private else "cannot start: other users may "
                            "not read " + ", ".join(map(str, private))
                            + f" (chmod o+rx {shlex.join(map(str, private))})"))
    return out


def gvisor_fact() -> Fact:
    """Whether `--sandbox gvisor` works here: runsc found, its version, a sandbox that
    started /bin/true (as an ordinary user, rootless)."""
    from judge.sandbox.tiers import INSTALL, runsc_path, runsc_version, runsc_works

    if runsc_path() is None:
        return Fact("gVisor", False, "runsc not installed: a kernel of its own for each "
                    f"game with --sandbox gvisor ({INSTALL})")
    version = runsc_version() or "runsc of unknown version"
    if not runsc_works():
        return Fact("gVisor", False, f"{version} cannot start a sandbox here")
    return Fact("gVisor", True, f"{version} started /bin/true: --sandbox gvisor gives each "
                "game a kernel of its own (slower; auto takes it only with "
                "--sandbox-prefer gvisor)")


def unless_refused(probe: Callable[[], str | None]) -> str | None:
    """What `probe` finds, or None where the judge cannot use its cache to look."""
    try:
        return probe()
    except InputError:
        return None


def without_size(exe: str) -> bool:
    """Whether the bubblewrap at `exe` has no --size, which the judge's sandbox gives its
    tmpfs mounts (Ubuntu 22.04's 0.6.1 has none)."""
    try:
        done = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--tmpfs" in done.stdout and "--size" not in done.stdout


def userns_refused() -> list[str]:
    """The kernel settings that refuse an ordinary user a user namespace, as `key=value`."""
    refused = []
    for path, value in USERNS_REFUSED.items():
        try:
            if Path(path).read_text().strip() == value:
                refused.append(f"{path.removeprefix('/proc/sys/').replace('/', '.')}={value}")
        except OSError:
            continue
    return refused


def seccomp_in_kernel() -> bool:
    """Whether this kernel filters system calls (its processes show a Seccomp field)."""
    try:
        return "\nSeccomp:" in Path("/proc/self/status").read_text()
    except OSError:
        return False


def cgroups_fact(root: bool) -> Fact:
    """The cgroups the judge makes for its game slots here, and what they bound."""
    from judge.sandbox.slots import CGROUPS_ENV, cgroups_here

    if not root:
        return Fact("cgroups", False, "not used: only a judge run as root makes them")
    try:
        found = cgroups_here()
    except InputError as exc:
        return Fact("cgroups", False, str(exc))
    if found is None:
        off = os.environ.get(CGROUPS_ENV, "").strip().lower() == "off"
        return Fact("cgroups", False, f"turned off ({CGROUPS_ENV}=off)" if off else
                    "none can be created here")
    lacking = cgroup_lacks(found)
    kind = f"v{found.version}"
    return Fact("cgroups", not lacking, f"{kind}: memory, processes and CPU counted, fair "
                "CPU" if not lacking else f"{kind}, without {' and '.join(lacking)}")


def cgroup_lacks(found: Cgroups) -> list[str]:
    """The controllers the slots' cgroups (`Cgroups`) go without here."""
    lacks = [name for name, ok in (("memory", found.counts_memory),
                                   ("pids", found.counts_pids)) if not ok]
    return lacks + ([] if found.fair_cpu else ["cpu and cpuset"])


def toolchain(lang: Language) -> Toolchain:
    """The toolchain of a `Language` here and its version line."""
    from judge.sandbox.languages import locate

    word = (lang.compile or lang.run)[0]
    path = sys.executable if word == "{python}" else locate(word, lang.find)
    version = None if path is None or path.startswith("{") else version_line(
        [path, *lang.version], dict(lang.env))
    shown = "python3" if word == "{python}" else word
    return Toolchain(lang.key, lang.name, shown, path, version, lang.package)


def version_line(command: list[str], env: dict[str, str]) -> str | None:
    """The first line `command` prints (stdout, else stderr) within `VERSION_SECONDS`, or
    None; it runs in a session of its own, all of which is killed when it is late."""
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace", cwd="/",
                                env={**os.environ, **env}, start_new_session=True)
    except OSError:
        return None
    with proc:
        try:
            out, err = proc.communicate(timeout=VERSION_SECONDS)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return None
    lines = [line.strip() for line in (out + "\n" + err).splitlines()]
    return next((printable_line(line) for line in lines if line), None)


def extras() -> list[Extra]:
    """The project's extras beyond its own dependencies, each package's version here."""
    from importlib.metadata import PackageNotFoundError, metadata, version

    from judge import install_hint

    try:
        required = metadata("judge").get_all("Requires-Dist") or []
    except PackageNotFoundError:
        return []
    own: set[str] = set()
    per_extra: dict[str, list[str]] = {}
    for line in required:
        match = re.match(r"\s*([A-Za-z0-9_.\-]+)[^;]*(?:;\s*extra\s*==\s*['\"]([^'\"]+))?",
                         line)
        if match is None:
            continue
        name, extra = match.group(1).lower(), match.group(2)
        if extra is None:
            own.add(name)
        else:
            per_extra.setdefault(extra, []).append(name)
    out = []
    for extra, names in sorted(per_extra.items()):
        names = [n for n in names if n not in own]
        if not names:
            continue
        installed: dict[str, str | None] = {}
        for name in names:
            try:
                installed[name] = version(name)
            except PackageNotFoundError:
                installed[name] = None
        out.append(Extra(extra, EXTRA_USES.get(extra, ""), installed,
                         all(installed.values()), install_hint(extra)))
    return out


def strongest(tier: Tier | None, error: str | None, found: list[Fact]) -> tuple[str | None, str]:
    """The command that would make every guarantee hold here (None when they do, or when
    no command can), and what it does or what else is missing (from the `found` facts)."""
    if tier is not None and all(tier.holds().values()):
        return None, f"every guarantee holds: {tier.name} is the strongest tier"
    fact = {f.name: f for f in found}
    root = fact["root"].ok
    packages = [name for name, missing in (("bubblewrap", shutil.which("bwrap") is None),
                                           ("gcc", not fact["exec helper"].ok)) if missing]
    steps, words = [], []
    if packages:
        steps.append(f"{'' if root else 'sudo '}apt-get install {' '.join(packages)}")
        words.append(f"install {' and '.join(packages)}")
    if not root:
        steps.append(f"sudo {judge_command()} doctor")
        words.append("run the judge as root, as the last command does")
    elif not packages and "too old" in fact["bubblewrap"].text:
        words.append("install a bubblewrap of 0.8.0 or later: this one has no --size")
    elif not packages and not fact["bubblewrap"].ok:
        words.append("bubblewrap cannot start a sandbox here even as root (a container "
                     "not allowed to make namespaces?)")
    if root and error is None and not fact["cgroups"].ok:
        words.append(f"cgroups here: {fact['cgroups'].text}; the judge needs to create "
                     "cgroups with the memory, pids, cpu and cpuset controllers "
                     "(docs/sandbox.md#tiers)")
    return " && ".join(steps) or None, "; ".join(words) or error or (
        "no one command: what gives each guarantee not held is said above")


def judge_command() -> str:
    """How this judge is started from the current folder: its `judge` script (relative
    when under this folder), else the interpreter with ``-m judge``."""
    script = Path(sys.executable).with_name("judge")
    if not script.is_file():
        return f"{shlex.quote(sys.executable)} -m judge"
    with_dot = Path(os.path.relpath(script))
    return shlex.quote(str(script if with_dot.parts[0] == ".." else with_dot))


def text(report: Report) -> str:
    """The report for a terminal, in lines of at most `WIDTH` columns."""
    out = [f"judge doctor: what this machine offers bots (judge {report.judge_version})\n",
           "\n"]
    if report.course:
        out.append(wrapped(f"course file: {report.course.said}"
                           + (":" if report.course.settings else "")))
        out += [item("", setting, 4) for setting in report.course.settings]
        out.append("\n")
    if report.tier:
        why = f": {report.auto}" if report.auto else ""
        out.append(wrapped(f"tier: {report.tier} (what `judge run` takes here{why}), "
                           "because:"))
    else:
        out.append(wrapped(f"no tier: bots cannot run here: {report.error}"))
    out += [item(f"{fact.name}:", fact.text, 16) for fact in report.facts]
    held = sum(g.held for g in report.guarantees)
    out.append(f"\nguarantees: {held} of {len(report.guarantees)} held\n")
    for g in report.guarantees:
        out.append(item("held" if g.held else "not held", g.text, 13))
        if g.how:
            out.append(item("", f"to get it: {g.how}", 13))
    out.append("\ntoolchains:\n")
    for t in report.toolchains:
        said = (f"{t.path}: {t.version or 'printed no version'}" if t.path else
                f"not found: no {t.command} (install {t.package})")
        out.append(item(t.name, said, 14))
    if report.extras:
        out.append("\nextras (pip install -e '.[NAME]'):\n")
    for e in report.extras:
        have = ", ".join(f"{name} {v}" if v else f"{name} missing"
                         for name, v in e.packages.items())
        said = f"{'' if e.installed else 'not '}installed, for {e.use}: {have}"
        out.append(item(e.name, said if e.installed else f"{said}; {e.install}", 14))
    out.append("\n")
    if report.command:
        out.append(wrapped(f"to get the strongest tier, {report.advice}:"))
        out.append(command_lines(report.command))
    elif held < len(report.guarantees):
        out.append(wrapped(f"to get the strongest tier: {report.advice}"))
    else:
        out.append(wrapped(f"{report.advice}."))
    return "".join(out)


def item(name: str, said: str, column: int) -> str:
    """One entry of a list: `name` in the first `column` columns after an indent of two,
    `said` beside it, wrapped under itself."""
    head = f"  {name:<{column - 3}} "
    if len(head) > column:
        head = f"  {name} "
    return wrapped(head + said, WIDTH, " " * column)


def command_lines(command: str) -> str:
    """`command` indented, one step of its ``&&`` list a line when it is too wide."""
    if len(command) + 4 <= WIDTH:
        return f"    {command}\n"
    return " &&\n".join(f"    {step}" for step in command.split(" && ")) + "\n"

