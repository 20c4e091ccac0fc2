"""A bot gets its share of the machine whatever its opponent does, all it uses is counted
against its own limits, and what started it is out of its reach.

The bots are written for their test as in test_fresh_state (its `contestant` and `game`):
each does what the test names, reports on stderr (``GOT ...`` for a success), then plays the
first non-empty pit.
"""

from __future__ import annotations

import errno
import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_confinement import GAME, LIMITS, MODES, said
from test_fresh_state import AS_ROOT, contestant, game
from test_hostile import FirstPit

from judge import verdicts
from judge.players.bot import BotPlayer
from judge.referee import GameRecord, play_game
from judge.sandbox import tier_for
from judge.sandbox.commandline import shared_temps
from judge.sandbox.context import sandbox_context


def bot_text(bot: Path, before_move: str = "", after_game: str = "") -> None:
    """Add to `bot` (a `contestant`) code run before each of its moves, and after its game."""
    moving = "        print(move, flush=True)\n"  # (in first_pit's play())
    text = bot.read_text()
    assert moving in text
    if before_move:
        text = text.replace(moving, f"        {before_move}\n" + moving)
    bot.write_text(text + after_game)


# --- 8. CPU: the opponent cannot starve a bot --------------------------------------------------

#: CPU seconds the thinker spends on each move
THINK = 0.25
#: CPU seconds a bot's processes may take past its own moves' wall time on its one CPU (the
#: moment between the judge reading its CPU and stopping it, once a move)
SLACK = 0.05

THINKER = f"""
def think():
    end = time.process_time() + {THINK}
    while time.process_time() < end:
        pass
"""

#: 30 processes that spin for ever, each in a session of its own (so each in a scheduler
#: autogroup of its own), started at the bot's first move
STARVER = """
spinning = []
def starve():
    while len(spinning) < 30:
        pid = os.fork()
        if pid == 0:
            os.setsid()
            while True:
                pass
        spinning.append(pid)
"""

FAIR_LIMITS = replace(LIMITS, move_seconds=2.0, first_move_seconds=5.0, cpu_seconds=60,
                      processes=40, game_seconds=60.0)


def thinker_against(mode: str, thinker: Path, opponent: Path) -> GameRecord:
    """Their game, played as the judge plays a game on one core: a slot's CPU quota is one
    CPU a period (`CPU_PERIOD_US`), which on two CPUs a bot may spend at twice the rate for
    a moment, so only on one does its CPU in a move bound the move's wall time."""
    players = [BotPlayer(thinker, FAIR_LIMITS, mode), BotPlayer(opponent, FAIR_LIMITS, mode)]
    try:
        with sandbox_context().one_core(0):
            return play_game(GAME, players, GAME.start(), FAIR_LIMITS)
    finally:
        sandbox_context().close()


def assert_held_to_its_turns(record: GameRecord) -> None:
    """The thinker (seat 0) got its CPU on every move, and its opponent's processes took CPU
    only in the opponent's own moves, on one CPU: what a bot counts against its moves (the
    CPU since its last move ended) is at most their wall time, so none came from the
    thinker's turns. CPU figures both: a busy machine makes them smaller, never larger."""
    assert record.verdict.code == verdicts.OK, (record.verdict, record.moves)
    mine = [m for m in record.moves if m.seat == 0][1:]  # (the first starts its interpreter)
    theirs = [m for m in record.moves if m.seat == 1][1:]  # (the first starts its spinners)
    assert len(mine) >= 4 and len(theirs) >= 4
    assert all(m.cpu_seconds is not None and m.cpu_seconds >= THINK * 0.95 for m in mine), mine
    over = [(m.cpu_seconds, m.seconds) for m in theirs
            if m.cpu_seconds is None or m.seconds is None
            or m.cpu_seconds > m.seconds + SLACK]
    assert over == [], over


