"""The exec helper (`exec/`, one C file per concern): built once into the cache, it
confines and execs a bot, and (as a launcher the judge keeps, see `launcher.py`) forks each
bot's starter.

With it, starting a bot is a request to the launcher and a few system calls in C; without
a C compiler the judge falls back to doing the same in Python between fork and exec
(slower: the whole judge is forked, and it cannot mount or filter system calls).
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

#: the helper's sources: its C files and the header that lists what each offers
SOURCES = Path(__file__).with_name("exec")


def sources() -> list[Path]:
    """The helper's C files, in a fixed order."""
    return sorted(SOURCES.glob("*.c"))


#: the kernel's header folders that the helper includes (``linux/seccomp.h`` and what it
#: needs), which a musl toolchain does not search
KERNEL_HEADERS = ("linux", "asm", "asm-generic")


@functools.cache
def helper_path() -> str | None:
    """The built helper (built now if needed), or None when no C compiler can build it."""
    from judge.solvers.native import built

    musl = shutil.which("musl-gcc")
    cc = shutil.which("cc") or shutil.which("gcc")
    files = [p for p in sorted(SOURCES.iterdir()) if p.suffix in (".c", ".h")]

    def commands(tmp: Path, out: Path) -> list[list[str]]:
        # static with musl where it is installed: its start is a few system calls, where
        # a static glibc asks the processor about its features and caches some 25 times
        # (each a costly exit to the hypervisor in a virtual machine), 0.3 ms at each exec
        # (inside bubblewrap, per game); else static with the system's C library (no
        # dynamic loading at each exec), else as any program
        tries: list[list[str]] = []
        if musl:
            tries.append([musl, "-static", *_kernel_headers(tmp, cc)])
        if cc:
            tries += [[cc, "-static"], [cc]]
        return [[*compiler, "-O2", "-o", str(out), *map(str, sources())]
                for compiler in tries]

    salt = os.uname().machine.encode() + (b"musl" if musl else b"static")
    return built("helper", "judge-exec", files, salt, commands)


def _kernel_headers(tmp: Path, cc: str | None) -> list[str]:
    """Options that show musl's compiler the kernel's headers, and only them: a folder in
    `tmp` of links to those of the system's compiler (its multiarch folder for ``asm``)."""
    folders = [Path("/usr/include")]
    if cc:
        try:
            arch = subprocess.run([cc, "-print-multiarch"], capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            arch = ""
        if arch:
            folders.insert(0, Path("/usr/include") / arch)
    # (a compiler that does not tell its multiarch folder: any that holds asm/)
    folders += [Path(p).parent for p in sorted(glob.glob("/usr/include/*/asm"))]
    links = tmp / "kernel-headers"
    links.mkdir()
    for name in KERNEL_HEADERS:
        found = next((f / name for f in folders if (f / name).is_dir()), None)
        if found is not None:
            (links / name).symlink_to(found)
    return ["-idirafter", str(links)]


@dataclass
class ExecOptions:
    """The exec helper's options for one process (see `exec/main.c`, which lists the same
    letters): typed here, written as its command line in one place (`argv`). The helper
    applies them in its own order (`exec/helper.c`), whatever the order given."""

    #: die with this process (-p PPID)
    parent: int | None = None
    #: cgroup.procs descriptors to join (-c FD)
    cgroups: list[int] = field(default_factory=list)
    #: a mount namespace to enter first (-m FD)
    mount_namespace: int | None = None
    #: counters to set to 0 right before the exec (-z FD)
    resets: list[int] = field(default_factory=list)
    #: folders covered with an empty read-only tmpfs (-K), paths shown again in them (-k)
    covers: list[str] = field(default_factory=list)
    keeps: list[str] = field(default_factory=list)
    #: private tmpfs folders of the bot's own (-T), its work dir and size (-w SIZE:DIR)
    temps: list[str] = field(default_factory=list)
    work: tuple[int, str] | None = None
    #: files each of those tmpfs may hold (-I N), and tmpfs mounts made by another (bwrap)
    #: given that bound too (-n DIR)
    inodes: int | None = None
    remounts: list[str] = field(default_factory=list)
    #: every capability dropped once the mounts are made (-D: an ordinary user's bwrap
    #: gave it CAP_SYS_ADMIN in its user namespace for them)
    drop_caps: bool = False
    #: a folder whose files are copied into the work dir (-f)
    files_from: str | None = None
    #: IPC and network namespaces made for this process (-i)
    own_namespaces: bool = False
    #: a /proc of the PID namespace's processes only, mounted on the one shown (-P)
    pids_only: bool = False
    #: (started by a launcher) PID 1 of a PID namespace made for this game, staying as the
    #: bot's reaper, and /proc that namespace's (-N)
    pid_namespace: bool = False
    #: resource limits: (resource, soft, hard), -1 unlimited (-r)
    rlimits: list[tuple[int, int, int]] = field(default_factory=list)
    #: paths given to the bot's uid (-o)
    owned: list[str] = field(default_factory=list)
    #: stay as the bot's reaper and report its status on this descriptor (-x FD), or stay
    #: as its reaper without a report (-R)
    status_fd: int | None = None
    reaper: bool = False
    #: become this uid (-u)
    uid: int | None = None
    #: the system call filter (-s), of the base set and these groups only (-g; None: every
    #: group)
    seccomp: bool = False
    syscalls: tuple[str, ...] | None = None
    #: a Landlock domain of the bot's own, writing only beneath these paths (-W)
    writable: list[str] = field(default_factory=list)
    #: in that domain, reading only beneath these paths and `writable` (-V; none: beneath
    #: every entry of / but /proc), and its own /proc files that runtimes read
    readable: list[str] = field(default_factory=list)
    #: the folder to start in (-d)
    chdir: str | None = None

    def argv(self) -> list[str]:
        """The options as the helper's command line (up to its "--")."""
        out: list[str] = []

        def each(flag: str, values: list) -> None:  # (None: the option is not given)
            out.extend(x for value in values if value is not None for x in (flag, str(value)))

        def flag(name: str, on: bool) -> None:
            out.extend([name] if on else [])

        each("-p", [self.parent])
        each("-c", self.cgroups)
        each("-m", [self.mount_namespace])
        each("-z", self.resets)
        each("-K", self.covers)
        each("-T", self.temps)
        each("-k", self.keeps)
        each("-w", [f"{self.work[0]}:{self.work[1]}" if self.work else None])
        each("-f", [self.files_from])
        each("-I", [self.inodes])
        each("-n", self.remounts)
        flag("-D", self.drop_caps)
        flag("-i", self.own_namespaces)
        flag("-P", self.pids_only)
        flag("-N", self.pid_namespace)
        each("-r", [":".join(map(str, limit)) for limit in self.rlimits])
        each("-o", self.owned)
        each("-x", [self.status_fd])
        flag("-R", self.reaper)
        each("-u", [self.uid])
        flag("-s", self.seccomp)
        each("-g", [",".join(("base", *self.syscalls)) if self.syscalls is not None else None])
        each("-W", self.writable)
        each("-V", self.readable)
        each("-d", [self.chdir])
        return out
