"""The Nim batch assignment: the example file, strict input, line-by-line grading."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.games.base import InputError
from judge.nimbatch import counted, expected_answer, grade_output, parse_input, standard_input

#: slow: the batch task's programs graded per case (`-m slow` runs them)
pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).parent.parent / "samples" / "nim.txt"
EXPECTED = [
    "Remove 2 counters from Heap 1",
    "Lose Game",
    "Remove 239 counters from Heap 3",
    "Remove 6 counters from Heap 2",
]


def test_example_file_gives_the_expected_output_of_the_statement():
    cases = parse_input(EXAMPLE.read_text())
    assert [expected_answer(c) for c in cases] == EXPECTED


def test_heaps_may_be_separated_by_several_spaces():
    assert parse_input("1\n3   4  5\n") == [(3, 4, 5)]


def test_correct_output_scores_every_line():
    cases = parse_input(EXAMPLE.read_text())
    grade = grade_output("\n".join(EXPECTED) + "\n", cases)
    assert grade.correct == 4 and grade.first_wrong is None


def test_first_wrong_line_is_named_with_what_was_expected():
    cases = parse_input(EXAMPLE.read_text())
    output = "\n".join([EXPECTED[0], "Remove 1 counters from Heap 1", *EXPECTED[2:]])
    grade = grade_output(output, cases)
    assert grade.correct == 3
    assert grade.first_wrong["line"] == 2
    assert grade.first_wrong["expected"] == "Lose Game"


def test_a_huge_wrong_line_is_quoted_short_with_its_length():
    cases = parse_input(EXAMPLE.read_text())
    grade = grade_output("x" * 1_000_000 + "\n", cases)
    got = grade.first_wrong["got"]
    assert got.startswith("x" * 200 + "...") and "1,000,000 characters" in got
    assert len(got) < 250


def test_lines_after_the_last_data_set_are_wrong_and_say_so():
    cases = parse_input(EXAMPLE.read_text())
    grade = grade_output("\n".join([*EXPECTED, "Lose Game"]) + "\n", cases)
    assert grade.correct == 4
    assert grade.first_wrong["line"] == 5
    assert grade.first_wrong["expected"] == "nothing (there are 4 data sets)"
    one = grade_output("Lose Game\nLose Game\n", [(1, 1)])
    assert one.first_wrong["expected"] == "nothing (there is 1 data set)"


def test_counts_are_said_with_the_right_noun():
    assert [counted(n, "data set") for n in (0, 1, 2)] == [
        "0 data sets", "1 data set", "2 data sets"]
    with pytest.raises(InputError, match="announces 1 data set but has only 0"):
        parse_input("1\n")
    with pytest.raises(InputError, match="announces 3 data sets but has only 1"):
        parse_input("3\n1 2\n")


def test_missing_lines_score_nothing():
    cases = parse_input(EXAMPLE.read_text())
    grade = grade_output(EXPECTED[0] + "\n", cases)
    assert grade.correct == 1 and grade.first_wrong["got"] is None


@pytest.mark.parametrize("text", ["", "x\n1 2", "3\n1 2\n", "1\n5\n", "1\n1 -2\n"])
def test_malformed_input_files_are_rejected_with_a_reason(text):
    with pytest.raises(InputError):
        parse_input(text)


GOOD = """
from functools import reduce
lines = open("nim.txt").read().split("\\n")
for line in lines[1:int(lines[0]) + 1]:
    h = list(map(int, line.split()))
    s = reduce(lambda a, b: a ^ b, h, 0)
    i = next((i for i, x in enumerate(h) if x ^ s < x), None)
    print("Lose Game" if i is None else f"Remove {h[i] - (h[i] ^ s)} counters from Heap {i + 1}")
