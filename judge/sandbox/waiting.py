"""Seeing, from /proc, that a bot waits for input that will not come.

The judge has sent all it will send before the bot moves: a bot asleep in a read of that
input can no longer move, and may lose at once what it would lose at its time limit. A
look at the bot's own process finds it so when every one of its threads sleeps in a
system call that only new input, or another of its threads, can end before the move's
deadline:

- a read of its standard input (read, readv, pread64; or poll, select or epoll on it, and
  on nothing else from outside the process), by at least one thread;
- a wait for another thread: a futex, or epoll on the process's own pipes and eventfds;

each with no timeout, or one that ends after the deadline; with nothing else of the bot
alive (no child, no process left elsewhere) and no timer that could wake it (a POSIX
timer, or SIGALRM caught). The caller sees the same `View` again after a grace: each
thread's context switches, unchanged, say that none of them ran in between. A slow bot
(computing, sleeping, writing its output) is never in such a state. Where a look cannot
be had (unknown system call numbers, no /proc/PID/syscall, no access), it finds nothing,
and the time limit decides.
"""

from __future__ import annotations

import os
import struct
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import NamedTuple

from judge.sandbox.tiers import Tier

#: what each system call that can wait on input or on a thread is, by its number
#: (x86-64: poll, select and epoll_wait exist; arm64 has only their newer forms)
KINDS: dict[str, dict[int, str]] = {
    "x86_64": {0: "read", 17: "read", 19: "read", 7: "poll", 271: "ppoll", 23: "select",
               270: "pselect6", 232: "epoll", 281: "epoll", 441: "epoll_pwait2",
               202: "futex"},
    "aarch64": {63: "read", 65: "read", 67: "read", 73: "ppoll", 72: "pselect6",
                22: "epoll", 441: "epoll_pwait2", 98: "futex"},
}
#: this machine's (None: unknown, nothing is ever found waiting)
_KINDS = KINDS.get(os.uname().machine)

#: poll events that only ask for input (POLLIN, POLLPRI, POLLRDNORM, POLLRDBAND)
_POLL_INPUT = 0x1 | 0x2 | 0x40 | 0x80
#: epoll events that wait for room to write (EPOLLOUT, EPOLLWRNORM, EPOLLWRBAND)
_EPOLL_OUTPUT = 0x4 | 0x100 | 0x200
#: futex commands that wait (FUTEX_WAIT, FUTEX_WAIT_BITSET), and its flags
_FUTEX_WAIT, _FUTEX_WAIT_BITSET = 0, 9
_FUTEX_PRIVATE, _FUTEX_CLOCK_REALTIME = 0x80, 0x100
#: SIGALRM's bit in a signal mask of /proc/PID/status (alarm and setitimer send it)
_SIGALRM_BIT = 1 << (14 - 1)
#: the most descriptors a poll or select is looked into
_MOST_FDS = 1024


def blind_reason(tier: Tier) -> str | None:
    """Why the judge cannot see a bot waiting for input in `tier` on this machine, or None."""
    machine = os.uname().machine
    if _KINDS is None:
        return f"the system call numbers of {machine} are not known to the judge"
    for name in ("syscall", "timers"):
        if not os.path.exists(f"/proc/self/{name}"):
            return f"this kernel does not show a process's /proc/PID/{name}"
    scope = 0
    with suppress(OSError, ValueError), open("/proc/sys/kernel/yama/ptrace_scope") as fh:
        scope = int(fh.read())
    if scope >= 3 or (scope == 2 and os.geteuid() != 0):
        return f"kernel.yama.ptrace_scope = {scope} hides a bot's system calls from the judge"
    if not tier.helper and not (tier.cgroups and tier.cgroup_limits):
        return "without the exec helper or cgroups the judge does not see all of a bot's " \
               "processes"
    return None


class View(NamedTuple):
    """One look at a bot found waiting: each thread's system call and context switches."""

    threads: tuple[tuple[int, str, str], ...]


class _Unseen(Exception):
    """What a look needs cannot be read (the process changed or hides it)."""


