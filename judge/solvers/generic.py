"""Perfect play for any finite game, from its rules alone, by retrograde analysis.

What the solver needs from a game is the `Game` interface: `legal_moves`, `play`, `is_over`,
`winner` and `mover`, with hashable positions. From a position it finds every position
reachable from it, then pushes values outwards from the finished ones by increasing
remoteness, as the Chopsticks solver does: a position with a move to a position lost for the
opponent is won, a position all of whose moves lead to positions won for the opponent is
lost, and what is never decided is a draw (a tie that perfect play reaches, or, in a loopy
game, a position both sides can keep from losing forever). A won position's remoteness is
its fastest win, a lost one's its slowest loss; a draw has none.

Positions solved once are kept: a later position reachable from them costs nothing, and a
new one costs only the positions not seen before. A game may define `encode(pos) -> int`, a
number below 2**63 for each position: positions are then kept by their numbers, and the
start's table in the on-disk cache.

An impartial game under normal play whose Sprague-Grundy values have a closed form defines
`grundy(pos) -> int`: the mover wins exactly when it is not 0, and the solver answers from it
without a search (no remoteness, the best moves those to a position of value 0).
"""

from __future__ import annotations

import heapq
import random
import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from itertools import count
from typing import Any

from judge.games.base import Game, InputError
from judge.solvers import cache
from judge.solvers.base import Evaluation, MoveValue, Solver, negate

WIN, LOSS, DRAW = 1, -1, 0  # for the player to move
VALUES = {WIN: "win", LOSS: "loss", DRAW: "draw"}
#: positions one search may add before the solver refuses the game as too big for it
MAX_POSITIONS = 4_000_000


