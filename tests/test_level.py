"""Weaker opponents `level:N`: the documented rule, deterministic for a seed, and accepted
where the perfect opponent is named on the command line."""

from __future__ import annotations

import pytest

from judge.games import load_game
from judge.games.base import InputError
from judge.players.level import TOP, LevelPlayer
from judge.players.optimal import opponent_kind, opponent_player
from judge.solvers import solver_for
from judge.solvers.base import order


def moves_of(level: int, seed: int, game_name: str = "nim", start: str = "5 6 7 9") -> list:
    game = load_game(game_name)
    player = LevelPlayer(level, seed)
    player.begin(game, 0)
    pos, played = game.parse_position(start), []
    while not game.is_over(pos):
        move = player.choose(pos, None)
        played.append(move)
        pos = game.play(pos, move)
    return played


def test_the_top_level_is_perfect_play_and_never_gives_value_away():
    game = load_game("ioiwari")
    solver = solver_for(game)
    player = LevelPlayer(TOP, seed=4)
    player.begin(game, 0)
    pos = game.start()
    while not game.is_over(pos):
        move = player.choose(pos, None)
        assert not solver.is_mistake(pos, move)
        pos = game.play(pos, move)


def test_a_level_plays_the_same_game_for_the_same_seed_and_level_zero_blunders():
    assert moves_of(3, seed=7) == moves_of(3, seed=7)
    game, solver = load_game("nim"), solver_for(load_game("nim"))
    mistakes = 0
    for seed in range(20):
        pos = game.parse_position("5 6 7 9")  # a won position: a random move mostly loses it
        move = moves_of(0, seed)[0]
        mistakes += order(solver.move_value(pos, move).value) < order(solver.evaluate(pos).value)
    assert mistakes >= 10


def test_a_huge_nim_heap_gets_a_random_move_without_listing_its_moves():
    game = load_game("nim")
    player = LevelPlayer(0, seed=1)
    player.begin(game, 0)
    pos = game.parse_position(f"{10**30} 3")
    heap, count = player.choose(pos, None)
    assert 1 <= count <= pos.sizes[heap - 1]


@pytest.mark.parametrize("name", ["level:", "level:11", "level:-1", "level:x", "level:٣",
                                  "level:003"])
def test_a_bad_level_is_refused_with_the_range(name):
    with pytest.raises(InputError, match="0 .random play. to 10"):
        opponent_kind(name)


def test_the_opponent_of_a_run_may_be_a_level():
    assert opponent_kind("level:4") == "level:4"
    with pytest.raises(InputError, match="unknown opponent"):
        opponent_kind("levels:3")
    assert opponent_player("level:4", 3).name == "level:4"
