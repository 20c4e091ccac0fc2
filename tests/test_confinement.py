"""The confinement guarantees, each against a bot that attacks it.

Every bot here is written for its test: it tries its attack as it starts (within its first
move's time), reports on stderr what it could do (``GOT ...`` for a success), then plays
the first non-empty pit with `first_pit.play`.
A test plants what the bot must not reach, and checks the verdict, what the bot could not
do, that nothing of it is left, and that the next game in the same slot is unaffected.
Tests of a guarantee that a tier does not give are skipped where that tier is the one here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest
from test_hostile import FirstPit, assert_nothing_runs_on, dying

from judge import verdicts
from judge.games.ioiwari import Ioiwari
from judge.players.bot import BotPlayer
from judge.referee import GameRecord, play_game
from judge.sandbox import Limits, Tier, bwrap_path, tier_for
from judge.sandbox.cleanup import WORKDIR_PREFIX, remove_tree
from judge.sandbox.context import SLOTS_PER_PROCESS, sandbox_context

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).parent / "bots"
MODES = ["none", "bwrap"] if bwrap_path() else ["none"]
LIMITS = Limits(
    move_seconds=1.0,
    first_move_seconds=4.0,
    cpu_seconds=5,
    memory_bytes=256 << 20,
    processes=16,
    grace_seconds=0.2,
    stderr_bytes=8192,
    disk_bytes=16 << 20,
)
GAME = Ioiwari()
#: how long a test waits for a state that comes at once on an idle machine
PATIENCE = 60.0
_FIRST_PIT = (BOTS / "first_pit.py").read_text()
PLAYS = _FIRST_PIT[_FIRST_PIT.index("def sow") : _FIRST_PIT.index("if __name__")]

BOT = """
import os, signal, sys, time

def report(what, ok):
    print(("GOT " if ok else "NOT ") + what, file=sys.stderr, flush=True)

def attempt(what, action):
    try:
        action()
        report(what, True)
    except Exception as exc:
        report(f"{what} ({type(exc).__name__}: {exc})", False)

{attack}
{plays}
play()
"""


def write_bot(folder: Path, attack: str, name: str = "bot.py") -> Path:
    """A bot that runs `attack` (Python, may use `attempt` and `report`) before it plays."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(BOT.replace("{attack}", attack).replace("{plays}", PLAYS))
    return path


def play(bot: Path, mode: str, limits: Limits = LIMITS) -> GameRecord:
    """One game of `bot` as the first player; checks that nothing of it is left running."""
    player = BotPlayer(bot, limits, mode)
    record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
    assert_nothing_runs_on(player)
    slot = sandbox_context().last_slot
    if slot is not None and slot.cgroups is not None:
        assert slot.members() == [] and slot.process_count() == 0
    return record


def said(record: GameRecord) -> str:
    return record.stderr[0] or ""


def assert_next_game_is_clean(mode: str, tmp_path: Path) -> None:
    """A plain bot plays its whole game in each of the process's slots, the one the
    hostile bot played in included (a process takes turns with its slots)."""
    for _ in range(SLOTS_PER_PROCESS):
        record = play(write_bot(tmp_path / "next", "pass"), mode)
        assert record.verdict.code == verdicts.OK, record.verdict


def full_tier(mode: str) -> Tier:
    return tier_for(mode)


