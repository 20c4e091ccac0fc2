"""Connect Four on a board of any size: ``--rules "rows=R cols=C connect=K"`` (4x4, connect
4 by default). A move drops a disc into a column that is not full; it falls to the lowest
empty cell. K in a row (across, down or diagonally) wins; a full board without one is a tie.

A position is the board, rows from the top separated by ``/``: ``..../..../.o../.xx.`` with
``x`` the first player's discs, ``o`` the second's and ``.`` empty cells. X moves first, so
whose turn it is follows from the discs. A move is a column number, 1 to C from the left.
"""

from __future__ import annotations

from typing import ClassVar

from judge.games.base import (
    InputError,
    PositionError,
    RulesError,
    Seat,
    garbage,
    illegal,
    parse_int,
    strict_tokens,
)
from judge.games.connect4.codes import Bitboards
from judge.games.drawing import JSON, package_script
from judge.games.marks import EMPTY, MARKS, Cells, MarksGame

Board = Cells  # the cells, row by row from the top left
MAX_CELLS = 42  # the classic 6x7 board: the most cells a board may have
#: the most positions a board may have by `position_bound` to be solved in the browser app
#: (4x5's bound is 28,629,151: it has 3,945,711 positions, solved in about 4 s)
BROWSER_BOUND = 32_000_000
#: the test set of the 7x6 board (made by scripts/connect4_openings.py)
OPENINGS = "openings-7x6.txt"


