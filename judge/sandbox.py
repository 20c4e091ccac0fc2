"""Turning a bot file into a command, and running it confined: limits, sandbox, cleanup.

A bot runs in its own session and process group, in a private working directory that is
removed afterwards, with a clean environment and resource limits set in the child; it is
killed if the thread that started it dies, even by SIGKILL (PR_SET_PDEATHSIG), and the next
judge removes the directories a killed judge left. Where bubblewrap works the bot also runs
without network, with a read-only view of the system, a private /tmp and its own PID
namespace (so nothing it starts outlives the game).

Processes as root: the kernel never applies RLIMIT_NPROC to a process whose real uid is 0,
not even inside a user namespace, so a root judge cannot stop a fork bomb with rlimits.
The judge then counts the bot's process group while it waits for a move and kills the group
when it grows past `Limits.processes`; under bubblewrap the PID namespace still kills
everything at the end, including processes that left the group with setsid().
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import resource
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import pexpect.fdpexpect

from judge.games.base import InputError
from judge.solvers.cache import cache_dir

#: the values of the `sandbox` option: auto picks bwrap when it is installed and works
SANDBOX_MODES = ("auto", "bwrap", "none")

#: how a C or C++ source is compiled, by suffix (the output and source are appended)
COMPILERS: dict[str, tuple[str, ...]] = {
    ".c": ("gcc", "-O2", "-pipe"),
    ".cpp": ("g++", "-O2", "-pipe"),
}
#: libraries linked after the source, by suffix
LINK_LIBRARIES: dict[str, tuple[str, ...]] = {".c": ("-lm",), ".cpp": ()}
COMPILE_SECONDS = 60
COMPILE_MESSAGE_CHARS = 4000

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
#: private directories are named after the judge's pid, so that a later judge can remove
#: those of a judge that was killed before it could
WORKDIR_PREFIX = "judge-bot-"
_STDERR_CHUNK = 1 << 16
_PR_SET_PDEATHSIG = 1
try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not glibc or musl: bots then outlive a killed judge
    _prctl = None


@dataclass(frozen=True)
class Limits:
    """What a bot may use in one game; the defaults suit Python bots on a modest machine."""

    #: wall-clock seconds for each move after the first
    move_seconds: float = 2.0
    #: wall-clock seconds for the first move (interpreter start-up, building tables)
    first_move_seconds: float = 10.0
    #: CPU seconds for the whole game (RLIMIT_CPU; the kernel counts whole seconds)
    cpu_seconds: int = 60
    #: address space in bytes (RLIMIT_AS): 1 GiB fits CPython with numpy
    memory_bytes: int = 1 << 30
    #: processes and threads the bot may start beyond the user's current ones (RLIMIT_NPROC);
    #: also the size of its process group at which the judge kills it (see module doc)
    processes: int = 32
    #: largest file the bot may write, in bytes (RLIMIT_FSIZE)
    file_bytes: int = 16 << 20
    #: open file descriptors (RLIMIT_NOFILE)
    open_files: int = 64
    #: bytes the judge reads from the bot's stdout in one game
    output_bytes: int = 1 << 20
    #: longest move line in bytes, without the newline
    line_bytes: int = 4096
    #: bytes of the end of the bot's stderr kept for the transcript
    stderr_bytes: int = 8192
    #: moves after which a game of a loopy game is stopped as a tie
    move_limit: int = 200
    #: seconds a bot gets to exit after its input is closed or its output ends
    grace_seconds: float = 1.0

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value <= 0:
                raise InputError(f"limit {name} must be positive, not {value}")


class CompileError(Exception):
    """A C or C++ bot that does not compile; the message is the compiler's output."""


@dataclass(frozen=True)
class Program:
    """A bot ready to run: where it came from and the command line that runs it."""

    source: Path
    argv: tuple[str, ...]

    def shown(self, work: Path) -> Path:
        """What a sandbox must show of the bot: its folder, or just its file.

        The folder (for helper modules beside a script) unless it holds the private
        directory `work`, which must stay private.
        """
        file = Path(self.argv[-1])
        return file if work.is_relative_to(file.parent) else file.parent


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
        # -u: a bot that forgets to flush still works; -B: no __pycache__ next to the bot
        return Program(source, (sys.executable, "-u", "-B", str(source)))
    if suffix in COMPILERS:
        return Program(source, (str(compiled(source)),))
    return Program(source, (str(source),))


