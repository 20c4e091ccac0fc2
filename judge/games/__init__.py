"""The games: rules, notation and wire codecs, written once and used everywhere.

A game is found by its entry point in the group ``judge.games`` (``name = "module:Class"``):
the judge's own three are registered in its ``pyproject.toml``, and a package that declares
one there brings a new game, with no change to the judge. Reading the installed packages'
entry points costs a tenth of a second, so it is done only when a caller needs more than a
built-in game: a built-in name is found at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import Any, NamedTuple

from judge.games.base import Game, InputError, MoveError, PositionError, RulesError

#: the entry-point group a package registers its games under
GROUP = "judge.games"

#: the judge's first three games, as its pyproject.toml registers them: found without reading
#: the entry points (the games under judge/games/NAME/ are found only by theirs)
BUILTIN = {
    "ioiwari": "judge.games.ioiwari:Ioiwari",
    "nim": "judge.games.nim:Nim",
    "chopsticks": "judge.games.chopsticks:Chopsticks",
}


class Source(NamedTuple):
    """Where a game comes from: its "module:Class" and the package that registers it."""

    target: str
    package: str  # "judge 0.1.0", or the plugin's distribution and version


class Registry(Mapping[str, str]):
    """Game name -> "module:Class" of every installed game (`GAMES`).

    A built-in name is answered without reading the entry points; iterating, `len` and any
    other name read them once. A plugin whose name is a built-in's is not used (`shadowed`).
    """

    def __init__(self) -> None:
        self._found: dict[str, Source] | None = None
        #: plugin games that were not registered because a game of that name exists
        self.shadowed: list[tuple[str, Source]] = []

    def sources(self) -> dict[str, Source]:
        """Every game with where it comes from, read from the entry points once."""
        if self._found is None:
            self._found = discover(self.shadowed)
        return self._found

    def __getitem__(self, name: str) -> str:
        if self._found is None and name in BUILTIN:
            return BUILTIN[name]
        return self.sources()[name].target

    def __contains__(self, name: object) -> bool:
        if self._found is None and name in BUILTIN:
            return True
        return name in self.sources()

    def __iter__(self) -> Iterator[str]:
        return iter(self.sources())

    def __len__(self) -> int:
        return len(self.sources())


def discover(shadowed: list[tuple[str, Source]]) -> dict[str, Source]:
    """The built-in games, then the games registered under `GROUP` by installed packages."""
    from importlib.metadata import entry_points

    from judge import __version__

    found = {name: Source(target, f"judge {__version__}") for name, target in BUILTIN.items()}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        package = f"{dist.name} {dist.version}" if dist is not None else "unknown package"
        name, source = ep.name.lower(), Source(ep.value, package)
        if name in found:
            if found[name].target != ep.value:
                shadowed.append((name, source))
            continue
        found[name] = source
    return found


#: game name -> "module:Class", imported on first use
GAMES = Registry()


class GameLoadError(RulesError):
    """An installed game that cannot be loaded (its package is broken)."""


def game_class(name: str) -> type[Game[Any, Any]]:
    """The class of game `name`; raises `RulesError`, or `GameLoadError` for a game whose
    package fails to import or does not name a `Game`."""
    key = name.lower()
    if key not in GAMES:
        raise RulesError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    target = GAMES[key]
    module, _, attr = target.partition(":")
    try:
        cls = getattr(import_module(module), attr)
    except Exception as exc:  # noqa: BLE001 - any failure of a plugin's code is its own
        package = GAMES.sources()[key].package
        raise GameLoadError(f"game {key!r} ({target}, from {package}) cannot be loaded: "
                            f"{type(exc).__name__}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise GameLoadError(f"game {key!r} ({target}) is not a judge.games.base.Game class")
    return cls


def load_game(name: str, rules: str = "") -> Game[Any, Any]:
    """The game called `name` under the `rules` tokens; raises `RulesError`."""
    return game_class(name)(rules)


__all__ = ["GAMES", "Game", "GameLoadError", "InputError", "MoveError", "PositionError",
           "RulesError", "game_class", "load_game"]
