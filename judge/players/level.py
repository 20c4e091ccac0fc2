"""Weaker opponents from the solver: `level:N`, from random play (0) up to perfect play.

The rule of level N (0 <= N <= `TOP`), move by move: with probability N / `TOP` play as the
optimal player does (a best move, a seeded random one among equals), otherwise any legal
move, each as likely. Level 0 is random play, level `TOP` perfect play, and every level in
between keeps the value of a position with probability at least N / `TOP` on each move
(a random move may keep it too). With the same seed a level plays the same game.
"""

from __future__ import annotations

import random
from typing import Any

from judge.games.base import InputError
from judge.players.base import Played, Player
from judge.solvers import solver_for

#: the strongest level: perfect play
TOP = 10
PREFIX = "level:"


def parse_level(name: str) -> int:
    """N of ``level:N``; raises `InputError` for anything else."""
    text = name[len(PREFIX):] if name.startswith(PREFIX) else ""
    if not text.isascii() or not text.isdigit() or len(text) > 2 or int(text) > TOP:
        raise InputError(f"a weaker opponent is level:N with N from 0 (random play) to "
                         f"{TOP} (perfect play), not {name!r}")
    return int(text)


def is_level(name: str) -> bool:
    """Whether `name` is of the form ``level:...`` (checked by `parse_level`)."""
    return name.startswith(PREFIX)


class LevelPlayer(Player):
    """Plays level `level` of the module's rule, deterministic for a seed."""

    def __init__(self, level: int, seed: int | None = None) -> None:
        self.level = level
        self.name = f"{PREFIX}{level}"
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, pos: Any, last: Played | None) -> Any:
        if self._rng.randrange(TOP) < self.level:
            return solver_for(self.game).choose(pos, self._rng)
        return self.game.random_move(pos, self._rng)
