"""Fair batch grading of the Nim batch assignment: what a careful human grader forgives (and
what `--strict` does not), shifted output, per-case runs and their bounds, sample solutions."""

from __future__ import annotations

import glob
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge import verdicts
from judge.nimbatch import (
    OWN_RUN,
    OWN_RUN_SINGLE_SPACES,
    WHOLE_FILE,
    expected_answer,
    grade_output,
    grade_program,
    line_ranges,
    lines_named,
    parse_input,
    standard_input,
)
from judge.players.base import PlayerFailure
from judge.sandbox import Limits

#: slow: the batch task's programs graded per case (`-m slow` runs them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
EXAMPLE = "4\n3 4 5\n8 13 5\n123 675 296 864 917 532\n9 7 4 12\n"
CASES = parse_input(EXAMPLE)
EXPECTED = [expected_answer(c) for c in CASES]
ANSWERS = "\n".join(EXPECTED) + "\n"


# --- comparison: words, blank lines, "counter" ----------------------------------------------


@pytest.mark.parametrize("first", ["\n", "   \n", "\t\r\n"])
def test_a_blank_first_line_costs_nothing_but_everything_with_strict(first):
    assert grade_output(first + ANSWERS, CASES).correct == 4
    assert grade_output(first + ANSWERS, CASES, strict=True).correct == 0


def test_blank_lines_between_answers_are_skipped():
    output = "\n\n".join(EXPECTED) + "\n\n\n"
    grade = grade_output(output, CASES)
    assert grade.correct == 4 and grade.first_wrong is None
    assert [e["output_line"] for e in grade.lines] == [1, 3, 5, 7]


def test_words_are_compared_not_the_spaces_around_or_between_them():
    output = "  Remove  2 counters\tfrom Heap 1  \n Lose   Game\n" + "\n".join(EXPECTED[2:])
    assert grade_output(output, CASES).correct == 4
    strict = grade_output(output, CASES, strict=True)
    assert strict.correct == 2 and strict.first_wrong["line"] == 1


def test_strict_still_forgives_trailing_spaces_as_before():
    output = "\n".join(f"{e}   " for e in EXPECTED)
    assert grade_output(output, CASES, strict=True).correct == 4


def test_other_words_and_letter_case_still_count():
    output = "remove 2 counters from heap 1\nLose Game.\n" + "\n".join(EXPECTED[2:])
    assert grade_output(output, CASES).correct == 2


@pytest.mark.parametrize("word", ["counter", "counters"])
def test_one_counter_may_be_written_singular_or_plural(word):
    cases = [(2, 3)]
    assert expected_answer(cases[0]) == "Remove 1 counter from Heap 2"
    assert grade_output(f"Remove 1 {word} from Heap 2\n", cases).correct == 1


def test_the_singular_is_wrong_with_strict_and_for_more_than_one_counter():
    assert grade_output("Remove 1 counter from Heap 2\n", [(2, 3)], strict=True).correct == 0
    assert grade_output("Remove 2 counter from Heap 1\n", [(3, 4, 5)]).correct == 0


def test_the_expected_answer_counts_its_counters_in_good_english():
    wrong = grade_output("Lose Game\nLose Game\n", [(2, 3), (3, 4, 5)])
    assert [e["expected"] for e in wrong.lines] == [
        "Remove 1 counter from Heap 2", "Remove 2 counters from Heap 1"]
    assert wrong.first_wrong["expected"] == "Remove 1 counter from Heap 2"
    # --strict expects the statement's words exactly, and says so
    strict = grade_output("Lose Game\n", [(2, 3)], strict=True)
    assert strict.first_wrong["expected"] == "Remove 1 counters from Heap 2"
    assert grade_output("Remove 1 counters from Heap 2\n", [(2, 3)], strict=True).correct == 1


# --- shifted output ------------------------------------------------------------------------


def test_output_in_step_reports_no_shift():
    assert grade_output(ANSWERS, CASES).shifts == []
    # a lone "Lose Game" that matches another line is a coincidence, not a shift
    grade = grade_output("Lose Game\n" * 4, CASES)
    assert grade.correct == 1 and grade.shifts == [] and grade.notes == []


def test_a_leading_blank_line_is_reported_as_a_credited_shift():
    grade = grade_output("\n" + ANSWERS, CASES)
    assert [(s["line"], s["by"], s["credited"]) for s in grade.shifts] == [(1, 1, True)]
    assert grade.notes[0].startswith("output shifted by 1 line from line 1")


