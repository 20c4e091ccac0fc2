"""A process's sandbox context: a forked child starts from a fresh one (never its parent's
launchers, slots or stderr pump), closing it ends all it started, and games started at once
in its threads each have their own slot and one launcher."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_hostile import children_of_this_process

from judge.sandbox.context import sandbox_context
from judge.sandbox.exec_helper import helper_path
from judge.sandbox.process import Confined

HELPER = helper_path()
#: says back each line it reads
ECHO = """
import sys
for line in sys.stdin:
    print(line, end="", flush=True)
"""


def in_child(look) -> dict:  # noqa: ANN001 - a function of no argument returning JSON data
    """What `look()` returns in a forked child of this process."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # (the child: never back into pytest)
        try:
            os.close(read)
            os.write(write, json.dumps(look()).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        seen = json.load(fh)
    os.waitpid(pid, 0)
    return seen


@pytest.mark.skipif(HELPER is None, reason="no C compiler: no exec helper")
def test_a_forked_child_has_a_fresh_context_and_not_its_parents_launcher() -> None:
    parent = sandbox_context()
    running = parent.launcher(HELPER)
    pump = parent.stderr_pump()
    table = parent.languages
    try:
        def look() -> dict:
            child = sandbox_context()
            return {"fresh": child is not parent, "slots": child.slots,
                    "launchers": child.launcher_pids(), "same table": child.languages is table,
                    "own pump": child.stderr_pump() is not pump,
                    "socket closed": running.sock.fileno() == -1}

        assert in_child(look) == {"fresh": True, "slots": [], "launchers": [],
                                  "same table": True, "own pump": True,
                                  "socket closed": True}
        # the parent's launcher still answers the parent
        assert parent.launcher(HELPER) is running and running.alive()
        assert running.sock.fileno() >= 0
    finally:
        parent.close()


@pytest.mark.skipif(HELPER is None, reason="no C compiler: no exec helper")
def test_closing_the_context_ends_and_reaps_its_launchers_and_it_is_as_new_after() -> None:
    context = sandbox_context()
    running = context.launcher(HELPER)
    context.take_slot()
    context.close()
    assert not running.alive()
    assert children_of_this_process() == []
    assert context.slots == [] and context.last_slot is None
    assert context.launcher_pids() == []
    again = context.launcher(HELPER)  # (used again, it starts anew)
    assert again is not running and again.alive()
    context.close()
    assert not again.alive()


@pytest.mark.skipif(HELPER is None, reason="no C compiler: no exec helper")
def test_a_launcher_outlives_the_thread_that_started_it() -> None:
    # the parent-death signal also comes when the judge's thread that started a process
    # ends (a server's worker thread): the launcher, and the games it runs, go on
    script = (
        "import threading, time\n"
        "from judge.sandbox.context import sandbox_context\n"
        "ctx = sandbox_context()\n"
        f"t = threading.Thread(target=ctx.launcher, args=({HELPER!r},))\n"
        "t.start(); t.join(); time.sleep(0.3)\n"
        "print(len(ctx.launcher_pids()))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=Path(__file__).parents[1])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1"]


def test_games_started_at_once_in_threads_each_have_their_own_slot(tmp_path) -> None:
    # (a server compiles an upload while it plays a game): a second launcher, or a slot
    # shared with another game, killed the other's processes or ran out of its processes
    from judge.sandbox import CompileError, program_for

    failed: list[str] = []

    def compile_four(worker: int) -> None:
        for n in range(4):
            bot = tmp_path / f"w{worker}n{n}" / "main.py"
            bot.parent.mkdir()
            bot.write_text(f"print({worker * 10 + n})\n")
            try:
                program_for(bot)
            except CompileError as exc:
                failed.append(str(exc))

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(compile_four, range(6)))
    assert failed == []
    assert not sandbox_context()._busy  # every slot given back


def _die_with_parent() -> None:
    # between fork and exec, as the judge sets it for what must die with it
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def test_a_child_started_for_a_thread_that_ends_lives_on() -> None:
    # the parent-death signal comes when the thread that forked a child ends: a server's
    # worker thread, not the judge (a bot without the helper, runsc, bwrap, the launcher)
    from judge.sandbox.spawning import popen

    started: list[subprocess.Popen] = []
    worker = threading.Thread(target=lambda: started.append(
        popen(["sleep", "30"], preexec_fn=_die_with_parent)))
    worker.start()
    worker.join()
    try:
        time.sleep(0.3)
        assert started[0].poll() is None  # not killed with the thread
    finally:
        started[0].kill()
        started[0].wait()


