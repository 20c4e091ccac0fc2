"""A run's plan: stored and read back unchanged, older runs still read, and the command line
it gives back plays the very same plan."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from judge.kinds.grading import GradingPlan
from judge.kinds.match import MatchPlan
from judge.kinds.tournament import System, TournamentPlan
from judge.plan import OPTIMAL, BotSource, Harness, from_config
from judge.sandbox import Limits
from judge.sprt import SprtParams
from judge.store import Store
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"


PLANS = [
    GradingPlan(game="nim", rules="misere=on", bots=("a.py", "b.c"), seats="both",
                starts={"first": ("1 2", "3 4 5"), "second": ("1 1",)}, tests="t.txt",
                opponent="tricky", directory="/somewhere", fail_fast=3,
                sources=(BotSource("a.py", "ab" * 32), BotSource("b.c", "cd" * 32)),
                harness=Harness(limits=Limits(move_seconds=3.5, memory_bytes=64 << 20),
                                sandbox="bwrap", tier="bwrap+uid+cgroups",
                                guarantees={"network": True}, jobs=3, seed=7,
                                languages={"c": {"flags": "-O1"}}),
                planned=10),
    TournamentPlan(game="chopsticks", rules="split=on", entrants=("x.py", OPTIMAL),
                   gauntlet="x.py", starts_file=None, start_positions=("1 1 1 1 0",),
                   rounds=3, harness=Harness(seed=11), planned=6),
    TournamentPlan(game="nim", entrants=("x.py", "level:3", OPTIMAL), rounds=5, pairs=3,
                   system=System.SWISS, start_positions=("1 2",), harness=Harness(seed=2)),
    TournamentPlan(game="nim", entrants=("x.py", "level:3", OPTIMAL), pairs=3,
                   system=System.KNOCKOUT, start_positions=("1 2",), harness=Harness(seed=2)),
    MatchPlan(game="ioiwari", bots=(OPTIMAL, "y.py"), opponent="tricky",
              start_positions=("4 4 4 4 4 4 4",), sprt=SprtParams(elo1=20, alpha=0.1),
              max_games=8, harness=Harness(seed=3), planned=8),
]


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: f"{p.kind}-{getattr(p, 'system', '')}")
def test_a_plan_comes_back_from_the_database_as_it_was_stored(tmp_path: Path, plan) -> None:
    store = Store(tmp_path / "r.db")
    run_id = store.create_run(plan)
    again = Store(tmp_path / "r.db", read_only=True).run(run_id)
    assert again.plan == plan
    assert again.kind == plan.kind
    stored = json.loads(store.db.execute("SELECT config FROM runs").fetchone()[0])
    assert stored["version"] == 5


def test_a_run_stored_before_plans_had_versions_is_read_with_what_it_did(tmp_path) -> None:
    # the JSON a judge of the first version stored: no version, tier, opponent, directory
    old = {"game": "nim", "rules": "misere=off", "bots": ["a.py"], "tests": None,
           "seats": "first", "starts": {"first": ["1 2"]}, "limits": {"move_seconds": 2.0},
           "sandbox": "none", "jobs": 2, "seed": None, "planned": 1,
           "fingerprints": {"a.py": "ef" * 32}}
    plan = from_config("run", old)
    assert isinstance(plan, GradingPlan)
    assert plan.opponent == OPTIMAL and plan.harness.tier == "none"
    assert plan.harness.limits == Limits() and plan.starts == {"first": ("1 2",)}
    assert plan.sources == (BotSource("a.py", "ef" * 32),)
    db = tmp_path / "old.db"
    Store(db).close()
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO runs (kind, game, config, created) VALUES (?, ?, ?, 0)",
                    ("run", "nim misere=off", json.dumps(old)))
    assert Store(db, read_only=True).run(1).plan == plan


def _one_plan(db: Path) -> object:
    return Store(db, read_only=True).run(1).plan


@pytest.mark.parametrize("kind", ["run", "tournament", "match"])
def test_the_command_line_a_plan_gives_back_plays_the_same_plan(tmp_path: Path, kind) -> None:
    for name in ("random.py", "optimal.py"):  # (named so as not to hide Python's random)
        shutil.copy(NIM / name, tmp_path / f"bot_{name}")
    (tmp_path / "starts.txt").write_text("1 2\n2 3\n")
    common = ["--game", "nim", "--rules", "misere=on", "--sandbox", "none", "--seed", "4",
              "--move-time", "3", "--memory", "300", "--db", "first.db"]
    args = {
        "run": ["run", *common, "--seats", "both", "--opponent", "tricky", "--fail-fast", "2",
                "--tests",
                "starts.txt", "bot_random.py", "bot_optimal.py"],
        "tournament": ["tournament", *common, "--starts", "starts.txt", "--rounds", "2",
                       "--include-optimal", "--gauntlet", "bot_random.py", "bot_optimal.py"],
        "match": ["match", *common, "--starts", "starts.txt", "--max-games", "4", "--sprt",
                  "elo1=30", "bot_random.py", "tricky"],
    }[kind]
    first = judge(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    plan = _one_plan(tmp_path / "first.db")
    argv = plan.to_argv()
    assert argv[:2] == ["judge", kind]
    again = judge(*argv[1:], "--db", "second.db", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert _one_plan(tmp_path / "second.db") == plan


def test_a_match_refuses_to_write_its_output_over_the_results_database(tmp_path) -> None:
    shutil.copy(NIM / "random.py", tmp_path / "bot_random.py")
    db = tmp_path / "judge-results.sqlite"
    made = judge("match", "--game", "nim", "--max-games", "2", "--sandbox", "none",
                 "bot_random.py", "optimal", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    before = db.read_bytes(), os.stat(db).st_mode
    out = judge("match", "--game", "nim", "--max-games", "2", "--sandbox", "none",
                "bot_random.py", "optimal", "--output", "judge-results.sqlite", cwd=tmp_path)
    assert out.returncode == 2 and "would overwrite" in out.stderr
    assert (db.read_bytes(), os.stat(db).st_mode) == before
    assert [r.id for r in Store(db, read_only=True).runs()] == [1]


def test_a_bot_source_notices_a_change_and_a_file_put_back() -> None:
    from judge.games.base import Stopped

    path = NIM / "random.py"
    source = BotSource.read(str(path))
    source.check()
    assert source.content() == path.read_bytes()
    other = replace(source, fingerprint="00" * 32)
    with pytest.raises(Stopped, match="changed .or went. during the run"):
        other.check()
    with pytest.raises(Stopped):
        other.content()


def test_a_grading_schedule_plays_every_bot_on_every_start_of_each_seat_once() -> None:
    plan = GradingPlan(game="nim", bots=("a|b.py", "c.py"), seats="both",
                       starts={"first": ("1 2", "3"), "second": ("1 2",)})
    specs = plan.schedule()
    assert len({s.key for s in specs}) == len(specs) == 6
    assert [s.start for s in specs] == ["1 2", "1 2", "3", "3", "1 2", "1 2"]
    # "1 2" is won by its mover: the bot moves first there as the first seat, second else
    assert [s.players.index("a|b.py") for s in specs if "a|b.py" in s.players] == [0, 0, 1]


def test_a_match_pair_is_one_start_both_seats_one_seed_and_a_key_each() -> None:
    plan = MatchPlan(game="nim", bots=("A", "B"), start_positions=("1 2", "3"),
                     harness=Harness(seed=4))
    first, second = plan.pair_games(0)
    assert first.players == ("A", "B") and second.players == ("B", "A")
    assert first.start == second.start and first.seeded_by == second.seeded_by
    assert first.key != second.key


def test_copies_of_one_program_under_two_names_are_named_when_the_run_starts(
        tmp_path: Path) -> None:
    for name in ("alice", "bob", "carol"):
        (tmp_path / name).mkdir()
    shutil.copy(NIM / "optimal.py", tmp_path / "alice" / "main.py")
    shutil.copy(NIM / "optimal.py", tmp_path / "bob" / "main.py")
    shutil.copy(NIM / "random.py", tmp_path / "carol" / "main.py")
    sources = tuple(BotSource.read(str(tmp_path / n / "main.py"))
                    for n in ("alice", "bob", "carol"))
    plan = GradingPlan(game="nim", bots=tuple(s.path for s in sources), sources=sources)
    assert plan.identical() == [(sources[0].path, sources[1].path)]
    (tmp_path / "t.txt").write_text("1 2\n")
    out = judge("run", "--game", "nim", "--tests", "t.txt", "--sandbox", "none",
                "alice/main.py", "bob/main.py", "carol/main.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "alice/main.py, bob/main.py are the same program" in out.stderr
    assert "carol" not in out.stderr.split("same program")[0].splitlines()[-1]


def test_a_bots_games_are_listed_in_the_order_of_its_starts_whatever_its_path_holds() -> None:
    from judge.kinds.grading import graded_games
    from judge.records import PlayedGame

    plan = GradingPlan(game="nim", bots=("x|y.py",), seats="both",
                       starts={"first": ("3 4", "1 2"), "second": ("2 2",)})
    records = {spec.key: PlayedGame("nim", spec.start, spec.players, key=spec.key)
               for spec in reversed(plan.schedule())}
    [(bot, games)] = graded_games(plan, records)
    assert bot == "x|y.py"
    assert [rec.start for rec, _ in games] == ["3 4", "1 2", "2 2"]


def test_a_bot_sent_by_its_content_is_placed_once_under_its_name_and_only_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.games.base import Stopped

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    path = NIM / "random.py"
    source = BotSource.read(str(path))
    placed = source.placed(path.read_bytes())
    assert Path(placed).name == "random.py" and Path(placed).read_bytes() == path.read_bytes()
    assert source.placed(path.read_bytes()) == placed  # written once, found again
    assert Path(placed).parent.parent.stat().st_mode & 0o777 == 0o700  # no other uid's
    with pytest.raises(Stopped, match="changed .or went. during the run"):
        source.placed(b"print('another program')\n")
