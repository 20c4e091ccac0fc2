"""Copies found by their source: a class of separately written Nim solutions in eight
languages, with copies disguised as students disguise them (tests/data/class-nim), every
copy flagged and no other pair."""

from __future__ import annotations

import hashlib
from itertools import combinations
from pathlib import Path

import pytest

from judge.similarity import THRESHOLD, compare, compare_files, groups, tokens

CLASS = Path(__file__).parent / "data" / "class-nim"


def files(folder: Path) -> tuple[tuple[str, str, str], ...]:
    """Each program of `folder` as a run gives it: name, path, SHA-256."""
    return tuple((p.name, str(p), hashlib.sha256(p.read_bytes()).hexdigest())
                 for p in sorted(folder.iterdir()) if p.name != "COPIES.txt")


def test_every_copy_in_the_class_is_flagged_and_no_other_pair():
    copies = {frozenset(line.split()) for line in (CLASS / "COPIES.txt").read_text().splitlines()
              if line.strip()}
    found = compare_files(files(CLASS))
    assert {frozenset(p.bots) for p in found.pairs} == copies
    assert found.unread == ()


def test_names_numbers_strings_and_comments_do_not_hide_a_copy():
    one = "def f(xs):\n    # the sum\n    total = 0\n    for x in xs:\n        total += x * 2\n" \
          "    print('sum', total)\n    return total\n"
    two = "def g(values):\n    acc = 10  # start\n    for v in values:\n        acc += v * 7\n" \
          "    print(\"total:\", acc)\n\n\n    return acc\n"
    a, b = tokens(one, "a.py"), tokens(two, "b.py")
    assert a is not None and b is not None and a.kinds == b.kinds
    pair = compare(a, b, ("a.py", "b.py"))
    assert pair.similarity == 1.0
    assert [(r.first, r.last) for r in pair.regions] == [((1, 1), (7, 8))]


def test_a_c_program_renamed_cpp_is_compared_and_other_languages_are_not_mixed(tmp_path):
    c = (CLASS / "hana.c").read_text()
    (tmp_path / "one.c").write_text(c)
    (tmp_path / "two.cpp").write_text(c)
    (tmp_path / "three.java").write_text(c)  # the same text, another language
    (tmp_path / "notes.txt").write_text(c)
    found = compare_files(files(tmp_path))
    assert [p.bots for p in found.pairs] == [("one.c", "two.cpp")]
    assert found.unread == (("notes.txt", "not a language compared"),)


def test_a_file_changed_or_gone_since_the_run_is_named_not_compared(tmp_path):
    given = files(CLASS)[:3]
    (tmp_path / "gone.py").write_text("x = 1\n")
    changed = (given[0][0], given[0][1], "0" * 64)
    found = compare_files((changed, *given[1:], ("gone.py", str(tmp_path / "nothing.py"),
                                                 "0" * 64)))
    assert dict(found.unread) == {given[0][0]: "changed since the run",
                                  "gone.py": "cannot be read now (No such file or directory)"}


def test_a_programs_own_repetition_is_no_match_and_costs_no_square():
    # (20,000 tokens alike: following every pair of places would be 4e8 steps)
    long = "x = x + 1\n" * 4000
    a, b = tokens(long, "a.py"), tokens(long, "b.py")
    assert a is not None and b is not None
    assert compare(a, b, ("a.py", "b.py")).similarity == 0.0
    real = (CLASS / "carla.py").read_text()
    a, b = tokens(real + long, "a.py"), tokens((CLASS / "zoe.py").read_text(), "b.py")
    assert a is not None and b is not None
    assert compare(a, b, ("a.py", "b.py")).shares[1] == 1.0  # the copy is still found


@pytest.mark.parametrize("threshold", [THRESHOLD, 0.2])
def test_groups_join_pairs_through_each_other(threshold):
    found = compare_files(files(CLASS), threshold)
    order = [name for name, *_ in files(CLASS)]
    joined = groups(list(found.pairs), order)
    for pair in found.pairs:
        assert any(set(pair.bots) <= set(group) for group in joined)
    assert sorted(b for g in joined for b in g) == sorted({b for p in found.pairs
                                                           for b in p.bots})
    assert all(list(g) == sorted(g, key=order.index) for g in joined)


def test_separately_written_programs_share_little():
    programs = {p.name: tokens(p.read_text(), p.name) for p in CLASS.iterdir()
                if p.suffix != ".txt"}
    copies = {frozenset(line.split()) for line in (CLASS / "COPIES.txt").read_text().split("\n")
              if line.strip()}
    worst = max(compare(programs[x], programs[y], (x, y)).similarity
                for x, y in combinations(sorted(programs), 2)
                if programs[x].family == programs[y].family and {x, y} not in copies)
    assert worst < THRESHOLD - 0.1
