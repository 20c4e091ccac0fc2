"""Building a bot: its file turned into a `Program`, by its language (see `languages`),
compiled once, confined, and cached by content, toolchain and flags; or its interpreter."""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
import shlex
import site
import struct
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from judge.folders import MOST_BYTES, folder_listing
from judge.games.base import InputError
from judge.sandbox.context import sandbox_context
from judge.sandbox.languages import Language, SettingsError, Table, ToolchainMissing
from judge.sandbox.limits import Limits
from judge.sandbox.program import (
    CompileError,
    NotGradable,
    Program,
    folder_digest,
    folder_files,
)

COMPILE_SECONDS = 60
#: part of every compiled bot's cache key: bump when the way bots are built changes
COMPILE_VERSION = "languages-1"
COMPILE_MESSAGE_CHARS = 4000
#: headers of pre-standard C++ (<iostream.h> and kin), for the C++ compile command
COMPAT = Path(__file__).with_name("compat")

__all__ = ["CompileError", "NotGradable", "Program", "ToolchainMissing", "check_bot_path",
           "compiled", "folder_entry", "program_for"]

#: the languages whose compiler is given every source of a bot's folder (C's and C++'s
#: files, Java's classes, a Go package); the others are given the entry alone, which finds
#: the rest itself in its folder (Rust's modules, Pascal's units, Python's imports)
TOGETHER = frozenset({"c", "cpp", "java", "go"})


def _python_runtime() -> tuple[Path, ...]:
    """Where the judge's interpreter and its libraries live, when not under /usr."""
    places = {Path(p).resolve() for p in (sys.base_prefix, sys.prefix)}
    places.add(Path(sys.executable).resolve().parent.parent)
    return tuple(sorted(p for p in places if not _system(p)))


@functools.cache
def _launcher() -> str:
    """Python code that runs the script named by its first argument as ``python script``
    would, with the judge's site-packages on the path, but without `site`'s start-up.

    Starting a bot that way takes a fifth of the time where the interpreter's .pth files
    import much (22 ms less a game on the reference machine); `exit`, `quit` and `help`
    are there as usual, and the script is `__main__` with its own `__file__`.
    """
    places = [p for p in site.getsitepackages() if os.path.isdir(p)]
    return (
        "import sys,site as _s;_s.setquit();_s.setcopyright();_s.sethelper();del _s;"
        "__file__=sys.argv[1];sys.argv=sys.argv[1:];"
        "sys.path[0]=__file__.rpartition('/')[0] or '.';"
        f"sys.path.extend({places!r});"
        "exec(compile(open(__file__,'rb').read(),__file__,'exec'))"
    )


def private_runtime() -> list[Path]:
    """Folders of the judge's Python that other users may not read: a bot under a uid of
    its own cannot run Python from them."""
    private = []
    for path in _python_runtime():
        try:
            if os.stat(path).st_mode & 0o005 != 0o005:
                private.append(path)
        except OSError:
            continue
    return private


def _system(path: Path) -> bool:
    return any(path.is_relative_to(s) for s in (Path("/usr"), Path("/bin"), Path("/lib")))


def check_bot_path(path: str | Path) -> Path:
    """The bot file, resolved; raises `InputError` when it is missing or cannot be run.
    Checked once per version of the file in a process (a run asks at every game)."""
    try:
        st = os.stat(path)
    except OSError:
        return _checked_bot_path(str(path), None)
    return _checked_bot_path(str(path), (st.st_ino, st.st_mtime_ns, st.st_mode,
                                            sandbox_context().languages))


@functools.lru_cache(maxsize=256)
def _checked_bot_path(path: str, version: tuple | None) -> Path:
    source = Path(path).resolve()
    if not source.is_file():
        raise InputError(f"bot {path}: no such file")
    if not os.access(source, os.R_OK):
        raise InputError(f"bot {path}: the file cannot be read")
    if source.stat().st_size > MOST_BYTES:  # (never read: a sparse file of gigabytes)
        raise InputError(f"bot {path}: over {MOST_BYTES >> 20} MiB, a bot's disk quota")
    if _through_a_link(Path(path)) and not _open_to_all(source):
        # a link in a submission must not make the judge read what its author could not
        raise InputError(f"bot {path}: a link to {source}, which other users may not read "
                         f"(give the file itself)")
    table = sandbox_context().languages
    if table.for_file(source) is None and not os.access(source, os.X_OK):
        raise InputError(f"bot {path}: not executable, and not a source file of a known "
                         f"language ({' '.join(table.suffixes())}; see --help)")
    return source


