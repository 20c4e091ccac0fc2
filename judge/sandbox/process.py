"""Starting and ending one confined bot process: start it through the exec helper, talk
over pipes (or a pty), watch its use, kill everything it started, reap it, clean up.

The judge keeps the helper running as a launcher (see `launcher.py`), which forks each
bot's starter on request: no fork of the judge, no exec of the helper per game. In the
strongest tier the chain is ``judge-exec`` (dies with the judge, reaps all that the bot
leaves) -> ``bwrap`` (namespaces, a minimal read-only filesystem, a size-capped tmpfs for
the work dir and /tmp) -> ``judge-exec`` (sets rlimits, becomes the slot's uid, forbids
user namespaces) -> the bot, all born in the slot's cgroups; without bwrap as root the
slot's launcher's child is ``judge-exec``, PID 1 of the game's PID namespace, and the bot's
parent. The bot's processes are known from the slot's cgroup,
never by scanning /proc; the judge waits on the launcher's report (or a pidfd), never by
sleeping in turn.
"""

from __future__ import annotations

import os
import select
import signal
import termios
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

import pexpect.fdpexpect

from judge.sandbox import gvisor
from judge.sandbox.cleanup import remove_tree
from judge.sandbox.commandline import SAFE_PATH, Launch, plan
from judge.sandbox.context import SandboxContext, sandbox_context
from judge.sandbox.exec_helper import helper_path
from judge.sandbox.launcher import Launched, Spawned, Started
from judge.sandbox.limits import Limits, Usage
from judge.sandbox.meters import (
    Meter,
    bot_processes,
    descendants,
    group_members,
    meter_for,
    status_kib,
)
from judge.sandbox.program import Program
from judge.sandbox.slots import Slot
from judge.sandbox.spawning import popen
from judge.sandbox.stderr import StderrTail
from judge.sandbox.tiers import tier_for
from judge.sandbox.waiting import View, look

#: the number of read(2), to tell a bot that waits for input (x86-64, arm64)
_READ_SYSCALL = {"x86_64": 0, "aarch64": 63}.get(os.uname().machine, -1)


class Exit(NamedTuple):
    """How a bot process ended: exit status or signal, and what it used."""

    returncode: int  # negative: killed by that signal
    cpu_seconds: float
    #: the most memory seen: its peak resident size, or the largest address space sampled
    memory_bytes: int
    #: the kernel killed a process of the bot for exceeding its memory (cgroup)
    oom_killed: bool = False
    #: the most memory the kernel reported at its end: the slot's peak (cgroups: page cache
    #: and what started the bot included), else the judge's sums and the peak resident size
    #: of its starter's tree (bubblewrap's own included); the game's figure is
    #: `Confined.usage`'s
    peak_bytes: int = 0

    @property
    def signal(self) -> int | None:
        """The signal that killed the bot, if any."""
        return -self.returncode if self.returncode < 0 else None

    @property
    def signal_name(self) -> str | None:
        """That signal's name (``SIGKILL``; ``signal 40`` for one without a name), if any."""
        number = self.signal
        if number is None:
            return None
        try:
            return signal.Signals(number).name
        except ValueError:
            return f"signal {number}"


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def marked_processes(token: str) -> list[int]:
    """Live processes whose environment carries ``JUDGE_BOT=<token>``: a bot's descendants
    even after they left its process group and session (tiers without cgroups only)."""
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


