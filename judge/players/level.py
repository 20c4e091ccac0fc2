"""Weaker opponents from the solver: `level:N`, from random play (0) up to perfect play.

The rule of level N (0 <= N <= `TOP`), move by move: with probability N / `TOP` play as the
optimal player does (a best move, a seeded random one among equals), otherwise any legal
move, each as likely. Level 0 is random play, level `TOP` perfect play, and every level in
between keeps the value of a position with probability at least N / `TOP` on each move
(a random move may keep it too). With the same seed a level plays the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from judge.games.base import InputError, Seat
from judge.players.base import Played, Player, Seated
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


@runtime_checkable
class RandomMoves(Protocol):
    """A game that draws its random move itself (every `Game`: Nim without listing every
    move of a big heap); the level player otherwise picks among the legal moves."""

    def random_move(self, pos: Any, rng: random.Random) -> Any:
        """A legal move, each as likely."""
        ...


class LevelPlayer(Player):
    """Plays level `level` of the module's rule, deterministic for a seed."""

    def __init__(self, level: int, seed: int | None = None) -> None:
        self.level = level
        self.name = f"{PREFIX}{level}"
        self.seed = seed
        self._rng = random.Random(seed)

    def begin(self, game: Seated[Any, Any], seat: Seat) -> None:
        """A game starts: its random moves are drawn by the game where it says how."""
        super().begin(game, seat)
        self._random: Callable[[Any, random.Random], Any] = (
            game.random_move if isinstance(game, RandomMoves)
            else lambda pos, rng: rng.choice(game.legal_moves(pos)))

    def choose(self, pos: Any, last: Played | None) -> Any:
        if self._rng.randrange(TOP) < self.level:
            return solver_for(self.game).choose(pos, self._rng)
        return self._random(pos, self._rng)
