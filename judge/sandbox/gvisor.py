"""The `gvisor` tier: each bot's game in a gVisor sandbox of its own (runsc), a kernel of
its own, so that nothing the shared kernel keeps machine-wide (eventfd ids, the routing
netlink's statistics, the page cache's residency, process names) reaches it.

Each game gets an OCI bundle made for it (a `config.json` and an empty read-only root,
below which runsc shows the system's folders, the bot's runtime and file read-only and a
tmpfs of `--disk` bytes as its work dir and /tmp), started with ``runsc run`` and no
network; its stdin and stdout are the judge's pipes. The sandbox's kernel (the sentry)
enforces the bot's rlimits (address space, processes, files); the judge sums the CPU and
memory of the sandbox's host processes (the sentry and the stubs that run the bot's code),
and at the game's end kills them all and deletes the container, leaving nothing in
runsc's state folder. As root the sandbox runs as nobody; as an ordinary user runsc runs
rootless (the sandbox and its gofer as the judge's user, in a user namespace of their
own), with the same bundle, limits and view.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import signal
import subprocess
import tempfile
import termios
from contextlib import suppress
from pathlib import Path

import pexpect.fdpexpect

from judge.sandbox.cleanup import remove_tree
from judge.sandbox.commandline import libc_prctl
from judge.sandbox.launcher import Spawned, Started
from judge.sandbox.limits import Limits
from judge.sandbox.meters import PAGE, TICKS, descendants, stat_fields, status_kib
from judge.sandbox.program import Program
from judge.sandbox.spawning import popen
from judge.sandbox.tiers import runsc_argv, runsc_path, state_dir

#: how long a sandbox whose bot has ended may take to end (runsc run's exit), at most
TEARDOWN_SECONDS = 2.0
#: the uid and gid the bot has inside its sandbox (the sandbox's kernel's, no capability)
GUEST_ID = 65534


#: system folders shown read-only (a link stays a link)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: the work dir, which is also /tmp: a tmpfs of the sandbox's kernel, --disk bytes
BOT_DIR = "/tmp"


def _bind(path: str, where: str | None = None) -> dict[str, object]:
    return {"destination": where or path, "type": "bind", "source": path,
            "options": ["rbind", "ro", "nosuid", "nodev"]}


def bundle(folder: Path, program: Program, limits: Limits, files: dict[str, bytes],
           env: dict[str, str]) -> None:
    """Write in `folder` the OCI bundle of one game: an empty read-only root, and mounts
    that show the system, the /etc that programs need, the bot's runtime and file
    read-only, a tmpfs of --disk bytes as work dir and /tmp and another as /dev/shm; the
    bot's rlimits; no network, no capability, no new privileges."""
    from judge.sandbox.commandline import SYSTEM_FILES, _etc_view, rlimits

    root = folder / "rootfs"
    root.mkdir(mode=0o755)
    mounts: list[dict[str, object]] = [{"destination": "/proc", "type": "proc",
                                        "source": "proc"}]
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            os.symlink(os.readlink(path), root / path.lstrip("/"))
        elif os.path.isdir(path):
            mounts.append(_bind(path))
    shown = program.shown_paths()
    etc = tuple(str(p) for p in shown if p.is_relative_to("/etc"))
    wanted = [p for p in dict.fromkeys((*SYSTEM_FILES, *etc)) if os.path.exists(p)]
    view = _etc_view(tuple(wanted)) if wanted else None
    if view is not None:
        mounts.append(_bind(str(view), "/etc"))
    else:
        mounts += [_bind(p) for p in wanted]
    size = f"size={limits.disk_bytes}"
    mounts += [{"destination": BOT_DIR, "type": "tmpfs", "source": "tmpfs",
                "options": ["nosuid", "nodev", "mode=1777", size]},
               {"destination": "/dev/shm", "type": "tmpfs", "source": "tmpfs",
                "options": ["nosuid", "nodev", "mode=1777", size]}]
    mounts += [_bind(str(p)) for p in shown if str(p) not in etc]
    if files:  # handed over read-only beside the work dir: /tmp is the sandbox's tmpfs
        given = folder / "files"
        given.mkdir(mode=0o755)
        for name, content in files.items():
            (given / name).write_bytes(content)
            os.chmod(given / name, 0o644)
            mounts.append(_bind(str(given / name), f"{BOT_DIR}/{name}"))
    limits_of = rlimits(limits, True, 0, program.address_space)
    names = {getattr(__import__("resource"), n): n for n in
             ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_NOFILE",
              "RLIMIT_CORE", "RLIMIT_SIGPENDING")}
    config = {
        "ociVersion": "1.0.0",
        "process": {
            "terminal": False, "user": {"uid": GUEST_ID, "gid": GUEST_ID},
            "args": list(program.argv), "cwd": BOT_DIR,
            "env": [f"{k}={v}" for k, v in env.items()],
            "rlimits": [{"type": names[res], "soft": soft, "hard": hard}
                        for res, soft, hard in limits_of],
            "noNewPrivileges": True,
            "capabilities": {k: [] for k in ("bounding", "effective", "inheritable",
                                             "permitted", "ambient")},
        },
        "root": {"path": "rootfs", "readonly": True},
        "hostname": "bot",
        "mounts": mounts,
        "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts",
                                                         "mount")]},
    }
    (folder / "config.json").write_text(json.dumps(config))


