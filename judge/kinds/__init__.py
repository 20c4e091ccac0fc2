"""Each kind of stored run in one module (`grading`, `tournament`, `match`, `league`), which
owns its schedule, its rows, its numbering of games, its text and its HTML page as its
`KIND`; and the one registry of them, `KINDS`, by the kind's name as the database's runs
table stores it (which is also its command: `judge run` makes a grading run, stored as
``run``).

`judge show`, the transcripts, the HTML report and the web app look a stored run's kind up
here; none of them asks which kind it is. Each module also holds its kind's plan, which it
registers in `judge.plan.PLANS` as it is imported; importing this package lets the store
read a run of any kind (`PLANS.load`), the kind's module imported when a run of it is
first read. A new kind is its module, and its line in `MODULES`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from judge.kinds.base import Kind
from judge.plan import PLANS

__all__ = ["KINDS", "MODULES", "Kind"]

#: the module of each kind of stored run, by the kind's name in the database
MODULES = {"run": "grading", "tournament": "tournament", "match": "match", "league": "league"}


class Registry(Mapping[str, Kind]):
    """Every kind of stored run by its name: its module's `KIND`, the module imported when
    the kind is first looked up (a one-game `judge run` loads the grading module alone)."""

    def __getitem__(self, name: str) -> Kind:
        kind: Kind = import_module(f"judge.kinds.{MODULES[name]}").KIND
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
