"""Perfect play for every game, behind the `Solver` interface."""

from __future__ import annotations

from importlib import import_module

from judge.games.base import Game
from judge.solvers.base import Evaluation, MoveValue, Solver

SOLVERS = {
    "ioiwari": "judge.solvers.ioiwari:IoiwariSolver",
    "nim": "judge.solvers.nim:NimSolver",
    "chopsticks": "judge.solvers.chopsticks:ChopsticksSolver",
}

_cache: dict[str, Solver] = {}


def solver_for(game: Game) -> Solver:
    """The solver for `game` under its rules (one instance per game and rules)."""
    key = game.describe()
    if key not in _cache:
        module, cls = SOLVERS[game.name].split(":")
        _cache[key] = getattr(import_module(module), cls)(game)
    return _cache[key]


__all__ = ["Evaluation", "MoveValue", "Solver", "solver_for"]
