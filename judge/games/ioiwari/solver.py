"""Perfect Ioiwari: the best score difference and remoteness of all 6^7 boards, vectorised.

NumPy builds the table; looking values up needs only the stored file (`cache.cached_flat`).
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING

from judge.games.ioiwari import MAX_BEADS, PITS, Board, Ioiwari, sow
from judge.solvers import cache
from judge.solvers.base import Difference, Evaluation, MoveValue, Solver

if TYPE_CHECKING:
    import numpy as np

BASE = MAX_BEADS + 1
BOARDS = BASE**PITS  # 279,936: pit i is digit i (pit 1 least significant) in base 6
TABLE_KEY = f"ioiwari best+remoteness+moves base{BASE}^{PITS}"


#: the place value of each pit in a board's index
PLACES = tuple(BASE**i for i in range(PITS))


def board_index(pits: tuple[int, ...]) -> int:
    """The table index of a board: its pits read as base-6 digits, pit 1 lowest."""
    return sum(map(operator.mul, pits, PLACES))


def weights() -> np.ndarray:
    """The place value of each pit in a board's index."""
    import numpy as np

    return BASE ** np.arange(PITS, dtype=np.int64)


def all_boards() -> np.ndarray:
    """Every board with 0..5 beads per pit, as rows of an (279936, 7) array, in index order."""
    import numpy as np

    idx = np.arange(BOARDS, dtype=np.int64)
    digits: np.ndarray = ((idx[:, None] // weights()) % BASE).astype(np.int8)
    return digits


def sow_all(boards: np.ndarray, pit: int) -> tuple[np.ndarray, np.ndarray]:
    """Play `pit` (0-based) on every board at once: indices after, and the mover's net gain."""
    import numpy as np

    b = boards.astype(np.int16)
    hand = b[:, pit].copy()
    b[:, pit] = 0
    gain = np.zeros(len(b), dtype=np.int16)
    i = pit
    while hand.any():
        i = (i + 1) % PITS
        col = b[:, i]
        many = hand > 1
        one = hand == 1
        full = col == MAX_BEADS
        take_out = many & full
        drop = many & ~full
        capture = one & (col >= 1) & ~full
        give = one & ~capture
        gain += take_out + capture * (col + 1) - give
        col += drop.astype(np.int16) - take_out
        col[capture] = 0
        hand -= drop
        hand[one] = 0
    return b.astype(np.int64) @ weights(), gain


def build_tables() -> dict[str, np.ndarray]:
    """Best score difference and remoteness of every board, layer by layer in bead count."""
    import numpy as np

    boards = all_boards()
    beads = boards.sum(axis=1, dtype=np.int64)
    after = np.empty((BOARDS, PITS), dtype=np.int64)
    gain = np.empty((BOARDS, PITS), dtype=np.int16)
    for pit in range(PITS):
        after[:, pit], gain[:, pit] = sow_all(boards, pit)
    legal = boards > 0
    best = np.zeros(BOARDS, dtype=np.int16)
    remoteness = np.zeros(BOARDS, dtype=np.int16)
    order = np.argsort(beads, kind="stable")
    bounds = np.searchsorted(beads[order], np.arange(beads.max() + 2))
    low = np.iinfo(np.int16).min
    for total in range(1, int(beads.max()) + 1):
        layer = order[bounds[total] : bounds[total + 1]]
        nxt = after[layer]
        vals = np.where(legal[layer], gain[layer] - best[nxt], low)
        top = vals.max(axis=1)
        rem = remoteness[nxt] + 1
        # among the best moves the winner (or a player who ties) hurries, the loser delays
        hurry = (top >= 0)[:, None]
        cand = np.where(vals == top[:, None], np.where(hurry, rem, -rem), np.int16(999))
        r = cand.min(axis=1)
        best[layer] = top
        remoteness[layer] = np.where(top >= 0, r, -r)
    # the moves of each board as bit masks (bit i: pit i + 1), read as `Solver` reads
    # `move_values`: those that keep its value (`evaluate`), and those perfect play
    # chooses among (`best_of`: the best value, then the winner hurries, the loser delays)
    vals = np.where(legal, gain - best[after], low)
    rem = remoteness[after] + 1
    top = vals.max(axis=1, keepdims=True)
    keeps = legal & (vals == top)
    haste = np.where(vals > 0, -rem, np.where(vals < 0, rem, 0))
    chosen = keeps & (haste == np.where(keeps, haste, np.iinfo(np.int16).min).max(
        axis=1, keepdims=True))
    bits = (1 << np.arange(PITS)).astype(np.int16)
    return {"best": best.astype(np.int8), "remoteness": remoteness.astype(np.int8),
            "keeps": (keeps * bits).sum(axis=1).astype(np.int8),
            "chosen": (chosen * bits).sum(axis=1).astype(np.int8)}


#: the moves of a bit mask of `build_tables`, in move order
MOVES_OF = tuple([pit + 1 for pit in range(PITS) if mask >> pit & 1] for mask in range(1 << PITS))


class IoiwariSolver(Solver):
    """Values are the best score difference (mover's bank gain minus the opponent's)."""

    typed_values = True

    def __init__(self, game: Ioiwari) -> None:
        super().__init__(game)
        #: the table's key in the cache: its layout and the game's and solver's code
        self.table_key = f"{TABLE_KEY}, code {cache.code_digest(type(game), type(self))}"
        tables = cache.cached_flat(self.table_key, build_tables)
        self.best = tables["best"]
        self.remoteness = tables["remoteness"]
        self.keeps = tables["keeps"]
        self.chosen = tables["chosen"]

    def _lookup(self, pits: tuple[int, ...]) -> tuple[int, int]:
        i = board_index(pits)
        return int(self.best[i]), int(self.remoteness[i])

    def canonical(self, pos: Board) -> tuple[int, ...]:
        return pos.pits

    def move_value(self, pos: Board, move: int) -> MoveValue:
        pits, mine, theirs = sow(pos.pits, move)
        best, rem = self._lookup(pits)
        return MoveValue(move, Difference(mine - theirs - best), rem + 1)

    def evaluate(self, pos: Board) -> Evaluation:
        i = board_index(pos.pits)
        return Evaluation(Difference(int(self.best[i])), int(self.remoteness[i]),
                          list(MOVES_OF[self.keeps[i]]))

    def choose(self, pos: Board, rng: random.Random | None = None) -> int:
        best = MOVES_OF[self.chosen[board_index(pos.pits)]]  # (as `Solver.choose` finds)
        if not best:
            raise ValueError("no legal move: the game is over")
        return rng.choice(best) if rng else best[0]
