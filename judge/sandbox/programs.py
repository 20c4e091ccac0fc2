"""Turning a bot file into a command: interpreters, and C/C++ compiled once and cached."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from judge.games.base import InputError

#: how a C or C++ source is compiled, by suffix (the output and source are appended)
COMPILERS: dict[str, tuple[str, ...]] = {
    ".c": ("gcc", "-O2", "-pipe"),
    ".cpp": ("g++", "-O2", "-pipe"),
}
#: libraries linked after the source, by suffix
LINK_LIBRARIES: dict[str, tuple[str, ...]] = {".c": ("-lm",), ".cpp": ()}
COMPILE_SECONDS = 60
#: part of every compiled bot's cache key: bump when the way bots are built changes
COMPILE_VERSION = "confined-1"
COMPILE_MESSAGE_CHARS = 4000


class CompileError(Exception):
    """A C or C++ bot that does not compile; the message is the compiler's output."""


@dataclass(frozen=True)
class Program:
    """A bot ready to run: where it came from, the command line, and what it must see."""

    source: Path
    argv: tuple[str, ...]
    #: folders of its runtime beyond the system's (an interpreter installed elsewhere)
    runtime: tuple[Path, ...] = ()
    #: what a sandbox must show of it, when not its own file (the last argument)
    shows: tuple[Path, ...] | None = None

    def shown(self) -> Path:
        """The bot's own file (its last argument): a sandbox shows it, nothing beside it."""
        return Path(self.argv[-1])

    def shown_paths(self) -> tuple[Path, ...]:
        """Everything a sandbox must show of the program, beyond the system."""
        return (*self.runtime, *((self.shown(),) if self.shows is None else self.shows))


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
    import site

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
    """The bot file, resolved; raises `InputError` when it is missing or cannot be run."""
    source = Path(path).resolve()
    if not source.is_file():
        raise InputError(f"bot {path}: no such file")
    if not os.access(source, os.R_OK):
        raise InputError(f"bot {path}: the file cannot be read")
    if source.suffix.lower() not in (".py", *COMPILERS) and not os.access(source, os.X_OK):
        raise InputError(f"bot {path}: not executable, and not a .py, .c or .cpp file")
    return source


def program_for(path: str | Path) -> Program:
    """The command for a bot file; raises `InputError` (bad path) or `CompileError`."""
    source = check_bot_path(path)
    suffix = source.suffix.lower()
    if suffix == ".py":
        # -u: a bot that forgets to flush still works; -B: no __pycache__ next to the bot;
        # -S and the launcher: the judge's site-packages without running its .pth files
        return Program(source, (sys.executable, "-S", "-u", "-B", "-c", _launcher(),
                                str(source)), _python_runtime())
    if suffix in COMPILERS:
        return Program(source, (str(compiled(source)),))
    return Program(source, (str(source),))


#: what compiling one bot may use: it runs confined like a bot, as untrusted work (a
#: source may `#include` or `.incbin` any file it can see, or make the compiler explode)
COMPILE_LIMITS = {
    "first_move_seconds": COMPILE_SECONDS, "cpu_seconds": COMPILE_SECONDS,
    "memory_bytes": 2 << 30, "processes": 16, "disk_bytes": 256 << 20,
    "file_bytes": 256 << 20, "open_files": 256, "output_bytes": 64 << 20,
    "stderr_bytes": COMPILE_MESSAGE_CHARS, "grace_seconds": 1.0,
}


def compiled(source: Path) -> Path:
    """The binary built from a C/C++ `source`, compiled once (confined, in the strongest
    tier this machine has) and cached by content; raises `CompileError`."""
    from judge.solvers.cache import cache_dir

    suffix = source.suffix.lower()
    compiler = COMPILERS[suffix]
    # the version names how binaries are built: none built unconfined (before it) is used
    key = hashlib.sha256("\0".join((COMPILE_VERSION, *compiler)).encode() + b"\0"
                         + source.read_bytes()).hexdigest()
    folder = cache_dir() / "bots"
    binary, failure = folder / key[:32], folder / f"{key[:32]}.err"
    if binary.exists():
        return binary
    if failure.exists():
        raise CompileError(failure.read_text(errors="replace"))
    folder.mkdir(parents=True, exist_ok=True)
    built, message = _compile(compiler, source, LINK_LIBRARIES[suffix])
    with tempfile.TemporaryDirectory(dir=folder, prefix="build-") as tmp:
        if built is not None:
            out = Path(tmp) / "bot"
            out.write_bytes(built)
            os.chmod(out, 0o755)
            os.replace(out, binary)
            return binary
        failed = Path(tmp) / "err"
        failed.write_text(message)
        os.replace(failed, failure)
    raise CompileError(message)


def _compile(compiler: tuple[str, ...], source: Path,
             libraries: tuple[str, ...]) -> tuple[bytes | None, str]:
    """(the binary, "") or (None, the compiler's message): the compiler runs as a bot does,
    in its own work dir with the source, and writes the binary to its standard output."""
    import shlex
    import time

    import pexpect

    from judge.sandbox.limits import Limits
    from judge.sandbox.process import Confined

    name = "source" + source.suffix.lower()
    command = shlex.join([*compiler, "-o", "bot", name, *libraries]) + " && cat bot"
    program = Program(source, ("/bin/sh", "-c", command), shows=())
    limits = Limits(**COMPILE_LIMITS)
    proc = Confined(program, limits, "auto", files={name: source.read_bytes()})
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
    if not why and ended is not None and ended.returncode == 0:
        return b"".join(chunks), ""
    if not why and ended is not None and ended.oom_killed:
        why = f"the compiler ran out of memory (limit {limits.memory_bytes >> 20} MiB)"
    said = said.replace(name, source.name)[-COMPILE_MESSAGE_CHARS:]
    return None, "\n".join(filter(None, [said.rstrip(), why])) or f"{compiler[0]} failed"
