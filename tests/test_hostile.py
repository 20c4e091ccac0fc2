"""Bots that misbehave get the right verdict within their limits and leave nothing behind.

Every bot in tests/bots plays Ioiwari from the statement's start against a scripted player,
in each sandbox mode this machine has (none, bwrap where it is installed and works, and
gvisor as root where runsc is installed and works; skipped with the reason elsewhere).
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest

from judge import verdicts
from judge.games.base import InputError
from judge.games.ioiwari import Board, Ioiwari
from judge.players.base import Played, Player
from judge.players.bot import BotPlayer
from judge.referee import GameRecord, play_game
from judge.sandbox import (
    Limits,
    bwrap_path,
    compiled,
    group_members,
    remove_stale_workdirs,
    resolve_sandbox,
)
from judge.sandbox.context import sandbox_context
from judge.sandbox.gvisor import sweep_state
from judge.sandbox.tiers import runsc_refusal, state_dir

BOTS = Path(__file__).parent / "bots"
#: the gvisor tier: with runsc installed and starting a sandbox (slow: a sandbox of its own
#: per game, some 0.2 s to start)
GVISOR = pytest.param("gvisor", marks=[pytest.mark.skipif(
    runsc_refusal() is not None, reason=str(runsc_refusal())), pytest.mark.slow])
MODES = [*(["none", "bwrap"] if bwrap_path() else ["none"]), GVISOR]
#: the modes with the exec helper, and a terminal for the bot (gvisor refuses --pty)
MODES_WITH_PTY = ["none", "bwrap"] if bwrap_path() else ["none"]
LIMITS = Limits(
    move_seconds=0.5,
    first_move_seconds=1.5,
    cpu_seconds=5,
    memory_bytes=256 << 20,
    processes=16,
    grace_seconds=0.2,
    stderr_bytes=2048,
)
#: how much longer than its limit a verdict may take to arrive (a bound that tells a hang
#: from a verdict in time, wide enough for a busy machine)
MARGIN = 3.0
GAME = Ioiwari()


class FirstPit(Player):
    """A scripted opponent: always the first non-empty pit."""

    name = "first-pit"

    def choose(self, pos: Board, last: Played | None) -> int:
        return self.game.legal_moves(pos)[0]


class Broken(Player):
    """A player whose code fails: the judge's own error, not the bot's."""

    name = "broken"

    def choose(self, pos: Board, last: Played | None) -> int:
        raise RuntimeError("solver table missing")


#: the kernel's flag of a process in exit (field 9 of /proc/PID/stat)
PF_EXITING = 0x4


def children_of_this_process() -> list[int]:
    """Processes started by any thread of the test process that are still there."""
    pids = []
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{task}/children") as fh:
            pids += [int(p) for p in fh.read().split()]
    return pids


def play(
    bot: str | Path,
    mode: str,
    seat: int = 0,
    limits: Limits = LIMITS,
    pty: bool = False,
    opponent: Player | None = None,
) -> tuple[GameRecord, float]:
    """One game of `bot` against the scripted player; checks that no process is left."""
    path = copy_bot(bot, STANDALONE) if isinstance(bot, str) and bot.endswith(".py") else (
        BOTS / bot if isinstance(bot, str) else bot)
    player = BotPlayer(path, limits, mode, pty)
    players = [player, opponent or FirstPit()]
    if seat == 1:
        players.reverse()
    started = time.monotonic()
    record = play_game(GAME, players, GAME.start(), limits)
    elapsed = time.monotonic() - started
    assert_nothing_runs_on(player)
    return record, elapsed


def assert_nothing_runs_on(player: BotPlayer) -> None:
    """Right after its game no process of the bot runs (each is gone, a zombie, or has
    SIGKILL pending); once the judge has settled the game (at the slot's next game, or at
    its exit) nothing of it is left at all, starters included."""
    if player.pgid is not None:
        # (dying last: a process may end between the two looks, never come back)
        running = [p for p in group_members(player.pgid) if not starter(p) and not dying(p)]
        assert running == [], [describe(p) for p in running]
    sandbox_context().close()
    if player.pgid is not None:
        assert group_members(player.pgid) == []
    assert children_of_this_process() == []
    if player.sandbox == "gvisor":  # its container deleted: runsc keeps nothing of it
        # (of this judge's: another judge on the machine may be playing)
        assert list(state_dir().glob(f"*judge-{os.getpid()}-*")) == []


def dying(pid: int) -> bool:
    """Whether process `pid` is gone, a zombie, exiting, or has SIGKILL pending."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
        with open(f"/proc/{pid}/stat", "rb") as fh:
            flags = int(fh.read().rsplit(b")", 1)[1].split()[6])
    except OSError:
        return True
    pending = int(fields["ShdPnd"], 16) | int(fields["SigPnd"], 16)
    return (fields["State"].split()[0] in ("Z", "X") or bool(flags & PF_EXITING)
            or bool(pending & (1 << (signal.SIGKILL - 1))))


