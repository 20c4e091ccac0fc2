"""--output and --output-dir replace no data: never a bot, the database, a source file or a
file the judge did not write (unless --force), each refused in one line with status 2 and
nothing written; what they write is written whole (beside its place, then renamed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
OPTIMAL = ROOT / "bots" / "nim" / "optimal.py"


@pytest.fixture()
def run(tmp_path: Path) -> Path:
    """A folder with run 1 of bot.py (one game) in r.db."""
    (tmp_path / "bot.py").write_bytes(OPTIMAL.read_bytes())
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db", "bot.py",
                cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    return tmp_path


def files(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` but the database's, by path, with its content."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith("r.db")}


@pytest.mark.parametrize("target, said", [
    ("notes.txt", "--output notes.txt exists and the judge did not write it (or it was "
     "changed since): give another file, or --force to replace it"),
    ("helper.py", "--output helper.py is a source file (.py): give another file, or --force "
     "to replace it"),
])
def test_output_replaces_no_file_the_judge_did_not_write_unless_forced(
        run: Path, target: str, said: str) -> None:
    (run / "notes.txt").write_text("the teacher's notes\n")
    (run / "helper.py").write_text("x = 1\n")
    before = files(run)
    out = judge("show", "1", "--db", "r.db", "--output", target, cwd=run)
    assert out.returncode == 2
    assert out.stderr.splitlines() == [f"judge: error: {said}"]
    assert files(run) == before
    forced = judge("show", "1", "--db", "r.db", "--output", target, "--force", cwd=run)
    assert forced.returncode == 0, forced.stderr
    assert (run / target).read_text().startswith("run 1: nim")


def test_output_replaces_what_the_judge_wrote_there(run: Path) -> None:
    for fmt in ("html", "json"):
        out = judge("show", "1", "--db", "r.db", "--format", fmt, "--output", "report",
                    cwd=run)
        assert out.returncode == 0, out.stderr
    assert (run / "report").read_text().startswith("{")
    (run / "report").write_text("edited by hand\n")
    again = judge("show", "1", "--db", "r.db", "--output", "report", cwd=run)
    assert again.returncode == 2 and "did not write it" in again.stderr


def test_output_never_replaces_a_bot_even_forced(run: Path) -> None:
    before = files(run)
    out = judge("show", "1", "--db", "r.db", "--output", "bot.py", "--force", cwd=run)
    assert out.returncode == 2 and "bot.py" in out.stderr
    assert files(run) == before


def test_output_dir_replaces_no_file_the_judge_did_not_write(run: Path) -> None:
    (run / "pages").mkdir()
    (run / "pages" / "bot.py.html").write_text("my own page\n")
    before = files(run)
    out = judge("show", "1", "--db", "r.db", "--format", "html", "--output-dir", "pages",
                cwd=run)
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "judge: error: --output-dir pages: pages/bot.py.html exists and the judge did not "
        "write it (or it was changed since): give another folder, or --force to replace it"]
    assert files(run) == before  # not even index.html
    forced = judge("show", "1", "--db", "r.db", "--format", "html", "--output-dir", "pages",
                   "--force", cwd=run)
    assert forced.returncode == 0, forced.stderr
    again = judge("show", "1", "--db", "r.db", "--format", "html", "--output-dir", "pages",
                  cwd=run)
    assert again.returncode == 0, again.stderr  # its own files


def test_output_is_written_beside_its_place_and_renamed(run: Path) -> None:
    out = judge("show", "1", "--db", "r.db", "--output", "table.txt", cwd=run)
    assert out.returncode == 0, out.stderr
    os.link(run / "table.txt", run / "old.txt")  # the file as it was, by another name
    again = judge("show", "1", "--db", "r.db", "--format", "json", "--output", "table.txt",
                  cwd=run)
    assert again.returncode == 0, again.stderr
    assert (run / "old.txt").read_text().startswith("run 1")  # not written over in place
    assert (run / "table.txt").read_text().startswith("{")