class GenericSolver(Solver):
    """Win, loss or draw with remoteness for every position, by searching the game's graph."""

    def __init__(self, game: Game, limit: int = MAX_POSITIONS) -> None:
        super().__init__(game)
        self.limit = limit
        #: position's key -> (value for the mover, remoteness; -1 for a draw)
        self.table: dict[Hashable, tuple[int, int]] = {}
        self._lock = threading.Lock()
        self._grundy = getattr(game, "grundy", None)
        self._encoded = hasattr(game, "encode")
        #: a position's key in the table: its number when the game has one (smaller)
        self.key: Callable[[Any], Hashable] = (
            game.encode if self._encoded else lambda pos: pos)  # type: ignore[attr-defined]
        self._cached_start = False

    # --- solving ---------------------------------------------------------------------------
    def outcome_at_end(self, pos: Any) -> int:
        """WIN, LOSS or DRAW of a finished position for the player who would move there."""
        winner = self.game.winner(pos)
        if winner is None:
            return DRAW
        return WIN if winner == self.game.mover(pos) else LOSS

    def solve(self, starts: Iterable[Any]) -> None:
        """Solve every position reachable from `starts` that is not solved yet."""
        with self._lock:
            self._load_start_table()
            new = [p for p in starts if self.key(p) not in self.table]
            if new:
                self.table.update(self.retrograde(new))

    def retrograde(self, starts: list[Any]) -> dict[Hashable, tuple[int, int]]:
        """Value and remoteness, by key, of the positions reachable from `starts` that the
        table does not hold yet (it holds every position reachable from one it holds)."""
        game, known, key = self.game, self.table, self.key
        parents: dict[Hashable, list[Hashable]] = {}
        pending = {}  # moves of each position not yet known to lead to a win for the opponent
        heap: list[tuple[int, int, Hashable]] = []  # decided positions by remoteness
        result: dict[Hashable, tuple[int, int]] = {}
        frontier = deque({key(p): p for p in starts}.items())
        seen = {k for k, _ in frontier}
        tie = count()
        while frontier:  # breadth first
            k, pos = frontier.popleft()
            moves = [] if game.is_over(pos) else game.legal_moves(pos)
            if not moves:
                result[k] = (self.outcome_at_end(pos), 0)
                if result[k][0] != DRAW:
                    heapq.heappush(heap, (0, next(tie), k))
                continue
            pending[k] = len(moves)
            for move in moves:
                kid = game.play(pos, move)
                kk = key(kid)
                parents.setdefault(kk, []).append(k)
                if kk not in seen and kk not in known:
                    seen.add(kk)
                    frontier.append((kk, kid))
                    if len(seen) > self.limit:
                        raise InputError(f"{game.describe()} has more than {self.limit:,} "
                                         "positions reachable from here: too many to solve")
        for kk in parents:  # the known positions that the new ones move to seed the search
            if kk in known and known[kk][0] != DRAW:
                heapq.heappush(heap, (known[kk][1], next(tie), kk))
        while heap:
            rem, _, k = heapq.heappop(heap)
            value = known[k][0] if k in known else result[k][0]
            for parent in parents.get(k, ()):
                if parent in result:
                    continue
                if value == LOSS:
                    result[parent] = (WIN, rem + 1)
                    heapq.heappush(heap, (rem + 1, next(tie), parent))
                elif value == WIN:
                    pending[parent] -= 1
                    if pending[parent] == 0:
                        result[parent] = (LOSS, rem + 1)
                        heapq.heappush(heap, (rem + 1, next(tie), parent))
        for k in seen:
            result.setdefault(k, (DRAW, -1))
        return result

    # --- the start's table in the cache -------------------------------------------------------
    def _cache_key(self) -> str | None:
        return f"generic table 1: {self.game.describe()}" if self._encoded else None

    def _load_start_table(self) -> None:
        key = self._cache_key()
        if key is None or self._cached_start:
            return
        self._cached_start = True
        arrays = cache.load_flat(key)
        if arrays is None:
            self.table.update(self.retrograde([self.game.start()]))
            self._save_start_table()
            return
        self.table.update(zip(arrays["codes"], zip(arrays["value"], arrays["remoteness"],
                                                   strict=True), strict=True))

    def _save_start_table(self) -> None:
        key = self._cache_key()
        if key is None:
            return
        import numpy as np

        try:
            codes = np.fromiter(self.table.keys(), dtype=np.int64, count=len(self.table))
        except OverflowError:  # numbers too big for the table on disk: kept in memory only
            return
        cache.save(key, {
            "codes": codes,
            "value": np.array([v for v, _ in self.table.values()], dtype=np.int8),
            "remoteness": np.array([r for _, r in self.table.values()], dtype=np.int32),
        })

    # --- answers ---------------------------------------------------------------------------
    def lookup(self, pos: Any) -> tuple[int, int]:
        """(WIN/LOSS/DRAW for the mover, remoteness or -1) of `pos`, solving it if need be."""
        found = self.table.get(self.key(pos))
        if found is None:
            self.solve([pos])
            found = self.table[self.key(pos)]
        return found

    def _from_grundy(self, pos: Any) -> tuple[int, int] | None:
        if self._grundy is None:
            return None
        if self.game.is_over(pos):
            return (self.outcome_at_end(pos), 0)
        return (WIN if self._grundy(pos) else LOSS, -1)

    def value_of(self, pos: Any) -> tuple[int, int]:
        """(WIN/LOSS/DRAW, remoteness or -1): by the Grundy value when the game has one."""
        found = self._from_grundy(pos)
        return self.lookup(pos) if found is None else found

    def move_value(self, pos: Any, move: Any) -> MoveValue:
        value, rem = self.value_of(self.game.play(pos, move))
        if value == DRAW:
            return MoveValue(move, "draw", None)
        return MoveValue(move, negate(VALUES[value]), rem + 1 if rem >= 0 else None)

    def evaluate(self, pos: Any) -> Evaluation:
        """Value and remoteness for the mover; the best moves keep the value (and, where the
        remoteness is known, win fastest or lose slowest)."""
        code, rem = self.value_of(pos)
        value = VALUES[code]
        if self.game.is_over(pos):
            return Evaluation(value, 0, [])
        moves = self.move_values(pos)
        if code == DRAW:
            return Evaluation(value, None, [m.move for m in moves if m.value == "draw"])
        if rem < 0:
            return Evaluation(value, None, [m.move for m in moves if m.value == value])
        best = [m.move for m in moves if m.value == value and m.remoteness == rem]
        return Evaluation(value, rem, best)

    def choose(self, pos: Any, rng: random.Random | None = None) -> Any:
        moves = self.evaluate(pos).best_moves
        if not moves:
            raise ValueError("no legal move: the game is over")
        return rng.choice(moves) if rng else moves[0]

    def check(self, positions: list[Any]) -> None:
        """Solve the positions now (and refuse a game too big to solve) unless a closed form
        answers for them."""
        if self._grundy is None:
            self.solve(positions)
