"""Nothing one bot does reaches another: each game starts from fresh state.

Most tests here pit a WRITER bot, which leaves a value (its ``BOT_SEED``) in some state of
the machine a bot can change, against a READER bot, another bot file that only reports what
it finds there. A process takes turns with `SLOTS_PER_PROCESS` slots, so the reader plays
once in each after every writer's game, the writer's slot included; what the readers find
after a writer that wrote nothing, after one that wrote a value and after one that wrote
another must be the same. The other tests state what a bot cannot do to what other
programs see at the same time: evict or probe the page cache, hold a lock others see,
or start with the judge's signal dispositions.

As root every bot file here is private to the judge's user (mode 0600), as contestants'
files are: the bots then run from the judge's copies of them, as any two contestants do.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from test_confinement import BOT, BOTS, GAME, LIMITS, MODES, PLAYS, said, seen_line
from test_hostile import FirstPit

from judge import verdicts
from judge.games.ioiwari import Board
from judge.players.base import Played
from judge.players.bot import BotPlayer
from judge.referee import GameRecord, play_game
from judge.sandbox import Limits, tier_for
from judge.sandbox.commandline import PENDING_SIGNALS
from judge.sandbox.context import SLOTS_PER_PROCESS, sandbox_context
from judge.sandbox.exec_helper import helper_path

ROOT = Path(__file__).resolve().parent.parent
AS_ROOT = os.geteuid() == 0
#: the writers' values: none written, then two others
VALUES = (0, 3, 7)
#: what each bot here has on top of the template's imports
PRELUDE = """
import ctypes, errno, json
libc = ctypes.CDLL(None, use_errno=True)

def tell(key, value):
    report(key + " " + json.dumps(value), True)

VALUE = int(os.environ.get("BOT_SEED") or 0)
"""


def contestant(folder: Path, attack: str, name: str = "bot.py") -> Path:
    """A bot that runs `attack` (see `PRELUDE`) before it plays; as root, private to the
    judge's user."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(BOT.replace("{attack}", PRELUDE + attack).replace("{plays}", PLAYS))
    if AS_ROOT:
        path.chmod(0o600)
    return path


def game(bot: Path, mode: str, seed: int | None = None, limits: Limits = LIMITS) -> GameRecord:
    """One game of `bot` (with BOT_SEED `seed`) as the first player, played to its end."""
    player = BotPlayer(bot, limits, mode, seed=seed)
    record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    assert record.verdict.code == verdicts.OK, (record.verdict, said(record))
    return record


def findings(mode: str, writer: Path, reader: Path, key: str
             ) -> tuple[dict[int, list[str]], dict[int, GameRecord]]:
    """For each of `VALUES`: the writer's game with that value, then 2 x slots - 1 games of
    the reader (so that one plays in the writer's slot, and a round is a whole number of
    turns: every writer plays in the same slot), with what each reader reported under
    `key`; and the writers' records."""
    found: dict[int, list[str]] = {}
    written: dict[int, GameRecord] = {}
    try:
        for value in VALUES:
            written[value] = game(writer, mode, seed=value)
            found[value] = [seen_line(game(reader, mode), key)
                            for _ in range(2 * SLOTS_PER_PROCESS - 1)]
    finally:
        sandbox_context().close()
    return found, written


def assert_blind(found: dict[int, list[str]]) -> None:
    """What the readers found is the same whatever the writer wrote (or did not)."""
    nothing, *values = VALUES
    for value in values:
        assert found[value] == found[nothing], (value, found)


def needs_helper(mode: str) -> None:
    if helper_path() is None:
        pytest.skip("the system-call filter is the exec helper's (no C compiler here)")


# --- 1. the loopback's byte counters -----------------------------------------------------------

LO_WRITER = """
import socket
def send():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _ in range(VALUE):
            sock.sendto(b"x" * 1000, ("127.0.0.1", 9))
attempt("send", send)
"""

