"""The command line that starts a bot in each tier: bubblewrap's options, the exec
helper's, the rlimits, and (without the helper) what runs between fork and exec."""

from __future__ import annotations

import ctypes
import fcntl
import functools
import hashlib
import os
import resource
import secrets
import shutil
import signal
import stat
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path

from judge.sandbox.cleanup import WORKDIR_PREFIX, remove_tree, sweep_once
from judge.sandbox.exec_helper import ExecOptions, helper_path
from judge.sandbox.limits import Limits
from judge.sandbox.program import Program
from judge.sandbox.slots import COPIES, LEAN_HIDDEN, Slot, lean_mount_namespace
from judge.sandbox.tiers import Tier, bwrap_path

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
_PR_SET_PDEATHSIG = 1
#: the bot's work dir inside bubblewrap, which is also its /tmp: one tmpfs of --disk bytes
BOT_DIR = "/tmp"
#: system folders shown read-only inside bubblewrap (a link stays a link)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                "/etc/localtime")


@functools.cache
def _system_binds() -> tuple[str, ...]:
    """The bwrap options that show the system's folders read-only, computed once."""
    options: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            options += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            options += ["--ro-bind", path, path]
    return tuple(options)


#: seconds for which the /etc shown under bwrap is taken as current before it is looked at
#: again (a package installed meanwhile is shown in the next games after that)
ETC_RECHECK_SECONDS = 10.0
#: the program's paths under /etc -> (when looked at, the view made or None, the bwrap
#: options that show /etc); of the machine's files, which no game can change: shared by
#: every game of the process (and a forked worker)
_etc_shown: dict[tuple[str, ...], tuple[float, Path | None, tuple[str, ...]]] = {}


def _etc_binds(extra: tuple[str, ...]) -> tuple[str, ...]:
    """The bwrap options that show the `SYSTEM_FILES` and `extra` (a program's own paths
    under /etc) read-only as they are now: one folder of copies as /etc, else each on its
    own (looked at again every `ETC_RECHECK_SECONDS`)."""
    now = time.monotonic()
    known = _etc_shown.get(extra)
    if known is not None and now - known[0] < ETC_RECHECK_SECONDS and \
            (known[1] is None or known[1].is_dir()):
        return known[2]
    paths = [p for p in dict.fromkeys((*SYSTEM_FILES, *extra)) if os.path.exists(p)]
    view = _etc_view(tuple(paths)) if paths else None
    options = ("--ro-bind", str(view), "/etc") if view is not None else \
        tuple(_ro_binds([Path(p) for p in paths], set()))
    _etc_shown[extra] = (now, view, options)
    return options


def _ro_binds(paths: list[Path], made: set[Path]) -> list[str]:
    """bwrap options that show each of `paths` read-only where it is, the folders on the
    way (not yet in `made`, which gets them) made open to all: bwrap would copy the modes
    of the host's (a home of mode 0700), which the slot's uid could not enter."""
    options: list[str] = []
    for path in paths:
        for parent in reversed(path.parents[:-1]):
            if parent not in made:
                made.add(parent)
                options += ["--perms", "0755", "--dir", str(parent)]
        options += ["--ro-bind", str(path), str(path)]
    return options


