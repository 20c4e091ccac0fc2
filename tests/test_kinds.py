"""Each kind of stored run is one entry of `judge.kinds.KINDS`, and what shows a stored run
(`judge show`, the transcripts, the HTML report, `judge serve`'s stored games) finds its
kind there: a kind changed in the registry changes what each of them gives."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from judge.cli import main, module_of
from judge.html.report import render_report
from judge.kinds import KINDS, MODULES, module_name
from judge.kinds.base import Output, Subcommands, Text
from judge.kinds.grading import GradingPlan
from judge.kinds.league import LeaguePlan
from judge.kinds.match import MatchPlan
from judge.kinds.tournament import TournamentPlan
from judge.league import Member
from judge.plan import PLANS, Plan
from judge.records import PlayedGame
from judge.store import Store
from judge.transcripts import transcript_lines

STARTS = ("1 2 4", "3 4 5")


def stored_run(kind: str) -> tuple[Plan, list[tuple[str, PlayedGame]]]:
    """A plan of `kind` and two of its games, as the store keeps them (key, record)."""
    plans: dict[str, Plan] = {
        "run": GradingPlan(game="nim", bots=("a.py",), starts={"first": STARTS}),
        "tournament": TournamentPlan(game="nim", entrants=("a.py", "b.py"),
                                     start_positions=STARTS[:1]),
        "match": MatchPlan(game="nim", bots=("a.py", "b.py"), start_positions=STARTS[:1]),
        "league": LeaguePlan(game="nim", members=(Member("a", 1, "a.py"),
                                                  Member("b", 1, "b.py")),
                             start_positions=STARTS[:1]),
    }
    keys = {
        "run": [GradingPlan.key("a.py", start, "first") for start in STARTS],
        "tournament": ["1|1 2 4|a.py|b.py", "1|1 2 4|b.py|a.py"],
        "match": ["1|1|1 2 4|a.py|b.py", "1|1|1 2 4|b.py|a.py"],
        "league": ["1|a.py|b.py|1 2 4", "2|b.py|a.py|1 2 4"],
    }[kind]
    players = [("a.py", "optimal")] * 2 if kind == "run" else [("a.py", "b.py"),
                                                             ("b.py", "a.py")]
    starts = STARTS if kind == "run" else STARTS[:1] * 2
    return plans[kind], [(key, PlayedGame("nim", start, who, key=key, results=("win", "loss")))
                         for key, start, who in zip(keys, starts, players, strict=True)]


@pytest.fixture
def db(tmp_path) -> str:
    """A database with one finished run of every kind: run 1 a grading run, then a
    tournament, a match and a league (in `KINDS`' order)."""
    path = str(tmp_path / "r.sqlite")
    with Store(path) as store:
        for kind in KINDS:
            plan, games = stored_run(kind)
            run_id = store.create_run(plan)
            for key, rec in games:
                store.add_game(run_id, key, rec)
            store.finish(run_id)
    return path


def changed(monkeypatch: pytest.MonkeyPatch, kind: str, **fields: object) -> None:
    """`kind` changed in the registry, for the test: its module's `KIND`."""
    module = import_module(f"judge.kinds.{MODULES[kind]}")
    monkeypatch.setattr(module, "KIND", module.KIND._replace(**fields))


def run_of(kind: str) -> str:
    """The number of the run of `kind` in `db`."""
    return str(list(KINDS).index(kind) + 1)


def test_every_kind_a_run_is_stored_as_has_its_entry_in_the_registry():
    assert set(KINDS) == set(PLANS)
    # each kind's plan is its module's, registered there
    assert {name: PLANS[name].__module__ for name in KINDS} == {
        name: f"judge.kinds.{module}" for name, module in MODULES.items()}
    assert all(kind.name == name for name, kind in KINDS.items())
    # what plays games as a stored run's command does has a schedule
    assert {name for name, kind in KINDS.items() if kind.schedule is None} == {"league"}


def test_every_kind_declares_its_command_in_its_own_module():
    # a kind's command is its KIND's, made by its module's functions; the commands' layer
    # holds no module of a kind's name
    commands = Path(import_module("judge.commands").__file__).parent
    for name in KINDS:
        command = KINDS[name].command
        assert command is not None, name
        made = command.actions if isinstance(command, Subcommands) else command.new_plan
        assert made.__module__ == module_name(name), name
        assert not (commands / f"{module_of(name)}.py").exists(), name


@pytest.mark.parametrize("kind", list(KINDS))
def test_judge_show_prints_a_run_as_its_kind_prints_it(kind, db, capsys):
    with Store(db, read_only=True) as store:
        text = KINDS[kind].text(store, int(run_of(kind)), "table", True, None, False, True,
                                Output()).text
    assert capsys.readouterr().out == ""  # given back, not printed
    assert text.split()[0] == kind
    assert main(["show", run_of(kind), "--details", "--db", db]) == 0
    assert capsys.readouterr().out == text


@pytest.mark.parametrize("kind", list(KINDS))
def test_judge_show_asks_the_registry_not_the_kinds_name(kind, db, capsys, monkeypatch):
    def text(store, run_id, fmt, details, folder, wide, report, output):
        return Text(f"{kind} {run_id} by the registry, as {fmt}\n")

    changed(monkeypatch, kind, text=text)
    assert main(["show", run_of(kind), "--format", "json", "--db", db]) == 0
    assert capsys.readouterr().out == f"{kind} {run_of(kind)} by the registry, as json\n"


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_transcripts_and_judge_serve_number_the_games_as_the_registry_does(
        kind, db, monkeypatch):
    from starlette.testclient import TestClient

    from judge.web.app import create_app
    from judge.web.sessions import Served

    def keys(client: TestClient) -> list[str]:
        with Store(db, read_only=True) as store:
            lines = [json.loads(line) for line in transcript_lines(store, int(run_of(kind)))]
        assert [line["game_number"] for line in lines] == [1, 2]
        served = [client.get(f"/api/runs/{run_of(kind)}/games/{n}").json() for n in (1, 2)]
        assert [s["start"] for s in served] == [line["start"] for line in lines]
        return [line["key"] for line in lines]

    with TestClient(create_app(Served(db=Path(db))), base_url="http://127.0.0.1:8000") as client:
        before = keys(client)
        numbered = KINDS[kind].numbered_games
        changed(monkeypatch, kind,
                numbered_games=lambda plan, records: numbered(plan, records)[::-1])
        assert keys(client) == before[::-1]


@pytest.mark.parametrize("kind", [name for name, kind in KINDS.items() if kind.page])
def test_the_html_report_is_the_page_of_the_runs_kind(kind, db, monkeypatch):
    page = KINDS[kind].page
    assert page is not None
    made = []

    def recorded(store, info, game, records, view, numbered):
        made.append(info.kind)
        return page(store, info, game, records, view, numbered)

    changed(monkeypatch, kind, page=recorded)
    with Store(db, read_only=True) as store:
        html = render_report(store, int(run_of(kind)))
    assert made == [kind]
    assert '"kind":"' + kind + '"' in html and 'id="game-2"' in html


#: a fresh interpreter that imports ENTRY alone, then opens the database and reads the plan
#: of each of its runs; with FORK, in a child forked after the import (a local pool's worker)
READ_PLANS = """
import os, sys
from importlib import import_module

entry, db, fork = sys.argv[1:]
import_module(entry)
if fork == "fork" and os.fork() != 0:
    _, status = os.wait()
    sys.exit(os.waitstatus_to_exitcode(status))
from judge.store import Store

with Store(db, read_only=True) as store:
    print(" ".join(type(store.run(r.id).plan).__name__ for r in store.runs()))
"""


@pytest.mark.parametrize("entry, fork", [
    ("judge.commands.show", ""), ("judge.commands.kinds", ""), ("judge.kinds.league", ""),
    ("judge.commands.serve", ""), ("judge.web.app", ""), ("judge.web.league", ""),
    ("judge.commands.kinds", "fork")])
def test_a_store_opened_by_each_entry_point_reads_every_kinds_plan(entry, fork, db):
    # every command that opens a store, judge serve's app and its league pages, and a
    # worker forked from them; the workers of a cluster read no plan (a game's `Setup`)
    out = subprocess.run([sys.executable, "-c", READ_PLANS, entry, db, fork or "no"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["GradingPlan", "TournamentPlan", "MatchPlan", "LeaguePlan"]


def test_below_the_kinds_a_store_reads_no_plan_of_a_kind_it_has_not_imported(db):
    # the store and the plan, a layer below the kinds, import none of them
    out = subprocess.run([sys.executable, "-c", READ_PLANS, "judge.store", db, "no"],
                         capture_output=True, text=True, timeout=120)
    assert "a stored run of an unknown kind 'run'" in out.stderr
