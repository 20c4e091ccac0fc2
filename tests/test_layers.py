"""The package's layers (docs/architecture.md): no module imports one of a layer above its
own, and no import circle, counting imports inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "judge"

#: bottom to top; a module belongs to the first layer with a prefix of its name
LAYERS = [
    ("rules", ["judge.games", "judge.verdicts", "judge.exits", "judge.words"]),
    ("solving", ["judge.solvers", "judge.sprt", "judge.ratings", "judge.testsets",
                 "judge.similarity", "judge.pairing"]),
    ("sandbox", ["judge.sandbox"]),
    ("one game", ["judge.players", "judge.referee", "judge.analysis", "judge.records",
                  "judge.nimbatch"]),
    ("plan", ["judge.plan"]),
    ("execute", ["judge.playing", "judge.backends", "judge.cluster", "judge.credentials"]),
    ("store", ["judge.store"]),
    ("rows", ["judge.report", "judge.results", "judge.summaries", "judge.league",
              "judge.exports", "judge.html.pages", "judge.html.boards"]),
    ("kinds", ["judge.kinds"]),
    ("report", ["judge.html", "judge.transcripts"]),
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
    """The package's modules that the file imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
            found |= {n for n in [node.module, *names] if n in known}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
    return found


def layer(name: str) -> int:
    if name == "judge":
        return 0  # the package itself: its version
    for number, (_, prefixes) in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return number
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