@pytest.mark.needs_guarantee("fair")
@pytest.mark.parametrize("mode", MODES)
def test_processes_in_sessions_of_their_own_do_not_starve_the_opponent(
        mode: str, tmp_path: Path) -> None:
    thinker = contestant(tmp_path / "thinker", THINKER)
    bot_text(thinker, before_move="think()")
    starver = contestant(tmp_path / "starver", STARVER)
    bot_text(starver, before_move="starve()")
    assert_held_to_its_turns(thinker_against(mode, thinker, starver))


# --- 9. memory: a helper killed for it is the bot's memory-limit --------------------------------

#: three processes of 100 MiB each (each well under the address-space limit, together over
#: the memory limit): the kernel kills one of them
HELPERS = """
kids = []
def helpers():
    for _ in range(3):
        pid = os.fork()
        if pid == 0:
            block = bytearray(100 << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            time.sleep(0.5)
            os._exit(0)
        kids.append(pid)

def reap():
    killed = 0
    for pid in kids:
        killed += os.WIFSIGNALED(os.waitpid(pid, 0)[1])
    report(f"KILLED {killed}", True)
"""


@pytest.mark.needs_guarantee("limits")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("when", ["while it plays", "after its last move"])
def test_a_helper_process_killed_for_memory_is_a_memory_limit(
        mode: str, when: str, tmp_path: Path) -> None:
    # the main process plays every move as it should, and exits 0 once its helpers are gone
    start = "helpers()" if when == "while it plays" else ""
    bot = contestant(tmp_path, HELPERS + start)
    bot_text(bot, after_game=("" if start else "helpers()\n") + "reap()\n")
    limits = replace(LIMITS, grace_seconds=5.0)
    player = BotPlayer(bot, limits, mode)
    try:
        record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    finally:
        sandbox_context().close()
    assert record.verdict.code == verdicts.MEMORY_LIMIT, (record.verdict, said(record))
    assert record.verdict.seat == 0


# --- 10. what started the bot, and PID 1, are out of its reach ----------------------------------

TRACER = """
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
libc.syscall.restype = ctypes.c_long
PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SEIZE, WALL = 16, 17, 0x4206, 0x40000000
REFUSED = (errno.EPERM, errno.EACCES, errno.ENOSYS)

def in_child(action, what):
    # each attempt in a child of its own: whatever it traced is let go as it exits
    pid = os.fork()
    if pid == 0:
        try:
            code = action()
        except BaseException:
            code = 99
        os._exit(code)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code:
        raise OSError(code, what)

def trace(request, target):
    def action():
        if libc.ptrace(request, target, None, None) != 0:
            return ctypes.get_errno() or 99
        if request == PTRACE_ATTACH:  # stopped: let go at once
            os.waitpid(target, WALL)
            libc.ptrace(PTRACE_DETACH, target, None, None)
        return 0
    return lambda: in_child(action, "ptrace")

def read_memory(target):
    def action():
        address = 0x10000
        try:
            with open(f"/proc/{target}/maps") as fh:
                address = int(fh.readline().split("-")[0], 16)
        except (OSError, ValueError):
            pass
        buf = ctypes.create_string_buffer(16)
        local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 16)
        remote = (ctypes.c_void_p * 2)(address, 16)
        if libc.syscall(310, target, local, 1, remote, 1, 0) >= 0:  # process_vm_readv
            return 0
        error = ctypes.get_errno()
        return error if error in REFUSED else 0  # (EFAULT: let in, at a bad address)
    return lambda: in_child(action, "process_vm_readv")

def take_descriptor(target):
    def action():
        pidfd = libc.syscall(434, target, 0)  # pidfd_open
        if pidfd < 0:
            return ctypes.get_errno() or 99
        if libc.syscall(438, pidfd, 0, 0) < 0:  # pidfd_getfd of its descriptor 0
            return ctypes.get_errno() or 99
        return 0
    return lambda: in_child(action, "pidfd_getfd")

for name, target in (("parent", os.getppid()), ("pid 1", 1)):
    attempt(f"PTRACE_ATTACH {name}", trace(PTRACE_ATTACH, target))
    attempt(f"PTRACE_SEIZE {name}", trace(PTRACE_SEIZE, target))
    attempt(f"process_vm_readv {name}", read_memory(target))
    attempt(f"pidfd_getfd {name}", take_descriptor(target))
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_can_trace_neither_its_parent_nor_pid_1(mode: str, tmp_path: Path) -> None:
    if mode == "none" and not AS_ROOT and not tier_for(mode).helper:
        pytest.skip("without the exec helper the bot's parent is the judge, its own user's")
    record = game(contestant(tmp_path, TRACER), mode)
    text = said(record)
    for name in ("parent", "pid 1"):
        for what in ("PTRACE_ATTACH", "PTRACE_SEIZE", "process_vm_readv", "pidfd_getfd"):
            assert f"NOT {what} {name}" in text, text
    assert "GOT" not in text, text


# --- 11. memory: what memfds hold is counted ------------------------------------------------------

#: 600 MiB in memfds of 64 MiB, written (never mapped), none closed; a memfd that takes no
#: more (the file size limit) is left for the next
MEMFDS = """
held, fds = 0, []
chunk = b"x" * (1 << 20)
def fill():
    global held
    while held < 600 << 20:
        fd = os.memfd_create("held")
        fds.append(fd)
        for _ in range(64):
            try:
                held += os.write(fd, chunk)
            except OSError as exc:
                if exc.errno != errno.EFBIG:
                    raise
                break
