"""Perfect play for any finite game, from its rules alone, by retrograde analysis.

What the solver needs from a game is its rules (`Rules`): `start`, `mover`, `legal_moves`,
`play`, `is_over` and `winner`, with hashable positions; a game with its facts (`Facts`) is
named by its `describe` in messages and has its start's table kept on disk. From a position
it finds every position reachable from it, numbers them densely and keeps each move as a
pair of numbers; then it pushes values outwards from the finished positions by increasing
remoteness, one remoteness at a time over whole arrays, as the Chopsticks solver does: a
position with a move to a position lost for the opponent is won, a position all of whose
moves lead to positions won for the opponent is lost, and what is never decided is a draw
(a tie that perfect play reaches, or, in a loopy game, a position both sides can keep from
losing forever). A won position's remoteness is its fastest win, a lost one's its slowest
loss; a draw has none (a finished tie has 0).

Positions solved once are kept: a later position reachable from them costs nothing, and a
new one costs only the positions not seen before. A game may define `encode(pos) -> int`, a
number below 2**63 for each position: positions are then kept by their numbers, in sorted
arrays, and the start's table in the on-disk cache.

A game may also define `position_codes()`, which returns `PositionCodes` (or None for rules
too big for them): its own numbers of positions, and every move of many positions played at
once on arrays of numbers. The search then never builds a position object, which makes games
of millions of positions (Connect Four on 5x4 and 4x5) a matter of seconds. When the codes
say `acyclic` (no position comes back, as in Connect Four, where every move adds a disc), the
solver keeps no moves at all: it numbers the positions layer by layer (those one move from
the last layer), then plays each layer's moves again from the last layer back, taking each
position's value from its children's in the next layer. It keeps only the positions' numbers,
values and remoteness, 13 bytes a position (24 at the peak), and refuses a game by the memory
that would take, not by a count (Connect Four 5x5: 69,763,700 positions, 1.5 GiB).

An impartial game under normal play whose Sprague-Grundy values have a closed form defines
`grundy(pos) -> int`: the mover wins exactly when it is not 0, and the solver answers from it
without a search (no remoteness, the best moves those to a position of value 0).
"""

from __future__ import annotations

import os
import random
import threading
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from judge.games.base import Facts, Impartial, InputError, Rules
from judge.solvers import cache
from judge.solvers.base import Evaluation, MoveValue, Outcome, Solver

if TYPE_CHECKING:
    import numpy as np

WIN, LOSS, DRAW = 1, -1, 0  # for the player to move
#: a position whose value is not known yet; also what `PositionCodes.expand` says of a
#: position whose game goes on
UNDECIDED = 2
VALUES = {WIN: Outcome.WIN, LOSS: Outcome.LOSS, DRAW: Outcome.DRAW}
#: the value of a move to a position, for the mover: the position's, negated
NEGATED = {WIN: Outcome.LOSS, LOSS: Outcome.WIN, DRAW: Outcome.DRAW}
#: bytes a layered search takes a position at its peak: its number twice (the layers and
#: the sorted table), its value and remoteness, and room for one layer's moves (22.5
#: measured on Connect Four 5x5)
LAYERED_BYTES = 24
#: bytes a search that keeps its moves takes at its peak (the retrograde pass), a position
#: and a move, by kind of key: `resource.getrusage` maxrss less the process's before the
#: search, by benchmarks/bench_solver_memory.py. Positions as Python objects: Connect Four
#: 4x4 through its rules (1.9 moves a position) 369 bytes a position, Domineering 4x5 (3.6)
#: 451; by `encode`'s numbers: Connect Four 4x4 287, Domineering 5x5 (4.5) 438, 4x6 (4.3)
#: 436 and 5x6 (5.4) 468, i.e. about 180 a position and 58 a move (190 counted, to err
#: high); position codes that may come back: Connect Four 4x4 116, 5x4 106 (1.9). A game
#: whose positions are big objects (no `encode`) takes more than `OBJECT_BYTES`.
OBJECT_BYTES, ENCODED_BYTES, CODED_BYTES = 260, 190, 48
#: bytes a move takes, through the rules and through position codes (see `OBJECT_BYTES`)
MOVE_BYTES, CODED_MOVE_BYTES = 58, 36
#: moves a search through the rules keeps between two checks of its memory (and so at most
#: as many new positions)
CHECK_EVERY = 4096
#: where the memory a search may take is set (bytes, or with K, M or G); by default
#: half the memory the system has available
MEMORY_SETTING = "JUDGE_SOLVER_MEMORY"
#: what the process may grow by past the budget during a search before the growth, not
#: the estimate, refuses it: memory not the search's (a module loaded, the allocator's
#: arenas), which a budget of a few MiB could not tell from the search's own
GROWTH_SLACK = 64 << 20
#: the bytes of a page of memory (/proc/self/statm counts pages)
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
#: positions a game's `PositionCodes.expand` is given at once (bounds one step's memory)
CHUNK = 1 << 17
#: the tables of searches from positions off the start's table kept apart before merging
SEGMENTS_KEPT = 4
#: the largest number a table keeps in an array (the rest in a dictionary)
MAX_CODE = 2**63 - 1


