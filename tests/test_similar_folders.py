"""A bot given as a folder is compared in its entry's language, the entry as the run found
it (`--entry NAME`, else main.*, else its only program): its files of that language, in
name order; a folder the run could not grade is not compared, and the reason is given."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_narrow import ROOT, judge

from judge.kinds.grading import GradingPlan
from judge.plan import BotSource, Harness
from judge.similarity import Comparison

APART = Path(__file__).parent / "data" / "similar" / "apart"
C_BOT = ROOT / "bots" / "nim" / "optimal.c"


def folders(top: Path, given: dict[str, dict[str, Path]]) -> tuple[str, ...]:
    """Each student's folder under `top`, holding copies of the files given by name."""
    for student, files in given.items():
        (top / student).mkdir()
        for name, source in files.items():
            shutil.copy(source, top / student / name)
    return tuple(given)


def compared(top: Path, bots: tuple[str, ...], entry: str | None = None) -> Comparison:
    """The folders `bots` of `top` compared as a run graded with `--entry entry` does."""
    plan = GradingPlan(game="nim", bots=bots, directory=str(top),
                       sources=tuple(BotSource(bot, BotSource.read(str(top / bot)).fingerprint)
                                     for bot in bots),
                       harness=Harness(entry=entry))
    return plan.compared()


def c_with_more_python(top: Path) -> tuple[str, ...]:
    """ann and bob: the same bot.c, each beside two Python files written apart."""
    return folders(top, {
        "ann": {"bot.c": C_BOT, "a.py": APART / "nim_loop.py", "b.py": APART / "nim_class.py"},
        "bob": {"bot.c": C_BOT, "a.py": APART / "nim_dict.py",
                "b.py": APART / "nim_functional.py"}})


def test_a_folder_is_compared_in_the_language_of_its_entry_by_name(tmp_path):
    # more .py files than .c: the majority's language was compared, not the entry's
    bots = c_with_more_python(tmp_path)
    found = compared(tmp_path, bots, entry="bot.c")
    assert found.texts == {bot: C_BOT.read_text() for bot in bots}
    assert [pair.bots for pair in found.pairs] == [("ann", "bob")]
    assert found.unread == ()


def test_a_folder_with_a_main_is_compared_in_its_language(tmp_path):
    bots = folders(tmp_path, {
        "cem": {"main.py": APART / "nim_loop.py", "x.c": C_BOT, "y.c": C_BOT},
        "dan": {"main.py": APART / "nim_loop.py", "z.c": C_BOT}})
    found = compared(tmp_path, bots)
    assert found.texts == {bot: (APART / "nim_loop.py").read_text() for bot in bots}
    assert [pair.bots for pair in found.pairs] == [("cem", "dan")]


def test_a_folder_the_run_could_not_grade_is_not_compared_and_says_why(tmp_path):
    bots = folders(tmp_path, {
        "cem": {"main.py": APART / "nim_loop.py"}, "dan": {"main.py": APART / "nim_loop.py"},
        "eve": {"a.py": APART / "nim_loop.py", "b.py": APART / "nim_loop.py"}})
    found = compared(tmp_path, bots)
    assert found.unread == (("eve", "not graded: two candidate entries a.py, b.py "
                                    "(--entry NAME chooses one)"),)
    assert set(found.texts) == {"cem", "dan"}
    assert not compared(tmp_path, bots, entry="main.py").texts.keys() & {"eve"}


@pytest.mark.slow
def test_show_similar_compares_the_folders_in_the_entry_the_run_was_given(tmp_path):
    bots = c_with_more_python(tmp_path)
    (tmp_path / "starts.txt").write_text("1 2 4\n")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db",
                "--entry", "bot.c", *bots, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    shown = judge("show", "1", "--db", "r.db", "--similar", "--format", "json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert [pair["bots"] for pair in report["pairs"]] == [["ann", "bob"]]
    assert report["not_compared"] == []


def test_why_a_folder_is_not_compared_names_its_files_escaped(tmp_path):
    """(The reason names the student's files: a name holding a terminal's control
    sequence reached the terminal as it was.)"""
    from judge.commands.show import similar_text

    bots = folders(tmp_path, {"eve": {"a\x1b[2J.py": APART / "nim_loop.py",
                                      "b\u202e.py": APART / "nim_loop.py"}})
    found = compared(tmp_path, bots)
    assert found.unread == (("eve", "not graded: two candidate entries a\x1b[2J.py, "
                                    "b\u202e.py (--entry NAME chooses one)"),)
    shown = similar_text(1, found, 53)
    assert "\x1b" not in shown and "\u202e" not in shown
    assert "eve (not graded: two candidate entries a\\x1b[2J.py, b\\u202e.py" in shown