attempt("fill memfds", fill)
tell("HELD", held)
"""


@pytest.mark.parametrize("mode", MODES)
def test_memory_held_in_memfds_counts_against_the_memory_limit(
        mode: str, tmp_path: Path) -> None:
    limits = replace(LIMITS, first_move_seconds=10.0)
    player = BotPlayer(contestant(tmp_path, MEMFDS), limits, mode)
    try:
        record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    finally:
        sandbox_context().close()
    if record.verdict.code == verdicts.MEMORY_LIMIT:
        assert record.verdict.seat == 0
        return
    text = said(record)
    held = int(text.split("GOT HELD ")[1].split()[0]) if "GOT HELD " in text else None
    assert held is not None and held < limits.memory_bytes, (record.verdict, text)



#: 64 GiB of memory mapped and read at one byte in each 2 MiB: a read maps the zero page,
#: which is in no process's resident size, but each 2 MiB takes a page of page tables (128
#: MiB in all), kernel memory that a cgroup counts; held to the end of the game. A bot of a
#: managed runtime (Java, JavaScript, Go) has no address-space limit to stop it sooner
PAGE_TABLES = """
import mmap
held = []
def read_sparsely():
    total = 0
    for _ in range(64):
        region = mmap.mmap(-1, 1 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000)
        for at in range(0, 1 << 30, 2 << 20):
            total += region[at]
        held.append(region)
    return total