def describe(pid: int) -> str:
    """What a test says of a process it finds left: its command, state and parent."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode(errors="replace")
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            command = fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"{pid} (gone)"
    return f"{pid} {command[:80]!r} {stat[:120]}"


def starter(pid: int) -> bool:
    """Whether `pid` is one of the judge's own processes that started a bot (its exec
    helper: around bwrap, or as the bot's reaper, which ends once it has reaped all),
    forked by the judge's launcher (itself a child of the judge)."""
    if not helper_process(pid):
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            parent = int(fh.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return False
    ours = children_of_this_process()
    return pid in ours or (parent in ours and helper_process(parent))


def helper_process(pid: int) -> bool:
    """Whether `pid` runs the judge's exec helper."""
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe")).startswith("judge-exec")
    except OSError:
        return False


def first_pit_game() -> GameRecord:
    """The same game between two scripted players: what a well-behaved bot must reproduce."""
    return play_game(GAME, [FirstPit(), FirstPit()], GAME.start())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("bot", "code", "words"),
    [
        ("segfault.c", verdicts.CRASH, "SIGSEGV"),
        ("self_kill.py", verdicts.CRASH, "SIGSEGV"),
        ("exit_early.py", verdicts.CRASH, "status 3"),
        ("busy_loop.py", verdicts.TIME_LIMIT, "1.5 s on its move 1"),
        ("sleep_forever.py", verdicts.TIME_LIMIT, "1.5 s on its move 1"),
        ("no_flush.c", verdicts.TIME_LIMIT, "or a move written but not flushed?"),
        ("stdout_flood.py", verdicts.OUTPUT_LIMIT, "longer than 4096 bytes"),
        ("garbage.py", verdicts.GARBAGE, "'hello, judge'"),
        ("illegal_move.py", verdicts.ILLEGAL_MOVE, "no pit 8"),
        ("close_stdout.py", verdicts.NO_MOVE, "closed its output"),
        ("compile_error.c", verdicts.COMPILE_ERROR, "undeclared_variable"),
    ],
)
def test_hostile_bot_gets_its_verdict_in_time(mode: str, bot: str, code: str, words: str) -> None:
    record, elapsed = play(bot, mode)
    assert (record.verdict.code, record.verdict.seat, record.results) == (code, 0, ["loss", "win"])
    if mode == "gvisor" and bot == "no_flush.c":  # (its process, the sandbox's kernel's, is
        words = "no move within"  # not seen waiting for input: the verdict, not why)
    assert words in record.verdict.message
    assert elapsed < LIMITS.first_move_seconds + LIMITS.grace_seconds + MARGIN


@pytest.mark.parametrize("mode", MODES)
def test_memory_hog_gets_memory_limit(mode: str) -> None:
    # its time limits are wide: on a busy machine filling the memory limit may take longer
    # than the usual first move's time, and the verdict must be memory-limit whatever the load
    limits = dataclasses.replace(LIMITS, move_seconds=30, first_move_seconds=30)
    record, _ = play("memory_hog.py", mode, limits=limits)
    assert (record.verdict.code, record.verdict.seat, record.results) == (
        verdicts.MEMORY_LIMIT, 0, ["loss", "win"])
    # the bot's own MemoryError at its limit; in gVisor, whose sandbox kernel's memory the
    # judge counts with the bot's, its count may pass the limit first (a race on 2 cores)
    said = record.verdict.message
    assert "MemoryError" in said or (
        mode == "gvisor" and said == f"move 1: its processes used more than "
        f"{limits.memory_bytes >> 20} MiB together"), said


