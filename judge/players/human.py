"""A human at the terminal: types moves in wire syntax, may ask for a hint, undo or redo."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from judge.games.base import MoveError
from judge.players.base import Played, Player
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

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def choose(self, pos: Any, last: Played | None) -> Any:
        commands: dict[str, Callable[[], Any]] = {
            "hint": lambda: self._say(self.hint(pos)),
            "help": lambda: self._say(HELP),
            "?": lambda: self._say(HELP),
        }
        while True:
            self.stdout.write(f"{self.name}> ")
            self.stdout.flush()
            line = self.stdin.readline()
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