@dataclass
class _Look:
    """What one look needs: the process, the deadline, what its input is."""

    pid: int
    #: the move's deadline, and when the bot started (what a relative timeout is after)
    deadline: float
    started: float
    #: (st_dev, st_ino) of the bot's input
    stdin: tuple[int, int]
    _mem: int = -1

    def memory(self, address: int, size: int) -> bytes:
        """`size` bytes of the process's memory at `address`."""
        try:
            if self._mem < 0:
                self._mem = os.open(f"/proc/{self.pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
            data = os.pread(self._mem, size, address)
        except (OSError, OverflowError):
            raise _Unseen from None
        if len(data) != size:
            raise _Unseen
        return data

    def close(self) -> None:
        if self._mem >= 0:
            os.close(self._mem)

    def late(self, seconds: float | None) -> bool:
        """Whether a wait of `seconds` (None: for ever), begun since the bot started, ends
        after the deadline."""
        return seconds is None or self.started + seconds >= self.deadline

    def timespec(self, address: int, scale: float = 1e-9) -> float | None:
        """The seconds of a timespec (a timeval: `scale` 1e-6) at `address`, None for a
        null pointer (no timeout)."""
        if address == 0:
            return None
        sec, frac = struct.unpack("=qq", self.memory(address, 16))
        if sec < 0 or frac < 0:
            raise _Unseen
        return sec + frac * scale

    def file(self, fd: int) -> tuple[str, tuple[int, int]]:
        """What descriptor `fd` of the process is: its link's text, (device, inode)."""
        link = os.readlink(f"/proc/{self.pid}/fd/{fd}")
        st = os.stat(f"/proc/{self.pid}/fd/{fd}")
        return link, (st.st_dev, st.st_ino)


def look(pid: int, deadline: float, started: float, stdin: tuple[int, int],
         alone: Callable[[int], bool]) -> View | None:
    """The bot's process `pid` when it waits for input as the module says, else None.

    `deadline` and `started` are on the monotonic clock; `stdin` is the (device, inode) of
    the bot's input; `alone(n)` says whether a process of n threads is all of the bot.
    """
    if _KINDS is None:
        return None
    task = f"/proc/{pid}/task"
    seen = _Look(pid, deadline, started, stdin)
    try:
        tids = sorted(int(t) for t in os.listdir(task))
        if seen.file(0)[1] != stdin:
            return None  # its fd 0 is no longer the input the judge writes to
        threads, readers = [], 0
        for tid in tids:
            # its state and switches first: seen again unchanged, they say it has not run
            # since, so that what is read after them (its system call, the memory that
            # call points to) held all the while
            with open(f"{task}/{tid}/status") as fh:
                status = dict(line.split(":", 1) for line in fh if ":" in line)
            if not status["State"].strip().startswith("S"):
                return None  # running, stopped, or in the kernel's own wait
            if tid == pid and (int(status["SigCgt"], 16) & _SIGALRM_BIT):
                return None  # an alarm may wake it (a read with a timeout, the old way)
            with open(f"{task}/{tid}/syscall") as fh:
                call = fh.read().strip()
            waits = _waits(call, seen)
            if waits is None:
                return None
            with open(f"{task}/{tid}/children") as fh:
                if fh.read().strip():
                    return None  # a child process: it may move for the bot
            readers += waits == "input"
            switches = status["voluntary_ctxt_switches"].strip() + "/" + \
                status["nonvoluntary_ctxt_switches"].strip()
            threads.append((tid, call, switches))
        with open(f"/proc/{pid}/timers") as fh:
            if fh.read().strip():
                return None  # a POSIX timer may wake it
    except (OSError, KeyError, ValueError, _Unseen):
        return None  # (a thread or descriptor gone meanwhile, or hidden)
    finally:
        seen.close()
    if readers == 0 or not alone(len(threads)):
        return None
    return View(tuple(threads))


def _waits(call: str, seen: _Look) -> str | None:
    """What a thread in system call `call` (a line of /proc/PID/syscall) waits for:
    "input", "thread" (another thread of the process), or None (anything else, or a
    wait that may end before the deadline)."""
    fields = call.split()
    if len(fields) < 7 or _KINDS is None:
        return None  # "running", or asleep outside a system call ("-1 sp pc")
    kind = _KINDS.get(int(fields[0]))
    args = [int(a, 16) for a in fields[1:7]]
    if kind == "read":
        return "input" if args[0] == 0 else None
    if kind == "futex":
        return "thread" if _futex_late(args, seen) else None
    if kind in ("poll", "ppoll"):
        timeout = _milliseconds(args[2]) if kind == "poll" else seen.timespec(args[2])
        return _poll_input(args[0], args[1], seen) if seen.late(timeout) else None
    if kind in ("select", "pselect6"):
        timeout = seen.timespec(args[4], 1e-6 if kind == "select" else 1e-9)
        return _select_input(args[0], args[1:4], seen) if seen.late(timeout) else None
    if kind in ("epoll", "epoll_pwait2"):
        timeout = _milliseconds(args[3]) if kind == "epoll" else seen.timespec(args[3])
        return _epoll_waits(args[0], seen) if seen.late(timeout) else None
    return None


def _milliseconds(value: int) -> float | None:
    """A timeout in milliseconds (an int in a register): seconds, None for a negative one."""
    value &= 0xFFFFFFFF
    return None if value >= 1 << 31 else value / 1000


def _futex_late(args: list[int], seen: _Look) -> bool:
    """Whether a futex call waits (for another thread) until after the deadline."""
    op, timeout = args[1], args[3]
    command = op & ~(_FUTEX_PRIVATE | _FUTEX_CLOCK_REALTIME)
    if command == _FUTEX_WAIT:  # a relative timeout
        return seen.late(seen.timespec(timeout))
    if command != _FUTEX_WAIT_BITSET:
        return False
    at = seen.timespec(timeout)  # an absolute one, on the monotonic or the real-time clock
    if at is None:
        return True
    now = time.time() if op & _FUTEX_CLOCK_REALTIME else time.monotonic()
    return at - now >= seen.deadline - time.monotonic()


def _poll_input(address: int, count: int, seen: _Look) -> str | None:
    """"input" when a poll's descriptors are standard input alone, asked for input."""
    if not 1 <= count <= _MOST_FDS:
        return None
    data = seen.memory(address, 8 * count)
    fds = [struct.unpack_from("=ihh", data, 8 * i)[:2] for i in range(count)]
    if any(fd > 0 or (fd == 0 and events & ~_POLL_INPUT) for fd, events in fds):
        return None
    return "input" if any(fd == 0 for fd, _ in fds) else None


def _select_input(count: int, sets: list[int], seen: _Look) -> str | None:
    """"input" when a select asks for input on standard input alone."""
    if not 1 <= count <= _MOST_FDS or sets[0] == 0:
        return None
    size = (count + 63) // 64 * 8
    masks = []
    for address in sets:
        data = b"\0" * size if address == 0 else seen.memory(address, size)
        masks.append(int.from_bytes(data, "little") & ((1 << count) - 1))
    return "input" if masks == [1, 0, 0] else None


def _epoll_waits(epfd: int, seen: _Look) -> str | None:
    """"input" when an epoll set holds standard input (asked for input) and otherwise the
    process's own pipes and eventfds; "thread" when it holds only those; else None."""
    if seen.file(epfd)[0] != "anon_inode:[eventpoll]":
        return None
    with open(f"/proc/{seen.pid}/fdinfo/{epfd}") as fh:
        targets = [line.split() for line in fh if line.startswith("tfd:")]
    waits = "thread"
    for fields in targets:  # tfd: N events: HEX data: HEX pos:P ino:HEX sdev:HEX
        fd, events = int(fields[1]), int(fields[3], 16)
        ino = next((int(f[4:], 16) for f in fields if f.startswith("ino:")), -1)
        target = seen.file(fd)
        if target[1][1] != ino or events & _EPOLL_OUTPUT:
            return None  # (or a descriptor closed, or reused since it was added)
        if target[1] == seen.stdin:
            waits = "input"
        elif not target[0].startswith("pipe:") and target[0] != "anon_inode:[eventfd]":
            return None
    return waits