LO_READER = """
import socket, struct
def loopback():  # (asked of the routing netlink: its /proc/self/net is not to be read)
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as nl:
        nl.send(struct.pack("=IHHIIBBHiII", 32, 18, 0x301, 1, 0, 0, 0, 0, 0, 0, 0))
        while True:  # (RTM_GETLINK, a dump: every link, then NLMSG_DONE)
            data = nl.recv(1 << 16)
            at = 0
            while at < len(data):
                size, kind = struct.unpack_from("=IH", data, at)
                if kind == 3:
                    return None
                attrs, name, stats = at + 32, None, None
                while attrs < at + size:
                    length, what = struct.unpack_from("=HH", data, attrs)
                    if what == 3:  # IFLA_IFNAME
                        name = data[attrs + 4:attrs + length].rstrip(b"\\0")
                    elif what == 23:  # IFLA_STATS64: rx_packets, tx_packets, rx_bytes, tx_bytes
                        stats = struct.unpack_from("=4Q", data, attrs + 4)
                    attrs += (length + 3) & ~3
                if name == b"lo" and stats:
                    return [stats[2], stats[3]]
                at += (size + 3) & ~3
def loopback_from_proc():  # (where the routing netlink is refused)
    with open("/proc/self/net/dev") as links:
        for line in links:
            name, _, figures = line.partition(":")
            if name.strip() == "lo":
                return [int(figures.split()[0]), int(figures.split()[8])]
def read():
    for way in (loopback, loopback_from_proc):
        try:
            return way()
        except OSError:
            pass
    return None  # (neither: no bot reads the counters)
tell("LO", read())  # bytes received, sent
"""


@pytest.mark.parametrize("mode", MODES)
def test_loopback_byte_counters_do_not_carry_a_value_to_the_next_bot(
        mode: str, tmp_path: Path) -> None:
    if mode == "none" and not AS_ROOT:
        pytest.skip("no network namespace without root or bubblewrap")
    writer = contestant(tmp_path / "writer", LO_WRITER)
    reader = contestant(tmp_path / "reader", LO_READER)
    found, _ = findings(mode, writer, reader, "LO")
    if tier_for(mode).holds()["proc"]:
        # no routing netlink and no /proc/self/net: no bot reads the counters at all
        assert all(seen == "null" for seens in found.values() for seen in seens), found
        return
    assert "null" not in found[0], found  # (the counters were read)
    assert_blind(found)


# --- 2. the times of the devices -------------------------------------------------------------

DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom")

DEV_WRITER = f"""
if VALUE:
    for path in {DEVICES!r}:
        attempt("touch " + path, lambda: os.utime(path))
        when = VALUE * 1_000_000_000 + 123_456_789
        attempt("set the times of " + path, lambda: os.utime(path, ns=(when, when)))
"""

DEV_READER = f"""
def times(path):
    st = os.stat(path)
    return [st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns]
tell("DEV", {{path: times(path) for path in {DEVICES!r}}})
"""


def device_times() -> dict[str, tuple[int, int, int]]:
    return {p: (st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns)
            for p in DEVICES for st in [os.stat(p)]}


@pytest.mark.parametrize("mode", MODES)
def test_device_times_do_not_carry_a_value_to_the_next_bot(mode: str, tmp_path: Path) -> None:
    needs_helper(mode)
    writer = contestant(tmp_path / "writer", DEV_WRITER)
    reader = contestant(tmp_path / "reader", DEV_READER)
    found, written = findings(mode, writer, reader, "DEV")
    assert "touch /dev/null" in said(written[VALUES[1]])  # (it tried)
    assert_blind(found)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_cannot_change_the_times_of_the_hosts_devices(mode: str, tmp_path: Path) -> None:
    needs_helper(mode)
    # (in the none tier /dev is the host's; an ordinary user's bwrap binds the host's nodes)
    before = device_times()
    record = game(contestant(tmp_path, DEV_WRITER), mode, seed=5)
    assert device_times() == before, said(record)


# --- 3. the tmpfs of its work dir, /tmp and /dev/shm --------------------------------------------

PLACES = (".", "/tmp", "/dev/shm")

TMPFS_WRITER = f"""
for place in {PLACES!r}:
    def unnamed(place=place):
        for _ in range(VALUE):
            os.close(os.open(place, os.O_TMPFILE | os.O_WRONLY, 0o600))
    attempt("unnamed files in " + place, unnamed)
"""