class Confined:
    """One bot process under its limits: pipes (or a pty), private directory, stderr tail."""

    def __new__(cls, program: Program, limits: Limits, sandbox: str = "auto",
                *args: object, **kwargs: object) -> Confined:
        """A `Confined`, or in the gvisor tier an `InGVisor`."""
        if cls is Confined and tier_for(sandbox).sandbox == "gvisor":
            return super().__new__(InGVisor)
        return super().__new__(cls)

    def __init__(
        self, program: Program, limits: Limits, sandbox: str = "auto", pty: bool = False,
        files: dict[str, bytes] | None = None, env: dict[str, str] | None = None,
    ) -> None:
        """Start `program` with `files` (name -> content) in its private directory and `env`
        added to its clean environment; raises `InputError` for a bad `sandbox`, `OSError`
        if the judge cannot start it."""
        self.limits = limits
        self.tier = tier_for(sandbox)
        self.mode = self.tier.sandbox
        #: what this process keeps for its bots (its slots, launchers, stderr pump)
        self.context: SandboxContext = sandbox_context()
        #: a slot of this game's alone while it runs (given back by `kill`)
        self.slot: Slot | None = self.context.take_slot() if self.tier.uid else None
        try:
            self._begin(program, limits, pty, files, env)
        except BaseException:
            self.context.give_back(self.slot)
            raise

    def _begin(self, program: Program, limits: Limits, pty: bool,
               files: dict[str, bytes] | None, env: dict[str, str] | None) -> None:
        self.exit: Exit | None = None
        self._closed = False
        self._pid: int | None = None
        self._proc_fds: dict[str, int] = {}
        self._memory = 0
        #: the most resident memory seen of the bot's processes (see `look_at_memory`)
        self._resident = 0
        self._status = b""
        self._parent_of_bot: int | None = None
        self._stderr_taken = False  # (see `end_input`)
        launch = plan(program, limits, self.tier, self.slot, files, env)
        self.workdir: Path | None = launch.workdir
        self._info_fd = launch.info_read
        self._starters, self._in_pids, self._token = launch.starters, launch.in_pids, launch.token
        status_read = launch.status_read
        err_read, err_write = os.pipe()
        if pty:
            self._master, slave = os.openpty()
            attrs = termios.tcgetattr(slave)
            attrs[1] &= ~termios.OPOST  # "\n" stays "\n"
            attrs[3] &= ~(termios.ECHO | termios.ECHONL)
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            theirs_in = theirs_out = slave
            self._in_fd = self._out_fd = self._master
        else:
            self._master = slave = -1
            theirs_in, self._in_fd = os.pipe()
            self._out_fd, theirs_out = os.pipe()
        input_file = os.fstat(theirs_in)
        #: the bot's input, as its /proc/PID/fd/0 shows it (device, inode)
        self._input = (input_file.st_dev, input_file.st_ino)
        #: when the bot started (monotonic): no wait of its began earlier
        self.started_at = time.monotonic()
        #: when the judge saw it end, or killed it (monotonic)
        self.ended_at: float | None = None
        try:
            self.started = _start(launch, (theirs_in, theirs_out, err_write), self.slot,
                                  self.context)
        except BaseException:
            for fd in (err_read, self._master, status_read, self._info_fd, self._in_fd,
                       self._out_fd):
                if fd >= 0:
                    with suppress(OSError):
                        os.close(fd)
            if self.workdir is not None:
                remove_tree(self.workdir)
            raise
        finally:
            for fd in {err_write, theirs_in, theirs_out, *launch.pass_fds}:
                if fd not in launch.kept_fds:  # the slot's, the helper's
                    with suppress(OSError):
                        os.close(fd)
        self._status_fd = status_read
        self.pgid = self.started.pid
        #: how its CPU, memory and processes are counted (see `meters.py`)
        self.meter: Meter = meter_for(self.slot, limits, self.pgid, self._starters,
                                      self._in_pids, self._locate)
        try:
            self._stderr = StderrTail(err_read, limits.stderr_bytes)
            err_read = -1  # the tail's now
            self.context.stderr_pump().add(self._stderr)
            os.set_blocking(self._in_fd, False)
            #: the bot's output, read with deadlines through pexpect
            self.output: pexpect.fdpexpect.fdspawn[bytes] = pexpect.fdpexpect.fdspawn(
                self._out_fd, timeout=None)
            self.output.delaybeforesend = None  # pexpect sleeps 50 ms per send by default
            self.output.delayafterread = None  # ... and 0.1 ms after every read
        except BaseException:
            self._abandon(err_read)
            raise

    def _abandon(self, err_read: int) -> None:
        """The judge failed to take up a bot it has started: every process of it killed and
        reaped, the judge's descriptors closed (any already closed is let be)."""
        self._closed = True
        if self.slot is not None:
            self.slot.kill_all()
        else:
            self._kill_tree()
        _kill_group(self.pgid)
        self._wait_gone()
        self._close_pipes()
        for fd in (err_read, self._status_fd, self._info_fd):
            if fd >= 0:
                with suppress(OSError):
                    os.close(fd)
        self.started.close()
        if self.workdir is not None:
            remove_tree(self.workdir)

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

    def end_input(self) -> None:
        """The game is over: the bot's memory is looked at (it waits for its input), its
        stderr is read here from now on (in `poll`, as the judge waits for it to exit, and
        at `kill`), then the bot is told its input has ended."""
        self.look_at_memory()
        self.context.stderr_pump().take(self._stderr)
        self._stderr_taken = True
        self.close_input()

    def close_input(self) -> None:
        """Tell the bot its input has ended (EOF)."""
        if self._master >= 0:
            with suppress(OSError, TimeoutError):
                self.send(termios.tcgetattr(self._master)[6][termios.VEOF], 0.1)
        elif self._in_fd >= 0:
            with suppress(OSError):
                os.close(self._in_fd)
            self._in_fd = -1

    def poll(self, timeout: float = 0.0) -> Exit | None:
        """How the bot ended, waiting up to `timeout` s; None while it still runs."""
        if self.exit is not None:
            return self.exit
        code = self._ended(timeout)
        if code is None:
            return None
        if self.ended_at is None:  # (a kill says when it ended)
            self.ended_at = time.monotonic()
        # memory: the largest address space sampled, and the peak resident memory
        cpu, peak = self._used()
        self.exit = Exit(code, cpu, max(self._memory, peak), self.meter.killed_for_memory(),
                         peak)
        return self.exit

    def _used(self) -> tuple[float, int]:
        """CPU seconds and peak resident memory (bytes) so far: the meter's (the slot's, this
        game's), with the peak resident size of a process of the bot (what its rlimit
        bounds) and, counted by the judge, its helper's count of CPU (the bot and what it
        reaped) once the helper has ended."""
        cpu, peak = self.meter.cpu_seconds(), self.meter.memory_peak()
        usage = self.started.usage
        if usage is not None:
            if not self.meter.kernel_peak:
                cpu = max(usage.ru_utime + usage.ru_stime, cpu)
            peak = max(usage.ru_maxrss * 1024, peak)
        return cpu, peak

    def usage(self) -> Usage:
        """What the bot used in this game (see `Usage`), from its start to its end or its
        kill; read once it has ended or been killed (`kill`).

        Its memory is the peak resident memory of its processes as the judge saw it (see
        `look_at_memory`), the same measure in every tier, whatever an earlier program
        left in the page cache; what the kernel reported at its end (`Exit.peak_bytes`)
        counts only for a bot never seen (dead at its start) or killed for memory."""
        ended = self.exit
        if ended is not None:
            cpu, reported, oom = ended.cpu_seconds, ended.peak_bytes, ended.oom_killed
        else:  # killed, its end not yet reported: the slot's counters hold until its next game
            (cpu, reported), oom = self._used(), self.meter.killed_for_memory()
        until = self.ended_at if self.ended_at is not None else time.monotonic()
        peak = self._resident if self._resident and not oom else max(self._resident, reported)
        if oom and self.limits.memory_bytes:  # (processes sharing pages: their sums count
            peak = min(peak, self.limits.memory_bytes)  # them twice; it had its limit)
        # (no process holds no memory: a peak of 0 is one that could not be read)
        return Usage(cpu, max(until - self.started_at, 0.0), peak or None, oom)

    def _ended(self, timeout: float) -> int | None:
        """The bot's exit status (negative: its signal) once it has ended, else None.

        The helper reports it on the status pipe as soon as the bot's own process ends
        (the helper lives on while what the bot left runs); without a report, the status
        of the process the judge started (bwrap says 128 + N for a death by signal N)."""
        watched = [fd for fd in (self._status_fd, self.started.ended_fd) if fd >= 0]
        tail = self._stderr if self._stderr_taken else None
        deadline = time.monotonic() + timeout
        while True:
            if tail is not None and tail.drain():  # (a bot blocked on it would never end)
                tail = None
            reported = self._reported()
            if reported is not None:
                # the helper ends right after the bot unless the bot left processes: its
                # usage then gives the bot's peak resident size (for the verdict), where
                # the kernel does not give the game's peak
                if not self.meter.kernel_peak:
                    self.started.wait(0.05)
                return reported
            if self.started.reap():
                code = self.started.returncode
                assert code is not None  # (set by `reap`)
                reported = self._reported()
                if reported is not None:
                    return reported
                # (bwrap and runsc say 128 + N for a death by signal N)
                return 128 - code if self.mode in ("bwrap", "gvisor") and code > 128 else code
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if watched:
                select.select(watched if tail is None else [*watched, tail.fd], [], [], left)
            else:
                time.sleep(min(left, 0.01))

    def _reported(self) -> int | None:
        if self._status_fd < 0:
            return None
        with suppress(OSError):
            self._status += os.read(self._status_fd, 32)
        text = self._status.decode(errors="replace")
        if text[:1] in ("S", "E") and text[1:].isdigit():
            return -int(text[1:]) if text[0] == "S" else int(text[1:])
        return None

    def process_count(self) -> int:
        """How many processes and threads the bot has (the sandbox's own not counted)."""
        return self.meter.process_count()

    def hit_process_limit(self) -> bool:
        """Whether the bot has tried to go past its process limit (or, counted by the
        judge, has reached it: its rlimit stops it there)."""
        return self.meter.hit_process_limit()

    def pause(self, paused: bool) -> None:
        """Stop every process of the bot (or let them run again): while its opponent thinks,
        it takes none of the opponent's CPU. Only in a slot with cgroups."""
        cg = self._cgroup()
        if cg is not None and not self._closed:
            cg.freeze(paused)

    def killed_for_memory(self) -> bool:
        """Whether the kernel killed one of the bot's processes for its memory limit, or
        (counted by the judge) its processes together hold more than the limit."""
        return self.meter.killed_for_memory()

    def waiting_for_input(self) -> bool:
        """Whether the bot's process is blocked reading its standard input."""
        pid = self._bot_pid()
        if pid is None:
            return False
        try:
            with open(f"/proc/{pid}/syscall") as fh:
                fields = fh.read().split()
        except OSError:
            return False
        return len(fields) > 1 and fields[0] == str(_READ_SYSCALL) and int(fields[1], 16) == 0

    def input_wait(self, deadline: float) -> View | None:
        """The bot's process seen waiting for input that cannot come before `deadline`
        (monotonic): nothing else of it that could move for it (see `waiting.py`); None
        when it may still move, or cannot be seen."""
        pid = self._bot_pid()
        if pid is None or self._closed or self.exit is not None:
            return None
        return look(pid, deadline, self.started_at, self._input, self.meter.alone)

    def cpu_seconds(self) -> float:
        """CPU time the bot has used so far, all its processes."""
        if self.exit is not None:
            return self.exit.cpu_seconds
        return self.meter.cpu_seconds()

    def _cgroup(self) -> Slot | None:
        """The slot whose cgroups hold the bot (to stop it and kill all it started)."""
        return self.slot if self.slot is not None and self.slot.cgroups is not None else None

    def _locate(self) -> tuple[int, int | None] | None:
        """The bot's process and the one whose descendants are its processes (its helper),
        once the bot has been found (see `_bot_pid`)."""
        pid = self._bot_pid()
        return None if pid is None else (pid, self._parent_of_bot)

    def sample_memory(self) -> int:
        """Sample the bot's memory now: its resident memory (see `look_at_memory`), and the
        largest address space of its process so far (bytes, returned)."""
        self.look_at_memory()
        fd = self._proc_fd("stat")
        if fd is not None:
            with suppress(OSError):
                vsize = int(os.pread(fd, 1024, 0).rsplit(b")", 1)[1].split()[20])
                self._memory = max(self._memory, vsize)
        return self._memory

    def look_at_memory(self) -> None:
        """Look at the resident memory of the bot's processes now: the kernel's high-water
        mark of each (VmHWM, the peak resident size that getrusage gives as ru_maxrss:
        its memory and the files it maps, whoever read them first; not the page cache of
        files it only read, not its files in tmpfs, not kernel memory), and their
        resident sizes together (VmRSS); the game's figure is the most seen. The judge
        looks at the first move, at its samples during a long move, when the game is over
        (the bot waits for its input to end) and before it kills the bot."""
        found = None if self._closed else self._locate()
        if found is None:
            return
        hwm = rss = 0
        for node in bot_processes(*found):
            status = self._status_of(node)
            hwm = max(hwm, status_kib(node, b"VmHWM:", status))
            rss += status_kib(node, b"VmRSS:", status)
        self._resident = max(self._resident, max(hwm, rss) << 10)

    def _status_of(self, pid: int) -> bytes:
        """/proc/PID/status of one of the bot's processes (the bot's own through a kept
        descriptor); empty once it is gone."""
        fd = self._proc_fd("status") if pid == self._pid else None
        try:
            if fd is not None:
                return os.pread(fd, 8192, 0)
            with open(f"/proc/{pid}/status", "rb") as fh:
                return fh.read()
        except OSError:
            return b""

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
        """The bot's own process, down the chain of its starters (the helper stays as the
        bot's parent; under bwrap: bwrap -> the helper, PID 1 of the namespace -> bot, or
        without the helper bwrap -> bwrap's own PID 1 -> bot)."""
        if self._pid is not None:
            return self._pid
        pid = self.started.pid
        helped = 1 if self._status_fd >= 0 else 0  # a helper stays as the parent
        depth = 2 if self.mode == "bwrap" else helped
        parent = None
        for _ in range(depth):
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as fh:
                    children = fh.read().split()
            except OSError:
                return None
            if not children:
                return None
            parent, pid = pid, int(children[0])
        self._pid, self._parent_of_bot = pid, parent if helped else None
        return self._pid

    def stderr_tail(self) -> str:
        """The end of what the bot wrote to stderr (all of it once the bot has exited)."""
        if self._stderr_taken:  # (what its pipe holds now: it is read here, not waited for)
            self._stderr.drain()
        elif self.exit is not None:
            self._stderr.done.wait(timeout=0.5)  # the pipe ends soon after the bot does
        return self._stderr.text()

    def kill(self) -> None:
        """Kill every process of the bot, and settle its end (idempotent): at once, or,
        in a slot with cgroups, when the slot's next game starts (`Slot.defer`): the bot's
        processes are killed now and can start no other, while the wait for them and its
        starters to be gone (namespaces torn down, reaped) overlaps the next game."""
        if self._closed:
            return
        if self.exit is None:  # (still there, most likely)
            self.look_at_memory()
        self._closed = True
        if self.ended_at is None:
            self.ended_at = time.monotonic()
        held = self._cgroup()
        deferred = held is not None
        if self.mode == "bwrap":  # first PID 1 inside, which bwrap outside then reaps
            self._end_namespace(wait=not deferred)
        if held is not None:
            held.stop()
        elif self.slot is not None:  # the bot's processes, which its helper reaps
            self.slot.kill_all()
            self.started.wait(0.5)
        else:  # what it started, wherever it went: the helper is their subreaper
            self._kill_tree()
        if not deferred:  # (deferred: its starters end by themselves, having reaped all)
            _kill_group(self.pgid)
            self._wait_gone()
        self.poll()
        # no helper to be the subreaper of what it left, or the bot (its user's) killed it
        if self.mode != "bwrap" and self.slot is None and (
                self._status_fd < 0 or (self.started.returncode or 0) < 0):
            self._kill_without_slot()
        self.context.stderr_pump().give_up(self._stderr)
        self._close_pipes()
        for fd in self._proc_fds.values():
            os.close(fd)
        if held is not None:
            held.defer(self._settle)
        else:
            self._settle()
        self.context.give_back(self.slot)  # (its settling, if deferred, comes first)

    def _close_pipes(self) -> None:
        """Close the judge's ends of the bot's stdin and stdout (or its pty), once."""
        for fd in {self._in_fd, self._out_fd}:
            if fd >= 0:
                with suppress(OSError):
                    os.close(fd)
        self._in_fd = self._out_fd = self._master = -1

    def _wait_gone(self) -> None:
        """Wait for the process the judge started to end (only a process stuck in the
        kernel takes longer than a few seconds), and reap it."""
        if not self.started.wait(5.0):
            _kill_group(self.pgid)
            self.started.wait(None)

    def _settle(self) -> None:
        """The end of a killed bot: every process of its slot gone, its starter reaped,
        the judge's last descriptors closed, its work dir on disk removed."""
        if self.slot is not None and self.slot.cgroups is not None:
            self.slot.kill_all()
        self._wait_gone()
        for fd in (self._status_fd, self._info_fd):
            if fd >= 0:
                os.close(fd)
        self._status_fd = self._info_fd = -1
        self.started.close()
        if self.workdir is not None:
            remove_tree(self.workdir)

    def _end_namespace(self, wait: bool = True) -> None:
        """Kill the PID 1 of the bot's namespace and (if `wait`) wait until it is gone: the
        kernel ends every process of the namespace before it, and bwrap, still there, reaps
        it. Its pid comes from bwrap's --info-fd."""
        info = b""
        with suppress(OSError):  # one small JSON object, written as the namespace starts
            while b"}" not in info and select.select([self._info_fd], [], [], 0.5)[0]:
                chunk = os.read(self._info_fd, 4096)
                if not chunk:
                    break
                info += chunk
        digits = info.split(b'"child-pid":', 1)[-1].split(b",")[0].split(b"}")[0].strip()
        if not digits.isdigit():
            return  # bwrap died before it started the namespace
        try:
            pidfd = os.pidfd_open(int(digits))
        except OSError:  # gone already
            return
        try:
            with suppress(OSError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            if wait:
                select.select([pidfd], [], [], 5.0)
        finally:
            os.close(pidfd)

    def _kill_tree(self) -> None:
        """Kill the descendants of the process the judge started, until none is left (the
        helper stays their parent: orphans come back to it, not to init)."""
        _kill_until_gone(lambda: descendants(self.started.pid), rounds=50, pause=0.001)

    def _kill_without_slot(self) -> None:
        """Without a slot's cgroup: kill the process group until it is gone, and (without a
        PID namespace) the processes that left it, found by their mark."""
        deadline = time.monotonic() + 5.0
        while group_members(self.pgid) and time.monotonic() < deadline:
            _kill_group(self.pgid)
            time.sleep(0.005)
        if self.mode == "none":
            _kill_until_gone(lambda: marked_processes(self._token), rounds=3, pause=0.01)


class InGVisor(Confined):
    """One bot in a gVisor sandbox of its own (the gvisor tier, see `gvisor.py`): its own
    kernel, whose processes the judge does not see; what it used summed over the
    sandbox's host processes, all of which end with the game."""

    def __init__(
        self, program: Program, limits: Limits, sandbox: str = "auto", pty: bool = False,
        files: dict[str, bytes] | None = None, env: dict[str, str] | None = None,
    ) -> None:
        """Start `program` in a sandbox of its own (see `Confined`)."""
        self.limits = limits
        self.tier = tier_for(sandbox)
        self.mode = self.tier.sandbox
        self.context = sandbox_context()
        self.slot = None
        self.exit = None
        self._closed = False
        self._pid = self._parent_of_bot = None
        self._proc_fds = {}
        self._memory = self._resident = 0
        self._status = b""
        self._stderr_taken = False
        self.workdir = None
        self._status_fd = self._info_fd = -1
        self._starters = self._in_pids = 0
        self._token = ""
        theirs_in, theirs_out, self._in_fd, self._out_fd, self._master = gvisor.pipes(pty)
        self._output_inode = os.fstat(theirs_out).st_ino
        self._output_held = False  # (see `output_closed`)
        input_file = os.fstat(theirs_in)
        self._input = (input_file.st_dev, input_file.st_ino)
        err_read, err_write = os.pipe()
        full_env = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "HOME": gvisor.BOT_DIR,
                    "TMPDIR": gvisor.BOT_DIR, **dict(program.env), **(env or {})}
        self.started_at = time.monotonic()
        self.ended_at = None
        try:
            spawned, self._bundle, self._name = gvisor.start(
                program, limits, files, full_env, (theirs_in, theirs_out, err_write))
        except BaseException:
            for fd in {err_read, self._in_fd, self._out_fd}:
                with suppress(OSError):
                    os.close(fd)
            raise
        finally:
            for fd in {err_write, theirs_in, theirs_out}:
                with suppress(OSError):
                    os.close(fd)
        self.started = spawned
        self.pgid = spawned.pid
        self._sandbox = gvisor.SandboxMeter(limits, spawned.pid)
        self.meter = self._sandbox
        try:
            self._stderr = StderrTail(err_read, limits.stderr_bytes)
            err_read = -1  # the tail's now
            self.context.stderr_pump().add(self._stderr)
            os.set_blocking(self._in_fd, False)
            self.output = gvisor.output_of(self._out_fd)
        except BaseException:
            self._abandon(err_read)
            raise

    def _bot_pid(self) -> int | None:
        return None  # (a process of the sandbox's kernel: not the host's to look at)

    def output_closed(self) -> bool:
        """Whether the bot has closed its output: the sandbox's kernel, alive, held the
        pipe and no longer does (runsc run, which passed it, still does: no EOF comes).
        As it starts, the kernel takes the pipe over from what it was given: until it is
        seen holding it, nothing is said closed."""
        sentry = self._sandbox.sentry()
        if sentry is None or self.exit is not None or self._closed:
            return False
        held = gvisor.holds(sentry, self._output_inode)
        if held:
            self._output_held = True
        if not self._output_held or held or not os.path.exists(f"/proc/{sentry}"):
            return False
        # the bot may have ended, its sandbox not yet: its end then says what it was
        return not self.started.wait(gvisor.TEARDOWN_SECONDS)

    def look_at_memory(self) -> None:
        """The resident memory of the stubs that run the bot's code, summed."""
        if not self._closed:
            self._sandbox.look()
            self._resident = max(self._resident, self._sandbox.memory_peak())

    def sample_memory(self) -> int:
        """The bot's resident memory: a stub's address space on the host is not the
        bot's (it maps the whole of the sandbox's range)."""
        self.look_at_memory()
        self._memory = max(self._memory, self._resident)
        return self._memory

    def _used(self) -> tuple[float, int]:
        return self._sandbox.cpu_seconds(), self._sandbox.memory_peak()

    def _abandon(self, err_read: int) -> None:
        self._closed = True
        gvisor.end(self.started, self._sandbox, self._bundle, self._name)
        self._close_pipes()
        if err_read >= 0:
            with suppress(OSError):
                os.close(err_read)
        self.started.close()

    def kill(self) -> None:
        """Kill the sandbox and all it runs, delete the container (idempotent)."""
        if self._closed:
            return
        if self.exit is None:
            self.look_at_memory()
        self._sandbox.look()
        self._closed = True
        if self.ended_at is None:
            self.ended_at = time.monotonic()
        gvisor.end(self.started, self._sandbox, self._bundle, self._name)
        self.poll()
        self.context.stderr_pump().give_up(self._stderr)
        self._close_pipes()
        self.started.close()


