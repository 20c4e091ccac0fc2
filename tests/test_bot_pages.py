"""A page per bot for its author: `--format html --output-dir DIR`, for `run` and `show`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.command import judge, show
from tests.test_feedback import payloads, run  # noqa: F401 - the stored run

__all__ = ["run"]


def test_each_bots_page_holds_only_its_games_and_names_no_other_bot(run: Path) -> None:
    show(run, "--format", "html", "--output-dir", "pages", "--share", "--feedback",
         "mistakes")
    every = json.loads(show(run, "--format", "json"))["games"]
    for name, other in (("alice", "bob"), ("bob", "alice")):
        page = (run / "pages" / f"{name}.html").read_text()
        games = payloads(page)
        mine = [n for n, g in enumerate(every, 1) if g["bot"].startswith(name + "/")]
        assert [g["n"] for g in games] == mine  # numbered as in the whole run
        assert all(name in g["p"] for g in games)
        # its file by its name alone, in the command its author runs: no folder of the run
        assert other not in page and "/main.py" not in page and str(run) not in page
        assert re.search(r'id="reproduce">[^<]* main\.py</pre>', page)
        assert all("pf" not in g and len(m) == 4 for g in games for m in g["m"])


def test_the_index_links_every_bots_page(run: Path) -> None:
    show(run, "--format", "html", "--output-dir", "index")
    index = (run / "index" / "index.html").read_text()
    assert re.findall(r'href="([^"]+)"', index) == ["alice.html", "bob.html"]
    assert sorted(p.name for p in (run / "index").iterdir()) == [
        "alice.html", "bob.html", "index.html"]


def test_run_writes_the_pages_too(run: Path) -> None:
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", "p.db",
                "--jobs", "1", "--format", "html", "--output-dir", "run-pages",
                "--feedback", "results", "alice/main.py", "bob/main.py", cwd=run)
    assert out.returncode == 0, out.stderr
    page = (run / "run-pages" / "alice.html").read_text()
    assert all(m[3] == "" for g in payloads(page) for m in g["m"])
    # files only: stdout says what was written where, in one line, and holds no page
    assert out.stdout == "judge: wrote 3 files to run-pages (index.html, alice.html, bob.html)\n"


def test_show_writes_the_pages_only_and_one_line(run: Path) -> None:
    out = judge("show", "1", "--db", "r.db", "--format", "html", "--output-dir", "only/",
                "--feedback", "mistakes", "--share", cwd=run)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "judge: wrote 3 files to only/ (index.html, alice.html, bob.html)\n"
    assert "<html" not in out.stderr
    assert sorted(p.name for p in (run / "only").iterdir()) == [
        "alice.html", "bob.html", "index.html"]


def test_the_whole_page_goes_to_output_beside_the_pages(run: Path) -> None:
    out = judge("show", "1", "--db", "r.db", "--format", "html", "--output", "class.html",
                "--output-dir", "both", cwd=run)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("judge: wrote 3 files to both (") and \
        out.stdout.count("\n") == 1
    assert payloads((run / "class.html").read_text())  # the whole run's page, every game
    assert (run / "both" / "index.html").exists()
