"""What a bot may use in one game (the limits, one value per run, recorded with it), and
what it used (`Usage`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from judge.games.base import InputError


@dataclass(frozen=True)
class Limits:
    """What a bot may use in one game; the defaults suit Python bots on a modest machine.

    Where the judge has cgroups (see `judge.sandbox.tiers`), memory, CPU and processes are
    counted over all of the bot's processes and threads; elsewhere per process.
    """

    #: wall-clock seconds for each move after the first
    move_seconds: float = 2.0
    #: wall-clock seconds for the first move (interpreter start-up, building tables)
    first_move_seconds: float = 10.0
    #: CPU seconds for the whole game, all of the bot's processes together
    cpu_seconds: int = 60
    #: memory in bytes: address space per process (RLIMIT_AS), and with cgroups the bot's
    #: whole resident memory, its files in tmpfs included
    memory_bytes: int = 1 << 30
    #: processes and threads the bot may have at once
    processes: int = 32
    #: largest file the bot may write, in bytes (RLIMIT_FSIZE)
    file_bytes: int = 16 << 20
    #: bytes the bot may store in its work dir and /tmp together
    disk_bytes: int = 64 << 20
    #: open file descriptors (RLIMIT_NOFILE)
    open_files: int = 64
    #: bytes the judge reads from the bot's stdout in one game
    output_bytes: int = 1 << 20
    #: longest move line in bytes, without the newline
    line_bytes: int = 4096
    #: bytes of the end of the bot's stderr kept for the transcript
    stderr_bytes: int = 8192
    #: moves after which a game of a loopy game is stopped as a tie
    move_limit: int = 200
    #: seconds a bot gets to exit after its input is closed or its output ends
    grace_seconds: float = 1.0
    #: wall-clock seconds for the bot's whole game
    game_seconds: float = 300.0

    @property
    def tmpfs_files(self) -> int:
        """Files and folders the bot may make in each tmpfs the judge mounts for it (its
        work dir, /tmp, /dev/shm, ...): one per 8 KiB of `disk_bytes`, at least 1024. Each
        holds about 1 KiB of the kernel's memory, which only a cgroup counts; a tmpfs of
        the kernel's default takes one per two pages of the machine's memory."""
        return max(1024, self.disk_bytes >> 13)

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value <= 0:
                raise InputError(f"limit {name} must be positive, not {value}")


class Usage(NamedTuple):
    """What a bot used in one game, as isolate's meta file gives it (time, time-wall,
    max-rss, cg-oom-killed): CPU over all its processes where the slot's cgroups count them."""

    #: CPU seconds, all its processes together
    cpu_seconds: float
    #: wall seconds from its start to its end (or the judge's kill) in this game
    wall_seconds: float
    #: the peak resident memory of its processes (bytes), the same measure in every tier:
    #: the kernel's high-water mark of each (VmHWM, ru_maxrss), or what they held together
    #: at the judge's looks if more; no page cache, tmpfs or sandbox of its slot's (see
    #: `Confined.usage`); None where it could not be read
    memory_bytes: int | None
    #: the kernel killed one of its processes for going over the memory limit
    oom_killed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The usage as plain JSON-serialisable data."""
        return {"cpu_seconds": self.cpu_seconds, "wall_seconds": self.wall_seconds,
                "memory_bytes": self.memory_bytes, "oom_killed": self.oom_killed}