def _etc_view(paths: tuple[str, ...], top: str = "/etc") -> Path | None:
    """A folder of copies of `paths` (under `top`) as they are now, made once for each
    version of them (named by their files' stat), to be shown as /etc with one mount: a
    mount for each costs bwrap a remount each, and two judges' bwraps then wait on the
    kernel's lock of all mounts. As a bind would show them: each path as what it links to,
    the links inside a folder as links. None when they cannot be copied whole."""
    from judge.games.base import InputError
    from judge.solvers.cache import cache_dir

    if any(os.path.normpath(p) != p or not Path(p).is_relative_to(top) or p == top
           for p in paths):
        return None  # (a path that would not land inside the view)
    try:
        key = _etc_signature(paths)
        views = cache_dir() / "etc"
        view = views / key
        if view.is_dir():
            return view
        views.mkdir(mode=0o755, exist_ok=True)
        _remove_abandoned(views)
        building = Path(tempfile.mkdtemp(dir=views, prefix="building-"))
    except (OSError, InputError):
        return None
    try:
        for path in paths:
            if any(Path(path).is_relative_to(other) for other in paths if other != path):
                continue  # (copied with the folder that holds it)
            copy = building / os.path.relpath(path, top)
            for folder in reversed(copy.parents):  # (made open to all, whatever the umask)
                if folder.is_relative_to(building) and not folder.exists():
                    folder.mkdir()
                    os.chmod(folder, 0o755)
            if os.path.isdir(path):
                shutil.copytree(path, copy, symlinks=True, ignore=_not_plain)
            elif stat.S_ISREG(os.stat(path).st_mode):
                shutil.copy2(path, copy)
        os.chmod(building, 0o755)
        if _etc_signature(paths) == key:  # (not changed as it was copied)
            os.rename(building, view)  # whole, or not at all
    except OSError:
        pass  # (made meanwhile by another judge, or a file that cannot be read)
    finally:
        if building.exists():
            remove_tree(building)
    return view if view.is_dir() else None


def _etc_signature(paths: tuple[str, ...]) -> str:
    """What names a version of `paths`: the stat of each, of what it links to, and of each
    file and folder in it (a link inside a folder is not looked at: it cannot change but by
    being replaced, which changes the times of the folder that holds it)."""
    digest = hashlib.sha256()
    for path in paths:
        for name, st in ((path, os.lstat(path)), (path, os.stat(path)),
                         *((f, os.lstat(f)) for f in _files_in(path))):
            digest.update(f"{name}\0{st.st_mode}:{st.st_ino}:{st.st_size}:"
                          f"{st.st_mtime_ns}:{st.st_ctime_ns}\0".encode())
    return digest.hexdigest()[:32]


def _remove_abandoned(views: Path) -> None:
    """Remove the half-made views of judges killed as they made them (an hour old)."""
    with suppress(OSError), os.scandir(views) as entries:
        for entry in entries:
            if entry.name.startswith("building-") and \
                    time.time() - entry.stat(follow_symlinks=False).st_mtime > 3600:
                remove_tree(Path(entry.path))


def _not_plain(folder: str, names: list[str]) -> list[str]:
    """The names in `folder` that are neither folders, files nor links: not copied (a
    device, which might be read forever; a FIFO or socket, which cannot be copied)."""
    return [name for name in names
            if not stat.S_ISDIR(mode := os.lstat(os.path.join(folder, name)).st_mode)
            and not stat.S_ISREG(mode) and not stat.S_ISLNK(mode)]


def _files_in(path: str) -> list[str]:
    """What is in the folder `path` (or the one it links to) and is not a link, at any
    depth, sorted."""
    if not os.path.isdir(path):
        return []
    found = []
    for folder, subfolders, files in os.walk(path):
        found += [os.path.join(folder, name) for name in (*subfolders, *files)
                  if not os.path.islink(os.path.join(folder, name))]
    return sorted(found)


#: the devices shown in /dev under bwrap, as bwrap's --dev shows them (with /dev/pts)
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
#: the links in /dev that bwrap's --dev makes (but /dev/ptmx)
DEVICE_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
                "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "core": "/proc/kcore"}


@functools.cache
def _dev_view() -> Path | None:
    """As root: a folder of root's holding the `DEVICES` (nodes of the host's numbers), the
    `DEVICE_LINKS` and an empty shm, made once in the cache, to be shown as /dev with one
    mount: bwrap's --dev makes eight per game, and two judges' bwraps wait on each other
    for the kernel's lock of all mounts. None when it cannot be made or used safely (not
    root; a cache on a filesystem without devices, or in a folder that another user could
    change): bwrap's --dev then. A view is never changed once made: one found not as made
    is left as it is (a judge may be using it) and another is made beside it."""
    from judge.games.base import InputError
    from judge.solvers.cache import cache_dir

    if os.geteuid() != 0:
        return None
    try:
        numbers = {name: os.stat(f"/dev/{name}").st_rdev for name in DEVICES}
        key = hashlib.sha256(repr(sorted(numbers.items())).encode()).hexdigest()[:16]
        views = cache_dir() / "dev"
        views.mkdir(mode=0o755, parents=True, exist_ok=True)
        if not _roots_only(views):
            return None
        view = views / key
        if not _dev_view_sound(view, numbers):
            _remove_abandoned(views)
            view = _make_dev_view(views, key, numbers)
        with open(view / "null", "wb") as null:  # (refused where devices are not allowed)
            null.write(b"x")
    except (OSError, InputError):
        return None
    return view if _dev_view_sound(view, numbers) else None


