"""Tic-tac-toe: X and O take turns on a 3x3 grid; three in a row wins, a full grid is a tie.

A position is the grid, row by row from the top, rows separated by ``/``: ``x.o/.x./..o``
(``.`` an empty cell; the slashes may be left out). X moves first, so whose turn it is
follows from the marks: X when there are as many of each, O otherwise. A move is the number
of a cell, 1 to 9, row by row from the top left.
"""

from __future__ import annotations

from typing import ClassVar

from judge.games.base import PositionError, Seat, garbage, illegal, strict_tokens
from judge.games.drawing import JSON, package_script
from judge.games.marks import EMPTY, MARKS, Cells, MarksGame

Grid = Cells  # the nine cells, row by row from the top left
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
#: the eight symmetries of the square, each as the cell every cell goes to
SYMMETRIES = [tuple(r * 3 + c for r, c in cells) for cells in (
    [(r, c) for r in range(3) for c in range(3)],
    [(c, 2 - r) for r in range(3) for c in range(3)],
    [(2 - r, 2 - c) for r in range(3) for c in range(3)],
    [(2 - c, r) for r in range(3) for c in range(3)],
    [(r, 2 - c) for r in range(3) for c in range(3)],
    [(2 - r, c) for r in range(3) for c in range(3)],
    [(c, r) for r in range(3) for c in range(3)],
    [(2 - c, 2 - r) for r in range(3) for c in range(3)],
)]


def line_owner(cells: str) -> str | None:
    """The mark that has three in a row, if one has."""
    for a, b, c in LINES:
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


class TicTacToe(MarksGame):
    """Tic-tac-toe: X (seat 0) against O (seat 1)."""

    name = "tictactoe"
    variants: ClassVar[dict[str, str]] = {}
    notation: ClassVar[str] = ("the grid, row by row from the top, rows separated by '/': "
                               "'x.o/.x./..o' ('.' an empty cell; the slashes may be left out)")

    def start(self) -> Grid:
        return Grid(EMPTY * 9)

    def standard_starts(self) -> list[Grid]:
        return [self.start()]

    def test_positions(self) -> list[Grid]:
        """The start and the positions one and two moves into the game, one per symmetry
        class."""
        found = {self.canonical(self.start()): self.start()}
        frontier = [self.start()]
        for _ in range(2):
            frontier = [self.play(p, m) for p in frontier for m in self.legal_moves(p)]
            for pos in frontier:
                found.setdefault(self.canonical(pos), pos)
        return list(found.values())

    @staticmethod
    def canonical(pos: Grid) -> str:
        """The smallest of the grid's eight symmetric images."""
        return min("".join(pos.cells[i] for i in s) for s in SYMMETRIES)

    def parse_position(self, text: str) -> Grid:
        body = text.strip().lower()
        rows = body.split("/")
        if len(rows) not in (1, 3) or (len(rows) == 3 and any(len(r) != 3 for r in rows)):
            raise PositionError(f"bad tic-tac-toe grid {text.strip()!r}: three rows of three "
                                "cells separated by '/', such as 'x.o/.x./..o'")
        cells = "".join(rows)
        if len(cells) != 9 or set(cells) - {"x", "o", EMPTY}:
            raise PositionError(f"bad tic-tac-toe grid {text.strip()!r}: nine cells, each "
                                "'x', 'o' or '.'")
        xs, os = cells.count("x"), cells.count("o")
        if xs - os not in (0, 1):
            raise PositionError(f"bad tic-tac-toe grid {text.strip()!r}: X moves first, so X "
                                "has as many marks as O or one more")
        owner = line_owner(cells)
        if owner is not None and owner != ("x" if xs > os else "o"):
            raise PositionError(f"bad tic-tac-toe grid {text.strip()!r}: the game ended when "
                                f"{owner.upper()} made three in a row")
        if owner is not None and sum(
                cells[a] == cells[b] == cells[c] == owner for a, b, c in LINES) > 1 and not any(
                self._wins_in_one(cells, owner, i) for i in range(9) if cells[i] == owner):
            raise PositionError(f"bad tic-tac-toe grid {text.strip()!r}: no last move made "
                                "all its lines at once")
        return Grid(cells)

    @staticmethod
    def _wins_in_one(cells: str, mark: str, cell: int) -> bool:
        """Whether every line of `mark` passes through `cell` (so one move made them all)."""
        return all(cell in line for line in LINES if all(cells[i] == mark for i in line))

    def format_position(self, pos: Grid) -> str:
        return "/".join(pos.cells[r * 3 : r * 3 + 3] for r in range(3))

    def legal_moves(self, pos: Grid) -> list[int]:
        if line_owner(pos.cells) is not None:
            return []
        return [i + 1 for i, c in enumerate(pos.cells) if c == EMPTY]

    def play(self, pos: Grid, move: int) -> Grid:
        i = move - 1
        return Grid(pos.cells[:i] + MARKS[self.mover(pos)] + pos.cells[i + 1 :])

    def is_over(self, pos: Grid) -> bool:
        return EMPTY not in pos.cells or line_owner(pos.cells) is not None

    def winner(self, pos: Grid) -> Seat | None:
        owner = line_owner(pos.cells)
        return None if owner is None else MARKS.index(owner)

    def parse_move(self, line: str, pos: Grid) -> int:
        tokens = strict_tokens(line)
        if len(tokens) != 1 or len(tokens[0]) != 1 or tokens[0] not in "123456789":
            raise garbage(line, "a move is one cell number from 1 to 9")
        cell = int(tokens[0])
        if pos.cells[cell - 1] != EMPTY:
            raise illegal(line, f"cell {cell} is taken by {pos.cells[cell - 1].upper()}")
        return cell

    def move_label(self, move: int, pos: Grid) -> str:
        return f"{MARKS[self.mover(pos)].upper()} in cell {move}"

    def render(self, pos: Grid) -> str:
        rows = [" ".join(c.upper() if c != EMPTY else str(r * 3 + i + 1)
                         for i, c in enumerate(pos.cells[r * 3 : r * 3 + 3])) for r in range(3)]
        return "\n".join([*rows, self.status(pos)])

    # --- board drawing (board.js) ----------------------------------------------------------
    def board_script(self) -> str | None:
        return package_script(__package__)

    def board_state(self, pos: Grid) -> dict[str, JSON]:
        """The nine cells row by row (``x``, ``o`` or ``.``), and the cells of every line of
        three, numbered from 1 as the moves are (none while no one has one)."""
        cells = pos.cells
        full = {i for line in LINES if cells[line[0]] != EMPTY
                and len({cells[i] for i in line}) == 1 for i in line}
        return {"cells": cells, "line": [i + 1 for i in sorted(full)]}

    def board_touched(self, pos: Grid, move: int) -> list[JSON]:
        """The cell marked."""
        return [move]

    def board_control(self, pos: Grid, move: int) -> dict[str, JSON] | None:
        """The empty cell, clicked."""
        return {"cell": move}