#: a tmpfs's mount id that is never given to another mount (statx, Linux 6.8 and later),
#: or None
MOUNT_ID = """
def mount_id(path):
    buf = ctypes.create_string_buffer(256)
    # statx(AT_FDCWD, path, 0, STATX_MNT_ID_UNIQUE, buf)
    if libc.syscall(332, -100, path.encode(), 0, 0x4000, buf) != 0:
        return None
    if not int.from_bytes(buf.raw[0:4], "little") & 0x4000:
        return None
    return int.from_bytes(buf.raw[144:152], "little")
tell("MOUNTS", {place: mount_id(place) for place in PLACES})
""".replace("PLACES", repr(PLACES))

TMPFS_READER = f"""
seen = {{}}
for place in {PLACES!r}:
    path = os.path.join(place, "mine")
    with open(path, "w") as fh:
        st, fs = os.fstat(fh.fileno()), os.statvfs(place)
    os.remove(path)
    seen[place] = [st.st_ino, fs.f_files - fs.f_ffree]
tell("INODES", seen)
"""


def needs_private_tmpfs(mode: str) -> None:
    if mode == "none" and not AS_ROOT:
        pytest.skip("no private tmpfs without root or bubblewrap")


@pytest.mark.parametrize("mode", MODES)
def test_inode_numbers_of_the_tmpfs_do_not_carry_a_value_to_the_next_bot(
        mode: str, tmp_path: Path) -> None:
    needs_private_tmpfs(mode)
    writer = contestant(tmp_path / "writer", TMPFS_WRITER)
    reader = contestant(tmp_path / "reader", TMPFS_READER)
    found, _ = findings(mode, writer, reader, "INODES")
    assert_blind(found)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_never_enters_a_tmpfs_another_bot_used(mode: str, tmp_path: Path) -> None:
    needs_private_tmpfs(mode)
    writer = contestant(tmp_path / "writer", MOUNT_ID + TMPFS_WRITER)
    reader = contestant(tmp_path / "reader", MOUNT_ID)
    found, written = findings(mode, writer, reader, "MOUNTS")
    used = {i for r in written.values() for i in json.loads(seen_line(r, "MOUNTS")).values()}
    if None in used:
        pytest.skip("the kernel gives no unique mount ids (statx, Linux 6.8)")
    entered = {i for seen in found.values() for line in seen for i in json.loads(line).values()}
    assert used & entered == set(), found


# --- 4. System V IPC ids ------------------------------------------------------------------------

IPC = """
IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
libc.msgctl.argtypes = libc.shmctl.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]

def checked(result, what):
    if result < 0:
        raise OSError(ctypes.get_errno(), what)
    return result

def made():
    return [checked(libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600), "msgget"),
            checked(libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600), "semget"),
            checked(libc.shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600), "shmget")]

def removed(ids):
    queue, sems, shm = ids
    checked(libc.msgctl(queue, IPC_RMID, None), "msgctl")
    checked(libc.semctl(sems, 0, IPC_RMID), "semctl")
    checked(libc.shmctl(shm, IPC_RMID, None), "shmctl")
"""

IPC_WRITER = IPC + """
def write():
    for _ in range(VALUE):
        removed(made())
attempt("queues, semaphores and segments made and removed", write)
"""

IPC_READER = IPC + """
try:
    ids = made()
    removed(ids)
except OSError as exc:  # (refused: then so for every reader)
    ids = str(exc)
tell("IPC", ids)
"""


@pytest.mark.parametrize("mode", MODES)
def test_system_v_ipc_ids_do_not_carry_a_value_to_the_next_bot(
        mode: str, tmp_path: Path) -> None:
    if mode == "none" and not AS_ROOT:
        pytest.skip("no IPC namespace without root or bubblewrap")
    writer = contestant(tmp_path / "writer", IPC_WRITER)
    reader = contestant(tmp_path / "reader", IPC_READER)
    found, _ = findings(mode, writer, reader, "IPC")
    assert_blind(found)


# --- 5. the page cache: no eviction, no probing --------------------------------------------------

CHECKED = """
import mmap
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
libc.syscall.restype = ctypes.c_long

def checked(result, what):
    if result == -1 or result == ctypes.c_void_p(-1).value:
        raise OSError(ctypes.get_errno(), what)
    return result
"""

