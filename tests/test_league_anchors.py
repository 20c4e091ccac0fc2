"""A league's anchors read true: a bot that splits its games with an anchor ends at the
anchor's skill, within one sigma (games made up from known win rates, stored as the league
plays them: the anchors' meetings first, then the bot against the anchors)."""

from __future__ import annotations

import json
import math
import random
from itertools import combinations
from pathlib import Path

import pytest

from judge.cli import main
from judge.records import PlayedGame
from judge.store import Store

#: the players' true strengths in log-odds (P(a beats b) = 1 / (1 + exp(s_b - s_a))), as
#: wide as a Nim league's: optimal beats level:2 in 98 games of 100, and level:10 plays as
#: optimal does
STRENGTH = {"optimal": 3.0, "level:8": 1.5, "level:5": 0.0, "level:2": -1.0, "level:10": 3.0}
ANCHORS = ["optimal", "level:2", "level:5", "level:8"]


def league(db: str, *args: str) -> None:
    assert main(["league", *args, "--db", db]) == 0


def store_games(db: str, pairs: list[tuple[str, str]], rng: random.Random) -> None:
    """One made-up game of each pair, in turn, drawn from the true win rates."""
    with Store(db) as store:
        run_id = store.runs()[0].id
        first = len(store.games(run_id)) + 1
        for number, (a, b) in enumerate(pairs, first):
            won = rng.random() < 1 / (1 + math.exp(STRENGTH[b] - STRENGTH[a]))
            key = f"{number}|{a}|{b}|1 2"
            store.add_game(run_id, key, PlayedGame(
                "nim misere=off", "1 2", (a, b), key=key,
                results=("win", "loss") if won else ("loss", "win")))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bot_as_strong_as_an_anchor_ends_within_one_sigma_of_it(tmp_path: Path, seed: int,
                                                                  capsys) -> None:
    db = str(tmp_path / "l.db")
    league(db, "new", "--game", "nim")
    for anchor in ANCHORS:
        league(db, "add", "--anchor", anchor)
    league(db, "add", "--anchor", "level:10", "--unpinned")  # rated as a bot is
    rng = random.Random(seed)
    # the anchors meet first (as the league matches them), then the bot plays them
    store_games(db, [pair for pair in combinations(ANCHORS, 2) for _ in range(40)], rng)
    store_games(db, [("level:10", rng.choice(ANCHORS)) for _ in range(400)], rng)
    capsys.readouterr()
    league(db, "show", "--format", "json")
    shown = json.loads(capsys.readouterr().out)
    rows = {r["name"]: r for r in shown["leaderboard"]}
    bot, anchor = rows["level:10"], rows["optimal"]
    assert abs(bot["mu"] - anchor["mu"]) < bot["sigma"], (bot, anchor)
    # how each is placed, said
    assert {rows[a]["placement"] for a in ANCHORS} == {"fitted"} and bot["placement"] == "rated"
    assert "level:8 placed by their games against each other" in shown["anchors"]
    league(db, "show", "--format", "html")
    assert "placed by their games against each other" in capsys.readouterr().out


def test_fitted_anchors_meet_each_other_first_then_bots_only() -> None:
    from judge.kinds.league import LeaguePlan, Matchmaker
    from judge.league import MEETINGS, LeagueState, Member

    anchors = [Member(n, 1, n, anchor=True, fitted=True) for n in ANCHORS[:3]]
    plan = LeaguePlan(game="nim", members=(*anchors, Member("amy", 1, "amy.py")),
                      start_positions=("1 2", "2 3"))
    state = LeagueState(plan)
    matchmaker = Matchmaker(state, 1)
    played = []
    while len(played) < 3 * MEETINGS + 20:
        for spec in matchmaker.batch(2):
            state.add(spec.key, PlayedGame("nim", spec.start, spec.players, key=spec.key,
                                      results=("win", "loss")))
            matchmaker.ended(spec)
            played.append(frozenset(spec.players))
    first, then = played[:3 * MEETINGS], played[3 * MEETINGS:]
    assert all(p <= set(ANCHORS) for p in first)
    assert {first.count(p) for p in set(first)} == {MEETINGS}  # each pair as many
    assert all("amy.py" in p for p in then)  # placed anchors never meet again
    assert not any(state.placing(n) for n in ANCHORS[:3])
