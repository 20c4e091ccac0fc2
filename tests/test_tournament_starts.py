"""Facts about the starts a tournament or a match plays by default: a start whose result no
move of either player changes tells nothing of them, and is left out."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from judge.commands.inputs import paired_starts
from judge.games import GAMES, load_game
from judge.games.base import (
    TOURNAMENT_STARTS,
    Game,
    InputError,
    acyclic,
    decided,
    played_starts,
)
from tests.command import judge


def results_of_random_play(game: Game, start: Any, games: int, seed: int) -> set[Any]:
    """The results (the winning seat, None for a tie, "long" past 500 moves) of up to
    `games` random games from `start`, until two differ."""
    rng = random.Random(seed)
    seen: set[Any] = set()
    while games and len(seen) < 2:
        games -= 1
        pos = start
        for _ in range(500):
            if game.is_over(pos):
                seen.add(game.winner(pos))
                break
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
        else:
            seen.add("long")
    return seen


def test_nims_1_1_1_is_won_by_the_first_mover_whatever_either_plays_and_is_not_played():
    nim = load_game("nim")
    assert decided(nim, nim.parse_position("1 1 1"))  # three forced moves
    assert decided(nim, nim.parse_position("1"))
    assert not decided(nim, nim.parse_position("1 1 2"))  # take 2 and win, or 1 and lose
    starts = paired_starts(nim, None)
    assert "1 1 1" not in starts
    assert len(starts) == TOURNAMENT_STARTS - 1
    assert starts == [nim.format_position(p) for p in nim.tournament_starts()
                      if nim.format_position(p) != "1 1 1"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_default_start_left_has_a_move_that_changes_its_result(name):
    base = load_game(name)
    for rules in ["", *base.variants.values()]:
        game = load_game(name, rules)
        for start in played_starts(game):
            # random play from the start ends in two ways at least: some choice matters
            assert len(results_of_random_play(game, start, 400, 1)) > 1, (
                rules, game.format_position(start))


def test_a_graph_of_positions_with_a_cycle_is_not_acyclic():
    assert acyclic({1: [2, 3], 2: [3], 3: []})
    assert not acyclic({1: [2], 2: [3], 3: [1]})
    assert not acyclic({1: [2, 3], 2: [3], 3: [2]})


#: octal rules under which a move takes a whole heap of one counter only: every default
#: start is decided by its heaps alone
ALL_DECIDED = ("octal", "code=0.1")


def test_a_game_whose_every_default_start_is_decided_is_refused_its_default_starts():
    game = load_game(*ALL_DECIDED)
    assert game.tournament_starts() and not played_starts(game)
    with pytest.raises(InputError, match="--starts FILE"):
        paired_starts(game, None)


@pytest.mark.parametrize("command", [["tournament"], ["tournament", "--system", "swiss"],
                                     ["match"], ["tournament", "--system", "knockout"]])
def test_a_run_with_no_default_start_to_play_is_one_line_status_2_and_stores_nothing(
        tmp_path: Path, command: list[str]) -> None:
    out = judge(*command, "--game", ALL_DECIDED[0], "--rules", ALL_DECIDED[1], "level:1",
                "level:3", "--db", "r.db", cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "--starts FILE" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "r.db").exists()


def test_a_league_with_no_default_start_to_match_on_is_refused_before_it_is_made(
        tmp_path: Path) -> None:
    out = judge("league", "new", "--game", ALL_DECIDED[0], "--rules", ALL_DECIDED[1],
                "--db", "l.db", cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "--starts FILE" in out.stderr, out.stderr
    assert not (tmp_path / "l.db").exists()