"""


def test_nim_batch_command_grades_programs_in_their_own_directory(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text('print("Lose Game")\n')
    (tmp_path / "slow.py").write_text("import time\ntime.sleep(60)\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "judge",
            "nim-batch",
            "--format",
            "json",
            "--first-move-time",
            "2",
            str(tmp_path / "good.py"),
            str(tmp_path / "bad.py"),
            str(tmp_path / "slow.py"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    good, bad, slow = json.loads(out.stdout)["programs"]
    assert good["correct"] == good["cases"] == 50 and good["verdict"] == "ok"
    # one answer for 50 data sets: each is run alone, where "Lose Game" is right on the losing ones
    losing = sum(expected_answer(c) == "Lose Game" for c in parse_input(standard_input()))
    assert bad["correct"] == losing > 0 and bad["first_wrong"]["line"] == 1
    assert bad["per_case"]["lines"] == list(range(1, 51))
    assert slow["verdict"] == "time-limit"
    # per-case runs of a program whose first three all time out stop there, and say so
    assert slow["per_case"]["lines"] == [1, 2, 3]
    assert slow["per_case"]["not_run"] == list(range(4, 51))
    assert "the first 3 all hit the time limit" in slow["per_case"]["stopped"]


def test_a_batch_program_that_leaves_a_daemon_is_graded_when_it_ends(tmp_path):
    import json
    import subprocess
    import sys

    daemon = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(30)\n"
    (tmp_path / "good.py").write_text(daemon + GOOD)
    out = subprocess.run(
        [sys.executable, "-m", "judge", "nim-batch", "--format", "json",
         "--first-move-time", "8", str(tmp_path / "good.py")],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    (good,) = json.loads(out.stdout)["programs"]
    # graded when it ended, not held until its time limit (its verdict would be that),
    # however long a busy machine takes
    assert good["correct"] == 50 and good["verdict"] == "ok", good
    assert "confinement" in out.stderr


def test_a_program_that_answers_nothing_is_told_where_its_input_and_output_belong(tmp_path):
    import json
    import subprocess
    import sys

    from judge.commands.nimbatch import summary
    from judge.nimbatch import HINTS
    from judge.sandbox import tier_for
    from judge.sandbox.waiting import blind_reason

    (tmp_path / "stdin.py").write_text("n = int(input())\nfor _ in range(n):\n"
                                       "    print(input())\n")
    (tmp_path / "file.py").write_text("heaps = open('nim.txt').read().split('\\n')[1:]\n"
                                      "open('output.txt', 'w').write('Lose Game\\n' * 50)\n")
    (tmp_path / "quiet.py").write_text("pass\n")
    out = subprocess.run(
        [sys.executable, "-m", "judge", "nim-batch", "--format", "json",
         *(str(tmp_path / name) for name in ("stdin.py", "file.py", "quiet.py"))],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    stdin, file, quiet = json.loads(out.stdout)["programs"]
    assert file["hint"] == "output.txt" and file["notes"][0] == HINTS["output.txt"]
    assert summary(file).startswith("wrote output.txt, not stdout")
    if blind_reason(tier_for("auto")) is None:  # where a wait for input can be seen
        assert stdin["hint"] == "stdin" and stdin["notes"][0] == HINTS["stdin"]
        assert summary(stdin).startswith("reads stdin, not nim.txt")
    assert quiet["hint"] is None and "nim.txt" not in " ".join(quiet["notes"])


def test_the_tables_fit_80_columns_unless_wide(tmp_path):
    from tests.command import judge

    solutions = Path(__file__).parent.parent / "solutions"
    programs = [str(solutions / name) for name in ("overflow.c", "sloppy_form.py")]
    narrow = judge("nim-batch", "--details", *programs, cwd=tmp_path)
    assert narrow.returncode == 0, narrow.stderr
    assert max(map(len, narrow.stdout.splitlines())) <= 80
    words = " ".join(narrow.stdout.split())
    letters = "".join(narrow.stdout.split())  # (a long number is broken over lines)
    wide = judge("nim-batch", "--details", "--wide", *programs, cwd=tmp_path)
    expected = ("line 8: expected 'Remove 143175183968265786992203754198 counters from Heap "
                "1', got 'Remove 9223372036854775807 counters from Heap 1'")
    assert expected in wide.stdout  # on one line
    assert "".join(expected.split()) in letters  # whole, over lines
    assert "ValueError: invalid literal for int()" in words  # the message, under the table
    assert "output shifted from line 1" in words  # and the notes
    assert max(map(len, wide.stdout.splitlines())) > 80