class ConnectFour(MarksGame):
    """Connect K on an R x C board: X (seat 0) against O (seat 1)."""

    name = "connect4"
    defaults: ClassVar[dict[str, str]] = {"rows": "4", "cols": "4", "connect": "4"}
    variants: ClassVar[dict[str, str]] = {"4x5": "rows=4 cols=5", "5x4": "rows=5 cols=4",
                                          "tiny": "rows=3 cols=4 connect=3"}
    #: a table for boards that fit one, a search for the others (7x6)
    solver = "judge.games.connect4.solver:ConnectFourSolver"
    notation: ClassVar[str] = (
        "the board, rows from the top separated by '/': '..../..../.o../.xx.' (x the first "
        "player's discs, o the second's, '.' empty cells)")

    def __init__(self, rules: str = "") -> None:
        super().__init__(rules)
        try:
            self.rows = parse_int(self.rules["rows"], "rows", 1, MAX_CELLS)
            self.cols = parse_int(self.rules["cols"], "cols", 1, MAX_CELLS)
            self.connect = parse_int(self.rules["connect"], "connect", 2)
        except InputError as exc:
            raise RulesError(str(exc)) from None
        if self.rows * self.cols > MAX_CELLS:
            raise RulesError(f"a board of {self.rows}x{self.cols} has more than {MAX_CELLS} "
                             "cells")
        if self.connect > max(self.rows, self.cols):
            raise RulesError(f"connect={self.connect} does not fit on a {self.rows}x"
                             f"{self.cols} board: no one could ever win")
        self.rules.update(rows=str(self.rows), cols=str(self.cols), connect=str(self.connect))
        self.lines = self._lines()

    def _lines(self) -> list[tuple[int, ...]]:
        """Every run of `connect` cells in a row, as cell indices."""
        found = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (self.connect - 1), c + dc * (self.connect - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        found.append(tuple((r + dr * i) * self.cols + c + dc * i
                                           for i in range(self.connect)))
        return found

    def position_codes(self) -> Bitboards | None:
        """Boards as numbers with every move played by the array, for the solver (None
        when a board is too big for them)."""
        return Bitboards.fitting(self.rows, self.cols, self.connect, self.lines)

    def owner(self, cells: str) -> str | None:
        """The mark that has `connect` in a row, if one has."""
        for line in self.lines:
            first = cells[line[0]]
            if first != EMPTY and all(cells[i] == first for i in line):
                return first
        return None

    def position_bound(self) -> int:
        """An upper bound of the positions of the board: each column holds 0 to `rows`
        discs, each X or O."""
        return int((2 ** (self.rows + 1) - 1) ** self.cols)

    def solve_limit(self, pos: Board) -> str | None:
        """Boards whose positions may be too many to solve while a person waits (a search
        that ends in a refusal costs its seconds too): played, not solved, in the browser."""
        bound = self.position_bound()
        if bound <= BROWSER_BOUND:
            return None
        return (f"a {self.rows}x{self.cols} board may have up to {bound:,} positions: too "
                "many to solve while you wait (the browser solves boards of up to 4x5 and "
                "5x4; two people can play this one here, and `judge solve` searches its "
                "positions: quickly from about 14 discs on)")

    def start(self) -> Board:
        return Board(EMPTY * (self.rows * self.cols))

    def standard_starts(self) -> list[Board]:
        return [self.start()]

    def test_positions(self) -> list[Board]:
        """The start and every position after one and two moves; on 7x6, openings of 14
        discs (`OPENINGS`): a position of a few discs takes the search minutes."""
        if (self.rows, self.cols, self.connect) == (6, 7, 4):
            text = package_script(__package__, OPENINGS)
            assert text is not None, f"judge/games/connect4/{OPENINGS} is part of the judge"
            return self.parse_positions(text.splitlines())
        found = [self.start()]
        frontier = [self.start()]
        for _ in range(2):
            frontier = [self.play(p, m) for p in frontier for m in self.legal_moves(p)]
            found += frontier
        return list(dict.fromkeys(found))

    def parse_position(self, text: str) -> Board:
        body = text.strip().lower()
        shape = f"{self.rows} rows of {self.cols} cells"
        rows = body.split("/")
        if len(rows) != self.rows or any(len(r) != self.cols for r in rows):
            raise PositionError(f"bad Connect Four board {text.strip()!r}: {shape}, from the "
                                "top, separated by '/'")
        cells = "".join(rows)
        if set(cells) - {"x", "o", EMPTY}:
            raise PositionError(f"bad Connect Four board {text.strip()!r}: each cell is 'x', "
                                "'o' or '.'")
        for c in range(self.cols):
            column = cells[c :: self.cols]
            if EMPTY in column.lstrip(EMPTY):
                raise PositionError(f"bad Connect Four board {text.strip()!r}: column {c + 1}"
                                    " has a disc above an empty cell")
        if cells.count("x") - cells.count("o") not in (0, 1):
            raise PositionError(f"bad Connect Four board {text.strip()!r}: X moves first, so "
                                "X has as many discs as O or one more")
        return Board(cells)

    def format_position(self, pos: Board) -> str:
        c = self.cols
        return "/".join(pos.cells[r * c : r * c + c] for r in range(self.rows))

    def legal_moves(self, pos: Board) -> list[int]:
        if self.owner(pos.cells) is not None:
            return []
        return [c + 1 for c in range(self.cols) if pos.cells[c] == EMPTY]

    def landing(self, pos: Board, move: int) -> int:
        """The cell (an index) the disc of `move` falls to: its column's lowest empty one."""
        c = move - 1
        return max(r * self.cols + c for r in range(self.rows)
                   if pos.cells[r * self.cols + c] == EMPTY)

    def play(self, pos: Board, move: int) -> Board:
        i = self.landing(pos, move)
        return Board(pos.cells[:i] + MARKS[self.mover(pos)] + pos.cells[i + 1 :])

    def is_over(self, pos: Board) -> bool:
        return EMPTY not in pos.cells[: self.cols] or self.owner(pos.cells) is not None

    def winner(self, pos: Board) -> Seat | None:
        owner = self.owner(pos.cells)
        return None if owner is None else MARKS.index(owner)

    def parse_move(self, line: str, pos: Board) -> int:
        tokens = strict_tokens(line)
        if len(tokens) != 1 or not tokens[0].isdigit() or tokens[0].startswith("0"):
            raise garbage(line, f"a move is one column number from 1 to {self.cols}")
        column = int(tokens[0]) if len(tokens[0]) <= 2 else self.cols + 1
        if column > self.cols:
            raise illegal(line, f"there is no column {tokens[0]}: columns are 1 to "
                          f"{self.cols}")
        if pos.cells[column - 1] != EMPTY:
            raise illegal(line, f"column {column} is full")
        return column

    def move_label(self, move: int, pos: Board) -> str:
        return f"{MARKS[self.mover(pos)].upper()} in column {move}"

    def render(self, pos: Board) -> str:
        c = self.cols
        rows = [" ".join(ch.upper() for ch in pos.cells[r * c : r * c + c])
                for r in range(self.rows)]
        rows.append(" ".join(str(i % 10) for i in range(1, c + 1)))
        return "\n".join([*rows, self.status(pos, f", {self.connect} in a row wins")])

    # --- board drawing (board.js) ----------------------------------------------------------
    def board_script(self) -> str | None:
        return package_script(__package__)

    def board_meta(self) -> dict[str, JSON]:
        return {"rows": self.rows, "cols": self.cols, "connect": self.connect}

    def board_state(self, pos: Board) -> dict[str, JSON]:
        """The cells row by row from the top (``x``, ``o`` or ``.``), and the cells of every
        line of `connect`, each as [row, column] from 1 (none while no one has one)."""
        cells = pos.cells
        full = {i for line in self.lines if cells[line[0]] != EMPTY
                and len({cells[i] for i in line}) == 1 for i in line}
        return {"cells": cells, "line": [self.place(i) for i in sorted(full)]}

    def place(self, i: int) -> list[JSON]:
        """Cell `i` as the drawing names it: [row, column] from 1, rows from the top."""
        return [i // self.cols + 1, i % self.cols + 1]

    def board_touched(self, pos: Board, move: int) -> list[JSON]:
        """The cell the disc fell to."""
        return [self.place(self.landing(pos, move))]

    def board_control(self, pos: Board, move: int) -> dict[str, JSON] | None:
        """The column, clicked."""
        return {"column": move}
