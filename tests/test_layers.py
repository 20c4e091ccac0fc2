"""The package's layers (docs/architecture.md): no module imports one of a layer above its
own, and no import circle, counting imports inside functions too."""

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
    ("interface", ["judge.commands", "judge.web", "judge.cli", "judge.__main__"]),
]


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
    """The package's modules that the file imports, anywhere in it, with the packages'
    `__init__` modules that Python runs first: those holding each module imported, and
    those holding the file's own module (importing judge.html.pages runs judge.html)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
            found |= {n for n in [node.module, *names] if n in known}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
    own = next(name for name, p in known.items() if p == path)
    return found | {package for name in [*found, own] for package in packages(name, known)
                    if package != own}


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
