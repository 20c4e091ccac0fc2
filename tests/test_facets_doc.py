"""docs/games.md lists what a game must define, what it may define and what `Game` gives,
with the signatures of the code: the list and the code cannot drift apart."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

from judge.games.base import Facts, Game, Impartial, Judging
from judge.html.boards import Board
from judge.html.teaching import Teaching
from judge.players.level import RandomMoves
from judge.solvers.generic import Encoded, Numbered
from judge.web.sessions import BrowserLimits, TieRemoteness

DOC = Path(__file__).resolve().parent.parent / "docs" / "games.md"

#: the optional facets that `Game` does not define, by the Protocol that declares each
FACETS: dict[str, type] = {"grundy": Impartial, "encode": Encoded,
                           "position_codes": Numbered}

#: the groups of what a game may define, each by the Protocols of its facet
GROUPS: dict[str, tuple[type, ...]] = {
    "the facts": (Facts,), "judging": (Judging,), "the level player": (RandomMoves,),
    "teaching": (Teaching,), "the board": (Board,), "the browser app's limits": (BrowserLimits,),
    "solving": (TieRemoteness, Impartial, Encoded, Numbered)}


def blocks() -> list[dict[str, str]]:
    """The section's Python blocks in order (must, may, given): each name with its
    signature as written (a method's ``(self, ...) -> R``, an attribute's annotation)."""
    text = DOC.read_text()
    section = text.split("## The interface, facet by facet\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"```python\n(.*?)```", section, re.S):
        names = {}
        for line in block.splitlines():
            line = line.split("  #", 1)[0].rstrip()
            if match := re.fullmatch(r"def (\w+)(\(.*\) -> .+)", line):
                names[match[1]] = match[2]
            elif match := re.fullmatch(r"(\w+): (.+)", line):
                names[match[1]] = match[2]
        found.append(names)
    return found


def groups() -> dict[str, set[str]]:
    """The names of the block of what a game may define, by the comment that heads their
    group (``# the board``)."""
    text = DOC.read_text()
    section = text.split("## The interface, facet by facet\n", 1)[1].split("\n## ", 1)[0]
    may = re.findall(r"```python\n(.*?)```", section, re.S)[1]
    found: dict[str, set[str]] = {}
    for line in may.splitlines():
        if line.startswith("# "):
            group = found.setdefault(line[2:].strip(), set())
        elif match := re.match(r"(?:def )?(\w+)", line):
            group.add(match[1])
    return found


def declared(proto: type) -> set[str]:
    """The public members a Protocol declares itself."""
    return {n for n in vars(proto) if not n.startswith("_")}


def signature(owner: type, name: str) -> str:
    """`name`'s signature in `owner`, as the doc writes it."""
    member: Any = vars(owner).get(name)
    if member is None or name in getattr(owner, "__annotations__", {}) and not callable(member):
        return str(owner.__annotations__[name])
    if isinstance(member, classmethod):
        member = member.__func__
    return str(inspect.signature(member)).replace("'", "")


def test_the_doc_lists_every_member_of_game_in_its_place() -> None:
    must, may, given = blocks()
    public = {n for n in vars(Game) if not n.startswith("_")} | {"name"}
    assert set(must) == set(Game.__abstractmethods__) | {"name"}
    assert set(may) == public - set(must) - set(given) | set(FACETS)
    assert not set(must) & set(may) and not set(may) & set(given)
    assert public <= set(must) | set(may) | set(given)


def test_the_doc_gives_the_code_s_signatures() -> None:
    for names in blocks():
        for name, written in names.items():
            owner = FACETS.get(name, Game)
            assert written == signature(owner, name), name


def test_each_facet_s_group_lists_its_protocol() -> None:
    must, _, given = blocks()
    found = groups()
    for group, protos in GROUPS.items():
        members = set().union(*(declared(p) for p in protos)) - set(must) - set(given)
        if group == "solving":
            members |= {"solver"}  # what `Solvable` adds to the rules
        assert found[group] == members, group
    assert set(found) == set(GROUPS) | {"the notation"}