def test_with_strict_a_leading_blank_line_is_a_shift_not_credited():
    grade = grade_output("\n" + ANSWERS, CASES, strict=True)
    assert [(s["line"], s["by"], s["credited"]) for s in grade.shifts] == [(1, 1, False)]
    assert "blank lines" in grade.notes[0] and "not credited" in grade.notes[0]


def test_an_extra_line_shifts_the_answers_after_it_which_are_matched_in_order():
    output = "\n".join([EXPECTED[0], "debug: reading heaps", *EXPECTED[1:]])
    grade = grade_output(output, CASES)
    assert grade.correct == 1 and grade.first_wrong["line"] == 2
    assert [(s["line"], s["by"], s["credited"]) for s in grade.shifts] == [(2, 1, False)]
    assert grade.notes == ["output shifted by 1 line from line 2 "
                           "(extra lines before it, not credited)"]


def test_a_missing_answer_shifts_the_answers_after_it_the_other_way():
    output = "\n".join([EXPECTED[0], *EXPECTED[2:]])
    grade = grade_output(output, CASES)
    assert grade.correct == 1
    assert [(s["line"], s["by"]) for s in grade.shifts] == [(3, -1)]
    assert grade.notes[0].startswith("output shifted by -1 line from line 3")


def test_a_blank_line_after_every_answer_gives_a_few_notes_and_every_shift_in_json():
    cases = parse_input(standard_input())
    output = "".join(f"{expected_answer(c)}\n\n" for c in cases)
    grade = grade_output(output, cases)
    assert grade.correct == 50 and len(grade.shifts) == 49
    assert len(grade.notes) == 4 and grade.notes[-1].startswith("46 more shifts")


# --- per-case runs (a stand-in for the confined run: fast and exact) ------------------------


def fake(answer, calls=None, delay=0.0):
    """A runner playing a program: `answer(sizes, n)` gives its line, or a PlayerFailure to
    stop there; `n` is the number of data sets in its nim.txt. Calls are recorded."""

    def run(path, nim, limits, sandbox):
        if calls is not None:
            calls.append((nim, limits))
        time.sleep(delay)
        lines = nim.splitlines()
        out = []
        for line in lines[1:int(lines[0]) + 1]:
            said = answer(line, int(lines[0]))
            if isinstance(said, PlayerFailure):
                return "".join(out), said
            out.append(said + "\n")
        return "".join(out), None

    return run


def right(line, n):
    return expected_answer(tuple(map(int, line.split())))


CRASH = PlayerFailure(verdicts.CRASH, "exited with status 1")
TIMEOUT = PlayerFailure(verdicts.TIME_LIMIT, "still running after 10 s")


def grade_fake(runner, text=EXAMPLE, **options):
    return grade_program("p.py", text, parse_input(text), Limits(), "none", runner=runner,
                         **options)


def test_a_crash_on_one_data_set_costs_that_line_only():
    calls = []
    runner = fake(lambda line, n: CRASH if "13" in line.split() else right(line, n), calls)
    grade, failure = grade_fake(runner)
    assert failure.code == verdicts.CRASH  # the verdict is the whole file's, as before
    assert grade.whole_file_correct == 1 and grade.correct == 3
    assert grade.per_case["lines"] == [2, 3, 4] and "crash" in grade.per_case["reason"]
    assert [e["graded"] for e in grade.lines] == [WHOLE_FILE, OWN_RUN, OWN_RUN, OWN_RUN]
    assert grade.lines[1]["verdict"] == verdicts.CRASH and grade.lines[2]["verdict"] == "ok"
    assert "lines 2-4 graded per case" in " ".join(grade.notes)
    # each per-case run: a fresh nim.txt of that one data set as written, the same limits
    assert [nim for nim, _ in calls[1:]] == ["1\n8 13 5\n", "1\n123 675 296 864 917 532\n",
                                             "1\n9 7 4 12\n"]
    assert all(limits == Limits() for _, limits in calls)


def test_a_time_limit_on_the_whole_file_runs_the_data_sets_alone():
    grade, failure = grade_fake(fake(lambda line, n: TIMEOUT if n > 1 else right(line, n)))
    assert failure.code == verdicts.TIME_LIMIT and grade.correct == 4


def test_fewer_answers_than_data_sets_runs_the_missing_ones_alone():
    first_only = fake(lambda line, n: right(line, n) if line == "3 4 5" or n == 1 else "")
    grade, failure = grade_fake(first_only)
    assert failure is None and grade.whole_file_correct == 1 and grade.correct == 4
    assert "gave 1 answer for 4 data sets" in grade.per_case["reason"]


