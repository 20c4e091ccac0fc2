"""Copies found by their source: a class of separately written Nim solutions in eight
languages, with copies disguised as students disguise them (tests/data/class-nim), every
copy flagged and no other pair."""

from __future__ import annotations

import hashlib
import os
import shutil
from itertools import combinations
from pathlib import Path

import pytest
from similar_sets import STUDENTS, begun_from_greedy

from judge.similarity import THRESHOLD, Why, compare, compare_files, groups, tokens

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


def test_a_file_replaced_by_a_fifo_since_the_run_is_named_not_waited_for(tmp_path):
    """(`judge show --similar` waited for ever on a bot's file replaced by a FIFO.)"""
    given = files(CLASS)[:3]
    os.mkfifo(tmp_path / "fifo.py")
    found = compare_files((*given, ("fifo.py", str(tmp_path / "fifo.py"), "0" * 64)))
    assert dict(found.unread) == {"fifo.py": "cannot be read now (not a file)"}


def test_a_program_pygments_reads_too_slowly_is_named_not_compared(tmp_path, monkeypatch):
    """(Pygments searches the rest of the file for the end of each Pascal comment begun: a
    program of 256 KiB of `{` took it four minutes, at every report of its run.)"""
    import judge.similarity

    monkeypatch.setattr(judge.similarity, "LEXING", (0.0, 0.0), raising=False)  # no time
    for name in ("one.c", "two.c"):
        shutil.copy(CLASS / "hana.c", tmp_path / name)
    for name in ("one.py", "two.py"):  # (read by Python's tokenizer)
        shutil.copy(CLASS / "carla.py", tmp_path / name)
    found = compare_files(files(tmp_path))
    assert dict(found.unread) == {"one.c": "Pygments took too long to read it",
                                  "two.c": "Pygments took too long to read it"}
    assert [p.bots for p in found.pairs] == [("one.py", "two.py")]


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


def test_a_copy_with_its_functions_reordered_is_tiled_whole():
    # one pass dropped every run overlapping a tile already placed: 35% to 67% here
    functions = (CLASS / "carla.py").read_text().split("\n\n\n")
    original = tokens("\n\n\n".join(functions), "a.py")
    for order in [(0, 2, 1, 3, 4, 5), (0, 4, 3, 2, 1, 5), (0, 3, 1, 4, 2, 5)]:
        moved = tokens("\n\n\n".join(functions[k] for k in order), "b.py")
        assert original is not None and moved is not None
        assert compare(original, moved, ("a.py", "b.py")).similarity >= 0.9, order


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


GREEDY = Path(__file__).parent.parent / "bots" / "nim" / "greedy.py"


@pytest.fixture()
def starter(tmp_path) -> list[Path]:
    """Three students' programs begun from the sample bot, each with its own choose()."""
    for name in STUDENTS:
        (tmp_path / f"{name}.py").write_text(begun_from_greedy(name))
    return sorted(tmp_path.iterdir())


def test_starter_code_given_as_base_file_is_not_counted_as_copied(starter):
    files = tuple((p.name, str(p), sha(p)) for p in starter)
    whole = compare_files(files, THRESHOLD, (), 1.0)
    assert len(whole.pairs) == 3  # counted whole, the sample's loop makes them copies
    found = compare_files(files, 0.01, (("greedy.py", str(GREEDY), sha(GREEDY)),), 1.0)
    assert found.bases == ("greedy.py",)
    assert all(p.similarity < THRESHOLD / 2 for p in found.pairs)
    for pair in found.pairs:
        for side in pair.discounted:  # the sample's lines, named as the base file's
            assert side and {p.why for p in side} == {Why.BASE}
            assert any(p.first <= 25 <= p.last for p in side)  # in main()


def test_a_base_file_not_read_is_named(starter):
    files = tuple((p.name, str(p), sha(p)) for p in starter)
    found = compare_files(files, THRESHOLD, (("gone.py", "/nonexistent/gone.py", "0" * 64),))
    assert ("--base gone.py", "cannot be read now (No such file or directory)") in found.unread


def test_passages_in_most_of_the_programs_do_not_count():
    bots = sorted((Path(__file__).parent.parent / "bots" / "ioiwari").glob("*.py"))
    files = tuple((p.name, str(p), sha(p)) for p in bots)
    # the sample bots' reading loop and board, written once and copied into each
    assert len(compare_files(files, THRESHOLD, (), 1.0).pairs) == 3
    assert compare_files(files, THRESHOLD).pairs == ()
    # two of them share a sowing that counts the gains, which the third has not: below
    # the threshold, found by --similar 40
    found = compare_files(files, 0.4)
    assert [p.bots for p in found.pairs] == [("greedy.py", "optimal.py")]
    assert found.discounted()[Why.COMMON] > 0 and found.discounted()[Why.BASE] == 0
    assert {p.why for side in found.pairs[0].discounted for p in side} == {Why.COMMON}
    sow = [r for r in found.pairs[0].regions if r.last[0] <= 42]  # greedy.py's sow()
    assert [(r.first, r.last) for r in sow] == [((38, 45), (42, 49))]  # its gains


def test_a_copy_between_two_of_three_programs_is_no_common_ground():
    names = ["carla.py", "zoe.py", "ana.py"]  # zoe's is carla's, disguised
    files = tuple((n, str(CLASS / n), sha(CLASS / n)) for n in names)
    found = compare_files(files, THRESHOLD, (), 0.5)
    assert [p.bots for p in found.pairs] == [("carla.py", "zoe.py")]
    assert found.pairs[0].similarity > 0.9


def test_the_calibration_set_flags_copies_and_versions_and_nothing_else():
    from similar_sets import apart, disguised, starter, versions

    assert [(x, y) for x, y, s in disguised() if s < THRESHOLD] == []
    assert [(x, y) for x, y, s in versions() if s < THRESHOLD] == []
    assert [(x, y, s) for x, y, s in apart() if s >= THRESHOLD] == []
    assert [(x, y, s) for x, y, s in starter() if s >= THRESHOLD] == []


def test_the_ceiling_that_spares_tiling_a_pair_is_never_below_its_figure():
    from judge.similarity import ceiling, prepared

    texts = [p.read_text() for p in sorted(CLASS.glob("*.py"))]
    texts.append(texts[0] + "x = x + 1\n" * 100)  # crowded runs, tiled through
    programs = {f"{k}.py": tokens(text, "x.py") for k, text in enumerate(texts)}
    for common in (1.0, 0.5):
        ready = prepared(programs, [], common)  # type: ignore[arg-type]
        for x, y in combinations(programs, 2):
            a, b = ready[x][0], ready[y][0]
            assert compare(a, b, (x, y)).similarity <= ceiling(a, b) + 1e-4


def test_each_program_is_read_as_tokens_once_not_once_a_pair(monkeypatch):
    import judge.similarity

    read: list[str] = []
    real = judge.similarity.tokens

    def counted(text: str, name: str):
        read.append(name)
        return real(text, name)

    monkeypatch.setattr(judge.similarity, "tokens", counted)
    given = files(CLASS)
    compare_files.cache_clear()
    found = compare_files(given, 0.01, (("carla.py", str(CLASS / "carla.py"),
                                         sha(CLASS / "carla.py")),))
    assert len(found.pairs) > len(given)  # (more pairs than programs)
    assert sorted(read) == sorted([path for _, path, _ in given] + [str(CLASS / "carla.py")])
