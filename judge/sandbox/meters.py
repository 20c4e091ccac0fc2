"""How a bot's use of CPU, memory and processes is counted, chosen once when it starts.

Two strategies, as DOMjudge's runguard and isolate have: the slot's cgroups, where they
count memory (tmpfs included) and processes (`SlotMeter`); else the judge's own sums over
the bot's processes, read from /proc when the judge looks (`ProcSums`). The bot's process
is found lazily (it may not have reached exec yet), through `locate`. The memory a game
records is not a meter's but the same in every tier: see `Confined.look_at_memory`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from typing import Protocol

from judge.sandbox.limits import Limits
from judge.sandbox.slots import Slot

#: the clock ticks of /proc/PID/stat's times, a second's; the bytes of a page
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

#: the bot's pid and the process to sum below (its helper, or None: the bot itself)
Locate = Callable[[], tuple[int, int | None] | None]


class Meter(Protocol):
    """A bot's use of resources during its game."""

    #: the kernel gives the game's peak memory (else the judge waits a little for the
    #: helper's usage of the bot, which gives its peak resident size)
    kernel_peak: bool

    def cpu_seconds(self) -> float:
        """CPU time of the bot's processes so far."""

    def memory_peak(self) -> int:
        """The most memory its processes held at once, as far as this meter sees (bytes: for
        the verdict, and for a bot the judge never saw or the kernel killed for memory)."""

    def process_count(self) -> int:
        """Its processes and threads now (the sandbox's own not counted)."""

    def hit_process_limit(self) -> bool:
        """Whether it tried to go past its process limit."""

    def killed_for_memory(self) -> bool:
        """Whether it went over its memory limit (the kernel killed one of its processes
        for it, or its processes together hold more)."""

    def alone(self, threads: int) -> bool:
        """Whether the bot's own process, of `threads` threads, is all there is of it (False
        where this meter cannot tell)."""


def meter_for(slot: Slot | None, limits: Limits, pgid: int, starters: int, in_pids: int,
              locate: Locate) -> Meter:
    """The cgroups of a slot that counts memory and processes, else the judge's sums."""
    if slot is not None and slot.cgroups is not None and slot.counts_memory \
            and slot.counts_pids:
        return SlotMeter(slot, in_pids)
    return ProcSums(limits, pgid, starters, locate)


class SlotMeter:
    """Everything from the slot's cgroups, reset for each game (`Slot.prepare`)."""

    kernel_peak = True

    def __init__(self, slot: Slot, in_pids: int) -> None:
        self.slot, self._in_pids = slot, in_pids

    def cpu_seconds(self) -> float:
        return self.slot.cpu_seconds()

    def memory_peak(self) -> int:
        return self.slot.memory_peak()

    def process_count(self) -> int:
        return self.slot.process_count() - self._in_pids  # (bwrap's own processes)

    def hit_process_limit(self) -> bool:
        return self.slot.hit_process_limit()

    def killed_for_memory(self) -> bool:
        return self.slot.killed_for_memory()

    def alone(self, threads: int) -> bool:
        return self.process_count() == threads


class ProcSums:
    """The judge's own sums from /proc: CPU (with what the processes reaped, and the
    helper's: the system calls it answers for the bot, and the orphans that a double fork
    left to it, which it reaped) and resident memory with the page tables that map it over
    the bot's processes (its helper's descendants: what left its session too, as the helper
    is their subreaper); processes from its process group, which its rlimit bounds."""

    kernel_peak = False

    def __init__(self, limits: Limits, pgid: int, starters: int, locate: Locate) -> None:
        self.limits, self._pgid, self._starters, self._locate = limits, pgid, starters, locate
        self._cpu = 0.0
        self._rss = self._peak = 0

    def _sum(self) -> None:
        found = self._locate()
        if found is None:
            return
        cpu, rss, seen = 0, 0, False
        if found[1] is not None:  # its helper: the sysinfo it answers for the bot, and
            # what it reaped (the bot, and orphans of it)
            helper = stat_fields(found[1])
            if helper is not None:
                cpu += sum(int(f) for f in helper[11:15])  # utime, stime, cutime, cstime
        for node in bot_processes(*found):
            fields = stat_fields(node)
            if fields is None:
                continue
            seen = True
            cpu += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
            # its resident pages, and its page tables: kernel memory in no resident size
            # (a mapping read at one byte in each 2 MiB maps the zero page, and takes a
            # page of page tables), which a process of no address-space limit (a managed
            # runtime's) holds as much of as it likes
            rss += int(fields[21]) * PAGE + (status_kib(node, b"VmPTE:") << 10)
        if seen:
            self._cpu = max(self._cpu, cpu / TICKS)
            self._rss = rss
            self._peak = max(self._peak, self._rss)

    def cpu_seconds(self) -> float:
        self._sum()
        return self._cpu

    def memory_peak(self) -> int:
        return self._peak  # (as often as the judge looks)

    def process_count(self) -> int:
        return len(group_members(self._pgid)) - self._starters

    def hit_process_limit(self) -> bool:
        return self.process_count() >= self.limits.processes  # (its rlimit stops it there)

    def killed_for_memory(self) -> bool:
        return self._rss > self.limits.memory_bytes

    def alone(self, threads: int) -> bool:
        found = self._locate()  # (its helper, the subreaper of what it leaves, sees all)
        return found is not None and found[1] is not None and descendants(found[1]) == [found[0]]


def bot_processes(pid: int, parent: int | None) -> list[int]:
    """The bot's processes, from /proc: the descendants of its helper (`parent`: what left
    the bot's session too, as the helper is their subreaper), else the bot (`pid`) and its
    own descendants."""
    return descendants(parent) if parent is not None else [pid, *descendants(pid)]


def group_members(pgid: int) -> list[int]:
    """The live (not zombie) processes whose process group is `pgid` (scans /proc: only for
    tiers without cgroups)."""
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


def descendants(root: int) -> list[int]:
    """The processes below `root` (its children, theirs, ...), from /proc: the children of
    every thread of each (a process forked by a thread other than the first is that
    thread's child, listed only in its own `children`)."""
    found: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        with suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as fh:
                    kids = [int(k) for k in fh.read().split()]
                    found += kids
                    todo += kids
    return found


def status_kib(pid: int, key: bytes, status: bytes | None = None) -> int:
    """The figure (KiB) of `key` (``VmHWM:``) in /proc/PID/status (or in `status`, read
    from it); 0 when it is not there (a zombie holds no memory) or the process is gone."""
    if status is None:
        try:
            with open(f"/proc/{pid}/status", "rb") as fh:
                status = fh.read()
        except OSError:
            return 0
    at = status.find(key)
    if at < 0:
        return 0
    words = status[at + len(key):status.find(b"\n", at)].split()
    return int(words[0]) if words and words[0].isdigit() else 0


def stat_fields(pid: int) -> list[bytes] | None:
    """The fields of /proc/PID/stat after the command's name (`[11:15]`: utime, stime,
    cutime, cstime; `[21]`: resident pages), or None where the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None

