"""What every solver answers: the value of a position and of each move from it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property, wraps
from typing import Any, ClassVar, NamedTuple

from judge.games.base import Facts, InputError, Rules, Scoring


class Outcome(StrEnum):
    """The value of a position of a game of `Scoring.OUTCOME`, for the player to move (its
    text, "win", "loss" or "draw", is how it is written and stored)."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"

    @property
    def scoring(self) -> Scoring:
        """The kind of value it is."""
        return Scoring.OUTCOME

    @property
    def order(self) -> int:
        """1 won, 0 drawn, -1 lost: higher is better for the mover."""
        return _ORDER[self]

    def negated(self) -> Outcome:
        """The same outcome seen by the other player."""
        return _NEGATED[self]

    def sign(self, lead: int) -> int:
        """How the game ends for the mover: 1 won, 0 drawn, -1 lost (`lead` aside)."""
        return _ORDER[self]


_ORDER = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}
_NEGATED = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.DRAW: Outcome.DRAW}


class Difference(int):
    """The value of a position of a game of `Scoring.DIFFERENCE`, for the player to move:
    the points the mover banks from here less the opponent's, under perfect play (a whole
    number, written and stored as one)."""

    __slots__ = ()

    @property
    def scoring(self) -> Scoring:
        """The kind of value it is."""
        return Scoring.DIFFERENCE

    @property
    def order(self) -> int:
        """The difference itself: higher is better for the mover."""
        return int(self)

    def negated(self) -> Difference:
        """The same difference seen by the other player."""
        return Difference(-self)

    def sign(self, lead: int) -> int:
        """How the game ends for the mover, `lead` points ahead now: 1 won, 0 tied, -1 lost."""
        end = lead + int(self)
        return (end > 0) - (end < 0)


#: a solver's value of a position, for the player to move: of its game's `Scoring`
Value = Outcome | Difference


def order(value: Value) -> int:
    """A number that orders values from the mover's point of view (higher is better)."""
    return value.order


def negate(value: Value) -> Value:
    """The same value seen by the other player."""
    return value.negated()


def typed(value: Any, scoring: Scoring) -> Value:
    """A value as its game's `scoring` reads it: a solver written before values said their
    kind (a plugin's) gives "win", "loss", "draw" or a whole number."""
    return Difference(value) if scoring is Scoring.DIFFERENCE else Outcome(value)


def stored_value(data: object) -> Value:
    """A value as a record stores it (`Outcome`'s text, or `Difference`'s number)."""
    if isinstance(data, str):
        return Outcome(data)
    if isinstance(data, int) and not isinstance(data, bool):
        return Difference(data)
    raise ValueError(f"not a value: {data!r}")


@dataclass(frozen=True)
class Evaluation:
    """A solved position, for the player to move: value, remoteness, best moves."""

    value: Value
    remoteness: int | None
    best_moves: list[Any] = field(default_factory=list)


class MoveValue(NamedTuple):
    """What the mover gets by playing `move`: the value and remoteness after it."""

    move: Hashable
    value: Value
    remoteness: int | None  # moves to the end counted from before `move`


def preference(mv: MoveValue) -> tuple[int, int]:
    """Sort key of a move for perfect play: better value, then win fast / lose slowly."""
    v = order(mv.value)
    r = mv.remoteness if mv.remoteness is not None else 0
    if v > 0:
        return (v, -r)
    if v < 0:
        return (v, r)
    return (v, 0)


def best_of(moves: list[MoveValue]) -> list[MoveValue]:
    """The moves perfect play chooses among (all tied on `preference`)."""
    if not moves:
        return []
    top = max(preference(m) for m in moves)
    return [m for m in moves if preference(m) == top]


