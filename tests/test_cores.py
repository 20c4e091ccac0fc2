"""Each game that plays at once is on one core, with its bot: the two workers of --jobs 2
on two cores, a game played in the judge's own process on one (its affinity as before
after)."""

from __future__ import annotations

import os

import pytest
from test_hostile import STANDALONE, copy_bot

from judge.schedule import OPTIMAL, GameSpec, Setup, run_specs

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or len(os.sched_getaffinity(0)) < 2,
    reason="games are placed on cores as root, on a machine with two or more")
STARTS = ["4 3 2 4 2 3 2", "2 4 2 2 4 3 3", "3 3 3 3 3 3 2", "1 5 4 2 3 2 3"]


def bot_cores(jobs: int) -> list[list[int]]:
    """The cores each game's bot could run on, as it said."""
    bot = str(copy_bot("cores.py", STANDALONE))
    setup = Setup(game="ioiwari", rules="", limits={}, sandbox="none")
    specs = [GameSpec(key=start, players=(bot, OPTIMAL), start=start) for start in STARTS]
    records: list[dict] = []
    run_specs(setup, specs, jobs, lambda spec, record: records.append(record))
    assert [r["verdict"]["code"] for r in records] == ["ok"] * len(STARTS)
    return [[int(c) for c in r["stderr"][0].split()[1:]] for r in records]


def test_the_workers_of_two_jobs_play_on_two_cores_each_game_on_one() -> None:
    cores = bot_cores(2)
    assert all(len(c) == 1 for c in cores), cores
    mine = sorted(os.sched_getaffinity(0))
    assert {c[0] for c in cores} == set(mine[:2]), cores  # the first two it may use


def test_games_played_here_are_on_one_core_and_the_judge_is_as_before_after() -> None:
    before = os.sched_getaffinity(0)
    cores = bot_cores(1)
    assert all(len(c) == 1 for c in cores) and len({c[0] for c in cores}) == 1, cores
    assert cores[0][0] in before
    assert os.sched_getaffinity(0) == before
