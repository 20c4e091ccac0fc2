"""What a league matches, checked without playing: its games made up as the matchmaker hands
them out, stored at once."""

from __future__ import annotations

import pytest

from judge.kinds.league import LeaguePlan, Matchmaker
from judge.league import LeagueState, Member
from judge.records import PlayedGame, Verdict


@pytest.mark.parametrize("fail_fast", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("slots", [1, 3])
def test_a_crashing_version_plays_exactly_its_fail_fast_games(fail_fast: int,
                                                             slots: int) -> None:
    plan = LeaguePlan(game="nim", members=(Member("amy", 1, "amy.py"),
                                           Member("crash", 1, "crash.py")),
                      start_positions=("1 2", "2 3"), fail_fast=fail_fast)
    state = LeagueState(plan)
    matchmaker = Matchmaker(state, 1)
    for _ in range(10):
        # each slot is handed its games before any of them ends
        specs = [spec for _ in range(slots) for spec in matchmaker.batch(2)]
        for spec in specs:
            seat = spec.players.index("crash.py")
            results = ("loss", "win") if seat == 0 else ("win", "loss")
            state.add(spec.key, PlayedGame("nim", spec.start, spec.players, key=spec.key,
                                           results=results, verdict=Verdict("crash", "",
                                                                            seat)))
            matchmaker.ended(spec)
    assert state.broken("crash.py")
    assert state.games_of("crash.py") == fail_fast
