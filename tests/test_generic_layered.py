"""The generic solver's layered search (position codes with no way back, as Connect Four's):
the same table as the search that keeps every move, a plain minimax's values, and a limit set
by memory."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from judge.games.base import InputError
from judge.games.connect4 import Board, ConnectFour
from judge.solvers import generic
from judge.solvers.generic import DRAW, LOSS, WIN, GenericSolver
from tests.test_connect4_search import minimax, played


def table_of(solver: GenericSolver) -> tuple[list[int], list[int], list[int]]:
    """The solver's positions by number: numbers, values and remoteness."""
    return [[*getattr(s, f)] for s in solver.segments for f in ("codes", "values", "remoteness")]


def graph_solver(game: ConnectFour) -> GenericSolver:
    """A solver that keeps every move and pushes values back from the ends (not layered)."""
    solver = GenericSolver(game)
    solver._layered = False
    return solver


@pytest.mark.parametrize("rules", ["rows=4 cols=4", "rows=3 cols=4 connect=3",
                                   "rows=2 cols=5 connect=3", "rows=4 cols=4 connect=2"])
def test_the_layered_table_is_the_graph_table(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position the start reaches: the same value and remoteness both ways."""
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)
    monkeypatch.setattr(generic.cache, "save", lambda key, arrays: None)
    game = ConnectFour(rules)
    layered, graph = GenericSolver(game), graph_solver(game)
    assert layered._layered
    layered.solve([game.start()])
    graph.solve([game.start()])
    assert len(layered.segments) == len(graph.segments) == 1
    assert table_of(layered) == table_of(graph)


def test_starts_of_different_depths_are_solved_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions after 1 and after 4 moves searched at once (a position met in two layers),
    then the start (its search stops at those solved): each position's answer as the graph
    search's."""
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)
    game = ConnectFour("rows=4 cols=4")
    starts = [played(game, "1"), played(game, "1223"), played(game, "2213")]
    layered, graph = GenericSolver(game), graph_solver(game)
    for solver in (layered, graph):
        solver._cached_start = True  # no start's table: only what the starts reach
        solver.solve(starts)
    assert len(layered.segments) == 1
    for pos in sample(game, 200, seed=5, start=starts[0]):
        found = layered.find(layered.key(pos))
        assert found is not None and found == graph.find(graph.key(pos))
    for solver in (layered, graph):
        solver.solve([game.start()])
    assert len(layered.segments) == 2
    for pos in sample(game, 300, seed=6):
        found = layered.find(layered.key(pos))
        assert found is not None and found == graph.find(graph.key(pos))


def sample(game: ConnectFour, count: int, seed: int, start: Board | None = None,
           depth: int = 0) -> list[Board]:
    """Positions met in random games from `start`, none finished, at least `depth` discs
    in."""
    rng = random.Random(seed)
    found: dict[Board, None] = {}
    while len(found) < count:
        pos = start if start is not None else game.start()
        moves = 0
        while not game.is_over(pos):
            if moves >= depth:
                found[pos] = None
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
            moves += 1
    return list(found)[:count]


def test_the_layered_table_agrees_with_minimax_on_4x4() -> None:
    """200 random positions of Connect Four 4x4: as a plain minimax finds them."""
    game = ConnectFour("rows=4 cols=4")
    solver = GenericSolver(game)
    memo: dict[Board, tuple[int, int]] = {}
    differ = [(game.format_position(p), solver.value_of(p), minimax(game, p, memo))
              for p in sample(game, 200, seed=11)
              if solver.value_of(p) != minimax(game, p, memo)]
    assert differ == []


@pytest.mark.slow
def test_connect_four_5x5_is_solved_a_draw_and_agrees_with_minimax() -> None:
    """5x5 (69,763,700 positions) is solved: a draw from the start, and 60 random positions
    of 11 discs or more have the value and remoteness a plain minimax finds."""
    game = ConnectFour("rows=5 cols=5")
    solver = GenericSolver(game)
    assert solver.value_of(game.start()) == (DRAW, -1)
    memo: dict[Board, tuple[int, int]] = {}
    positions = sample(game, 60, seed=2, depth=11)
    differ = [(game.format_position(p), solver.value_of(p), minimax(game, p, memo))
              for p in positions if solver.value_of(p) != minimax(game, p, memo)]
    assert differ == []
    assert {solver.value_of(p)[0] for p in positions} == {WIN, LOSS, DRAW}


def test_a_game_past_the_memory_allowed_is_refused_naming_the_estimate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "1M")
    game = ConnectFour("rows=4 cols=4")  # 161,029 positions: about 3 MiB
    with pytest.raises(InputError, match=r"needs more than 1\.\d MiB to solve \(.* positions so "
                                         r"far, at 24 bytes each\): more than the 1\.0 MiB it "
                                         r"may take \(set JUDGE_SOLVER_MEMORY"):
        GenericSolver(game).value_of(game.start())
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "4M")
    assert GenericSolver(game).value_of(game.start()) == (DRAW, -1)


@pytest.mark.parametrize("setting", ["lots", "2T", "0", "-1G", "1.5G", "10Q", "²", "١٠G"])
def test_a_bad_memory_setting_is_refused(setting: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused in one sentence, not read: digits other than 0 to 9 too (a superscript two
    failed with a ValueError, and Arabic-Indic digits were taken as a number)."""
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", setting)
    with pytest.raises(InputError, match="JUDGE_SOLVER_MEMORY must be a number of bytes"):
        generic.memory_budget()


def test_judge_solve_past_the_memory_exits_2_with_one_line(tmp_path: Path) -> None:
    env = dict(os.environ, JUDGE_SOLVER_MEMORY="1M", JUDGE_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "judge", "solve", "--game", "connect4",
                           "--rules", "rows=4 cols=4", "--stats"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "JUDGE_SOLVER_MEMORY" in done.stderr
