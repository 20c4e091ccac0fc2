"""The launcher that starts bots (``judge-exec -L``): what it starts, where, and that it
tells how each start ended; the slot's launcher lives in the slot's cgroups (v1)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from test_hostile import FirstPit, children_of_this_process

from judge.games.ioiwari import Ioiwari
from judge.players.bot import BotPlayer
from judge.referee import play_game
from judge.sandbox import Limits, bwrap_path
from judge.sandbox.build import program_for
from judge.sandbox.context import sandbox_context
from judge.sandbox.exec_helper import helper_path
from judge.sandbox.launcher import Launched, Launcher
from judge.sandbox.process import Confined

HELPER = helper_path()
pytestmark = pytest.mark.skipif(HELPER is None, reason="no C compiler: no exec helper")
MODES = ["none", "bwrap"] if bwrap_path() else ["none"]
BOTS = Path(__file__).parent / "bots"
GAME = Ioiwari()
LIMITS = Limits(move_seconds=1.0, first_move_seconds=3.0, processes=8)


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as fh:
        return int(fh.read().rsplit(b")", 1)[1].split()[1])


def may_protect_from_oom() -> bool:
    """Whether this process may lower an OOM score (CAP_SYS_RESOURCE: not in every
    container, even as root)."""
    with open("/proc/self/status") as fh:
        caps = next(line for line in fh if line.startswith("CapEff:")).split()[1]
    return bool(int(caps, 16) >> 24 & 1)


def command_line(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return [w.decode() for w in fh.read().split(b"\0") if w]


def start(keeper: Launcher, argv: list[str], pass_fds: list[int] | None = None
          ) -> tuple[Launched, int]:
    """`argv` started by `keeper` with /dev/null as input, a pipe as output (its read end
    returned), stderr shared."""
    out_read, out_write = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        pid, ended = keeper.start([HELPER, "--", *argv], {"PATH": "/usr/bin:/bin"}, "/",
                                  (null, out_write, 2), pass_fds or [])
    finally:
        os.close(out_write)
        os.close(null)
    return Launched(pid, ended), out_read


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


def test_the_launcher_reports_how_what_it_started_ended() -> None:
    keeper = Launcher(HELPER)
    try:
        child, out = start(keeper, ["sh", "-c", "echo started; exit 3"])
        assert read_all(out) == "started\n"
        assert child.wait(10.0)
        assert child.returncode == 3
        assert child.usage is not None and child.usage.ru_maxrss > 0
        killed, out = start(keeper, ["sh", "-c", "kill -9 $$"])
        assert killed.wait(10.0)
        assert killed.returncode == -signal.SIGKILL
        os.close(out)
        for done in (child, killed):
            done.close()
    finally:
        keeper.stop()
    assert keeper.proc.returncode == 0  # it ends once the judge closes its socket


def test_descriptors_reach_the_child_at_the_numbers_asked_and_no_other() -> None:
    keeper = Launcher(HELPER)
    extra_read, extra_write = os.pipe()
    number = next(n for n in range(47, 99) if not is_open(n))
    os.dup2(extra_write, number)
    os.close(extra_write)
    try:
        script = f"echo to-{number} > /proc/self/fd/{number}; ls /proc/self/fd"
        child, out = start(keeper, ["sh", "-c", script], [number])
        os.close(number)
        listed = sorted(int(fd) for fd in read_all(out).split())
        assert read_all(extra_read) == f"to-{number}\n"
        # 0-2, the asked one, and the folder ls reads: nothing of the judge or launcher
        assert listed[:3] == [0, 1, 2] and number in listed and len(listed) == 5, listed
        assert child.wait(10.0)
        child.close()
    finally:
        keeper.stop()


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_is_started_by_a_launcher_not_by_a_fork_of_the_judge(mode: str) -> None:
    bot = Confined(program_for(BOTS / "first_pit.py"), LIMITS, mode)
    try:
        starter = bot.started.pid
        keeper = parent_of(starter)
        assert parent_of(keeper) == os.getpid()
        assert command_line(keeper)[1] == "-L"
        slot = sandbox_context().last_slot
        if slot is not None and slot.born_inside():  # the slot's own, in its cgroups
            assert keeper == sandbox_context().launcher(HELPER, slot).pid
            for ctrl, path in slot.cgroups.paths.items():
                members = (path / "cgroup.procs").read_text().split()
                assert str(keeper) in members, ctrl
    finally:
        bot.kill()
    sandbox_context().close()


@pytest.mark.parametrize("mode", MODES)
def test_the_bot_keeps_no_descriptor_but_its_own_three(mode: str, tmp_path: Path) -> None:
    # the helper is handed the slot's counters to reset and cgroups to join: none of them
    # may reach the bot (a writable CPU counter would let it clear its own time)
    # (each descriptor number asked of the kernel: its /proc/self/fd it may not list)
    source = ("import fcntl, os, resource, sys\nsys.stdin.readline()\n"
              "def is_open(fd):\n"
              "    try:\n"
              "        return fcntl.fcntl(fd, fcntl.F_GETFD) >= 0\n"
              "    except OSError:\n"
              "        return False\n"
              "top = resource.getrlimit(resource.RLIMIT_NOFILE)[0]\n"
              "fds = [fd for fd in range(top) if is_open(fd)]\n"
              "print(1, flush=True)\nsys.stderr.write(repr(fds))\n")
    path = tmp_path / "fds.py"
    path.write_text(source)
    record = play_game(GAME, [BotPlayer(path, LIMITS, mode), FirstPit()], GAME.start(), LIMITS)
    sandbox_context().close()
    fds = eval(record.stderr[0] or "[]")  # noqa: S307 - a list of ints the bot printed
    assert fds == [0, 1, 2], fds


@pytest.mark.parametrize("mode", MODES)
def test_the_launcher_is_never_the_oom_victim_and_the_bot_may_be(mode: str,
                                                                  tmp_path: Path) -> None:
    # a bot that fills its tmpfs, with little resident, would leave the launcher the
    # largest process of its slot; the bot gets back the judge's own setting
    # (the bot's own, looked at from here as it thinks: it may not read its /proc/self)
    path = tmp_path / "oom.py"
    path.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(1)\n"
                    "print(1, flush=True)\n")
    with open("/proc/self/oom_score_adj") as fh:
        adj = fh.read().strip()
    # (played in this thread: a launcher dies with the thread that started it)
    seen: list[str | None] = []
    done = threading.Event()
    looking = threading.Thread(target=lambda: seen.append(oom_score_adj_of(path.name, done)))
    looking.start()
    try:
        play_game(GAME, [BotPlayer(path, LIMITS, mode), FirstPit()], GAME.start(), LIMITS)
    finally:
        done.set()
        looking.join()
    keepers = [pid for pid in children_of_this_process() if command_line(pid)[1:2] == ["-L"]]
    assert keepers
    for keeper in keepers:
        with open(f"/proc/{keeper}/oom_score_adj") as fh:
            assert fh.read().strip() == ("-1000" if may_protect_from_oom() else adj)
    assert seen == [adj], (seen, adj)
    sandbox_context().close()


def oom_score_adj_of(name: str, done: threading.Event) -> str | None:
    """The OOM score adjustment of this process's descendant that runs the Python bot file
    `name`, looked at until `done` is set."""
    while not done.is_set():
        for entry in os.listdir("/proc"):
            try:
                pid = int(entry)
                command = command_line(pid)
                if command[1:2] == ["-S"] and command[-1].endswith(f"/{name}"):
                    ancestor = pid
                    while ancestor > 1 and ancestor != os.getpid():
                        ancestor = parent_of(ancestor)
                    if ancestor == os.getpid():
                        with open(f"/proc/{pid}/oom_score_adj") as fh:
                            return fh.read().strip()
            except (ValueError, OSError, IndexError):
                continue
        time.sleep(0.01)
    return None


@pytest.mark.needs_root("slots (and their launchers) need root")
@pytest.mark.parametrize("mode", MODES)
def test_the_slot_launcher_outlives_a_fork_bomb_and_its_slot_is_empty_after(mode: str) -> None:
    player = BotPlayer(BOTS / "fork_bomb.py", LIMITS, mode)
    play_game(GAME, [player, FirstPit()], GAME.start(), LIMITS)
    slot = sandbox_context().last_slot
    assert slot is not None
    if not slot.born_inside():
        pytest.skip("no cgroups v1 here: bots join the slot's cgroups")
    keeper = sandbox_context().launcher(HELPER, slot)
    slot.finish()
    assert keeper.alive()
    assert slot.members() == []  # what the bomb left: killed and reaped (by the launcher)
    assert slot.process_count() == 1  # the launcher alone: no zombie counts against it
    # the slot's next game may start as many processes as its limit says
    record = play_game(GAME, [BotPlayer(BOTS / "first_pit.py", LIMITS, mode), FirstPit()],
                       GAME.start(), LIMITS)
    assert record.verdict.code == "ok"
    sandbox_context().close()
    assert not keeper.alive()


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_launcher_found_dead_is_started_again(mode: str) -> None:
    for _ in range(2):  # (a slot's own launcher: each of the two slots a process takes)
        bot = Confined(program_for(BOTS / "first_pit.py"), LIMITS, mode)
        keeper = parent_of(bot.started.pid)
        bot.kill()
        os.kill(keeper, signal.SIGKILL)
        bot = Confined(program_for(BOTS / "first_pit.py"), LIMITS, mode)
        try:
            assert parent_of(bot.started.pid) != keeper
            bot.send(b"4 3 2 4 2 3 2\n", 1.0)
            bot.output.expect("\n", timeout=5)
        finally:
            bot.kill()
    sandbox_context().close()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def namespaces_held_by(pid: int) -> set[str]:
    """The namespaces (``mnt:[N]``, ``ipc:[N]``) that process `pid` has open, but this
    process's own (a launcher keeps its own mount namespace open, to come back to it)."""
    held = set()
    home = {os.readlink(f"/proc/self/ns/{ns}") for ns in ("mnt", "ipc")}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith(("mnt:", "ipc:")) and target not in home:
            held.add(target)
    return held