class Solver(ABC):
    """Perfect play for one game under fixed rules."""

    #: whether its values are `Outcome`s or `Difference`s already; the answers of a solver
    #: that does not say so (a plugin's, written before values said their kind) are read
    #: by its game's `scoring` as they come out
    typed_values: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.typed_values:
            _adapt(cls)

    def __init__(self, game: Rules[Any, Any]) -> None:
        self.game = game

    @cached_property
    def scoring(self) -> Scoring:
        """Its game's `Scoring` (`Facts`), by which answers not typed are read: a game
        without the facts gives outcomes."""
        return self.game.scoring if isinstance(self.game, Facts) else Scoring.OUTCOME

    @abstractmethod
    def evaluate(self, pos: Any) -> Evaluation:
        """The value of `pos` for the player to move, its remoteness and its best moves."""

    @abstractmethod
    def move_value(self, pos: Any, move: Any) -> MoveValue:
        """What playing the legal `move` at `pos` is worth to the mover."""

    def check(self, positions: list[Any]) -> None:  # noqa: B027 - most solvers solve anything
        """Refuse (`InputError`) positions too big to solve here, before any game starts."""

    def move_values(self, pos: Any) -> list[MoveValue]:
        """Every legal move from `pos` with what it is worth to the mover."""
        return [self.move_value(pos, m) for m in self.game.legal_moves(pos)]

    def choose(self, pos: Any, rng: random.Random | None = None) -> Any:
        """A best move: the first in move order, or a random one of them with `rng`."""
        best = best_of(self.move_values(pos))
        if not best:
            raise ValueError("no legal move: the game is over")
        return (rng.choice(best) if rng else best[0]).move

    def canonical(self, pos: Any) -> Any:
        """The key under which `--stats` counts a position (override to merge symmetric ones)."""
        return pos

    def stats(self, starts: list[Any], limit: int = 2_000_000) -> dict[str, int]:
        """Positions reachable from `starts` (by `canonical` key) and how many are won,
        lost and drawn for the player to move; raises `InputError` past `limit` positions."""
        seen = {self.canonical(p): p for p in starts}
        frontier = list(seen.values())
        while frontier:
            pos = frontier.pop()
            for move in self.game.legal_moves(pos):
                nxt = self.game.play(pos, move)
                key = self.canonical(nxt)
                if key not in seen:
                    if len(seen) >= limit:
                        raise InputError(f"more than {limit:,} reachable positions to count")
                    seen[key] = nxt
                    frontier.append(nxt)
        counts = {"positions": len(seen), "win": 0, "loss": 0, "draw": 0}
        for pos in seen.values():
            v = order(self.evaluate(pos).value)
            counts["win" if v > 0 else "loss" if v < 0 else "draw"] += 1
        return counts

    def is_mistake(self, pos: Any, move: Any) -> bool:
        """Whether `move` gives away value (a worse result than the position's own value)."""
        return order(self.move_value(pos, move).value) < order(self.evaluate(pos).value)

    # --- hooks of the players and the browser app (a solver may answer them faster) -------
    def chosen_moves(self, pos: Any) -> list[Hashable]:
        """The moves perfect play chooses among at `pos` (`best_of` every move's value), in
        move order: the tricky opponent picks among them."""
        return [m.move for m in best_of(self.move_values(pos))]

    def keeping_moves(self, pos: Any) -> list[Hashable]:
        """The legal moves at `pos` that keep the mover's value (not mistakes)."""
        values = self.move_values(pos)
        best = max((order(m.value) for m in values), default=0)
        return [m.move for m in values if order(m.value) == best]

    def keeping_count(self, pos: Any) -> tuple[int, int]:
        """How many legal moves at `pos` keep the mover's value, out of how many."""
        values = [order(m.value) for m in self.move_values(pos)]
        best = max(values, default=0)
        return sum(1 for v in values if v == best), len(values)

    def outcome(self, pos: Any) -> str | None:
        """The outcome class of `pos` (who wins with each side moving first: ``N``, ``P``,
        ``L``, ``R``, ``D``), for a solver that knows both movers; None."""
        return None

    def browser_limit(self, pos: Any) -> str | None:
        """Why `pos` is not solved while a person waits in the browser app (it would take
        more than a few seconds), or None."""
        return None


def _adapt(cls: type[Solver]) -> None:
    """Wrap the answers that `cls` defines so that their values come out typed."""
    if "evaluate" in vars(cls):
        evaluate: Callable[[Solver, Any], Evaluation] = vars(cls)["evaluate"]

        @wraps(evaluate)
        def typed_evaluate(self: Solver, pos: Any) -> Evaluation:
            ev = evaluate(self, pos)
            return replace(ev, value=typed(ev.value, self.scoring))

        cls.evaluate = typed_evaluate  # type: ignore[method-assign]
    if "move_value" in vars(cls):
        move_value: Callable[[Solver, Any, Any], MoveValue] = vars(cls)["move_value"]

        @wraps(move_value)
        def typed_move_value(self: Solver, pos: Any, move: Any) -> MoveValue:
            mv = move_value(self, pos, move)
            return mv._replace(value=typed(mv.value, self.scoring))

        cls.move_value = typed_move_value  # type: ignore[method-assign]
    if "move_values" in vars(cls):
        move_values: Callable[[Solver, Any], list[MoveValue]] = vars(cls)["move_values"]

        @wraps(move_values)
        def typed_move_values(self: Solver, pos: Any) -> list[MoveValue]:
            return [mv._replace(value=typed(mv.value, self.scoring))
                    for mv in move_values(self, pos)]

        cls.move_values = typed_move_values  # type: ignore[method-assign]
