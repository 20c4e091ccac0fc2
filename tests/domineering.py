"""Domineering, written as a plugin's author would from docs/games.md: rules in plain Python,
with `encode` and no position codes. Vertical (seat 0) places a domino on two cells one above
the other, Horizontal (seat 1) on two cells side by side; whoever cannot place one loses.

The rules are ``rows=R cols=C`` (4x4 by default). A position is the grid row by row, rows
separated by ``/`` (``.`` a free cell, ``#`` a covered one), then ``v`` or ``h`` for the
player to move: ``##../..../..../.... h``. A move is the number of the domino's first cell
(top or left), from 1, row by row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from judge.games.base import (
    Game,
    InputError,
    PositionError,
    RulesError,
    Seat,
    garbage,
    illegal,
    parse_int,
    strict_tokens,
)

FREE, COVERED = ".", "#"


@dataclass(frozen=True, slots=True)
class Grid:
    """The cells row by row (`FREE` or `COVERED`) and the seat to move."""

    cells: str
    to_move: Seat = 0


class PlainDomineering(Game[Grid, int]):
    """Vertical (seat 0) against Horizontal (seat 1); whoever cannot move loses. Without
    `encode`: the solver keeps its positions as Python objects."""

    name = "domineering"
    defaults: ClassVar[dict[str, str]] = {"rows": "4", "cols": "4"}

    def __init__(self, rules: str = "") -> None:
        super().__init__(rules)
        try:
            self.rows = parse_int(self.rules["rows"], "rows", 1, 8)
            self.cols = parse_int(self.rules["cols"], "cols", 1, 8)
        except InputError as exc:
            raise RulesError(str(exc)) from None

    def start(self) -> Grid:
        return Grid(FREE * (self.rows * self.cols))

    def standard_starts(self) -> list[Grid]:
        return [self.start()]

    def mover(self, pos: Grid) -> Seat:
        return pos.to_move

    def legal_moves(self, pos: Grid) -> list[int]:
        step = self.cols if pos.to_move == 0 else 1
        cells = pos.cells
        return [i for i, c in enumerate(cells) if c == FREE and (
            i + step < len(cells) and cells[i + step] == FREE
            and (step == self.cols or i % self.cols != self.cols - 1))]

    def play(self, pos: Grid, move: int) -> Grid:
        other = move + (self.cols if pos.to_move == 0 else 1)
        cells = list(pos.cells)
        cells[move] = cells[other] = COVERED
        return Grid("".join(cells), 1 - pos.to_move)

    def is_over(self, pos: Grid) -> bool:
        return not self.legal_moves(pos)

    def winner(self, pos: Grid) -> Seat | None:
        return 1 - pos.to_move  # who cannot move loses

    def parse_position(self, text: str) -> Grid:
        tokens = text.split()
        cells = tokens[0].replace("/", "") if tokens else ""
        if (len(tokens) != 2 or tokens[1] not in ("v", "h") or len(cells) != self.rows * self.cols
                or set(cells) - {FREE, COVERED}):
            raise PositionError(f"bad domineering position {text.strip()!r}: expected "
                                f"{self.rows} rows of {self.cols} cells ('.' or '#') and v or h")
        return Grid(cells, 0 if tokens[1] == "v" else 1)

    def format_position(self, pos: Grid) -> str:
        rows = [pos.cells[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]
        return "/".join(rows) + " " + "vh"[pos.to_move]

    def wire_start(self, pos: Grid) -> list[str]:
        return [f"{self.rows} {self.cols}", self.format_position(pos)]

    def parse_move(self, line: str, pos: Grid) -> int:
        tokens = strict_tokens(line)
        if len(tokens) != 1 or not tokens[0].isdigit() or len(tokens[0]) > 3:
            raise garbage(line, "a move is the number of a cell")
        move = int(tokens[0]) - 1
        if move not in self.legal_moves(pos):
            raise illegal(line, "no domino of yours fits there")
        return move

    def format_move(self, move: int, pos: Grid) -> str:
        return str(move + 1)

    def render(self, pos: Grid) -> str:
        return self.format_position(pos).replace("/", "\n")


class Domineering(PlainDomineering):
    """The same game with `encode`: the solver keeps its positions by number."""

    def encode(self, pos: Grid) -> int:
        """The covered cells as bits, the seat to move below them."""
        return int(pos.cells.replace(FREE, "0").replace(COVERED, "1") + str(pos.to_move), 2)
