"""Game slots: as root, each concurrent game gets a uid and cgroups of its own (as isolate's
boxes do), taken with a lock that every judge on the machine respects.

A slot's uid owns nothing and runs nothing outside its games, so file permissions and
RLIMIT_NPROC bind the bot and it can neither signal nor trace the judge. Its cgroups count
the bot's memory, processes and CPU over all of its processes and threads, and list them for
killing: v1 controllers memory, pids and cpuacct (made under the judge's own), or one v2
cgroup per slot (under ``judge-slots`` at the top of the v2 hierarchy) with children for the
bot and for what starts it. A v2 hierarchy that does not offer the memory and pids
controllers still sums CPU and lists and kills; memory and processes then fall back to the
judge's sums and the uid's RLIMIT_NPROC (`Slot.counts_memory`, `Slot.counts_pids`).
"""

from __future__ import annotations

import ctypes
import dataclasses
import fcntl
import functools
import os
import pwd
import signal
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from judge.games.base import InputError
from judge.sandbox.launcher import Launcher

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
#: the v1 controllers a slot needs (all three, or no v1 cgroups)
CONTROLLERS = ("memory", "pids", "cpuacct")
#: v1 controllers that make a slot fair to the others where they are mounted: its CPUs
#: fixed (cpuset: no sched_setaffinity undoes it), one CPU at most however many processes
#: and sessions it has (cpu). (v1's freezer is not used to stop a bot while its opponent
#: thinks: a process it froze does not die of SIGKILL, not even of its parent-death signal
#: when the judge is killed; SIGSTOP lets SIGKILL through)
FAIR = ("cpuset", "cpu")
#: the v2 controllers that bound a slot (CPU is counted by every v2 cgroup: cpu.stat;
#: every v2 cgroup can be frozen)
V2_CONTROLLERS = ("memory", "pids", "cpu", "cpuset")
#: how long a bot's processes are sent SIGSTOP until all are stopped at once (v1)
STOP_SECONDS = 0.05
#: a slot's processes together get at most one CPU: this much in each period (us)
CPU_PERIOD_US = 100_000
#: memory an earlier game left charged to a slot (page cache) is given back before the next
#: game when it is more than this fraction (1/N) of the memory limit
LEFT_CHARGED = 64
#: which cgroups to use: auto (v1 when its three controllers are mounted, else v2), v1,
#: v2 or off
CGROUPS_ENV = "JUDGE_CGROUPS"
#: the v2 cgroup under which slots are made (default: judge-slots at the hierarchy's top);
#: e.g. a cgroup delegated to the judge by systemd
CGROUP_ROOT_ENV = "JUDGE_CGROUP_ROOT"


def _mounts(fstype: str) -> list[tuple[Path, list[str]]]:
    """(mount point, super options) of every mount of `fstype`, in mount order."""
    found = []
    with suppress(OSError), open("/proc/self/mountinfo") as fh:
        for line in fh:
            left, _, right = line.partition(" - ")
            fields, after = left.split(), right.split()
            if len(after) >= 3 and after[0] == fstype:
                found.append((Path(fields[4]), after[2].split(",")))
    return found


def _v1_mounts() -> dict[str, Path]:
    """Mount points of the cgroup v1 controllers we use."""
    found: dict[str, Path] = {}
    for point, options in _mounts("cgroup"):
        for ctrl in options:
            if ctrl in CONTROLLERS + FAIR:
                found.setdefault(ctrl, point)
    return found


