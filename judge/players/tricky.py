"""The tricky opponent: perfect play that, among equally good moves, sets the hardest task.

It chooses among exactly the moves the optimal player chooses among (so it gets the same
result against perfect play, with the same value and remoteness preference), and picks the
one that leaves the bot the least room to keep its value (see `tricky_move`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from judge.players.base import Played, Player
from judge.solvers import solver_for
from judge.solvers.base import Solver

#: the two-ply look-ahead runs only when at most this many moves are still tied on the first
#: key, and each leaves the bot at most this many value-keeping replies
DEEP_CANDIDATES = 8
DEEP_REPLIES = 8
#: with more candidate moves than this (very many heaps, say) moves are not scored at all
MAX_CANDIDATES = 64


def candidate_moves(solver: Solver, pos: Any) -> list[Hashable]:
    """The moves the optimal player chooses among at `pos`, in move order
    (`Solver.chosen_moves`: `best_of` over every move's value, unless the solver knows
    them faster)."""
    return solver.chosen_moves(pos)


def keeping_replies(solver: Solver, pos: Any) -> tuple[int, int]:
    """At `pos` (the bot to move): how many legal replies keep the bot's value, out of how many.

    A reply keeps the value when it is not a mistake in `judge.analysis`: its value is the
    best value available at `pos` (for a game with a score, the best score difference). A
    solver with a closed form counts them without listing them (`Solver.keeping_count`).
    """
    if solver.game.is_over(pos):
        return 0, 0
    return solver.keeping_count(pos)


def two_ply_keeping(solver: Solver, pos: Any) -> int:
    """Value-keeping replies over the bot's next two turns from `pos` (the bot to move).

    For every value-keeping reply, the fewest value-keeping replies the bot then has after
    our best answer (one of `candidate_moves`) that leaves it fewest, summed.
    """
    total = 0
    for reply in solver.keeping_moves(pos):  # few: `tricky_move` bounds them first
        after = solver.game.play(pos, reply)
        if solver.game.is_over(after):
            continue
        total += min(keeping_replies(solver, solver.game.play(after, move))[0]
                     for move in candidate_moves(solver, after))
    return total


def tricky_move(solver: Solver, pos: Any, rng: random.Random | None = None) -> Hashable:
    """The tricky opponent's move at `pos`: a best move that sets the bot the hardest task.

    Among `candidate_moves` (the optimal player's choice set), keep those that are best by
    each key in turn:

    1. the fewest value-keeping replies left to the bot (`keeping_replies`);
    2. when at most `DEEP_CANDIDATES` moves are still tied and each leaves at most
       `DEEP_REPLIES` value-keeping replies: the fewest over two plies (`two_ply_keeping`);
    3. the largest share of the bot's legal replies that are mistakes.

    Remaining ties go to `rng` (a random one of them), or without it to the first in move
    order. One candidate costs no look-ahead; more than `MAX_CANDIDATES` are not scored.
    """
    moves = candidate_moves(solver, pos)
    if not moves:
        raise ValueError("no legal move: the game is over")
    if 1 < len(moves) <= MAX_CANDIDATES:
        counts = {m: keeping_replies(solver, solver.game.play(pos, m)) for m in moves}
        moves = _least(moves, lambda m: counts[m][0])
        if 1 < len(moves) <= DEEP_CANDIDATES and counts[moves[0]][0] <= DEEP_REPLIES:
            moves = _least(moves, lambda m: two_ply_keeping(solver, solver.game.play(pos, m)))
        moves = _least(moves, lambda m: -_mistake_share(*counts[m]))
    return rng.choice(moves) if rng is not None and len(moves) > 1 else moves[0]


def _least(moves: list[Hashable], key: Callable[[Hashable], Any]) -> list[Hashable]:
    """The moves with the least `key`, in their order (a single move is not scored)."""
    if len(moves) < 2:
        return moves
    keys = {m: key(m) for m in moves}
    low = min(keys.values())
    return [m for m in moves if keys[m] == low]


def _mistake_share(keep: int, total: int) -> Fraction:
    """The share of `total` replies that are mistakes when `keep` of them keep the value."""
    return Fraction(total - keep, total) if total else Fraction(0)


class TrickyPlayer(Player):
    """Perfect play that leaves the bot the fewest ways to keep its value (`tricky_move`);
    with a seed, ties among equally tricky moves are broken at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "tricky"
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None

    def choose(self, pos: Any, last: Played | None) -> Any:
        return tricky_move(solver_for(self.game), pos, self._rng)