def _start(launch: Launch, stdio: tuple[int, int, int], slot: Slot | None,
           context: SandboxContext) -> Started:
    """Start the bot's starter: through a launcher of `context` when the helper starts it
    (the slot's, in its cgroups, or the process's own; no fork of the judge), else with
    `Popen`. A launcher is then the subreaper of what it starts (bwrap's PID 1 outlives
    bwrap)."""
    context.keep_out()
    if launch.preexec is None and launch.argv[0] == helper_path():
        for attempt in (1, 2):  # a launcher found dead is started again, once
            keeper = context.launcher(launch.argv[0], slot if launch.inside else None)
            try:
                pid, ended = keeper.start(launch.argv, launch.env, launch.cwd, stdio,
                                          launch.pass_fds)
            except OSError:
                keeper.proc.poll()  # (its end noticed by `alive`)
                if attempt == 2 or keeper.alive():
                    raise
                continue
            return Launched(pid, ended)
    return Spawned(popen(
        launch.argv, stdin=stdio[0], stdout=stdio[1], stderr=stdio[2], cwd=launch.cwd,
        env=launch.env, start_new_session=True, pass_fds=launch.pass_fds,
        preexec_fn=launch.preexec))


def _kill_until_gone(find: Callable[[], list[int]], rounds: int, pause: float) -> None:
    """SIGKILL what `find` lists, again after `pause`, until it lists nothing (or `rounds`)."""
    for _ in range(rounds):
        pids = find()
        if not pids:
            return
        for pid in pids:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(pause)
