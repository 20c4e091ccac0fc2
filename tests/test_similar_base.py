"""Starter code and common ground are not copying: `judge run --base FILE... --common SHARE`
keeps them with the run, `judge show RUN --similar` (text, JSON, page) says what it did
not count, and gives them again for a run graded without."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from similar_sets import STUDENTS, begun_from_greedy
from test_narrow import ROOT, judge

from judge.kinds.grading import GradingPlan
from judge.plan import BotSource, from_config

DATA = Path(__file__).parent / "data" / "similar"
OTHERS = ("nim_loop", "nim_class")  # written apart


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """Run 1 of r.db: the five graded without --base; run 2: with the sample bot as base."""
    folder = tmp_path_factory.mktemp("base")
    shutil.copy(ROOT / "bots/nim/greedy.py", folder / "starter.py")
    for name in STUDENTS:
        (folder / name).mkdir()
        (folder / name / "main.py").write_text(begun_from_greedy(name))
    for name in OTHERS:
        (folder / name).mkdir()
        shutil.copy(DATA / "apart" / f"{name}.py", folder / name / "main.py")
    (folder / "dan").mkdir()  # and dan copied ann's, names changed
    (folder / "dan/main.py").write_text((folder / "ann/main.py").read_text().replace(
        "total", "acc").replace("size", "pile").replace("I can", "possible"))
    (folder / "starts.txt").write_text("1 2 4\n")
    bots = [f"{name}/main.py" for name in (*STUDENTS, "dan", *OTHERS)]
    for base in ([], ["--base", "starter.py"]):
        out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db", *bots,
                    *base, cwd=folder)
        assert out.returncode == 0, out.stderr
    return folder


def marked(folder: Path, run: str) -> dict[str, list[str]]:
    out = judge("show", run, "--db", "r.db", "--format", "json", cwd=folder)
    return {b["bot"]: b["same_source"] for b in json.loads(out.stdout)["bots"]}


def test_students_begun_from_the_starter_are_marked_only_without_it(graded):
    assert marked(graded, "1")["ann/main.py"] == ["bob/main.py", "cem/main.py", "dan/main.py"]
    with_base = marked(graded, "2")
    assert with_base.pop("ann/main.py") == ["dan/main.py"]  # a copy all the same
    assert with_base.pop("dan/main.py") == ["ann/main.py"]
    assert all(others == [] for others in with_base.values())


def test_similar_names_the_passages_of_the_base_file_it_did_not_count(graded):
    out = judge("show", "2", "--db", "r.db", "--similar", cwd=graded)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "1 pair of programs" in text and "passages of the base files (--base)" in text
    assert "not counted, in the 6 programs: 8 passages of the base files" in text
    # the starter's lines before and after ann's own choose()
    assert "not counted (in a base file): ann/main.py lines 1-12, 21-36 (144 tokens)" in text
    found = json.loads(judge("show", "2", "--db", "r.db", "--similar", "--format", "json",
                             cwd=graded).stdout)
    assert found["base"] == ["starter.py"] and found["discounted"]["base"] >= 8
    assert found["discounted"]["common"] == 0
    [pair] = found["pairs"]
    assert pair["bots"] == ["ann/main.py", "dan/main.py"] and pair["similarity"] > 0.9
    assert {p["why"] for side in pair["discounted"] for p in side} == {"base"}


def test_show_gives_a_base_file_or_a_common_share_to_a_run_graded_without(graded):
    whole = json.loads(judge("show", "1", "--db", "r.db", "--similar", "--format", "json",
                             cwd=graded).stdout)
    assert len(whole["pairs"]) == 6 and whole["discounted"] == {"base": 0, "common": 0}
    given = judge("show", "1", "--db", "r.db", "--similar", "--base", "starter.py",
                  cwd=graded)
    assert given.returncode == 0, given.stderr
    assert "1 pair of programs" in given.stdout and "ann/main.py, dan/main.py" not in \
        given.stdout and "ann/main.py (" in given.stdout
    # the starter's passages are in four programs of six: more than half
    common = json.loads(judge("show", "1", "--db", "r.db", "--similar", "--common", "0.5",
                              "--format", "json", cwd=graded).stdout)
    assert [p["bots"] for p in common["pairs"]] == [["ann/main.py", "dan/main.py"]]
    assert common["common"] == 0.5 and common["discounted"]["common"] >= 8


def test_the_page_lists_each_common_part_with_its_length_and_greys_what_is_not_counted(
        graded):
    page = judge("show", "1", "--db", "r.db", "--similar", "--format", "html",
                 cwd=graded).stdout
    assert '<table class="parts">' in page and 'data-part="1"' in page
    assert re.search(r'<tr class="p1" data-part="1"><td>1</td><td>lines \d+-\d+</td>'
                     r'<td>lines \d+-\d+</td><td>\d+</td></tr>', page)
    assert 'data-not-counted' not in page
    low = judge("show", "2", "--db", "r.db", "--similar", "1", "--format", "html",
                cwd=graded).stdout
    assert 'data-not-counted="base"' in low and "in a base file: not counted" in low
    assert "starter.py" in low


@pytest.mark.parametrize("words, message", [
    (["ann/main.py", "--base", "notes.txt"], "--base notes.txt: not a language compared"),
    (["ann/main.py", "--base", "gone.py"], "--base gone.py: cannot be read (No such file"),
    (["ann/main.py", "--common", "0"], "give a share of the programs, above 0 and at most 1"),
    (["--base", "starter.py", "ann/main.py"], "give the bots before --base, or after --"),
    (["ann/main.py", "--base", "fifo.py"], "--base fifo.py: cannot be read (not a file)"),
    (["ann/main.py", "--base", "zero.py"], "--base zero.py: cannot be read (not a file)"),
    (["ann/main.py", "--base", "huge.py"], "--base huge.py: cannot be read (over 64 MiB)"),
    (["ann/main.py", "--base", "kit.py"], "--base kit.py: a folder: give its files "
                                          "(--base kit.py/*)"),
])
def test_a_bad_base_or_share_is_refused_in_one_line_before_any_game(graded, words, message):
    """(A FIFO, a link to /dev/zero or a sparse file of 2 GiB as a base file hung the judge
    or filled its memory; a folder was taken, and not compared at the report.)"""
    (graded / "notes.txt").write_text("not a program\n")
    if not (graded / "fifo.py").exists():
        os.mkfifo(graded / "fifo.py")
        (graded / "zero.py").symlink_to("/dev/zero")
        with open(graded / "huge.py", "wb") as fh:
            fh.truncate(2 << 30)
        (graded / "kit.py").mkdir()
        shutil.copy(graded / "starter.py", graded / "kit.py")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "bad.db", *words,
                cwd=graded, timeout=60)
    assert out.returncode == 2 and message in out.stderr.splitlines()[-1]
    assert not (graded / "bad.db").exists()


def test_base_and_common_stay_with_the_run(graded):
    out = judge("run", "--resume", "2", "--db", "r.db", "--base", "starter.py", cwd=graded)
    assert out.returncode == 2 and "drop --base" in out.stderr
    out = judge("show", "1", "--db", "r.db", "--base", "starter.py", cwd=graded)
    assert out.returncode == 2 and "go with --similar" in out.stderr
    plan = GradingPlan(game="nim", bots=("a.py",), base=(BotSource("s.py", "0" * 64),),
                       common=0.5)
    again = from_config("run", plan.to_config())
    assert again.base == plan.base and again.common == 0.5
    argv = plan.to_argv()
    assert argv[argv.index("--base") + 1:argv.index("--base") + 3] == ["s.py", "--sandbox"]
    assert argv[argv.index("--common") + 1] == "0.5" and argv[-1] == "a.py"