def _cpus() -> str:
    """The CPUs this process may run on, as a cpuset list ("0", "0-1", "0,2")."""
    return ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path per v1 controller ("" for the v2 hierarchy)."""
    own: dict[str, str] = {}
    with suppress(OSError), open("/proc/self/cgroup") as fh:
        for line in fh:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for ctrl in ctrls.split(","):
                own[ctrl] = path
    return own


def _write(path: Path, value: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError:
        return []


def _field(text: bytes, key: bytes) -> int:
    """The number after `key` in a flat-keyed cgroup file (0 when it is not there)."""
    for line in text.splitlines():
        name, _, value = line.partition(b" ")
        if name == key:
            return int(value)
    return 0


@dataclass(frozen=True)
class Cgroups:
    """Where slot cgroups are made on this machine and what they count."""

    #: 1 or 2
    version: int
    #: v1: the folder per controller under which slots are made; v2: {"": that folder}
    bases: dict[str, Path]
    #: whether the kernel bounds the bot's memory (tmpfs included) and its processes and
    #: threads; CPU summed over its processes, listing and killing them always hold
    counts_memory: bool
    counts_pids: bool
    #: v1: the folder per controller of `FAIR` that is mounted (v2: each slot enables what
    #: its parent offers)
    fair: dict[str, Path] = dataclasses.field(default_factory=dict)
    #: a slot's CPUs are fixed and bounded to one (see `FAIR`; any slot can be stopped)
    fair_cpu: bool = False


def _v1() -> Cgroups | None:
    mounts, own = _v1_mounts(), _own_cgroups()
    if set(CONTROLLERS) - set(mounts):
        return None
    bases = {c: mounts[c] / own.get(c, "/").lstrip("/") for c in mounts}
    probe = f"judge-probe-{os.getpid()}"
    fair = {}
    for ctrl, base in bases.items():
        try:
            (base / probe).mkdir(exist_ok=True)
            (base / probe).rmdir()
        except OSError:
            if ctrl in CONTROLLERS:
                return None
            continue
        if ctrl in FAIR:
            fair[ctrl] = base
    return Cgroups(1, {c: bases[c] for c in CONTROLLERS}, True, True, fair,
                   set(fair) == set(FAIR))


def _enable(cgroup: Path, controllers: tuple[str, ...]) -> set[str]:
    """Enable `controllers` for the children of `cgroup` where its parent offers them;
    the ones enabled."""
    offered = set(_words(cgroup / "cgroup.controllers"))
    for ctrl in controllers:
        if ctrl in offered:
            # refused (EBUSY) where the cgroup holds processes and is not the top
            with suppress(OSError):
                _write(cgroup / "cgroup.subtree_control", f"+{ctrl}")
    return set(_words(cgroup / "cgroup.subtree_control")) & set(controllers)


def _v2() -> Cgroups | None:
    mounts = _mounts("cgroup2")
    if not mounts and os.environ.get(CGROUP_ROOT_ENV) is None:
        return None
    given = os.environ.get(CGROUP_ROOT_ENV)
    base = Path(given) if given else mounts[0][0] / "judge-slots"
    try:
        base.mkdir(exist_ok=True)
        if not (base / "cgroup.procs").exists():
            return None  # not a v2 cgroup
    except OSError:
        return None
    if not given:  # the top offers its controllers to judge-slots (where it may)
        _enable(base.parent, V2_CONTROLLERS)
    enabled = _enable(base, V2_CONTROLLERS)
    return Cgroups(2, {"": base}, "memory" in enabled, "pids" in enabled,
                   fair_cpu={"cpu", "cpuset"} <= enabled)


@functools.cache
def cgroups_here() -> Cgroups | None:
    """The cgroups slots get on this machine; None when the judge cannot make them (not
    root, none mounted, or `JUDGE_CGROUPS=off`)."""
    if os.geteuid() != 0:
        return None
    want = os.environ.get(CGROUPS_ENV, "auto").strip().lower() or "auto"
    if want not in ("auto", "v1", "v2", "off"):
        raise InputError(f"{CGROUPS_ENV} must be auto, v1, v2 or off, not {want!r}")
    if want == "off":
        return None
    found = _v1() if want in ("auto", "v1") else None
    if found is None and want in ("auto", "v2"):
        found = _v2()
    return found


class _Pinned:
    """A slot's CPUs: those of the judge's process now (one core when it plays its games
    on one, see `SandboxContext.one_core`), written to its cpuset only when they change."""

    #: the slot's cpuset.cpus (None: no cpuset controller, its CPUs are the judge's)
    cpuset: Path | None = None
    _cpus = ""

    def pin(self) -> None:
        cpus = _cpus()
        if self.cpuset is not None and cpus != self._cpus:
            _write(self.cpuset, cpus)
            self._cpus = cpus


class _V1(_Pinned):
    """A slot's v1 cgroups: one per controller, the same path under each."""

    def __init__(self, bases: dict[str, Path], name: str, fair: dict[str, Path]) -> None:
        self.paths = {c: b / name for c, b in {**bases, **fair}.items()}
        for path in self.paths.values():
            path.mkdir(exist_ok=True)
        if "cpuset" in fair:  # (v1: no process may join before it has CPUs and memory)
            for file in ("cpuset.mems", "cpuset.cpus"):
                _write(self.paths["cpuset"] / file, (fair["cpuset"] / file).read_text().strip())
        if "cpu" in fair:
            _write(self.paths["cpu"] / "cpu.cfs_period_us", str(CPU_PERIOD_US))
            _write(self.paths["cpu"] / "cpu.cfs_quota_us", str(CPU_PERIOD_US))
        if "cpuset" in self.paths:
            self.cpuset = self.paths["cpuset"] / "cpuset.cpus"
        #: (unknown for a slot that a judge may have left stopped: the first thaw acts)
        self.frozen = True
        self._fds: dict[str, int] = {}
        for file in ("pids.current", "pids.events", "pids.max", "cpuacct.usage",
                     "memory.max_usage_in_bytes", "memory.usage_in_bytes",
                     "memory.oom_control"):
            ctrl = file.split(".", 1)[0]
            mode = os.O_RDWR if file in ("cpuacct.usage", "memory.max_usage_in_bytes",
                                         "pids.max") else os.O_RDONLY
            self._fds[file] = os.open(self.paths[ctrl] / file, mode | os.O_CLOEXEC)
        self._procs = {c: os.open(p / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                       for c, p in self.paths.items()}
        self._limits: tuple[int, int] | None = None
        #: pids.max is 0 (or not yet set): set it at the next prepare
        self._stopped = False
        #: the slot's launcher, which lives in its cgroups between games (never killed)
        self.spared = 0

    def fds(self) -> list[int]:
        return [*self._fds.values(), *self._procs.values()]

    def freeze(self, frozen: bool) -> None:
        # SIGSTOP to every process of the slot but its launcher, again until all of them
        # are stopped at once (one still running may fork, or SIGCONT another); SIGCONT to
        # them all (none of them can have forked meanwhile)
        if frozen == self.frozen:
            return
        deadline = time.monotonic() + STOP_SECONDS
        while True:
            members = self.members()
            for pid in members:
                with suppress(OSError):
                    os.kill(pid, signal.SIGSTOP if frozen else signal.SIGCONT)
            if not frozen or all(map(_stopped, members)) or time.monotonic() > deadline:
                break
            time.sleep(0.0001)  # (a process on this core then gets to stop)
        self.frozen = frozen

    def joins(self) -> list[int]:
        return list(self._procs.values())

    def resets(self) -> list[int]:
        return [self._fds["cpuacct.usage"], self._fds["memory.max_usage_in_bytes"]]

    def _read(self, file: str) -> int:
        return int(os.pread(self._fds[file], 64, 0))

    def prepare(self, memory_bytes: int, processes: int) -> tuple[list[int], list[int]]:
        cg = self.paths
        self.freeze(False)
        self.pin()
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
            self._limits = (memory_bytes, processes)
            self._stopped = True
        if self._stopped:  # (see stop)
            os.pwrite(self._fds["pids.max"], str(processes).encode(), 0)
            self._stopped = False
        os.pwrite(self._fds["cpuacct.usage"], b"0", 0)
        if self._read("memory.usage_in_bytes") > memory_bytes // LEFT_CHARGED:
            # page cache an earlier game left charged to the slot: given back, so that this
            # game's peak is its own (a little, as a bot's own program leaves, is let be)
            with suppress(OSError):
                _write(cg["memory"] / "memory.force_empty", "0")
        os.pwrite(self._fds["memory.max_usage_in_bytes"], b"0", 0)
        # the starters join the pids cgroup (counted, killed with the slot), the bot all
        return [self._procs["pids"]], list(self._procs.values())

    def cpu_seconds(self) -> float:
        return self._read("cpuacct.usage") / 1e9

    def memory_peak(self) -> int:
        return self._read("memory.max_usage_in_bytes")

    def process_count(self) -> int:
        return self._read("pids.current")

    def oom_kills(self) -> int:
        return _field(os.pread(self._fds["memory.oom_control"], 256, 0), b"oom_kill")

    def fork_failures(self) -> int:
        return int(os.pread(self._fds["pids.events"], 64, 0).split()[1])

    def members(self) -> list[int]:
        # (opened each time: an open cgroup.procs of v1 keeps the list it first read)
        with suppress(OSError), open(self.paths["pids"] / "cgroup.procs") as fh:
            return [int(p) for p in fh.read().split() if int(p) != self.spared]
        return []

    def kill(self) -> None:
        self.freeze(False)  # (v1: a frozen process dies only once thawed)
        for pid in self.members():
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def reaped(self) -> bool:
        # a process that has exited leaves cgroup.procs at once, and pids.current when its
        # parent (the launcher) has reaped it
        return self.process_count() <= (1 if self.spared else 0)

    def stop(self) -> None:
        # no process of the slot can start another from now on (the next game's prepare
        # sets the limit again), so one round of SIGKILL reaches them all
        self.freeze(False)  # (the launcher too, which reaps them)
        with suppress(OSError):
            os.pwrite(self._fds["pids.max"], b"0", 0)
            self._stopped = True
        if not self.reaped():  # (one read when it holds no member and none is forked)
            self.kill()


class _V2(_Pinned):
    """A slot's v2 cgroup: the slot bounds the processes, its child `bot` holds the bot
    (memory and CPU are its own), its child `starters` what starts it under bwrap."""

    def __init__(self, base: Path, name: str, memory: bool, pids: bool) -> None:
        self.path = base / name
        self.path.mkdir(exist_ok=True)
        enabled = _enable(self.path, tuple(c for c, on in (("memory", memory), ("pids", pids),
                                                           ("cpu", True), ("cpuset", True))
                                           if on))
        self.counts_memory, self.counts_pids = "memory" in enabled, "pids" in enabled
        self.bot, self.starters = self.path / "bot", self.path / "starters"
        for path in (self.bot, self.starters):
            path.mkdir(exist_ok=True)
        ro, wo = os.O_RDONLY | os.O_CLOEXEC, os.O_WRONLY | os.O_CLOEXEC
        self._fds: dict[str, int] = {"cpu.stat": os.open(self.bot / "cpu.stat", ro)}
        self._peak_resets = False
        if self.counts_memory:
            self._fds["memory.events"] = os.open(self.bot / "memory.events", ro)
            with suppress(OSError):  # Linux 5.19 and later
                self._fds["memory.peak"] = os.open(self.bot / "memory.peak",
                                                   os.O_RDWR | os.O_CLOEXEC)
                self._peak_resets = True
        if self.counts_pids:
            self._fds["pids.current"] = os.open(self.path / "pids.current", ro)
            self._fds["pids.events"] = os.open(self.path / "pids.events", ro)
            self._fds["pids.max"] = os.open(self.path / "pids.max", os.O_RDWR | os.O_CLOEXEC)
        with suppress(OSError):  # Linux 5.14 and later
            self._fds["cgroup.kill"] = os.open(self.path / "cgroup.kill", wo)
        self._procs = [os.open(p / "cgroup.procs", wo) for p in (self.starters, self.bot)]
        if "cpu" in enabled:
            with suppress(OSError):
                _write(self.path / "cpu.max", f"{CPU_PERIOD_US} {CPU_PERIOD_US}")
        self._freezer = os.open(self.path / "cgroup.freeze", wo)
        if "cpuset" in enabled:
            self.cpuset = self.path / "cpuset.cpus"
        #: (unknown for a slot that a judge may have left frozen: the first thaw acts)
        self.frozen = True
        self._limits: tuple[int, int] | None = None
        #: pids.max is 0 (or not yet set): set it at the next prepare
        self._stopped = False
        self._cpu_base = 0

    def fds(self) -> list[int]:
        return [*self._fds.values(), *self._procs, self._freezer]

    def freeze(self, frozen: bool) -> None:
        # (v2's frozen processes still die of SIGKILL, and cgroup.kill ends them)
        if frozen != self.frozen:
            os.write(self._freezer, b"1" if frozen else b"0")
            self.frozen = frozen

    def _cpu_usec(self) -> int:
        return _field(os.pread(self._fds["cpu.stat"], 4096, 0), b"usage_usec")

    def prepare(self, memory_bytes: int, processes: int) -> tuple[list[int], list[int]]:
        self.freeze(False)
        self.pin()
        if self._limits != (memory_bytes, processes):
            if self.counts_memory:
                _write(self.bot / "memory.max", str(memory_bytes))
                with suppress(OSError):
                    _write(self.bot / "memory.swap.max", "0")
            self._limits = (memory_bytes, processes)
            self._stopped = self.counts_pids
        if self._stopped:  # (see stop)
            os.pwrite(self._fds["pids.max"], str(processes).encode(), 0)
            self._stopped = False
        self._cpu_base = self._cpu_usec()
        if self.counts_memory:
            # page cache an earlier game left charged to the slot: given back, so that
            # this game's peak is its own (as far as the kernel can reclaim it)
            with suppress(OSError, ValueError):
                current = int((self.bot / "memory.current").read_text())
                if current > memory_bytes // LEFT_CHARGED:
                    _write(self.bot / "memory.reclaim", str(current))
            if self._peak_resets:
                try:  # Linux 6.12 and later: the peak read through this descriptor restarts
                    os.pwrite(self._fds["memory.peak"], b"reset", 0)
                except OSError:
                    self._peak_resets = False
        return [self._procs[0]], [self._procs[1]]

    def cpu_seconds(self) -> float:
        return (self._cpu_usec() - self._cpu_base) / 1e6

    def memory_peak(self) -> int:
        if not self._peak_resets:
            return 0  # none, or the peak of every game so far: the judge's samples stand
        return int(os.pread(self._fds["memory.peak"], 64, 0))

    def process_count(self) -> int:
        if self.counts_pids:
            return int(os.pread(self._fds["pids.current"], 64, 0))
        count = 0
        for path in (self.starters, self.bot):
            with suppress(OSError), open(path / "cgroup.threads") as fh:
                count += len(fh.read().split())
        return count

    def oom_kills(self) -> int:
        if not self.counts_memory:
            return 0
        return _field(os.pread(self._fds["memory.events"], 1024, 0), b"oom_kill")

    def fork_failures(self) -> int:
        if not self.counts_pids:
            return 0
        return _field(os.pread(self._fds["pids.events"], 256, 0), b"max")

    def members(self) -> list[int]:
        found: list[int] = []
        for path in (self.starters, self.bot):
            with suppress(OSError), open(path / "cgroup.procs") as fh:
                found += [int(p) for p in fh.read().split()]
        return found

    def reaped(self) -> bool:
        # (see _V1.reaped: a starter is reaped by the judge's launcher)
        return self.process_count() == 0

    def kill(self) -> None:
        self.freeze(False)
        fd = self._fds.get("cgroup.kill")
        if fd is not None:
            with suppress(OSError):
                os.write(fd, b"1")
                return
        for pid in self.members():
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        # cgroup.kill reaches every process, even one forked meanwhile; without it, no
        # process of the slot may start another (the next game's prepare sets it again)
        if "cgroup.kill" not in self._fds and self.counts_pids:
            with suppress(OSError):
                os.pwrite(self._fds["pids.max"], b"0", 0)
                self._stopped = True
        self.kill()


class Slot:
    """One game slot: its uid and (when the machine allows) its cgroups."""

    def __init__(self, number: int, lock_fd: int, uid: int) -> None:
        self.number, self.uid, self._lock = number, uid, lock_fd
        self.cgroups: _V1 | _V2 | None = None
        self.counts_memory = self.counts_pids = False
        self._oom_kills = 0
        self._fork_failures = 0
        #: what is left of the slot's last game to wait for (see `defer`)
        self._unfinished: list[Callable[[], None]] = []
        self._box: Path | None = None  # (see `box`)
        here = cgroups_here()
        if here is not None:
            name = f"judge-slot-{number}"
            try:
                if here.version == 1:
                    self.cgroups = _V1(here.bases, name, here.fair)
                    self.counts_memory = self.counts_pids = True
                else:
                    v2 = self.cgroups = _V2(here.bases[""], name, here.counts_memory,
                                            here.counts_pids)
                    self.counts_memory, self.counts_pids = v2.counts_memory, v2.counts_pids
            except OSError:
                self.cgroups = None
        if self.cgroups is not None:  # (what a judge killed meanwhile left stopped)
            with suppress(OSError):
                self.cgroups.freeze(False)
        self.kill_all()

    def release(self) -> None:
        """Give the slot up (its last game finished, its launcher ended): its descriptors and
        its lock."""
        self.finish()
        for fd in (*(self.cgroups.fds() if self.cgroups else ()), self._lock):
            with suppress(OSError):
                os.close(fd)

    def born_inside(self) -> bool:
        """Whether the slot's bots are started by a launcher of its own that lives in its
        cgroups (v1), so that they are born there: joining a cgroup takes the kernel an
        RCU grace period (10-20 ms) whenever none was joined in the last few ms."""
        return isinstance(self.cgroups, _V1)

    def new_launcher(self, helper: str) -> Launcher:
        """A launcher that lives in the slot's cgroups (see `born_inside`), which the
        slot's kills spare; `OSError` if it cannot be started."""
        assert isinstance(self.cgroups, _V1)
        made = Launcher(helper, self.cgroups.joins())
        self.cgroups.spared = made.pid
        return made

    def counter_resets(self) -> list[int]:
        """For a bot born in the slot's cgroups: the descriptors of its CPU and peak memory
        counters, which the helper sets to 0 right before the bot's exec (kept by the slot,
        each helper gets copies and closes them)."""
        return self.cgroups.resets() if isinstance(self.cgroups, _V1) else []

    def box(self) -> Path:
        """The slot's work dir: an empty folder of root's on which each game's bot gets a
        private tmpfs (in its own mount namespace, so nothing is ever written to it)."""
        path = BOX_DIR / str(self.number)
        if self._box != path:  # (looked at once: root's, which no bot can take away)
            if not path.is_dir():
                BOX_DIR.mkdir(mode=0o755, exist_ok=True)
                path.mkdir(mode=0o755, exist_ok=True)
            self._box = path
        return path

    # --- per game ----------------------------------------------------------------------
    def prepare(self, memory_bytes: int, processes: int) -> tuple[list[int], list[int]]:
        """Set the limits and reset the counters for a new game; the descriptors of the
        cgroup.procs files that the bot's starters (bwrap and its PID 1) join, and those
        that the bot joins (kept open by the slot: a bot's helper gets copies)."""
        if self.cgroups is None:
            return [], []
        joins = self.cgroups.prepare(memory_bytes, processes)
        self._oom_kills = self.oom_kills()
        self._fork_failures = self.fork_failures()
        return joins

    def cpu_seconds(self) -> float:
        """CPU time of every process of the game so far."""
        return self.cgroups.cpu_seconds() if self.cgroups else 0.0

    def memory_peak(self) -> int:
        """The most memory the game's processes held at once (bytes, tmpfs included; 0
        where the slot's cgroup cannot tell)."""
        return self.cgroups.memory_peak() if self.cgroups else 0

    def process_count(self) -> int:
        """Processes and threads now in the slot."""
        return self.cgroups.process_count() if self.cgroups else 0

    def oom_kills(self) -> int:
        """How many times the kernel killed a process of the slot for memory, ever."""
        with suppress(OSError, ValueError, IndexError):
            return self.cgroups.oom_kills() if self.cgroups else 0
        return 0

    def fork_failures(self) -> int:
        """How many times a process of the slot could not start one for the limit, ever."""
        with suppress(OSError, ValueError, IndexError):
            return self.cgroups.fork_failures() if self.cgroups else 0
        return 0

    def hit_process_limit(self) -> bool:
        """Whether the game's bot tried to have more processes than its limit."""
        return self.counts_pids and self.fork_failures() > self._fork_failures

    def killed_for_memory(self) -> bool:
        """Whether the kernel killed a process of this game for memory."""
        return self.counts_memory and self.oom_kills() > self._oom_kills

    def freeze(self, frozen: bool) -> None:
        """Stop every process of the slot where they are (or let them run again): a bot
        while its opponent thinks. A slot without cgroups is not stopped."""
        if self.cgroups is not None:
            self.cgroups.freeze(frozen)

    def members(self) -> list[int]:
        """Pids of the processes in the slot's cgroup (empty without cgroups)."""
        return self.cgroups.members() if self.cgroups else []

    def stop(self) -> None:
        """SIGKILL every process of the slot's cgroups, without waiting: none of them runs
        on, none can start another meanwhile; `kill_all` later makes sure (a slot without
        cgroups is ended by `kill_all` alone)."""
        if self.cgroups is not None:
            self.cgroups.stop()

    def defer(self, finish: Callable[[], None]) -> None:
        """Keep `finish` (the wait for what ends a game: its processes gone, its starters
        reaped, its namespaces torn down) until the slot's next game, or the end of the
        judge, so that the judge need not wait for it between games."""
        self._unfinished.append(finish)

    def finish(self) -> None:
        """Do what the last game left to `defer`; the slot is then empty. A failure here
        is logged: it never voids the game that comes next."""
        while self._unfinished:
            try:
                self._unfinished.pop(0)()
            except Exception as exc:  # e.g. a descriptor gone: the next game goes on
                import logging

                logging.getLogger("judge.sandbox").warning("ending a game in slot %d: %s",
                                                           self.number, exc)

    def kill_all(self, timeout: float = 5.0) -> bool:
        """SIGKILL every process of the slot until none is left; False if some remain."""
        deadline = time.monotonic() + timeout
        pause = 0.0002
        while True:
            if self.cgroups is not None:
                # one read when the slot is empty: a process counts from its fork until its
                # parent (the bot's helper or the launcher) has reaped it, so a zombie,
                # which is no longer a member, is waited for too
                if self.cgroups.reaped():
                    return True
                self.cgroups.kill()
            else:
                pids = _uid_processes(self.uid)
                if not pids:
                    return True
                for pid in pids:
                    with suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(2 * pause, 0.005)


def _in_own_thread(make: Callable[[], None], what: str) -> None:
    """Run `make` in a thread of its own that then ends: namespaces it enters or makes are
    that thread's, the judge's stay as they were. Raises `OSError` for any failure."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            make()
        except Exception as exc:  # (said by the caller)
            failed.append(exc)

    thread = threading.Thread(target=run, name="judge-namespace")
    try:
        thread.start()
    except RuntimeError as exc:  # (no thread to be had)
        raise OSError(f"no thread to make {what}: {exc}") from exc
    thread.join()
    if failed:
        raise OSError(f"no {what}: {failed[0]}") from failed[0]


def _unshare(flags: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(flags):
        raise OSError(ctypes.get_errno(), f"unshare({flags:#x})")


_CLONE_NEWNS, _MS_REC, _MS_SLAVE, _MNT_DETACH = 0x20000, 0x4000, 0x80000, 2
#: what no bwrap command line of the judge shows, taken away from the mount namespace that
#: bwrap starts in (with all that is mounted below)
LEAN_HIDDEN = ("/sys",)


@functools.cache
def lean_mount_namespace() -> int:
    """A descriptor of a mount namespace (made once per judge, as root) where bwrap starts:
    the judge's own, but without `LEAN_HIDDEN` and what is mounted below it (on a machine
    with cgroups v1, a dozen mounts). bwrap copies the namespace it starts in, reads it
    back at each of its binds, and takes it apart again, all under the kernel's lock of all
    mounts that two judges' bwraps wait on: fewer mounts there, less of that per game.
    Mounts made on the machine later still show in it (it is the judge's slave). -1 where
    it cannot be made (not root): bwrap then starts in the judge's own."""
    if os.geteuid() != 0:
        return -1
    made: list[int] = []

    def make() -> None:
        _unshare(_CLONE_NEWNS)  # (this thread's alone: it has its own root, cwd, umask now)
        libc = ctypes.CDLL(None, use_errno=True)
        # nothing done here goes back to the judge's namespace (a shared mount would)
        if libc.mount(None, b"/", None, _MS_REC | _MS_SLAVE, None):
            raise OSError(ctypes.get_errno(), "mount --make-rslave /")
        for path in LEAN_HIDDEN:
            if os.path.ismount(path) and libc.umount2(path.encode(), _MNT_DETACH):
                raise OSError(ctypes.get_errno(), f"umount {path}")
        made.append(os.open("/proc/thread-self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC))

    try:
        _in_own_thread(make, "lean mount namespace")
    except OSError as exc:
        import logging

        logging.getLogger("judge.sandbox").info("bwrap starts in the judge's mounts (%s)", exc)
        return -1
    return made[0]


def _stopped(pid: int) -> bool:
    """Whether process `pid` is stopped (or gone): it runs no code, forks no process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] in (b"T", b"t", b"Z", b"X")
    except (OSError, IndexError):
        return True


def _uid_processes(uid: int) -> list[int]:
    """Processes whose real uid is `uid` (a scan of /proc: only where there is no cgroup)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with suppress(OSError):
                if os.stat(f"/proc/{name}").st_uid == uid:
                    found.append(int(name))
    return found


class NoSlot(RuntimeError):
    """Every game slot of the machine is in a game (other judges', or this one's): a game
    cannot start now, and may a little later."""


def new_slot() -> Slot:
    """A free slot of the machine, locked for this process (`NoSlot` if none is)."""
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
        return slot
    raise NoSlot(f"all {MAX_SLOTS} game slots of this machine are in use")