@pytest.mark.parametrize("mode", MODES)
def test_memory_held_in_files_no_process_maps_counts(mode: str) -> None:
    # memory files that no process maps are in no process's resident size: in gVisor the
    # sandbox's kernel keeps them (with its own memory) in a file of the sentry's, which
    # the judge counts; elsewhere `memfd_create` is refused and the bot holds them itself
    limits = dataclasses.replace(LIMITS, move_seconds=30, first_move_seconds=30)
    record, _ = play("memfd_hoard.py", mode, limits=limits)
    assert (record.verdict.code, record.verdict.seat, record.results) == (
        verdicts.MEMORY_LIMIT, 0, ["loss", "win"]), record.verdict.message


@pytest.mark.parametrize("mode", ["none", "bwrap"] if bwrap_path() else ["none"])
def test_memory_held_in_socket_buffers_counts_or_stays_within_the_limit(mode: str) -> None:
    # the buffers of a socket pair are the kernel's memory, which a cgroup counts and the
    # judge's own sums do not: a send buffer raised to the kernel's largest held 8 MiB
    # each, 235 MiB under a 64 MiB limit as an ordinary user (ok); the filter ignores the
    # raise now. (gVisor's kernel keeps them in memory the judge does not count: see
    # docs/sandbox.md.)
    limits = dataclasses.replace(LIMITS, memory_bytes=64 << 20, move_seconds=30,
                                 first_move_seconds=30)
    record, _ = play("socket_hoard.py", mode, limits=limits)
    said = record.stderr[0] or ""
    if record.verdict.code != verdicts.MEMORY_LIMIT:
        assert record.verdict.code == verdicts.OK, (record.verdict, said)
        assert int(said.split("held ")[1].split()[0]) < limits.memory_bytes, said


@pytest.mark.parametrize("mode", ["none", "bwrap"] if bwrap_path() else ["none"])
def test_the_cpu_that_answers_its_system_calls_counts(mode: str) -> None:
    # the exec helper answers sysinfo for the bot (in gvisor the sandbox's kernel does):
    # some five times the bot's own CPU, which is the bot's as much as a system call's
    limits = dataclasses.replace(LIMITS, move_seconds=60, first_move_seconds=60,
                                 cpu_seconds=2)
    record, _ = play("sysinfo_loop.py", mode, limits=limits)
    assert (record.verdict.code, record.verdict.seat) == (verdicts.CPU_LIMIT, 0), (
        record.verdict.message)


@pytest.mark.parametrize("mode", MODES)
def test_fork_bomb_is_stopped_and_every_process_killed(mode: str) -> None:
    # as a user RLIMIT_NPROC makes fork fail (the bot dies of it); as root the judge counts
    # the process group while it waits and kills it
    record, elapsed = play("fork_bomb.py", mode)
    assert record.verdict.code == verdicts.CRASH
    assert elapsed < LIMITS.first_move_seconds + MARGIN


@pytest.mark.parametrize("mode", MODES)
def test_processes_that_leave_the_group_and_session_die_too(mode: str) -> None:
    # killpg cannot reach another session: under bwrap the PID namespace ends them, without
    # it the judge finds them by the mark in their environment
    record, _ = play("setsid_escape.py", mode)
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert processes_running(STANDALONE / "setsid_escape.py") == []


def processes_running(script: Path) -> list[int]:
    """The processes whose command line names `script`."""
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as fh:
                    if str(script).encode() in fh.read():
                        pids.append(int(name))
            except OSError:
                continue
    return pids


