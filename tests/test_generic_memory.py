"""The generic solver's search that keeps its moves (rules in Python, with or without
`encode`, and position codes that may come back) is held to the memory it may take, as the
layered search is: refused as it goes once its estimate passes the budget, and, within it,
solved as before."""

from __future__ import annotations

import hashlib
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from judge.games import load_game
from judge.games.base import InputError
from judge.solvers import generic
from judge.solvers.generic import WIN, GenericSolver
from tests.domineering import Domineering, Grid, PlainDomineering

REFUSED = (r"needs more than [\d.,]+ [KM]iB to solve \(([\d,]+) positions and [\d,]+ moves so far, "
           r"at \d+ and \d+ bytes each\): more than the [\d.]+ [KM]iB it may take \(set "
           r"JUDGE_SOLVER_MEMORY to allow more\)")


@pytest.fixture(autouse=True)
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """No table read from or written to disk: every search runs."""
    monkeypatch.setattr(generic.cache, "load_flat", lambda key: None)
    monkeypatch.setattr(generic.cache, "save", lambda key, arrays: None)


def without_codes(game: Any) -> GenericSolver:
    """A solver that searches through the game's rules (its position codes turned off)."""
    solver = GenericSolver(game)
    solver.codes, solver._layered = None, False
    return solver


def with_codes_kept(game: Any) -> GenericSolver:
    """A solver that searches the game's position codes keeping its moves (not layered)."""
    solver = GenericSolver(game)
    solver._layered = False
    return solver


def counted_plays(game: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one at each move the game plays."""
    plays: list[int] = []
    play = type(game).play

    def counted(self: Any, pos: Any, move: Any) -> Any:
        plays.append(1)
        return play(self, pos, move)

    monkeypatch.setattr(type(game), "play", counted)
    return plays


def found_in(refusal: pytest.ExceptionInfo[InputError]) -> int:
    """The positions a refusal says the search found."""
    said = re.search(REFUSED, str(refusal.value))
    assert said is not None
    return int(said.group(1).replace(",", ""))


@pytest.mark.parametrize("game", [Domineering("rows=5 cols=6"), PlainDomineering("rows=5 cols=6"),
                                  Domineering("rows=4 cols=5")],
                         ids=["5x6 encode", "5x6 objects", "4x5 encode"])
def test_a_search_through_the_rules_past_the_budget_stops_as_it_goes(
        game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused with its estimate at its first check, past 512 KiB (4,096 moves kept, and no
    more positions found, at 190 bytes each or more), having played a few thousand moves:
    Domineering 5x6's millions of positions are never searched."""
    plays = counted_plays(game, monkeypatch)
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "512K")
    with pytest.raises(InputError, match=REFUSED) as refused:
        GenericSolver(game).solve([game.start()])
    assert found_in(refused) <= generic.CHECK_EVERY
    assert f"{generic.CHECK_EVERY:,} moves so far" in str(refused.value)
    assert len(plays) < 10 * generic.CHECK_EVERY


def test_position_codes_kept_with_their_moves_past_the_budget_stop_as_they_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Connect Four 4x4 by its codes, not layer by layer (161,029 positions): refused at a
    step of the search, before all the positions are found."""
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "1M")
    game = load_game("connect4", "rows=4 cols=4")
    with pytest.raises(InputError, match=REFUSED) as refused:
        with_codes_kept(game).solve([game.start()])
    assert found_in(refused) < 161_029


def test_counting_positions_past_the_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """`stats` from a position off the start's table searches again, held to the budget."""
    game = Domineering("rows=4 cols=5")
    solver = GenericSolver(game)
    after = game.play(game.start(), 0)
    solver.solve([game.start()])
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "1M")
    with pytest.raises(InputError, match=REFUSED):
        solver.stats([after])
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "64M")
    assert solver.stats([after])["positions"] < 24_007


def test_an_explicit_limit_still_counts_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """`limit=` (callers and tests) refuses past that many positions, whatever the budget."""
    game = Domineering("rows=4 cols=5")
    with pytest.raises(InputError, match="has more than 1,000 positions reachable from here: "
                                         "too many to solve"):
        GenericSolver(game, limit=1000).solve([game.start()])
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "1M")
    with pytest.raises(InputError, match=REFUSED):
        GenericSolver(game, limit=100_000).solve([game.start()])



