"""What one judge process keeps for the bots it runs (`SandboxContext`): its game slots
(as root), its launchers, the thread that drains its bots' stderr, the language table.

Its lifetime: one per process, which takes slots and starts launchers and the pump when a
game first needs them; at a fork the child (a run's worker) gets a fresh one, sharing only
the language table (plain data), never its parent's launchers, slots or pump; at exit it is
closed (`close`), all it started ended and reaped.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import Any

from judge.sandbox.commandline import libc_prctl
from judge.sandbox.exec_helper import helper_path
from judge.sandbox.languages import Table
from judge.sandbox.launcher import Launcher
from judge.sandbox.slots import NoSlot, Slot, new_slot
from judge.sandbox.stderr import StderrPump

#: how many slots a judge process takes turns with: the end of one game (its processes and
#: namespaces going away) is waited for only when its slot comes round again; a process that
#: plays games at once in threads (`judge serve`) takes one more for each game beyond
SLOTS_PER_PROCESS = 2
#: how long a new game waits for a slot when every slot of the machine is in a game
SLOT_WAIT_SECONDS = 30.0
#: how long a new game waits for a slot here (None: `SLOT_WAIT_SECONDS`), set by `slot_wait`
_slot_wait: ContextVar[float | None] = ContextVar("slot_wait", default=None)
#: prctl's option that makes a process not dumpable
PR_SET_DUMPABLE = 4


class SandboxContext:
    """This process's slots, launchers, stderr pump and language table."""

    def __init__(self, languages: Table | None = None) -> None:
        #: the slots held (up to `SLOTS_PER_PROCESS`), taken in turn by the games
        self.slots: list[Slot] = []
        #: the slot of the latest game (None before the first, or unless root)
        self.last_slot: Slot | None = None
        self._languages = languages
        #: the launchers: the process's own (None) and each slot's (see `Slot.born_inside`)
        self._launchers: dict[Slot | None, Launcher] = {}
        self._pump: StderrPump | None = None
        self._closed_at_exit = False
        self._kept_out = False
        #: guards the slots, launchers and pump: games may start at once in threads
        self._lock = threading.Condition(threading.RLock())
        #: the slots whose game runs now: each game has one of its own, never shared
        self._busy: set[Slot] = set()

    @property
    def languages(self) -> Table:
        """The language table in use (the shipped one unless configured)."""
        if self._languages is None:
            self._languages = Table()
        return self._languages

    def configure_languages(self, overrides: dict[str, dict[str, Any]] | None) -> None:
        """Use the table with `overrides` from now on (a run's, before its bots are built)."""
        if self._languages is None or self._languages.overrides != (overrides or {}):
            self._languages = Table(overrides)

    def keep_out(self) -> None:
        """Make this process not dumpable before it starts its first bot: a bot of the same
        uid (an ordinary user's judge) can then neither open its `/proc/PID/mem` nor its
        descriptors. Inherited by its forks (a run's workers); a bot's exec resets it."""
        if not self._kept_out:
            self._kept_out = True
            prctl = libc_prctl()
            if prctl is not None and prctl(PR_SET_DUMPABLE, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")

    def stderr_pump(self) -> StderrPump:
        """The thread that drains the bots' stderr, started on first use."""
        with self._lock:
            if self._pump is None:
                self._pump = StderrPump()
                self._pump.start()
            return self._pump

    def take_slot(self) -> Slot | None:
        """A slot for a new game, of its own until it is given back (`give_back`), the
        last game in it finished; None unless root. Slots are taken on first use (up to
        `SLOTS_PER_PROCESS`) and played in turn; with games at once (threads) a game takes
        the next slot no game is in, one more from the machine if need be, or waits up to
        `SLOT_WAIT_SECONDS` for one (as `slot_wait` says, if within one; `NoSlot` after)."""
        if os.geteuid() != 0:
            return None
        wait = _slot_wait.get()
        wait = SLOT_WAIT_SECONDS if wait is None else wait
        with self._lock:
            self.hold(len(self.slots) + 1)
            deadline = time.monotonic() + wait
            while (slot := self._free_slot()) is None:
                if wait <= 0:
                    raise NoSlot("every game slot of this machine is in a game")
                if not self._lock.wait(timeout=deadline - time.monotonic()):
                    raise NoSlot(f"every game slot of this machine has been in a game "
                                 f"for {wait:.0f} s")
            self._busy.add(slot)
            self.last_slot = slot
        try:
            slot.finish()
        except BaseException:
            self.give_back(slot)
            raise
        return slot

    def _free_slot(self) -> Slot | None:
        """The next slot after the last game's in which no game runs: one held, or a new
        one of the machine's when all held are in games; None if the machine has none."""
        at = self.slots.index(self.last_slot) + 1 if self.last_slot in self.slots else 0
        for k in range(len(self.slots)):
            slot = self.slots[(at + k) % len(self.slots)]
            if slot not in self._busy:
                return slot
        try:
            slot = new_slot()
        except NoSlot:
            return None
        self.slots.append(slot)
        return slot

    def give_back(self, slot: Slot | None) -> None:
        """End a game's hold on `slot` (its end may still be settling: see `Slot.finish`)."""
        if slot is not None:
            with self._lock:
                self._busy.discard(slot)
                self._lock.notify()

    def hold(self, count: int) -> None:
        """Hold up to `count` slots (at most `SLOTS_PER_PROCESS`); raises `NoSlot` when
        none is held and the machine has no free one."""
        with self._lock:
            while len(self.slots) < min(count, SLOTS_PER_PROCESS):
                try:
                    slot = new_slot()
                except NoSlot:
                    if not self.slots:
                        raise
                    return
                self._close_at_exit()
                self.slots.append(slot)

    def launcher(self, helper: str, slot: Slot | None = None) -> Launcher:
        """The launcher that starts bots (of `slot`: one living in its cgroups), started
        now if it is not running; `OSError` if it cannot be."""
        with self._lock:  # (one per slot: a second would end the first's games with it)
            running = self._launchers.get(slot)
            if running is None or not running.alive():
                self._close_at_exit()
                running = slot.new_launcher(helper) if slot is not None else Launcher(helper)
                self._launchers[slot] = running
            return running

    def launcher_pids(self) -> list[int]:
        """The pids of the launchers that run now."""
        return [each.pid for each in self._launchers.values() if each.alive()]

    def warm(self) -> None:
        """Take the slots and start their launchers now (as root, with cgroups v1): their
        joining the slots' cgroups then overlaps the rest of the judge's start-up."""
        helper = helper_path() if os.geteuid() == 0 else None
        if helper is None:
            return
        try:
            self.hold(SLOTS_PER_PROCESS)
            for slot in self.slots:
                if slot.born_inside():
                    self.launcher(helper, slot)
        except (OSError, RuntimeError):  # the first game meets it again, and says so
            pass

    @contextmanager
    def one_core(self, worker: int | None = None) -> Iterator[None]:
        """Play this process's games on one core of those it may use, with the launchers
        that start its bots (as root): the `worker`-th (a run's workers each on the next),
        or for games played in the judge's own process the core of its slots (each pair
        of slots on the next: other judges' games on other cores). The judge's side of a
        game and its bot then answer each other on one core, not by a wake-up across
        cores (on a VM an interrupt to another virtual CPU) at every move, and concurrent
        games are each on a core of their own. After, the process and its launchers have
        the affinity it had."""
        if os.geteuid() != 0:
            yield
            return
        self.stderr_pump()  # (a thread started on the core would stay there)
        try:
            self.hold(SLOTS_PER_PROCESS)
            before = os.sched_getaffinity(0)
            cpus = sorted(before)
            at = worker if worker is not None else self.slots[0].number // SLOTS_PER_PROCESS
            core = {cpus[at % len(cpus)]}
            os.sched_setaffinity(0, core)
        except (OSError, RuntimeError):  # (no slot: the first game says so)
            yield
            return
        for pid in self.launcher_pids():  # (what they start takes their affinity)
            with suppress(OSError):
                os.sched_setaffinity(pid, core)
        try:
            yield
        finally:
            with suppress(OSError):
                os.sched_setaffinity(0, before)
            for slot in self.slots:  # (a slot's CPUs bound its launcher's)
                if slot.cgroups is not None:
                    with suppress(OSError):
                        slot.cgroups.pin()
            for pid in self.launcher_pids():
                with suppress(OSError):
                    os.sched_setaffinity(pid, before)

    def close(self) -> None:
        """Finish the slots' last games, end the launchers (reaped) and give the slots up:
        nothing this process started runs on. After, the context is as new."""
        with self._lock:
            for slot in self.slots:
                slot.finish()
            for running in self._launchers.values():
                running.stop()
            for slot in self.slots:
                slot.release()
            self.slots, self.last_slot, self._launchers = [], None, {}
            self._busy = set()

    def _close_at_exit(self) -> None:
        """Have `close` run when the process ends (once it holds something)."""
        if not self._closed_at_exit:
            self._closed_at_exit = True
            atexit.register(self.close)
            if "multiprocessing" in sys.modules:  # a pool's worker ends without atexit
                from multiprocessing.util import Finalize

                Finalize(None, self.close, exitpriority=100)

    def _forget(self) -> None:
        """In a forked child: all it holds is the parent's. Only the child's copies of the
        launchers' sockets are closed (a launcher ends when the parent closes its own)."""
        for running in self._launchers.values():
            with suppress(OSError):
                running.sock.close()
        self.slots, self.last_slot, self._launchers, self._pump = [], None, {}, None
        self._busy = set()


@contextmanager
def slot_wait(seconds: float) -> Iterator[None]:
    """Within it (in this context: a task, and the work it hands to worker threads with
    a copy of it), a new game waits at most `seconds` for a slot: `judge serve` refuses
    a request at once (0) rather than hold a worker thread while the machine is full."""
    token = _slot_wait.set(seconds)
    try:
        yield
    finally:
        _slot_wait.reset(token)


_current = SandboxContext()


def sandbox_context() -> SandboxContext:
    """This process's context."""
    return _current


def _after_fork_in_child() -> None:
    global _current
    parent, _current = _current, SandboxContext(_current._languages)
    parent._forget()


os.register_at_fork(after_in_child=_after_fork_in_child)
