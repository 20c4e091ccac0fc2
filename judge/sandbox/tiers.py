"""Confinement tiers: what the judge can do on this machine, and what each guarantees.

The tier follows from the `--sandbox` mode asked for and from the machine: bubblewrap
installed and working, the judge running as root (a uid per game slot), cgroups that the
judge can create (limits over all of a bot's processes), and the exec helper built (a C
compiler). It is decided once per process and recorded with every run.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from judge.games.base import InputError

#: the values of the `sandbox` option: auto picks bwrap when it is installed and works;
#: gvisor (a kernel of its own per game, slower) only when asked for
SANDBOX_MODES = ("auto", "bwrap", "none", "gvisor")
#: the values of the `sandbox-prefer` option: the tier auto takes first where it works
#: (gvisor, else bwrap, else none)
PREFERENCES = ("bwrap", "gvisor")


@functools.cache
def bwrap_path() -> str | None:
    """The bwrap executable when it is installed and can start a sandbox here (checked once
    per process, or found checked already in this boot, namespace and setting)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    from judge.sandbox.exec_helper import helper_path

    helper = helper_path()
    marker = _probe_marker(exe, helper)
    if marker is not None and marker.exists():
        return exe
    user = [] if os.geteuid() == 0 else ["--unshare-user", "--disable-userns"]
    # the helper reaps bwrap's PID 1, which exits after bwrap itself; inside, bwrap starts
    # the helper through a descriptor of its file as the namespace's PID 1, as for a game
    # (a bwrap without --as-pid-1, before 0.5, does not work here)
    reaper = [helper, "-R", "--"] if helper else []
    own = -1
    with tempfile.TemporaryDirectory(prefix="judge-bwrap-") as tmp:
        try:
            own = os.open(helper, os.O_RDONLY) if helper else -1
            inside = [f"/proc/self/fd/{own}", "--"] if helper else []
            as_pid_1 = ["--as-pid-1"] if helper else []
            done = subprocess.run(
                [*reaper, exe, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
                 "--size", str(1 << 20), "--tmpfs", tmp, *user, "--unshare-pid",
                 "--unshare-net", "--die-with-parent", *as_pid_1, "--", *inside, "true"],
                stdin=subprocess.DEVNULL, capture_output=True, timeout=10,
                pass_fds=[own] if own >= 0 else [],
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        finally:
            if own >= 0:
                os.close(own)
    if done.returncode != 0:
        return None
    if marker is not None:
        with suppress(OSError):
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
    return exe


#: what decides whether bwrap can start a sandbox: this boot, the process's namespaces,
#: uid and capabilities, and the settings that allow user namespaces
_PROBE_FACTS = ("/proc/sys/kernel/random/boot_id", "/proc/sys/user/max_user_namespaces",
                "/proc/sys/kernel/unprivileged_userns_clone",
                "/proc/sys/kernel/apparmor_restrict_unprivileged_userns")


def _probe_marker(exe: str, helper: str | None) -> Path | None:
    """The file that says bwrap at `exe` was seen to work under the very same conditions
    (None when they cannot be read): a later run then skips the probe (a bwrap start)."""
    from judge.solvers.cache import cache_dir

    facts = [exe, str(helper), str(os.geteuid()), "helper started through a descriptor as PID 1"]
    try:
        st = os.stat(exe)
        facts += [str((st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_mode))]
        facts += [os.readlink(f"/proc/self/ns/{ns}") for ns in ("mnt", "user", "pid", "net")]
        with open("/proc/self/status") as fh:
            facts += [line for line in fh if line.startswith(("Cap", "Seccomp", "NoNewPrivs"))]
        for path in _PROBE_FACTS:
            with suppress(FileNotFoundError), open(path) as fh:
                facts.append(f"{path}={fh.read().strip()}")
        folder = cache_dir() / "probes"
    except (OSError, InputError):
        return None
    key = hashlib.sha256("\0".join(facts).encode()).hexdigest()[:32]
    return folder / f"bwrap-works-{key}"


#: where runsc keeps the state of a root judge's sandboxes (each removed at its game's end)
ROOT_STATE = Path("/run/judge-runsc")
#: how to get the tier where runsc is missing
INSTALL = "apt-get install runsc"


@functools.cache
def runsc_path() -> str | None:
    """The runsc executable, when it is installed (not that it works: `runsc_works`)."""
    return shutil.which("runsc")


@functools.cache
def runsc_version() -> str | None:
    """runsc's version line (``runsc version 0.0~20221219.0``), None without it."""
    exe = runsc_path()
    if exe is None:
        return None
    try:
        done = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.splitlines()[0].strip() if done.stdout.strip() else None


@functools.cache
def state_dir() -> Path:
    """Where runsc keeps the state of this judge's sandboxes: root's in /run, an ordinary
    user's in the judge's cache (made private to the user)."""
    if os.geteuid() == 0:
        folder = ROOT_STATE
    else:
        from judge.solvers.cache import cache_dir

        folder = cache_dir() / "runsc"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def runsc_argv() -> list[str]:
    """runsc and its options for every command: its state folder, no network, and as an
    ordinary user rootless (the sandbox and its gofer then run as the judge's user, in a
    user namespace)."""
    exe = runsc_path()
    assert exe is not None
    rootless = ["--rootless"] if os.geteuid() != 0 else []
    return [exe, "--root", str(state_dir()), "--network=none", *rootless]


def runsc_refusal() -> str | None:
    """Why the tier cannot be had here (None when it can): runsc installed and starting a
    sandbox that runs /bin/true."""
    missing = runsc_missing()
    return None if missing is None else f"sandbox=gvisor asked for, but {missing}"


def runsc_missing() -> str | None:
    """What the gvisor tier lacks here (None: nothing)."""
    if runsc_path() is None:
        return f"runsc (gVisor) is not installed ({INSTALL})"
    if not runsc_works():
        return "runsc fails to start a sandbox here"
    return None


def auto_choice(mode: str, prefer: str) -> tuple[str, str | None]:
    """The mode a `sandbox` option takes under a `sandbox-prefer` one, and why when it is
    gvisor's: auto is gvisor where gvisor is preferred and runsc works here; otherwise
    the mode itself (auto: bwrap where it works, else none)."""
    if mode != "auto" or prefer != "gvisor":
        return mode, None
    missing = runsc_missing()
    if missing is None:
        return "gvisor", "--sandbox-prefer gvisor, and runsc works here"
    return mode, f"--sandbox-prefer gvisor, but {missing}: auto takes the next tier"


@functools.cache
def runsc_works() -> bool:
    """Whether runsc starts a sandbox that runs /bin/true here (once per process)."""
    if runsc_path() is None:
        return False
    try:
        done = subprocess.run([*runsc_argv(), "do", "/bin/true"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=30, cwd="/")
    except (OSError, subprocess.TimeoutExpired, InputError):
        return False
    return done.returncode == 0


@functools.cache
def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0 without Landlock): with it, the exec helper
    gives each bot a domain of its own (see `exec/landlock.c`)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = libc.syscall(444, None, 0, 1)  # landlock_create_ruleset(.., VERSION)
    except (OSError, AttributeError):
        return 0
    return max(int(abi), 0) if os.uname().machine in ("x86_64", "aarch64") else 0


def resolve_sandbox(mode: str) -> str:
    """``bwrap``, ``none`` or ``gvisor`` for a `sandbox` option; raises `InputError` when
    impossible."""
    if mode not in SANDBOX_MODES:
        raise InputError(f"sandbox must be one of {', '.join(SANDBOX_MODES)}, not {mode!r}")
    if mode == "auto":
        return "bwrap" if bwrap_path() else "none"
    if mode == "bwrap" and not bwrap_path():
        raise InputError("sandbox=bwrap asked for, but bubblewrap is not installed or fails here")
    if mode == "gvisor":
        refused = runsc_refusal()
        if refused is not None:
            raise InputError(refused)
    return mode


#: (key, the guarantee, as a reader of a report would ask it)
GUARANTEES = (
    ("filesystem", "the bot sees only the system, its runtime, its own file and its work dir"),
    ("network", "no network"),
    ("userns", "no new user namespaces"),
    ("uid", "a uid of its own: it cannot signal, trace or write to the judge or its files"),
    ("limits", "memory, CPU and processes counted over all of the bot's processes by the "
               "kernel (without cgroups the judge sums memory and CPU every 0.1 s)"),
    ("disk", "its work dir and /tmp capped by --disk"),
    ("lifetime", "nothing it starts outlives its game"),
    ("fresh", "every game starts from the same state: no namespace, folder, device node, "
              "counter or timestamp that an earlier game could change is kept"),
    ("apart", "bots playing at once share nothing they can change (files, locks, IPC, "
              "network)"),
    ("fair", "it cannot take CPU from its opponent or a neighbour: its CPUs fixed, one CPU "
             "for all its processes, stopped while an opponent bot thinks"),
    ("cluster", "it cannot reach the cluster's scheduler or workers (no network)"),
    ("proc", "its /proc shows only the files of its own process that runtimes read: no page "
             "map, fdinfo or memory, no other process's files"),
)


#: what gives each guarantee of `GUARANTEES` where it does not hold
HOW = {
    "filesystem": "install bubblewrap",
    "network": "install bubblewrap or run the judge as root",
    "userns": "install bubblewrap or a C compiler",
    "uid": "run the judge as root",
    "limits": "run the judge as root where cgroups with the memory and pids controllers can "
              "be created: v1, or v2 with both offered to the judge",
    "disk": "install bubblewrap",
    "lifetime": "install bubblewrap",
    "fresh": "install bubblewrap and a C compiler, or run the judge as root",
    "apart": "install bubblewrap and a C compiler, or run the judge as root",
    "fair": "run the judge as root where cgroups with the cpu and cpuset controllers can be "
            "created",
    "cluster": "install bubblewrap or run the judge as root",
    "proc": "install a C compiler, on Linux 5.13 or later with Landlock enabled",
}


@dataclass(frozen=True)
class Tier:
    """The confinement bots get here: a sandbox mode and what the machine adds to it."""

    #: "bwrap" or "none"
    sandbox: str
    #: a uid of its own per game slot (the judge runs as root)
    uid: bool
    #: a cgroup per game slot: CPU summed over the bot's processes, which it lists and kills
    cgroups: bool
    #: the exec helper is built (posix_spawn, seccomp, private mounts)
    helper: bool
    #: 1 or 2: the cgroup hierarchy the slots use
    cgroup_version: int = 1
    #: the slot's cgroup also bounds memory (tmpfs included) and processes (controllers
    #: memory and pids)
    cgroup_limits: bool = True
    #: the slot's cgroups also fix its CPUs and bound it to one CPU
    fair: bool = False
    #: the kernel has Landlock: the helper gives each bot a domain of its own (writes in
    #: its folders only, /proc by allowlist)
    landlock: bool = False

    @property
    def name(self) -> str:
        """E.g. ``bwrap+uid+cgroups``: recorded with every run."""
        cgroups = "cgroups" if self.cgroup_version == 1 else (
            "cgroups2" if self.cgroup_limits else "cgroups2-partial")
        return "+".join([self.sandbox, *(["uid"] if self.uid else []),
                         *([cgroups] if self.cgroups else [])])

    def holds(self) -> dict[str, bool]:
        """Each guarantee of `GUARANTEES`: whether it holds in this tier."""
        if self.sandbox == "gvisor":  # a kernel of its own; limits per process, summed
            return {key: key not in ("limits", "fair") for key, _ in GUARANTEES}
        bwrap = self.sandbox == "bwrap"
        # as root the helper gives each game network and IPC namespaces of its own
        own_network = bwrap or (self.uid and self.helper)
        # namespaces made per game (bwrap's, or the helper's as root), and the helper's
        # seccomp filter: no timestamps set, no page cache evicted, no lock shared
        own_state = (bwrap or self.uid) and self.helper
        return {
            "filesystem": bwrap,
            "network": own_network,
            "userns": bwrap or self.helper,
            "uid": self.uid,
            "limits": self.cgroups and self.cgroup_limits,
            "disk": bwrap or (self.uid and self.helper),
            "lifetime": bwrap or self.cgroups,
            "fresh": own_state,
            "apart": own_state,
            "fair": self.cgroups and self.fair,
            "cluster": own_network,
            "proc": self.helper and self.landlock,
        }

    def warnings(self) -> list[str]:
        """One line per guarantee that does not hold here, saying how to get it."""
        text = dict(GUARANTEES)
        return [f"not guaranteed here: {text[k]} ({HOW[k]})"
                for k, ok in self.holds().items() if not ok]

    def describe(self) -> dict[str, object]:
        """The tier as JSON data: its name and each guarantee."""
        return {"name": self.name, "guarantees": self.holds()}


@functools.cache
def tier_for(mode: str) -> Tier:
    """The tier bots get for a `--sandbox` mode on this machine; raises `InputError`."""
    from judge.sandbox.exec_helper import helper_path
    from judge.sandbox.slots import cgroups_here

    sandbox = resolve_sandbox(mode)
    if sandbox == "gvisor":  # (its own kernel: no slot, uid or cgroups of the host's)
        return Tier(sandbox, False, False, helper_path() is not None)
    root = os.geteuid() == 0
    helper = helper_path() is not None
    if root and not helper:
        raise InputError("as root, bots run under a uid of their own, set by the judge's exec "
                         "helper, which needs a C compiler: install gcc")
    cgroups = cgroups_here() if root else None
    landlock = helper and landlock_abi() >= 1
    if cgroups is None:
        return Tier(sandbox, root, False, helper, landlock=landlock)
    return Tier(sandbox, root, True, helper, cgroups.version,
                cgroups.counts_memory and cgroups.counts_pids, cgroups.fair_cpu, landlock)