def test_a_complete_run_that_ended_well_is_not_run_again():
    calls = []
    grade, _ = grade_fake(fake(lambda line, n: "Lose Game", calls))
    assert len(calls) == 1 and grade.per_case is None and grade.correct == 1


def test_per_case_option_grades_every_data_set_from_its_own_run():
    calls = []
    # right only when nim.txt holds one data set: the whole file would give 1 of 4
    grade, failure = grade_fake(
        fake(lambda line, n: right(line, n) if n == 1 else "Lose Game", calls), per_case=True)
    assert failure is None and len(calls) == 5
    assert grade.whole_file_correct == 1 and grade.correct == 4
    assert grade.per_case["lines"] == [1, 2, 3, 4] and grade.per_case["reason"] == "--per-case"


def test_a_program_that_does_not_compile_is_not_run_per_case():
    calls = []

    def broken(path, nim, limits, sandbox):
        calls.append(nim)
        return "", PlayerFailure(verdicts.COMPILE_ERROR, "error: expected ';'")

    grade, failure = grade_fake(broken, per_case=True)
    assert len(calls) == 1 and grade.per_case is None and grade.correct == 0


def spacing_sensitive(line, n):
    """A program that splits on single spaces: it crashes on "8  13 5"."""
    return CRASH if "  " in line else right(line, n)


def test_a_data_set_failing_only_for_its_spacing_is_retried_with_single_spaces():
    text = "3\n3 4 5\n8  13 5\n123 675   296 864 917 532\n"
    grade, _ = grade_fake(fake(spacing_sensitive), text)
    assert grade.correct == 3 and grade.per_case["single_spaces"] == [2, 3]
    assert grade.lines[1]["graded"] == OWN_RUN_SINGLE_SPACES
    assert grade.lines[1]["as_written"]["verdict"] == verdicts.CRASH
    assert "lines 2-3 were answered only when run again with single spaces" in (
        " ".join(grade.notes))


def test_strict_does_not_retry_with_single_spaces():
    text = "3\n3 4 5\n8  13 5\n123 675   296 864 917 532\n"
    calls = []
    grade, _ = grade_fake(fake(spacing_sensitive, calls), text, strict=True)
    assert grade.correct == 1 and grade.per_case["single_spaces"] == []
    assert "1\n8 13 5\n" not in [nim for nim, _ in calls]


def test_per_case_runs_stop_at_their_budget_and_say_so():
    calls = []
    grade, _ = grade_fake(fake(lambda line, n: CRASH, calls, delay=0.05), budget=0.12)
    assert len(calls) == 1 + 3  # the whole file, then runs until 0.12 s are spent
    assert grade.per_case["lines"] == [1, 2, 3] and grade.per_case["not_run"] == [4]
    assert "budget of 0.12 s" in grade.per_case["stopped"]
    assert grade.lines[3]["graded"] == WHOLE_FILE
    assert "line 4 was graded from the whole file" in " ".join(grade.notes)


def test_the_default_budget_is_the_first_move_limit_per_data_set_capped():
    from judge.nimbatch import PER_CASE_CAP_SECONDS, per_case_budget

    assert per_case_budget(Limits(first_move_seconds=2), 4) == 8
    assert per_case_budget(Limits(), 1000) == PER_CASE_CAP_SECONDS <= 300


def test_per_case_runs_stop_when_the_first_three_time_out():
    calls = []
    grade, _ = grade_fake(fake(lambda line, n: TIMEOUT, calls),
                          text="5\n1 2\n1 3\n1 4\n1 5\n1 6\n")
    assert len(calls) == 1 + 3 and grade.per_case["not_run"] == [4, 5]
    assert "the first 3 all hit the time limit" in grade.per_case["stopped"]


def test_line_ranges_are_short():
    assert line_ranges([5, 1, 2, 3, 8, 9]) == "1-3, 5, 8-9"
    assert lines_named([4], "was", "were") == "line 4 was"
    assert lines_named([2, 3]) == "lines 2-3"


# --- the command, confined -----------------------------------------------------------------