def _through_a_link(path: Path) -> bool:
    """Whether a symbolic link is on the way to `path` (as given, made absolute)."""
    here = Path(os.path.abspath(path))
    return any(p.is_symlink() for p in (here, *here.parents))


def _open_to_all(file: Path) -> bool:
    """Whether any user may read `file` (and enter each folder on its way)."""
    try:
        return bool(os.stat(file).st_mode & 0o004) and all(
            os.stat(p).st_mode & 0o001 for p in file.parents)
    except OSError:
        return False


def folder_entry(folder: Path, entry: str | None = None, table: Table | None = None) -> Path:
    """The entry of a bot given as a folder: the file `entry` names (--entry NAME), else
    its main.* (or Main.*) of a language of `table` (default: the judge's), else its only
    program of such a language; `NotGradable`, saying why, where there is none or more
    than one, or where the folder is reached through a link and other users may not read
    it and its files (as `check_bot_path` refuses a file)."""
    try:
        names = [name for name, _ in folder_listing(folder)]
    except OSError as exc:
        raise NotGradable(f"the folder cannot be read: {exc.strerror or exc}") from None
    if _through_a_link(folder):
        real = folder.resolve()
        if not all(_open_to_all(p) for p in (real, *(real / name for name in names))):
            raise NotGradable(f"a link to {real}, which other users may not read (give the "
                              f"folder itself)")
    if entry is not None:
        if entry not in names:
            raise NotGradable(f"no file {entry} (--entry) in the folder")
        return folder / entry
    table = table or sandbox_context().languages
    known = [n for n in names if table.knows(n)]
    candidates = [n for n in known if Path(n).stem in ("main", "Main")] or known
    if len(candidates) == 1:
        return folder / candidates[0]
    if candidates:
        count = "two" if len(candidates) == 2 else str(len(candidates))
        raise NotGradable(f"{count} candidate entries {', '.join(candidates)} (--entry NAME "
                          f"chooses one)")
    below = _programs_below(folder, table)
    where = (f"; its subfolders are not graded: {below} is in one (give that folder, or "
             f"move its files up)") if below else ""
    if not names:
        raise NotGradable(f"no file at the top of the folder{where}" if below
                          else "an empty folder")
    listed = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
    at_top = " at the top of the folder" if below else ""
    raise NotGradable(f"no program of a language this judge knows{at_top} ({listed}){where}")


def _programs_below(folder: Path, table: Table, looked: int = 2000) -> str | None:
    """The first program of a known language in a subfolder of a bot's folder (as a path
    from it), where its top has none: a zip unpacked into a folder of its own, a Cargo
    project's src/, known by its suffix alone (never opened: it may be a FIFO). Folders
    are searched in name order, each before the next beside it; hidden ones and links are
    passed by; at most `looked` entries listed (a listing stops there)."""
    pending = [folder]
    while pending:
        here = pending.pop()
        items = []
        try:
            with os.scandir(here) as listing:
                for item in listing:
                    looked -= 1
                    if looked < 0:
                        return None
                    if not item.name.startswith(".") and not item.is_symlink():
                        items.append(item)
        except OSError:
            continue
        items.sort(key=lambda item: item.name)
        if here != folder:
            for item in items:
                if table.knows(item.name) and not item.is_dir(follow_symlinks=False):
                    return Path(item.path).relative_to(folder).as_posix()
        pending += reversed([Path(i.path) for i in items if i.is_dir(follow_symlinks=False)])
    return None


def program_for(path: str | Path, entry: str | None = None) -> Program:
    """The command for a bot file, or a bot's folder (its entry found by `folder_entry`,
    every file of the folder with it); raises `InputError` (a bad path), `ToolchainMissing`
    (an `InputError`: its language is not installed here), `NotGradable` (a folder) or
    `CompileError`.

    Known once per version of the file (and of the language table) in a process: a run
    asks for it at every game."""
    if os.path.isdir(path):
        folder = Path(path).resolve()
        main = folder / folder_entry(Path(path), entry).name  # (a link: checked there)
        st = main.stat()
        try:
            return _program(main, st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode,
                            sandbox_context().languages, folder,
                            folder_digest(folder_files(folder)))
        except ToolchainMissing as exc:
            raise NotGradable(str(exc)) from None
    source = check_bot_path(path)
    st = source.stat()
    program = _program(source, st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode,
                       sandbox_context().languages)
    if program.shows and not all(p.exists() for p in program.shows):  # its build removed
        _program.cache_clear()
        return program_for(path)
    return program


