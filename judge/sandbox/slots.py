"""Game slots: as root, each concurrent game gets a uid and cgroups of its own (as isolate's
boxes do), taken with a lock that every judge on the machine respects.

A slot's uid owns nothing and runs nothing outside its games, so file permissions and
RLIMIT_NPROC bind the bot and it can neither signal nor trace the judge. Its cgroups (v1
controllers memory, pids and cpuacct, made under the judge's own) count the bot's memory,
processes and CPU over all of its processes and threads, and list them for killing.
"""

from __future__ import annotations

import fcntl
import functools
import os
import pwd
import signal
import time
from contextlib import suppress
from pathlib import Path

#: uids of slots start here (as isolate's boxes); a uid that names a user is skipped
UID_BASE = 60000
#: how many slots a machine may have at once
MAX_SLOTS = 256
#: where the slot locks live (machine-wide, root only)
LOCK_DIR = Path("/run/lock/judge-slots")
#: the slots' work dir mount points, which a slot's uid can reach (root's, mode 0755)
BOX_DIR = Path("/run/judge-boxes")
#: copies that a slot's uid may read of bot files that are private to the judge's user;
#: the folder may be crossed but not listed (mode 0711): a bot finds only a copy whose
#: content it knows
COPIES = BOX_DIR / "copies"
CONTROLLERS = ("memory", "pids", "cpuacct")


