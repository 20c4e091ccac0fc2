"""Nim: heaps of any size, normal play or misere (`misere=on`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Heaps:
    """Heap sizes in their given order, and the seat to move."""

    sizes: tuple[int, ...]
    to_move: Seat = 0


NimMove = tuple[int, int]  # (heap number from 1, counters removed)

# Heaps may be arbitrarily large (GAMES.md): lift Python's guard of 4300 digits on converting
# between int and str. A bot's numbers are compared by length before they are converted.
sys.set_int_max_str_digits(0)


class Nim(Game[Heaps, NimMove]):
    """Remove one or more counters from one heap; who takes the last counter wins (or loses)."""

    name = "nim"
    defaults = {"misere": "off"}

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
