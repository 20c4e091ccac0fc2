"""What runs a bot: its command line and what a sandbox must show of it (`Program`), and a
bot given as a folder: its files and their digest."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from judge.folders import folder_digest, folder_files
from judge.sandbox.limits import Limits

__all__ = ["CompileError", "NotGradable", "Program", "folder_digest", "folder_files"]


class CompileError(Exception):
    """A bot that does not compile; the message is the compiler's output."""


@dataclass(frozen=True)
class Program:
    """A bot ready to run: where it came from, the command line, and what it must see."""

    source: Path
    argv: tuple[str, ...]
    #: folders of its runtime beyond the system's (an interpreter installed elsewhere)
    runtime: tuple[Path, ...] = ()
    #: what a sandbox must show of it, when not its own file (the last argument)
    shows: tuple[Path, ...] | None = None
    #: its language's name ("" for an executable)
    language: str = ""
    #: whether the address-space rlimit applies (not to a managed runtime's reservations)
    address_space: bool = True
    #: what its language adds to the run's limits (a runtime's start, its threads)
    extra: tuple[tuple[str, float], ...] = ()
    #: variables its language sets
    env: tuple[tuple[str, str], ...] = ()
    #: the arguments that hold {heap} (a managed heap's size, known with the limits)
    heap_at: tuple[int, ...] = ()
    #: the groups of system calls its filter allows beyond the base set (its language's
    #: `syscalls`; None: every group, as for a compile or a program of no language)
    syscalls: tuple[str, ...] | None = None

    def shown(self) -> Path:
        """The bot's own file (its last argument): a sandbox shows it, nothing beside it."""
        return Path(self.argv[-1])

    def shown_paths(self) -> tuple[Path, ...]:
        """Everything a sandbox must show of the program, beyond the system."""
        return (*self.runtime, *((self.shown(),) if self.shows is None else self.shows))

    def under(self, limits: Limits) -> tuple[Program, Limits]:
        """The command and limits for a run's `limits`: its language's allowances added,
        and a managed heap ({heap}) sized to two thirds of the memory limit."""
        if self.extra:
            limits = replace(limits, **{k: type(getattr(limits, k))(getattr(limits, k) + v)
                                        for k, v in self.extra})
        heap = str(max(16, (limits.memory_bytes >> 20) * 2 // 3))
        argv = tuple(a.replace("{heap}", heap) if i in self.heap_at else a
                     for i, a in enumerate(self.argv))
        return replace(self, argv=argv), limits


class NotGradable(Exception):
    """A folder given as a bot that the judge cannot grade (no entry, two candidates, no
    language it knows, its toolchain missing); the message says why, for its verdict."""


