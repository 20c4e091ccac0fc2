"""What the gvisor tier closes that the shared kernel leaves open: each bot below reads
what the machine's kernel keeps machine-wide, and in a gVisor sandbox of its own (a kernel
of its own) it learns nothing of the machine or of another bot playing at once.

Skipped with the reason where the tier is not had (runsc not installed or not working);
there the tier asked for is refused with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pexpect
import pytest
from test_context import ECHO, says_back_and_runs_on, started_in_a_thread

from judge.sandbox import Limits
from judge.sandbox.build import program_for
from judge.sandbox.context import sandbox_context
from judge.sandbox.gvisor import descendants
from judge.sandbox.process import Confined
from judge.sandbox.tiers import runsc_refusal, state_dir

#: slow: a gVisor sandbox per game (`-m slow` runs them)
pytestmark = pytest.mark.slow

#: the tests of a bot in the tier
in_the_tier = pytest.mark.skipif(runsc_refusal() is not None, reason=str(runsc_refusal()))
ROOT = Path(__file__).parent.parent

#: the tier these tests are about (`JUDGE_TEST_CHANNEL_MODE` runs them in another, to see
#: each channel open there)
MODE = os.environ.get("JUDGE_TEST_CHANNEL_MODE", "gvisor")
LIMITS = Limits(first_move_seconds=30, move_seconds=30, memory_bytes=256 << 20)
#: seconds a bot of these tests may take to say what it saw (Python in a sandbox, loaded)
WAIT = 60

#: makes as many eventfds as its input says, says so, and holds them until its input ends
EVENTFDS = """
import os, sys
held = [os.eventfd(0) for _ in range(int(sys.stdin.readline()))]
print("ready", flush=True)
sys.stdin.read()
"""
#: prints the id of an eventfd of its own, as /proc/self/fdinfo shows it
EVENTFD_ID = """
import os
fd = os.eventfd(0)
info = open(f"/proc/self/fdinfo/{fd}").read().split()
print(info[info.index("eventfd-id:") + 1] if "eventfd-id:" in info else "no id", flush=True)
"""
#: the routing netlink's neighbour tables (RTM_GETNEIGHTBL), with their statistics: how
#: many it is given, or how the kernel refused
NEIGHBOUR_TABLES = """
import socket, struct
try:
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.bind((0, 0))
    s.send(struct.pack("=IHHII", 20, 66, 0x301, 1, 0) + bytes(4))  # dump RTM_GETNEIGHTBL
    tables, done = 0, False
    while not done:
        data, at = s.recv(1 << 16), 0
        while at < len(data):
            length, kind = struct.unpack_from("=IH", data, at)
            if kind in (2, 3):  # NLMSG_ERROR, NLMSG_DONE
                done = True
                break
            tables += kind == 64  # RTM_NEWNEIGHTBL
            at += (length + 3) & ~3
    print(f"{tables} tables", flush=True)
except OSError as exc:
    print(f"refused: {exc.errno}", flush=True)
"""
#: names itself as its input says, says so, and waits until its input ends
NAMED = """
import ctypes, sys
ctypes.CDLL(None).prctl(15, sys.stdin.readline().strip().encode(), 0, 0, 0)  # PR_SET_NAME
print("ready", flush=True)
sys.stdin.read()
"""
#: the names of every process it can see
NAMES = """
import glob
names = []
for path in glob.glob("/proc/[0-9]*/comm"):
    try:
        names.append(open(path).read().strip())
    except OSError:
        pass
print(" ".join(sorted(names)), flush=True)
"""
#: maps the C library's file, touches its first page, and counts the other pages of the
#: first 64 that /proc/self/pagemap says are present: the kernel maps around a fault only
#: the pages already in the page cache, so they tell what others have read
PAGEMAP = """
import ctypes, mmap, struct
libc = next(line.split()[-1] for line in open("/proc/self/maps") if "/libc.so" in line)
with open(libc, "rb") as fh:
    m = mmap.mmap(fh.fileno(), 64 * mmap.PAGESIZE, flags=mmap.MAP_PRIVATE,
                  prot=mmap.PROT_READ | mmap.PROT_WRITE)
