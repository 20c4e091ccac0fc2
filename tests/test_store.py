"""The results database: games survive a reopen, resume sees what is done."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from judge.games.base import InputError
from judge.kinds.grading import GradingPlan
from judge.records import PlayedGame
from judge.store import Store


def test_games_are_committed_one_by_one_and_survive_a_reopen(tmp_path):
    path = tmp_path / "r.sqlite"
    store = Store(path)
    plan = GradingPlan(game="nim", rules="misere=off", bots=("a.py",))
    run = store.create_run(plan)
    game = PlayedGame("nim misere=off", "3 4 5", ("a.py", "optimal"), results=("win", "loss"),
                      key="a.py|3 4 5|0")
    store.add_game(run, "a.py|3 4 5|0", game)
    # no close(): a killed judge never gets to close its database
    again = Store(path)
    assert again.done_keys(run) == {"a.py|3 4 5|0"}
    assert again.games(run)["a.py|3 4 5|0"] == game
    assert again.run(run).plan == plan
    assert again.run(run).finished is None


def test_unknown_run_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no run 7"):
        Store(tmp_path / "r.sqlite").run(7)


def test_a_plan_is_changed_only_as_the_type_it_is_stored_as(tmp_path):
    from dataclasses import replace

    from judge.kinds.league import LeaguePlan

    store = Store(tmp_path / "r.sqlite")
    plan = GradingPlan(game="nim", rules="misere=off", bots=("a.py",))
    run = store.create_run(plan)
    with pytest.raises(InputError, match=f"run {run} is of kind run, not league"):
        store.change_plan(run, LeaguePlan, lambda league: league)
    changed = store.change_plan(run, GradingPlan, lambda p: replace(p, bots=("b.py",)))
    assert changed.bots == ("b.py",)
    assert store.run(run).plan == changed


def test_a_file_that_is_not_a_database_is_an_input_error(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello, this is not sqlite" * 100)
    with pytest.raises(InputError):
        Store(bad)


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "theirs.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = path.read_bytes()
    with pytest.raises(InputError, match="not a judge results database .* notes"):
        Store(path)
    assert path.read_bytes() == before


def test_tables_of_the_same_names_with_other_columns_are_refused(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (id INTEGER, name TEXT)")
        db.execute("CREATE TABLE games (run_id INTEGER, key TEXT, record TEXT, stored REAL)")
    with pytest.raises(InputError, match="table runs has the columns id, name"):
        Store(path)


def test_a_refused_command_creates_no_database(tmp_path):
    out = subprocess.run([sys.executable, "-m", "judge", "run", "--game", "nim", "missing.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "missing.py" in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_new_results_database_is_private_to_the_judges_user(tmp_path) -> None:
    from judge.store import Store

    store = Store(tmp_path / "r.db")
    store.close()
    assert (tmp_path / "r.db").stat().st_mode & 0o777 == 0o600
