"""Games played on forked worker processes: each scheduled game once, failures said."""

from __future__ import annotations

import os
import time

import pytest
from test_hostile import children_of_this_process

import judge.backends as backends
from judge.playing import GameSpec, Setup
from judge.sandbox import Limits

SETUP = Setup(game="nim", rules="", limits=Limits(), sandbox="none")
SPECS = [GameSpec(key=f"g{i}", players=("a", "b"), start=str(i)) for i in range(40)]


def children() -> list[int]:
    """This process's children now but those it had before the test (launchers of games
    that earlier tests played here)."""
    return [pid for pid in children_of_this_process() if pid not in BEFORE]


BEFORE: set[int] = set()


def fake_play(setup: Setup, spec: GameSpec) -> dict:
    """A game's record: who played it (the worker's pid) and which it was."""
    if spec.start == "13" and os.environ.get("DIE_AT_13"):
        os._exit(3)  # a worker killed mid-game
    if spec.start == "7" and os.environ.get("FAIL_AT_7"):
        raise ValueError("the judge's own bug")
    time.sleep(30 if int(spec.start) >= 100 else 0.01)  # (some games take long)
    return {"key": spec.key, "pid": os.getpid()}


@pytest.fixture(autouse=True)
def fake_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "play_spec", fake_play)  # the workers are forked
    BEFORE.clear()
    BEFORE.update(children())


def test_every_game_is_played_once_and_the_workers_share_them() -> None:
    played = list(backends._play_all(SETUP, SPECS, 2))
    assert sorted(spec.key for spec, _ in played) == sorted(spec.key for spec in SPECS)
    assert all(record["key"] == spec.key for spec, record in played)
    assert len({record["pid"] for _, record in played} - {os.getpid()}) == 2
    assert children() == []  # both workers ended and were reaped


def test_one_job_plays_in_this_process() -> None:
    played = list(backends._play_all(SETUP, SPECS[:3], 1))
    assert [record["pid"] for _, record in played] == [os.getpid()] * 3


def test_an_exception_in_a_worker_stops_the_run_with_that_exception(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAIL_AT_7", "1")
    with pytest.raises(ValueError, match="the judge's own bug"):
        list(backends._play_all(SETUP, SPECS, 2))
    assert children() == []


def test_a_worker_that_dies_is_said_and_the_other_one_plays_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIE_AT_13", "1")
    played = []
    with pytest.raises(backends.BackendLost, match="1 game unplayed"):
        for spec, _ in backends._play_all(SETUP, SPECS, 2):
            played.append(spec.key)
    assert "g13" not in played and len(played) == len(SPECS) - 1
    assert children() == []


def test_a_run_stopped_by_its_reader_ends_its_workers_at_once() -> None:
    slow = [GameSpec(key=f"s{i}", players=("a", "b"), start=str(100 + i)) for i in range(4)]
    games = backends._play_all(SETUP, [*SPECS[:2], *slow], 2)
    next(games)
    began = time.monotonic()
    games.close()  # as a Ctrl-C in the reader does
    assert time.monotonic() - began < 20  # long before the slow games' 30 s, however busy
    assert children() == []


def test_a_worker_that_dies_between_its_games_of_keep_busy_is_a_lost_backend() -> None:
    # (a worker killed while it waits for its next game: handing it one must not end the
    # run as if its output had been closed, which the command line takes for success)
    items = [(SETUP, spec) for spec in SPECS[:10]]
    games = backends.LocalPool(2).keep_busy(lambda: items.pop(0) if items else None)
    with pytest.raises(backends.BackendLost, match="ended"):
        for _, record in games:
            os.kill(record["pid"], 9)  # it sent its record and waits for its next game
            wait_until_gone(record["pid"])
    assert children() == []


def wait_until_gone(pid: int) -> None:
    """Wait until the child `pid` is a zombie (or reaped): killed, and not yet reaped."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] in "ZX":
                    return
        except FileNotFoundError:
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} still there after 60 s")
