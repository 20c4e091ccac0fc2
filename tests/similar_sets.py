"""The calibration set of copy detection (docs/grading.md#copies-by-their-source): pairs
of programs of four classes, each with the score `judge.similarity` gives it.

- apart: programs written apart to one statement (tests/data/similar/apart, Nim and
  Chopsticks in Python, and tests/data/class-nim's programs that are not copies);
- versions: a program and the same student's edited version (tests/data/similar/versions,
  each named as its first version in apart/ or class-nim);
- disguised: each Python program of apart/ disguised by `disguise` (names changed,
  functions reordered, comments dropped and spacing redone, a dead statement in every
  function), and class-nim's own disguised copies (COPIES.txt);
- starter: programs begun from one sample bot, bots/nim/greedy.py, each with its own
  choose() (tests/data/similar/starter: `begun_from_greedy`), compared with that bot
  given as base file.

`python tests/similar_sets.py` prints the scores of each class."""

from __future__ import annotations

import ast
import hashlib
import tempfile
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

from judge.similarity import Tokens, compare, compare_files, tokens

HERE = Path(__file__).parent
DATA = HERE / "data" / "similar"
CLASS = HERE / "data" / "class-nim"
GREEDY = HERE.parent / "bots" / "nim" / "greedy.py"


class Disguise(ast.NodeTransformer):
    """A program's own names renamed, and a dead assignment first in every function."""

    def __init__(self, own: set[str]) -> None:
        self.own = own

    def rename(self, name: str) -> str:
        return f"my_{name[::-1]}" if name in self.own else name

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.rename(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.rename(node.arg)
        node.annotation = None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.generic_visit(node)
        node.name = self.rename(node.name)
        node.returns = None
        node.body.insert(0, ast.parse("unused_flag = len([]) > 1").body[0])
        return node


def disguise(text: str) -> str:
    """`text` (Python) as a student hides a copy: its own names (functions, arguments,
    variables) renamed, its top-level functions in reverse order among themselves,
    comments and docstrings dropped, the spacing redone, and a dead statement at the top
    of every function."""
    tree = ast.parse(text)
    own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    own |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    own |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            body.pop(0)  # the docstring
            body = body or [ast.Pass()]
            node.body = body  # type: ignore[attr-defined]
    slots = [k for k, n in enumerate(tree.body) if isinstance(n, ast.FunctionDef)]
    moved = [tree.body[k] for k in reversed(slots)]
    for k, node in zip(slots, moved, strict=True):
        tree.body[k] = node
    tree = ast.fix_missing_locations(Disguise(own).visit(tree))
    return "# my own solution\n" + ast.unparse(tree) + "\n"


def begun_from_greedy(name: str) -> str:
    """The student `name`'s program: the sample greedy bot with its docstring and its
    choose() replaced by the student's (tests/data/similar/starter/NAME.py)."""
    sample = GREEDY.read_text()
    head, rest = sample.split("def choose", 1)
    own = (DATA / "starter" / f"{name}.py").read_text().rstrip("\n")
    return (f'"""Nim bot of {name}: begun from the sample greedy bot."""'
            + head[head.index('"""', 3) + 3:] + own + rest[rest.index("\n\n\ndef main"):])


STUDENTS = ("ann", "bob", "cem")


def read(path: Path) -> Tokens:
    found = tokens(path.read_text(), path.name)
    assert found is not None
    return found


def apart() -> Iterator[tuple[str, str, float]]:
    """Every pair of programs written apart (of apart/ and class-nim together), of one
    language, with its score."""
    copies = {frozenset(line.split()) for line in (CLASS / "COPIES.txt").read_text().split("\n")
              if line.strip()}
    programs = {p.name: read(p) for folder in (DATA / "apart", CLASS)
                for p in sorted(folder.iterdir()) if p.suffix != ".txt"}
    for x, y in combinations(programs, 2):
        if programs[x].family == programs[y].family and {x, y} not in copies:
            yield x, y, compare(programs[x], programs[y], (x, y)).similarity


def versions() -> Iterator[tuple[str, str, float]]:
    """Each program of versions/ with its first version."""
    for second in sorted((DATA / "versions").iterdir()):
        first = next(p for p in (DATA / "apart" / second.name, CLASS / second.name)
                     if p.exists())
        yield first.name, f"{second.name} (v2)", compare(read(first), read(second),
                                                        ("1", "2")).similarity


def disguised() -> Iterator[tuple[str, str, float]]:
    """Each Python program of apart/ with its disguised copy, and class-nim's copies."""
    for path in sorted((DATA / "apart").glob("*.py")):
        copy = tokens(disguise(path.read_text()), "copy.py")
        assert copy is not None
        yield path.name, "its disguise", compare(read(path), copy, ("1", "2")).similarity
    for line in (CLASS / "COPIES.txt").read_text().split("\n"):
        if line.strip():
            x, y = line.split()
            yield x, y, compare(read(CLASS / x), read(CLASS / y), (x, y)).similarity


def starter(base: bool = True) -> Iterator[tuple[str, str, float]]:
    """Each pair of starter/'s programs, with the sample bot they began from as base file
    (`base`) or not."""
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for name in STUDENTS:
            path = Path(folder) / f"{name}.py"
            path.write_text(begun_from_greedy(name))
            files.append((path.name, str(path), hashlib.sha256(path.read_bytes()).hexdigest()))
        bases = ((GREEDY.name, str(GREEDY), hashlib.sha256(GREEDY.read_bytes()).hexdigest()),)
        found = compare_files(tuple(files), 0.01, bases if base else (), 1.0)
    scores = {p.bots: p.similarity for p in found.pairs}
    for (x, *_), (y, *_) in combinations(files, 2):
        yield x, y, scores.get((x, y), 0.0)


CLASSES = {"written apart": apart, "versions of one program": versions,
           "disguised copies": disguised, "begun from starter code, given as --base": starter,
           "begun from starter code, counted whole": lambda: starter(False)}


if __name__ == "__main__":
    for what, pairs in CLASSES.items():
        scores = sorted(s for _, _, s in pairs())
        print(f"{what}: {len(scores)} pairs, lowest {100 * scores[0]:.0f}%, median "
              f"{100 * scores[len(scores) // 2]:.0f}%, highest {100 * scores[-1]:.0f}%")
