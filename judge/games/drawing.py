"""What a game's board drawing is made of on the Python side: plain JSON values and scripts.

A game that draws its board ships a ``board.js`` beside its ``__init__.py``: one renderer,
shared by the HTML report's viewer and the browser app, that registers itself with
``JudgeBoards.register(name, draw)``. The registry and the helpers every renderer may use
are the kit, ``drawing.js`` beside this module, loaded before any game's renderer. The
judge hands the renderer only what the game's board hooks (`Game.board_meta`,
`Game.board_state`, ...) computed: the script knows no rule.
"""

from __future__ import annotations

from functools import cache
from typing import TypeAlias

#: a value a board hook gives the renderer: what JSON carries to a browser's script
JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"

#: the largest integer a browser's JSON.parse reads exactly (2**53 - 1)
SAFE_INT = (1 << 53) - 1

#: the file of a game's renderer, beside its package's ``__init__.py``
SCRIPT = "board.js"


def exact(n: int) -> int | str:
    """An integer as JSON can carry it to a browser: exact, as a string when huge."""
    return n if -SAFE_INT <= n <= SAFE_INT else str(n)


@cache
def package_script(package: str, name: str = SCRIPT) -> str | None:
    """The text of the file `name` of the Python package `package` (a game's renderer),
    or None when the package has no such file."""
    from importlib.resources import files  # (here: most runs draw no board)

    resource = files(package).joinpath(name)
    return resource.read_text(encoding="utf-8") if resource.is_file() else None


def kit_script() -> str:
    """The kit: the renderers' registry, the text drawing of a game with none of its own, and
    the helpers renderers share (the JavaScript loaded before every game's renderer)."""
    text = package_script(__package__ or "judge.games", "drawing.js")
    assert text is not None, "judge/games/drawing.js is part of the judge"
    return text
