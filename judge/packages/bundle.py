"""The interactor a package carries: `entry` as ``main.py``, the modules of the judge that
play the game (its rules and `judge.interactor`), and the opponent's replies as data."""

from __future__ import annotations

import ast
import base64
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


def table(game: Game, replies: dict[str, str]) -> bytes:
    """The replies file: the game, its rules and class, and the replies, gzipped JSON."""
    data = {"game": game.name, "rules": game.rules_string(),
            "class": f"{type(game).__module__}:{type(game).__name__}", "replies": replies}
    return gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0)


def write(folder: Path, game: Game, replies: dict[str, str]) -> None:
    """Write the interactor into `folder` (which exists): ``main.py``, ``judge/...`` and the
    replies."""
    for rel in modules(game):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE.parent / rel, folder / rel)
    shutil.copyfile(Path(__file__).with_name("entry.py"), folder / "main.py")
    (folder / REPLIES).write_bytes(table(game, replies))


#: the single-file interactor's start: its modules imported from its own text
SINGLE = '''#!/usr/bin/env python3
"""The judge's opponent as one file, for {game}: its modules and its replies are below, and
it runs as the package's main.py does (Python 3.10 or later, nothing installed)."""

import base64
import importlib.abc
import importlib.util
import sys

MODULES = {modules}
PACKAGES = {packages}
REPLIES = {replies}


class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports MODULES from their text."""

    def find_spec(self, name, path=None, target=None):
        if name not in MODULES:
            return None
        return importlib.util.spec_from_loader(name, self, is_package=name in PACKAGES)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ in PACKAGES:
            module.__path__ = []
        exec(compile(MODULES[module.__name__], module.__name__, "exec"), module.__dict__)


sys.meta_path.insert(0, Finder())
from judge.packages.entry import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], base64.b64decode(REPLIES)))
'''


def single_file(game: Game, replies: dict[str, str]) -> str:
    """The interactor as one Python file (for a system that takes one: DMOJ, CMS): the
    modules of `write` as text, the replies as base64, imported from there."""
    names = {".".join(rel.with_suffix("").parts).removesuffix(".__init__"): rel
             for rel in modules(game)}
    names |= {"judge.packages": Path("judge/packages/__init__.py"),
              "judge.packages.entry": Path("judge/packages/entry.py")}
    texts = {name: (PACKAGE.parent / rel).read_text(encoding="utf-8")
             for name, rel in sorted(names.items())}
    packages = sorted(n for n, rel in names.items() if rel.name == "__init__.py")
    return SINGLE.format(game=game.describe(), modules=repr(texts), packages=repr(packages),
                         replies=repr(base64.b64encode(table(game, replies)).decode()))