class Dense(PlainDomineering):
    """Few positions, many moves: (layer, j), each of `WIDTH` positions of a layer moving to
    every one of the layer below (901 positions, 180,300 moves); whoever moves last wins."""

    WIDTH, LAYERS = 300, 3

    def start(self) -> Any:
        return (self.LAYERS, 0)

    def mover(self, pos: Any) -> Any:
        return (self.LAYERS - pos[0]) % 2

    def legal_moves(self, pos: Any) -> list[int]:
        return list(range(self.WIDTH)) if pos[0] else []

    def play(self, pos: Any, move: int) -> Any:
        return (pos[0] - 1, move)

    def is_over(self, pos: Any) -> bool:
        return pos[0] == 0

    def winner(self, pos: Any) -> Any:
        return 1 - self.mover(pos)


def test_a_search_of_many_moves_a_position_stops_as_it_goes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its memory is checked as its moves grow, not only as new positions are found: a game
    of a few positions with 300 moves each is refused within a few thousand moves of its
    budget, where it was checked once, after all its 180,300 moves (10 MiB of a 1 MiB)."""
    game = Dense()
    plays = counted_plays(game, monkeypatch)
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "1M")
    with pytest.raises(InputError, match=REFUSED) as refused:
        GenericSolver(game).solve([game.start()])
    moves = re.search(r"([\d,]+) moves so far", str(refused.value))
    assert moves is not None
    budget_moves = 2**20 // generic.MOVE_BYTES
    assert int(moves.group(1).replace(",", "")) <= budget_moves + generic.CHECK_EVERY
    assert len(plays) <= budget_moves + generic.CHECK_EVERY
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "64M")
    assert GenericSolver(game).value_of(game.start())[0] == WIN  # 3 layers: the first wins

#: the tables of the search before its limit was set by memory (4,000,000 positions then):
#: positions, then the sha256 of their numbers, values and remoteness, each as int64
OLD_TABLES = {
    ("tictactoe", ""): (5478, "28e7070932fec9d4070f28d6eda4d1370d1994f0f5e8a4c6daafe57c7b338523"),
    ("connect4", "rows=4 cols=4"): (
        161_029, "30367541bb70d3cf638df2687760ab7cbfbcdcdabfbf7b1c7fd439c1d085652f"),
}


@pytest.mark.parametrize(("name", "rules", "budget"), [("tictactoe", "", "2M"),
                                                       ("connect4", "rows=4 cols=4", "48M")])
def test_a_game_within_the_budget_is_solved_as_before(
        name: str, rules: str, budget: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tic-tac-toe and Connect Four 4x4 through their rules, under a budget their estimate
    just fits (1.9 MiB and 46.1 MiB): the old tables, position by position."""
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", budget)
    game = load_game(name, rules)
    solver = without_codes(game)
    solver.solve([game.start()])
    assert len(solver.segments) == 1 and not solver.table
    table = solver.segments[0]
    digest = hashlib.sha256()
    for column in (table.codes, table.values, table.remoteness):
        digest.update(np.asarray(column).astype(np.int64).tobytes())
    assert (len(table.codes), digest.hexdigest()) == OLD_TABLES[name, rules]


def minimax(game: PlainDomineering, pos: Grid, memo: dict[Grid, bool]) -> bool:
    """Whether the player to move wins, by plain minimax with memo."""
    if pos not in memo:
        memo[pos] = any(not minimax(game, game.play(pos, m), memo) for m in game.legal_moves(pos))
    return memo[pos]


def reachable(game: PlainDomineering) -> list[Grid]:
    """Every position the start reaches."""
    seen = {game.start()}
    frontier = [game.start()]
    while frontier:
        kids = {game.play(pos, m) for pos in frontier for m in game.legal_moves(pos)} - seen
        seen |= kids
        frontier = list(kids)
    return sorted(seen, key=lambda p: (p.cells, p.to_move))


@pytest.mark.parametrize("cls", [Domineering, PlainDomineering])
def test_domineering_agrees_with_minimax(cls: type[PlainDomineering]) -> None:
    """Every position of 4x4 and 300 of 4x5: won for the mover exactly when minimax says so;
    4x4 and 4x5 are won by the first player (Vertical), 3x3 too."""
    for rules, count in (("rows=4 cols=4", None), ("rows=4 cols=5", 300)):
        game = cls(rules)
        solver = GenericSolver(game)
        positions = reachable(game)
        if count is not None:
            positions = random.Random(7).sample(positions, count)
        memo: dict[Grid, bool] = {}
        assert [solver.value_of(p)[0] == WIN for p in positions] == \
            [minimax(game, p, memo) for p in positions]
        assert solver.value_of(game.start())[0] == WIN
    assert GenericSolver(cls("rows=3 cols=3")).value_of(cls("rows=3 cols=3").start())[0] == WIN


