"""The Nim batch assignment: the example file, strict input, line-by-line grading."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.games.base import InputError
from judge.nimbatch import expected_answer, grade_output, parse_input

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


def test_missing_lines_score_nothing():
    cases = parse_input(EXAMPLE.read_text())
    grade = grade_output(EXPECTED[0] + "\n", cases)
    assert grade.correct == 1 and grade.first_wrong["got"] is None


@pytest.mark.parametrize("text", ["", "x\n1 2", "3\n1 2\n", "1\n5\n", "1\n1 -2\n"])
def test_malformed_input_files_are_rejected_with_a_reason(text):
    with pytest.raises(InputError):
        parse_input(text)