def compiled(source: Path) -> Path:
    """The binary built from a C/C++ `source`, compiled once and cached by content."""
    suffix = source.suffix.lower()
    compiler = COMPILERS[suffix]
    key = hashlib.sha256("\0".join(compiler).encode() + b"\0" + source.read_bytes()).hexdigest()
    folder = cache_dir() / "bots"
    binary, failure = folder / key[:32], folder / f"{key[:32]}.err"
    if binary.exists():
        return binary
    if failure.exists():
        raise CompileError(failure.read_text(errors="replace"))
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix="build-") as tmp:
        copy = Path(tmp) / source.name
        shutil.copyfile(source, copy)
        out = Path(tmp) / "bot"
        argv = [*compiler, "-o", str(out), str(copy), *LINK_LIBRARIES[suffix]]
        try:
            proc = subprocess.Popen(
                argv, cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
        except OSError as exc:
            raise InputError(f"bot {source}: cannot run {compiler[0]}: {exc}") from None
        try:
            output, _ = proc.communicate(timeout=COMPILE_SECONDS)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.communicate()
            output = f"the compiler took longer than {COMPILE_SECONDS} s".encode()
        if proc.returncode == 0:
            os.replace(out, binary)
            return binary
        message = output.decode(errors="replace").replace(tmp + "/", "")
        message = message[-COMPILE_MESSAGE_CHARS:] or f"{compiler[0]} failed"
        failed = Path(tmp) / "err"
        failed.write_text(message)
        os.replace(failed, failure)
    raise CompileError(message)


def _bwrap_options(work: Path, shown: tuple[Path, ...]) -> list[str]:
    options = [
        "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
        "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--die-with-parent",
    ]
    if os.geteuid() == 0:
        options += ["--cap-drop", "ALL"]
    for path in shown:  # e.g. a bot under /tmp, hidden by the private /tmp otherwise
        options += ["--ro-bind", str(path), str(path)]
    return [*options, "--bind", str(work), str(work), "--chdir", str(work), "--"]


@functools.cache
def bwrap_path() -> str | None:
    """The bwrap executable when it is installed and can start a sandbox here (checked once)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory(prefix="judge-bwrap-") as tmp:
        try:
            done = subprocess.run(
                [exe, *_bwrap_options(Path(tmp), ()), "true"],
                stdin=subprocess.DEVNULL, capture_output=True, timeout=10,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    return exe if done.returncode == 0 else None


def resolve_sandbox(mode: str) -> str:
    """``bwrap`` or ``none`` for a `sandbox` option; raises `InputError` when impossible."""
    if mode not in SANDBOX_MODES:
        raise InputError(f"sandbox must be one of {', '.join(SANDBOX_MODES)}, not {mode!r}")
    if mode == "auto":
        return "bwrap" if bwrap_path() else "none"
    if mode == "bwrap" and not bwrap_path():
        raise InputError("sandbox=bwrap asked for, but bubblewrap is not installed or fails here")
    return mode


def _user_tasks() -> int:
    """Processes and threads now running under this real uid (what RLIMIT_NPROC counts)."""
    uid, count = os.getuid(), 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            with suppress(OSError):
                st = os.stat(f"/proc/{name}/task")  # its link count is 2 + the threads
                if st.st_uid == uid:
                    count += st.st_nlink - 2
    return count


def _rlimits(limits: Limits) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) for the bot, never above the judge's own hard limits."""
    wanted = [
        # CPU: SIGXCPU at the soft limit, SIGKILL a second later if the bot ignores it
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        (resource.RLIMIT_AS, limits.memory_bytes, limits.memory_bytes),
        (resource.RLIMIT_NPROC, _user_tasks() + limits.processes, None),
        (resource.RLIMIT_FSIZE, limits.file_bytes, None),
        (resource.RLIMIT_NOFILE, limits.open_files, None),
        (resource.RLIMIT_CORE, 0, None),
    ]
    result = []
    for res, soft, hard in wanted:
        ceiling = resource.getrlimit(res)[1]
        hard = soft if hard is None else hard
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        result.append((res, soft, hard))
    return result


def _confine_child(rlimits: list[tuple[int, int, int]], judge: int) -> None:
    # runs in the child between fork and exec: keep it to system calls
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # die with the judge, even if it is killed
        if os.getppid() != judge:  # it died before that took effect
            os._exit(1)
    for res, soft, hard in rlimits:
        resource.setrlimit(res, (soft, hard))


def remove_stale_workdirs() -> None:
    """Remove the private directories left by judges that were killed (once per process)."""
    for path in Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}*-*"):
        pid = path.name[len(WORKDIR_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            with suppress(OSError):
                _remove_tree(path)


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def group_members(pgid: int) -> list[int]:
    """The live (not zombie) processes whose process group is `pgid`."""
    members = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    fields = fh.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != b"Z":
                members.append(int(name))
    return members


def marked_processes(token: str) -> list[int]:
    """Live processes whose environment carries ``JUDGE_BOT=<token>``: a bot's descendants
    even after they left its process group and session (readable as root or the same user)."""
    mark = f"JUDGE_BOT={token}".encode()
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open(f"/proc/{name}/environ", "rb") as fh:
                    if mark in fh.read().split(b"\0"):
                        found.append(int(name))
            except OSError:
                continue
    return found


def _remove_tree(path: Path) -> None:
    def retry(func, name, _exc) -> None:  # a bot may have left a directory without rights
        with suppress(OSError):
            os.chmod(os.path.dirname(name), 0o700)
            os.chmod(name, 0o700)
            func(name)

    shutil.rmtree(path, onerror=retry)


_sweep_once = functools.cache(remove_stale_workdirs)


class _StderrTail(threading.Thread):
    """Drains the bot's stderr pipe, keeping only its last bytes, so that it never blocks."""

    def __init__(self, fd: int, keep: int) -> None:
        super().__init__(daemon=True, name="bot-stderr")
        self.fd, self.keep = fd, keep
        self.data = bytearray()
        self.total = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                ready, _, _ = select.select([self.fd], [], [], 0.2)
                if not ready:
                    continue
                chunk = os.read(self.fd, _STDERR_CHUNK)
                if not chunk:
                    break
                self.total += len(chunk)
                self.data += chunk
                if len(self.data) > 2 * self.keep:
                    del self.data[: -self.keep]
        finally:
            os.close(self.fd)

    def text(self) -> str:
        """The kept tail, decoded, saying how much came before it."""
        tail = bytes(self.data[-self.keep :])
        dropped = self.total - len(tail)
        text = tail.decode(errors="replace")
        return f"[{dropped} earlier bytes not kept]\n{text}" if dropped else text


@dataclass(frozen=True)
class Exit:
    """How a bot process ended: exit status or signal, and what it used."""

    returncode: int  # negative: killed by that signal
    cpu_seconds: float
    #: the most memory seen: its peak resident size, or the largest address space sampled
    memory_bytes: int

    @property
    def signal(self) -> int | None:
        """The signal that killed the bot, if any."""
        return -self.returncode if self.returncode < 0 else None


class Confined:
    """One bot process under its limits: pipes (or a pty), private directory, stderr tail."""

    def __init__(
        self, program: Program, limits: Limits, sandbox: str = "auto", pty: bool = False,
        files: dict[str, bytes] | None = None, env: dict[str, str] | None = None,
    ) -> None:
        """Start `program` with `files` (name -> content) in its private directory and `env`
        added to its clean environment; raises
        `InputError` for a bad `sandbox`, `OSError` if exec fails."""
        self.limits = limits
        self.mode = resolve_sandbox(sandbox)
        _sweep_once()
        self.workdir = Path(tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-"))
        for name, content in (files or {}).items():
            (self.workdir / name).write_bytes(content)
        self.exit: Exit | None = None
        self._closed = False
        self._pid: int | None = None
        self._proc_fds: dict[str, int] = {}
        self._cpu = 0.0
        self._memory = 0
        argv = list(program.argv)
        if self.mode == "bwrap":
            shown = (program.shown(self.workdir),)
            argv = [bwrap_path() or "bwrap", *_bwrap_options(self.workdir, shown), *argv]
        env = {
            "PATH": SAFE_PATH, "LANG": "C.UTF-8", "HOME": str(self.workdir),
            "TMPDIR": str(self.workdir), **(env or {}),
        }
        # without bubblewrap's PID namespace, this mark finds processes that escaped the group
        self._token = secrets.token_hex(8)
        env["JUDGE_BOT"] = self._token
        err_read, err_write = os.pipe()
        if pty:
            self._master, slave = os.openpty()
            attrs = termios.tcgetattr(slave)
            attrs[1] &= ~termios.OPOST  # "\n" stays "\n"
            attrs[3] &= ~(termios.ECHO | termios.ECHONL)
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            stdin = stdout = slave
        else:
            self._master, slave = -1, -1
            stdin = stdout = subprocess.PIPE
        try:
            self.popen = subprocess.Popen(
                argv, stdin=stdin, stdout=stdout, stderr=err_write, cwd=self.workdir, env=env,
                start_new_session=True,
                preexec_fn=functools.partial(_confine_child, _rlimits(limits), os.getpid()),
            )
        except BaseException:
            for fd in (err_read, self._master):
                if fd >= 0:
                    os.close(fd)
            _remove_tree(self.workdir)
            raise
        finally:
            os.close(err_write)
            if slave >= 0:
                os.close(slave)
        self.pgid = self.popen.pid
        self._stderr = _StderrTail(err_read, limits.stderr_bytes)
        self._stderr.start()
        out_fd = self._master if pty else self.popen.stdout.fileno()
        self._in_fd = self._master if pty else self.popen.stdin.fileno()
        os.set_blocking(self._in_fd, False)
        #: the bot's output, read with deadlines through pexpect
        self.output = pexpect.fdpexpect.fdspawn(out_fd, timeout=None)
        self.output.delaybeforesend = None  # pexpect sleeps 50 ms per send by default
        self.output.delayafterread = None  # ... and 0.1 ms after every read

    def send(self, data: bytes, timeout: float) -> None:
        """Write `data` to the bot's input; raises `TimeoutError` if it is not taken in time.

        A bot that has closed its input or died is not an error here: what it wrote (or
        did not) tells the caller what happened.
        """
        view = memoryview(data)
        deadline = None
        while view:
            try:
                view = view[os.write(self._in_fd, view) :]
            except BlockingIOError:
                deadline = deadline or time.monotonic() + timeout
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [self._in_fd], [], left)[1]:
                    raise TimeoutError("the bot does not read its input") from None
            except OSError:  # a broken pipe, or a pty whose other side is gone
                return

    def close_input(self) -> None:
        """Tell the bot its input has ended (EOF)."""
        if self._master >= 0:
            with suppress(OSError, TimeoutError):
                self.send(termios.tcgetattr(self._master)[6][termios.VEOF], 0.1)
        elif self.popen.stdin and not self.popen.stdin.closed:
            with suppress(OSError):
                self.popen.stdin.close()

    def poll(self, timeout: float = 0.0) -> Exit | None:
        """How the bot ended, waiting up to `timeout` s; None while it still runs."""
        deadline = time.monotonic() + timeout
        pause = 0.0005  # a bot told to stop usually exits within a millisecond
        while self.exit is None:
            pid, status, usage = os.wait4(self.popen.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                self.popen.returncode = code
                if self.mode == "bwrap" and code > 128:
                    code = 128 - code  # bwrap reports a child killed by signal N as 128 + N
                # under bwrap the usage of the namespace's processes does not reach us: the
                # figures sampled while the bot ran stand in for it
                cpu = max(usage.ru_utime + usage.ru_stime, self._cpu)
                self.exit = Exit(code, cpu, max(usage.ru_maxrss * 1024, self._memory))
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(left, pause))
            pause = min(2 * pause, 0.01)
        return self.exit

    def process_count(self) -> int:
        """How many live processes are in the bot's process group (sandbox helpers included)."""
        return len(group_members(self.pgid))

    def cpu_seconds(self) -> float:
        """CPU time the bot's own process has used so far (from /proc/PID/schedstat, in ns)."""
        if self.exit is not None:
            return self.exit.cpu_seconds
        fd = self._proc_fd("schedstat")
        if fd is not None:
            try:
                self._cpu = int(os.pread(fd, 128, 0).split(None, 1)[0]) / 1e9
            except OSError:  # it has died
                pass
        return self._cpu

    def sample_memory(self) -> int:
        """The largest address space of the bot seen so far, sampled now (bytes)."""
        fd = self._proc_fd("stat")
        if fd is not None:
            with suppress(OSError):
                vsize = int(os.pread(fd, 1024, 0).rsplit(b")", 1)[1].split()[20])
                self._memory = max(self._memory, vsize)
        return self._memory

    def _proc_fd(self, name: str) -> int | None:
        """An open /proc/PID/`name` of the bot, kept for cheap re-reading with pread."""
        fd = self._proc_fds.get(name)
        if fd is None:
            pid = self._bot_pid()
            if pid is None:
                return None
            try:
                fd = self._proc_fds[name] = os.open(f"/proc/{pid}/{name}", os.O_RDONLY)
            except OSError:
                return None
        return fd

    def output_closed(self) -> bool:
        """Whether the bot is alive but has closed its standard output."""
        pid = self._bot_pid()
        if pid is None:
            return False
        try:
            os.readlink(f"/proc/{pid}/fd/1")
            return False
        except FileNotFoundError:  # no fd 1: closed, or the bot is dead (its status tells)
            pass
        except OSError:
            return False
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except OSError:
            return False

    def _bot_pid(self) -> int | None:
        """The bot's own process (under bwrap: bwrap -> bwrap, PID 1 of the namespace -> bot)."""
        if self._pid is None:
            pid = self.popen.pid
            for _ in range(2 if self.mode == "bwrap" else 0):
                try:
                    with open(f"/proc/{pid}/task/{pid}/children") as fh:
                        children = fh.read().split()
                except OSError:
                    return None
                if not children:
                    return None
                pid = int(children[0])
            self._pid = pid
        return self._pid

    def stderr_tail(self) -> str:
        """The end of what the bot wrote to stderr (all of it once the bot has exited)."""
        if self.exit is not None:
            self._stderr.join(timeout=0.5)  # the pipe ends soon after the bot does
        return self._stderr.text()

    def kill(self) -> None:
        """Kill every process of the bot, reap it, and remove its directory (idempotent)."""
        if self._closed:
            return
        self._closed = True
        _kill_group(self.pgid)
        if self.poll(timeout=5.0) is None:  # only a process stuck in the kernel gets here
            self.popen.wait()
        # what the bot started may still be dying (under bwrap, the namespace's PID 1 waits
        # for all of it): return only when the group is gone
        deadline = time.monotonic() + 5.0
        while group_members(self.pgid) and time.monotonic() < deadline:
            _kill_group(self.pgid)
            time.sleep(0.005)
        if self.mode == "none":  # a bot that forked and called setsid left the group
            for _ in range(3):
                escaped = marked_processes(self._token)
                if not escaped:
                    break
                for pid in escaped:
                    with suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.01)
        self._stderr.stopping.set()
        self._stderr.join(timeout=1.0)
        for stream in (self.popen.stdin, self.popen.stdout):
            if stream:
                with suppress(OSError):
                    stream.close()
        for fd in (self._master, *self._proc_fds.values()):
            if fd >= 0:
                os.close(fd)
        _remove_tree(self.workdir)