def _make_dev_view(views: Path, key: str, numbers: dict[str, int]) -> Path:
    """A new view in `views`, named `key` if that is free, else `key-` and a token."""
    building = Path(tempfile.mkdtemp(dir=views, prefix="building-"))
    try:
        for name, rdev in numbers.items():
            os.mknod(building / name, 0o666 | stat.S_IFCHR, rdev)
            os.chmod(building / name, 0o666)
        for name, target in DEVICE_LINKS.items():
            os.symlink(target, building / name)
        (building / "shm").mkdir()
        os.chmod(building / "shm", 0o755)
        os.chmod(building, 0o755)
        view = views / key
        try:
            os.rename(building, view)  # (fails where one is: made meanwhile, or not sound)
        except OSError:
            if _dev_view_sound(view, numbers):
                return view
            view = views / f"{key}-{secrets.token_hex(4)}"
            os.rename(building, view)
        return view
    finally:
        if building.exists():
            remove_tree(building)


def _roots_only(folder: Path) -> bool:
    """Whether `folder` and every folder above it is root's and writable by no one else,
    or by others only as /tmp is (sticky: none can rename what is not theirs), so that only
    root can put anything else in its place."""
    real = Path(os.path.realpath(folder))
    for path in (real, *real.parents):
        st = os.lstat(path)
        if st.st_uid != 0 or not stat.S_ISDIR(st.st_mode) or \
                (st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX):
            return False
    return True


def _dev_view_sound(view: Path, numbers: dict[str, int]) -> bool:
    """Whether `view` is as `_dev_view` makes it: root's, open to no one else's writing,
    nothing in it but its devices (of those numbers), links and empty shm."""
    try:
        names = set(os.listdir(view))
        if names != {*numbers, *DEVICE_LINKS, "shm"}:
            return False
        for path, kind, mode in ((view, stat.S_IFDIR, 0o755), (view / "shm", stat.S_IFDIR, 0o755),
                                 *((view / name, stat.S_IFCHR, 0o666) for name in numbers)):
            st = os.lstat(path)
            if st.st_uid != 0 or stat.S_IFMT(st.st_mode) != kind or \
                    stat.S_IMODE(st.st_mode) != mode:
                return False
        return all(os.lstat(view / name).st_rdev == rdev for name, rdev in numbers.items()) \
            and all(os.readlink(view / name) == target
                    for name, target in DEVICE_LINKS.items()) and not os.listdir(view / "shm")
    except OSError:
        return False


def bwrap_command(program: Program, limits: Limits, files: dict[str, int]) -> list[str]:
    """bubblewrap and its options for `program` (up to the command): namespaces of its
    own, the system read-only, its runtime and file, a tmpfs of `limits.disk_bytes` as work dir and
    /tmp holding `files` (name -> fd to copy from)."""
    before, etc, after = _bwrap_options(program.shown_paths(), limits.disk_bytes)
    argv = [*before, *_etc_binds(etc), *after]
    for name, fd in files.items():
        argv += ["--perms", "0644", "--file", str(fd), f"{BOT_DIR}/{name}"]
    return [*argv, "--chdir", BOT_DIR]