def holds(pid: int, inode: int) -> bool:
    """Whether process `pid` has a descriptor of the pipe `inode` (False once it is gone)."""
    mark = f"pipe:[{inode}]"
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == mark:
                    return True
    except OSError:
        return False
    return False


class SandboxMeter:
    """The judge's sums over the sandbox's host processes: its kernel (the sentry) and the
    stubs that run the bot's code, and its gofer. CPU counts them all (the bot's system
    calls are the sentry's work, its opens and reads of the host's files the gofer's);
    memory counts what the sandbox's kernel holds of the bot's (its memory
    file's pages: the bot's memory, mapped or not, its tmpfs and pipes), what the stubs
    map besides (the host's files: its program, its libraries), and the kernel's and the
    gofer's own memory (their heaps: the bot's files and folders as the kernel keeps them,
    its pipes' and sockets' buffers), some 5 MiB for a bot that keeps none."""

    kernel_peak = False

    def __init__(self, limits: Limits, runsc: int) -> None:
        self.limits, self._runsc = limits, runsc
        self._sentry: int | None = None
        self._cpu = 0.0
        self._rss = self._peak = 0
        self._memory_file: str | None = None

    def sentry(self) -> int | None:
        """The sandbox's kernel process (runsc-sandbox), a child of runsc run."""
        if self._sentry is None:
            for pid in descendants(self._runsc):
                with suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as fh:
                    if b" boot " in fh.read().replace(b"\0", b" "):
                        self._sentry = pid
                        break
        return self._sentry

    def memory_file(self, sentry: int) -> int:
        """Bytes the sandbox's kernel has allocated in its memory file (`runsc-memory`),
        which holds all the bot's memory: also what it maps nowhere (a memory file it wrote
        to, a page of its tmpfs), which no process's resident size shows."""
        if self._memory_file is None:
            with suppress(OSError):
                for fd in os.listdir(f"/proc/{sentry}/fd"):
                    with suppress(OSError):
                        if os.readlink(f"/proc/{sentry}/fd/{fd}").startswith(
                                "/memfd:runsc-memory"):
                            self._memory_file = f"/proc/{sentry}/fd/{fd}"
                            break
        if self._memory_file is None:
            return 0
        try:
            return os.stat(self._memory_file).st_blocks * 512
        except OSError:
            return 0

    def look(self) -> None:
        """Sum CPU and memory now."""
        sentry = self.sentry()
        if sentry is None:
            return
        cpu = rss = 0
        seen = False
        stubs = set(descendants(sentry))
        # (runsc run's children: the sentry and the gofer, the sandbox's file server,
        # which opens and reads the host's files for the bot)
        for node in {*descendants(self._runsc), sentry, *stubs}:
            fields = stat_fields(node)
            if fields is None:
                continue
            seen = True
            cpu += sum(int(f) for f in fields[11:15])
            if node in stubs:  # (what they map of the memory file is counted there)
                rss += int(fields[21]) * PAGE - (status_kib(node, b"RssShmem:") << 10)
            else:  # the sandbox's kernel and gofer: what they hold for the bot
                rss += status_kib(node, b"RssAnon:") << 10
        if seen:
            self._cpu = max(self._cpu, cpu / TICKS)
            self._rss = rss + self.memory_file(sentry)
            self._peak = max(self._peak, self._rss)

    def cpu_seconds(self) -> float:
        self.look()
        return self._cpu

    def memory_peak(self) -> int:
        return self._peak

    def process_count(self) -> int:
        return 0  # (the sandbox's kernel bounds them: RLIMIT_NPROC)

    def hit_process_limit(self) -> bool:
        return False

    def killed_for_memory(self) -> bool:
        return self._rss > self.limits.memory_bytes

    def alone(self, threads: int) -> bool:
        return False


