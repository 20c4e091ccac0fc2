"""Each kind of stored run in one module (`grading`, `tournament`, `match`, `league`), which
owns its schedule, its rows, its numbering of games, its text, its HTML page and its command
(`judge.kinds.base.Command`, or `Subcommands` for a command of actions of its own, as the
league's) as its `KIND`; and the one registry of them, `KINDS`, by the kind's name as the
database's runs table stores it (which is also its command: `judge run` makes a grading
run, stored as ``run``). `judge.cli` learns the kinds' commands here, and
`judge.commands.kinds` builds and runs each: no kind's command is elsewhere.

`judge show`, the transcripts, the HTML report and the web app look a stored run's kind up
here; none of them asks which kind it is. Each module also holds its kind's plan, which it
registers in `judge.plan.PLANS` as it is imported; importing this package lets the store
read a run of any kind (`PLANS.load`), the kind's module imported when a run of it is
first read. A new kind is its module, and its line in `MODULES` (a module outside the
package by its full dotted name)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING

from judge.plan import PLANS

if TYPE_CHECKING:  # (the kinds' base is imported with a kind: `judge --help` needs none)
    from judge.kinds.base import Kind

__all__ = ["KINDS", "MODULES"]

#: the module of each kind of stored run (under this package, or by its full dotted name),
#: by the kind's name in the database, in the order `judge --help` lists their commands
MODULES = {"run": "grading", "tournament": "tournament", "match": "match", "league": "league"}


def module_name(kind: str) -> str:
    """The full name of the module of `kind`."""
    module = MODULES[kind]
    return module if "." in module else f"{__name__}.{module}"


class Registry(Mapping[str, "Kind"]):
    """Every kind of stored run by its name: its module's `KIND`, the module imported when
    the kind is first looked up (a one-game `judge run` loads the grading module alone)."""

    def __getitem__(self, name: str) -> Kind:
        kind: Kind = import_module(module_name(name)).KIND
        return kind

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


#: every kind of stored run, by its name in the database
KINDS = Registry()
#: a stored run's plan is read by its kind's module, imported when a run of it is first
#: read (wherever this package is imported: every command and `judge serve`)
PLANS.load = KINDS.get
