"""The interactor a package carries: `entry` as ``main.py``, the modules of the judge that
play the game (its rules and `judge.interactor`), and the opponent's replies as data."""

from __future__ import annotations

import ast
import gzip
import json
import shutil
from pathlib import Path

from judge.games.base import Game, InputError
from judge.packages.entry import REPLIES

#: the judge's package folder, whose modules are copied
PACKAGE = Path(__file__).resolve().parent.parent


def modules(game: Game) -> list[Path]:
    """The judge's modules (relative to its parent folder) that serve `game`: those
    `entry` and the game's module import, and theirs, with the packages that hold them."""
    module = type(game).__module__
    if not module.startswith("judge."):
        raise InputError(f"{game.name} is a plugin game: only the judge's own games are "
                         "exported with their interactor")
    found: dict[str, Path] = {}
    todo = ["judge.packages.entry", module]
    while todo:
        name = todo.pop()
        path = _file(name)
        if name in found or path is None:
            continue
        found[name] = path
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # its packages
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                todo += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
    del found["judge.packages.entry"]  # (it is main.py)
    return sorted(p.relative_to(PACKAGE.parent) for p in found.values()
                  if p.parent.name != "packages" or p.name != "__init__.py")


def _file(name: str) -> Path | None:
    """The file of the judge's module `name`, or None for another's (or no module)."""
    if name != "judge" and not name.startswith("judge."):
        return None
    path = PACKAGE.parent / Path(*name.split("."))
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def write(folder: Path, game: Game, replies: dict[str, str]) -> None:
    """Write the interactor into `folder` (which exists): ``main.py``, ``judge/...`` and the
    replies."""
    for rel in modules(game):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE.parent / rel, folder / rel)
    shutil.copyfile(Path(__file__).with_name("entry.py"), folder / "main.py")
    table = {"game": game.name, "rules": game.rules_string(),
             "class": f"{type(game).__module__}:{type(game).__name__}", "replies": replies}
    (folder / REPLIES).write_bytes(gzip.compress(json.dumps(table, sort_keys=True).encode(),
                                                 mtime=0))