#: the ways to learn which pages of a file are in the page cache, each tried on a system
#: file and on the bot's interpreter, each to be refused (mincore already answers truly only
#: of files the caller may write; RWF_NOWAIT and cachestat answer of any it may read)
PROBING = CHECKED + f"""
for path in ("/usr/bin/env", {os.path.realpath(sys.executable)!r}):
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    def nowait():
        try:
            os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)
        except BlockingIOError:
            pass  # (not in the cache: an answer all the same)
    attempt(f"nowait read {{path}}", nowait)
    def residency():
        address = checked(libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0), "mmap")
        vec = ctypes.create_string_buffer((size + 4095) // 4096)
        checked(libc.mincore(address, size, vec), "mincore")
    attempt(f"mincore {{path}}", residency)
    def cachestat():
        span = (ctypes.c_uint64 * 2)(0, 0)  # (offset, length): the whole file
        stat = (ctypes.c_uint64 * 5)()
        checked(libc.syscall(451, fd, span, stat, 0), "cachestat")
    attempt(f"cachestat {{path}}", cachestat)
"""

PROBES = ("nowait read", "mincore", "cachestat")


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_cannot_tell_which_pages_of_a_file_are_in_the_page_cache(
        mode: str, tmp_path: Path) -> None:
    # (timing a read stays a channel: see the README)
    needs_helper(mode)
    record = game(contestant(tmp_path, PROBING), mode)
    text = said(record)
    for probe in PROBES:
        for path in ("/usr/bin/env", os.path.realpath(sys.executable)):
            assert f"NOT {probe} {path}" in text, text
    assert "GOT" not in text, text


#: a system file that no process maps: nothing but the bot keeps its pages in the cache
EVICTED = "/usr/bin/env"

EVICTING = {
    "fadvise": f"""
fd = os.open({EVICTED!r}, os.O_RDONLY)
attempt("fadvise", lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED))
""",
    # (the kernel pages out only files the caller may write, which a system file is not)
    "madvise": f"""
import mmap
with open({EVICTED!r}, "rb") as fh, mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ) as mapped:
    for at in range(0, len(mapped), 4096):
        mapped[at]  # (mapped in: what MADV_PAGEOUT reclaims)
    attempt("MADV_COLD", lambda: mapped.madvise(20))
    attempt("MADV_PAGEOUT", lambda: mapped.madvise(21))
""",
}


def all_cached(path: str) -> bool:
    """Whether every page of `path` is in the page cache: a read that may not wait for the
    disk (RWF_NOWAIT) reads it whole (mincore tells a process the truth only of files it
    may write)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        try:
            return os.preadv(fd, [bytearray(size)], 0, os.RWF_NOWAIT) == size
        except BlockingIOError:
            return False
    finally:
        os.close(fd)


def evict(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def load(path: str) -> None:
    with open(path, "rb") as fh:
        fh.read()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("how", EVICTING)
def test_a_bot_cannot_evict_a_shared_file_from_the_page_cache(
        mode: str, how: str, tmp_path: Path) -> None:
    # (what MADV_COLD does, pages moved to the inactive list, cannot be seen from here)
    needs_helper(mode)
    evict(EVICTED)  # (this process may)
    try:
        cached = all_cached(EVICTED)
    except OSError as exc:  # (EOPNOTSUPP: a filesystem without such reads, as overlayfs)
        pytest.skip(f"what of {EVICTED} is in the page cache cannot be seen here: {exc}")
    if cached:
        pytest.skip(f"the pages of {EVICTED} cannot be evicted here (in use)")
    load(EVICTED)
    assert all_cached(EVICTED)
    record = game(contestant(tmp_path, EVICTING[how]), mode)
    assert all_cached(EVICTED), said(record)


# --- 6. locks on files others share -------------------------------------------------------------

LOCKED = ("/usr/bin/env", os.path.realpath(sys.executable))
#: how long the bot holds its locks (s), before its first move
HOLD_SECONDS = 1.2

LOCKER = f"""
import fcntl, struct
held = []
def flock_record(kind):
    return struct.pack("@hhqqi4x", kind, os.SEEK_SET, 0, 0, 0)
for path in {LOCKED!r}:
    def exclusive():
        fd = os.open(path, os.O_RDONLY)
        held.append(fd)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    attempt("flock " + path, exclusive)
    def shared():
        fd = os.open(path, os.O_RDONLY)
        held.append(fd)
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    attempt("lockf " + path, shared)
    def open_file():
        fd = os.open(path, os.O_RDONLY)
        held.append(fd)
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK, flock_record(fcntl.F_RDLCK))
    attempt("OFD lock " + path, open_file)
