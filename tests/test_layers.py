"""The package's layers (docs/architecture.md): no module imports one of a layer above its
own, and no import circle, counting every import: inside functions, under `TYPE_CHECKING`,
relative ones, and modules named as strings to `importlib.import_module`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "judge"

#: bottom to top; a module belongs to the layer of the longest prefix of its name
LAYERS = [
    ("rules", ["judge.games", "judge.verdicts", "judge.exits", "judge.words", "judge.folders",
               "judge.interactor"]),
    ("solving", ["judge.solvers", "judge.sprt", "judge.ratings", "judge.testsets",
                 "judge.similarity", "judge.pairing"]),
    ("sandbox", ["judge.sandbox"]),
    ("one game", ["judge.players", "judge.referee", "judge.clock", "judge.analysis",
                  "judge.records", "judge.nimbatch", "judge.gamecheck"]),
    ("plan", ["judge.plan"]),
    ("execute", ["judge.playing", "judge.backends", "judge.cluster", "judge.credentials"]),
    ("store", ["judge.store"]),
    ("rows", ["judge.report", "judge.results", "judge.summaries", "judge.league",
              "judge.exports", "judge.html"]),  # (the package: its pages and boards)
    ("kinds", ["judge.kinds"]),
    ("report", ["judge.html.report", "judge.html.similar", "judge.transcripts",
                "judge.packages"]),
    ("web", ["judge.web"]),  # the browser app, which `judge serve` starts
    ("commands", ["judge.commands"]),
    ("cli", ["judge.cli", "judge.__main__"]),  # runs the command it is given by name
]

#: the modules that import a module by a name computed at run time, which no reading of the
#: source can place in a layer: each a registry of what a game or package names
BY_NAME = {
    "judge.games": "a game's class, by its entry point (module:Class), a plugin's too",
    "judge.solvers": "a game's solver, as the game names it (Game.solver)",
    "judge.kinds": "a kind of stored run's module, as MODULES names it (a module outside "
                   "the package by its full dotted name)",
    "judge.packages.entry": "an exported package's game, as its table names it",
}


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that the file imports, anywhere in it (in functions, under
    `TYPE_CHECKING`, relative imports, a string given to `import_module`: an f-string's
    fixed start names every module under it), with the packages' `__init__` modules that
    Python runs first: those holding each module imported, and those holding the file's
    own module (importing judge.html.pages runs judge.html)."""
    own = next(name for name, p in known.items() if p == path)
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            module = absolute(own, path, node)
            names = [f"{module}.{a.name}" for a in node.names]
            found |= {n for n in [module, *names] if n in known}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif by_name(node):
            assert isinstance(node, ast.Call)
            found |= named(node.args[0], known)
    return found | {package for name in [*found, own] for package in packages(name, known)
                    if package != own}


def absolute(own: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an import names, a relative one (``from .base import X``) made absolute."""
    if not node.level:
        return node.module or ""
    package = own.split(".") if path.name == "__init__.py" else own.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def by_name(node: ast.AST) -> bool:
    """Whether `node` imports a module by its name as a value: ``import_module(name)``,
    ``importlib.import_module(name)``, ``__import__(name)``."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    func = node.func
    called = func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else ""
    return called in ("import_module", "__import__")


def named(arg: ast.expr, known: dict[str, Path]) -> set[str]:
    """The package's modules a name given to `import_module` may be: the module a string
    names, every module under an f-string's fixed start (f"judge.commands.{name}")."""
    start = fixed(arg)
    if start is None:
        return set()
    if isinstance(arg, ast.Constant):
        return {start} & set(known)
    return {n for n in known if n.startswith(start) and n != start.rstrip(".")}


def fixed(arg: ast.expr) -> str | None:
    """A module's name as a string, or an f-string's fixed start; None when a variable."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value)
    return None


def computed(path: Path) -> bool:
    """Whether the file imports a module by a name no reading of it can tell (a variable)."""
    return any(by_name(node) and fixed(node.args[0]) is None
               for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call))


def packages(name: str, known: dict[str, Path]) -> list[str]:
    """The packages holding the module `name` (but the package `judge` itself)."""
    parts = name.split(".")
    return [p for p in (".".join(parts[:n]) for n in range(2, len(parts))) if p in known]


#: a game package's own solver (judge/games/NAME/solver.py): beside its rules, in the layer
#: of the solvers, which the rules never import (a game names its solver as a string)
GAME_SOLVER = re.compile(r"judge\.games\.\w+\.solver")


def layer(name: str) -> int:
    if name == "judge":
        return 0  # the package itself: its version
    if GAME_SOLVER.fullmatch(name):
        return [n for n, _ in LAYERS].index("solving")
    found = [(len(p), number) for number, (_, prefixes) in enumerate(LAYERS) for p in prefixes
             if name == p or name.startswith(p + ".")]
    if found:
        return max(found)[1]
    raise AssertionError(f"{name} is in no layer: add it to LAYERS and docs/architecture.md")


def test_every_module_is_in_a_layer_and_imports_none_above_its_own() -> None:
    known = modules()
    wrong = []
    for name, path in sorted(known.items()):
        mine = layer(name)
        for target in sorted(imports(path, known)):
            if layer(target) > mine:
                wrong.append(f"{name} ({LAYERS[mine][0]}) imports {target} "
                             f"({LAYERS[layer(target)][0]})")
    assert wrong == []


def test_there_is_no_import_circle() -> None:
    known = modules()
    graph = {name: imports(path, known) - {name} for name, path in known.items()}
    # a package's __init__ may name its own modules (lazily): not a circle of the code
    graph = {n: {t for t in ts if not n.startswith(t + ".") and not t.startswith(n + ".")}
             for n, ts in graph.items()}
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert circles == []


def test_only_the_registries_import_a_module_by_a_computed_name() -> None:
    known = modules()
    assert sorted(name for name, path in known.items() if computed(path)) == sorted(BY_NAME)