# --- 1. cleanup cannot be defeated ---------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_deep_tree_in_the_work_dir_costs_nothing(mode: str, tmp_path: Path) -> None:
    attack = """
def deep():
    for _ in range(1500):
        os.mkdir("d")
        os.chdir("d")
attempt("deep tree", deep)
os.chdir(os.environ["HOME"])
"""
    record = play(write_bot(tmp_path, attack), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT deep tree" in said(record)
    mine = list(Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}{os.getpid()}-*"))
    assert mine == []
    assert_next_game_is_clean(mode, tmp_path)


def make_deep(top: Path, depth: int) -> None:
    """`top`/d/d/... `depth` folders deep, made through descriptors (no path is that long)."""
    top.mkdir(parents=True, exist_ok=True)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = sub
    os.close(fd)


def test_remove_tree_survives_deep_unreadable_and_linked_trees(tmp_path: Path) -> None:
    box = tmp_path / "box"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not the bot's")
    outside.chmod(0o555)
    make_deep(box, 3000)  # deeper than Python's recursion limit and than PATH_MAX
    (box / "locked").mkdir()
    (box / "locked" / "f").write_text("x")
    (box / "locked").chmod(0)
    ro = box / "ro"
    ro.mkdir()
    (ro / "link").symlink_to(outside)
    (ro / "file-link").symlink_to(outside / "keep.txt")
    ro.chmod(0o500)
    assert remove_tree(box)
    assert not box.exists()
    assert (outside / "keep.txt").read_text() == "not the bot's"
    assert outside.stat().st_mode & 0o777 == 0o555  # the link's target was never chmodded
    outside.chmod(0o755)


def test_stale_sweep_of_a_deep_tree_does_not_stop_the_next_judge(tmp_path: Path) -> None:
    from judge.sandbox.cleanup import remove_stale_workdirs

    dead = subprocess.run(["true"], check=True)  # a pid that has ended
    assert dead.returncode == 0
    stale = Path(tempfile.gettempdir()) / f"{WORKDIR_PREFIX}999999999-test-{os.getpid()}"
    make_deep(stale, 1500)
    remove_stale_workdirs()
    assert not stale.exists()


# --- 2. the bot sees only what is its own ----------------------------------------------------


@pytest.fixture
def secrets(tmp_path: Path) -> dict[str, Path]:
    """A home with a private file, another contestant's folder, a database and a cache."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    (home / "secret.txt").write_text("SECRET-HOME")
    (home / "secret.txt").chmod(0o600)
    other = tmp_path / "contestants" / "other"
    other.mkdir(parents=True)
    (other / "solution.py").write_text("# SECRET-OTHER")
    db = tmp_path / "results.sqlite"
    db.write_text("SECRET-DB")
    for folder in (tmp_path, tmp_path / "contestants", other):
        folder.chmod(0o755)
    (other / "solution.py").chmod(0o644)
    db.chmod(0o644)
    return {"home": home / "secret.txt", "other": other / "solution.py", "db": db}


def reading_attack(paths: list[str]) -> str:
    return "\n".join(f"attempt('read {p}', lambda: open({p!r}).read())" for p in paths)


# (as an ordinary user without bubblewrap the bot is that user)
@pytest.mark.needs_guarantee("filesystem", "uid")
@pytest.mark.parametrize("mode", MODES)
def test_private_files_of_the_judges_user_stay_private(
    mode: str, tmp_path: Path, secrets: dict[str, Path]
) -> None:
    paths = [str(secrets["home"]), "/etc/shadow", f"/proc/{os.getpid()}/environ"]
    record = play(write_bot(tmp_path / "bot", reading_attack(paths)), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT" not in said(record), said(record)
    assert_next_game_is_clean(mode, tmp_path)


@pytest.mark.needs_bwrap
def test_under_bwrap_nothing_but_its_own_file_is_there(
    tmp_path: Path, secrets: dict[str, Path]
) -> None:
    from judge.solvers.cache import cache_dir

    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    in_home = Path.home() / f".judge-test-{os.getpid()}"
    in_home.write_text("SECRET")
    paths = [str(secrets["other"]), str(secrets["db"]), str(cache), str(ROOT / "README.md"),
             str(in_home), "/etc/passwd", "/var/run", "/run/lock"]
    attack = "\n".join(f"attempt('see {p}', lambda: os.stat({p!r}))" for p in paths)
    bot = write_bot(tmp_path / "contestants" / "me", attack)
    try:
        record = play(bot, "bwrap")
    finally:
        in_home.unlink()
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT" not in said(record), said(record)


@pytest.mark.needs_bwrap
def test_under_bwrap_etc_shows_the_systems_files_and_only_them(tmp_path: Path) -> None:
    # /etc is one folder of copies (see `commandline._etc_view`): the same names, the same
    # content as on the host, links inside folders as links, each shown path as what it
    # links to, as a bind of each would show them
    from judge.sandbox.commandline import SYSTEM_FILES

    shown = [p for p in SYSTEM_FILES if os.path.exists(p)]
    attack = """
import hashlib
def seen(path):
    if os.path.isdir(path):  # (a digest: stderr is capped)
        return hashlib.sha256(json.dumps(sorted(
            [n, os.readlink(os.path.join(path, n)) if os.path.islink(os.path.join(path, n))
             else ""] for n in os.listdir(path))).encode()).hexdigest()
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()
report("ETC " + json.dumps(sorted(os.listdir("/etc"))), True)
with open("/proc/self/mountinfo") as fh:
    points = [line.split()[4] for line in fh]
report("MOUNTS " + json.dumps([m for m in points if m == "/etc" or m.startswith("/etc/")]), True)
attempt("write in /etc", lambda: open("/etc/planted", "w").close())
for path in SHOWN:
    report("SEEN " + json.dumps([path, seen(path)]), True)
""".replace("SHOWN", repr(shown))
    bot = write_bot(tmp_path / "bot", "import json\n" + attack)
    record = play(bot, "bwrap")
    assert record.verdict.code == verdicts.OK, record.verdict
    lines = said(record).splitlines()
    listing = next(json.loads(x[len("GOT ETC "):]) for x in lines if x.startswith("GOT ETC "))
    mounts = next(json.loads(x[len("GOT MOUNTS "):]) for x in lines
                  if x.startswith("GOT MOUNTS "))
    assert mounts == ["/etc"]  # one mount, not one for each file
    assert "NOT write in /etc" in said(record)
    assert listing == sorted(os.path.basename(p) for p in shown)
    seen = dict(json.loads(x[len("GOT SEEN "):]) for x in lines if x.startswith("GOT SEEN "))
    for path in shown:
        if os.path.isdir(path):
            expected = hashlib.sha256(json.dumps(sorted(
                [n, os.readlink(os.path.join(path, n))
                 if os.path.islink(os.path.join(path, n)) else ""]
                for n in os.listdir(path))).encode()).hexdigest()
        else:
            expected = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        assert seen[path] == expected, path


def test_the_etc_view_is_made_again_when_a_file_changes_and_never_half(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.sandbox.commandline import _etc_view

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    top = tmp_path / "etc"
    (top / "conf.d").mkdir(parents=True)
    (top / "cache.bin").write_bytes(b"first")
    (top / "conf.d" / "a.conf").write_text("/opt/lib\n")
    (top / "conf.d" / "link").symlink_to("/usr/share/one")
    os.mkfifo(top / "conf.d" / "fifo")  # not copied: it would hold the copy forever
    (top / "zone").symlink_to(top / "cache.bin")  # shown as what it links to
    (tmp_path / "outside").write_text("untouched")
    paths = tuple(str(top / n) for n in ("cache.bin", "conf.d", "zone"))
    first = _etc_view(paths, str(top))
    assert first is not None
    assert (first / "cache.bin").read_bytes() == b"first"
    assert (first / "conf.d" / "a.conf").read_text() == "/opt/lib\n"
    assert os.readlink(first / "conf.d" / "link") == "/usr/share/one"
    assert not (first / "conf.d" / "fifo").exists()
    assert not (first / "zone").is_symlink() and (first / "zone").read_bytes() == b"first"
    assert _etc_view(paths, str(top)) == first  # made once
    # a file changed in place, of the same size
    time.sleep(0.01)
    (top / "conf.d" / "a.conf").write_text("/opt/lid\n")
    second = _etc_view(paths, str(top))
    assert second is not None and second != first
    assert (second / "conf.d" / "a.conf").read_text() == "/opt/lid\n"
    assert (first / "conf.d" / "a.conf").read_text() == "/opt/lib\n"  # (in use elsewhere)
    # a link in a folder replaced
    (top / "conf.d" / "link").unlink()
    (top / "conf.d" / "link").symlink_to("/usr/share/two")
    third = _etc_view(paths, str(top))
    assert third is not None and third not in (first, second)
    assert os.readlink(third / "conf.d" / "link") == "/usr/share/two"
    assert sorted(p.name for p in third.parent.iterdir()) == sorted(
        p.name for p in (first, second, third))  # nothing half made is left
    assert (tmp_path / "outside").read_text() == "untouched"


def test_an_etc_view_removed_is_made_again_and_a_stale_one_looked_at_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.sandbox import commandline

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(commandline, "_etc_shown", {})
    first = commandline._etc_binds(())
    if first[:1] != ("--ro-bind",):
        pytest.skip("no /etc view here (its files cannot be copied)")
    remove_tree(Path(first[1]))  # (a cache emptied by hand)
    again = commandline._etc_binds(())
    assert again == first and Path(again[1]).is_dir()
    seen = []
    monkeypatch.setattr(commandline, "_etc_view", lambda paths: seen.append(paths) or None)
    assert commandline._etc_binds(()) == first  # taken as current for a while ...
    monkeypatch.setattr(commandline, "ETC_RECHECK_SECONDS", 0.0)
    assert commandline._etc_binds(()) != first and seen  # ... then looked at again


DEV_SEEN = """
report("DEV " + json.dumps(sorted(os.listdir("/dev"))), True)
attempt("make a file in /dev", lambda: open("/dev/planted", "w").close())
attempt("write /dev/null", lambda: open("/dev/null", "w").write("x"))
attempt("read zeros", lambda: open("/dev/zero", "rb").read(4) == bytes(4) or 1 / 0)
attempt("read /dev/urandom", lambda: len(open("/dev/urandom", "rb").read(4)) == 4 or 1 / 0)
"""


@pytest.mark.needs_bwrap
def test_under_bwrap_dev_holds_the_usual_devices_and_nothing_else(tmp_path: Path) -> None:
    # as root a folder of nodes made once is /dev, one mount (see `commandline._dev_view`);
    # else bwrap's --dev, with /dev/pts: the same devices either way
    from judge.sandbox.commandline import DEVICE_LINKS, DEVICES, _dev_view

    record = play(write_bot(tmp_path / "bot", "import json\n" + DEV_SEEN), "bwrap")
    assert record.verdict.code == verdicts.OK, record.verdict
    text = said(record)
    listing = next(json.loads(x[len("GOT DEV "):]) for x in text.splitlines()
                   if x.startswith("GOT DEV "))
    ptys = [] if _dev_view() else ["ptmx", "pts"]
    assert listing == sorted([*DEVICES, *DEVICE_LINKS, "shm", *ptys])
    assert "NOT make a file in /dev" in text
    for done in ("write /dev/null", "read zeros", "read /dev/urandom"):
        assert f"GOT {done}" in text, text
    if _dev_view():
        assert {p.name for p in _dev_view().iterdir()} == {*DEVICES, *DEVICE_LINKS, "shm"}



#: ptys opened through /dev/ptmx: how many, and why the first that failed did (0: none)
PTYS = """
import errno
opened, why = [], 0
for _ in range(40):
    try:
        opened.append(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY))
    except OSError as exc:
        why = exc.errno
        break
