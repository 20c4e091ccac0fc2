"""The games: rules, notation and wire codecs, written once and used everywhere."""

from __future__ import annotations

from importlib import import_module

from judge.games.base import Game, InputError, MoveError, PositionError, RulesError

#: game name -> "module:class", imported on first use
GAMES = {
    "ioiwari": "judge.games.ioiwari:Ioiwari",
    "nim": "judge.games.nim:Nim",
    "chopsticks": "judge.games.chopsticks:Chopsticks",
}


def load_game(name: str, rules: str = "") -> Game:
    """The game called `name` under the `rules` tokens; raises `RulesError`."""
    key = name.lower()
    if key not in GAMES:
        raise RulesError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    module, cls = GAMES[key].split(":")
    return getattr(import_module(module), cls)(rules)


__all__ = ["GAMES", "Game", "InputError", "MoveError", "PositionError", "RulesError", "load_game"]
