"""What a bot may use in one game: the limits, one value per run, recorded with it."""

from __future__ import annotations

from dataclasses import dataclass

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

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value <= 0:
                raise InputError(f"limit {name} must be positive, not {value}")