@functools.lru_cache(maxsize=256)
def _program(source: Path, ino: int, size: int, mtime_ns: int, mode: int,
             languages: Table, folder: Path | None = None, digest: str = "") -> Program:
    """The program of `source`; of a bot's `folder` (its files' `digest`), every file of
    it shown to the bot, or compiled with it."""
    lang = languages.for_file(source)
    if lang is None:  # any executable: a shebang script or a binary
        return Program(source, (str(source),))
    common: dict[str, Any] = {"language": lang.name, "address_space": lang.address_space,
              "extra": lang.extra, "env": lang.env, "syscalls": lang.syscalls}
    run = lang.command(lang.run)
    common["heap_at"] = tuple(i for i, word in enumerate(run) if "{heap}" in word)
    if lang.compile:
        if lang.key in languages.overrides:
            probe(lang)  # the user's flags or command: refused now if they cannot work
        built, main = compiled(source, lang, folder)
        argv = _fill(run, {"{dir}": str(built), "{main}": main, "{src}": str(source)})
        # the bot's own program (checked to be there when it was built), or a runtime's
        own = lang.run[0].startswith("{dir}")
        tool = argv[0] if own else lang.tool(argv[0])
        runtime = () if own else _runtime_of(tool)  # never the cache of all builds
        return Program(source, (tool, *argv[1:]), (*runtime, *lang.needed()),
                       shows=(built,), **common)
    if folder is not None:  # run from its folder: the bot sees its other files there
        common["shows"] = (folder,)
    if lang.run[0] == "{python}":  # Python 3: the judge's own interpreter, started fast
        syntax_checked(source, lang)  # a syntax error: one compile error, not a crash a game
        # -u: a bot that forgets to flush still works; -B: no __pycache__ next to the bot;
        # -S and the launcher: the judge's site-packages without running its .pth files
        return Program(source, (sys.executable, "-S", "-u", "-B", "-c", _launcher(),
                                str(source)), _python_runtime(), **common)
    argv = _fill(run, {"{src}": str(source)})
    tool = lang.tool(argv[0])
    return Program(source, (tool, *argv[1:]), (*_runtime_of(tool), *lang.needed()), **common)


#: a Python 3 bot's compiling: its syntax checked by py_compile (the bot itself still runs
#: from its source, the .pyc written is not used); a failure exits with Python's message
_PYTHON_CHECK = ("import py_compile,sys\n"
                 "try: py_compile.compile(sys.argv[1],sys.argv[2],doraise=True)\n"
                 "except py_compile.PyCompileError as e: sys.exit(e.msg)")


def syntax_checked(source: Path, lang: Language) -> None:
    """Check a Python 3 bot's syntax with the judge's interpreter, once per content, as a
    build is (confined, cached); raises `CompileError` with Python's message."""
    python = os.path.realpath(sys.executable)  # the installation, not a venv's link to it
    compiled(source, replace(lang, compile=(python, "-S", "-I", "-c", _PYTHON_CHECK,
                                            "{src}", "{out}/bot.pyc")))


def _fill(template: tuple[str, ...] | list[str], values: dict[str, str]) -> list[str]:
    """`template` with each {name} of `values` replaced, in one pass: a value (a path) that
    holds a brace is not read again; others, like {heap}, are kept."""
    def one(match: re.Match) -> str:
        return values.get(match.group(0), match.group(0))

    return [re.sub(r"\{[a-z]+\}", one, word) for word in template]


def _runtime_of(tool: str) -> tuple[Path, ...]:
    """The installation a command outside the system comes from (its bin folder's parent),
    which a sandbox must show; nothing for a command of the system's."""
    real = Path(os.path.realpath(tool))
    return () if _system(real) else (real.parent.parent,)