tell("HOLDING", time.time())
time.sleep({HOLD_SECONDS})
tell("RELEASING", time.time())
"""


def locks_seen(path: str) -> list[str]:
    """The locks of other processes that this process sees on `path`: a whole-file flock,
    or a POSIX or open-file lock that would keep it from writing."""
    seen = []
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            seen.append("flock")
        for command, name in ((fcntl.F_GETLK, "POSIX"), (fcntl.F_OFD_GETLK, "OFD")):
            probe = struct.pack("@hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
            kind = struct.unpack("@hhqqi4x", fcntl.fcntl(fd, command, probe))[0]
            if kind != fcntl.F_UNLCK:
                seen.append(name)
    finally:
        os.close(fd)
    return seen


@pytest.mark.parametrize("mode", MODES)
def test_no_lock_a_bot_takes_on_a_shared_file_is_seen_by_another_process(
        mode: str, tmp_path: Path) -> None:
    needs_helper(mode)
    assert all(locks_seen(path) == [] for path in LOCKED)  # (none before)
    bot = contestant(tmp_path, LOCKER)
    played: list[GameRecord] = []
    thread = threading.Thread(target=lambda: played.append(game(bot, mode)))
    probes: list[tuple[float, dict[str, list[str]]]] = []
    thread.start()
    try:
        while thread.is_alive():
            probes.append((time.time(), {path: locks_seen(path) for path in LOCKED}))
            time.sleep(0.01)
    finally:
        thread.join()
        sandbox_context().close()
    assert played, "the game failed (see above)"
    record = played[0]
    held = float(seen_line(record, "HOLDING")), float(seen_line(record, "RELEASING"))
    during = [seen for at, seen in probes if held[0] < at < held[1]]
    assert len(during) >= 10, (held, len(probes))  # (looked at while it held them)
    assert all(not locks for seen in during for locks in seen.values()), \
        ([seen for seen in during if any(seen.values())][:3], said(record))


# --- 7. signals: the bot's own, whatever the judge's ---------------------------------------

SIGNALS_C = r"""
#include <signal.h>
#include <stdio.h>
#include <string.h>
"""

#: its dispositions and mask as /proc/self/status shows them (which it may not read)
SIGNALS_REPORT = r"""
    unsigned long long ign = 0, blk = 0, cgt = 0;
    sigset_t blocked;
    sigprocmask(SIG_BLOCK, NULL, &blocked);
    for (int sig = 1; sig < 65; sig++) {
        struct sigaction sa;
        if (sigismember(&blocked, sig) == 1) blk |= 1ULL << (sig - 1);
        if (sigaction(sig, NULL, &sa)) continue;
        if (sa.sa_handler == SIG_IGN) ign |= 1ULL << (sig - 1);
        else if (sa.sa_handler != SIG_DFL) cgt |= 1ULL << (sig - 1);
    }
    fprintf(stderr, "GOT SigIgn:%016llx\nGOT SigBlk:%016llx\nGOT SigCgt:%016llx\n", ign, blk,
            cgt);
    fflush(stderr);
"""

#: a judge started as `nohup judge ... &` would be (SIGHUP, SIGINT and SIGQUIT ignored),
#: with signals blocked besides, that plays one game of the bot argv[1] in mode argv[2]
SIGNALED_JUDGE = """
import json, signal, sys
for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT):
    signal.signal(sig, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM})
from judge.games.ioiwari import Ioiwari
from judge.players.base import Player
from judge.players.bot import BotPlayer
from judge.referee import play_game
from judge.sandbox import Limits, tier_for

class FirstPit(Player):
    name = "first-pit"
    def choose(self, pos, last):
        return self.game.legal_moves(pos)[0]

game = Ioiwari()
limits = Limits(move_seconds=1.0, first_move_seconds=10.0)
record = play_game(game, [BotPlayer(sys.argv[1], limits, sys.argv[2]), FirstPit()],
                   game.start(), limits)

def masks(path):
    with open(path) as fh:
        return {k: int(v, 16) for k, v in (line.split(":") for line in fh
                                           if line.startswith(("SigIgn:", "SigBlk:")))}
