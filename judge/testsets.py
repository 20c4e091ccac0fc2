"""Default test sets: start positions that the graded seat can win (or at least hold)."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from judge.games.base import Game
from judge.games.ioiwari import START_BEADS, Board, canonical_rotation
from judge.solvers import solver_for
from judge.solvers.base import order


def candidates(game: Game, first: bool) -> list[Any]:
    """Positions to pick a test set from, for a bot that moves first (or second)."""
    if game.name == "ioiwari" and not first:
        return ioiwari_second_seat_boards()
    if game.name == "nim":
        from judge.games.nim import Heaps  # (the game's module, loaded for its games only)

        small = [Heaps(h) for h in combinations_with_replacement(range(1, 8), 3)]
        return small + [Heaps(h) for h in ((1, 1, 1, 1), (2, 3, 5, 7), (4, 6, 9, 12),
                                           (1, 2, 4, 8, 15), (10, 20, 30), (17, 33, 48))]
    if game.name == "chopsticks":
        return opening_positions(game, CHOPSTICKS_PLIES)
    return game.test_positions()


#: Chopsticks tests: the starts and every position up to this many moves into the game
CHOPSTICKS_PLIES = 3
#: at most this many Chopsticks tests per seat, spread evenly over the candidates
CHOPSTICKS_TESTS = 24


def opening_positions(game: Game, plies: int) -> list[Any]:
    """The standard starts and the distinct positions up to `plies` moves after them."""
    seen = {p: None for p in game.standard_starts()}
    frontier = list(seen)
    for _ in range(plies):
        nxt = []
        for pos in frontier:
            for move in game.legal_moves(pos):
                child = game.play(pos, move)
                if child not in seen and not game.is_over(child):
                    seen[child] = None
                    nxt.append(child)
        frontier = nxt
    return list(seen)


def ioiwari_second_seat_boards() -> list[Board]:
    """20-bead boards (0..5 per pit) that the player to move loses, one per rotation class.

    No standard start is lost for the first player, so the second seat is graded on these.
    """
    import numpy as np

    from judge.games.ioiwari import Ioiwari
    from judge.solvers.ioiwari import all_boards

    boards = all_boards()
    best = np.frombuffer(solver_for(Ioiwari()).best, dtype=np.int8)
    lost = boards[(boards.sum(axis=1) == START_BEADS) & (best < 0)]
    return [Board(p) for p in sorted({canonical_rotation(tuple(map(int, row))) for row in lost})]


def default_tests(game: Game, first: bool) -> list[Any]:
    """The default test set for the seat: candidates the graded seat can win, or hold."""
    solver = solver_for(game)
    keep = []
    for pos in candidates(game, first):
        v = order(solver.evaluate(pos).value)
        if (v > 0 if first else v < 0) or (v == 0 and (game.loopy or game.draws)):
            keep.append(pos)
    if game.name == "chopsticks" and len(keep) > CHOPSTICKS_TESTS:
        step = len(keep) / CHOPSTICKS_TESTS
        keep = [keep[int(i * step)] for i in range(CHOPSTICKS_TESTS)]
    return keep


#: starts of a default Nim or Chopsticks tournament (each is played in both seats)
TOURNAMENT_STARTS = 12


def tournament_starts(game: Game) -> list[Any]:
    """A default tournament's starts: Ioiwari's standard ones, one per rotation class (51);
    for Nim and Chopsticks `TOURNAMENT_STARTS` spread evenly over the grading candidates
    (won and lost ones alike, as both seats play each), so that no one start decides it."""
    if game.name == "ioiwari":
        return [Board(p) for p in sorted({canonical_rotation(b.pits)
                                          for b in game.standard_starts()})]
    pool = [p for p in candidates(game, True) if not game.is_over(p)]
    if len(pool) <= TOURNAMENT_STARTS:
        return pool
    step = len(pool) / TOURNAMENT_STARTS
    return [pool[int(i * step)] for i in range(TOURNAMENT_STARTS)]