class PositionCodes(Protocol):
    """A game's own numbers of its positions, with its moves played over arrays of them."""

    def encode(self, pos: Any) -> int:
        """The position's number: one to one, from 0 to below 2**63."""

    def expand(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For an array of numbers (int64): how each position stands for its player to move
        (1 won, -1 lost, 0 a tie, 2 the game goes on), and every legal move of those that go
        on, as the row of its position in `codes` and the number of the position after it."""

    # A class may also set `acyclic = True` (`Acyclic`): no sequence of moves leads back to
    # a position.


@runtime_checkable
class Acyclic(Protocol):
    """Position codes that say whether a position can come back (`acyclic = True`: never,
    so that the search goes layer by layer and keeps no move)."""

    acyclic: bool


@runtime_checkable
class Encoded(Protocol):
    """A game that numbers its positions: the solver keeps them by their numbers, and the
    start's table in the cache."""

    def encode(self, pos: Any) -> int:
        """The position's number: one to one, from 0 to below 2**63."""
        ...


@runtime_checkable
class Numbered(Protocol):
    """A game that plays its moves over arrays of position numbers (`PositionCodes`)."""

    def position_codes(self) -> PositionCodes | None:
        """Its numbers and moves, or None for rules too big for them (the search then goes
        through the rules)."""
        ...


def numbering(game: Rules[Any, Any]) -> tuple[PositionCodes | None, Callable[[Any], int] | None]:
    """The game's `PositionCodes` (None without them) and how its positions are numbered
    (theirs, else its `encode`; None: they are not)."""
    codes = game.position_codes() if isinstance(game, Numbered) else None
    if codes is not None:
        return codes, codes.encode
    return None, game.encode if isinstance(game, Encoded) else None


def memory_budget() -> int:
    """Bytes a search may take: `MEMORY_SETTING` if set, else half the available
    memory (4 GiB where the system does not say)."""
    setting = os.environ.get(MEMORY_SETTING, "").strip()
    if setting:
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        scale = units.get(setting[-1].upper(), 1)
        digits = setting[:-1] if setting[-1].upper() in units else setting
        if not (digits.isascii() and digits.isdigit()) or int(digits) == 0:
            raise InputError(f"{MEMORY_SETTING} must be a number of bytes, with K, M or G "
                             f"(such as 2G), not {setting!r}")
        return int(digits) * scale
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except (OSError, ValueError, IndexError):
        pass
    return 4 << 30


def _mib(size: float) -> str:
    """A size in MiB (GiB from 10 GiB, KiB below 1 MiB) for a message."""
    if size < 2**20:
        return f"{size / 2**10:,.1f} KiB"
    return f"{size / 2**30:,.1f} GiB" if size >= 10 * 2**30 else f"{size / 2**20:,.1f} MiB"


def too_big(described: str | None, estimate: int, budget: int, found: str) -> InputError:
    """The refusal of a search whose estimate of its memory passed `budget`; `found` says
    what it found so far and at how many bytes each."""
    return InputError(f"{described or 'the game'} needs more than {_mib(estimate)} to solve "
                      f"({found}): more than the {_mib(budget)} it may take (set "
                      f"{MEMORY_SETTING} to allow more)")


class TooMany(Exception):
    """A search met more positions than it was allowed."""


@dataclass(frozen=True)
class Footprint:
    """What a search that keeps its moves takes at its peak: bytes a position and a move,
    and the most it may take; and the process's resident memory when the search began."""

    position: int
    move: int
    budget: int
    resident_then: int | None = field(default_factory=lambda: resident())

    def check(self, described: str | None, positions: int, moves: int) -> None:
        """Raise `InputError` when `positions` and `moves` would take more than the budget,
        or have (the process grew by more: positions bigger than the estimate's, a game
        whose tuples hold hundreds of numbers)."""
        estimate = positions * self.position + moves * self.move
        if estimate > self.budget:
            raise too_big(described, estimate, self.budget,
                          f"{positions:,} positions and {moves:,} moves so far, at "
                          f"{self.position} and {self.move} bytes each")
        now = resident()
        if now is not None and self.resident_then is not None \
                and now - self.resident_then > self.budget + GROWTH_SLACK:
            raise too_big(described, now - self.resident_then, self.budget,
                          f"{positions:,} positions and {moves:,} moves so far, the memory "
                          "the judge has grown by")


def resident() -> int | None:
    """The process's resident memory in bytes (None where /proc does not say)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class Graph:
    """Positions found by a search, numbered 0..n-1, and its moves as pairs of numbers.

    `fixed` holds the value of each position known before the retrograde pass (finished
    ones, and those an earlier search solved), `UNDECIDED` for the others; `fixed_remoteness`
    their remoteness. The first `new` positions are those the search found; the rest were
    solved already. `keys` are the positions' keys in the table: in the order of their
    numbers, or, when `numbers` is given, in increasing order with `numbers` their numbers.
    """

    keys: Sequence[Hashable] | np.ndarray
    new: int
    fixed: np.ndarray
    fixed_remoteness: np.ndarray
    parents: np.ndarray
    children: np.ndarray
    numbers: np.ndarray | None = None


@dataclass(frozen=True)
class Segment:
    """Solved positions by number, numbers increasing: one search's table or the cache's."""

    codes: Sequence[int]
    values: Sequence[int]
    remoteness: Sequence[int]

    def get(self, code: int) -> tuple[int, int] | None:
        """(value, remoteness) of the position numbered `code`, if the segment has it."""
        i = bisect_left(self.codes, code)
        if i < len(self.codes) and self.codes[i] == code:
            return self.values[i], self.remoteness[i]
        return None

    def find(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Which of `codes` the segment has, and their values and remoteness (where not,
        those of a neighbour)."""
        import numpy as np

        mine = np.asarray(self.codes, dtype=np.int64)
        if not len(mine):
            return np.zeros(codes.shape, dtype=bool), np.zeros(codes.shape, dtype=np.int8), \
                np.zeros(codes.shape, dtype=np.int32)
        at = np.minimum(np.searchsorted(mine, codes), len(mine) - 1)
        return (mine[at] == codes, np.asarray(self.values, dtype=np.int8)[at],
                np.asarray(self.remoteness, dtype=np.int32)[at])


def sorted_segment(codes: np.ndarray, values: np.ndarray, remoteness: np.ndarray) -> Segment:
    """A segment of positions given in any order."""
    import numpy as np

    order = np.argsort(codes, kind="stable")
    return Segment(_view(codes[order], np.int64), _view(values[order], np.int8),
                   _view(remoteness[order], np.int32))


def _view(items: np.ndarray, dtype: type) -> memoryview:
    """The items as a flat memoryview of `dtype` (indexing it gives Python ints)."""
    import numpy as np

    return np.ascontiguousarray(items, dtype=dtype).data


def _members(ordered: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Which of `codes` are in the increasing array `ordered`."""
    import numpy as np

    if not len(ordered):
        return np.zeros(codes.shape, dtype=bool)
    at = np.minimum(np.searchsorted(ordered, codes), len(ordered) - 1)
    found: np.ndarray = ordered[at] == codes
    return found


def _distinct(items: np.ndarray, runs: bool = False) -> np.ndarray:
    """The distinct items in increasing order, by sorting. `runs` says the items are a few
    increasing runs one after the other: a merge sorts them fastest."""
    import numpy as np

    ordered = np.sort(items, kind="stable" if runs else None)
    distinct: np.ndarray = ordered[_firsts(ordered)]
    return distinct


def _unique(items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct items in increasing order, and how many times each occurs (by sorting:
    NumPy's hashing `unique` is slow on numbers that share their low bits)."""
    import numpy as np

    ordered = np.sort(items)
    starts = np.flatnonzero(_firsts(ordered))
    return ordered[starts], np.diff(np.append(starts, len(ordered)))


def _firsts(ordered: np.ndarray) -> np.ndarray:
    """Where each run of equal items of a sorted array starts."""
    import numpy as np

    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return first


def _sort_pairs(keys: np.ndarray, small: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (keys[i], small[i]) sorted by key, where 0 <= small < `bound`: as one packed
    number when the two fit in 63 bits (sorting numbers is much faster than `argsort`)."""
    import numpy as np

    shift = max(1, (bound - 1).bit_length())
    if not len(keys) or int(keys.max()) < 1 << (63 - shift):
        packed = keys.astype(np.int64) << shift
        packed |= small
        packed.sort()
        return packed >> shift, packed & ((1 << shift) - 1)
    order = np.argsort(keys)
    return keys[order], small[order]


def _gather(first: np.ndarray, items: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The items of every node of `nodes`, node i's being items[first[i]:first[i + 1]]."""
    import numpy as np

    starts = first[nodes]
    counts = first[nodes + 1] - starts
    total = int(counts.sum())
    if total == 0:
        return items[:0]
    ends = np.cumsum(counts)
    return items[np.repeat(starts - ends + counts, counts) + np.arange(total)]


#: the scores of `_best`: a move to a draw, and the base of a move that wins
_DRAW_SCORE = 1 << 32
_WIN_SCORE = 3 << 32


def _best(ends: np.ndarray, rows: np.ndarray, kid_value: np.ndarray,
          kid_rem: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The value and remoteness of positions standing as `ends` says, whose moves (from row
    `rows`) lead to positions of values `kid_value` and remoteness `kid_rem`: each move
    scored for the mover (a win sooner, a draw, a loss later), the best move kept."""
    import numpy as np

    rem = kid_rem.astype(np.int64) + 1
    score = np.where(kid_value == LOSS, _WIN_SCORE - rem,
                     np.where(kid_value == WIN, rem, _DRAW_SCORE))
    best = np.full(len(ends), -1, dtype=np.int64)  # no move: a draw never decided
    np.maximum.at(best, rows, score)
    won, lost = best > 2 * _DRAW_SCORE, (best > 0) & (best < _DRAW_SCORE)
    value = np.where(won, WIN, np.where(lost, LOSS, DRAW)).astype(np.int8)
    remoteness = np.where(won, _WIN_SCORE - best, np.where(lost, best, -1)).astype(np.int32)
    going = ends == UNDECIDED
    return np.where(going, value, ends).astype(np.int8), np.where(going, remoteness, 0)


def _packed_segment(layers: list[np.ndarray], values: list[np.ndarray],
                    remoteness: list[np.ndarray]) -> Segment:
    """The segment of positions given layer by layer (a position may be in two layers, with
    the same value): their numbers sorted with value and remoteness packed below them when
    all fit in 63 bits (sorting numbers in place takes least memory)."""
    import numpy as np

    low = 2 + max(int(r.max(initial=0)) + 1 for r in remoteness).bit_length()
    top = max(int(layer.max(initial=0)) for layer in layers)
    if top >= 1 << (63 - low):
        return sorted_segment(*(np.concatenate(a) for a in (layers, values, remoteness)))
    packed = np.empty(sum(len(layer) for layer in layers), dtype=np.int64)
    at = 0
    while layers:  # each layer let go of once packed
        layer, value, rem = layers.pop(), values.pop(), remoteness.pop()
        part = packed[at : at + len(layer)]
        np.left_shift(layer, low, out=part)
        part |= (value.astype(np.int64) + 1) << (low - 2)
        part |= rem + 1
        at += len(layer)
        del layer, value, rem, part
    packed.sort(kind="stable")  # increasing runs, one a layer: merged
    first = _firsts(packed)
    if not first.all():  # a position met in two layers
        packed = packed[first]
    del first
    part = packed >> (low - 2)  # unpacked in place, one array at a time
    part &= 3
    part -= 1
    value = part.astype(np.int8)
    np.bitwise_and(packed, (1 << (low - 2)) - 1, out=part)
    part -= 1
    rem = part.astype(np.int32)
    del part
    packed >>= low
    return Segment(_view(packed, np.int64), _view(value, np.int8), _view(rem, np.int32))


def retrograde(graph: Graph) -> tuple[np.ndarray, np.ndarray]:
    """The value (WIN, LOSS or DRAW for the mover) and remoteness (-1 for a draw not
    finished) of every position of `graph`, pushed out from those it fixes, remoteness by
    remoteness."""
    import numpy as np

    n = len(graph.fixed)
    value = graph.fixed.astype(np.int8, copy=True)
    remoteness = graph.fixed_remoteness.astype(np.int32, copy=True)
    pending = np.bincount(graph.parents, minlength=n)  # moves not known to lose yet
    by_child = _sort_pairs(graph.children, graph.parents, n)[1].astype(np.int32)
    first = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(graph.children, minlength=n), out=first[1:])

    seeds = np.flatnonzero((value == WIN) | (value == LOSS))
    seeds = seeds[np.argsort(remoteness[seeds], kind="stable")]
    seed_levels = remoteness[seeds]
    taken = 0  # seeds already pushed
    level = int(seed_levels[0]) if len(seeds) else 0
    decided = seeds[:0]
    while True:
        upto = int(np.searchsorted(seed_levels, level, side="right"))
        frontier = np.concatenate([seeds[taken:upto], decided])
        taken = upto
        if not len(frontier):
            if taken == len(seeds):
                break
            level = int(seed_levels[taken])
            continue
        lost = frontier[value[frontier] == LOSS]
        won = frontier[value[frontier] == WIN]
        winners = _gather(first, by_child, lost)
        winners = _unique(winners[value[winners] == UNDECIDED])[0]
        value[winners] = WIN
        remoteness[winners] = level + 1
        pushed = _gather(first, by_child, won)
        pushed, times = _unique(pushed[value[pushed] == UNDECIDED])
        pending[pushed] -= times
        losers = pushed[pending[pushed] == 0]
        value[losers] = LOSS
        remoteness[losers] = level + 1
        decided = np.concatenate([winners, losers])
        level += 1
    value[value == UNDECIDED] = DRAW
    return value, remoteness


class GenericSolver(Solver):
    """Win, loss or draw with remoteness for every position, by searching the game's graph."""

    typed_values = True

    def __init__(self, game: Rules[Any, Any], limit: int | None = None) -> None:
        super().__init__(game)
        #: the game and its rules (`Facts.describe`), None for a game of rules alone
        self.described = game.describe() if isinstance(game, Facts) else None
        #: positions a search may add (None: as many as `memory_budget` allows; a search is
        #: held to the budget either way)
        self.limit = limit
        self._lock = threading.Lock()
        self._grundy = game.grundy if isinstance(game, Impartial) else None
        self.codes, encode = numbering(game)
        self._layered = isinstance(self.codes, Acyclic) and self.codes.acyclic
        self._encoded = encode is not None
        #: a position's key in the table: its number when the game has one (smaller)
        self.key: Callable[[Any], Hashable] = encode if encode is not None else lambda pos: pos
        #: positions by key (those without a number, or with one too big for an array)
        self.table: dict[Hashable, tuple[int, int]] = {}
        #: positions by number, in sorted arrays: the start's table first
        self.segments: list[Segment] = []
        #: the positions the start reaches, all of them (in the cache)
        self._start_table: Segment | None = None
        self._cached_start = False
        #: why the start's table cannot be made (too many positions), once a search found it
        self.too_big: str | None = None

    # --- the table -------------------------------------------------------------------------
    def find(self, key: Hashable) -> tuple[int, int] | None:
        """(value, remoteness) of the position with this key, if solved."""
        found = self.table.get(key)
        if found is None and self.segments and isinstance(key, int) and 0 <= key <= MAX_CODE:
            for segment in self.segments:
                found = segment.get(key)
                if found is not None:
                    break
        return found

    def find_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Which of `codes` are solved, and their values and remoteness."""
        import numpy as np

        known = np.zeros(codes.shape, dtype=bool)
        value = np.zeros(codes.shape, dtype=np.int8)
        remoteness = np.zeros(codes.shape, dtype=np.int32)
        for segment in self.segments:
            has, v, r = segment.find(codes)
            has &= ~known
            known |= has
            value[has], remoteness[has] = v[has], r[has]
        return known, value, remoteness

    def _store(self, graph: Graph, value: np.ndarray, remoteness: np.ndarray) -> None:
        """Keep the new positions of a search: in a segment when their keys are numbers that
        fit."""
        import numpy as np

        if graph.numbers is not None:  # keys sorted
            new = graph.numbers < graph.new
            at = graph.numbers[new]
            self._add_segment(Segment(_view(np.asarray(graph.keys)[new], np.int64),
                                      _view(value[at], np.int8),
                                      _view(remoteness[at], np.int32)))
            return
        keys = graph.keys[: graph.new]
        value, remoteness = value[: graph.new], remoteness[: graph.new]
        if self._encoded and all(isinstance(k, int) and 0 <= k <= MAX_CODE for k in keys):
            self._add_segment(sorted_segment(np.array(keys, dtype=np.int64), value, remoteness))
        else:
            self.table.update(zip(keys, zip(value.tolist(), remoteness.tolist(), strict=True),
                                  strict=True))

    def _add_segment(self, segment: Segment) -> None:
        """Keep a segment; past `SEGMENTS_KEPT` besides the start's, merge them."""
        import numpy as np

        self.segments.append(segment)
        if len(self.segments) > SEGMENTS_KEPT + 1:  # the start's table stays apart
            rest = self.segments[1:]
            self.segments[1:] = [sorted_segment(*(
                np.concatenate([np.asarray(getattr(s, f)) for s in rest])
                for f in ("codes", "values", "remoteness")))]

    # --- searching -------------------------------------------------------------------------
    def outcome_at_end(self, pos: Any) -> int:
        """WIN, LOSS or DRAW of a finished position for the player who would move there."""
        winner = self.game.winner(pos)
        if winner is None:
            return DRAW
        return WIN if winner == self.game.mover(pos) else LOSS

    def footprint(self) -> Footprint:
        """What this game's search that keeps its moves takes, and may take."""
        if self.codes is not None:
            return Footprint(CODED_BYTES, CODED_MOVE_BYTES, memory_budget())
        return Footprint(ENCODED_BYTES if self._encoded else OBJECT_BYTES, MOVE_BYTES,
                         memory_budget())

    def explore(self, starts: list[Any], limit: int | None = None,
                stop_at_solved: bool = True) -> Graph:
        """Every position reachable from `starts` (up to those solved already, unless
        `stop_at_solved` is false) with its moves; raises `TooMany` past `limit` new ones,
        and `InputError` as soon as they would take more memory than `memory_budget`."""
        footprint = self.footprint()
        if self.codes is not None:
            return self._explore_codes([self.codes.encode(p) for p in starts], limit,
                                       stop_at_solved, footprint)
        return self._explore_rules(starts, limit, stop_at_solved, footprint)

    def _explore_rules(self, starts: list[Any], limit: int | None, stop_at_solved: bool,
                       footprint: Footprint) -> Graph:
        """`explore` through the game's rules, one position at a time, breadth first; its
        memory checked every `CHECK_EVERY` moves."""
        import numpy as np

        game, key = self.game, self.key
        limit = MAX_CODE if limit is None else limit  # None: memory alone
        index: dict[Hashable, int] = {}  # new positions from 0, solved ones from -1 down
        keys: list[Hashable] = []
        fixed: list[int] = []
        fixed_rem: list[int] = []
        parents: list[int] = []
        children: list[int] = []
        solved: list[tuple[Hashable, tuple[int, int]]] = []
        queue = []
        for pos in starts:
            k = key(pos)
            if k not in index:
                index[k] = len(keys)
                keys.append(k)
                queue.append(pos)
        for number, pos in enumerate(queue):  # the queue grows as the search goes
            queue[number] = None  # let go of (its key is kept)
            moves = [] if game.is_over(pos) else game.legal_moves(pos)
            if not moves:
                fixed.append(self.outcome_at_end(pos))
                fixed_rem.append(0)
                continue
            fixed.append(UNDECIDED)
            fixed_rem.append(-1)
            for move in moves:
                kid = game.play(pos, move)
                kk = key(kid)
                at = index.get(kk)
                if at is None:
                    known = self.find(kk) if stop_at_solved else None
                    if known is not None:
                        solved.append((kk, known))
                        at = index[kk] = -len(solved)
                    else:
                        at = index[kk] = len(keys)
                        keys.append(kk)
                        queue.append(kid)
                        if len(queue) > limit:
                            raise TooMany
                parents.append(number)
                children.append(at)
                if not len(parents) % CHECK_EVERY:  # (a new position comes with a move)
                    footprint.check(self.described, len(keys), len(parents))
        footprint.check(self.described, len(keys), len(parents))
        kids = np.array(children, dtype=np.int64)
        return Graph(  # the solved positions met are numbered after the new ones
            keys=keys + [k for k, _ in solved],
            new=len(keys),
            fixed=np.array(fixed + [v for _, (v, _) in solved], dtype=np.int8),
            fixed_remoteness=np.array(fixed_rem + [r for _, (_, r) in solved], dtype=np.int32),
            parents=np.array(parents, dtype=np.int64),
            children=np.where(kids >= 0, kids, len(keys) - 1 - kids),
        )

    def _explore_codes(self, starts: list[int], limit: int | None, stop_at_solved: bool,
                       footprint: Footprint) -> Graph:
        """`explore` over arrays of position numbers with the game's `PositionCodes`, one
        remoteness from the starts at a time, its memory checked at each. The positions of
        each step are numbered in increasing order of their keys; the solved ones met get
        -1, -2, ... until the end."""
        import numpy as np

        assert self.codes is not None
        frontier = _unique(np.array(starts, dtype=np.int64))[0]
        seen, seen_numbers = frontier, np.arange(len(frontier), dtype=np.int64)
        found = len(frontier)  # new positions numbered so far
        moves = 0  # moves kept so far
        met_solved = 0  # solved positions met so far
        ends, parents, children, solved = [], [], [], []
        while len(frontier):
            base = found - len(frontier)  # the frontier's first number
            kids, dads = [], []
            for lo in range(0, len(frontier), CHUNK):
                standing, rows, after = self.codes.expand(frontier[lo : lo + CHUNK])
                ends.append(standing)
                kids.append(after)
                dads.append(rows + (base + lo))
            after, dads_sorted = _sort_pairs(np.concatenate(kids), np.concatenate(dads), found)
            first = _firsts(after)
            distinct = after[first]
            numbers = np.empty(len(distinct), dtype=np.int64)
            met = _members(seen, distinct)
            numbers[met] = seen_numbers[np.searchsorted(seen, distinct[met])]
            fresh = ~met
            if stop_at_solved:
                known = np.zeros(len(distinct), dtype=bool)
                known[fresh] = self.find_codes(distinct[fresh])[0]
                numbers[known] = -1 - np.arange(met_solved, met_solved + int(known.sum()))
                met_solved += int(known.sum())
                solved.append(distinct[known])
                fresh &= ~known
            frontier = distinct[fresh]
            numbers[fresh] = np.arange(found, found + len(frontier))
            found += len(frontier)
            moves += len(after)
            if limit is not None and found > limit:
                raise TooMany
            footprint.check(self.described, found, moves)
            parents.append(dads_sorted.astype(np.int32))  # numbers stay below 2**31
            children.append(numbers[np.cumsum(first) - 1].astype(np.int32))
            at = np.searchsorted(seen, distinct[~met])
            seen = np.insert(seen, at, distinct[~met])
            seen_numbers = np.insert(seen_numbers, at, numbers[~met])
        old_codes = np.concatenate([np.zeros(0, dtype=np.int64), *solved])
        _, old_value, old_rem = self.find_codes(old_codes)
        standing = np.concatenate(ends)

        def renumbered(numbers: np.ndarray) -> np.ndarray:  # the solved ones after the new
            return np.where(numbers >= 0, numbers, found - 1 - numbers) if met_solved else numbers

        return Graph(
            keys=seen,
            new=found,
            fixed=np.concatenate([standing, old_value]),
            fixed_remoteness=np.concatenate([np.where(standing == UNDECIDED, -1, 0), old_rem]),
            parents=np.concatenate(parents),
            children=renumbered(np.concatenate(children)),
            numbers=renumbered(seen_numbers),
        )

    def solve(self, starts: Iterable[Any]) -> None:
        """Solve every position reachable from `starts` that is not solved yet."""
        with self._lock:
            self._load_start_table()
            new = [p for p in starts if self.find(self.key(p)) is None]
            if new:
                self._search(new)

    def _search(self, starts: list[Any]) -> None:
        """Solve the positions reachable from `starts` and keep them (the caller holds the
        lock)."""
        try:
            if self._layered:
                assert self.codes is not None
                self._solve_layered([self.codes.encode(p) for p in starts], self.limit)
                return
            graph = self.explore(starts, self.limit)
        except TooMany:
            raise InputError(f"{self.described or 'the game'} has more than {self.limit:,} "
                             "positions reachable from here: too many to solve") from None
        self._store(graph, *retrograde(graph))

    def _solve_layered(self, starts: list[int], limit: int | None) -> None:
        """Solve and keep the positions reachable from `starts` of a game whose codes are
        acyclic, layer by layer: no move is kept, each is played twice (to find the next
        layer, then to value a layer from the next one's values)."""
        import numpy as np

        assert self.codes is not None
        budget = memory_budget()
        layers = [_distinct(np.array(starts, dtype=np.int64))]
        found = len(layers[0])
        while True:
            pieces = [_distinct(self.codes.expand(layers[-1][lo : lo + CHUNK])[2])
                      for lo in range(0, len(layers[-1]), CHUNK)]
            after = _distinct(np.concatenate([np.zeros(0, dtype=np.int64), *pieces]), True)
            if self.segments:  # those solved already are not searched again
                after = after[~self.find_codes(after)[0]]
            if not len(after):
                break
            found += len(after)
            if limit is not None and found > limit:
                raise TooMany
            if found * LAYERED_BYTES > budget:
                raise too_big(self.described, found * LAYERED_BYTES, budget,
                              f"{found:,} positions so far, at {LAYERED_BYTES} bytes each")
            layers.append(after)
        later = np.zeros(0, dtype=np.int64)  # the layer after: none after the last
        value, rem = np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.int32)
        values: list[np.ndarray] = []
        remoteness: list[np.ndarray] = []
        for layer in reversed(layers):
            value, rem = self._value_layer(layer, later, value, rem)
            values.insert(0, value)
            remoteness.insert(0, rem)
            later = layer
        self._add_segment(_packed_segment(layers, values, remoteness))

    def _value_layer(self, layer: np.ndarray, later: np.ndarray, later_value: np.ndarray,
                     later_rem: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The values and remoteness of a layer's positions, from those of the next layer
        (`later`, numbers increasing) and of the positions solved before."""
        import numpy as np

        assert self.codes is not None
        value = np.empty(len(layer), dtype=np.int8)
        remoteness = np.empty(len(layer), dtype=np.int32)
        for lo in range(0, len(layer), CHUNK):
            ends, rows, kids = self.codes.expand(layer[lo : lo + CHUNK])
            at = np.minimum(np.searchsorted(later, kids), max(len(later) - 1, 0))
            hit = later[at] == kids if len(later) else np.zeros(len(kids), dtype=bool)
            kid_value = later_value[at] if len(later) else np.zeros(len(kids), dtype=np.int8)
            kid_rem = (later_rem[at] if len(later) else np.zeros(len(kids), dtype=np.int32))
            if not hit.all():
                known, old_value, old_rem = self.find_codes(kids[~hit])
                assert known.all(), "a move to a position the search did not find"
                kid_value[~hit], kid_rem[~hit] = old_value, old_rem
            value[lo : lo + len(ends)], remoteness[lo : lo + len(ends)] = _best(
                ends, rows, kid_value, kid_rem)
        return value, remoteness

    def stats(self, starts: list[Any], limit: int | None = None) -> dict[str, int]:
        """Positions reachable from `starts` and how many are won, lost and drawn for the
        player to move, read off the table; raises `InputError` past `limit` positions (by
        default none: the start's table is counted as it is, and a search for other starts
        is held to `memory_budget`)."""
        if self._grundy is not None:  # the closed form answers: no table
            return super().stats(starts) if limit is None else super().stats(starts, limit)
        import numpy as np

        self.solve(starts)
        start = self.game.start()
        if self._start_table is not None and all(p == start for p in starts):
            values = np.asarray(self._start_table.values)  # what the start reaches, exactly
            if limit is not None and len(values) > limit:
                raise InputError(f"more than {limit:,} reachable positions to count")
        else:
            try:
                graph = self.explore(starts, limit, stop_at_solved=False)
            except TooMany:
                raise InputError(f"more than {limit:,} reachable positions to count") from None
            if graph.numbers is not None:
                values = self.find_codes(np.asarray(graph.keys))[1]
            else:
                found = [self.find(k) for k in graph.keys]
                values = np.array([f[0] for f in found if f is not None], dtype=np.int8)
        return {"positions": len(values), "win": int(np.count_nonzero(values == WIN)),
                "loss": int(np.count_nonzero(values == LOSS)),
                "draw": int(np.count_nonzero(values == DRAW))}

    # --- the start's table in the cache -------------------------------------------------------
    def _cache_key(self) -> str | None:
        """The start's table's key in the cache: the rules, whose numbers the table holds
        and the digest of the code of the game, its numbers and this solver (None for
        positions without numbers, or a game without its facts to name its rules)."""
        if not self._encoded or self.described is None:
            return None
        numbers = type(self.codes) if self.codes is not None else type(self.game)
        code = cache.code_digest(type(self.game), numbers, type(self))
        return (f"generic table 2: {self.described}, numbered by "
                f"{numbers.__module__}.{numbers.__qualname__}, code {code}")

    def _load_start_table(self) -> None:
        """Read the start's table from the cache, or solve the start first and store it."""
        key = self._cache_key()
        if key is None or self._cached_start:
            return
        self._cached_start = True
        arrays = cache.load_flat(key)
        if arrays is not None:
            self._start_table = Segment(arrays["codes"], arrays["value"], arrays["remoteness"])
            self.segments.insert(0, self._start_table)
            return
        try:
            self._search([self.game.start()])
        except InputError as exc:
            self.too_big = str(exc)
            raise
        if self.segments:  # numbers that fit in the table on disk
            import numpy as np

            self._start_table = start = self.segments[0]
            cache.save(key, {"codes": np.asarray(start.codes),
                             "value": np.asarray(start.values),
                             "remoteness": np.asarray(start.remoteness)})

    # --- answers ---------------------------------------------------------------------------
    def lookup(self, pos: Any) -> tuple[int, int]:
        """(WIN/LOSS/DRAW for the mover, remoteness or -1) of `pos`, solving it if need be."""
        key = self.key(pos)
        found = self.find(key)
        if found is None:
            self.solve([pos])
            found = self.find(key)
            assert found is not None
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
            return MoveValue(move, Outcome.DRAW, None)
        return MoveValue(move, NEGATED[value], rem + 1 if rem >= 0 else None)

    def evaluate(self, pos: Any) -> Evaluation:
        """Value and remoteness for the mover; the best moves keep the value (and, where the
        remoteness is known, win fastest or lose slowest)."""
        code, rem = self.value_of(pos)
        value = VALUES[code]
        if self.game.is_over(pos):
            return Evaluation(value, 0, [])
        moves = self.move_values(pos)
        if code == DRAW:
            return Evaluation(value, None, [m.move for m in moves if m.value is Outcome.DRAW])
        if rem < 0:
            return Evaluation(value, None, [m.move for m in moves if m.value == value])
        best = [m.move for m in moves if m.value == value and m.remoteness == rem]
        return Evaluation(value, rem, best)

    def choose(self, pos: Any, rng: random.Random | None = None) -> Any:
        moves = self.evaluate(pos).best_moves
        if not moves:
            raise ValueError("no legal move: the game is over")
        return rng.choice(moves) if rng else moves[0]

    def browser_limit(self, pos: Any) -> str | None:
        """Refused once a search found the start's table too big: the browser app does not
        search it again at each request."""
        return self.too_big

    def check(self, positions: list[Any]) -> None:
        """Solve the positions now (and refuse a game too big to solve) unless a closed form
        answers for them."""
        if self._grundy is None:
            self.solve(positions)
