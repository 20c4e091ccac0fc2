"""What a course takes from a grading run: the grade book's CSV and Gradescope's
results.json, for `judge run` and `judge show`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from judge.exports import file_names
from tests.command import judge, show
from tests.test_feedback import ROOT, run  # noqa: F401 - the stored run

__all__ = ["run"]


def test_the_gradebook_has_a_line_per_bot_with_its_name_score_and_max(run: Path) -> None:
    rows = list(csv.reader(io.StringIO(show(run, "--format", "gradebook"))))
    bots = json.loads(show(run, "--format", "json"))["bots"]
    assert rows[0] == ["name", "score", "max"]
    assert rows[1:] == [[name, f"{b['points']:g}", f"{b['max_points']:g}"]
                        for name, b in zip(["alice", "bob"], bots, strict=True)]


def test_gradescope_gives_a_test_per_game_adding_up_to_the_score(run: Path) -> None:
    show(run, "--format", "gradescope", "--output-dir", "gs")
    bots = json.loads(show(run, "--format", "json"))["bots"]
    for name, bot in zip(("alice", "bob"), bots, strict=True):
        data = json.loads((run / "gs" / f"{name}.json").read_text())
        assert (data["score"], data["max_score"]) == (bot["points"], bot["max_points"])
        assert len(data["tests"]) == bot["games"]
        assert sum(t["score"] for t in data["tests"]) == data["score"]
        assert sum(t["max_score"] for t in data["tests"]) == data["max_score"]
        assert all(t["visibility"] == "visible" and t["name"] for t in data["tests"])
        assert str(run) not in json.dumps(data) and "main.py" not in json.dumps(data)


@pytest.mark.parametrize("level, shown, hidden", [
    ("full", ["first mistake: move", "right:"], []),
    ("mistakes", ["first mistake: move"], ["right"]),
    ("results", [], ["first mistake", "right"]),
])
def test_gradescope_words_each_game_at_the_feedback_level(
        run: Path, level: str, shown: list[str], hidden: list[str]) -> None:
    show(run, "--format", "gradescope", "--output-dir", level, "--feedback", level)
    text = "".join(t["output"] for t in json.loads((run / level / "alice.json").read_text())
                   ["tests"])
    assert all(s in text for s in shown) and not any(h in text for h in hidden)


def test_gradescope_of_several_bots_on_one_output_is_refused_before_any_game(
        run: Path) -> None:
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", "gs.db",
                "--format", "gradescope", "alice/main.py", "bob/main.py", cwd=run)
    assert out.returncode == 2 and "--output-dir" in out.stderr
    assert not (run / "gs.db").exists()
    assert judge("show", "1", "--db", "r.db", "--format", "gradescope",
                 cwd=run).returncode == 2


def test_run_prints_one_bots_gradescope_results(run: Path) -> None:
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", "one.db",
                "--jobs", "1", "--format", "gradescope", "alice/main.py", cwd=run)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["max_score"] == 8


def test_exports_of_a_tournament_are_refused_with_status_2(run: Path) -> None:
    nim = ROOT / "bots" / "nim"
    assert judge("tournament", "--game", "nim", "--db", "tx.db", "--jobs", "1",
                 str(nim / "optimal.py"), str(nim / "random.py"), cwd=run).returncode == 0
    out = judge("show", "1", "--db", "tx.db", "--format", "gradebook", cwd=run)
    assert out.returncode == 2 and "tournament" in out.stderr


def test_file_names_are_safe_and_unique() -> None:
    assert file_names(["Smith, Alice", "../etc", "a", "A", "index", ""]) == [
        "Smith__Alice", "_etc", "a", "A-2", "index-2", "bot"]


def test_a_file_name_never_starts_with_a_dash() -> None:
    """(A student named `-rf` had the page `-rf.html`, which `rm *` in its folder takes
    for an option.)"""
    assert file_names(["-rf", "--help", "-", ".-x"]) == ["rf", "help", "bot", "x"]


def test_gradescope_tests_per_seat_add_each_seats_games(run: Path) -> None:
    show(run, "--format", "gradescope", "--output-dir", "seat", "--gradescope-tests", "seat")
    data = json.loads((run / "seat" / "alice.json").read_text())
    games = json.loads(show(run, "--format", "json"))["games"]
    assert [t["name"] for t in data["tests"]] == ["as the first player"]
    (test,) = data["tests"]
    assert (test["score"], test["max_score"]) == (data["score"], data["max_score"])
    assert test["output"].count("\n") + 1 == sum(g["bot"] == "alice/main.py" for g in games)


def test_gradescope_visibility_is_the_one_chosen(run: Path) -> None:
    show(run, "--format", "gradescope", "--output-dir", "later", "--gradescope-visibility",
         "after_published")
    data = json.loads((run / "later" / "bob.json").read_text())
    assert data["visibility"] == "after_published"
    assert {t["visibility"] for t in data["tests"]} == {"after_published"}


def test_a_resumed_run_of_several_bots_refuses_gradescope_on_one_output_before_a_game(
        tmp_path: Path) -> None:
    from judge.kinds.grading import GradingPlan
    from judge.store import Store

    with Store(str(tmp_path / "r.db")) as store:  # an interrupted run: no game stored yet
        store.create_run(GradingPlan(game="nim", bots=("a.py", "b.py"), planned=2,
                                     starts={"first": ("1 2 4",)}, directory=str(tmp_path)))
    out = judge("run", "--resume", "1", "--db", "r.db", "--format", "gradescope", cwd=tmp_path)
    assert out.returncode == 2 and "--output-dir" in out.stderr
    with Store(str(tmp_path / "r.db"), read_only=True) as store:
        assert store.games(1) == {}
