"""A human at the terminal: types moves in wire syntax, may ask for a hint, undo or redo."""

from __future__ import annotations

import io
import os
import select
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from judge.games.base import MoveError
from judge.players.base import OutOfTime, Played, Player
from judge.solvers import solver_for

HELP = ("type a move in the protocol's syntax, or: hint (every move's value), "
        "undo (take back your last move), redo, quit")


class Undo(Exception):
    """The human asked to take back their last move."""


class Redo(Exception):
    """The human asked to replay a move they took back."""


class Resigned(Exception):
    """The human typed quit, or their input ended: they give the game up."""


class HumanPlayer(Player):
    """Reads moves from a terminal; bad input is explained and asked again, never a forfeit."""

    def __init__(self, name: str = "you", stdin: TextIO | None = None,
                 stdout: TextIO | None = None) -> None:
        self.name = name
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        #: when the next move's clock runs out (a `time.monotonic` reading; None: no clock)
        self._deadline: float | None = None
        #: what was read of the input past the last line, on a clock (see `_read_line`)
        self._pending = b""

    def clocked(self, allowance: float, told: str | None) -> None:
        """The next move is on a clock: its input is waited for `allowance` seconds at most,
        then `OutOfTime` (`told` is for bots: a person sees the clocks on the board)."""
        self._deadline = time.monotonic() + allowance

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def choose(self, pos: Any, last: Played | None) -> Any:
        commands: dict[str, Callable[[], Any]] = {
            "hint": lambda: self._say(self.hint(pos)),
            "help": lambda: self._say(HELP),
            "?": lambda: self._say(HELP),
        }
        deadline, self._deadline = self._deadline, None
        while True:
            self.stdout.write(f"{self.name}> ")
            self.stdout.flush()
            line = self._read_line(deadline)
            if not line or line.strip() == "quit":
                raise Resigned("typed quit" if line else "the input ended")
            text = line.strip()
            if text == "undo":
                raise Undo
            if text == "redo":
                raise Redo
            if text in commands:
                commands[text]()
                continue
            try:
                return self.game.parse_move(text, pos)
            except MoveError as exc:
                self._say(f"  {exc.reason}; {HELP}")

    def _read_line(self, deadline: float | None) -> str:
        """The next line typed ("" at the end of the input). On a clock, waited for until
        its `deadline` (a `time.monotonic` reading) and no longer (`OutOfTime`): read from
        the descriptor, not through the stream's buffer, which select cannot see."""
        try:
            fd = self.stdin.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            fd = -1
        if deadline is None or fd < 0:
            line = self.stdin.readline()
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime
            return line
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise OutOfTime
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            self._pending += chunk
        line, sep, self._pending = self._pending.partition(b"\n")
        return (line + sep).decode(errors="replace")

    def hint(self, pos: Any) -> str:
        """Every legal move with its value for the mover, best first."""
        from judge.solvers.base import preference

        solver = solver_for(self.game)
        values = sorted(solver.move_values(pos), key=preference, reverse=True)
        parts = []
        for mv in values:
            rem = "" if mv.remoteness is None else f" in {mv.remoteness}"
            parts.append(f"{self.game.format_move(mv.move, pos)}: {mv.value}{rem}")
        return "  " + "; ".join(parts)