def started_in_a_thread(start: Callable[[], Confined]) -> Confined:
    """What `start()` starts, in a thread that has ended (gone from the kernel) after."""
    started: list[Confined] = []
    thread = threading.Thread(target=lambda: started.append(start()))
    thread.start()
    thread.join()
    while os.path.exists(f"/proc/self/task/{thread.native_id}"):
        time.sleep(0.01)
    return started[0]


def says_back_and_runs_on(proc: Confined) -> None:
    """`proc` (a bot that says back each line) answers a line, and runs on after."""
    try:
        proc.send(b"after\n", 5)
        proc.output.expect(b"after", timeout=60)
        assert proc.poll() is None
    finally:
        proc.kill()


def test_a_bot_started_without_the_helper_outlives_the_thread_that_started_it(
        tmp_path, monkeypatch) -> None:
    # without the helper (no C compiler) a bot dies with its parent (PR_SET_PDEATHSIG),
    # which the kernel takes to be the thread that forked it: a server's worker thread
    # that ended when idle killed the bot of a game it had started
    from judge.sandbox import Limits, commandline, process, program_for

    monkeypatch.setattr(commandline, "helper_path", lambda: None)
    monkeypatch.setattr(process, "helper_path", lambda: None)
    bot = tmp_path / "echo.py"
    bot.write_text(ECHO)
    bot.chmod(0o644)
    tmp_path.chmod(0o755)
    program = program_for(bot)
    proc = started_in_a_thread(
        lambda: process.Confined(program, Limits(first_move_seconds=30, move_seconds=30)))
    assert not proc.started.wait(1.0)  # (its starter, bwrap, is not killed)
    says_back_and_runs_on(proc)


@pytest.mark.skipif(os.geteuid() != 0, reason="game slots are root's")
def test_a_machine_with_every_game_slot_in_use_is_one_line_not_a_traceback(
        tmp_path, monkeypatch, capsys) -> None:
    # other judges of the machine hold every game slot: a bot to compile cannot be, and the
    # judge says so in one line (it was a traceback)
    from judge.cli import main
    from judge.exits import ExitStatus
    from judge.sandbox import slots

    monkeypatch.setattr(slots, "MAX_SLOTS", 0)
    monkeypatch.setattr(sandbox_context(), "slots", [])
    monkeypatch.setattr(sandbox_context(), "last_slot", None)
    monkeypatch.chdir(tmp_path)
    bot = tmp_path / "new.py"
    bot.write_text(f"print('2 1')  # {os.urandom(8).hex()}: compiled for the first time\n")
    assert main(["run", "--game", "nim", str(bot)]) == ExitStatus.STOPPED
    said = capsys.readouterr().err.strip().splitlines()
    assert said == ["judge: error: all 0 game slots of this machine are in use (other judges' "
                    "games hold them): run it again once some have ended"]


class CountedWaits(threading.Condition):
    """A condition that counts the waits made on it, with their timeouts."""

    def __init__(self) -> None:
        super().__init__(threading.RLock())
        self.waits: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        return super().wait(timeout)


def every_slot_in_a_game(monkeypatch) -> CountedWaits:
    """This process holds one slot, in a game, and the machine none more; the waits made
    for a slot are counted."""
    from judge.sandbox import context, slots

    held = object()
    monkeypatch.setattr(slots, "MAX_SLOTS", 0)
    monkeypatch.setattr(context, "SLOT_WAIT_SECONDS", 0.2)
    monkeypatch.setattr(sandbox_context(), "slots", [held])
    monkeypatch.setattr(sandbox_context(), "last_slot", held)
    monkeypatch.setattr(sandbox_context(), "_busy", {held})
    waits = CountedWaits()
    monkeypatch.setattr(sandbox_context(), "_lock", waits)
    return waits


@pytest.mark.skipif(os.geteuid() != 0, reason="game slots are root's")
def test_a_game_asked_not_to_wait_for_a_slot_is_refused_at_once(monkeypatch) -> None:
    # a batch run's game waits for a slot of its own; one asked for by a request to
    # judge serve is refused at once, holding none of the server's threads meanwhile
    from judge.sandbox.context import slot_wait
    from judge.sandbox.slots import NoSlot

    waits = every_slot_in_a_game(monkeypatch)
    with pytest.raises(NoSlot, match="every game slot of this machine has been in a game"):
        sandbox_context().take_slot()
    assert waits.waits and waits.waits[0] > 0  # (SLOT_WAIT_SECONDS, made short here)
    waits.waits.clear()
    with slot_wait(0), pytest.raises(NoSlot, match="every game slot of this machine is in"):
        sandbox_context().take_slot()
    assert waits.waits == []
    with pytest.raises(NoSlot):  # and out of it, a game waits again
        sandbox_context().take_slot()
    assert len(waits.waits) >= 1
