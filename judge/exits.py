"""The exit statuses of the `judge` command, in one place (the README's table lists them)."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """What a `judge` command's exit status says."""

    #: everything asked for was done
    OK = 0
    #: the judge was stopped (a process of it killed, a bot's file changed, the cluster
    #: lost); the games played are stored and the message says how to go on
    STOPPED = 1
    #: bad input: nothing was played, stored or written
    BAD_INPUT = 2
    #: some bots were not graded: skipped (their language is not installed here), or a
    #: folder's not-graded row (no entry, two candidates, no language known here)
    SKIPPED = 3
    #: some games were void (a judge error, charged to no bot)
    VOID = 4
    #: `judge show --replay`: a transcript does not replay as recorded
    INCONSISTENT = 5
    #: Ctrl-C
    INTERRUPTED = 130
    #: SIGTERM
    TERMINATED = 143
