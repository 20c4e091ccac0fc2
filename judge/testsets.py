"""Default test sets: start positions that the graded seat can win (or at least hold)."""

from __future__ import annotations

from typing import Any, Protocol

from judge.games.base import Facts, Judging, M, P, evenly
from judge.solvers import Solvable, solver_for
from judge.solvers.base import order


class Graded(Solvable[P, M], Judging[P], Facts[P], Protocol[P, M]):
    """What a default test set reads of a game: the positions its tests are chosen from,
    the solver that values them, and whether a held position counts (a game of draws or
    of repeating positions). Every `Game` is one."""


def default_tests(game: Graded[Any, Any], first: bool) -> list[Any]:
    """The default test set for the seat: the game's `Judging.seat_test_positions` that the
    graded seat can win, or hold (at most the game's `max_tests`, spread evenly over them)."""
    solver = solver_for(game)
    keep = []
    for pos in game.seat_test_positions(first):
        v = order(solver.evaluate(pos).value)
        if (v > 0 if first else v < 0) or (v == 0 and (game.loopy or game.draws)):
            keep.append(pos)
    return keep if game.max_tests is None else evenly(keep, game.max_tests)


__all__ = ["Graded", "default_tests"]
