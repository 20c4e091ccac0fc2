"""A Nim batch run (`judge nim-batch`): each program run once on one nim.txt and graded
line by line. Not stored (it has no games): its plan alone, which the command and the
report read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from judge.plan import Harness


@dataclass(frozen=True, kw_only=True)
class NimBatchPlan:
    """`judge nim-batch`: each program run on one nim.txt and graded line by line (a batch
    task, not stored: it has no games)."""

    kind: ClassVar[str] = "nim-batch"
    programs: tuple[str, ...]
    #: the nim.txt given to every program, its data sets (heap sizes), and the file it came
    #: from (None: the standard one)
    text: str
    cases: tuple[tuple[int, ...], ...]
    input_file: str | None = None
    strict: bool = False
    per_case: bool = False
    harness: Harness = field(default_factory=Harness)