m[0]
start = ctypes.addressof(ctypes.c_char.from_buffer(m)) // mmap.PAGESIZE
try:
    with open("/proc/self/pagemap", "rb") as pm:
        pm.seek(start * 8)
        entries = struct.unpack("=64Q", pm.read(64 * 8))
    print(f"{sum(e >> 63 for e in entries[1:])} present", flush=True)
except OSError as exc:
    print(f"no pagemap: {exc.errno}", flush=True)
"""


@pytest.fixture(scope="module")
def folder() -> Path:
    path = Path(tempfile.mkdtemp(prefix="judge-test-gvisor-"))
    os.chmod(path, 0o755)
    return path


def start(folder: Path, name: str, source: str) -> Confined:
    """Start the bot `source` (a Python script named `name`) in the tier under test."""
    bot = folder / f"{name}.py"
    bot.write_text(source)
    os.chmod(bot, 0o644)
    return Confined(program_for(bot), LIMITS, MODE)


def said(bot: Confined) -> str:
    """What the bot printed until its output ended; then it is killed."""
    try:
        bot.output.expect(pexpect.EOF, timeout=WAIT)
        return (bot.output.before or b"").decode().strip()
    finally:
        bot.kill()


def alongside(folder: Path, holder: str, given: str, reader: str) -> str:
    """What the bot `reader` prints while the bot `holder`, given `given`, holds what it
    made: the two play at once."""
    held = start(folder, "holder", holder)
    try:
        held.send(given.encode() + b"\n", 5)
        held.output.expect(b"ready", timeout=WAIT)
        return said(start(folder, "reader", reader))
    finally:
        held.kill()


def teardown_module() -> None:
    sandbox_context().close()
    # every sandbox deleted: runsc keeps nothing of them
    if MODE == "gvisor" and runsc_refusal() is None:
        # (of this judge's: another judge on the machine may be playing)
        assert list(state_dir().glob(f"*judge-{os.getpid()}-*")) == []


def test_refused_with_the_reason_where_runsc_is_not_installed(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "judge", "run", "--sandbox", "gvisor", "--game", "nim",
         "--db", str(tmp_path / "r.db"), str(ROOT / "bots" / "nim" / "random.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 2, done.stderr
    assert "runsc (gVisor) is not installed (apt-get install runsc)" in done.stderr


@in_the_tier
def test_eventfd_ids_do_not_depend_on_another_bot(folder: Path) -> None:
    # on the machine's kernel eventfd ids come from one allocator: a bot reads in the id
    # of its own eventfd how many another bot holds (a channel between them)
    without = alongside(folder, EVENTFDS, "0", EVENTFD_ID)
    with_many = alongside(folder, EVENTFDS, "32", EVENTFD_ID)
    assert without == with_many, (without, with_many)


@in_the_tier
def test_no_neighbour_table_statistics(folder: Path) -> None:
    # the neighbour tables' statistics (lookups, allocations) are the machine's, moved by
    # every network namespace
    seen = said(start(folder, "neighbours", NEIGHBOUR_TABLES))
    assert seen.startswith(("0 tables", "refused")), seen


@in_the_tier
def test_another_bots_process_name_is_not_seen(folder: Path) -> None:
    seen = alongside(folder, NAMED, "judge-tok3n", NAMES)
    assert "judge-tok3n" not in seen.split(), seen


@in_the_tier
def test_page_cache_residency_does_not_show_in_pagemap(folder: Path) -> None:
    # the C library, which every program reads, is in the page cache
    seen = said(start(folder, "pagemap", PAGEMAP))
    assert seen.startswith(("0 present", "no pagemap")), seen


#: fills its work dir, then /dev/shm, a MiB at a time, and says where each stopped
FILLS = """
import os
for where in ("/tmp/big", "/dev/shm/big"):
    written = 0
    try:
        with open(where, "wb") as fh:
            for _ in range(64):
                fh.write(bytes(1 << 20))
                fh.flush()
                written += 1
    except OSError:
        pass
    print(where, written, flush=True)
    os.unlink(where)