tell("READ", read_sparsely())
"""


@pytest.mark.parametrize("mode", MODES)
def test_memory_held_in_page_tables_counts_against_the_memory_limit(
        mode: str, tmp_path: Path) -> None:
    limits = replace(LIMITS, memory_bytes=64 << 20, first_move_seconds=30.0)
    # (a Python bot with no address-space limit, as a managed runtime's)
    sandbox_context().configure_languages({"python3": {"address_space": False}})
    try:
        player = BotPlayer(contestant(tmp_path, PAGE_TABLES), limits, mode)
        record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    finally:
        sandbox_context().close()
        sandbox_context().configure_languages(None)
    assert (record.verdict.code, record.verdict.seat) == (verdicts.MEMORY_LIMIT, 0), (
        record.verdict, said(record))


# --- the bot not on move is stopped, never left so -----------------------------------------

KILLED_MID_GAME = """
import sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from test_confinement import GAME
from test_fair_and_counted import FAIR_LIMITS
from judge.players.bot import BotPlayer
from judge.referee import play_game
players = [BotPlayer(Path(bot), FAIR_LIMITS, {mode!r}) for bot in sys.argv[1:]]
play_game(GAME, players, GAME.start(), FAIR_LIMITS)
"""


# (bots wait for their turn stopped only in a tier with fair CPU)
@pytest.mark.needs_guarantee("fair")
@pytest.mark.parametrize("mode", MODES)
def test_a_judge_killed_while_a_bot_waits_for_its_turn_leaves_no_process(
        mode: str, tmp_path: Path) -> None:
    # the bot not on move is stopped (or frozen) while its opponent thinks: when the judge
    # dies then, both still die with it, as every bot does
    import subprocess
    import sys
    import time

    from test_confinement import running

    slow = contestant(tmp_path / "slow", "")
    bot_text(slow, before_move="time.sleep(1.5)")
    waits = contestant(tmp_path / "waits", "")
    script = KILLED_MID_GAME.format(tests=str(Path(__file__).parent), mode=mode)
    judge = subprocess.Popen([sys.executable, "-c", script, str(slow), str(waits)])
    try:
        deadline = time.monotonic() + 60
        while not (running(str(slow)) and running(str(waits))):  # (both started)
            assert time.monotonic() < deadline and judge.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)  # (the slow bot thinks, the other waits stopped)
    finally:
        judge.kill()
        judge.wait()
    deadline = time.monotonic() + 60  # (at once on an idle machine)
    while (running(str(slow)) or running(str(waits))) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running(str(slow)) == running(str(waits)) == []


# --- 12. CPU: what orphans used is counted -------------------------------------------------------

#: five orphans (each the child of a child that exits at once: the bot's helper, their
#: subreaper, reaps them) of 0.6 s of CPU each, one after another: each well under the
#: per-process rlimit, 3 s together
ORPHANS = """
def orphans():
    for _ in range(5):
        done_read, done_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            if os.fork() == 0:
                os.close(done_read)
                start = time.process_time()
                while time.process_time() - start < 0.6:
                    pass
            os._exit(0)
        os.close(done_write)
        os.waitpid(pid, 0)
        os.read(done_read, 1)  # (its end: the orphan's copy of the pipe closed)
        os.close(done_read)
attempt("orphans", orphans)
"""


def assert_stopped_at_its_cpu_limit(text: str, mode: str, tmp_path: Path) -> GameRecord:
    """A bot of `text` (with 2 s of CPU) loses its game for its CPU, whatever its processes
    used it; its record."""
    limits = replace(LIMITS, cpu_seconds=2, first_move_seconds=60.0)
    player = BotPlayer(contestant(tmp_path, text), limits, mode)
    try:
        record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    finally:
        sandbox_context().close()
    assert (record.verdict.code, record.verdict.seat) == (verdicts.CPU_LIMIT, 0), (
        record.verdict, said(record))
    return record


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_cpu_of_orphans_reaped_by_the_bots_helper_counts_against_the_cpu_limit(
        mode: str, tmp_path: Path) -> None:
    assert_stopped_at_its_cpu_limit(ORPHANS, mode, tmp_path)


#: five children forked by a thread of the bot (each the child of that thread, not of the
#: bot's first one: listed only in that thread's /proc/PID/task/TID/children), each using
#: 0.6 s of CPU and then asleep, alive to the game's end: nothing reaps them before it
THREAD_CHILDREN = """
import threading
def forks():
    for _ in range(5):
        done_read, done_write = os.pipe()
        if os.fork() == 0:
            os.close(done_read)
            start = time.process_time()
            while time.process_time() - start < 0.6:
                pass
            os.close(done_write)
            time.sleep(600)
            os._exit(0)
        os.close(done_write)
        os.read(done_read, 1)  # (its CPU used: the child's end of the pipe closed)
        os.close(done_read)
