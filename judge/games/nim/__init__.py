"""Nim: heaps of any size, normal play or misere (`misere=on`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import reduce
from itertools import combinations_with_replacement
from operator import xor
from typing import TYPE_CHECKING, ClassVar

from judge.games.base import (
    Game,
    InputError,
    Points,
    PositionError,
    RulesError,
    Seat,
    garbage,
    illegal,
    parse_int,
    strict_tokens,
)
from judge.games.drawing import JSON, exact, package_script
from judge.words import plural

if TYPE_CHECKING:
    import random

#: a position with more counters than this draws its random move without listing the moves
LISTED_COUNTERS = 10_000
#: the browser app draws counter by counter: at most this many heaps and counters in all
BROWSER_HEAPS = 12
BROWSER_COUNTERS = 300


@dataclass(frozen=True, slots=True)
class Heaps:
    """Heap sizes in their given order, and the seat to move."""

    sizes: tuple[int, ...]
    to_move: Seat = 0


NimMove = tuple[int, int]  # (heap number from 1, counters removed)

# Heaps may be arbitrarily large (GAMES.md): lift Python's guard of 4300 digits on converting
# between int and str. A bot's numbers are compared by length before they are converted.
# (Pythons before the guard, 3.10.0-3.10.6 and Ubuntu 22.04's 3.11.0rc1, have none to lift.)
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


class Nim(Game[Heaps, NimMove]):
    """Remove one or more counters from one heap; who takes the last counter wins (or loses)."""

    name = "nim"
    #: perfect play: its own solver, beside the rules (named, not imported)
    solver = "judge.games.nim.solver:NimSolver"
    defaults = {"misere": "off"}
    variants: ClassVar[dict[str, str]] = {"normal": "misere=off", "misere": "misere=on"}
    variant_about: ClassVar[dict[str, str]] = {
        "normal": "whoever takes the last counter wins",
        "misere": "misère: whoever takes the last counter loses"}
    rule_sentences: ClassVar[dict[tuple[str, str], str]] = {
        ("misere", "on"): "Misère: the player who would have won by the normal rule loses."}
    #: no ties
    points: ClassVar[Points] = Points(1.0, 0.0, 0.0)
    notation: ClassVar[str] = "the heap sizes: '3 4 5' (any number of heaps, any size)"
    grundy_name: ClassVar[str] = "nim-sum"

    def __init__(self, rules: str = "") -> None:
        super().__init__(rules)
        value = self.rules["misere"]
        if value not in ("on", "off"):
            raise RulesError(f"misere is 'on' or 'off', not {value!r}")
        self.misere = value == "on"

    def start(self) -> Heaps:
        return Heaps((3, 4, 5))

    def standard_starts(self) -> list[Heaps]:
        return [Heaps((3, 4, 5))]

    def parse_position(self, text: str) -> Heaps:
        """Heap sizes separated by spaces (commas are accepted too)."""
        tokens = text.replace(",", " ").split()
        if not tokens:
            raise PositionError("a Nim position needs at least one heap")
        try:
            sizes = tuple(parse_int(t, "a heap size", 0) for t in tokens)
        except InputError as exc:
            raise PositionError(f"bad Nim position {text.strip()!r}: {exc}") from None
        return Heaps(sizes)

    def format_position(self, pos: Heaps) -> str:
        return " ".join(map(str, pos.sizes))

    def mover(self, pos: Heaps) -> Seat:
        return pos.to_move

    def legal_moves(self, pos: Heaps) -> list[NimMove]:
        return [(h + 1, k) for h, size in enumerate(pos.sizes) for k in range(1, size + 1)]

    def play(self, pos: Heaps, move: NimMove) -> Heaps:
        heap, count = move
        sizes = list(pos.sizes)
        sizes[heap - 1] -= count
        return Heaps(tuple(sizes), 1 - pos.to_move)

    def is_over(self, pos: Heaps) -> bool:
        return not any(pos.sizes)

    def winner(self, pos: Heaps) -> Seat | None:
        took_last = 1 - pos.to_move
        return pos.to_move if self.misere else took_last

    def wire_start(self, pos: Heaps) -> list[str]:
        return [self.format_position(pos)]

    def parse_move(self, line: str, pos: Heaps) -> NimMove:
        tokens = strict_tokens(line)
        if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
            raise garbage(line, "a move is two whole numbers 'H K': heap H, remove K counters")
        if any(len(t) > 1 and t.startswith("0") for t in tokens):
            raise garbage(line, "numbers must not have leading zeros")
        heaps = len(pos.sizes)
        heap = int(tokens[0]) if len(tokens[0]) <= len(str(heaps)) else heaps + 1
        if not 1 <= heap <= heaps:
            raise illegal(line, f"there is no heap {tokens[0]}: heaps are numbered 1 to {heaps}")
        size = pos.sizes[heap - 1]
        count = int(tokens[1]) if len(tokens[1]) <= len(str(size)) else size + 1
        if count < 1:
            raise illegal(line, "a move removes at least one counter")
        if count > size:
            raise illegal(line, f"heap {heap} holds only {plural(size, 'counter')}, "
                          f"cannot remove {tokens[1]}")
        return heap, count

    def format_move(self, move: NimMove, pos: Heaps) -> str:
        return f"{move[0]} {move[1]}"

    def move_label(self, move: NimMove, pos: Heaps) -> str:
        return f"take {move[1]} from heap {move[0]}"

    def render(self, pos: Heaps) -> str:
        width = len(str(len(pos.sizes)))
        lines = []
        for h, size in enumerate(pos.sizes, 1):
            bar = "|" * size if size <= 40 else "|" * 37 + "..."
            lines.append(f"heap {h:>{width}}: {size:>3} {bar}")
        rule = "misere" if self.misere else "normal play"
        turn = "game over" if self.is_over(pos) else f"player {pos.to_move + 1} to move"
        lines.append(f"({rule}, {turn})")
        return "\n".join(lines)

    # --- judging and explaining ------------------------------------------------------------
    def test_positions(self) -> list[Heaps]:
        """Three heaps of 1 to 7 counters, and a few more heaps or bigger ones."""
        small = [Heaps(h) for h in combinations_with_replacement(range(1, 8), 3)]
        return small + [Heaps(h) for h in ((1, 1, 1, 1), (2, 3, 5, 7), (4, 6, 9, 12),
                                           (1, 2, 4, 8, 15), (10, 20, 30), (17, 33, 48))]

    def rules_text(self) -> list[str]:
        return [
            "There are some heaps of counters. A move takes one or more counters from a single "
            "heap.",
            "Normal play: whoever takes the last counter wins. Misère: whoever takes the last "
            "counter loses. There are no ties.",
            "The nim-sum of a position is the exclusive or (XOR) of its heap sizes, its Grundy "
            "value under normal play: the player to move wins exactly when it is not 0, by "
            "leaving a nim-sum of 0 (Bouton). In misère the same holds until the winning move "
            "would leave only heaps of 0 or 1 counters; then leave an odd number of 1-heaps.",
        ]

    def end_reason(self, pos: Heaps) -> str:
        rule = "and loses (misère)" if self.misere else "and wins"
        return f"player {2 - self.mover(pos)} took the last counter {rule}"

    def grundy_value(self, pos: Heaps) -> int:
        """The nim-sum: the XOR of the heap sizes (the Grundy value under normal play)."""
        return reduce(xor, pos.sizes, 0)

    def grundy_text(self, pos: Heaps, value: int) -> str:
        """The nim-sum worked out in binary, and what it says."""
        bits = max([1, *(len(f"{n:b}") for n in pos.sizes)])
        return ("Nim-sum (Grundy value under normal play): "
                + " xor ".join(f"{n:0{bits}b}" for n in pos.sizes)
                + f" = {value:0{bits}b} = {value}"
                + (": the mover wins by a move to nim-sum 0" if value else
                   ": every move leaves a nim-sum other than 0")
                + (" (misère: until only heaps of 0 or 1 counters remain)" if self.misere else "")
                + ".")

    def random_move(self, pos: Heaps, rng: random.Random) -> NimMove:
        """A legal move, each as likely; past `LISTED_COUNTERS` counters a heap, then a count,
        without listing every move."""
        if sum(pos.sizes) > LISTED_COUNTERS:
            heap = rng.choice([h for h, s in enumerate(pos.sizes) if s])
            return heap + 1, rng.randint(1, pos.sizes[heap])
        return rng.choice(self.legal_moves(pos))

    def browser_limit(self, pos: Heaps) -> str | None:
        if len(pos.sizes) > BROWSER_HEAPS or sum(pos.sizes) > BROWSER_COUNTERS:
            return (f"the browser plays Nim with at most {BROWSER_HEAPS} heaps and "
                    f"{BROWSER_COUNTERS} counters in all (`judge solve` takes any size)")
        return None

    # --- board drawing (board.js) ----------------------------------------------------------
    def board_script(self) -> str | None:
        return package_script(__package__)

    def board_meta(self) -> dict[str, JSON]:
        return {"misere": self.misere}

    def board_state(self, pos: Heaps) -> dict[str, JSON]:
        """The heap sizes in order (exact: a huge one as a string)."""
        return {"heaps": [exact(n) for n in pos.sizes]}

    def board_touched(self, pos: Heaps, move: NimMove) -> list[JSON]:
        """The heap taken from."""
        return [move[0]]

    def board_control(self, pos: Heaps, move: NimMove) -> dict[str, JSON] | None:
        """The counter of the heap whose click takes it and every counter above it."""
        heap, count = move
        return {"heap": heap, "counter": pos.sizes[heap - 1] - count + 1}
