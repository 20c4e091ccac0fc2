"""A game's optional facets are typed Protocols that the code checks with isinstance, never
attributes looked up by name: a game's hook read with ``getattr`` (``getattr(game,
"grundy", None)``) is one that neither mypy nor a reader sees, and that a typo in a
plugin's method name silently turns off."""

from __future__ import annotations

import ast
from pathlib import Path

from judge.games import load_game
from judge.games.base import Game, Impartial
from judge.solvers.generic import Acyclic, Encoded, Numbered, numbering

PACKAGE = Path(__file__).resolve().parent.parent / "judge"

#: the optional hooks of a game, of its position codes and of its solver
HOOKS = {"grundy", "encode", "position_codes", "acyclic", "outcome"}


def lookups(root: Path) -> list[str]:
    """Every ``getattr``/``hasattr`` under `root` that reads a game (an argument naming a
    game, or a game's own ``self``) or names one of `HOOKS`, as ``file:line``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2):
                continue
            target, name = ast.unparse(node.args[0]), node.args[1]
            hook = isinstance(name, ast.Constant) and name.value in HOOKS
            in_game = path.parent.name == "games" and target == "self"
            if hook or in_game or target.split(".")[-1] == "game":
                found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_optional_hook_is_read_by_name() -> None:
    assert lookups(PACKAGE) == []


def test_the_facets_are_found_by_type() -> None:
    octal, tictactoe, connect4 = (load_game("octal"), load_game("tictactoe"),
                                  load_game("connect4"))
    assert isinstance(octal, Impartial) and not isinstance(tictactoe, Impartial)
    assert isinstance(tictactoe, Encoded) and not isinstance(octal, Encoded)
    assert isinstance(connect4, Numbered) and not isinstance(tictactoe, Numbered)
    codes, encode = numbering(connect4)
    assert codes is not None and encode == codes.encode
    assert isinstance(codes, Acyclic) and codes.acyclic
    codes, encode = numbering(tictactoe)
    assert codes is None and encode is not None and encode(tictactoe.start()) == 0
    assert numbering(octal) == (None, None)
    assert octal.grundy_value(octal.parse_position("3")) == 3  # Kayles: a row of 3 is *3
    assert tictactoe.grundy_value(tictactoe.start()) is None


def test_codes_that_decline_leave_the_rules() -> None:
    """`position_codes` may return None (rules too big): numbering then goes by `encode`."""

    class Declines(type(load_game("tictactoe"))):  # type: ignore[misc]
        def position_codes(self) -> None:
            return None

    game: Game = Declines()
    codes, encode = numbering(game)
    assert codes is None and encode is not None