thread = threading.Thread(target=forks)
thread.start()
thread.join()
"""


@pytest.mark.parametrize("mode", MODES)
def test_cpu_of_children_a_thread_forked_counts_against_the_cpu_limit(
        mode: str, tmp_path: Path) -> None:
    assert_stopped_at_its_cpu_limit(THREAD_CHILDREN, mode, tmp_path)



#: five children of 0.6 s of CPU each, one after another, forked after the bot asked that its
#: children be reaped as they end, unseen ({how}: SIGCHLD ignored, or SA_NOCLDWAIT): the
#: kernel adds the CPU of a child reaped so to no one's, where the bot's wait would have
#: added it to the bot's
AUTOREAPED = """
class Action(ctypes.Structure):  # (glibc's struct sigaction)
    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16),
                ("flags", ctypes.c_int), ("restorer", ctypes.c_void_p)]
old = Action(handler=12345)
if "{how}" == "ignored":
    tell("SET", libc.sigaction(signal.SIGCHLD, ctypes.byref(Action(handler=1)),
                               ctypes.byref(old)))
else:
    tell("SET", libc.sigaction(signal.SIGCHLD, ctypes.byref(Action(flags=2)), ctypes.byref(old)))
tell("OLD", [old.handler, old.flags])
def autoreaped():
    for _ in range(5):
        if os.fork() == 0:
            start = time.process_time()
            while time.process_time() - start < 0.6:
                pass
            os._exit(0)
        try:
            os.wait()  # (reaped unseen: it returns once the child is gone, with ECHILD)
        except ChildProcessError:
            pass
attempt("autoreaped", autoreaped)
"""


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("how", ["ignored", "nocldwait"])
def test_cpu_of_children_reaped_unseen_counts_against_the_cpu_limit(
        mode: str, how: str, tmp_path: Path) -> None:
    record = assert_stopped_at_its_cpu_limit(AUTOREAPED.replace("{how}", how), mode, tmp_path)
    # SIGCHLD's action was taken as asked, the old one told as the default (no handler, no
    # flag), as the kernel tells it after an exec
    assert "GOT SET 0\n" in said(record) and "GOT OLD [null, 0]\n" in said(record), said(record)


# --- 13. memory: files in a tmpfs are bounded in number ------------------------------------------

#: up to 50000 empty files in each folder the bot may write in (what it holds is kernel
#: memory, about 1 KiB a file, which only a cgroup counts): how many it made in each, and
#: the error that stopped it
INODES = """
FOLDERS = [os.getcwd(), "/tmp", "/var/tmp", "/dev/shm", "/run/lock"]
def fill(folder):
    made = 0
    try:
        while made < 50000:
            os.close(os.open(f"{folder}/e{made}", os.O_CREAT | os.O_WRONLY, 0o600))
            made += 1
    except OSError as exc:
        return [made, exc.errno]
    return [made, 0]
tell("FILES", {folder: fill(folder) for folder in dict.fromkeys(FOLDERS)})
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_making_empty_files_is_stopped_at_its_tmpfs_inode_limit(
        mode: str, tmp_path: Path) -> None:
    if mode == "none" and not AS_ROOT:
        pytest.skip("an ordinary user's judge makes no tmpfs without bubblewrap")
    limits = replace(LIMITS, first_move_seconds=60.0)
    player = BotPlayer(contestant(tmp_path, INODES), limits, mode)
    try:
        record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    finally:
        sandbox_context().close()
    text = said(record)
    assert record.verdict.code == verdicts.OK and "GOT FILES " in text, (record.verdict, text)
    found = json.loads(text.split("GOT FILES ")[1].splitlines()[0])
    # the tmpfs mounts the judge makes: bwrap's work dir (its /tmp) and /dev/shm, or the
    # helper's work dir and private temporary folders
    mounted = ["/tmp", "/dev/shm"] if mode == "bwrap" else [
        next(iter(found)), *shared_temps()]
    for folder in mounted:
        made, error = found[folder]
        assert error == errno.ENOSPC and made <= limits.tmpfs_files, (folder, made, error)
    assert sum(found[folder][0] for folder in mounted) << 10 < limits.memory_bytes // 8