def outcome_class(rows: int, cols: int) -> str:
    """Who wins the empty board: "first" or "second" player whoever starts, else "V" or
    "H" (Vertical, Horizontal) whoever starts."""
    game = Domineering(f"rows={rows} cols={cols}")
    solver = GenericSolver(game)
    vertical, horizontal = (solver.value_of(Grid(game.start().cells, seat))[0] == WIN
                            for seat in (0, 1))
    return {(True, True): "first", (False, False): "second", (True, False): "V",
            (False, True): "H"}[vertical, horizontal]


def test_small_domineering_boards_have_their_outcome_classes() -> None:
    """With either player first: 2x2 won by the first player (Lachmann, Moore and
    Rapaport), and each board and its transpose alike with Vertical and Horizontal
    swapped."""
    found = {(r, c): outcome_class(r, c) for r, c in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4),
                                                      (4, 3), (4, 4), (4, 5), (5, 4)]}
    assert found == {(2, 2): "first", (2, 3): "first", (3, 2): "first", (3, 3): "first",
                     (3, 4): "H", (4, 3): "V", (4, 4): "first", (4, 5): "V", (5, 4): "H"}


@pytest.mark.slow
def test_domineering_5x5_is_won_by_the_second_player() -> None:
    """455,317 positions with Vertical first: the second player wins 5x5, whoever starts."""
    assert outcome_class(5, 5) == "second"


def test_judge_solve_past_the_memory_exits_2_with_one_line(tmp_path: Path) -> None:
    """Tic-tac-toe, rules in Python: `judge solve --stats` under 1K says why, in one line."""
    env = dict(os.environ, JUDGE_SOLVER_MEMORY="1K", JUDGE_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "judge", "solve", "--game", "tictactoe",
                           "--stats"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "set JUDGE_SOLVER_MEMORY to allow more" in done.stderr


def test_judge_games_check_past_the_memory_skips_what_needs_the_solver(tmp_path: Path) -> None:
    """A game too big to solve under the budget is not a broken game: the checks that need
    its solver (values, perfect play, the bots' games) are skipped saying why, none fails."""
    env = dict(os.environ, JUDGE_SOLVER_MEMORY="1K", JUDGE_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "judge", "games", "--check", "tictactoe"],
                          capture_output=True, text=True, env=env, timeout=600)
    lines = done.stdout.splitlines()
    assert not [line for line in lines if line.startswith("FAILED")], done.stdout
    skipped = [line for line in lines if line.startswith("skipped")]
    assert [line.split()[1] for line in skipped] == ["values", "perfect", "bot", "bot"]
    assert all("set JUDGE_SOLVER_MEMORY to allow more" in line for line in skipped[:3])
    assert done.returncode == 0, done.stderr


class Bulky(Dense):
    """Positions that are tuples of 200 numbers beside their place: 30,001 positions in a
    line, each far bigger than the estimate's bytes a position (about 7 KiB each)."""

    WIDTH, LAYERS = 1, 30_000

    def play(self, pos: Any, move: int) -> Any:
        return (pos[0] - 1, move, *range(pos[0], pos[0] + 200))


def test_positions_bigger_than_the_estimate_are_refused_by_what_the_judge_grew(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate counts 260 bytes a position; these take about 25 times as much, so the
    search is held to what the process has grown by too (under 12M: refused when it has
    grown past it and the slack for memory not the search's, 76 MiB in all, before its
    30,001 positions, about 200 MiB)."""
    game = Bulky()
    monkeypatch.setenv("JUDGE_SOLVER_MEMORY", "12M")
    assert 30_001 * (generic.OBJECT_BYTES + generic.MOVE_BYTES) < 12 * 2**20  # it fits
    with pytest.raises(InputError, match="the memory the judge has grown by") as refused:
        GenericSolver(game).solve([game.start()])
    found = re.search(r"\(([\d,]+) positions and", str(refused.value))
    assert found is not None and int(found.group(1).replace(",", "")) < 30_001
