"""Perfect Chopsticks by vectorised retrograde analysis over every position of a hand shape.

A position is seen from the player to move: (the mover's hands, the opponent's hands), each
side's hands taken as a multiset, since the hands' order never changes what a side can do.
A side with k hands of 0..top fingers is one of C(top + k, k) sorted tuples, ranked densely
in colex order. A table covers a shape {p, q} of hand counts: a block of positions where the
side with p hands moves and, when p != q, a block where the side with q hands moves; inside a
block the index is mover rank * (opponent's count) + opponent's rank (mixed radix).

Solving counts each position's moves, starts from the finished positions and pushes the
frontier outwards by increasing remoteness: a position with a lost child is won, a position
whose children are all won is lost; what is never reached is a draw. Predecessors are found
with inverted per-side move tables, so no edge list is ever stored.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from functools import cached_property
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from judge.games.base import RulesError
from judge.games.chopsticks import LEFT, RIGHT, Chopsticks, Move, Position, knock, mirrored
from judge.solvers import cache
from judge.solvers.base import Evaluation, MoveValue, Outcome, Solver

WIN, LOSS, DRAW = 1, -1, 0  # for the player to move; DRAW is also "not decided yet"
VALUES = {WIN: Outcome.WIN, LOSS: Outcome.LOSS, DRAW: Outcome.DRAW}
NEGATED = {WIN: Outcome.LOSS, LOSS: Outcome.WIN, DRAW: Outcome.DRAW}
#: bytes a position costs while solving: value 1, remoteness 2, move count 1-2, two marks 2
BYTES_PER_POSITION = 8
#: bytes per (multiset, hand, fingers) entry of a side's tap table and its inverse
BYTES_PER_TAP = 28
#: fixed cost of a solve: interpreter, numpy, chunk buffers
BASE_BYTES = 150 * 2**20
#: tables whose solve is estimated above this are refused (the machine has 2 GB)
MAX_BYTES = 1_500_000_000
#: tables with more moves than this (an upper bound; a minute or two of work) are refused
MAX_MOVES = 3_000_000_000
#: tables the browser app solves on request: at most this many moves (a few seconds)
BROWSER_MOVES = 20_000_000
#: tables a solver keeps, of the shapes asked for last (others are read again from the cache)
TABLES_KEPT = 4
EDGES_PER_CHUNK = 1 << 20  # positions or moves handled at once

Shape = tuple[int, int]  # hand counts of the two sides, unordered for tables


def expand(
    ptr: np.ndarray, data: np.ndarray, keys: np.ndarray
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Each key's CSR row ``data[ptr[key]:ptr[key + 1]]`` as (key's position, item) arrays.

    The items come in pieces of about EDGES_PER_CHUNK, so memory stays bounded.
    """
    starts = ptr[keys]
    lengths = ptr[keys + 1] - starts
    ends = np.cumsum(lengths)
    lo = 0
    while lo < len(keys):
        done = ends[lo] - lengths[lo]  # items of the keys before lo
        hi = max(lo + 1, int(np.searchsorted(ends, done + EDGES_PER_CHUNK, side="right")))
        n = lengths[lo:hi]
        owner = np.repeat(np.arange(lo, hi), n)
        first = np.repeat(starts[lo:hi] - (ends[lo:hi] - n - done), n)
        yield owner, data[first + np.arange(len(owner))]
        lo = hi


def marked(mask: np.ndarray) -> Iterator[np.ndarray]:
    """The indices where `mask` is set, in pieces (no array of them all is ever built)."""
    for start in range(0, len(mask), EDGES_PER_CHUNK):
        found = np.flatnonzero(mask[start : start + EDGES_PER_CHUNK])
        if found.size:
            yield found + start


