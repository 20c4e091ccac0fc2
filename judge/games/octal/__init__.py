"""Octal games (Guy and Smith, 1956): heaps of counters in a row, under an octal code.

The rules are a code ``0.d1d2d3...`` (``--rules code=0.77``, Kayles, by default): digit dk
says what a move that removes k adjacent counters from one heap may leave of it. Its bits:
1, nothing (the move takes a whole heap of k); 2, one heap (taken from an end); 4, two
heaps (taken from the middle). ``code=0.07`` is Dawson's Kayles (take two adjacent
counters anywhere), ``code=0.137`` Dawson's chess, the same game with one counter more in
every heap, ``code=0.333...`` Nim limited to taking 1..n counters. Whoever cannot move
loses (normal play), so every position's value is its Sprague-Grundy value: the XOR of its
heaps' values, which `grundy_values` computes by the mex rule.

A position is the heap sizes, ``7 3`` (commas accepted too); heaps of 0 are left out. A move
is ``H K L``: from heap H (numbered from 1) take K counters, leaving L counters to their left
and the rest to their right (L = 0 takes them from the left end).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import xor
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
from judge.words import plural

#: the longest code: digits up to d32
MAX_DIGITS = 32
#: the largest heap a position may hold (its Grundy values are computed up to it)
MAX_HEAP = 10_000
#: the most heaps and counters in all of a position the browser app shows: the Grundy values
#: of a heap of n take time in n squared, and its moves are listed one by one, each valued
BROWSER_HEAPS = 12
BROWSER_COUNTERS = 300


@dataclass(frozen=True, slots=True)
class Row:
    """Heap sizes (none empty) and the seat to move."""

    heaps: tuple[int, ...]
    to_move: Seat = 0


OctalMove = tuple[int, int, int]  # (heap from 1, counters taken, counters left to their left)


def parse_code(text: str) -> tuple[int, ...]:
    """The digits d1, d2, ... of an octal code ``0.d1d2...``; raises `RulesError`."""
    whole, dot, digits = text.partition(".")
    if whole not in ("", "0") or not dot or not digits or len(digits) > MAX_DIGITS or any(
            d not in "01234567" for d in digits):
        raise RulesError(f"code is an octal code such as 0.77 or 0.137 (digits 0 to 7 after "
                         f"'0.', at most {MAX_DIGITS}), not {text!r}")
    return tuple(int(d) for d in digits)


def leaves(digit: int, rest: int) -> list[int]:
    """The sizes L of the part a move may leave to the left of the counters it takes when
    `rest` counters remain, under one digit of the code."""
    if rest == 0:
        return [0] if digit & 1 else []
    return ([0] if digit & 2 else []) + (list(range(1, rest)) if digit & 4 else []) + (
        [rest] if digit & 2 else [])


def grundy_values(code: tuple[int, ...], upto: int) -> list[int]:
    """The Grundy value of one heap of each size 0..upto under `code`."""
    g = [0]
    for n in range(1, upto + 1):
        seen = set()
        for k, digit in enumerate(code, 1):
            if k > n:
                break
            rest = n - k
            for left in leaves(digit, rest):
                seen.add(g[left] ^ g[rest - left])
        mex = 0
        while mex in seen:
            mex += 1
        g.append(mex)
    return g


class Octal(Game[Row, OctalMove]):
    """An octal game under normal play; the code is the `code` rule."""

    name = "octal"
    defaults: ClassVar[dict[str, str]] = {"code": "0.77"}
    variants: ClassVar[dict[str, str]] = {"kayles": "code=0.77", "dawson-chess": "code=0.137",
                                          "dawson-kayles": "code=0.07"}
    notation: ClassVar[str] = "the heap sizes: '7 3' (commas accepted too; heaps of 0 are left out)"

    def __init__(self, rules: str = "") -> None:
        super().__init__(rules)
        self.code = parse_code(self.rules["code"])
        self.rules["code"] = "0." + "".join(map(str, self.code))
        if not any(self.code):
            raise RulesError("an octal code with only 0 digits allows no move at all")
        self._g = [0]

    def heap_grundy(self, n: int) -> int:
        """The Grundy value of one heap of `n` counters."""
        if n >= len(self._g):
            self._g = grundy_values(self.code, max(n, 2 * len(self._g)))
        return self._g[n]

    def grundy(self, pos: Row) -> int:
        """The position's Sprague-Grundy value (the solver's closed form)."""
        return reduce(xor, (self.heap_grundy(h) for h in pos.heaps), 0)

    def start(self) -> Row:
        return Row((10,))

    def standard_starts(self) -> list[Row]:
        return [self.start()]

    def test_positions(self) -> list[Row]:
        """One heap of 1 to 20 counters, and two heaps of 1 to 8."""
        ones = [Row((n,)) for n in range(1, 21)]
        twos = [Row((a, b)) for a in range(1, 9) for b in range(a, 9)]
        return [p for p in ones + twos if not self.is_over(p)]

    def parse_position(self, text: str) -> Row:
        tokens = text.replace(",", " ").split()
        try:
            heaps = tuple(parse_int(t, "a heap size", 0, MAX_HEAP) for t in tokens)
        except InputError as exc:
            raise PositionError(f"bad octal-game position {text.strip()!r}: {exc}") from None
        if not tokens:
            raise PositionError("an octal-game position needs at least one heap")
        return Row(tuple(h for h in heaps if h))

    def format_position(self, pos: Row) -> str:
        return " ".join(map(str, pos.heaps)) if pos.heaps else "0"

    def mover(self, pos: Row) -> Seat:
        return pos.to_move

    def legal_moves(self, pos: Row) -> list[OctalMove]:
        return [(h, k, left) for h, size in enumerate(pos.heaps, 1)
                for k, digit in enumerate(self.code[:size], 1)
                for left in leaves(digit, size - k)]

    def play(self, pos: Row, move: OctalMove) -> Row:
        h, k, left = move
        right = pos.heaps[h - 1] - k - left
        parts = tuple(p for p in (left, right) if p)
        return Row(pos.heaps[: h - 1] + parts + pos.heaps[h:], 1 - pos.to_move)

    def is_over(self, pos: Row) -> bool:
        return not any(any(leaves(d, size - k) for k, d in enumerate(self.code[:size], 1))
                       for size in set(pos.heaps))

    def winner(self, pos: Row) -> Seat | None:
        return 1 - pos.to_move  # who cannot move loses

    def browser_limit(self, pos: Row) -> str | None:
        if len(pos.heaps) > BROWSER_HEAPS or sum(pos.heaps) > BROWSER_COUNTERS:
            return (f"the browser plays octal games with at most {BROWSER_HEAPS} heaps and "
                    f"{BROWSER_COUNTERS} counters in all (`judge solve` takes heaps up to "
                    f"{MAX_HEAP:,})")
        return None

    def wire_start(self, pos: Row) -> list[str]:
        return [self.format_position(pos)]

    def parse_move(self, line: str, pos: Row) -> OctalMove:
        tokens = strict_tokens(line)
        if len(tokens) != 3 or not all(t.isdigit() and len(t) <= 6 for t in tokens):
            raise garbage(line, "a move is three whole numbers 'H K L': from heap H take K "
                          "counters, leaving L to their left")
        if any(len(t) > 1 and t.startswith("0") for t in tokens):
            raise garbage(line, "numbers must not have leading zeros")
        h, k, left = map(int, tokens)
        if not 1 <= h <= len(pos.heaps):
            raise illegal(line, f"there is no heap {h}: heaps are numbered 1 to "
                          f"{len(pos.heaps)}")
        size = pos.heaps[h - 1]
        if not 1 <= k <= size:
            raise illegal(line, f"heap {h} holds {plural(size, 'counter')}: take 1 to {size}")
        rest = size - k
        if left > rest:
            raise illegal(line, f"only {rest} counters are left of heap {h}, not {left}")
        digit = self.code[k - 1] if k <= len(self.code) else 0
        if left not in leaves(digit, rest):
            what = ("take a whole heap" if rest == 0 else "take counters from the end of a "
                    "heap" if left in (0, rest) else "split a heap in two")
            raise illegal(line, f"code {self.rules['code']} does not let a move that takes "
                          f"{plural(k, 'counter')} {what}")
        return (h, k, left)

    def format_move(self, move: OctalMove, pos: Row) -> str:
        return " ".join(map(str, move))

    def move_label(self, move: OctalMove, pos: Row) -> str:
        """"take 2 from heap 1, leaving 5 and 1", or from one of its ends, or all of it."""
        h, k, left = move
        right = pos.heaps[h - 1] - k - left
        if not left and not right:
            return f"take all {k} of heap {h}"
        if not left or not right:
            return f"take {k} from the {'left' if not left else 'right'} end of heap {h}"
        return f"take {k} from heap {h}, leaving {left} and {right}"

    def render(self, pos: Row) -> str:
        lines = [f"heap {h}: {size:>3} {'o' * min(size, 40)}"
                 for h, size in enumerate(pos.heaps, 1)] or ["no counters"]
        turn = "game over" if self.is_over(pos) else f"player {pos.to_move + 1} to move"
        lines.append(f"(octal game {self.rules['code']}, {turn})")
        return "\n".join(lines)
