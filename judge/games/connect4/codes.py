"""Connect Four positions as numbers, and their moves by the array: the solver's fast path.

A board is one number of ``cols * (rows + 1)`` bits: column c holds bits ``c * (rows + 1)``
upwards, from its bottom cell. In each column the bits of the discs of the player to move
are set, and one bit more just above the column's top disc marks its height; the other
player's discs are the column's cells under the marker that are not set. So the number says
whose turn it is too, and `Bitboards.expand` plays every move of many positions at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.games.marks import EMPTY, Cells

if TYPE_CHECKING:
    import numpy as np

#: the most bits a number may have (it is kept as a signed 64-bit integer)
MAX_BITS = 62
#: what `expand` says of each position: the player to move has won, has lost, a tie, or the
#: game goes on
WON, LOST, TIE, GOES_ON = 1, -1, 0, 2


class Bitboards:
    """The numbers of the boards of one size, and every move of many of them at once."""

    #: no board comes back: every move adds a disc (the solver then goes layer by layer)
    acyclic = True

    def __init__(self, rows: int, cols: int, connect: int, lines: list[tuple[int, ...]]) -> None:
        self.rows, self.cols, self.connect = rows, cols, connect
        self.height = rows + 1  # bits per column: the cells and one above them
        self.bottom = sum(1 << (c * self.height) for c in range(cols))
        #: each cell's bit, cells numbered row by row from the top left as in `Cells`
        self.bits = [1 << (c * self.height + rows - 1 - r) for r in range(rows)
                     for c in range(cols)]
        self.lines = [sum(self.bits[i] for i in line) for line in lines]

    @classmethod
    def fitting(cls, rows: int, cols: int, connect: int,
                lines: list[tuple[int, ...]]) -> Bitboards | None:
        """The numbers of a board of this size, or None when they would not fit."""
        return cls(rows, cols, connect, lines) if cols * (rows + 1) <= MAX_BITS else None

    def encode(self, pos: Cells) -> int:
        """The number of a board (one to one)."""
        cells = pos.cells
        mover = "x" if cells.count("x") == cells.count("o") else "o"
        code = 0
        for c in range(self.cols):
            column = [cells[r * self.cols + c] for r in range(self.rows - 1, -1, -1)]
            filled = [mark for mark in column if mark != EMPTY]
            for r, mark in enumerate(filled):
                if mark == mover:
                    code |= 1 << (c * self.height + r)
            code |= 1 << (c * self.height + len(filled))
        return code

    def decode(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The discs of the player to move and all the discs, of each number."""
        import numpy as np

        mine = np.zeros_like(codes)
        taken = np.zeros_like(codes)
        column = np.int64((1 << self.height) - 1)
        for c in range(self.cols):
            shift = c * self.height
            part = (codes >> shift) & column
            marker = np.int64(1) << (np.frexp(part.astype(np.float64))[1] - 1).astype(np.int64)
            mine |= (part ^ marker) << shift
            taken |= (marker - 1) << shift
        return mine, taken

    def has_line(self, discs: np.ndarray) -> np.ndarray:
        """Whether each board of discs holds `connect` in a row."""
        import numpy as np

        found = np.zeros(discs.shape, dtype=bool)
        for step in (1, self.height, self.height - 1, self.height + 1):
            if (self.connect - 1) * step >= MAX_BITS:
                continue  # no run that long fits on the board
            run = discs.copy()
            for i in range(1, self.connect):
                run &= discs >> (i * step)
            found |= run != 0
        return found

    def first_owner(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """Whether the first line (in the rules' order) that a player fills is the mover's."""
        import numpy as np

        result = np.zeros(mine.shape, dtype=bool)
        undecided = np.ones(mine.shape, dtype=bool)
        for line in self.lines:
            mover = undecided & ((mine & line) == line)
            other = undecided & ((theirs & line) == line)
            result |= mover
            undecided &= ~(mover | other)
        return result

    def expand(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """How each position stands (`WON`, `LOST`, `TIE` or `GOES_ON`, for the player to
        move), and every move of those that go on: the row of its position in `codes` and
        the number of the position after it."""
        import numpy as np

        mine, taken = self.decode(codes)
        theirs = taken ^ mine
        mover_has, other_has = self.has_line(mine), self.has_line(theirs)
        both = np.flatnonzero(mover_has & other_has)
        if both.size:
            first = self.first_owner(mine[both], theirs[both])
            mover_has[both], other_has[both] = first, ~first
        top = sum(1 << (c * self.height + self.rows - 1) for c in range(self.cols))
        full = (taken & top) == top
        ends = np.full(codes.shape, GOES_ON, dtype=np.int8)
        ends[full] = TIE
        ends[other_has] = LOST
        ends[mover_has] = WON
        going = ends == GOES_ON
        rows, kids = [], []
        for c in range(self.cols):
            base = np.int64(1 << (c * self.height))
            free = np.flatnonzero(going & ((taken & (base << (self.rows - 1))) == 0))
            after = taken[free] | (taken[free] + base)
            rows.append(free)
            kids.append(theirs[free] + after + self.bottom)  # the other player's turn
        return ends, np.concatenate(rows), np.concatenate(kids)
