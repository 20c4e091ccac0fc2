"""Perfect play for Connect Four: the generic solver's table for boards small enough to
solve whole (up to 4x5 and 5x4), and a search for larger ones, 7x6 among them.

The search (`search.c`, built at first use into the cache folder and loaded with ctypes)
gives a position's exact score, from which its value and remoteness follow: the winner
wins fastest, the loser loses slowest, as the table has them.
"""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import threading
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.games.base import InputError
from judge.games.connect4.codes import Bitboards
from judge.solvers.base import Evaluation, Solver, best_of
from judge.solvers.generic import DRAW, LOSS, WIN, GenericSolver
from judge.solvers.native import built

if TYPE_CHECKING:
    from judge.games.connect4 import Board, ConnectFour

#: boards whose `position_bound` is above this are searched, not solved whole (4x5's is
#: 28,629,151: its 3,945,711 positions fit the generic solver's table)
TABLE_BOUND = 32_000_000
#: entries of the search's table of bounds, as a power of two (2**23 entries of 8 bytes)
TABLE_BITS = 23
#: the positions the search may visit for one score before it gives up (a minute or two
#: on one core): the openings of 14 discs of the 7x6 test set take a few million at most,
#: the hardest of Pons' positions of up to 14 discs tens of millions, the empty board more
BUDGET = 200_000_000
#: what the search returns when it gave up
GAVE_UP = -1000
SOURCE = Path(__file__).with_name("search.c")


@functools.cache
def library() -> ctypes.CDLL | None:
    """The search, built now if need be (None without a C compiler that builds it)."""
    cc = shutil.which("cc") or shutil.which("gcc")

    def commands(tmp: Path, out: Path) -> list[list[str]]:
        return [] if cc is None else [[cc, "-O2", "-shared", "-fPIC", "-o", str(out),
                                       str(SOURCE)]]

    path = built("connect4", "search.so", [SOURCE], os.uname().machine.encode(), commands)
    if path is None:
        return None
    lib = ctypes.CDLL(path)
    lib.c4_new.restype = ctypes.c_void_p
    lib.c4_new.argtypes = [ctypes.c_int] * 4
    lib.c4_free.argtypes = [ctypes.c_void_p]
    lib.c4_nodes.restype = ctypes.c_longlong
    lib.c4_nodes.argtypes = [ctypes.c_void_p]
    lib.c4_score.restype = ctypes.c_int
    lib.c4_score.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64,
                             ctypes.c_longlong]
    return lib


class Search:
    """Exact scores of the positions of one board size, by the search in C (its table of
    bounds kept from one position to the next)."""

    def __init__(self, game: ConnectFour, codes: Bitboards, budget: int = BUDGET) -> None:
        self.game, self.codes, self.budget = game, codes, budget
        self.cells = game.rows * game.cols
        self._lock = threading.Lock()
        self._handle: int | None = None

    def _searcher(self) -> tuple[ctypes.CDLL, int]:
        lib = library()
        if lib is None:
            raise InputError(f"Connect Four with {self.game.rows} rows and {self.game.cols} "
                             "columns is solved by a search in C, and no C compiler (cc or "
                             "gcc) here builds it")
        if self._handle is None:
            self._handle = lib.c4_new(self.game.rows, self.game.cols, self.game.connect,
                                      TABLE_BITS)
            if not self._handle:
                raise InputError(f"Connect Four with {self.game.rows} rows and "
                                 f"{self.game.cols} columns: no memory for the search's "
                                 "table")
            weakref.finalize(self, lib.c4_free, self._handle)
        return lib, self._handle

    def ready(self) -> None:
        """Build and start the search now: an `InputError` when it cannot be."""
        with self._lock:
            self._searcher()

    def score(self, pos: Board) -> int:
        """The exact score for the player to move of a position no one has won yet; an
        `InputError` when the search would take more than its budget."""
        code = self.codes.encode(pos)
        mine, taken = 0, 0
        height = self.game.rows + 1
        for c in range(self.game.cols):
            part = (code >> (c * height)) & ((1 << height) - 1)
            marker = 1 << (part.bit_length() - 1)
            mine |= (part ^ marker) << (c * height)
            taken |= (marker - 1) << (c * height)
        with self._lock:
            lib, handle = self._searcher()
            score = int(lib.c4_score(handle, mine, taken, self.budget))
        if score == GAVE_UP:
            raise InputError(f"Connect Four with {self.game.rows} rows and {self.game.cols} "
                             f"columns: the search gave up on {self.game.format_position(pos)}"
                             f" after {self.budget:,} positions (a minute or two): too early "
                             "in the game to solve here; positions of 14 discs or more are "
                             "answered in about a second")
        return score

    def nodes(self) -> int:
        """Positions searched so far."""
        with self._lock:
            lib, handle = self._searcher()
            return int(lib.c4_nodes(handle))

    def value(self, pos: Board) -> tuple[int, int]:
        """(WIN, LOSS or DRAW for the mover, remoteness or -1) of a position the game goes
        on from: a win's score tells on which move the winner's last disc falls."""
        s = self.score(pos)
        if s == 0:
            return DRAW, -1
        moves = sum(1 for ch in pos.cells if ch != ".")
        # the discs on the board before the winning one: of the winner's parity
        before = self.cells + 1 - 2 * abs(s)
        winner_parity = moves % 2 if s > 0 else 1 - moves % 2
        if before % 2 != winner_parity:
            before -= 1
        return (WIN if s > 0 else LOSS), before - moves + 1


class ConnectFourSolver(GenericSolver):
    """The generic solver's table for boards it solves whole, the search for the others."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        codes = game.position_codes()
        big = game.position_bound() > TABLE_BOUND
        self.search = Search(game, codes) if big and codes is not None else None

    def value_of(self, pos: Any) -> tuple[int, int]:
        if self.search is None:
            return super().value_of(pos)
        if self.game.is_over(pos):
            return self.outcome_at_end(pos), 0
        return self.search.value(pos)

    def evaluate(self, pos: Any) -> Evaluation:
        """As the generic solver's, from the moves' values alone when searching (the
        position's own score would be one search more)."""
        if self.search is None or self.game.is_over(pos):
            return super().evaluate(pos)
        best = best_of(self.move_values(pos))
        value, rem = best[0].value, best[0].remoteness
        return Evaluation(value, rem, [m.move for m in best])

    def check(self, positions: list[Any]) -> None:
        """Solve the positions now (by the table, or by the search: one it gives up on is
        refused before any game starts)."""
        if self.search is None:
            super().check(positions)
            return
        self.search.ready()
        for pos in positions:
            self.value_of(pos)

    def stats(self, starts: list[Any], limit: int | None = 2_000_000) -> dict[str, int]:
        if self.search is None:
            return super().stats(starts, limit)
        return Solver.stats(self, starts) if limit is None else Solver.stats(self, starts, limit)
