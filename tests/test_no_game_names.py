"""Nothing outside a game's package names a game: every game-specific rule of the judge sits
behind a hook of `Game` (or of its solver, which a game with its own keeps in its package
and names in `Game.solver`), so a game installed from another package works everywhere with
the defaults.

The check reads the code of `judge/` outside `judge/games/` (the solvers too): Python
identifiers and string literals (docstrings and comments are prose, not code), the code of
the JavaScript files (comments aside) and the templates. A built-in game's name found there is
a failure unless the file or the phrase is in the allowlist below, each with its reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "judge"

#: the built-in games, as a word of an identifier or of a text (``NimSolver``, "nim-sum")
GAMES = {"ioiwari", "nim", "chopsticks", "tictactoe", "octal", "connect4"}

#: files that may name games, relative to judge/
ALLOWED_FILES = {
    # nim-batch: a Nim-only command by design
    "nimbatch.py",
    "commands/nimbatch.py",
    "html/templates/nimbatch.html.j2",
}

#: phrases that name a game without being about one, removed before the check
ALLOWED_PHRASES = [
    "nim-batch",  # the Nim-only command's name (`judge nim-batch`) wherever commands are listed
    "NimBatch",  # its plan (`kinds.nimbatch.NimBatchPlan`)
    "nim_batch",  # its report (`html.render_nim_batch`)
    "nim.txt",  # its input file
]

#: the keyword arguments whose texts are examples of use (`epilog` of a command's help)
EXAMPLES = {"epilog"}


def words(text: str) -> set[str]:
    """The words of a text or an identifier, in lower case: ``NimSolver`` and ``nim_sum``
    give ``nim``, ``connect4`` stays whole."""
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    parts = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])", text)
    return {p.lower() for p in parts}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the constants that are docstrings of a module, class or function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def examples(tree: ast.AST) -> set[int]:
    """The ids of every node inside an example text: an `EXAMPLES` keyword argument, and
    the value of a constant it names (``epilog=RECIPE``)."""
    found, named = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in EXAMPLES:
            found |= {id(n) for n in ast.walk(node.value)}
            named |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in named for t in node.targets):
            found |= {id(n) for n in ast.walk(node)}
    return found


def python_names(path: Path) -> list[tuple[int, str]]:
    """(line, identifier or text) of a Python file's code that names a game."""
    tree = ast.parse(path.read_text())
    skipped = docstrings(tree) | examples(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        said: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            said = [node.value]
        elif isinstance(node, ast.Name):
            said = [node.id]
        elif isinstance(node, ast.Attribute):
            said = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            said = [node.name]
        elif isinstance(node, ast.arg):
            said = [node.arg]
        elif isinstance(node, ast.alias):
            said = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            said = [node.module or ""]
        elif isinstance(node, ast.keyword) and node.arg:
            said = [node.arg]
        found += [(getattr(node, "lineno", 0), s) for s in said if words(s) & GAMES]
    return found


def without_js_comments(text: str) -> str:
    """JavaScript source with its comments blanked out (strings kept)."""
    out, i, quote = [], 0, ""
    while i < len(text):
        c = text[i]
        if quote:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1: i + 2])
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
            out.append(c)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i) + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def text_names(path: Path) -> list[tuple[int, str]]:
    """(line, line's text) of a JavaScript or CSS file (comments aside) or a template that
    names a game."""
    text = path.read_text()
    if path.suffix in (".js", ".css"):
        text = without_js_comments(text)
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if words(line) & GAMES]


def judge_files() -> list[Path]:
    """The judge's code outside the games."""
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        inside = path.relative_to(PACKAGE)
        if inside.parts[0] == "games" or "__pycache__" in inside.parts:
            continue
        if path.suffix in (".py", ".js", ".j2", ".css"):
            out.append(path)
    return out


def test_no_module_outside_the_games_names_a_game() -> None:
    named = []
    for path in judge_files():
        where = path.relative_to(PACKAGE).as_posix()
        if where in ALLOWED_FILES:
            continue
        found = python_names(path) if path.suffix == ".py" else text_names(path)
        named += [f"judge/{where}:{line}: {said!r}" for line, said in found]
    assert named == []


def test_the_allowlist_names_files_that_exist() -> None:
    assert [w for w in sorted(ALLOWED_FILES) if not (PACKAGE / w).is_file()] == []


def test_the_check_finds_a_game_in_an_identifier_and_a_text_but_not_in_prose(
        tmp_path: Path) -> None:
    code = tmp_path / "some.py"
    code.write_text('"""Nim is prose here."""\n# Chopsticks in a comment\n'
                    'from judge.solvers.nim import nim_sum\n'
                    'def f(x):\n    """Ioiwari, prose."""\n    return x == "tictactoe"\n'
                    'p.add_parser("x", epilog="judge run --game octal")\n'
                    'RECIPE = "judge run --game connect4"\np.add_parser("y", epilog=RECIPE)\n'
                    'NAMES = ["nim-batch", "render_nim_batch", "ioiwari"]\n')
    assert {s for _, s in python_names(code)} == {"judge.solvers.nim", "nim_sum", "tictactoe",
                                                  "ioiwari"}
    script = tmp_path / "some.js"
    script.write_text('// nim in a comment\nconst a = "/play/";  /* ioiwari */\n'
                      'const b = { connect4: 1 };\nconst url = "http://x/"; // chopsticks\n')
    assert text_names(script) == [(3, "const b = { connect4: 1 };")]