@pytest.mark.parametrize("mode", MODES)
def test_cpu_limit_beats_a_longer_wall_limit(mode: str) -> None:
    # (gvisor: no cgroup gives the sandbox its CPU, and the bot's start in it takes longer)
    limits = replace(LIMITS, first_move_seconds=12.0 if mode == "gvisor" else 4.0,
                     cpu_seconds=1)
    record, elapsed = play("busy_loop.py", mode, limits=limits)
    assert record.verdict.code == verdicts.CPU_LIMIT
    assert elapsed < limits.first_move_seconds


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bot", ["memory_hog.c", "malloc_exit.c"])
def test_c_memory_hog(mode: str, bot: str) -> None:
    record, _ = play(bot, mode)
    if mode == "none":  # its peak resident size at the limit tells a memory death
        assert record.verdict.code == verdicts.MEMORY_LIMIT
    else:  # bwrap hides the usage of its namespace; only a sample taken in time tells
        assert record.verdict.code in (verdicts.MEMORY_LIMIT, verdicts.CRASH)
        assert any(w in record.verdict.message for w in ("SIGSEGV", "memory", "status 1"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bot", ["first_pit.py", "first_pit.c"])
@pytest.mark.parametrize("seat", [0, 1])
def test_well_behaved_bot_plays_the_whole_game(mode: str, bot: str, seat: int) -> None:
    record, _ = play(bot, mode, seat)
    expected = first_pit_game()
    assert record.verdict.code == verdicts.OK
    assert [m.move for m in record.moves] == [m.move for m in expected.moves]
    assert (record.results, record.score, record.final) == (
        expected.results,
        expected.score,
        expected.final,
    )
    assert all(m.cpu_seconds is not None for m in record.moves if m.seat == seat)


@pytest.mark.parametrize("mode", MODES)
def test_stderr_flood_does_not_hurt_and_only_its_tail_is_kept(mode: str) -> None:
    # (gvisor: its 8192 writes, each through ptrace, may take longer than a first move)
    record, _ = play("stderr_flood.py", mode, limits=replace(
        LIMITS, first_move_seconds=10.0) if mode == "gvisor" else LIMITS)
    assert record.verdict.code == verdicts.OK
    tail = record.stderr[0]
    assert tail is not None and tail.startswith("[")  # says how much was dropped
    assert len(tail) < LIMITS.stderr_bytes + 100
    assert record.stderr[1] is None


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_floods_stderr_once_its_input_ends_is_drained_and_ends_by_itself(
        mode: str) -> None:
    # the judge reads its stderr while it waits for the bot to exit: a bot blocked on a
    # full pipe would be killed at the end of its grace time, before its last words (in
    # gvisor its 2048 writes take longer than 0.2 s: each system call goes through ptrace)
    record, _ = play("stderr_at_end.py", mode, limits=replace(
        LIMITS, grace_seconds=2.0) if mode == "gvisor" else LIMITS)
    assert record.verdict.code == verdicts.OK
    tail = record.stderr[0]
    assert tail is not None and tail.startswith("[")  # says how much was dropped
    assert tail.endswith("last words\n")


@pytest.mark.parametrize("mode", MODES)
def test_lingering_bot_is_killed_after_the_grace_time(mode: str) -> None:
    record, elapsed = play("linger.py", mode)
    assert record.verdict.code == verdicts.OK
    assert elapsed < LIMITS.grace_seconds + MARGIN


@pytest.mark.parametrize("mode", MODES_WITH_PTY)
def test_no_flush_bot_works_on_a_pty(mode: str) -> None:
    record, _ = play("no_flush.c", mode, seat=1, pty=True)
    assert record.moves[1].seat == 1  # its first move arrived; it is not a time-limit
    assert record.verdict.code != verdicts.TIME_LIMIT


def copy_bot(name: str, folder: Path, source: str | None = None) -> Path:
    """The bot `name` as one file in `folder` (a bot sees only its own file): the module
    it plays with, `first_pit`, is put in place of its import."""
    text = (BOTS / name).read_text() if source is None else source
    if "import first_pit\n" in text:
        player = (BOTS / "first_pit.py").read_text()
        player = player[: player.index('if __name__ == "__main__":')]
        module = "import types as _types\nfirst_pit = _types.ModuleType('first_pit')\n"
        module += f"exec({player!r}, first_pit.__dict__)\n"
        text = text.replace("import first_pit\n", module, 1)
    (folder / name).write_text(text)
    return folder / name


#: the bots of tests/bots as single files
STANDALONE = Path(tempfile.mkdtemp(prefix="judge-test-bots-"))
os.chmod(STANDALONE, 0o755)
atexit.register(shutil.rmtree, STANDALONE, True)


@pytest.mark.parametrize("mode", MODES)
def test_network_is_closed_under_bwrap(mode: str, tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        port = server.getsockname()[1]
        source = (BOTS / "network.py").read_text().replace("PORT = 0", f"PORT = {port}")
        record, _ = play(copy_bot("network.py", tmp_path, source), mode)
        assert record.verdict.code == verdicts.OK
        if mode == "bwrap":
            assert "no connection" in (record.stderr[0] or "")
            with pytest.raises(BlockingIOError):
                server.accept()


@pytest.mark.parametrize("mode", MODES)
def test_writing_outside_is_stopped_under_bwrap(mode: str, tmp_path: Path) -> None:
    beside_bot = tmp_path / "escaped.txt"
    in_tmp = Path("/tmp/judge-escaped.txt")
    in_tmp.unlink(missing_ok=True)
    try:
        record, _ = play(copy_bot("escape_write.py", tmp_path), mode)
        assert record.verdict.code == verdicts.OK
        said = record.stderr[0] or ""
        if mode == "bwrap":  # a private tmpfs over a read-only view of the system
            assert not beside_bot.exists() and not in_tmp.exists()
        if os.geteuid() == 0:  # its own uid, in any mode
            assert not beside_bot.exists()
            assert "Read-only file system" in said or "Permission denied" in said
    finally:
        in_tmp.unlink(missing_ok=True)
        Path(tempfile.gettempdir(), "judge-escaped-beside.txt").unlink(missing_ok=True)


KILLED_JUDGE = """
import sys
from judge.games.ioiwari import Ioiwari
from judge.players.bot import BotPlayer
game = Ioiwari()
bot = BotPlayer(sys.argv[1], sandbox=sys.argv[2])
bot.begin(game, 0)
bot.choose(game.start(), None)
print(bot.pgid, bot.process.workdir, flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("mode", MODES)
def test_bots_die_with_a_killed_judge_whose_directory_is_swept_later(mode: str) -> None:
    # the bot has moved (so it is fully started), and would linger after its input ends
    judge = subprocess.Popen(
        [sys.executable, "-c", KILLED_JUDGE, str(copy_bot("linger.py", STANDALONE)), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert judge.stdout is not None
    pgid, workdir = judge.stdout.readline().split()
    judge.kill()
    judge.wait()
    deadline = time.monotonic() + 2.0
    while group_members(int(pgid)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert group_members(int(pgid)) == []
    if mode == "gvisor":  # the sandbox died with runsc; the next judge deletes its state
        deadline = time.monotonic() + 5.0  # (its sandbox dies with runsc, --attached)
        while processes_running(Path(f"judge-{judge.pid}-")) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert processes_running(Path(f"judge-{judge.pid}-")) == []
        sweep_state()
        assert not list(state_dir().glob(f"*judge-{judge.pid}-*"))
        return
    if mode == "bwrap" or os.geteuid() == 0:  # a tmpfs in its own mount namespace
        assert workdir == "None"  # nothing of it was ever on disk
        return
    assert Path(workdir).is_dir()  # a killed judge cannot clean up ...
    remove_stale_workdirs()
    assert not Path(workdir).exists()  # ... the next one does


@pytest.mark.parametrize("mode", MODES)
def test_judge_error_is_charged_to_nobody_and_the_bot_is_still_killed(mode: str) -> None:
    record, _ = play("first_pit.py", mode, opponent=Broken())
    assert record.verdict.code == verdicts.JUDGE_ERROR
    assert record.verdict.seat is None and record.results == ["none", "none"]
    assert "solver table missing" in record.verdict.message


def test_loopy_game_stops_as_a_tie_at_the_move_limit() -> None:
    class LoopyIoiwari(Ioiwari):
        loopy = True

    game = LoopyIoiwari()
    record = play_game(game, [FirstPit(), FirstPit()], game.start(), replace(LIMITS, move_limit=3))
    assert len(record.moves) == 3 and record.results == ["tie", "tie"]
    assert record.verdict.code == verdicts.OK and "move limit" in record.verdict.message


def test_record_is_plain_json_data() -> None:
    data = first_pit_game().to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["verdict"] == {"code": "ok", "message": "", "seat": None}
    assert data["game"] == "ioiwari" and data["start"] == "4 3 2 4 2 3 2"


def test_missing_or_unrunnable_bot_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        BotPlayer(tmp_path / "absent.py")
    text = tmp_path / "bot.txt"
    text.write_text("not a program")
    with pytest.raises(InputError, match="not executable"):
        BotPlayer(text)
    with pytest.raises(InputError, match="sandbox must be"):
        resolve_sandbox("docker")


def test_compiled_bot_is_cached_by_content(tmp_path: Path) -> None:
    source = tmp_path / "bot.c"
    shutil.copy(BOTS / "first_pit.c", source)
    binary = compiled(source)[0] / "bot"
    stamp = binary.stat().st_mtime_ns
    assert compiled(source)[0] / "bot" == binary and binary.stat().st_mtime_ns == stamp
    source.write_text(source.read_text() + "\n/* changed */\n")
    assert compiled(source)[0] / "bot" != binary


#: a bot that moves, then leaves children that sleep, and lingers itself
MOVE_THEN_CHILDREN = """
import os, sys, time
sys.stdin.readline()
print(next(i + 1 for i in range(7)), flush=True)
for _ in range(4):
    if os.fork() == 0:
        time.sleep(10**6)
time.sleep(10**6)
"""

#: a parent of the judge that takes in what the judge leaves (a child subreaper): it kills
#: the judge with SIGKILL once its bot has moved, then reaps whatever comes to it, and
#: prints, for each process it reaps but the judge, its name and how it ended
ORPHANS_OF_A_KILLED_JUDGE = """
import ctypes, json, os, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
judge = subprocess.Popen([sys.executable, "-c", sys.argv[1], *sys.argv[2:]],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
judge.stdout.readline()
judge.kill()
judge.wait()
ended, deadline = [], time.monotonic() + 10.0
while time.monotonic() < deadline:
    kids = []
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{task}/children") as fh:
            kids += [int(k) for k in fh.read().split()]
    if not kids:
        break
    for kid in kids:
        try:
            with open(f"/proc/{kid}/stat") as fh:
                name = fh.read().split("(", 1)[1].rsplit(")", 1)[0]
        except OSError:
            continue
        pid, status = os.waitpid(kid, os.WNOHANG)
        if pid:
            ended.append([name, os.waitstatus_to_exitcode(status)])
    time.sleep(0.01)
print(json.dumps(ended))
"""


@pytest.mark.parametrize("mode", MODES_WITH_PTY)
def test_a_killed_judge_leaves_only_its_helpers_which_end_by_themselves(mode: str) -> None:
    # the helper that reaps the bot outlives the judge to kill what the bot started: it
    # reaps all of it (none of it is left to the judge's parent, or to an init that may
    # never reap), and is not killed on the way by telling a judge that is gone how the
    # bot ended (SIGPIPE)
    bot = copy_bot("move_then_children.py", STANDALONE, MOVE_THEN_CHILDREN)
    out = subprocess.run(
        [sys.executable, "-c", ORPHANS_OF_A_KILLED_JUDGE, KILLED_JUDGE, str(bot), mode],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    ended = json.loads(out)
    assert ended, "the helper outlives the judge, then ends"
    assert all(name.startswith("judge-exec") for name, _ in ended), ended
    assert all(code != -signal.SIGPIPE for _, code in ended), ended


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_whose_start_fails_in_the_judge_after_it_runs_is_killed(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the judge's own failure once the bot's process exists (e.g. a descriptor it closes
    # is found closed already) voids the game; it must not leave that process running
    # into the slot's next game
    import judge.sandbox.process as process

    def failing(fd: int, keep: int) -> None:
        raise OSError(9, "Bad file descriptor")

    bot = copy_bot(f"linger_{mode}.py", STANDALONE, (BOTS / "linger.py").read_text())
    player = BotPlayer(bot, LIMITS, mode)  # (checked before its game, as in a run)
    monkeypatch.setattr(process, "StderrTail", failing)
    record = play_game(GAME, [player, FirstPit()], GAME.start(), LIMITS)
    monkeypatch.undo()
    assert record.verdict.code == verdicts.JUDGE_ERROR
    sandbox_context().close()
    deadline = time.monotonic() + MARGIN
    while (left := [p for p in processes_running(bot) if not dying(p)]) and (
            time.monotonic() < deadline):
        time.sleep(0.01)
    assert left == [], [describe(p) for p in left]
    if mode == "gvisor":  # its sandbox, whose processes the host does not name after it
        assert processes_running(Path(f"judge-{os.getpid()}-")) == []
        assert not list(state_dir().glob(f"*judge-{os.getpid()}-*"))