@functools.lru_cache(maxsize=64)
def _bwrap_options(shown: tuple[Path, ...], disk_bytes: int
                   ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """bubblewrap's options for a program that must see `shown` (made once for each program
    and disk limit of a run, not for each game): those before /etc, the program's paths
    under /etc, and those after."""
    argv = [bwrap_path() or "bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc",
            "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent"]
    if os.geteuid() != 0:
        argv += ["--unshare-user", "--disable-userns"]
    etc = tuple(str(p) for p in shown if p.is_relative_to("/etc"))
    # bwrap's own /dev (no view of root's to show) is a tmpfs the bot's user may write in
    # as an ordinary user's bwrap: read-only, uncapped files in it would hold memory. The
    # view of root's cannot be (bwrap's read-only mount is one without devices): its nodes
    # are root's, and the bot's seccomp filter refuses to set their timestamps
    dev = _dev_view()
    shown_dev = ("--dev-bind", str(dev), "/dev") if dev else ("--dev", "/dev", "--remount-ro",
                                                               "/dev")
    # /dev/shm (POSIX shared memory) a tmpfs of its own, capped like the work dir: in
    # bwrap's /dev it would be uncapped, and not counted as the bot's memory without cgroups
    after = ["--proc", "/proc", *(() if pids_only_proc() else _proc_masks()), *shown_dev,
             "--size", str(disk_bytes), "--perms", "01777", "--tmpfs", "/dev/shm",
             "--size", str(disk_bytes), "--tmpfs", BOT_DIR,
             *_ro_binds([p for p in shown if str(p) not in etc], set())]
    return (*argv, *_system_binds()), etc, tuple(after)


def readable_without_bwrap(program: Program) -> list[str]:
    """What a bot may read without bubblewrap (its Landlock domain's, beside its folders and
    devices): the system's folders, /etc and its program's paths, as bubblewrap shows them;
    not the judge's files, database, cache or other bots' files. The whole of /etc: where a
    file bubblewrap does not show is missing, here it would be refused, and some programs
    stop at that (Node.js at /etc/ssl/openssl.cnf)."""
    return list(dict.fromkeys([*SYSTEM_DIRS, "/etc",
                               *(str(path) for path in program.shown_paths())]))


#: the devices a bot may open for writing (its Landlock domain's): not the machine's
#: terminals (`/dev/pts`, `/dev/ptmx`: a user's terminal, and pty numbers that another bot
#: reads), nor a new pty under an ordinary user's bwrap (see `plan`), nor `/proc` (another
#: process of its uid)
WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
                    "/dev/tty")
#: the machine-wide files and folders of /proc hidden under an ordinary user's bubblewrap
#: (as Docker masks paths): counters a bot can move and another read (memory, forks, open
#: files and inodes, interrupts, pressure, locks, load), and the rest of /proc/sys
PROC_MASKED_FILES = ("meminfo", "stat", "vmstat", "zoneinfo", "buddyinfo", "pagetypeinfo",
                     "slabinfo", "loadavg", "interrupts", "softirqs", "schedstat",
                     "diskstats", "locks", "key-users", "swaps", "cgroups", "timer_list",
                     "sched_debug", "latency_stats", "kallsyms")
PROC_MASKED_DIRS = ("sys", "pressure", "fs", "irq", "bus", "acpi", "scsi", "tty", "driver")