print(f"GOT PTYS {len(opened)} {errno.errorcode.get(why, why)}", file=sys.stderr, flush=True)
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_opens_no_pseudo_terminal(mode: str, tmp_path: Path) -> None:
    # a pty pair is the kernel's memory, out of the judge's sums (some 50 KiB each: 696
    # of them, 12 processes of a bot, held 35 MiB of slab), and the machine counts them
    # (/proc/sys/kernel/pty/nr) in one pool for every instance of devpts (3,072 of them):
    # under an ordinary user's bubblewrap, whose /dev has /dev/pts, /dev/ptmx is not for
    # writing (a terminal the judge gives a bot is its stdin and stdout, already open)
    record = play(write_bot(tmp_path / "bot", PTYS), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    count, why = seen_line(record, "PTYS").split()
    assert (count, why) in (("0", "EACCES"), ("0", "ENOENT")), (count, why)


DEV_TAMPERING = {
    "a node replaced by a file": lambda v: (os.remove(v / "zero"), (v / "zero").write_text("x")),
    "a file left in shm": lambda v: (v / "shm" / "left").write_text("x"),
    "an entry added": lambda v: os.symlink("/dev/sda", v / "sda"),
    "a mode changed": lambda v: os.chmod(v / "null", 0o600),
    "a link changed": lambda v: (os.remove(v / "fd"), os.symlink("/", v / "fd")),
}


@pytest.mark.needs_root("the folder of device nodes is a root judge's")
@pytest.mark.parametrize("tampering", DEV_TAMPERING)
def test_a_dev_view_tampered_with_is_left_and_another_made(
        tampering: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import stat

    from judge.sandbox import commandline

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    commandline._dev_view.cache_clear()
    try:
        view = commandline._dev_view()
        if view is None:
            pytest.skip("no devices can be made in a folder here")
        for name in commandline.DEVICES:
            st = os.lstat(view / name)
            assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.stat(f"/dev/{name}").st_rdev
        listing = sorted(os.listdir(view))
        assert commandline._dev_view() == view  # made once
        DEV_TAMPERING[tampering](view)
        tampered = sorted(os.listdir(view)), sorted(os.listdir(view / "shm"))
        commandline._dev_view.cache_clear()
        other = commandline._dev_view()
        assert other is not None and other != view
        assert sorted(os.listdir(other)) == listing and not os.listdir(other / "shm")
        assert (sorted(os.listdir(view)), sorted(os.listdir(view / "shm"))) == tampered
        assert not [p for p in view.parent.iterdir() if p.name.startswith("building-")]
    finally:
        commandline._dev_view.cache_clear()


@pytest.mark.needs_root("the folder of device nodes is a root judge's")
def test_no_dev_view_in_a_cache_that_another_user_could_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.sandbox import commandline

    open_to_all = tmp_path / "shared"
    open_to_all.mkdir()
    open_to_all.chmod(0o777)  # (not sticky: anyone may rename what is in it)
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(open_to_all / "cache"))
    commandline._dev_view.cache_clear()
    try:
        assert commandline._dev_view() is None
        assert not (open_to_all / "cache" / "dev").exists() or \
            not os.listdir(open_to_all / "cache" / "dev")
    finally:
        commandline._dev_view.cache_clear()


NET_SEEN = """
import socket
report("NET " + os.readlink("/proc/self/ns/net"), True)
try:  # (no routing netlink to ask: if_nameindex; where /proc is an allowlist, not this)
    with open("/proc/self/net/dev") as links:
        names = " ".join(line.split(":")[0].strip() for line in list(links)[2:])
except PermissionError:
    names = "(refused)"
report("LINKS " + names, True)
"""

def seen_line(record: GameRecord, key: str) -> str:
    return next(x[len(f"GOT {key} "):] for x in said(record).splitlines()
                if x.startswith(f"GOT {key} "))


@pytest.mark.needs_root("a network namespace per game is a root judge's without bubblewrap")
@pytest.mark.parametrize("mode", MODES)
def test_every_game_has_a_network_namespace_of_its_own_with_only_its_loopback(
        mode: str, tmp_path: Path) -> None:
    # never the host's, never an earlier game's; and no IP socket to use in it (a socket
    # moves the machine's TCP and UDP counters, which another bot reads)
    plain = write_bot(tmp_path / "plain", NET_SEEN + """
attempt("an IP socket", lambda: socket.socket().close())
attempt("a UDP socket", lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close())
""")
    try:
        records = [play(plain, mode) for _ in range(SLOTS_PER_PROCESS + 1)]
    finally:
        sandbox_context().close()
    # where /proc is an allowlist the bot cannot list its links (nor use any: no socket but
    # a local pair, no bind), and the judge's own view of a namespace made as in every tier
    # stands for it
    links = "(refused)" if tier_for(mode).holds()["proc"] else "lo"
    seen = set()
    for record in records:
        assert record.verdict.code == verdicts.OK, record.verdict
        assert seen_line(record, "LINKS") == links
        assert "NOT an IP socket" in said(record) and "NOT a UDP socket" in said(record)
        seen.add(seen_line(record, "NET"))
    assert os.readlink("/proc/self/ns/net") not in seen


def _mount_points(mountinfo: str) -> set[str]:
    return {line.split()[4] for line in mountinfo.splitlines()}


@pytest.mark.needs_bwrap
@pytest.mark.needs_root("the lean mount namespace is a root judge's")
def test_bwrap_starts_in_a_mount_namespace_without_sys_and_the_judges_keeps_it(
        tmp_path: Path) -> None:
    from judge.sandbox.slots import LEAN_HIDDEN, lean_mount_namespace

    ours = Path("/proc/self/mountinfo").read_text()
    lean = lean_mount_namespace()
    assert lean >= 0
    assert os.readlink(f"/proc/self/fd/{lean}") != os.readlink("/proc/self/ns/mnt")
    # what bwrap starts in: the outer bwrap of a game stays in the namespace it started in
    player = BotPlayer(write_bot(tmp_path / "bot", ""), LIMITS, "bwrap")
    player.begin(GAME, 0)
    try:
        outer = player.process.started.pid
        assert os.readlink(f"/proc/{outer}/ns/mnt") == os.readlink(f"/proc/self/fd/{lean}")
        theirs = Path(f"/proc/{outer}/mountinfo").read_text()
        player.choose(GAME.start(), None)  # (it plays as ever)
    finally:
        player.close()
    for hidden in LEAN_HIDDEN:
        assert not [m for m in _mount_points(theirs) if Path(m).is_relative_to(hidden)]
    assert {"/", "/proc"} <= _mount_points(theirs)
    # nothing went back to the judge's mounts
    assert "/sys" in _mount_points(ours)
    assert _mount_points(Path("/proc/self/mountinfo").read_text()) == _mount_points(ours)


def test_a_bot_has_a_pair_of_local_sockets_and_no_other(tmp_path: Path) -> None:
    # (some families the kernel keeps outside any network namespace: AF_VSOCK reaches the
    # host; a local socket named by a path reaches whatever of its user listens there; the
    # routing netlink shows the machine's neighbour tables' statistics)
    attack = """
import socket
for family in (40, 17, 30, 38, 41, 2, 10, 1):  # VSOCK, PACKET, TIPC, ALG, KCM, INET(6), UNIX
    attempt(f"socket {family}", lambda: socket.socket(family, socket.SOCK_DGRAM))
attempt("socketpair", lambda: socket.socketpair())
attempt("netlink 0", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
attempt("netlink 4", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 4))
"""
    for mode in MODES:
        record = play(write_bot(tmp_path / mode, attack), mode)
        text = said(record)
        for family in (40, 17, 30, 38, 41, 2, 10, 1):
            assert f"NOT socket {family} (OSError: [Errno 97]" in text, text
        assert "GOT socketpair" in text, text
        assert "NOT netlink 0 (OSError: [Errno 97]" in text, text
        assert "NOT netlink 4 (OSError: [Errno 97]" in text, text


@pytest.mark.needs_bwrap
def test_host_abstract_sockets_are_out_of_reach_under_bwrap(tmp_path: Path) -> None:
    # an abstract socket name belongs to a network namespace (no file to hide)
    import socket

    name = f"judge-test-{os.getpid()}-{tmp_path.name}"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("\0" + name)
        server.listen()
        server.setblocking(False)
        attack = f"""
import socket
attempt("connect", lambda: socket.socket(socket.AF_UNIX).connect("\\0" + {name!r}))
"""
        for _ in range(SLOTS_PER_PROCESS):  # (each slot's namespace)
            record = play(write_bot(tmp_path / "bot", attack), "bwrap")
            assert "NOT connect" in said(record), said(record)
        with pytest.raises(BlockingIOError):
            server.accept()


# (without bubblewrap or root the bot is the judge's user: not promised)
@pytest.mark.needs_guarantee("filesystem", "uid")
@pytest.mark.parametrize("mode", MODES)
def test_the_bot_cannot_reach_the_helper_through_its_parent(mode: str, tmp_path: Path) -> None:
    # the process that starts and reaps the bot runs the judge's helper from the judge's
    # cache (under bwrap, started through a descriptor of that file): the bot, which may
    # have the same uid (bwrap as an ordinary user), can neither change that file through
    # the parent's /proc entries nor use the parent's descriptors (its status pipe)
    from judge.sandbox.exec_helper import helper_path

    helper = helper_path()
    if helper is None:
        pytest.skip("no exec helper")
    before = os.stat(helper)
    attack = """
parent = os.getppid()
attempt("chmod the helper", lambda: os.chmod(f"/proc/{parent}/exe", 0o777))
attempt("write the helper", lambda: open(f"/proc/{parent}/exe", "ab").close())
attempt("list the parent's descriptors", lambda: os.listdir(f"/proc/{parent}/fd"))
attempt("read the parent's memory", lambda: open(f"/proc/{parent}/mem", "rb").close())
"""
    record = play(write_bot(tmp_path / "bot", attack), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT" not in said(record), said(record)
    assert "NOT chmod the helper" in said(record)
    after = os.stat(helper)
    assert (after.st_mode, after.st_size, after.st_mtime_ns) == \
        (before.st_mode, before.st_size, before.st_mtime_ns)


@pytest.mark.needs_bwrap
def test_host_sockets_are_out_of_reach_under_bwrap(tmp_path: Path) -> None:
    import socket

    path = tmp_path / "judge-test.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        path.chmod(0o777)
        tmp_path.chmod(0o755)
        server.listen()
        server.setblocking(False)
        attack = f"""
import socket
def connect():
    s = socket.socket(socket.AF_UNIX)
    s.connect({str(path)!r})
attempt("connect", connect)
"""
        record = play(write_bot(tmp_path / "bot", attack), "bwrap")
        assert "NOT connect" in said(record), said(record)
        with pytest.raises(BlockingIOError):
            server.accept()


@pytest.mark.needs_guarantee("userns")
@pytest.mark.parametrize("mode", MODES)
def test_no_new_user_namespaces(mode: str, tmp_path: Path) -> None:
    attack = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def unshare():
    if libc.unshare(0x10000000) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")
attempt("user namespace", unshare)
import subprocess
attempt("unshare -U", lambda: subprocess.run(["unshare", "-U", "true"], check=True,
                                               capture_output=True))
"""
    record = play(write_bot(tmp_path, attack), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "NOT user namespace" in said(record) and "GOT" not in said(record), said(record)


# --- 3. limits per bot, over all its processes -------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_memory_is_counted_over_all_processes(mode: str, tmp_path: Path) -> None:
    # with cgroups the kernel counts it; without, the judge sums its processes
    attack = """
kids = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(100 << 20)  # 100 MiB each, well under the address-space limit
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(30)
        os._exit(0)
    kids.append(pid)
time.sleep(30)
"""
    limits = Limits(**{**vars(LIMITS), "first_move_seconds": 10.0})
    record = play(write_bot(tmp_path, attack), mode, limits)
    # (within its move's time, however busy the machine: else the verdict is time-limit)
    assert record.verdict.code == verdicts.MEMORY_LIMIT, record.verdict
    assert_next_game_is_clean(mode, tmp_path)


@pytest.mark.parametrize("mode", MODES)
def test_cpu_is_summed_over_processes(mode: str, tmp_path: Path) -> None:
    attack = """
for _ in range(2):
    if os.fork() == 0:
        while True:
            pass
while True:
    pass
"""
    limits = Limits(**{**vars(LIMITS), "cpu_seconds": 2, "first_move_seconds": 30.0})
    record = play(write_bot(tmp_path, attack), mode, limits)
    assert record.verdict.code == verdicts.CPU_LIMIT, record.verdict
    assert "all its processes" in record.verdict.message
    # stopped when the three together had used the limit (however busy the machine): had
    # one process been counted, the three would have used about three times that
    used = record.usage[0]
    assert used is not None and limits.cpu_seconds <= used.cpu_seconds < 2 * limits.cpu_seconds


@pytest.mark.needs_cgroups("CPU summed over threads needs a cgroup")
@pytest.mark.parametrize("mode", MODES)
def test_move_cpu_counts_every_thread(mode: str, tmp_path: Path) -> None:
    attack = """
import threading
def burn():
    end = time.thread_time() + 0.4
    while time.thread_time() < end:
        pass
threads = [threading.Thread(target=burn) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()
"""
    player = BotPlayer(write_bot(tmp_path, attack), LIMITS, mode)
    record = play_game(GAME, [player, FirstPit()], GAME.start(), LIMITS)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert record.moves[0].cpu_seconds is not None and record.moves[0].cpu_seconds >= 0.75


@pytest.mark.needs_guarantee("limits")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("how", ["threads", "setsid"])
def test_processes_and_threads_are_counted_together(mode: str, how: str, tmp_path: Path) -> None:
    attack = {
        "threads": """
import threading
threading.stack_size(1 << 16)  # small stacks: the address-space limit is not what stops it
for _ in range(1000):
    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
""",
        "setsid": """
for _ in range(300):
    if os.fork() == 0:
        os.setsid()
        time.sleep(30)
        os._exit(0)
""",
    }[how]
    record = play(write_bot(tmp_path, attack), mode)
    assert record.verdict.code == verdicts.CRASH, record.verdict
    assert "more than 16 processes" in record.verdict.message
    assert_next_game_is_clean(mode, tmp_path)


@pytest.mark.needs_guarantee("disk")
@pytest.mark.parametrize("mode", MODES)
def test_disk_is_capped_in_the_work_dir_tmp_and_dev_shm(mode: str, tmp_path: Path) -> None:
    # its work dir and each folder every program may write to: /tmp and /dev/shm
    places = ["os.environ['HOME']", "'/tmp'", "'/dev/shm'"]
    attack = "\n".join(f"""
def fill(folder={place}):
    for i in range(200):
        with open(os.path.join(folder, f"f{{i}}"), "wb") as fh:
            fh.write(b"x" * (1 << 20))
attempt("fill " + {place}, fill)""" for place in places)
    record = play(write_bot(tmp_path, attack), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT" not in said(record) and "No space left" in said(record), said(record)
    assert_next_game_is_clean(mode, tmp_path)


# --- 4. as root, a uid of its own in every mode ------------------------------------------------


@pytest.mark.needs_root("the judge runs as an ordinary user: no uid of the bot's own")
@pytest.mark.parametrize("mode", MODES)
def test_as_root_a_bot_cannot_touch_the_judge(mode: str, tmp_path: Path) -> None:
    from judge.sandbox.exec_helper import helper_path

    db = tmp_path / "results.sqlite"
    db.write_text("stored games")
    db.chmod(0o644)
    tmp_path.chmod(0o755)
    from judge.sandbox import compiled
    from judge.solvers import cache

    helper = helper_path()
    binary = compiled(BOTS / "first_pit.c")[0] / "bot"
    from judge.solvers import solver_for

    key = solver_for(GAME).table_key  # the table is on disk
    table = cache.path_for(key)
    judge = os.getpid()
    attack = f"""
import ctypes, signal
libc = ctypes.CDLL(None, use_errno=True)
attempt("signal the judge", lambda: os.kill({judge}, signal.SIGTERM))
def trace():
    if libc.ptrace(16, {judge}, 0, 0) != 0:  # PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), "ptrace")
attempt("ptrace the judge", trace)
attempt("write the database", lambda: open({str(db)!r}, "w").write("forged"))
attempt("replace the helper", lambda: open({helper!r}, "wb").write(b"forged"))
attempt("replace a compiled bot", lambda: open({str(binary)!r}, "wb").write(b"forged"))
attempt("replace the Ioiwari table", lambda: open({str(table)!r}, "wb").write(b"forged"))
"""
    record = play(write_bot(tmp_path / "bot", attack), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT" not in said(record), said(record)
    assert db.read_text() == "stored games"
    assert cache.load_flat(key) is not None  # still the checked table


@pytest.mark.parametrize("mode", MODES)
def test_a_daemon_does_not_outlive_its_game(mode: str, tmp_path: Path) -> None:
    marker = tmp_path / "alive"
    tmp_path.chmod(0o755)
    daemon = f"sleep 1000.{os.getpid()}"  # (this test's own: not another judge's)
    attack = """
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execve("/bin/sleep", "DAEMON".split(), {})
    os._exit(0)
time.sleep(0.2)
""".replace("DAEMON", daemon)
    record = play(write_bot(tmp_path / "bot", attack), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert gone(daemon)
    assert not marker.exists()


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_kills_its_parent_leaves_no_daemon(mode: str, tmp_path: Path) -> None:
    attack = """
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)  # keeps the bot's file name in its command line
    os._exit(0)
time.sleep(0.2)
attempt("kill the helper", lambda: os.kill(os.getppid(), signal.SIGKILL))
"""
    bot = write_bot(tmp_path / "bot", attack, name=f"parricide_bot_{mode}_{os.getpid()}.py")
    tmp_path.chmod(0o755)
    play(bot, mode)
    assert gone(bot.name)


@pytest.mark.needs_root("the judge runs as an ordinary user: the bot is that user")
def test_as_root_a_private_bot_file_still_runs(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    bot = write_bot(private, "pass")
    bot.chmod(0o600)
    for mode in MODES:
        record = play(bot, mode)
        assert record.verdict.code == verdicts.OK, (mode, record.verdict)
    assert bot.stat().st_mode & 0o777 == 0o600  # the file itself was left as it was


# --- 5. the judge's interpreter under /tmp ---------------------------------------------------


def test_a_judge_in_a_virtual_environment_under_tmp_runs_python_bots(tmp_path: Path) -> None:
    venv = Path(tempfile.mkdtemp(prefix="judge-venv-", dir="/tmp"))
    venv.chmod(0o755)  # as `python -m venv` makes it
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        # the judge's packages (this environment's, which may itself be a venv)
        import site

        inner = next(venv.glob("lib/python3*/site-packages"))
        (inner / "judge-test.pth").write_text(
            "".join(f"import site; site.addsitedir({p!r})\n" for p in site.getsitepackages()))
        starts = tmp_path / "starts.txt"
        starts.write_text("4 3 2 4 2 3 2\n")
        out = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "judge", "run", "--game", "ioiwari",
             "--tests", str(starts), "--db", str(tmp_path / "r.db"), "--format", "json",
             "--details", str(ROOT / "bots" / "ioiwari" / "greedy.py")],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        run = json.loads(out.stdout)
        assert run["bots"][0]["failures"] == {} and run["bots"][0]["games"] == 1, run["games"]
    finally:
        remove_tree(venv)


# --- 6. the smaller findings -----------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_exit_status_152_is_a_crash_not_a_cpu_limit(mode: str, tmp_path: Path) -> None:
    record = play(write_bot(tmp_path, "sys.exit(152)"), mode)
    assert record.verdict.code == verdicts.CRASH, record.verdict
    assert "status 152" in record.verdict.message


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_waiting_for_input_is_told_so(mode: str, tmp_path: Path) -> None:
    record = play(write_bot(tmp_path, "sys.stdin.readline()"), mode)
    assert record.verdict.code == verdicts.TIME_LIMIT, record.verdict
    assert "waited for more input than the protocol gives" in record.verdict.message


@pytest.mark.parametrize("mode", MODES)
def test_a_whole_game_has_a_wall_clock_limit(mode: str, tmp_path: Path) -> None:
    bot = write_bot(tmp_path, "pass")
    moving = "        print(move, flush=True)\n"  # in first_pit's play()
    bot.write_text(bot.read_text().replace(moving, "        time.sleep(0.3)\n" + moving))
    limits = Limits(**{**vars(LIMITS), "game_seconds": 1.0})
    record = play(bot, mode, limits)
    assert record.verdict.code == verdicts.TIME_LIMIT, record.verdict
    assert "the game took longer than 1 s" in record.verdict.message
    assert len(record.moves) >= 4  # it played on until the game's time ran out


def test_play_escapes_what_a_bot_writes_to_stderr(tmp_path: Path) -> None:
    bot = write_bot(tmp_path, r"print('\x1b[2J\x1b[1;1Hverdict: ok\x07', file=sys.stderr)")
    out = subprocess.run(
        [sys.executable, "-m", "judge", "play", "--game", "ioiwari", str(bot)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert "\\x1b[2J" in out.stdout


@pytest.mark.parametrize("mode", MODES)
def test_sigterm_leaves_no_work_dirs_and_no_bots(mode: str, tmp_path: Path) -> None:
    # what this judge made only: its work dirs in a TMPDIR of its own, its bots by a name
    # of their own (another judge on the machine may have left folders, or run that bot)
    starts = tmp_path / "starts.txt"
    starts.write_text("4 3 2 4 2 3 2\n4 4 4 4 4 4 0\n")
    temp = tmp_path / "tmp"
    temp.mkdir()
    bot = tmp_path / f"sleep_forever_{mode}_{os.getpid()}.py"
    bot.write_text((BOTS / "sleep_forever.py").read_text())
    judge = subprocess.Popen(
        [sys.executable, "-m", "judge", "run", "--game", "ioiwari", "--tests", str(starts),
         "--jobs", "2", "--sandbox", mode, "--db", str(tmp_path / "r.db"), "--move-time", "30",
         "--first-move-time", "30", str(bot)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(temp)},
    )
    try:  # both games under way: their bots sleep
        deadline = time.monotonic() + PATIENCE
        while len([c for c in running(bot.name) if "python" in c.split()[0]]) < 2:
            assert time.monotonic() < deadline and judge.poll() is None
            time.sleep(0.05)
    finally:
        judge.send_signal(signal.SIGTERM)
    _, err = judge.communicate(timeout=PATIENCE)
    assert judge.returncode == 143, err
    assert list(temp.glob(f"{WORKDIR_PREFIX}*")) == []
    assert gone(bot.name)


def test_tier_is_reported_with_a_warning_per_missing_guarantee() -> None:
    weakest = Tier("none", uid=False, cgroups=False, helper=False)
    assert weakest.name == "none"
    assert len(weakest.warnings()) == len(weakest.holds()) == 12
    strongest = Tier("bwrap", uid=True, cgroups=True, helper=True, fair=True, landlock=True)
    assert strongest.name == "bwrap+uid+cgroups" and strongest.warnings() == []
    assert all(strongest.holds().values())


def test_runs_record_and_report_their_tier(tmp_path: Path) -> None:
    starts = tmp_path / "starts.txt"
    starts.write_text("4 3 2 4 2 3 2\n")
    out = subprocess.run(
        [sys.executable, "-m", "judge", "run", "--game", "ioiwari", "--tests", str(starts),
         "--db", str(tmp_path / "r.db"), "--format", "json", "--verbose",
         str(ROOT / "bots" / "ioiwari" / "greedy.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    tier = tier_for("auto")
    assert json.loads(out.stdout)["tier"] == tier.name
    for line in tier.warnings():
        assert line in out.stderr


# --- compilation is untrusted work too --------------------------------------------------------


# (a compiler that runs as the judge's user, seeing its files, reads them)
@pytest.mark.needs_guarantee("filesystem", "uid")
@pytest.mark.parametrize(
    "source",
    [
        '#include "{secret}"\nint main(void) {{ return 0; }}\n',
        'asm(".section .rodata\\n.incbin \\"{secret}\\"\\n.text");\n'
        'int main(void) {{ return 0; }}\n',
    ],
    ids=["include", "incbin"],
)
def test_a_source_cannot_take_in_a_file_that_is_not_its_own(
    source: str, tmp_path: Path, secrets: dict[str, Path]
) -> None:
    from judge.sandbox import CompileError, compiled

    bot = tmp_path / "bot" / "leak.c"
    bot.parent.mkdir()
    bot.write_text(source.format(secret=secrets["home"]))
    with pytest.raises(CompileError) as failed:
        compiled(bot)
    assert "SECRET" not in str(failed.value)
    assert "leak.c" in str(failed.value) or "input" in str(failed.value)


def test_a_compiler_bomb_ends_in_a_compile_error(tmp_path: Path) -> None:
    from judge.sandbox import CompileError, compiled

    bot = tmp_path / "zero.c"
    bot.write_text('#include "/dev/zero"\nint main(void) { return 0; }\n')
    started = time.monotonic()
    with pytest.raises(CompileError, match="memory|took longer"):
        compiled(bot)
    assert time.monotonic() - started < 70


KILLED_JUDGE = """
import sys
from judge.games.ioiwari import Ioiwari
from judge.players.bot import BotPlayer
game = Ioiwari()
bot = BotPlayer(sys.argv[1], sandbox=sys.argv[2])
bot.begin(game, 0)
bot.choose(game.start(), None)
print("moved", flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("mode", MODES)
def test_what_left_the_session_dies_with_a_killed_judge(mode: str, tmp_path: Path) -> None:
    if not full_tier(mode).holds()["lifetime"] and not full_tier(mode).helper:
        pytest.skip("without the exec helper (no C compiler), a cgroup or a PID namespace, "
                    "a killed judge cannot reach what left the bot's session")
    attack = """
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)
    os._exit(0)
"""
    bot = write_bot(tmp_path / "bot", attack, name=f"escaper_bot_{mode}_{os.getpid()}.py")
    tmp_path.chmod(0o755)
    judge = subprocess.Popen([sys.executable, "-c", KILLED_JUDGE, str(bot), mode],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert judge.stdout is not None and judge.stdout.readline() == "moved\n"
    judge.kill()
    judge.wait()
    assert gone(bot.name)


def gone(text: str) -> bool:
    """Whether the processes whose command line mentions `text` (this test's own: a name
    no other test or judge uses) are all gone, or go within `PATIENCE` seconds (they may
    be dying)."""
    deadline = time.monotonic() + PATIENCE
    while running(text):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def running(text: str) -> list[str]:
    """Live processes whose command line mentions `text`."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if text in cmd and state != "Z":
                found.append(cmd)
    return found


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_exits_leaving_a_daemon_gets_its_verdict_at_once(
    mode: str, tmp_path: Path
) -> None:
    attack = """
if os.fork() == 0:
    os.setsid()
    time.sleep(30)
sys.exit(3)
"""
    started = time.monotonic()
    record = play(write_bot(tmp_path, attack), mode)
    assert record.verdict.code == verdicts.CRASH, record.verdict
    assert "status 3" in record.verdict.message
    assert time.monotonic() - started < LIMITS.first_move_seconds  # not its time-limit


@pytest.mark.needs_root("slots are a root judge's")
@pytest.mark.parametrize("mode", MODES)
def test_games_take_turns_with_two_slots_each_settled_before_its_next_game(
        mode: str, tmp_path: Path) -> None:
    # a daemon left by the first game cannot run once that game is over; by the slot's
    # next game (the third) nothing of the first is there, its starter reaped
    attack = """
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        report(f"daemon {os.getpid()}", True)
        time.sleep(60)
    os._exit(0)
time.sleep(0.2)
"""
    player = BotPlayer(write_bot(tmp_path / "a", attack), LIMITS, mode)
    record = play_game(GAME, [player, FirstPit()], GAME.start(), LIMITS)
    first, starter = sandbox_context().last_slot, player.pgid
    assert "GOT daemon " in said(record), said(record)
    # (its pid is one of the game's own PID namespace): the slot's processes instead
    left = first.members()
    assert [pid for pid in left if not dying(pid)] == [], left
    plain = BotPlayer(write_bot(tmp_path / "b", "pass"), LIMITS, mode)
    play_game(GAME, [plain, FirstPit()], GAME.start(), LIMITS)
    assert sandbox_context().last_slot is not first
    play_game(GAME, [plain, FirstPit()], GAME.start(), LIMITS)
    assert sandbox_context().last_slot is first
    with pytest.raises(ChildProcessError):  # the first game's starter was reaped
        os.waitpid(starter, os.WNOHANG)
    assert [pid for pid in left if os.path.exists(f"/proc/{pid}")] == [], left


LOOK = """
def attributes(place):
    try:
        return os.listxattr(place)
    except OSError:  # (none in any form under the system call filter: test_seccomp.py)
        return []
for place in ("/tmp", "/dev/shm", "."):
    st, fs = os.stat(place), os.statvfs(place)  # (not listed: that would change its atime)
    report(f"{place} {st.st_mtime_ns} {oct(st.st_mode)} {fs.f_files - fs.f_ffree} "
           f"{attributes(place)}", True)
"""

TOUCHES = {
    "a file left in /tmp": "open('/tmp/left', 'w').write('x')",
    "a file made and removed in /dev/shm": "os.remove(open('/dev/shm/gone', 'w').name)",
    "the work dir opened to all": "os.chmod('.', 0o777)",
}


def looked(record: GameRecord) -> dict[str, list[str]]:
    """What `LOOK` saw: for each place, its mtime (ns), mode, inodes in use and attributes."""
    seen = {}
    for line in said(record).splitlines():
        if line.startswith("GOT "):
            place, rest = line[4:].split(" ", 1)
            seen[place] = rest.split(" ", 3)
    return seen


@pytest.mark.needs_root("slots are a root judge's")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("touch", TOUCHES)
def test_a_game_finds_its_tmp_and_work_dir_fresh_whatever_the_slots_last_game_did(
        mode: str, touch: str, tmp_path: Path) -> None:
    # one bot, which touches only in its game with BOT_SEED 1: every game has a tmpfs and
    # mount namespace made for it (a process takes turns with two slots: games 1, 3, 5
    # and 7 share one), never one that an earlier game of the slot used
    looker = write_bot(tmp_path / "c", LOOK + f"if os.environ['BOT_SEED'] == '1': {TOUCHES[touch]}")

    def game(seed: int) -> GameRecord:
        record = play_game(GAME, [BotPlayer(looker, LIMITS, mode, seed=seed), FirstPit()],
                           GAME.start(), LIMITS)
        assert record.verdict.code == verdicts.OK, record.verdict
        time.sleep(0.01)  # (a tmpfs made later shows a later time)
        return record

    try:
        before = looked(game(0))  # (only its own file's path is there to see)
        assert set(before) == {"/tmp", "/dev/shm", "."}, before
        slot = sandbox_context().last_slot
        game(0)
        again = looked(game(0))
        assert again != before  # (made again: a later time)
        game(0)
        first = game(1)
        assert "NOT" not in said(first), said(first)
        assert sandbox_context().last_slot is slot
        game(0)
        after = time.time_ns() - 20_000_000  # (a tmpfs's clock is coarse)
        third = game(0)
        assert sandbox_context().last_slot is slot
    finally:
        sandbox_context().close()
    fresh = looked(third)
    # the same mode, inodes in use and attributes as before the touch
    assert {p: v[1:] for p, v in fresh.items()} == {p: v[1:] for p, v in before.items()}
    touched = {"a file left in /tmp": "/tmp", "a file made and removed in /dev/shm": "/dev/shm"
               }.get(touch, ".")
    assert int(fresh[touched][0]) >= after, (touched, said(third))  # no trace of the touch



#: every other process the bot can name: its ancestors (to the judge and beyond, as far as
#: their /proc/PID/stat tells), and under bubblewrap every process of its PID namespace; for
#: each, whether its memory opens for writing (a same-uid process that is dumpable would let
#: the bot write code into it)
WRITE_MEMORY = """
def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rpartition(")")[2].split()[1])
me, names = os.getpid(), set()
pid = os.getppid()
while pid > 0:
    names.add(pid)
    try:
        pid = parent_of(pid)
    except OSError:
        break
# (its /proc lists nothing: every PID of a small namespace, tried by number)
names |= set(range(1, me + 10)) if me < 100 else set()
names.discard(me)
report(f"names {sorted(names)}", False)
for pid in sorted(names):
    attempt(f"open the memory of {pid}", lambda pid=pid: open(f"/proc/{pid}/mem", "r+b").close())
"""


@pytest.mark.parametrize("mode", MODES)
def test_no_process_the_bot_can_name_has_memory_it_can_write(mode: str,
                                                             tmp_path: Path) -> None:
    # Its parents up to the judge (and the judge's own parents), and under bubblewrap every
    # process of its PID namespace (PID 1 included): none runs code the bot could change. As
    # an ordinary user they have its uid, so each must be non-dumpable; bwrap's own PID 1
    # must not be there at all (it would run outside the filter).
    record = play(write_bot(tmp_path / "bot", WRITE_MEMORY), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    text = said(record)
    assert "NOT open the memory of" in text, text  # (it named some)
    assert "GOT" not in text, text


#: a bot that tries to open for writing the memory of every process whose PID is near its
#: own (the other bot of its game, started next to it, among them: its /proc lists no
#: process to find it by), and names those that exist (refused, not missing)
OPEN_THE_OTHER = """
import errno
me = os.getpid()
for pid in range(max(1, me - 1000), me + 1000):
    if pid == me:
        continue
    try:
        open(f"/proc/{pid}/mem", "r+b").close()
        report(f"open the memory of {pid}", True)
    except FileNotFoundError:
        pass
    except OSError as exc:
        report(f"open the memory of {pid} ({errno.errorcode[exc.errno]})", False)
"""

#: the other bot: it says its PID
SAYS_ITS_PID = 'report(f"pid {os.getpid()}", True)'


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_cannot_open_the_memory_of_the_bot_it_plays(mode: str, tmp_path: Path) -> None:
    # as an ordinary user without bubblewrap both bots have the judge's uid and are
    # dumpable: each bot's Landlock domain keeps the other out (where the kernel has it)
    from judge.sandbox.tiers import landlock_abi

    if mode == "none" and os.geteuid() != 0 and landlock_abi() < 1:
        pytest.skip("without Landlock, two bots of the same uid reach each other")
    attacker = BotPlayer(write_bot(tmp_path / "a", OPEN_THE_OTHER), LIMITS, mode)
    other = BotPlayer(write_bot(tmp_path / "b", SAYS_ITS_PID, name="other.py"), LIMITS, mode)
    record = play_game(GAME, [attacker, other], GAME.start(), LIMITS)
    assert record.verdict.code == verdicts.OK, record.verdict
    text = said(record)
    assert "GOT open the memory" not in text, text
    if mode == "none" and os.geteuid() != 0:  # (under bubblewrap or as root it is in
        # another PID namespace: not there)
        other_pid = (record.stderr[1] or "").split("GOT pid ")[1].split()[0]
        assert f"NOT open the memory of {other_pid} " in text, text


#: a bot that names itself and a child of its own (PR_SET_NAME: what /proc/PID/comm shows),
#: then plays while they keep the names
NAMER = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def name(word):
    if libc.prctl(15, word.encode(), 0, 0, 0):
        report(f"name {word} (errno {ctypes.get_errno()})", False)
if os.fork() == 0:
    name("jx-kid-7e21")
    time.sleep(60)
    os._exit(0)
name("jx-bot-5c3a")
"""

#: a bot that lists every process its /proc shows, with its comm and command line
LISTER = """
try:
    listed = os.listdir("/proc")
except OSError:  # (where /proc is an allowlist: not even its list)
    listed = []
for pid in sorted((p for p in listed if p.isdigit()), key=int):
    try:
        with open(f"/proc/{pid}/comm", "rb") as fh:
            comm = fh.read().strip()
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            line = fh.read().replace(b"\\0", b" ").strip()
    except OSError:
        continue
    print("SAW", pid, comm.hex(), line.hex(), file=sys.stderr, flush=True)
"""


def processes_seen(tmp_path: Path, mode: str) -> tuple[list[tuple[int, bytes, bytes]], str]:
    """One game of a bot that names itself and its child (first) against one that lists
    every process it sees (second, so after the names are set): what the second saw (pid,
    comm, command line), and its helper's path."""
    from judge.sandbox.exec_helper import helper_path

    limits = dataclasses.replace(LIMITS, stderr_bytes=1 << 20)  # (all it lists)
    namer = BotPlayer(write_bot(tmp_path / "a", NAMER, name="namer.py"), limits, mode)
    lister = BotPlayer(write_bot(tmp_path / "b", LISTER, name="lister.py"), limits, mode)
    try:
        record = play_game(GAME, [namer, lister], GAME.start(), limits)
    finally:
        sandbox_context().close()
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "NOT" not in (record.stderr[0] or ""), record.stderr[0]
    seen = []
    for line in (record.stderr[1] or "").splitlines():
        if line.startswith("SAW "):
            pid, comm, command = line.split(" ")[1:]
            seen.append((int(pid), bytes.fromhex(comm), bytes.fromhex(command)))
    return seen, helper_path() or "judge-exec"


#: the same game in a judge of its own without cgroups (`none+uid`), as JSON
SEEN_WITHOUT_CGROUPS = """
import json, pathlib, sys
import test_confinement
seen, helper = test_confinement.processes_seen(pathlib.Path(sys.argv[1]), sys.argv[2])
print(json.dumps([helper, [[pid, comm.hex(), command.hex()] for pid, comm, command in seen]]))
"""


@pytest.mark.needs_root("a PID namespace per game is a root judge's")
@pytest.mark.parametrize("cgroups", ["auto", "off"])
@pytest.mark.parametrize("mode", MODES)
def test_a_bot_sees_no_process_but_its_own_games(mode: str, cgroups: str,
                                                 tmp_path: Path) -> None:
    # without a PID namespace the other bot's names (16 bytes a process, set at will) and
    # the judge's command line were there to read: each bot now has a PID namespace of its
    # own, the helper its PID 1, and a /proc of that namespace
    if cgroups == "auto":
        seen, helper = processes_seen(tmp_path, mode)
    else:
        env = {**os.environ, "JUDGE_CGROUPS": "off",
               "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), str(ROOT)])}
        ran = subprocess.run([sys.executable, "-c", SEEN_WITHOUT_CGROUPS, str(tmp_path), mode],
                             capture_output=True, text=True, env=env, timeout=300)
        assert ran.returncode == 0, ran.stderr[-3000:]
        helper, listed = json.loads(ran.stdout.splitlines()[-1])
        seen = [(pid, bytes.fromhex(comm), bytes.fromhex(command))
                for pid, comm, command in listed]
    names = {comm for _, comm, _ in seen}
    assert b"jx-bot-5c3a" not in names and b"jx-kid-7e21" not in names, seen
    # only itself and its PID 1 (the helper, which started it); where /proc is an allowlist,
    # not even those
    if not tier_for(mode).holds()["proc"]:
        assert any(b"lister.py" in command for _, _, command in seen), seen
    strangers = [(pid, comm, command) for pid, comm, command in seen
                 if b"lister.py" not in command and not command.startswith(helper.encode())
                 and not command.startswith(b"/proc/self/fd/")]
    assert strangers == [], (strangers, helper)
    assert len(seen) <= 2, seen


#: a league's bot that reads another contestant's copied source and the league's database,
#: and lists the league's folder (the paths are put in by the test)
LEAGUE_SNOOP = """
for what, path in (("the other's source", OTHER), ("the database", DB)):
    attempt("read " + what, lambda path=path: open(path, "rb").read(1))
try:
    shown = sorted(os.listdir(FOLDER)) if os.path.isdir(FOLDER) else None
except PermissionError:  # (where reading is an allowlist, the folder is not on it)
    shown = "refused"
report(f"the league's folder holds {shown}", False)
"""


@pytest.mark.needs_root("a league's folder is kept from bots by their uid as root")
@pytest.mark.parametrize("cgroups", ["auto", "off"])
@pytest.mark.parametrize("mode", MODES)
def test_a_league_bot_cannot_read_the_other_contestants_source_or_the_database(
        mode: str, cgroups: str) -> None:
    # the sources a league copied and its database were readable by any uid: a bot read
    # the other contestant's code there. The league is played in a folder that every uid
    # may enter (as a user's project is), outside the shared temporary folders (a bot
    # without bubblewrap has a /tmp of its own)
    if any(not os.stat(p).st_mode & 0o001 for p in (ROOT, *ROOT.parents)):
        pytest.skip("the checkout is in a folder that other users cannot enter")
    place = Path(tempfile.mkdtemp(dir=ROOT / "tests", prefix=".league-"))
    try:
        league_snooped(mode, cgroups, place)
    finally:
        shutil.rmtree(place)


def league_snooped(mode: str, cgroups: str, place: Path) -> None:
    """The snooping bot plays two games of a league in `place` against another bot."""
    place.chmod(0o755)
    (place / "starts.txt").write_text("4 3 2 4 2 3 2\n")
    db, folder = place / "l.db", place / "l.db.league"
    other = folder / "other" / "v1" / "other.py"
    paths = f"OTHER, DB, FOLDER = {str(other)!r}, {str(db)!r}, {str(folder)!r}\n"
    snoop = write_bot(place / "up", paths + LEAGUE_SNOOP, "snoop.py")
    write_bot(place / "up", "pass", "other.py")
    env = {**os.environ, **({"JUDGE_CGROUPS": "off"} if cgroups == "off" else {})}

    def league(*args: str) -> None:
        ran = subprocess.run([sys.executable, "-m", "judge", "league", *args, "--db", str(db)],
                             capture_output=True, text=True, cwd=place, env=env, timeout=300)
        assert ran.returncode == 0, ran.stderr

    league("new", "--game", "ioiwari", "--starts", "starts.txt", "--sandbox", mode)
    league("add", "other", str(place / "up" / "other.py"))
    league("add", "snoop", str(snoop))
    assert other.is_file()
    for path in (db, folder):  # (as an older judge left them: found and closed)
        path.chmod(0o755 if path.is_dir() else 0o644)
    league("play", "--games", "2", "--jobs", "1")
    from judge.store import Store

    store = Store(db, read_only=True)
    try:
        games = list(store.games(1).values())
    finally:
        store.close()
    assert len(games) == 2
    for game in games:
        text = next((e for e in game.stderr if e and "the league's folder" in e), "")
        assert "NOT read the other's source" in text and "NOT read the database" in text, text
        assert "GOT" not in text, text
        # (its own file alone is shown, or not even the list)
        assert "holds ['snoop']" in text or "holds refused" in text, text
    for path in (folder, db):
        st = os.stat(path)
        assert st.st_uid == os.geteuid() and st.st_mode & 0o077 == 0, (path, oct(st.st_mode))


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_cannot_write_the_judges_cache(mode: str, tmp_path: Path) -> None:
    # the exec helper and the compiled bots live there: a bot that replaced the helper in
    # a game without bubblewrap would run unfiltered in every later game, bwrap's too
    from judge.sandbox.exec_helper import helper_path
    from judge.sandbox.tiers import landlock_abi
    from judge.solvers.cache import cache_dir

    helper = helper_path()
    if helper is None:
        pytest.skip("no exec helper")
    if mode == "none" and os.geteuid() != 0 and landlock_abi() < 1:
        pytest.skip("without Landlock a bot of the judge's uid writes what the judge may")
    before = Path(helper).read_bytes()
    # another process of the judge's user (not a child of this one, which `play` checks)
    victim_pid = int(subprocess.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!"],
                                    capture_output=True, text=True, check=True).stdout)
    attack = f"""
attempt("write into the cache", lambda: open({str(cache_dir())!r} + "/planted", "w").close())
attempt("replace the helper", lambda: os.replace(
    open("copy", "wb").name, {helper!r}))
attempt("set another process's oom score",
        lambda: open("/proc/{victim_pid}/oom_score_adj", "w").write("1000"))
attempt("open a terminal", lambda: os.close(os.open("/dev/ptmx", os.O_RDWR)))
"""
    try:
        record = play(write_bot(tmp_path / "bot", attack), mode)
        score = Path(f"/proc/{victim_pid}/oom_score_adj").read_text().strip()
    finally:
        os.kill(victim_pid, signal.SIGKILL)
    assert record.verdict.code == verdicts.OK, record.verdict
    text = said(record)
    assert "GOT write" not in text and "GOT replace" not in text and "GOT set" not in text, text
    assert score != "1000"
    if mode == "none":  # (under bubblewrap an ordinary user's bot has a /dev/pts of its own)
        assert "GOT open a terminal" not in text, text
    assert not (cache_dir() / "planted").exists()
    assert Path(helper).read_bytes() == before


@pytest.mark.needs_root("a slot's mount namespace is a root judge's without bubblewrap")
def test_without_bwrap_reading_a_file_stamps_nothing_and_sys_is_out_of_view(
        tmp_path: Path) -> None:
    # (under bubblewrap the tree is read-only, the probe not shown, /sys not shown)
    mode = "none"
    # an access time (relatime: set when a file is read after it was last changed) or
    # /sys (every slot's cgroup counters, the machine's memory) would carry a value
    # (not under /tmp, which the bot's own tmpfs covers; under /etc, which it may read)
    folder = Path(tempfile.mkdtemp(dir="/etc", prefix="judge-test-atime-"))
    try:
        folder.chmod(0o755)
        probe = folder / "probe"
        probe.write_text("x")
        probe.chmod(0o644)
        os.utime(probe, (1_000_000_000, 2_000_000_000))  # read since its last change: no
        attack = f"""
open({str(probe)!r}).read()
try:
    shown = sorted(os.listdir('/sys')) if os.path.isdir('/sys') else []
except PermissionError:  # (nor may it list it)
    shown = []
report(f"sys {{shown}}", True)
"""
        record = play(write_bot(tmp_path / "bot", attack), mode)
        assert record.verdict.code == verdicts.OK, record.verdict
        assert os.stat(probe).st_atime == 1_000_000_000
        assert "GOT sys []" in said(record), said(record)
    finally:
        remove_tree(folder)


# --- /proc: only what the runtimes read -----------------------------------------------------

#: the files of its own /proc/PID that a bot may open for reading (docs/sandbox.md says which
#: runtime reads each): every other file of /proc, its own and other processes', is refused
PROC_ALLOWED = {"/proc/self/maps", "/proc/self/cgroup", "/proc/self/mountinfo"}

#: a C bot that first tries to open for reading every file of /proc it can list, and every
#: name that a /proc, a process's and a thread's folder has here (given as NAMES: it may
#: list nothing), under /proc, its own (self, thread-self), its parent's and PID 1's; it
#: reports each one it opened (GOT OPEN: a file of /proc, not what a link such as exe or
#: fd/N leads to) and each folder it listed (GOT LIST)
PROC_WALKER = r"""
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

static const char *NAMES[] = {NAMES_HERE 0};

static void walk(const char *path, int depth) {
    struct stat st;
    if (lstat(path, &st) || S_ISLNK(st.st_mode)) {
        /* (a link to a file of its own that is not /proc's, as exe and fd/N: not counted) */
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        struct statfs fs;
        if (fd >= 0 && !fstat(fd, &st) && !S_ISDIR(st.st_mode) && !fstatfs(fd, &fs) &&
            fs.f_type == PROC_SUPER_MAGIC)
            fprintf(stderr, "GOT OPEN %s\n", path);
        if (fd >= 0) close(fd);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd >= 0) {
            fprintf(stderr, "GOT OPEN %s\n", path);
            close(fd);
        }
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) return;
    fprintf(stderr, "GOT LIST %s\n", path);
    struct dirent *ent;
    while (depth < 2 && (ent = readdir(dir))) {
        if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
        char sub[512];
        snprintf(sub, sizeof sub, "%s/%s", path, ent->d_name);
        walk(sub, depth + 1);
    }
    closedir(dir);
}

static void walk_proc(void) {
    char base[4][64], path[512];
    snprintf(base[0], 64, "/proc/self");
    snprintf(base[1], 64, "/proc/thread-self");
    snprintf(base[2], 64, "/proc/%d", (int)getppid());
    snprintf(base[3], 64, "/proc/1");
    fprintf(stderr, "GOT PID %d %d\n", (int)getpid(), (int)getppid());
    walk("/proc", 0);
    for (int k = 0; NAMES[k]; k++) {
        snprintf(path, sizeof path, "/proc/%s", NAMES[k]);
        walk(path, 1);
        for (int b = 0; b < 4; b++) {
            snprintf(path, sizeof path, "%s/%s", base[b], NAMES[k]);
            walk(path, 1);
        }
    }
    fprintf(stderr, "GOT DONE\n");
    fflush(stderr);
}
"""


def proc_names() -> list[str]:
    """Every name that /proc, a process's folder and a thread's folder hold here (and the
    first descriptors' entries), as the walker's NAMES."""
    names = set(os.listdir("/proc"))
    names |= set(os.listdir("/proc/self")) | set(os.listdir("/proc/thread-self"))
    names |= {f"{folder}/{fd}" for folder in ("fd", "fdinfo") for fd in range(5)}
    return sorted(name for name in names if not name.isdigit())


def proc_walker(folder: Path) -> Path:
    """The C first-pit bot that first walks /proc (`PROC_WALKER`)."""
    source = (BOTS / "first_pit.c").read_text()
    main = "int main(void) {\n"
    names = "".join(f'"{name}", ' for name in proc_names())
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "walker.c"
    path.write_text(PROC_WALKER.replace("NAMES_HERE", names)
                    + source.replace(main, main + "    walk_proc();\n"))
    return path


def needs_proc_allowlist(mode: str) -> None:
    """Skips where the tier does not hold the /proc allowlist: no exec helper, or no
    Landlock in the kernel."""
    from judge.sandbox.exec_helper import helper_path
    from judge.sandbox.tiers import landlock_abi

    if helper_path() is None:
        pytest.skip("the /proc allowlist is the exec helper's (no C compiler here)")
    if landlock_abi() < 1:
        pytest.skip("the /proc allowlist is a Landlock domain's (none in this kernel)")


def opened(record: GameRecord) -> tuple[set[str], set[str]]:
    """What the walker opened and listed, its own PID's and thread's folders named as
    /proc/self and /proc/thread-self."""
    text = said(record)
    assert "GOT DONE" in text, text[-2000:]
    pid, parent = seen_line(record, "PID").split()
    own = {f"/proc/{pid}/task/{pid}/": "/proc/thread-self/", f"/proc/self/task/{pid}/":
           "/proc/thread-self/", f"/proc/{pid}/": "/proc/self/"}

    def named(path: str) -> str:
        for prefix, name in own.items():
            if (path + "/").startswith(prefix):
                return (name + path[len(prefix):]).rstrip("/")
        return path

    found: dict[str, set[str]] = {"OPEN": set(), "LIST": set()}
    for line in text.splitlines():
        kind, _, path = line.removeprefix("GOT ").partition(" ")
        if line.startswith("GOT ") and kind in found:
            found[kind].add(named(path))
    return found["OPEN"], found["LIST"]


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_opens_only_the_allowlisted_files_of_its_own_proc(
        mode: str, tmp_path: Path) -> None:
    # (its page map, fdinfo, memory and every other process's files are out of reach:
    # each carried a channel between bots, docs/sandbox.md)
    needs_proc_allowlist(mode)
    limits = replace(LIMITS, stderr_bytes=1 << 20, first_move_seconds=20.0)
    record = play(proc_walker(tmp_path / "bot"), mode, limits)
    assert record.verdict.code == verdicts.OK, (record.verdict, said(record)[-2000:])
    files, folders = opened(record)
    assert files == PROC_ALLOWED, sorted(files ^ PROC_ALLOWED)[:50]
    assert folders == set(), sorted(folders)[:50]


#: a bot that makes an eventfd and looks for its eventfd-id (a number from one allocator of
#: the whole machine: a bot that holds a pattern of them tells it to another playing at once)
#: in every fdinfo that names it: its own, its thread's, and its forked child's
EVENTFD_READER = """
import json, threading
fd = os.eventfd(0)
def ids(extra=()):
    found = []
    for base in ("/proc/self", "/proc/thread-self", f"/proc/{os.getpid()}",
                 f"/proc/self/task/{threading.get_native_id()}", *extra):
        try:
            with open(f"{base}/fdinfo/{fd}") as fh:
                found += [line.strip() for line in fh if line.startswith("eventfd-id")]
        except OSError:
            pass
    return found
seen = ids()
thread = threading.Thread(target=lambda: seen.extend(ids()))
thread.start()
thread.join()
read_end, write_end = os.pipe()
child = os.fork()
if child == 0:
    os.write(write_end, json.dumps(ids([f"/proc/{os.getppid()}"])).encode())
    os._exit(0)
os.close(write_end)
os.waitpid(child, 0)
seen += json.loads(os.read(read_end, 1 << 16) or b"[]")
report(f"eventfd-id {seen}", bool(seen))
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_reads_no_eventfd_id(mode: str, tmp_path: Path) -> None:
    needs_proc_allowlist(mode)
    record = play(write_bot(tmp_path / "bot", EVENTFD_READER), mode)
    assert record.verdict.code == verdicts.OK, (record.verdict, said(record))
    assert "NOT eventfd-id []" in said(record), said(record)


#: a bot that reads the entry of one of its pages in its page map (whose present bit says
#: which pages of a shared file fault-around mapped: what is in the page cache), from
#: itself, a thread and a forked child
PAGEMAP_READER = """
import threading
def entries(extra=()):
    found = []
    for base in ("/proc/self", "/proc/thread-self", f"/proc/{os.getpid()}",
                 f"/proc/self/task/{threading.get_native_id()}", *extra):
        try:
            with open(f"{base}/pagemap", "rb") as fh:
                fh.seek(8 * (id(found) // 4096))
                found.append(fh.read(8).hex())
        except OSError:
            pass
    return found
seen = entries()
thread = threading.Thread(target=lambda: seen.extend(entries()))
thread.start()
thread.join()
read_end, write_end = os.pipe()
child = os.fork()
if child == 0:
    os.write(write_end, " ".join(entries([f"/proc/{os.getppid()}"])).encode())
    os._exit(0)
os.close(write_end)
os.waitpid(child, 0)
seen += os.read(read_end, 1 << 16).decode().split()
report(f"pagemap {seen}", bool(seen))
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_reads_no_page_map(mode: str, tmp_path: Path) -> None:
    needs_proc_allowlist(mode)
    record = play(write_bot(tmp_path / "bot", PAGEMAP_READER), mode)
    assert record.verdict.code == verdicts.OK, (record.verdict, said(record))
    assert "NOT pagemap []" in said(record), said(record)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_reads_nothing_but_the_system_its_runtime_and_its_own_file(
        mode: str, tmp_path: Path, secrets: dict[str, Path]) -> None:
    # without bubblewrap too (its Landlock domain reads what bubblewrap would show): not
    # another contestant's file, the database, the judge's cache or its sources, even with
    # the judge's uid (an ordinary user's judge)
    from judge.solvers.cache import cache_dir

    needs_proc_allowlist(mode)
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    in_cache = cache / f"judge-test-{os.getpid()}"
    in_cache.write_text("SECRET")
    in_cache.chmod(0o644)
    paths = [*map(str, secrets.values()), str(in_cache), str(ROOT / "README.md")]
    bot = write_bot(tmp_path / "contestants" / "me", reading_attack(paths))
    try:
        record = play(bot, mode)
    finally:
        in_cache.unlink()
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "GOT" not in said(record), said(record)
    assert said(record).count("NOT read") == len(paths), said(record)
