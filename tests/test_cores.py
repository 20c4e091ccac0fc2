"""Each game that plays at once is on one core, with its bot: the two workers of --jobs 2
on two cores, a game played in the judge's own process on one (its affinity as before
after)."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from test_hostile import STANDALONE, copy_bot

from judge import backends
from judge.backends import LocalPool
from judge.playing import OPTIMAL, GameSpec, Setup
from judge.sandbox import Limits
from judge.sandbox.context import sandbox_context

pytestmark = [
    pytest.mark.needs_root("games are placed on cores as root"),
    pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2,
                       reason="games are placed on cores on a machine with two or more"),
]
STARTS = ["4 3 2 4 2 3 2", "2 4 2 2 4 3 3", "3 3 3 3 3 3 2", "1 5 4 2 3 2 3"]


def bot_cores(jobs: int, bots: int = 1) -> list[tuple[list[int], str]]:
    """The cores each game's bots could run on, as they said, and the game's start (games of
    one bot against the optimal player, or of two bots)."""
    bot = str(copy_bot("cores.py", STANDALONE))
    setup = Setup(game="ioiwari", rules="", limits=Limits(), sandbox="none")
    seats = (bot, bot) if bots == 2 else (bot, OPTIMAL)
    specs = [GameSpec(key=start, players=seats, start=start) for start in STARTS]
    played = list(LocalPool(jobs).play(setup, specs))
    assert [r.verdict.code for _, r in played] == ["ok"] * len(STARTS)
    return [([int(c) for c in said.split()[1:]], spec.start) for spec, r in played
            for said in r.stderr if said is not None]


def test_the_workers_of_two_jobs_play_on_two_cores_each_game_on_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # each game starts only when a game of the other worker starts too (the two meet at a
    # barrier made before the workers are forked): each worker plays two of the four
    # games, however late a busy machine lets one of them start
    meet = multiprocessing.get_context("fork").Barrier(2, timeout=120)
    play_spec = backends.play_spec

    def play_with_the_other_worker(setup: Setup, spec: GameSpec) -> dict:
        meet.wait()
        (tmp_path / str(STARTS.index(spec.start))).write_text(str(os.getpid()))
        return play_spec(setup, spec)

    monkeypatch.setattr(backends, "play_spec", play_with_the_other_worker)
    played = [(cores, (tmp_path / str(STARTS.index(start))).read_text())
              for cores, start in bot_cores(2)]  # (the worker that played each)
    assert all(len(cores) == 1 for cores, _ in played), played
    by_worker = {worker: {c for cores, w in played if w == worker for c in cores}
                 for _, worker in played}
    assert len(by_worker) == 2, played
    assert all(len(cores) == 1 for cores in by_worker.values()), played
    mine = sorted(os.sched_getaffinity(0))
    assert set().union(*by_worker.values()) == set(mine[:2]), played  # the first two


def test_games_played_here_are_on_one_core_and_the_judge_is_as_before_after() -> None:
    before = os.sched_getaffinity(0)
    cores = [c for c, _ in bot_cores(1)]
    assert all(len(c) == 1 for c in cores) and len({c[0] for c in cores}) == 1, cores
    assert cores[0][0] in before
    # the judge's threads (the stderr one too) and its launchers as before
    assert os.sched_getaffinity(0) == before
    assert os.sched_getaffinity(sandbox_context().stderr_pump().native_id) == before
    assert all(os.sched_getaffinity(pid) == before for pid in sandbox_context().launcher_pids())


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_two_bots_of_a_game_keep_every_core(jobs: int) -> None:
    # one thinking in the other's turn would take half of its time on one core
    cores = [c for c, _ in bot_cores(jobs, bots=2)]
    assert cores and all(set(c) == os.sched_getaffinity(0) for c in cores), cores