def judge(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "judge", "nim-batch", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


CRASHES_ON_13 = """
from functools import reduce
lines = open("nim.txt").read().split("\\n")
for line in lines[1:int(lines[0]) + 1]:
    h = list(map(int, line.split()))
    assert 13 not in h, "unlucky heap"
    s = reduce(lambda a, b: a ^ b, h, 0)
    i = next((i for i, x in enumerate(h) if x ^ s < x), None)
    print("Lose Game" if i is None else f"Remove {h[i] - (h[i] ^ s)} counters from Heap {i + 1}")
"""


def test_command_grades_a_crashing_program_per_case_in_json_and_details(tmp_path):
    (tmp_path / "p.py").write_text(CRASHES_ON_13)
    out = judge("--format", "json", str(tmp_path / "p.py"))
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)["programs"]
    # the fields of before, unchanged
    assert {"program", "cases", "correct", "first_wrong", "lines", "verdict", "message"} <= set(row)
    assert {"line", "heaps", "expected", "got", "ok"} <= set(row["lines"][0])
    assert row["verdict"] == "crash" and "unlucky heap" in row["message"]
    assert row["correct"] == 49 and row["first_wrong"]["line"] == 2
    assert row["whole_file_correct"] == 1 and row["per_case"]["lines"] == list(range(2, 51))
    assert "running 49 data sets alone" in out.stderr
    assert "nim-batch: 1 program, " in out.stderr
    table = judge("--details", "--wide", str(tmp_path / "p.py"))  # (a row a line)
    assert table.returncode == 0, table.stderr
    assert "note: lines 2-50 graded per case" in table.stdout
    assert "own run (crash)" in table.stdout  # line 2, the one it cannot answer
    detail_rows = [ln for ln in table.stdout.splitlines() if ln.split()[:1] in (
        [str(n)] for n in range(1, 51))]
    assert len(detail_rows) == 50  # --details still lists every line


def test_command_per_case_option_and_strict_option(tmp_path):
    (tmp_path / "nim.txt").write_text("2\n3 4 5\n2 3\n")
    (tmp_path / "p.py").write_text('print()\nprint("Remove 2 counters from Heap 1")\n'
                                   'print("Remove 1 counter from Heap 2")\n')
    out = judge("--format", "json", "--input", str(tmp_path / "nim.txt"), "--per-case",
                str(tmp_path / "p.py"))
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)["programs"]
    assert row["correct"] == 1 and row["per_case"]["lines"] == [1, 2]
    assert row["lines"][0]["graded"] == "own run"
    out = judge("--format", "json", "--input", str(tmp_path / "nim.txt"), "--strict",
                str(tmp_path / "p.py"))
    (row,) = json.loads(out.stdout)["programs"]
    assert row["strict"] and row["correct"] == 0 and row["per_case"] is None
    assert row["shifts"][0]["line"] == 1 and not row["shifts"][0]["credited"]


# --- the sample solutions, with the README's command -----------------------------------------


def scores(stdout):
    """program -> score from the first table of `judge nim-batch` (table format)."""
    rows = {}
    for line in stdout.splitlines():
        if not line.strip():
            break
        words = line.split()
        if words[0].startswith("solutions/"):
            rows[words[0]] = words[1]
    return rows


def test_the_readme_commands_grade_the_sample_solutions():
    python = sorted(glob.glob("solutions/*.py", root_dir=ROOT))
    out = judge("--details", *python)
    assert out.returncode == 0, out.stderr
    assert scores(out.stdout) == {
        "solutions/correct.py": "50/50",
        "solutions/sloppy_form.py": "50/50",  # empty line, split(" "), "1 counter": all forgiven
        "solutions/wrong_heap.py": "34/50",
    }
    everything = sorted(glob.glob("solutions/*", root_dir=ROOT))
    out = judge("--details", *everything)
    if out.returncode == 3:
        pytest.skip("no C compiler here")
    assert out.returncode == 0, out.stderr
    graded = scores(out.stdout)
    assert set(graded) == set(everything)
    correct, total = map(int, graded["solutions/overflow.c"].split("/"))
    assert 0 < correct < total == 50  # right below 2^63, wrong on the 10^30 heaps


def test_the_sloppy_sample_loses_its_marks_with_strict():
    out = judge("--format", "json", "--strict", "solutions/sloppy_form.py")
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)["programs"]
    assert row["correct"] < 50 // 2


def test_csv_with_details_is_one_table_of_every_line_of_every_program(tmp_path) -> None:
    import csv
    import io
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-m", "judge", "nim-batch", "--format", "csv",
                          "--details", "solutions/correct.py", "solutions/wrong_heap.py"],
                         capture_output=True, text=True, timeout=300, cwd=root)
    assert out.returncode == 0, out.stderr
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert rows[0] == ["program", "line", "heaps", "expected", "got", "ok", "graded"]
    assert len(rows) == 1 + 2 * 50 and all(len(r) == 7 for r in rows)
    assert {r[0] for r in rows[1:]} == {"solutions/correct.py", "solutions/wrong_heap.py"}