own = {"SigIgn": masks("/proc/self/status")["SigIgn"],
       "SigBlk": masks("/proc/thread-self/status")["SigBlk"]}
print(json.dumps({"verdict": record.verdict.code, "message": record.verdict.message,
                  "stderr": record.stderr[0], "judge": own}))
"""


def signals_bot(folder: Path) -> Path:
    """The C first-pit bot that first reports its signal dispositions and mask."""
    source = (BOTS / "first_pit.c").read_text()
    main = "int main(void) {\n"
    assert main in source
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "signals.c"
    path.write_text(SIGNALS_C + source.replace(main, main + SIGNALS_REPORT))
    return path


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_starts_with_default_signals_and_none_blocked_whatever_the_judges(
        mode: str, tmp_path: Path) -> None:
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler for the bot")
    bot = signals_bot(tmp_path / "bot")
    tmp_path.chmod(0o755)
    out = subprocess.run(
        [sys.executable, "-c", SIGNALED_JUDGE, str(bot), mode], capture_output=True, text=True,
        timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    played = json.loads(out.stdout.splitlines()[-1])
    assert played["verdict"] == verdicts.OK, played
    assert played["judge"]["SigIgn"] and played["judge"]["SigBlk"]  # (the judge's own)
    masks = dict(line[len("GOT "):].split(":") for line in played["stderr"].splitlines()
                 if line.startswith("GOT Sig"))
    assert {name: int(value, 16) for name, value in masks.items()} == \
        {"SigIgn": 0, "SigBlk": 0, "SigCgt": 0}, masks



#: real-time signals queued to the bot's own thread (blocked, so that they stay pending) until
#: the kernel refuses one: how many, and why it stopped
QUEUED = """
import threading
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGRTMIN})
queued, why = 0, 0
while queued < 200000:
    try:  # (tgkill: where kill would drop what comes with the signal, it is refused)
        signal.pthread_kill(threading.get_ident(), signal.SIGRTMIN)
    except OSError as exc:
        why = exc.errno
        break
    queued += 1
tell("QUEUED", [queued, why])
"""


class Queuer(FirstPit):
    """The first-pit player that, as it plays while the bot holds its pending signals,
    queues a real-time signal to its own thread (blocked there, and taken back)."""

    #: whether that signal was queued (and taken back), or the error that refused it
    queued: bool | int | None = None

    def choose(self, pos: Board, last: Played | None) -> int:
        if self.queued is None:
            sig = signal.SIGRTMIN + 1
            signal.pthread_sigmask(signal.SIG_BLOCK, {sig})
            try:
                signal.pthread_kill(threading.get_ident(), sig)
                self.queued = signal.sigtimedwait({sig}, 0) is not None
            except OSError as exc:
                self.queued = exc.errno
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        return super().choose(pos, last)


@pytest.mark.parametrize("mode", MODES)
def test_signals_a_bot_holds_queued_leave_the_judges_and_other_bots_theirs(
        mode: str, tmp_path: Path) -> None:
    # the kernel counts pending signals per uid (and, under an ordinary user's bubblewrap,
    # in each game's user namespace and the judge's uid both): a bot holds at most a few,
    # never the uid's whole count, and the judge's side of its game queues one meanwhile
    player, opponent = BotPlayer(contestant(tmp_path, QUEUED), LIMITS, mode), Queuer()
    try:
        record = play_game(GAME, [player, opponent], GAME.start(), LIMITS)
    finally:
        sandbox_context().close()
    assert record.verdict.code == verdicts.OK, (record.verdict, said(record))
    queued, why = json.loads(seen_line(record, "QUEUED"))
    assert queued <= PENDING_SIGNALS and why == errno.EAGAIN, (queued, why)
    assert opponent.queued is True


# --- machine-wide counters out of view ------------------------------------------------------

#: a bot that reads every machine-wide file of its /proc (not its processes' own, nor its
#: network and IPC namespaces'), moves every machine-wide counter it can (open files and
#: pipes, inodes, negative dentries, threads, memory in its tmpfs, forks), reads them
#: again, and tells which changed: each would be a channel to a bot playing at the same time
PROC_MOVER = """
NAMED = ["/proc/meminfo", "/proc/vmstat", "/proc/stat", "/proc/sys/fs/file-nr",
         "/proc/sys/fs/aio-nr"]
