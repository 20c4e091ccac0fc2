"""The perfect player: always a best move, the first one or a seeded random one."""

from __future__ import annotations

import random
from typing import Any

from judge.players.base import Played, Player
from judge.solvers import solver_for


class OptimalPlayer(Player):
    """Plays a best move from the solver; with a seed, a random one among equally good moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "optimal"
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None

    def choose(self, pos: Any, last: Played | None) -> Any:
        return solver_for(self.game).choose(pos, self._rng)