"""


@in_the_tier
def test_its_work_dir_and_shared_memory_are_capped_by_the_disk_limit(folder: Path) -> None:
    bot = folder / "fills.py"
    bot.write_text(FILLS)
    os.chmod(bot, 0o644)
    limits = Limits(first_move_seconds=30, disk_bytes=8 << 20, file_bytes=128 << 20)
    seen = said(Confined(program_for(bot), limits, MODE)).splitlines()
    assert seen == ["/tmp/big 8", "/dev/shm/big 8"], seen


#: opens and reads the first byte of host files (the system's, which the sandbox's file
#: server, its gofer, opens for it) for 3 s of its clock, then says so and waits
OPENS_HOST_FILES = """
import glob, sys, time
names = glob.glob("/usr/lib/python3*/*.py")[:200]
started = time.monotonic()
while time.monotonic() - started < 3:
    for name in names:
        try:
            with open(name, "rb") as fh:
                fh.read(1)
        except OSError:
            pass
print("done", flush=True)
sys.stdin.read()
"""


def cpu_of(pid: int) -> float:
    """CPU seconds process `pid` and its reaped children have used (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(MODE != "gvisor", reason="the sandbox's host processes are gvisor's")
@in_the_tier
def test_the_cpu_of_every_host_process_of_its_sandbox_counts(folder: Path) -> None:
    # the sandbox's file server (the gofer, beside its kernel) works for the bot too: each
    # host file it opens is the gofer's work, which is the bot's CPU as much as its kernel's
    bot = start(folder, "opens", OPENS_HOST_FILES)
    try:
        bot.send(b"\n", 5)
        bot.output.expect(b"done", timeout=WAIT)
        # (clock ticks as seconds, summed in another order: equal up to rounding)
        spent = round(sum(cpu_of(pid) for pid in descendants(bot.meter._runsc)), 6)
        assert round(bot.cpu_seconds(), 6) >= spent, (bot.cpu_seconds(), spent)
    finally:
        bot.kill()


#: makes 100,000 empty folders in its tmpfs, says so, and waits until its input ends: no
#: byte of data, but the sandbox's kernel keeps each folder in its own heap (some 0.85 KiB)
FOLDERS = """
import os, sys
for i in range(100000):
    os.mkdir(f"/tmp/d{i}")
print("made", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(MODE != "gvisor", reason="the sandbox's host processes are gvisor's")
@in_the_tier
def test_what_its_kernel_keeps_for_the_bot_counts_as_its_memory(folder: Path) -> None:
    # the sandbox's kernel keeps a tmpfs's files and folders in its own heap, not in the
    # memory file (this runsc ignores nr_inodes): 300,000 empty folders held 413 MiB of it
    # under a 256 MiB limit, ok, when only the memory file and the stubs were counted
    bot = folder / "folders.py"
    bot.write_text(FOLDERS)
    os.chmod(bot, 0o644)
    played = Confined(program_for(bot), Limits(first_move_seconds=60, memory_bytes=64 << 20),
                      MODE)
    try:
        played.send(b"\n", 5)
        played.output.expect(b"made", timeout=WAIT)
        played.cpu_seconds()  # (the judge's look at its sums)
        assert played.meter.memory_peak() > 64 << 20, played.meter.memory_peak()
        assert played.meter.killed_for_memory()
    finally:
        played.kill()


@in_the_tier
def test_a_bot_outlives_the_thread_that_started_it(folder: Path) -> None:
    # runsc dies with its parent (PR_SET_PDEATHSIG), which the kernel takes to be the
    # thread that forked it: a server's worker thread that ends when idle killed the bot
    # of a game it started, which then lost as a crash at its next move
    says_back_and_runs_on(started_in_a_thread(lambda: start(folder, "echo", ECHO)))