OWN = {"self", "thread-self", "net", "sysvipc", "mounts", "kmsg", "kcore", "kpagecount",
       "kpageflags", "kpagecgroup", "sysrq-trigger"}
def machine_files():
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:  # (a /proc it may not list: the names this machine's has)
        names = MACHINE_NAMES
    for path in NAMED:
        try:
            with open(path, "rb") as fh:
                out[path] = fh.read(1 << 20)
        except OSError:
            pass
    for name in names:
        path = "/proc/" + name
        if name.isdigit() or name in OWN or os.path.islink(path):
            continue
        for root, dirs, files in os.walk(path) if os.path.isdir(path) else [("/proc", [], [name])]:
            for file in files:
                try:
                    with open(os.path.join(root, file), "rb") as fh:
                        out[os.path.join(root, file)] = fh.read(1 << 20)
                except OSError:
                    pass
    return out
import threading
class Sysinfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                ("totalram", ctypes.c_ulong), ("freeram", ctypes.c_ulong),
                ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong),
                ("procs", ctypes.c_ushort), ("pad", ctypes.c_ushort),
                ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("rest", ctypes.c_char * 8)]
def machine():
    info = Sysinfo()
    if libc.sysinfo(ctypes.byref(info)):
        raise OSError(ctypes.get_errno(), "sysinfo")
    return [list(info.loads), info.freeram, info.sharedram, info.bufferram, info.procs]
told_before = machine()
before = machine_files()
held = [os.open(sys.executable, os.O_RDONLY) for _ in range(20)] + [
    fd for _ in range(10) for fd in os.pipe()]
import socket
sockets = []
for _ in range(20):  # (TCP sockets move the machine's count of them, if the bot has any)
    attempt("a TCP socket", lambda: sockets.append(socket.socket()))
tell("TCP", len(sockets))
for k in range(300):
    try:
        os.stat(f"/nothing-{k}")
    except OSError:
        pass
with open("ballast", "wb") as fh:
    fh.write(b"x" * (2 << 20))
threads = [threading.Thread(target=time.sleep, args=(0.3,)) for _ in range(2)]
for t in threads:
    t.start()
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
after = machine_files()
told_after = machine()
for t in threads:
    t.join()
tell("SYSINFO", [told_before, told_after])
tell("SHOWN", sorted(set(before) & set(NAMED)))
tell("CHANGED", sorted(path for path in before if after.get(path) != before[path]))
"""

#: what may change under a bot in every tier: the clock (uptime) and the cores' current
#: frequencies (cpuinfo), which no bot sets (see docs/sandbox.md's residual channels)
MOVING_ANYWAY = {"/proc/uptime", "/proc/cpuinfo"}


@pytest.mark.parametrize("mode", MODES)
def test_no_machine_wide_counter_a_bot_can_move_is_in_view(mode: str, tmp_path: Path) -> None:
    # under bubblewrap in every tier, and as root without it: /proc shows processes only
    # (as root), or the machine-wide files are masked (an ordinary user's bubblewrap); and
    # sysinfo, which the C library needs, tells figures that do not move
    # (or, in every tier, its Landlock domain opens no machine-wide file of /proc)
    from judge.sandbox.tiers import landlock_abi

    if mode == "none" and not AS_ROOT and landlock_abi() < 1:
        pytest.skip("without root, bubblewrap or Landlock the bot sees the machine's /proc")
    needs_helper(mode)
    names = f"MACHINE_NAMES = {sorted(os.listdir('/proc'))!r}\n"
    record = game(contestant(tmp_path / "mover", names + PROC_MOVER), mode,
                  limits=replace(LIMITS, first_move_seconds=20.0))
    found = {key: json.loads(seen_line(record, key)) for key in ("SHOWN", "CHANGED", "SYSINFO")}
    told_before, told_after = found["SYSINFO"]  # (what sysinfo tells: answered by the helper)
    # (its network namespace's /proc/self/net shows some of the machine's TCP and UDP
    # figures, which it cannot move: it may have no IP socket)
    assert json.loads(seen_line(record, "TCP")) == 0
    assert told_before == told_after, found["SYSINFO"]
    changed = set(found["CHANGED"]) - MOVING_ANYWAY
    assert not changed, f"counters in view that moved: {sorted(changed)}"
    assert found["SHOWN"] == [], found["SHOWN"]