#: what compiling one bot may use: it runs confined like a bot, as untrusted work (a
#: source may `#include` or `.incbin` any file it can see, or make the compiler explode)
COMPILE_LIMITS: dict[str, Any] = {
    "first_move_seconds": COMPILE_SECONDS, "cpu_seconds": COMPILE_SECONDS,
    "memory_bytes": 2 << 30, "processes": 128, "disk_bytes": 512 << 20,
    "file_bytes": 256 << 20, "open_files": 256, "output_bytes": 64 << 20,
    "stderr_bytes": COMPILE_MESSAGE_CHARS, "grace_seconds": 1.0,
}


#: the compiles that failed in this process for want of time or memory, by their cache
#: key: tried once in a run (a league, a forked worker's games), not once per game (a
#: source whose compiler waits on its own output took 60 s of every game)
_FAILED: dict[str, str] = {}


@functools.cache
def probe(lang: Language) -> None:
    """Build the language's minimal program (its `probe`) with the flags and command in use;
    raises `SettingsError` when it does not build: the settings, not a bot, are wrong."""
    if not lang.probe:
        return
    with tempfile.TemporaryDirectory(prefix="judge-probe-") as tmp:
        name = "Probe" if lang.key == "java" else "probe"
        source = Path(tmp) / f"{name}{lang.suffixes[0]}"
        source.write_text(lang.probe)
        try:
            compiled(source, lang)
        except CompileError as exc:
            raise SettingsError(f"{lang.name} with the flags and command given cannot build "
                                f"even a minimal program, so no bot could: {exc}") from None


def source_name(source: Path, lang: Language) -> str:
    """The source's name in the build folder: ``bot_<its name>`` in plain characters (never
    a name the toolchain gives a meaning: a Pascal unit such as crt, a Go test file, a
    crate name with a dash), and for Java the name its public top-level class needs."""
    if lang.key == "java":
        public = java_classes(source.read_text(errors="replace"))[1]
        return f"{public or 'Main'}.java"
    stem = re.sub(r"\W", "_", source.stem, flags=re.ASCII)
    return f"bot_{stem}{source.suffix}"


def java_classes(text: str) -> tuple[list[str], str]:
    """(the top-level classes, interfaces, enums and records of a Java source, in order;
    the public one or ""), read past comments, strings and nested types."""
    text = re.sub(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*'
                  r"|/\*(?:.|\n)*?\*/", " ", text)
    names, public, depth = [], "", 0
    for token in re.finditer(r"[{}]|((?:\b(?:public|final|abstract|sealed|non-sealed|"
                             r"strictfp|static)\s+)*)\b(class|interface|enum|record)\s+"
                             r"([^\W\d][\w$]*)", text):
        if token.group(0) == "{":
            depth += 1
        elif token.group(0) == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            names.append(token.group(3))
            if "public" in (token.group(1) or "") and not public:
                public = token.group(3)
    return names, public


