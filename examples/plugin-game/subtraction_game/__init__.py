"""A subtraction game for the judge, installed from outside it: one heap of counters, each
move takes some counters from it (1, 2 or 3 by default), and whoever takes the last counter
wins (whoever cannot move loses).

The rules are ``heap=N`` (the counters at the start, 21 by default) and ``take=1,2,3`` (the
numbers a move may take). A position is the number of counters left, ``21``; a move is the
number of counters taken, ``3``. The game is impartial, so its perfect play comes from
Sprague-Grundy values (`grundy`), computed by the mex rule for any set of takes; with
``take=1,...,k`` a heap of n is lost for the player to move exactly when n is a multiple of
k + 1.

The package registers the game under the judge's entry-point group in its pyproject.toml:

    [project.entry-points."judge.games"]
    subtraction = "subtraction_game:Subtraction"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from judge.games.base import (
    Game,
    InputError,
    PositionError,
    RulesError,
    Seat,
    garbage,
    illegal,
    parse_int,
    strict_tokens,
)

#: the largest heap a position or the `heap` rule may hold
MAX_HEAP = 100_000
#: the largest number of counters one move may take
MAX_TAKE = 100
#: a default test set holds the heaps 1 to this many (and the start)
TEST_HEAPS = 20


@dataclass(frozen=True, slots=True)
class Pile:
    """The counters left in the heap and the seat to move."""

    counters: int
    to_move: Seat = 0


def parse_takes(text: str) -> tuple[int, ...]:
    """The numbers of counters a move may take, from ``1,2,3``, sorted; raises `RulesError`."""
    try:
        takes = sorted({parse_int(t, "a number of counters to take", 1, MAX_TAKE)
                        for t in text.split(",")})
    except InputError as exc:
        raise RulesError(f"take is a list of numbers such as 1,2,3: {exc}") from None
    return tuple(takes)


def words(takes: tuple[int, ...]) -> str:
    """``1, 2 or 3``: the takes as a sentence says them."""
    said = [str(k) for k in takes]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


class Subtraction(Game[Pile, int]):
    """One heap of counters; a move takes 1, 2 or 3 of them (the numbers of the `take`
    rule); whoever takes the last counter wins (whoever cannot move loses)."""

    name = "subtraction"
    defaults: ClassVar[dict[str, str]] = {"heap": "21", "take": "1,2,3"}
    variants: ClassVar[dict[str, str]] = {"one-two": "heap=10 take=1,2",
                                          "one-three-four": "heap=20 take=1,3,4"}

    def __init__(self, rules: str = "") -> None:
        super().__init__(rules)
        self.takes = parse_takes(self.rules["take"])
        self.rules["take"] = ",".join(map(str, self.takes))
        try:
            self.heap = parse_int(self.rules["heap"], "heap", 1, MAX_HEAP)
        except InputError as exc:
            raise RulesError(str(exc)) from None
        self._g = [0]

    # --- perfect play ----------------------------------------------------------------------
    def grundy(self, pos: Pile) -> int:
        """The Sprague-Grundy value of the heap (0 exactly when the mover loses)."""
        g = self._g
        while len(g) <= pos.counters:
            n = len(g)
            seen = {g[n - k] for k in self.takes if k <= n}
            g.append(min(set(range(len(seen) + 1)) - seen))
        return g[pos.counters]

    # --- positions -------------------------------------------------------------------------
    def start(self) -> Pile:
        return Pile(self.heap)

    def standard_starts(self) -> list[Pile]:
        return [self.start()]

    def test_positions(self) -> list[Pile]:
        """The heaps of 1 to `TEST_HEAPS` counters, and the start."""
        sizes = sorted({*range(1, min(self.heap, TEST_HEAPS) + 1), self.heap})
        return [p for p in map(Pile, sizes) if not self.is_over(p)]

    def parse_position(self, text: str) -> Pile:
        """The counters in the heap, ``21``."""
        try:
            return Pile(parse_int(text.strip(), "the counters in the heap", 0, MAX_HEAP))
        except InputError as exc:
            raise PositionError(f"bad subtraction-game position {text.strip()!r}: {exc}") \
                from None

    def format_position(self, pos: Pile) -> str:
        return str(pos.counters)

    def mover(self, pos: Pile) -> Seat:
        return pos.to_move

    def legal_moves(self, pos: Pile) -> list[int]:
        return [k for k in self.takes if k <= pos.counters]

    def play(self, pos: Pile, move: int) -> Pile:
        return Pile(pos.counters - move, 1 - pos.to_move)

    def is_over(self, pos: Pile) -> bool:
        return pos.counters < self.takes[0]

    def winner(self, pos: Pile) -> Seat | None:
        return 1 - pos.to_move  # who cannot move loses

    # --- wire codec ------------------------------------------------------------------------
    def wire_start(self, pos: Pile) -> list[str]:
        return [" ".join(map(str, self.takes)), str(pos.counters)]

    def parse_move(self, line: str, pos: Pile) -> int:
        tokens = strict_tokens(line)
        if len(tokens) != 1 or not tokens[0].isdigit() or len(tokens[0]) > 6:
            raise garbage(line, "a move is one whole number: the counters you take")
        if len(tokens[0]) > 1 and tokens[0].startswith("0"):
            raise garbage(line, "numbers must not have leading zeros")
        take = int(tokens[0])
        if take not in self.takes:
            raise illegal(line, f"a move takes {words(self.takes)} counters, not {take}")
        if take > pos.counters:
            raise illegal(line, f"the heap holds only {pos.counters}")
        return take

    def format_move(self, move: int, pos: Pile) -> str:
        return str(move)

    # --- display ---------------------------------------------------------------------------
    def move_label(self, move: int, pos: Pile) -> str:
        return f"take {move}"

    def render(self, pos: Pile) -> str:
        turn = "game over" if self.is_over(pos) else f"player {pos.to_move + 1} to move"
        return "\n".join([f"heap: {pos.counters:>3} {'o' * min(pos.counters, 40)}".rstrip(),
                          f"(a move takes {words(self.takes)}; {turn})"])
