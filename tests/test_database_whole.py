"""The results database is whole in its one file whenever the judge has ended (its
write-ahead log copied in), and `judge show --export-db` copies it whole while a judge plays."""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge import store as store_module
from judge.kinds.grading import GradingPlan
from judge.records import PlayedGame
from judge.store import Store
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"
#: a Nim bot that thinks 0.2 s a move and takes the first heap whole: a game of one heap
#: is about a quarter of a second, so a run of 40 can be stopped part-way
SLOW = "import sys, time\nfor line in sys.stdin:\n    time.sleep(0.2)\n" \
       "    print(1, line.split()[0], flush=True)\n"


def alone(db: Path, folder: Path) -> Path:
    """The database file copied alone (no -wal, no -shm beside it) into `folder`."""
    folder.mkdir(exist_ok=True)
    copy = folder / db.name
    shutil.copyfile(db, copy)
    return copy


def counted(db: Path) -> tuple[int, int, list[float | None]]:
    """The runs and games of the database file `db`, and each run's `finished`, read
    without writing (a reader does not copy a log in)."""
    with contextlib.closing(sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)) as c:
        runs = [row[0] for row in c.execute("SELECT finished FROM runs ORDER BY id")]
        games = c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    return len(runs), games, runs


def stored_now(db: Path) -> int:
    """Games stored so far in the database a judge is writing (0 before it has tables)."""
    if not db.exists():
        return 0
    try:
        return counted(db)[1]
    except sqlite3.OperationalError:
        return 0


@contextlib.contextmanager
def slow_run(folder: Path, games: int = 2) -> Iterator[subprocess.Popen[str]]:
    """A judge grading the slow bot on 40 starts in `folder` (database r.db), once it has
    stored `games` games; killed at the end if still running."""
    (folder / "slow.py").write_text(SLOW)
    (folder / "starts.txt").write_text("".join(f"{n}\n" for n in range(1, 41)))
    # Ctrl-C reaches the judge even where the tests run with SIGINT ignored (nohup, &)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "judge", "run", "--game", "nim", "--jobs", "1", "--db",
             "r.db", "--tests", "starts.txt", "slow.py"],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, before)
    try:
        deadline = time.monotonic() + 60
        while stored_now(folder / "r.db") < games:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


NIM_RUNS = {
    "run": ["run", "--game", "nim", "--tests", "starts.txt", str(NIM / "greedy.py")],
    "tournament": ["tournament", "--game", "nim", "--starts", "starts.txt", "--gauntlet",
                   "optimal", str(NIM / "random.py")],
    "match": ["match", "--game", "nim", "--max-games", "4", "--seed", "5",
              str(NIM / "optimal.py"), str(NIM / "random.py")],
}


@pytest.mark.parametrize("command", sorted(NIM_RUNS))
def test_after_a_command_ends_the_file_alone_holds_every_game(tmp_path: Path,
                                                              command: str) -> None:
    (tmp_path / "starts.txt").write_text("3 4 5\n1 2\n7\n")
    out = judge(*NIM_RUNS[command], "--db", "r.db", "--jobs", "1", "--format", "json",
                cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    played = len(json.loads(out.stdout)["games"])
    assert played >= 2
    runs, games, finished = counted(alone(tmp_path / "r.db", tmp_path / "copy"))
    assert (runs, games) == (1, played) and finished[0] is not None


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)],
                         ids=["SIGTERM", "Ctrl-C"])
def test_a_run_stopped_part_way_leaves_the_games_stored_in_the_file_alone(
        tmp_path: Path, sig: signal.Signals, status: int) -> None:
    with slow_run(tmp_path) as proc:
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == status
    everything = counted(tmp_path / "r.db")  # the file with whatever is beside it
    runs, games, finished = counted(alone(tmp_path / "r.db", tmp_path / "copy"))
    assert 2 <= games < 40 and (runs, games) == everything[:2]
    assert finished == [None]  # interrupted: resumable


def test_a_run_stopped_by_an_error_leaves_the_games_stored_in_the_file_alone(
        tmp_path: Path) -> None:
    with slow_run(tmp_path) as proc:
        with (tmp_path / "slow.py").open("a") as bot:  # another program: the run stops
            bot.write("# changed\n")
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 1 and "changed" in err
    runs, games, _ = counted(alone(tmp_path / "r.db", tmp_path / "copy"))
    assert 2 <= games < 40 and (runs, games) == counted(tmp_path / "r.db")[:2]


