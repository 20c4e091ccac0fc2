"""Bots flagged as one program: files with the same content, and bots that played the same
moves in every game, in the table, the JSON and the HTML report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_narrow import ROOT, judge

from judge.records import PlayedGame
from judge.summaries import same_play

OPTIMAL = ROOT / "bots/nim/optimal.py"
#: a folder name a browser would take for markup, were it not escaped
HOSTILE = "<i>eve&amp;"


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """Run 1 of r.db: alice's and eve's files the same, carol's the same program with a
    comment more (so the same moves), and greedy."""
    folder = tmp_path_factory.mktemp("twins")
    for name in ("alice", HOSTILE, "carol"):
        (folder / name).mkdir()
        shutil.copy(OPTIMAL, folder / name / "main.py")
    with open(folder / "carol/main.py", "a") as fh:
        fh.write("# carol's own\n")
    shutil.copy(ROOT / "bots/nim/greedy.py", folder / "greedy.py")
    (folder / "starts.txt").write_text("1 2 4\n3 4 5\n2 2 7\n")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db",
                "alice/main.py", f"{HOSTILE}/main.py", "carol/main.py", "greedy.py",
                cwd=folder)
    assert out.returncode == 0, out.stderr
    return folder


def test_json_names_for_each_bot_the_bots_it_is_one_program_with(graded):
    out = judge("show", "1", "--db", "r.db", "--format", "json", cwd=graded)
    bots = {b["bot"]: b for b in json.loads(out.stdout)["bots"]}
    assert bots["alice/main.py"]["same_file"] == [f"{HOSTILE}/main.py"]
    assert bots["carol/main.py"]["same_file"] == []
    assert bots["carol/main.py"]["same_moves"] == ["alice/main.py", f"{HOSTILE}/main.py"]
    assert bots["greedy.py"]["same_file"] == bots["greedy.py"]["same_moves"] == []


@pytest.mark.parametrize("wide", [[], ["--wide"]])
def test_the_table_marks_them_and_says_why_under_it(graded, wide):
    out = judge("show", "1", "--db", "r.db", *wide, cwd=graded).stdout
    rows = {line.split()[0]: line for line in out.splitlines() if "main.py" in line[:20]}
    assert "=1" in rows["alice/main.py"] and "~1" in rows["alice/main.py"]
    assert "=1" not in rows["carol/main.py"] and "~1" in rows["carol/main.py"]
    assert "=1" not in rows.get("greedy.py", "")
    text = " ".join(out.split())
    assert f"=1: alice/main.py, {HOSTILE}/main.py have the same file content" in text
    assert (f"~1: alice/main.py, {HOSTILE}/main.py, carol/main.py played the same moves "
            "in every game") in text


def test_the_html_report_marks_them_with_the_names_escaped(graded):
    page = judge("show", "1", "--db", "r.db", "--format", "html", cwd=graded).stdout
    assert '<ul id="twins">' in page and 'data-mark="~1"' in page
    assert HOSTILE not in page and "&lt;i&gt;eve&amp;amp;" in page


def record(start: str, moves: list[str], bot: str) -> tuple[PlayedGame, int]:
    """A game of `bot` as the first player from `start` with these moves."""
    from judge.records import MoveRecord

    return (PlayedGame("nim", start, (bot, "optimal"), results=("win", "loss"),
                       moves=tuple(MoveRecord(i % 2, m, None) for i, m in enumerate(moves))), 0)


def test_same_moves_means_every_game_and_bots_that_never_moved_are_not_twins():
    played = [("a", [record("1 2", ["1 1", "2 1"], "a"), record("3", ["1 3"], "a")]),
              ("b", [record("1 2", ["1 1", "2 1"], "b"), record("3", ["1 3"], "b")]),
              ("c", [record("1 2", ["1 1", "2 1"], "c"), record("3", ["1 2"], "c")]),
              ("x", [record("1 2", [], "x")]), ("y", [record("1 2", [], "y")])]
    assert same_play(played) == [("a", "b")]


@pytest.mark.parametrize("fmt", ["json", "table", "html"])
def test_a_shared_output_names_bots_by_their_names_and_flags_no_one(graded, fmt):
    # (which students look alike is the teacher's to know: not on the page for the class)
    out = judge("show", "1", "--db", "r.db", "--format", fmt, "--share", cwd=graded)
    assert out.returncode == 0, out.stderr
    assert "main.py" not in out.stdout and str(graded) not in out.stdout
    assert "the same program" not in out.stdout
    if fmt == "json":
        bots = {b["bot"]: b for b in json.loads(out.stdout)["bots"]}
        assert bots["carol"]["same_moves"] == []
    else:
        assert "alice" in out.stdout and "carol" in out.stdout
