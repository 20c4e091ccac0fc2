"""A results database the judge cannot read as it is: damaged (a page overwritten),
another user's, or in a folder that does not exist; each one line and status 2."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
OPTIMAL = str(ROOT / "bots" / "nim" / "optimal.py")
PAGE = 4096


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with run 1 of four games."""
    folder = tmp_path_factory.mktemp("db")
    (folder / "starts.txt").write_text("1 2\n3 4 5\n1 1 1\n2 3\n")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db", OPTIMAL,
                cwd=folder)
    assert out.returncode == 0, out.stderr
    return folder / "r.db"


def damaged(whole: Path, folder: Path, page: int) -> Path:
    """A copy of `whole` in `folder` with its page `page` (from 1) overwritten."""
    with sqlite3.connect(whole) as db:
        assert db.execute("PRAGMA page_size").fetchone() == (PAGE,)
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    assert root == (4,)  # the games' page, which the tests below overwrite
    copy = folder / "d.db"
    copy.write_bytes(whole.read_bytes())
    with open(copy, "r+b") as fh:
        fh.seek((page - 1) * PAGE)
        fh.write(b"\xff" * PAGE)
    return copy


COMMANDS = [
    ["serve", "--port", "0", "--no-browser"],  # refused before it serves
    ["show", "1"],
    ["show", "1", "--format", "html"],
    ["run", "--resume", "1"],
    ["run", "--game", "nim", OPTIMAL],
    ["tournament", "--game", "nim", OPTIMAL, str(ROOT / "bots" / "nim" / "random.py")],
]


@pytest.mark.parametrize("page, why", [(4, "database disk image is malformed"),
                                       (1, "file is not a database")])
@pytest.mark.parametrize("args", COMMANDS)
def test_a_damaged_database_is_one_line_naming_how_to_save_the_rest(
        whole: Path, tmp_path: Path, args: list[str], page: int, why: str) -> None:
    db = damaged(whole, tmp_path, page)
    before = db.read_bytes()
    out = judge(*args, "--db", str(db), cwd=tmp_path, timeout=120)  # (a server would serve on)
    assert out.returncode == 2, out.stderr
    said = out.stderr.splitlines()
    assert len(said) == 1 and said[0].startswith(
        f"judge: error: the results database {db} is damaged ({why}")  # (and where, if known)
    assert said[0].endswith(f"): `judge show --export-db COPY --db {db}` copies what can "
                            f"still be read, and sqlite3's .recover may save more")
    assert db.read_bytes() == before  # nothing played into it


def test_export_db_of_a_damaged_database_says_what_it_could_not_copy(
        whole: Path, tmp_path: Path) -> None:
    db = damaged(whole, tmp_path, 4)
    out = judge("show", "--db", str(db), "--export-db", "copy.db", cwd=tmp_path)
    assert out.returncode == 2
    assert "damaged" in out.stderr and "run 1: its games could not be read" in out.stderr
    assert len(out.stderr.splitlines()) == 1
    with sqlite3.connect(tmp_path / "copy.db") as copy:  # the runs it could read, whole
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT id FROM runs").fetchall() == [(1,)]
    shown = judge("show", "--db", "copy.db", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr


def test_export_db_of_a_whole_database_checks_the_copy(whole: Path, tmp_path: Path) -> None:
    out = judge("show", "--db", str(whole), "--export-db", "copy.db", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "1 run and 4 games" in out.stdout


def refusal_as_another_user(db: Path, read_only: bool) -> str:
    """The `InputError` that opening `db` gives a user who may not read it: as root, in a
    child process that became the user nobody (root reads every file whatever its mode);
    else this user's, the file's mode 000."""
    from judge.games.base import InputError
    from judge.store import Store

    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: nobody, or this user
        try:
            os.close(reading)
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setgroups([])
                os.setuid(65534)
            try:
                Store(db, read_only=read_only).close()
                said = "opened"
            except InputError as exc:
                said = str(exc)
            os.write(writing, said.encode())
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading) as fh:
        said = fh.read()
    os.waitpid(pid, 0)
    return said


@pytest.mark.parametrize("read_only", [True, False])
def test_another_users_database_says_permission_denied(whole: Path, read_only: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o777)
        db = Path(folder) / "theirs.db"
        db.write_bytes(whole.read_bytes())
        db.chmod(0o600 if os.geteuid() == 0 else 0)  # root's file, or one nobody may read
        said = refusal_as_another_user(db, read_only)
    assert said == (f"the results database {db} cannot be read: permission denied (its "
                    f"owner or mode): give another --db")


@pytest.mark.parametrize("command", [["show"], ["run", "--game", "nim", OPTIMAL]])
def test_a_database_in_a_folder_that_does_not_exist_says_so(tmp_path: Path,
                                                             command: list[str]) -> None:
    out = judge(*command, "--db", "nosuch/x.sqlite", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1] == ("judge: error: --db nosuch/x.sqlite: the folder "
                                           "nosuch does not exist")
    assert not (tmp_path / "nosuch").exists()
