"""Bots flagged as one program: files with the same content, sources mostly in common
(a renamed copy), and bots that made the same mistakes in the same positions, in the table,
the JSON and the HTML report; `judge show RUN --similar` says where."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from test_narrow import ROOT, judge

from judge.kinds.grading import same_mistakes
from judge.records import PlayedGame

OPTIMAL = ROOT / "bots/nim/optimal.py"
#: a folder name a browser would take for markup, were it not escaped
HOSTILE = "<i>eve&amp;"
#: two weak programs written apart, alike in what they do: each takes the whole of the
#: first largest heap
GREEDY_ONE = """import sys
heaps = None
while True:
    line = sys.stdin.readline()
    if not line:
        break
    numbers = [int(x) for x in line.split()]
    if heaps is None:
        heaps = numbers
    else:
        heaps[numbers[0] - 1] -= numbers[1]
    if sum(heaps) > 0:
        big = max(heaps)
        i = heaps.index(big)
        heaps[i] = 0
        sys.stdout.write(f"{i + 1} {big}\\n")
        sys.stdout.flush()
"""
GREEDY_TWO = """#!/usr/bin/env python3
def main():
    state = []
    try:
        state = list(map(int, input().split()))
        while True:
            if any(state):
                top = 0
                for k in range(len(state)):
                    if state[k] > state[top]:
                        top = k
                print(top + 1, state[top], flush=True)
                state[top] = 0
            h, c = input().split()
            state[int(h) - 1] -= int(c)
    except EOFError:
        pass

