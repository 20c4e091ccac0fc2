"""Perfect play for every game, behind the `Solver` interface."""

from __future__ import annotations

import threading
from collections import OrderedDict
from importlib import import_module
from typing import Any, Protocol

from judge.games.base import M, P, Rules
from judge.solvers.base import Evaluation, MoveValue, Solver

#: solvers kept, for the rules asked for most recently: a process asked for many variants
#: (the browser app) holds only these; one asked for again reads its tables from the disk cache
KEPT = 8

_cache: OrderedDict[str, Solver] = OrderedDict()
_lock = threading.Lock()


class Solvable(Rules[P, M], Protocol[P, M]):
    """A game that `solver_for` finds the solver of: its rules, the solver it names and its
    exact rules, under which the solver is kept (every `Game` is one)."""

    @property
    def solver(self) -> str:
        """Its solver, as "module:Class"."""
        ...

    def describe(self) -> str:
        """The game and its exact rules."""
        ...


def solver_for(game: Solvable[Any, Any]) -> Solver:
    """The solver for `game` under its rules (one instance per game and rules, of the
    `KEPT` rules asked for last)."""
    key = game.describe()
    with _lock:
        solver = _cache.get(key)
        if solver is not None:
            _cache.move_to_end(key)
            return solver
    module, cls = game.solver.split(":")
    made = getattr(import_module(module), cls)(game)
    with _lock:
        solver = _cache.setdefault(key, made)  # another thread's, if it was quicker
        _cache.move_to_end(key)
        while len(_cache) > KEPT:
            _cache.popitem(last=False)
    return solver


__all__ = ["Evaluation", "MoveValue", "Solvable", "Solver", "solver_for"]