def csr(keys: np.ndarray, items: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of `items` grouped by `keys` (0..rows-1), as (pointer, data) arrays."""
    order = np.argsort(keys, kind="stable")
    ptr = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=rows), out=ptr[1:])
    return ptr, items[order].astype(np.int64)


def multisets(k: int, top: int) -> int:
    """How many sorted k-tuples of values 0..top there are."""
    return comb(top + k, k)


def unordered(shape: Shape) -> Shape:
    """The hand counts in increasing order: the key of a shape's table."""
    low, high = sorted(shape)
    return low, high


def blocks(shape: Shape) -> list[Shape]:
    """The (mover's hands, opponent's hands) blocks of a table: one when the counts agree."""
    p, q = sorted(shape)
    return [(p, q)] if p == q else [(p, q), (q, p)]


class Side:
    """Every multiset of k hands (values 0..top) under one rule set, with its move tables."""

    def __init__(self, game: Chopsticks, k: int) -> None:
        self.game = game
        self.k = k
        self.top = game.top
        self.count = multisets(k, game.top)
        self.binom = np.array(
            [[comb(c, i) for i in range(k + 1)] for c in range(self.top + k + 1)], dtype=np.int64
        )

    def rank(self, sorted_hands: np.ndarray) -> np.ndarray:
        """Colex ranks of rows of ascending hand values."""
        cols = np.arange(self.k)
        found: np.ndarray = self.binom[sorted_hands + cols, cols + 1].sum(axis=1)
        return found

    def rank_of(self, hands: tuple[int, ...]) -> int:
        """The rank of one tuple of hands, in any order."""
        return sum(comb(v + i, i + 1) for i, v in enumerate(sorted(hands)))

    @cached_property
    def hands(self) -> np.ndarray:
        """Row r: the ascending hands of rank r."""
        rows = np.array(
            list(combinations_with_replacement(range(self.top + 1), self.k)), dtype=np.int64
        )
        out = np.empty_like(rows)
        out[self.rank(rows)] = rows
        return out

    @cached_property
    def live(self) -> np.ndarray:
        """How many live hands each multiset has."""
        found: np.ndarray = np.count_nonzero(self.hands, axis=1)
        return found

    @cached_property
    def tap(self) -> np.ndarray:
        """``tap[w, j, x]``: the rank after hand j of w gains x fingers; -1 if j is out or x=0."""
        game, hands = self.game, self.hands
        table = np.full((self.count, self.k, self.top + 1), -1, dtype=np.int32)
        for j in range(self.k):
            alive = hands[:, j] > 0
            for x in range(1, self.top + 1):
                new = hands.copy()
                new[:, j] = knock(hands[:, j] + x, game.fingers, game.rollover)
                new.sort(axis=1)
                table[:, j, x] = np.where(alive, self.rank(new), -1)
        return table

    @cached_property
    def untap(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR keyed by ``rank * (top + 1) + x``: each (w, live hand j) with tap[w, j, x] = rank."""
        w, _, x = np.nonzero(self.tap >= 0)
        keys = self.tap[self.tap >= 0] * (self.top + 1) + x
        return csr(keys, w, self.count * (self.top + 1))

    @cached_property
    def splits(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR keyed by rank: the distinct ranks a split, revive or swap leads to."""
        owners: list[int] = []
        results: list[int] = []
        game = self.game
        if game.split != "off" or game.swap:
            for w, row in enumerate(self.hands.tolist()):
                after = {self.rank_of(s) for s in game.split_results(tuple(row))}
                owners.extend([w] * len(after))
                results.extend(sorted(after))
        return csr(np.array(owners, dtype=np.int64), np.array(results, dtype=np.int64), self.count)

    @cached_property
    def unsplit(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR keyed by rank: the ranks from which one split, revive or swap leads here."""
        ptr, data = self.splits
        owners = np.repeat(np.arange(self.count), np.diff(ptr))
        return csr(data, owners, self.count)


class Layout:
    """The dense index of every position of one shape, and moves between indices."""

    def __init__(self, sides: dict[int, Side], shape: Shape) -> None:
        self.blocks = blocks(shape)
        self.sides = sides
        sizes = [sides[m].count * sides[o].count for m, o in self.blocks]
        self.offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        self.size = int(self.offsets[-1])
        game = sides[shape[0]].game
        self.tapping = game.tapping
        self.splitting = game.split != "off" or game.swap

    def index(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> int:
        """The index of the position where hands `mine` move against `theirs`."""
        b = self.blocks.index((len(mine), len(theirs)))
        opp = self.sides[len(theirs)]
        mover = self.sides[len(mine)]
        return int(self.offsets[b]) + mover.rank_of(mine) * opp.count + opp.rank_of(theirs)

    def by_block(self, indices: np.ndarray) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """The indices split by block: (block, mover's ranks, opponent's ranks)."""
        block = np.searchsorted(self.offsets, indices, side="right") - 1
        for b, (_, o) in enumerate(self.blocks):
            rel = indices[block == b] - self.offsets[b]
            if rel.size:
                yield b, rel // self.sides[o].count, rel % self.sides[o].count

    def successor_base(self, b: int) -> tuple[int, int]:
        """The block the opponent moves in after a move in block b, and its offset and stride."""
        nb = b if len(self.blocks) == 1 else 1 - b
        return int(self.offsets[nb]), self.sides[self.blocks[b][0]].count

    def children(self, indices: np.ndarray) -> Iterator[np.ndarray]:
        """Every child index of unfinished `indices`, once per move, in pieces."""
        for b, a, o in self.by_block(indices):
            me, you = (self.sides[k] for k in self.blocks[b])
            base, stride = self.successor_base(b)
            going = (me.live[a] > 0) & (you.live[o] > 0)
            a, o = a[going], o[going]
            for i in range(me.k):
                for j in range(you.k):
                    x, y = me.hands[a, i], you.hands[o, j]
                    ok = (x > 0) & (y > 0)
                    if self.tapping:
                        yield base + o[ok] * stride + me.tap[a[ok], i, y[ok]]
                    else:
                        yield base + you.tap[o[ok], j, x[ok]] * stride + a[ok]
            if self.splitting:
                for owner, new in expand(*me.splits, a):
                    yield base + o[owner] * stride + new

    def reachable(self, starts: list[int]) -> np.ndarray:
        """A mask of the positions reachable from the indices `starts` (themselves included)."""
        seen = np.zeros(self.size, dtype=bool)
        seen[starts] = True
        frontier, fresh = seen.copy(), np.zeros(self.size, dtype=bool)
        while frontier.any():
            for part in marked(frontier):
                for kids in self.children(part):
                    fresh[kids] = True
            fresh &= ~seen
            seen |= fresh
            frontier, fresh = fresh, frontier
            fresh[:] = False
        return seen

    def parents(self, indices: np.ndarray) -> Iterator[np.ndarray]:
        """Every unfinished position with a move to one of `indices`, once per move, in pieces."""
        for b, u, v in self.by_block(indices):
            # the child (u moves, v just moved) comes from block nb where v moved against u
            me, you = (self.sides[k] for k in self.blocks[b])
            base, stride = self.successor_base(b)
            top1 = me.top + 1
            if self.tapping:  # v's hand tapped one of u's hands and gained its fingers
                for j in range(me.k):
                    y = me.hands[u, j]
                    uo = u[y > 0]
                    for owner, w in expand(*you.untap, v[y > 0] * top1 + y[y > 0]):
                        yield base + w * stride + uo[owner]
            else:  # one of v's hands tapped one of u's hands, which gained its fingers
                for i in range(you.k):
                    x = you.hands[v, i]
                    vo = v[x > 0]
                    for owner, w in expand(*me.untap, u[x > 0] * top1 + x[x > 0]):
                        yield base + vo[owner] * stride + w
            if self.splitting:
                uo = u[me.live[u] > 0]
                for owner, w in expand(*you.unsplit, v[me.live[u] > 0]):
                    yield base + w * stride + uo[owner]

    def move_counts(self) -> np.ndarray:
        """How many moves each position has (0 when finished), in the smallest dtype."""
        dtype = np.min_scalar_type(self.max_moves)
        counts = np.empty(self.size, dtype=dtype)
        for view, me, you in self.block_views(counts):
            np.multiply.outer(me.live.astype(dtype), you.live.astype(dtype), out=view)
            if self.splitting:
                view += np.diff(me.splits[0]).astype(dtype)[:, None]
            view[me.live == 0, :] = 0
            view[:, you.live == 0] = 0
        return counts

    @cached_property
    def max_moves(self) -> int:
        """The most moves any position has."""
        most = 0
        for m, o in self.blocks:
            splits = int(np.diff(self.sides[m].splits[0]).max()) if self.splitting else 0
            most = max(most, m * o + splits)
        return most

    def finished_values(self, misere: bool) -> np.ndarray:
        """WIN or LOSS of finished positions for the mover, DRAW (undecided) elsewhere."""
        values = np.zeros(self.size, dtype=np.int8)
        for view, me, you in self.block_views(values):
            view[:, you.live == 0] = LOSS if misere else WIN
            view[me.live == 0, :] = WIN if misere else LOSS
        return values

    def block_views(self, array: np.ndarray) -> Iterator[tuple[np.ndarray, Side, Side]]:
        """Each block of a per-position array as a 2-D view (mover's rank, opponent's rank)."""
        for b, (m, o) in enumerate(self.blocks):
            me, you = self.sides[m], self.sides[o]
            view = array[self.offsets[b] : self.offsets[b + 1]]
            yield view.reshape(me.count, you.count), me, you


def solve(layout: Layout, misere: bool) -> dict[str, np.ndarray]:
    """Value (WIN/LOSS/DRAW for the mover) and remoteness of every position of `layout`."""
    value = layout.finished_values(misere)
    remoteness = np.zeros(layout.size, dtype=np.uint16)
    counts = layout.move_counts()  # moves of each position not yet known to lose
    one = counts.dtype.type(1)  # of the counts' own type: ufunc.at is slow when it must cast
    frontier = value != DRAW  # decided in the last round
    fresh = np.zeros(layout.size, dtype=bool)  # decided in this round
    depth = 0
    while True:
        depth += 1
        if depth > np.iinfo(remoteness.dtype).max:
            remoteness = remoteness.astype(np.uint32)
        for part in marked(frontier):
            for parents in layout.parents(part[value[part] == LOSS]):
                won = parents[value[parents] == DRAW]
                value[won] = WIN
                fresh[won] = True
            for parents in layout.parents(part[value[part] == WIN]):
                parents = parents[value[parents] == DRAW]
                np.subtract.at(counts, parents, one)
                lost = parents[counts[parents] == 0]
                value[lost] = LOSS
                fresh[lost] = True
        if not fresh.any():
            break
        remoteness[fresh] = depth
        frontier, fresh = fresh, frontier
        fresh[:] = False
    return {"value": value, "remoteness": remoteness}


class ChopsticksSolver(Solver):
    """Win/loss/draw with remoteness for any position, from tables solved once per shape."""

    typed_values = True

    def __init__(self, game: Chopsticks) -> None:
        super().__init__(game)
        self.game: Chopsticks = game
        self._sides: dict[int, Side] = {}
        self._tables: OrderedDict[Shape, tuple[Layout, np.ndarray, np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()
        # tables are checked (and solved) per shape as positions need them: see `table`

    def estimate(self, shape: Shape) -> tuple[int, int]:
        """Positions in the table of `shape` and the bytes its solve needs, roughly."""
        top = self.game.top
        positions = sum(multisets(m, top) * multisets(o, top) for m, o in blocks(shape))
        taps = sum(multisets(k, top) * k * (top + 1) for k in set(shape))
        return positions, BASE_BYTES + BYTES_PER_POSITION * positions + BYTES_PER_TAP * taps

    def moves_bound(self, shape: Shape) -> int:
        """An upper bound on the moves of all positions of `shape`: the work of a solve."""
        game, top = self.game, self.game.top
        total = 0
        for m, o in blocks(shape):
            splits = m * (m - 1) * (top - 1) if game.split != "off" else 0
            swaps = m * (m - 1) // 2 if game.swap else 0
            total += multisets(m, top) * multisets(o, top) * (m * o + splits + swaps)
        return total

    def check(self, positions: list[Position]) -> None:
        """Refuse positions of a shape whose table is too big to solve here."""
        for shape in sorted({unordered(p.shape) for p in positions}):
            self.check_size(shape)

    def check_size(self, shape: Shape) -> None:
        """Refuse a shape whose table is too big to solve here; raises `RulesError`."""
        positions, size = self.estimate(shape)
        moves = self.moves_bound(shape)
        if size > MAX_BYTES or moves > MAX_MOVES:
            raise RulesError(
                f"Chopsticks with {shape[0]}/{shape[1]} hands and {self.game.fingers} fingers "
                f"has {_count(positions)} positions (hands taken as unordered) with up to "
                f"{_count(moves)} moves, and solving it would need about "
                f"{_count(size / 2**30)} GiB; the limits are {MAX_BYTES / 2**30:.1f} GiB and "
                f"{MAX_MOVES:,} moves: use fewer hands or fingers"
            )

    def browser_limit(self, pos: Position) -> str | None:
        """A table too big to solve here at all, or with more than `BROWSER_MOVES` moves."""
        try:
            self.check([pos])
        except RulesError as exc:
            return str(exc)
        moves = self.moves_bound(unordered(pos.shape))
        if moves > BROWSER_MOVES:
            return (f"these rules have up to {moves:,} moves to solve; the browser solves at "
                    f"most {BROWSER_MOVES:,} (use `judge solve`)")
        return None

    def _side(self, k: int) -> Side:
        if k not in self._sides:
            self._sides[k] = Side(self.game, k)
        return self._sides[k]

    def table_key(self, shape: Shape) -> str:
        """The cache key of a shape's table: the rules with the (unordered) hand counts, and
        the digest of the game's and the solver's code."""
        return (f"chopsticks table 1: {self.game.rules_for(unordered(shape))}, code "
                f"{cache.code_digest(type(self.game), type(self))}")

    def table(self, shape: Shape) -> tuple[Layout, np.ndarray, np.ndarray]:
        """The layout, values and remoteness of `shape`, solved or read from the cache (the
        `TABLES_KEPT` shapes asked for last are kept)."""
        key = unordered(shape)
        with self._lock:
            found = self._tables.get(key)
            if found is not None:
                self._tables.move_to_end(key)
                return found
        self.check_size(key)
        layout = Layout({k: self._side(k) for k in key}, key)
        arrays = cache.cached(self.table_key(key), lambda: solve(layout, self.game.misere))
        found = (layout, arrays["value"], arrays["remoteness"])
        with self._lock:
            self._tables[key] = found
            while len(self._tables) > TABLES_KEPT:
                self._tables.popitem(last=False)
            self._sides = {k: self._sides[k] for t in self._tables for k in t
                           if k in self._sides}  # a side no kept table uses goes too
        return found

    def _lookup(self, pos: Position) -> tuple[int, int]:
        layout, value, remoteness = self.table(pos.shape)
        i = layout.index(*self.game.sides(pos))
        return int(value[i]), int(remoteness[i])

    def move_value(self, pos: Position, move: Move) -> MoveValue:
        value, rem = self._lookup(self.game.play(pos, move))
        if value == DRAW:
            return MoveValue(move, Outcome.DRAW, None)
        return MoveValue(move, NEGATED[value], rem + 1)

    def evaluate(self, pos: Position) -> Evaluation:
        """Value and remoteness for the mover; best moves keep the value and make progress."""
        code, rem = self._lookup(pos)
        value = VALUES[code]
        if code == DRAW:
            best = [m.move for m in self.move_values(pos) if m.value is Outcome.DRAW]
            return Evaluation(value, None, best)
        best = [m.move for m in self.move_values(pos) if m.value == value and m.remoteness == rem]
        return Evaluation(value, rem, best)

    def outcome(self, pos: Position) -> str:
        """Who wins with Left moving first and with Right moving first.

        ``N``: the first mover wins, ``P``: the second mover wins, ``L``/``R``: that side
        wins either way, ``D``: a draw either way. When exactly one order is drawn the answer
        is ``x/y``: the result with Left moving first, then with Right moving first, each
        ``L``, ``R`` or ``D`` (``L/D``: Left wins moving first, a draw if Right moves first).
        """
        results = []
        for mover in (LEFT, RIGHT):
            start = pos if pos.to_move == mover else mirrored(pos)
            code, _ = self._lookup(start)
            winner = mover if code == WIN else 1 - mover
            results.append("D" if code == DRAW else "LR"[winner])
        first, second = results
        if "D" in results:
            return "D" if first == second else f"{first}/{second}"
        if first == second:
            return first
        return "N" if first == "L" else "P"

    def canonical(self, pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The mover's and the opponent's hands, each sorted: what `stats` counts once."""
        mine, theirs = self.game.sides(pos)
        return tuple(sorted(mine)), tuple(sorted(theirs))

    def stats(self, starts: Position | Iterable[Position] | None = None,
              limit: int = 2_000_000) -> dict[str, int]:
        """Positions reachable from `starts` (default: the start), counted by value for the mover.

        `starts` is one position or several. A position here is the mover's and the
        opponent's hands, each as an unordered collection (see `canonical`), so positions
        that differ only in the order of hands, or with equal hand counts only in which side
        holds them, count once. `limit` is the base class's and not needed here: the count
        is read off whole tables, whose size `check_size` already bounds.
        """
        if starts is None:
            starts = [self.game.start()]
        starts = [starts] if isinstance(starts, Position) else list(starts)
        counts = dict.fromkeys(("positions", "win", "loss", "draw"), 0)
        for shape in {unordered(p.shape) for p in starts}:
            layout, value, _ = self.table(shape)
            ours = [p for p in starts if unordered(p.shape) == shape]
            seen = layout.reachable([layout.index(*self.game.sides(p)) for p in ours])
            reached = value[seen]
            counts["positions"] += int(np.count_nonzero(seen))
            for code, name in VALUES.items():
                counts[name] += int(np.count_nonzero(reached == code))
        return counts


def _count(n: float) -> str:
    """A count or size for a message: grouped digits, or three figures when it is huge."""
    if n >= 1e18:
        return f"{n:.3g}"
    return f"{n:,.1f}" if isinstance(n, float) else f"{n:,}"