@pytest.mark.needs_root("private namespaces per game need root")
def test_the_launcher_holds_a_bots_namespaces_until_it_is_reaped_and_no_longer() -> None:
    # the teardown of a game's namespaces (an RCU grace period) then delays neither the
    # bot's exit nor its report: the launcher holds them from the start, and lets them go
    # once it has told how the bot ended: no later game enters them
    bot = Confined(program_for(BOTS / "first_pit.py"), LIMITS, "none")
    slot = sandbox_context().last_slot
    try:
        if slot is None or not slot.born_inside():
            pytest.skip("no cgroups v1 here: no slot launcher")
        keeper = sandbox_context().launcher(HELPER, slot).pid
        assert parent_of(bot.started.pid) == keeper  # the launcher's child is the bot
        deadline = time.monotonic() + 5  # (held once the child has made them)
        while len(namespaces_held_by(keeper)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        own = {os.readlink(f"/proc/{bot.started.pid}/ns/{ns}") for ns in ("mnt", "ipc")}
        assert own.isdisjoint({os.readlink(f"/proc/self/ns/{ns}") for ns in ("mnt", "ipc")})
        assert namespaces_held_by(keeper) == own
        bot.kill()
        slot.finish()  # the bot gone, and reaped
        assert not os.path.exists(f"/proc/{bot.started.pid}")
        deadline = time.monotonic() + 5  # (let go right after the report)
        while namespaces_held_by(keeper) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert namespaces_held_by(keeper) == set()
    finally:
        bot.kill()
        sandbox_context().close()


def first_line(program: object, env: dict[str, str] | None) -> tuple[object, bytes]:
    """One game of `program` without bwrap, ended once it has written a line: the slot it
    had, and the line."""
    proc = Confined(program, LIMITS, "none", env=env)
    try:
        proc.output.expect(b"\n", timeout=10)
        return sandbox_context().last_slot, proc.output.before.strip()
    finally:
        proc.kill()


SHOW_NS = """import os
tmp = os.stat("/tmp")
if os.environ.get("TOUCH"):
    open(os.environ["TOUCH"], "w").close()
print(os.readlink("/proc/self/ns/mnt"), tmp.st_dev, tmp.st_mtime_ns, flush=True)
"""


@pytest.mark.needs_root("private namespaces per game need root")
def test_every_game_of_a_slot_has_a_mount_namespace_and_tmp_made_for_it(tmp_path: Path) -> None:
    # never one that an earlier game of the same bot in the same slot had, even one that
    # it left exactly as it was made
    bot = tmp_path / "ns.py"
    bot.write_text(SHOW_NS)
    program = program_for(bot)
    try:
        games = []
        for _ in range(4):
            games.append(first_line(program, None))
            time.sleep(0.01)  # (a tmpfs made later shows a later time)
    finally:
        sandbox_context().close()
    assert games[0][0] is games[2][0] and games[1][0] is games[3][0]  # (two slots in turn)
    lines = [line for _, line in games]
    assert len(set(lines)) == 4, lines
    assert not any(line.startswith(os.readlink("/proc/self/ns/mnt").encode()) for line in lines)


SHOW_IPC = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
private, create, remove = 0, 0o1000, 0
left = os.environ.get("LEAVE", "")
# whether a POSIX message queue of an earlier game is here
found = libc.mq_open(b"/judge-left", os.O_RDONLY) >= 0
queue = libc.msgget(private, create | 0o600)  # (0 in a new namespace)
if left != "msg":
    libc.msgctl(queue, remove, None)
if left == "shm":
    libc.shmget(private, 4096, create | 0o600)
if left == "sem":
    libc.semget(private, 1, create | 0o600)
if left == "mq":
    libc.mq_open(b"/judge-left", os.O_CREAT | os.O_RDWR, ctypes.c_uint(0o600), None)
print(os.readlink("/proc/self/ns/ipc"), queue, int(found), flush=True)
"""


@pytest.mark.needs_root("private namespaces per game need root")
@pytest.mark.parametrize("left", ["msg", "shm", "sem", "mq"])
def test_every_game_of_a_slot_has_an_ipc_namespace_made_for_it(left: str, tmp_path: Path) -> None:
    # every game has an IPC namespace of its own, and nothing an earlier game of the slot
    # tried to leave (a message queue, shared memory, a semaphore set, a POSIX queue) is
    # there: the filter refuses them all (no runtime needs them), each game's attempt too
    bot = tmp_path / "ipc.py"
    bot.write_text(SHOW_IPC)
    program = program_for(bot)
    try:
        games = [first_line(program, {"LEAVE": left}) for _ in range(2)]
        games += [first_line(program, None) for _ in range(2)]
    finally:
        sandbox_context().close()
    assert games[0][0] is games[2][0]  # (the same slot)
    seen = [line.split() for _, line in games]
    assert os.readlink("/proc/self/ns/ipc").encode() not in {ns for ns, _, _ in seen}
    assert [(queue, found) for _, queue, found in seen] == [(b"-1", b"0")] * 4


FILL = """import os, sys
if os.environ.get("FILL"):
    with open("/tmp/left", "wb") as fh:
        for _ in range(96):
            fh.write(os.urandom(1 << 20))
print("ready", flush=True)
sys.stdin.read()
"""


def charged_to(slot: object) -> int:
    """The memory charged to a slot's cgroup now (bytes)."""
    cg = slot.cgroups  # type: ignore[attr-defined]
    path = cg.paths["memory"] / "memory.usage_in_bytes" if hasattr(cg, "paths") \
        else cg.bot / "memory.current"
    return int(path.read_text())


@pytest.mark.needs_root("private namespaces per game need root")
@pytest.mark.parametrize("next_bot", ["the same bot", "another bot"])
def test_what_a_bot_left_in_its_tmp_is_gone_before_the_slots_next_game_starts(
        next_bot: str, tmp_path: Path) -> None:
    # what a bot left in its /tmp is memory charged to its slot: its namespace, and so its
    # tmpfs, is let go before the slot's next game starts
    limits = replace(LIMITS, memory_bytes=512 << 20, disk_bytes=128 << 20,
                     file_bytes=128 << 20)
    bots = [tmp_path / "a.py", tmp_path / "b.py"]
    for bot in bots:
        bot.write_text(FILL)
    programs = {bot: program_for(bot) for bot in bots}  # checked before any game, as in a run

    def start(bot: Path, fill: bool = False) -> Confined:
        proc = Confined(programs[bot], limits, "none", env={"FILL": "1"} if fill else None)
        proc.output.expect(b"\n", timeout=20)
        return proc

    try:
        proc = start(bots[0], fill=True)
        slot = sandbox_context().last_slot
        if slot is None or slot.cgroups is None or not slot.counts_memory:
            pytest.skip("no memory cgroup here")
        assert charged_to(slot) >= 96 << 20
        proc.kill()
        start(bots[0]).kill()  # (in the process's other slot)
        proc = start(bots[0] if next_bot == "the same bot" else bots[1])
        try:
            assert sandbox_context().last_slot is slot
            assert charged_to(slot) < 64 << 20
        finally:
            proc.kill()
    finally:
        sandbox_context().close()


# --- how the helper is built ---------------------------------------------------------------


def build_helper(cache: Path, path: str, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """The helper built afresh into `cache` with `path` as PATH (this process's cached
    answer is not touched)."""
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(cache))
    monkeypatch.setenv("PATH", path)
    return helper_path.__wrapped__()


def runs(helper: str) -> bool:
    """Whether `helper` confines and starts a command: its status says the command's own."""
    read, write = os.pipe()
    try:
        done = subprocess.run([helper, "-x", str(write), "-r", "7:64:64", "--", "/bin/sh",
                               "-c", "ulimit -n; exit 3"], pass_fds=[write],
                              capture_output=True, text=True, timeout=30)
    finally:
        os.close(write)
    with os.fdopen(read) as status:
        return done.stdout.strip() == "64" and status.read() == "E3"


@pytest.mark.needs_toolchain("musl-gcc")
def test_the_helper_is_built_with_musl_where_it_is_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # its start is then a few system calls: glibc's static start-up (its tunables, its
    # probing of the processor) is not in it
    built = build_helper(tmp_path, os.environ["PATH"], monkeypatch)
    assert built is not None
    data = Path(built).read_bytes()
    assert b"GLIBC_TUNABLES" not in data
    assert runs(built)


def test_a_failing_musl_falls_back_to_the_system_compiler(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    fake = tmp_path / "bin"
    fake.mkdir()
    tried = tmp_path / "musl-tried"
    (fake / "musl-gcc").write_text(f"#!/bin/sh\ntouch {tried}\necho 'no musl here' >&2\n"
                                   "exit 1\n")
    (fake / "musl-gcc").chmod(0o755)
    built = build_helper(tmp_path / "cache", f"{fake}:{os.environ['PATH']}", monkeypatch)
    assert tried.exists()  # musl first ...
    assert built is not None and b"GLIBC_TUNABLES" in Path(built).read_bytes()  # ... then glibc
    assert runs(built)


def reaped(argv: list[str]) -> tuple[str, str, str]:
    """`argv` run by the helper as the bot's reaper (-x): the bot's stdout and stderr, and
    the status the helper reports."""
    read, write = os.pipe()
    try:
        done = subprocess.run([HELPER, "-x", str(write), *argv], pass_fds=[write],
                              capture_output=True, text=True, timeout=30)
    finally:
        os.close(write)
    with os.fdopen(read) as status:
        return done.stdout, done.stderr, status.read()


def test_a_reaped_bot_starts_with_no_signal_blocked_or_ignored() -> None:
    # (the reaper blocks and handles signals of its own before the bot's side starts)
    out, _, status = reaped(["--", "/bin/sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"])
    assert status == "E0"
    assert {line.split()[0]: int(line.split()[1], 16) for line in out.splitlines()} == {
        "SigBlk:": 0, "SigIgn:": 0}


def test_a_reaped_bot_that_cannot_be_started_is_reported_with_the_reason() -> None:
    _, err, status = reaped(["-d", "/nonexistent", "--", "/bin/true"])
    assert status == "E126"
    assert "judge-exec: chdir /nonexistent: No such file or directory" in err


def test_an_executable_without_a_shebang_line_runs_as_a_shell_script(tmp_path: Path) -> None:
    # as glibc's execvp runs it (musl's would refuse it: the same bot must run wherever)
    script = tmp_path / "bot"
    script.write_text('echo "run by the shell with $1"\n')
    script.chmod(0o755)
    out, _, status = reaped(["--", str(script), "its argument"])
    assert (out, status) == ("run by the shell with its argument\n", "E0")


#: a judge that starts, through its launcher, a process that ignores SIGTERM, says so, and
#: waits to be killed
STUBBORN = """
import os, sys, time
from judge.sandbox.launcher import Launcher
keeper = Launcher(sys.argv[1])
null = os.open(os.devnull, os.O_RDWR)
keeper.start([sys.argv[1], "--", "sh", "-c", "trap '' TERM; while :; do sleep 0.1; done",
              sys.argv[2]], {"PATH": "/usr/bin:/bin"}, "/", (null, null, 2), [])
print("started", flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_what_ignores_sigterm_does_not_outlive_a_killed_judge(tmp_path: Path) -> None:
    """The launcher tells what it started to end when the judge dies, then kills what is
    left after 5 s (it stayed: a process that ignores SIGTERM, or one started as the judge
    died, before it could ask to die with its parent)."""
    marker = f"stubborn-{os.getpid()}-{time.monotonic_ns()}"
    judge = subprocess.Popen([sys.executable, "-c", STUBBORN, str(HELPER), marker],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert judge.stdout is not None and judge.stdout.readline() == "started\n"
        assert mentioning(marker)
    finally:
        judge.kill()
        judge.wait()
    deadline = time.monotonic() + 30
    while mentioning(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not mentioning(marker)


def mentioning(text: str) -> list[int]:
    """Live processes whose command line holds `text`."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and text.encode() in (proc / "cmdline").read_bytes() \
                    and (proc / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(proc.name))
        except OSError:
            continue
    return found