def compiled(source: Path, lang: Language | None = None,
             folder: Path | None = None) -> tuple[Path, str]:
    """(the folder built from `source`, the main class for a JVM language or ""), compiled
    once, confined in the strongest tier this machine has, and cached by the content, the
    toolchain (the identity of its files: a new version is a new build) and the command
    line; raises `CompileError` or `ToolchainMissing`. The entry of a bot's `folder` is
    compiled beside the folder's files, by their names, with every source of its language
    where the language compiles them together (`TOGETHER`), and the built folder holds
    the folder's files too.

    A failure that says something of the source (the compiler's message, a program too
    large) is cached too; one that may say more of the machine's load than of the source
    (out of time or memory) is kept by this process only (`_FAILED`): every later game
    of the run or league gets it at once, and the next run tries again."""
    from judge.solvers.cache import cache_dir

    lang = lang or sandbox_context().languages.for_file(source)
    if lang is None or not lang.compile:
        raise InputError(f"{source}: not a source file of a compiled language")
    compiler = lang.tool(lang.compile[0])
    given = folder_files(folder) if folder is not None else {}
    name = source.name if given else source_name(source, lang)
    sources = [n for n in given if lang.key in TOGETHER and Path(n).suffix in lang.suffixes
               and not n.endswith("_test.go")] or [name]
    template = [w for word in lang.command(lang.compile)
                for w in (sources if word == "{src}" else [word])]
    command = _fill(template, {"{src}": name, "{out}": "out", "{compat}": str(COMPAT)})
    content = folder_digest(given).encode() if given else source.read_bytes()
    identity = [os.path.realpath(compiler), *map(str, lang.needed())]
    for path in identity:
        with suppress(OSError):
            st = os.stat(path)
            identity += [str(st.st_size), str(st.st_mtime_ns)]
    key = hashlib.sha256("\0".join(
        (COMPILE_VERSION, lang.key, *identity, *command, *lang.run,
         *(f"{k}={v}" for k, v in lang.env))).encode()
        + b"\0" + content).hexdigest()[:32]
    folder = cache_dir() / "bots"
    built, failure, main_file = folder / key, folder / f"{key}.err", folder / f"{key}.main"
    if built.is_dir():
        return built, main_file.read_text() if main_file.exists() else ""
    if failure.exists():
        raise CompileError(failure.read_text(errors="replace"))
    if key in _FAILED:
        raise CompileError(_FAILED[key])
    folder.mkdir(parents=True, exist_ok=True)
    files, message, lasting = _compile(lang, [compiler, *command[1:]], source, name,
                                       given or {name: source.read_bytes()})
    main = ""
    if files is not None:
        if lang.key == "java":
            main = main_class(files, name[:-len(".java")], source.stem)
            if not main:
                files, message = None, ("no class has a method "
                                        "`public static void main(String[])`")
        elif lang.run[0].startswith("{dir}/"):
            wanted = lang.run[0][len("{dir}/"):]
            if not files.get(wanted, (b"", False))[1]:
                files, message = None, (f"the compiler wrote no program to run ({wanted}): "
                                        f"a library, or flags that stop before linking?")
    with tempfile.TemporaryDirectory(dir=folder, prefix="build-") as tmp:
        if files is None:
            if lasting:
                failed = Path(tmp) / "err"
                failed.write_text(message)
                os.replace(failed, failure)
            else:
                _FAILED[key] = message
            raise CompileError(message)
        for rel, data in given.items():  # the folder's files beside what was built
            files.setdefault(rel, (data, False))
        out = Path(tmp) / "out"
        out.mkdir(mode=0o755)
        for rel, (data, runnable) in files.items():
            target = out / rel
            target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            target.write_bytes(data)
            os.chmod(target, 0o755 if runnable else 0o644)
        (Path(tmp) / "main").write_text(main)
        os.replace(Path(tmp) / "main", main_file)
        try:
            os.replace(out, built)
        except OSError:  # built meanwhile by another process of the judge: the same
            pass
    return built, main


def _compile(lang: Language, command: list[str], source: Path, name: str,
             given: dict[str, bytes]) -> tuple[dict[str, tuple[bytes, bool]] | None, str, bool]:
    """(the files built, "", True) or (None, the compiler's message, whether the failure
    lasts: not one of time or memory): the compiler runs as a bot does, in its own work dir
    with the source (the files `given`, by name), and sends the folder it built as a tar on
    its standard output (its own output goes to its stderr, the message)."""
    import pexpect

    from judge.sandbox.languages import locate
    from judge.sandbox.process import Confined

    mkdir, tar = locate("mkdir") or "mkdir", locate("tar") or "tar"  # whatever PATH it has
    shell = (f"{mkdir} out && {shlex.join(command)} >&2 && cd out && "
             f"exec {tar} --owner=0 --group=0 -cf - .")
    runtime = (*_runtime_of(command[0]), *lang.needed(),
               *((COMPAT,) if any("{compat}" in word for word in lang.compile) else ()))
    program = Program(source, ("/bin/sh", "-c", shell), runtime, shows=(),
                      address_space=lang.address_space)
    limits = Limits(**COMPILE_LIMITS)
    proc = Confined(program, limits, "auto", files=given, env=dict(lang.env))
    chunks: list[bytes] = []
    size, why = 0, ""
    try:
        proc.close_input()
        deadline = time.monotonic() + COMPILE_SECONDS
        while not why:
            left = deadline - time.monotonic()
            if left <= 0:
                why = f"the compiler took longer than {COMPILE_SECONDS} s"
                break
            try:
                chunk = proc.output.read_nonblocking(1 << 16, timeout=min(left, 0.1))
            except pexpect.TIMEOUT:
                proc.cpu_seconds()  # without cgroups: sums its processes' memory too
                if proc.killed_for_memory():
                    why = (f"the compiler ran out of memory (limit "
                           f"{limits.memory_bytes >> 20} MiB)")
                continue
            except pexpect.EOF:
                break
            size += len(chunk)
            if size > limits.output_bytes:
                why = f"the program is larger than {limits.output_bytes >> 20} MiB"
            chunks.append(chunk)
        ended = None if why else proc.poll(timeout=limits.grace_seconds)
        said = proc.stderr_tail() if ended is not None else ""
    finally:
        proc.kill()
    lasting = why.startswith("the program is larger")  # not out of time or memory
    if not why and ended is not None and ended.returncode == 0:
        files = _untar(b"".join(chunks))
        if files:
            return files, "", True
        why, lasting = "the compiler wrote no program", True
    if not why and ended is not None and ended.oom_killed:
        why = f"the compiler ran out of memory (limit {limits.memory_bytes >> 20} MiB)"
    elif not why and ended is not None:  # its message; unless killed (by a limit, say)
        lasting = ended.signal is None and ended.returncode < 128
        if ended.signal is not None and not said.strip():
            why = f"the compiler was killed ({ended.signal_name})"
    elif not why:
        why = f"the compiler did not end within {limits.grace_seconds} s of its output"
    if name != source.name:
        said = said.replace(name, source.name)
    said = said[-COMPILE_MESSAGE_CHARS:]
    if not why and "File size limit exceeded" in said:  # a tool of it killed by SIGXFSZ
        why = f"the compiler wrote a file larger than {limits.file_bytes >> 20} MiB"
    return None, ("\n".join(filter(None, [said.rstrip(), why]))
                  or f"{Path(command[0]).name} failed"), lasting