def test_export_db_copies_the_games_stored_so_far_while_a_judge_plays(tmp_path: Path) -> None:
    with slow_run(tmp_path, games=3) as proc:
        out = judge("show", "--db", "r.db", "--export-db", "copy.sqlite", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        later = stored_now(tmp_path / "r.db")
        assert proc.poll() is None  # the run went on, its database in use
    assert out.stdout.startswith("judge: wrote copy.sqlite: a copy of r.db with 1 run and ")
    assert out.stdout.count("\n") == 1
    copy = alone(tmp_path / "copy.sqlite", tmp_path / "moved")  # one file, nothing beside it
    runs, games, finished = counted(copy)
    assert runs == 1 and 3 <= games <= later and finished == [None]
    assert f"and {games} games" in out.stdout
    assert (tmp_path / "copy.sqlite").stat().st_mode & 0o777 == 0o600
    listed = judge("show", "--db", str(copy), "--format", "json", cwd=tmp_path)
    assert listed.returncode == 0 and f'"games": {games}' in listed.stdout


@pytest.fixture()
def database(tmp_path: Path) -> Path:
    """A results database with one run of two games, closed."""
    path = tmp_path / "r.db"
    with Store(path) as store:
        run = store.create_run(GradingPlan(game="nim", rules="misere=off", bots=("a.py",)))
        for start in ("1", "2"):
            store.add_game(run, f"a.py|{start}|0", PlayedGame(
                "nim misere=off", start, ("a.py", "optimal"), results=("win", "loss")))
    return path


@pytest.mark.parametrize("target, says", [
    ("r.db", "exists"),  # the database itself
    ("old.sqlite", "exists"),
    ("missing/x.sqlite", "not a folder that can be written"),
    (".", "exists"),
])
def test_export_db_refuses_a_bad_file_with_status_2_and_leaves_nothing(
        database: Path, target: str, says: str) -> None:
    folder = database.parent
    (folder / "old.sqlite").write_text("keep me")

    def files() -> dict[str, bytes]:  # (a reader may make the database's -wal and -shm)
        return {p.name: p.read_bytes() for p in folder.iterdir()
                if p.is_file() and not p.name.startswith("r.db-")}

    before = files()
    out = judge("show", "--db", "r.db", "--export-db", target, cwd=folder)
    assert out.returncode == 2 and says in out.stderr and out.stdout == ""
    assert files() == before  # nothing overwritten, no temporary file left


def test_export_db_is_given_alone(database: Path) -> None:
    out = judge("show", "1", "--db", "r.db", "--export-db", "x.sqlite", cwd=database.parent)
    assert out.returncode == 2 and "give it alone" in out.stderr
    assert not (database.parent / "x.sqlite").exists()


def test_a_store_left_by_an_error_is_whole_in_its_file(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    other = Store(path)  # another judge's connection, open throughout: SQLite itself
    # copies the log in only when the last connection closes
    with pytest.raises(RuntimeError), Store(path) as store:
        run = store.create_run(GradingPlan(game="nim", rules="misere=off", bots=("a.py",)))
        store.add_game(run, "a.py|1|0", PlayedGame("nim misere=off", "1", ("a.py", "optimal"),
                                                   results=("win", "loss")))
        raise RuntimeError("the judge failed")
    assert counted(alone(path, tmp_path / "copy"))[:2] == (1, 1)
    other.close()


def test_a_reader_that_holds_the_log_is_named_at_close(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(store_module, "CHECKPOINT_WAIT_MS", 50)
    path = tmp_path / "r.db"
    store = Store(path)
    reader = sqlite3.connect(path)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM runs").fetchone()  # a snapshot before the run
    store.create_run(GradingPlan(game="nim", rules="misere=off", bots=("a.py",)))
    store.close()
    assert "the last games stored are still in r.db-wal" in capsys.readouterr().err
    reader.rollback()
    reader.close()
    assert counted(path)[0] == 1  # nothing lost: the run is in the log beside the file
