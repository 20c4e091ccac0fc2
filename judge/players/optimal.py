"""The perfect players: always a best move, the first one or a seeded random one (optimal), or
the one that leaves the bot the fewest ways to keep its value (tricky)."""

from __future__ import annotations

import random
from typing import Any

from judge.games.base import InputError
from judge.players.base import Played, Player
from judge.solvers import solver_for

#: the kinds of perfect opponent, for `opponent_player`
OPPONENTS = ("optimal", "tricky")


class OptimalPlayer(Player):
    """Plays a best move from the solver; with a seed, a random one among equally good moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "optimal"
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None

    def choose(self, pos: Any, last: Played | None) -> Any:
        return solver_for(self.game).choose(pos, self._rng)


def opponent_player(kind: str, seed: int | None) -> Player:
    """The perfect opponent of `kind` (one of `OPPONENTS`) with the game's `seed`."""
    if kind == "optimal":
        return OptimalPlayer(seed)
    if kind == "tricky":  # (imported here: a run with the plain opponent never needs it)
        from judge.players.tricky import TrickyPlayer

        return TrickyPlayer(seed)
    raise InputError(f"unknown opponent {kind!r} (opponents: {', '.join(OPPONENTS)})")