def _untar(data: bytes) -> dict[str, tuple[bytes, bool]] | None:
    """The regular files of a tar made by the compile step: (content, runnable) by relative
    path; links, devices and names that leave the folder are dropped (untrusted output)."""
    import tarfile  # only when a program is compiled, not when it comes from the cache

    files: dict[str, tuple[bytes, bool]] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for member in tar:
                rel = os.path.normpath(member.name)
                if (not member.isfile() or rel.startswith(("..", "/")) or rel == "."
                        or "\0" in rel):
                    continue
                fh = tar.extractfile(member)
                if fh is not None:
                    files[rel] = (fh.read(), bool(member.mode & 0o100))
    except tarfile.TarError:
        return None
    return files


def main_class(files: dict[str, tuple[bytes, bool]], public: str, stem: str) -> str:
    """The class (of compiled Java `files`) to run: one with `public static void
    main(String[])`, read from the class files themselves, whatever the source file was
    called; the public top-level class first, then the one named as the file, then a
    top-level one, then a nested one."""
    found = [rel[:-len(".class")].replace("/", ".") for rel, (data, _) in sorted(files.items())
             if rel.endswith(".class") and _has_main(data)]

    def rank(name: str) -> tuple[int, str]:
        simple = name.rpartition(".")[2]
        return (0 if simple == public else 1 if simple == stem else
                2 if "$" not in simple else 3, name)

    return min(found, key=rank) if found else ""


def _has_main(data: bytes) -> bool:
    """Whether a class file declares `public static void main(String[])`."""
    try:
        if data[:4] != b"\xca\xfe\xba\xbe":
            return False
        count, at = struct.unpack_from(">H", data, 8)[0], 10
        utf8: dict[int, bytes] = {}
        index = 1
        while index < count:
            tag = data[at]
            if tag == 1:
                size = struct.unpack_from(">H", data, at + 1)[0]
                utf8[index] = data[at + 3:at + 3 + size]
                at += 3 + size
            elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
                at += 5
            elif tag in (5, 6):
                at += 9
                index += 1  # 8-byte constants take two entries
            elif tag in (7, 8, 16, 19, 20):
                at += 3
            elif tag == 15:
                at += 4
            else:
                return False
            index += 1
        at += 6  # access flags, this class, super class
        interfaces = struct.unpack_from(">H", data, at)[0]
        at += 2 + 2 * interfaces
        for kind in ("fields", "methods"):
            members = struct.unpack_from(">H", data, at)[0]
            at += 2
            for _ in range(members):
                flags, name, desc, attrs = struct.unpack_from(">HHHH", data, at)
                at += 8
                if (kind == "methods" and flags & 0x9 == 0x9  # public static
                        and utf8.get(name) == b"main"
                        and utf8.get(desc) == b"([Ljava/lang/String;)V"):
                    return True
                for _a in range(attrs):
                    length = struct.unpack_from(">I", data, at + 2)[0]
                    at += 6 + length
    except (struct.error, IndexError):
        return False
    return False