def _v1_mounts() -> dict[str, Path]:
    """Mount points of the cgroup v1 controllers we use."""
    found: dict[str, Path] = {}
    with suppress(OSError), open("/proc/self/mountinfo") as fh:
        for line in fh:
            left, _, right = line.partition(" - ")
            fields, after = left.split(), right.split()
            if len(after) >= 3 and after[0] == "cgroup":
                for ctrl in after[2].split(","):
                    if ctrl in CONTROLLERS:
                        found.setdefault(ctrl, Path(fields[4]))
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path per v1 controller."""
    own: dict[str, str] = {}
    with suppress(OSError), open("/proc/self/cgroup") as fh:
        for line in fh:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for ctrl in ctrls.split(","):
                own[ctrl] = path
    return own


@functools.cache
def cgroup_bases() -> dict[str, Path] | None:
    """Where slot cgroups are made, per controller; None when they cannot be made here."""
    if os.geteuid() != 0:
        return None
    mounts, own = _v1_mounts(), _own_cgroups()
    if set(mounts) != set(CONTROLLERS):
        return None
    bases = {c: mounts[c] / own.get(c, "/").lstrip("/") for c in CONTROLLERS}
    probe = f"judge-probe-{os.getpid()}"
    try:
        for base in bases.values():
            (base / probe).mkdir(exist_ok=True)
            (base / probe).rmdir()
    except OSError:
        return None
    return bases


def _write(path: Path, value: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


class Slot:
    """One game slot: its uid and (when the machine allows) its cgroups."""

    def __init__(self, number: int, lock_fd: int, uid: int) -> None:
        self.number, self.uid, self._lock = number, uid, lock_fd
        self.cgroups: dict[str, Path] | None = None
        self._fds: dict[str, int] = {}
        self._limits: tuple[int, int] | None = None
        self._oom_kills = 0
        self._fork_failures = 0
        self._procs: dict[str, int] = {}
        bases = cgroup_bases()
        if bases is not None:
            try:
                self.cgroups = {c: b / f"judge-slot-{number}" for c, b in bases.items()}
                for path in self.cgroups.values():
                    path.mkdir(exist_ok=True)
                for name in ("pids.current", "pids.events", "cpuacct.usage",
                             "memory.max_usage_in_bytes", "memory.usage_in_bytes",
                             "memory.oom_control"):
                    ctrl = name.split(".", 1)[0]
                    mode = os.O_RDWR if name in ("cpuacct.usage", "memory.max_usage_in_bytes") \
                        else os.O_RDONLY
                    self._fds[name] = os.open(self.cgroups[ctrl] / name, mode | os.O_CLOEXEC)
            except OSError:
                self.cgroups = None
        self.kill_all()

    def release(self) -> None:
        """Give the slot up: its descriptors and its lock."""
        for fd in (*self._fds.values(), *self._procs.values(), self._lock):
            with suppress(OSError):
                os.close(fd)

    def box(self) -> Path:
        """The slot's work dir: an empty folder of root's on which each game's bot gets a
        private tmpfs (in its own mount namespace, so nothing is ever written to it)."""
        path = BOX_DIR / str(self.number)
        if not path.is_dir():
            BOX_DIR.mkdir(mode=0o755, exist_ok=True)
            path.mkdir(mode=0o755, exist_ok=True)
        return path

    # --- per game ----------------------------------------------------------------------
    def prepare(self, memory_bytes: int, processes: int) -> dict[str, int]:
        """Reset the counters for a new game; fds of the cgroup.procs files to join, by
        controller (kept open by the slot: a bot's helper gets copies)."""
        if self.cgroups is None:
            return {}
        cg = self.cgroups
        if self._limits != (memory_bytes, processes):
            mem = cg["memory"]
            memsw = mem / "memory.memsw.limit_in_bytes"
            # memsw must stay >= the memory limit: widen first, then set both
            with suppress(OSError):
                _write(memsw, "-1")
            _write(mem / "memory.limit_in_bytes", str(memory_bytes))
            with suppress(OSError):
                _write(memsw, str(memory_bytes))
            with suppress(OSError):
                _write(mem / "memory.swappiness", "0")
            _write(cg["pids"] / "pids.max", str(processes))
            self._limits = (memory_bytes, processes)
        os.pwrite(self._fds["cpuacct.usage"], b"0", 0)
        if self._read("memory.usage_in_bytes"):
            # page cache an earlier game left charged to the slot: given back, so that this
            # game's peak is its own
            with suppress(OSError):
                _write(cg["memory"] / "memory.force_empty", "0")
        os.pwrite(self._fds["memory.max_usage_in_bytes"], b"0", 0)
        self._oom_kills = self.oom_kills()
        self._fork_failures = self.fork_failures()
        if not self._procs:
            self._procs = {c: os.open(cg[c] / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                           for c in cg}
        return dict(self._procs)

    def _read(self, name: str) -> int:
        return int(os.pread(self._fds[name], 64, 0))

    def cpu_seconds(self) -> float:
        """CPU time of every process of the game so far."""
        return self._read("cpuacct.usage") / 1e9

    def memory_peak(self) -> int:
        """The most memory the game's processes held at once (bytes, tmpfs included)."""
        return self._read("memory.max_usage_in_bytes")

    def process_count(self) -> int:
        """Processes and threads now in the slot."""
        return self._read("pids.current")

    def oom_kills(self) -> int:
        """How many times the kernel killed a process of the slot for memory, ever."""
        if self.cgroups is None:
            return 0
        with suppress(OSError, ValueError, KeyError):
            text = os.pread(self._fds["memory.oom_control"], 256, 0)
            return int(text.split(b"oom_kill ", 1)[1].split()[0])
        return 0

    def fork_failures(self) -> int:
        """How many times a process of the slot could not start one for the limit, ever."""
        if self.cgroups is None:
            return 0
        with suppress(OSError, ValueError, KeyError, IndexError):
            return int(os.pread(self._fds["pids.events"], 64, 0).split()[1])
        return 0

    def hit_process_limit(self) -> bool:
        """Whether the game's bot tried to have more processes than its limit."""
        return self.cgroups is not None and self.fork_failures() > self._fork_failures

    def killed_for_memory(self) -> bool:
        """Whether the kernel killed a process of this game for memory."""
        return self.cgroups is not None and self.oom_kills() > self._oom_kills

    def members(self) -> list[int]:
        """Pids of the processes in the slot's cgroup (empty without cgroups)."""
        if self.cgroups is None:
            return []
        with suppress(OSError), open(self.cgroups["pids"] / "cgroup.procs") as fh:
            return [int(p) for p in fh.read().split()]
        return []

    def kill_all(self, timeout: float = 5.0) -> bool:
        """SIGKILL every process of the slot until none is left; False if some remain."""
        deadline = time.monotonic() + timeout
        pause = 0.0002
        while True:
            # (a zombie is not listed: its parent, the bot's helper, reaps it)
            pids = self.members() if self.cgroups is not None else _uid_processes(self.uid)
            if not pids:
                return True
            for pid in pids:
                with suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(2 * pause, 0.005)


def _uid_processes(uid: int) -> list[int]:
    """Processes whose real uid is `uid` (a scan of /proc: only where there is no cgroup)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with suppress(OSError):
                if os.stat(f"/proc/{name}").st_uid == uid:
                    found.append(int(name))
    return found


_slot: Slot | None = None
_slot_pid = 0


def current_slot() -> Slot | None:
    """This process's slot, taken on first use and held until it exits; None unless root."""
    global _slot, _slot_pid
    if os.geteuid() != 0:
        return None
    if _slot is not None and _slot_pid == os.getpid():
        return _slot
    LOCK_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
    for number in range(MAX_SLOTS):
        uid = UID_BASE + number
        with suppress(KeyError):
            pwd.getpwuid(uid)
            continue  # a real user has this uid
        fd = os.open(LOCK_DIR / str(number), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        slot = Slot(number, fd, uid)
        # zombies that an init that never reaps was left with: they would count against
        # the slot's processes (RLIMIT_NPROC by uid, pids.max by cgroup) for ever
        if _uid_processes(uid) or (slot.cgroups is not None and slot.process_count()):
            slot.release()
            continue
        _slot, _slot_pid = slot, os.getpid()
        return _slot
    raise RuntimeError(f"all {MAX_SLOTS} game slots of this machine are in use")