main()
"""


def renamed(text: str) -> str:
    """`text` with its names changed and its comments gone: a copy as a student hides it."""
    for old, new in (("heaps", "piles"), ("choose", "pick_move"), ("heap", "pile"),
                     ("count", "amount"), ("total", "x"), ("size", "n"), ("largest", "big")):
        text = re.sub(rf"\b{old}\b", new, text)
    return re.sub(r"  # .*", "", text)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """Run 1 of r.db: alice's and eve's files the same, carol's a renamed copy of them
    (the same source), and two greedy bots written apart (the same mistakes)."""
    folder = tmp_path_factory.mktemp("twins")
    for name in ("alice", HOSTILE, "carol"):
        (folder / name).mkdir()
        shutil.copy(OPTIMAL, folder / name / "main.py")
    (folder / "carol/main.py").write_text(renamed(OPTIMAL.read_text()))
    for name, text in (("gus", GREEDY_ONE), ("gil", GREEDY_TWO)):
        (folder / name).mkdir()
        (folder / name / "main.py").write_text(text)
    (folder / "starts.txt").write_text("1 2 4\n3 4 5\n2 2 7\n")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db",
                "alice/main.py", f"{HOSTILE}/main.py", "carol/main.py", "gus/main.py",
                "gil/main.py", cwd=folder)
    assert out.returncode == 0, out.stderr
    return folder


def test_json_names_for_each_bot_the_bots_it_is_one_program_with(graded):
    out = judge("show", "1", "--db", "r.db", "--format", "json", cwd=graded)
    bots = {b["bot"]: b for b in json.loads(out.stdout)["bots"]}
    assert bots["alice/main.py"]["same_file"] == [f"{HOSTILE}/main.py"]
    assert bots["carol/main.py"]["same_file"] == []
    assert bots["carol/main.py"]["same_source"] == ["alice/main.py", f"{HOSTILE}/main.py"]
    # perfect play is the same in every correct program: no evidence of a copy
    assert bots["carol/main.py"]["same_mistakes"] == []
    assert bots["gus/main.py"]["same_mistakes"] == ["gil/main.py"]
    assert bots["gus/main.py"]["same_source"] == bots["gus/main.py"]["same_file"] == []


@pytest.mark.parametrize("wide", [[], ["--wide"]])
def test_the_table_marks_them_and_says_why_under_it(graded, wide):
    out = judge("show", "1", "--db", "r.db", *wide, cwd=graded).stdout
    rows = {line.split()[0]: line for line in out.splitlines() if "main.py" in line[:20]}
    assert "=1" in rows["alice/main.py"] and "%1" in rows["alice/main.py"]
    assert "=1" not in rows["carol/main.py"] and "%1" in rows["carol/main.py"]
    assert "~1" in rows["gus/main.py"] and "~1" in rows["gil/main.py"]
    assert "%1" not in rows["gus/main.py"] and "~1" not in rows["alice/main.py"]
    text = " ".join(out.split())
    assert f"=1: alice/main.py, {HOSTILE}/main.py have the same file content" in text
    assert (f"%1: alice/main.py, {HOSTILE}/main.py, carol/main.py have most of their source "
            "in common") in text
    assert "~1: gus/main.py, gil/main.py made the same mistakes in the same positions" in text


def test_the_html_report_marks_them_with_the_names_escaped(graded):
    page = judge("show", "1", "--db", "r.db", "--format", "html", cwd=graded).stdout
    assert '<ul id="twins">' in page and 'data-mark="%1"' in page
    assert 'data-mark="~1"' in page
    assert HOSTILE not in page and "&lt;i&gt;eve&amp;amp;" in page


def test_similar_says_how_much_and_where_even_from_another_folder(graded, tmp_path):
    out = judge("show", "1", "--db", str(graded / "r.db"), "--similar", "--format", "json",
                cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    pairs = {tuple(p["bots"]): p for p in found["pairs"]}
    assert set(pairs) == {("alice/main.py", f"{HOSTILE}/main.py"),
                          ("alice/main.py", "carol/main.py"),
                          (f"{HOSTILE}/main.py", "carol/main.py")}
    renamed_copy = pairs[("alice/main.py", "carol/main.py")]
    assert renamed_copy["similarity"] >= 0.9
    lines = len(OPTIMAL.read_text().splitlines())
    assert any(r["last"][0] >= lines - 3 for r in renamed_copy["regions"])
    # a lower threshold shows more pairs, the weak programs never with the copies
    low = json.loads(judge("show", "1", "--db", str(graded / "r.db"), "--similar", "1",
                           "--format", "json", cwd=tmp_path).stdout)
    assert len(low["pairs"]) >= len(found["pairs"])


def test_similar_as_a_page_shows_both_sources_escaped_and_is_never_shared(graded):
    page = judge("show", "1", "--db", "r.db", "--similar", "--format", "html",
                 cwd=graded).stdout
    assert page.count('<section class="pair"') == 3
    assert "pick_move" in page and "choose" in page  # both sides, the common parts marked
    assert 'data-part="1"' in page
    assert HOSTILE not in page and "&lt;i&gt;eve&amp;amp;" in page
    shared = judge("show", "1", "--db", "r.db", "--similar", "--share", cwd=graded)
    assert shared.returncode == 2 and "no --share" in shared.stderr


def test_a_file_changed_since_the_run_is_named_not_compared(tmp_path):
    for name in ("ann", "bob", "cid"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.py").write_text(renamed(OPTIMAL.read_text()) + f"# {name}\n")
    (tmp_path / "starts.txt").write_text("1 2 4\n")
    assert judge("run", "--game", "nim", "--tests", "starts.txt", "ann/main.py",
                 "bob/main.py", "cid/main.py", cwd=tmp_path).returncode == 0
    (tmp_path / "cid/main.py").write_text("print('changed')\n")
    out = judge("show", "1", "--similar", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "cid/main.py (changed since the run)" in " ".join(out.stdout.split())
    assert "1 pair of programs" in out.stdout


def record(start: str, moves: list[str], bot: str) -> tuple[PlayedGame, int]:
    """A game of `bot` as the first player from `start` with these moves."""
    from judge.records import MoveRecord

    return (PlayedGame("nim", start, (bot, "optimal"), results=("win", "loss"),
                       moves=tuple(MoveRecord(i % 2, m, None) for i, m in enumerate(moves))), 0)


def test_the_same_mistakes_means_every_mistake_and_perfect_bots_are_not_twins():
    from judge.analysis import MoveReview
    from judge.solvers.base import Outcome

    def judged(rec_seat, wrong):
        rec, seat = rec_seat
        review = tuple(MoveReview(n, (n - 1) % 2, m, Outcome.WIN,
                                  Outcome.LOSS if n in wrong else Outcome.WIN, [])
                       for n, m in enumerate(rec.move_texts, 1))
        return rec._replace(review=review), seat

    def games(bot, starts, wrong):
        return [judged(record(start, ["1 1", "2 1"], bot), wrong) for start in starts]

    three = ("1 2", "1 3", "1 4")
    played = [("a", games("a", three, {1})), ("b", games("b", three, {1})),
              ("c", games("c", three, set())), ("d", games("d", three, set())),
              ("e", [judged(record(s, ["2 2", "1 1"], "e"), {1}) for s in three]),
              # one mistake each, the same: a move many would make, no evidence of a copy
              ("f", games("f", ("1 2",), {1})), ("g", games("g", ("1 2",), {1}))]
    assert same_mistakes(played) == [("a", "b")]


@pytest.mark.parametrize("fmt", ["json", "table", "html"])
def test_a_shared_output_names_bots_by_their_names_and_flags_no_one(graded, fmt):
    # (which students look alike is the teacher's to know: not on the page for the class)
    out = judge("show", "1", "--db", "r.db", "--format", fmt, "--share", cwd=graded)
    assert out.returncode == 0, out.stderr
    assert "main.py" not in out.stdout and str(graded) not in out.stdout
    assert "the same program" not in out.stdout
    if fmt == "json":
        bots = {b["bot"]: b for b in json.loads(out.stdout)["bots"]}
        assert bots["carol"]["same_source"] == bots["gus"]["same_mistakes"] == []
    else:
        assert "alice" in out.stdout and "carol" in out.stdout