@functools.cache
def pids_only_proc() -> bool:
    """Whether a game's /proc shows processes only, no machine-wide file (`-P`): as root
    (the helper then has the capability to mount it in the game's mount namespace), on
    Linux 5.8 or later (subset=pid)."""
    if os.geteuid() != 0:
        return False
    try:
        major, minor = (int(part) for part in os.uname().release.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= (5, 8)


@functools.cache
def _proc_masks() -> tuple[str, ...]:
    """bwrap's options that hide the `PROC_MASKED_FILES` (unreadable) and `_DIRS` (empty
    and read-only) that this machine's /proc has, where /proc cannot be one of the game's
    processes only."""
    options: list[str] = []
    for name in PROC_MASKED_FILES:
        if os.path.isfile(f"/proc/{name}"):
            options += ["--ro-bind", "/dev/null", f"/proc/{name}"]
    for name in PROC_MASKED_DIRS:
        if os.path.isdir(f"/proc/{name}"):
            options += ["--size", "4096", "--tmpfs", f"/proc/{name}", "--remount-ro",
                        f"/proc/{name}"]
    return tuple(options)


def bwrap_argv(program: Program, limits: Limits, files: dict[str, int],
               inner: ExecOptions) -> tuple[list[str], int]:
    """bubblewrap's command line for `program`, with the helper and its `inner` options
    (the work dir given to the bot's uid), and the descriptor of the helper that bubblewrap
    must be given (or -1): bwrap starts it through /proc/self/fd, so that no mount is made
    to show it inside."""
    argv = bwrap_command(program, limits, files)
    helper = helper_path()
    if helper is None:  # a non-root judge without a C compiler: no helper inside
        return [*argv, "--", *program.argv], -1
    fd = _helper_fd(helper)
    # bwrap's tmpfs mounts (--size bounds only their bytes) bounded in files by the helper,
    # given the capability for its mounts alone: it drops every capability with its uid
    # (as root), or at once after them (as an ordinary user: in bwrap's user namespace)
    inner = replace(inner, owned=[BOT_DIR], inodes=limits.tmpfs_files,
                    remounts=[BOT_DIR, "/dev/shm"], drop_caps=inner.uid is None)
    argv[1:1] = ["--cap-add", "CAP_SYS_ADMIN"]
    if pids_only_proc() and inner.uid is not None:
        # as root: the helper mounts on /proc a proc of the game's processes only
        inner.pids_only = True
    # the helper is the namespace's PID 1, not bwrap's own init: no process in the bot's
    # PID namespace runs outside its filter but the helper, which is not dumpable (bwrap's
    # init, as an ordinary user, runs as the bot's uid, dumpable, its memory open to it)
    return [*argv, "--as-pid-1", "--", f"/proc/self/fd/{fd}", *inner.argv(), "--",
            *program.argv], fd


@functools.lru_cache(maxsize=64)
def _shows_hidden(shown: tuple[Path, ...]) -> bool:
    """Whether bwrap must show a program (its `shown_paths`) a path that its lean mount
    namespace lacks (a language table of the user's may name one); once per program."""
    return any(path.is_relative_to(hidden) for path in shown for hidden in LEAN_HIDDEN)


@functools.cache
def _helper_fd(helper: str) -> int:
    """A descriptor of the helper's file, kept open for the judge's life (above 2, which
    the bot's stdio takes in the child)."""
    fd = os.open(helper, os.O_RDONLY | os.O_CLOEXEC)
    if fd < 3:
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
        os.close(fd)
        fd = moved
    return fd


def readable_by_others(program: Program) -> Program:
    """`program`, or the same with a copy of its file that any user may read (and run, if
    it could be run) when the file itself is private: a bot under a uid of its own must
    read its file. Copies are kept by content in root's `COPIES` folder."""
    file = program.shown()
    try:
        st = os.stat(file)
    except OSError:
        return program
    if st.st_mode & 0o004:
        return program
    version = (file, st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode & 0o111)
    copy = _readable_copy(*version)
    if not copy.exists():  # removed since: made again
        _readable_copy.cache_clear()
        copy = _readable_copy(*version)
    return replace(program, argv=(*program.argv[:-1], str(copy)))


@functools.lru_cache(maxsize=256)
def _readable_copy(file: Path, ino: int, size: int, mtime_ns: int, runnable: int) -> Path:
    """The copy of `file` as it is now (its inode, size and time name the version): made
    once, not read and hashed again for every game."""
    data = file.read_bytes()
    folder = COPIES / hashlib.sha256(data).hexdigest()[:32]
    copy = folder / file.name
    if not copy.exists():
        COPIES.mkdir(mode=0o711, parents=True, exist_ok=True)
        os.chmod(COPIES, 0o711)
        folder.mkdir(mode=0o755, exist_ok=True)
        tmp = folder / f".{file.name}.{os.getpid()}"
        tmp.write_bytes(data)
        os.chmod(tmp, 0o755 if runnable else 0o644)
        os.replace(tmp, copy)
    return copy


#: world-writable folders that a bot under a slot uid gets private (tmpfs) copies of,
#: outside bubblewrap: nothing it writes there outlives its game or reaches the host
SHARED_TEMPS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


@functools.cache
def shared_temps() -> tuple[str, ...]:
    return tuple(d for d in SHARED_TEMPS
                 if os.path.isdir(d) and not os.path.islink(d) and os.stat(d).st_mode & 0o002)


@functools.lru_cache(maxsize=64)
def unreachable_for(paths: tuple[Path, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`unreachable`, once per set of paths in a process (a run asks at every game)."""
    covers, keeps = unreachable(list(paths))
    return tuple(covers), tuple(keeps)


def unreachable(paths: list[Path]) -> tuple[list[str], list[str]]:
    """For a slot uid outside bubblewrap: (covers, keeps) for the helper's -K and -k.

    A folder on the way to a needed path that others may not enter (a home of mode 0700)
    is covered with an empty tmpfs, and the needed paths under it are bound back; so are
    the needed paths under the shared temporary folders, which the bot gets private, and
    under /sys, covered whole.
    """
    # /sys is covered whole: the slots' cgroup counters and the machine's memory figures
    # are there, and no runtime needs it (under bubblewrap it is not shown)
    covers: list[str] = ["/sys"] if os.path.isdir("/sys") else []
    keeps: list[str] = []
    temps = [Path(t) for t in shared_temps()]
    for path in paths:
        if any(path.is_relative_to(t) for t in (*temps, Path("/sys"))):
            keeps.append(str(path))
            continue
        for parent in reversed(path.parents[:-1]):  # from the top down, without "/"
            with suppress(OSError):
                if not os.stat(parent).st_mode & 0o001:
                    if str(parent) not in covers:
                        covers.append(str(parent))
                    keeps.append(str(path))
                    break
    return covers, keeps


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


#: signals queued to the bot's processes at once, their timers' included (RLIMIT_SIGPENDING):
#: the kernel counts them per uid, the judge's and every bot's as an ordinary user, where a
#: bot that held all its uid may (96,362 of them under bubblewrap, here) made another's
#: sigqueue fail (EAGAIN) while it held them; no runtime of the table queues one
PENDING_SIGNALS = 64


def rlimits(limits: Limits, own_uid: bool, starters: int = 0,
            address_space: bool = True) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) for the bot, never above the judge's own hard limits; without
    the address-space limit for a managed runtime (`Program.address_space`)."""
    # with a uid of its own, the slot's pids cgroup (when there is one) should be the limit
    # that a fork meets first, so that the judge learns of it: RLIMIT_NPROC is one above;
    # under the judge's uid, its processes now and those that start the bot do not count,
    # nor threads the judge may start meanwhile (the judge stops the bot at the limit)
    nproc = (limits.processes + 1 if own_uid
             else _user_tasks() + starters + limits.processes + 8)
    wanted = [
        # CPU: SIGXCPU at the soft limit, SIGKILL a second later if the bot ignores it
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        *([(resource.RLIMIT_AS, limits.memory_bytes, limits.memory_bytes)]
          if address_space else []),
        (resource.RLIMIT_NPROC, nproc, None),
        (resource.RLIMIT_FSIZE, limits.file_bytes, None),
        (resource.RLIMIT_NOFILE, limits.open_files, None),
        (resource.RLIMIT_CORE, 0, None),
        (resource.RLIMIT_SIGPENDING, PENDING_SIGNALS, None),
    ]
    result = []
    for res, soft, hard in wanted:
        ceiling = _ceiling(res)
        hard = soft if hard is None else hard
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        result.append((res, soft, hard))
    return result


@functools.cache
def _ceiling(res: int) -> int:
    """The judge's own hard limit of `res` (it never changes them)."""
    return resource.getrlimit(res)[1]


@functools.cache
def libc_prctl():  # noqa: ANN202 - libc's prctl, or None (not glibc or musl)
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # bots then outlive a killed judge
        return None


def confine_child(rlimits: list[tuple[int, int, int]], judge: int, prctl) -> None:  # noqa: ANN001
    # without the helper only: runs in the child between fork and exec
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # die with the judge, even if it is killed
        if os.getppid() != judge:  # it died before that took effect
            os._exit(1)
    for res, soft, hard in rlimits:
        resource.setrlimit(res, (soft, hard))
    # every signal as a new process has it, whatever the judge ignored (under nohup,
    # SIGHUP) or blocked: an ignored disposition survives exec
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for sig in signal.valid_signals():
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            with suppress(OSError, ValueError, RuntimeError):
                signal.signal(sig, signal.SIG_DFL)


def rlim_arg(value: int) -> int:
    return -1 if value == resource.RLIM_INFINITY else value


@dataclass
class Launch:
    """How to start one bot: its command line, where, with what, and what to keep."""

    argv: list[str]
    cwd: str
    env: dict[str, str]
    #: descriptors the child gets (the judge closes its copies once it has started, but
    #: for `kept_fds`: the slot's, and the helper's, kept for the judge's life)
    pass_fds: list[int]
    kept_fds: list[int]
    preexec: Callable[[], None] | None
    #: the read ends of the helper's status pipe and of bwrap's --info-fd (or -1)
    status_read: int
    info_read: int
    #: a work dir on disk (files handed over, or no tmpfs for it), removed at the end
    workdir: Path | None
    #: processes of the judge's own in the bot's process group, and in its pids cgroup
    starters: int
    in_pids: int
    #: the mark in its environment (tiers without cgroups find what left its session)
    token: str
    #: started by the slot's launcher, in the slot's cgroups (see `Slot.born_inside`)
    inside: bool = False


def plan(program: Program, limits: Limits, tier: Tier, slot: Slot | None,
         files: dict[str, bytes] | None, env: dict[str, str] | None) -> Launch:
    """The command line and set-up that start `program` in `tier` (see `Confined`)."""
    mode = tier.sandbox
    workdir: Path | None = None
    info_read = -1
    helper = helper_path()
    # under bwrap its starters (bwrap, joined by the helper that becomes it, and the inner
    # helper, the namespace's PID 1 and the bot's parent) are in the slot's pids cgroup
    # too: whatever becomes of them, they end with the slot's processes
    in_pids = 2 if mode == "bwrap" and helper is not None else 0
    # ... or all of them are born in the slot's cgroups, started by its launcher (which
    # lives there): the launcher, and the helper it forks (the bot's reaper: without bwrap
    # the PID 1 of the game's PID namespace; under bwrap bwrap and the helper inside);
    # nothing then joins a cgroup
    inside = slot is not None and helper is not None and slot.born_inside()
    if inside:
        in_pids = 3 if mode == "bwrap" else 2
    starter_joins, bot_joins = slot.prepare(limits.memory_bytes, limits.processes + in_pids) \
        if slot else ([], [])
    resets: list[int] = []
    # (what started the bot is counted until its exec, then only the bot)
    if inside and slot is not None:
        starter_joins, bot_joins = [], []
        resets = slot.counter_resets()
    own_uid = slot is not None
    if own_uid and program.shows is None:  # its own file must be readable by its uid:
        program = readable_by_others(program)  # a private file gets a copy
    #: processes of the judge's own in the bot's process group: under bwrap, bwrap and the
    #: namespace's PID 1 (the helper, the bot's parent, or without it bwrap's own init);
    #: else the helper staying as the bot's parent (as root, its PID namespace's PID 1)
    starters = 2 if mode == "bwrap" else 1 if helper else 0
    # the helper's options: cgroups, rlimits, uid, no user namespaces
    # under bwrap the outer helper puts the starters in the slot's cgroups (see above),
    # and the bot stays in those of them that are its own too (v1's pids)
    joined = starter_joins if in_pids else []
    bot_rlimits = rlimits(limits, own_uid, starters, program.address_space)
    inner = ExecOptions(
        cgroups=[fd for fd in bot_joins if fd not in joined], resets=resets,
        rlimits=[(res, rlim_arg(soft), rlim_arg(hard)) for res, soft, hard in bot_rlimits],
        uid=slot.uid if slot is not None else None, seccomp=True, syscalls=program.syscalls)
    token = secrets.token_hex(8)
    base_env = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "JUDGE_BOT": token, **dict(program.env)}
    kept_fds = list(dict.fromkeys([*starter_joins, *bot_joins, *resets]))
    pass_fds = list(kept_fds)
    memfds: list[int] = []
    preexec = None
    status_read = -1
    if helper is not None:  # the helper reports the bot's own exit here
        status_read, status_write = os.pipe()
        os.set_blocking(status_read, False)
        pass_fds.append(status_write)
        inner.status_fd = status_write
    if mode == "bwrap":
        # its own /dev/shm and the usual devices: not /dev/ptmx of an ordinary user's
        # bwrap, whose ptys are the kernel's memory, counted in one pool of the machine
        inner.writable = [BOT_DIR, "/dev/shm", *WRITABLE_DEVICES]
        for content in (files or {}).values():
            fd = os.memfd_create("judge-file", 0)
            os.write(fd, content)
            os.lseek(fd, 0, os.SEEK_SET)
            memfds.append(fd)
        info_read, info_write = os.pipe()
        pass_fds += [*memfds, info_write]
        argv, helper_fd = bwrap_argv(program, limits,
                                     dict(zip(files or {}, memfds, strict=True)), inner)
        # (as root) a mount namespace with fewer mounts for bwrap to copy, read and undo
        lean = lean_mount_namespace() if helper is not None and not _shows_hidden(
            program.shown_paths()) else -1
        for fd in (helper_fd, lean):
            if fd >= 0:
                pass_fds.append(fd)
                kept_fds.append(fd)
        argv[1:1] = ["--info-fd", str(info_write)]
        if helper is not None:  # bwrap dies with the judge, even one killed as it starts
            # (the launcher that starts it, a subreaper, reaps bwrap's PID 1, which exits
            # after bwrap: an init that never reaps would keep it as a zombie)
            outer = ExecOptions(parent=os.getpid(), cgroups=joined,
                                mount_namespace=lean if lean >= 0 else None)
            argv = [helper, *outer.argv(), "--", *argv]
        cwd = "/"
        env = {**base_env, "HOME": BOT_DIR, "TMPDIR": BOT_DIR, **(env or {})}
    else:
        box = slot if helper is not None else None  # the slot whose folder the bot gets
        boxed = box is not None
        if files or not boxed:  # files to hand over, or a work dir on disk
            sweep_once()
            workdir = Path(tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-"))
            for name, content in (files or {}).items():
                (workdir / name).write_bytes(content)
        # as root, the helper mounts a private tmpfs on the slot's own (empty) folder:
        # no folder to make or remove per game
        cwd = str(box.box()) if box is not None else str(workdir)
        env = {**base_env, "HOME": cwd, "TMPDIR": cwd, **(env or {})}
        # its own folders (as an ordinary user, not the shared /tmp or /dev/shm) and devices
        inner.writable = [cwd, *(shared_temps() if boxed else ()), *WRITABLE_DEVICES]
        # and reads only what bubblewrap would show it: the system, its runtime, its file
        inner.readable = readable_without_bwrap(program)
        if helper is not None:
            inner.parent = os.getpid()
            if boxed:  # its own namespaces, tmpfs mounts, and what it must not see covered
                inner.covers, inner.keeps = map(list, unreachable_for(program.shown_paths()))
                inner.pids_only = pids_only_proc()  # (no machine-wide file in /proc)
                # PID 1 of a PID namespace of the game's own (cloned so by the launcher),
                # whose /proc shows no process of the judge or of another game
                inner.pid_namespace = True
                inner.temps = list(shared_temps())
                inner.own_namespaces = True
                inner.work, inner.chdir = (limits.disk_bytes, cwd), cwd
                inner.inodes = limits.tmpfs_files
                inner.files_from = str(workdir) if workdir is not None else None
            argv = [helper, *inner.argv(), "--", *program.argv]
        else:
            argv = list(program.argv)
            preexec = functools.partial(confine_child, bot_rlimits, os.getpid(), libc_prctl())
    return Launch(argv, cwd, env, pass_fds, kept_fds, preexec, status_read, info_read,
                  workdir, starters, in_pids, token, inside)
