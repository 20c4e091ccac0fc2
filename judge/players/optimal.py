"""The perfect players: always a best move, the first one or a seeded random one (optimal), or
the one that leaves the bot the fewest ways to keep its value (tricky)."""

from __future__ import annotations

import random
from typing import Any

from judge.games.base import InputError
from judge.players.base import Played, Player
from judge.solvers import solver_for

#: the kinds of perfect opponent, for `opponent_player` (and the weaker ``level:N``)
OPPONENTS = ("optimal", "tricky")


class OptimalPlayer(Player):
    """Plays a best move from the solver; with a seed, a random one among equally good moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "optimal"
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None

    def choose(self, pos: Any, last: Played | None) -> Any:
        return solver_for(self.game).choose(pos, self._rng)


def opponent_kind(kind: str) -> str:
    """`kind` when it names an opponent: one of `OPPONENTS` or ``level:N``; else `InputError`."""
    from judge.players.level import is_level, parse_level

    if is_level(kind):
        parse_level(kind)
    elif kind not in OPPONENTS:
        raise InputError(f"unknown opponent {kind!r} (opponents: {', '.join(OPPONENTS)}, "
                         f"level:N)")
    return kind


def opponent_player(kind: str, seed: int | None) -> Player:
    """The opponent of `kind` (one of `OPPONENTS`, or ``level:N``) with the game's `seed`."""
    if kind == "optimal":
        return OptimalPlayer(seed)
    if kind == "tricky":  # (imported here: a run with the plain opponent never needs it)
        from judge.players.tricky import TrickyPlayer

        return TrickyPlayer(seed)
    if kind.startswith("level:"):
        from judge.players.level import LevelPlayer, parse_level

        return LevelPlayer(parse_level(kind), seed)
    raise InputError(f"unknown opponent {kind!r} (opponents: {', '.join(OPPONENTS)})")
