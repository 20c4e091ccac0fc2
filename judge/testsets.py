"""Default test sets: start positions that the graded seat can win (or at least hold)."""

from __future__ import annotations

from typing import Any

from judge.games.base import TOURNAMENT_STARTS, Game, evenly
from judge.solvers import solver_for
from judge.solvers.base import order


def candidates(game: Game, first: bool) -> list[Any]:
    """Positions to pick a test set from, for a bot that moves first (or second): the
    game's `Game.seat_test_positions`."""
    return game.seat_test_positions(first)


def default_tests(game: Game, first: bool) -> list[Any]:
    """The default test set for the seat: candidates the graded seat can win, or hold (at
    most the game's `max_tests`, spread evenly over them)."""
    solver = solver_for(game)
    keep = []
    for pos in candidates(game, first):
        v = order(solver.evaluate(pos).value)
        if (v > 0 if first else v < 0) or (v == 0 and (game.loopy or game.draws)):
            keep.append(pos)
    return keep if game.max_tests is None else evenly(keep, game.max_tests)


def tournament_starts(game: Game) -> list[Any]:
    """A default tournament's starts (each played in both seats): the game's
    `Game.tournament_starts`, by default `TOURNAMENT_STARTS` spread evenly over the first
    seat's candidates."""
    return game.tournament_starts()


__all__ = ["TOURNAMENT_STARTS", "candidates", "default_tests", "tournament_starts"]