def start(program: Program, limits: Limits, files: dict[str, bytes] | None,
          env: dict[str, str], stdio: tuple[int, int, int]) -> tuple[Spawned, Path, str]:
    """Start `program` in a sandbox of its own: runsc run, its stdio `stdio`. Returns what
    was started, the bundle's folder and the container's id."""
    sweep_state()
    folder = Path(tempfile.mkdtemp(prefix="judge-gvisor-"))
    os.chmod(folder, 0o755)
    name = f"judge-{os.getpid()}-{secrets.token_hex(6)}"
    try:
        bundle(folder, program, limits, files or {}, env)
        # runsc run dies with the judge (its sandbox, --attached, and its gofer with it)
        started = popen(
            [*runsc_argv(), "run", "--bundle", str(folder), name],
            stdin=stdio[0], stdout=stdio[1], stderr=stdio[2], cwd="/",
            env={"PATH": "/usr/bin:/bin"}, start_new_session=True,
            preexec_fn=functools.partial(_die_with, os.getpid(), libc_prctl()))
    except BaseException:
        remove_tree(folder)
        raise
    return Spawned(started), folder, name


def _die_with(judge: int, prctl) -> None:  # noqa: ANN001 - libc's prctl, or None
    # runs in the child between fork and exec
    if prctl is not None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != judge:
            os._exit(1)


def sweep_state() -> None:
    """Delete the containers of judges that were killed (their pid, in the container's
    name, is gone): a killed judge's sandbox dies with it, its state is left (looked for
    at every start: one listing of a folder that holds the games now playing)."""
    if runsc_path() is None:
        return
    state = state_dir()
    for entry in state.glob("judge-*.state"):
        parts = entry.name.split("-")
        if len(parts) > 2 and parts[1].isdigit() and not os.path.exists(f"/proc/{parts[1]}"):
            with suppress(OSError, subprocess.TimeoutExpired):
                subprocess.run([*runsc_argv(), "delete", "--force",
                                entry.name.split("_sandbox")[0].removesuffix(".state")],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    for entry in state.glob("*judge-*"):
        parts = entry.name.split("judge-", 1)[1].split("-")
        if parts[0].isdigit() and not os.path.exists(f"/proc/{parts[0]}"):
            with suppress(OSError):
                entry.unlink()


def end(started: Started, meter: SandboxMeter, folder: Path, name: str) -> None:
    """Kill everything the sandbox runs, reap runsc, delete the container's state and the
    bundle: nothing is left."""
    sentry = meter.sentry()
    # the sandbox and its stubs are sessions of their own (they die with runsc run too:
    # the sandbox is --attached, the stubs die with it); all found before any is killed
    stubs = descendants(sentry) if sentry is not None else []
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(started.pid, signal.SIGKILL)
    for pid in [p for p in (sentry, *stubs) if p is not None]:
        with suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    if not started.wait(5.0):
        started.wait(None)
    state = state_dir()
    if any(state.glob(f"*{name}*")):
        with suppress(OSError, subprocess.TimeoutExpired):
            subprocess.run([*runsc_argv(), "delete", "--force", name],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    for left in state.glob(f"*{name}*"):
        with suppress(OSError):
            left.unlink()
    remove_tree(folder)


def pipes(pty: bool) -> tuple[int, int, int, int, int]:
    """(the bot's stdin, its stdout, the judge's input end, output end, pty master)."""
    if pty:
        master, slave = os.openpty()
        attrs = termios.tcgetattr(slave)
        attrs[1] &= ~termios.OPOST
        attrs[3] &= ~(termios.ECHO | termios.ECHONL)
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        return slave, slave, master, master, master
    theirs_in, mine_in = os.pipe()
    mine_out, theirs_out = os.pipe()
    return theirs_in, theirs_out, mine_in, mine_out, -1


def output_of(fd: int) -> pexpect.fdpexpect.fdspawn[bytes]:
    """The bot's output read through pexpect, as in every tier."""
    output: pexpect.fdpexpect.fdspawn[bytes] = pexpect.fdpexpect.fdspawn(fd, timeout=None)
    output.delaybeforesend = None
    output.delayafterread = None
    return output
