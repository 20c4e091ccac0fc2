"""Nim sample bot: perfect misere play (whoever takes the last counter LOSES), after Bouton.

Reads the heap sizes, then alternately writes its move `H K` (take K counters from heap H)
and reads the opponent's move in the same form, keeping the heaps itself. Misere Nim is
played like normal Nim (see optimal.py) until the winning move would leave only heaps of 0
or 1 counters: then it must leave an ODD number of 1-heaps instead of an even one. So:

- two or more heaps hold more than one counter: the normal Bouton move (take the first heap
  h with h XOR s < h down to h XOR s, where s is the nim-sum); when s is 0 the position is
  lost: every move loses, and it empties the largest heap, as the judge does;
- exactly one heap holds more than one counter: cut it to 0 or 1 so that the number of
  1-heaps is odd;
- every heap holds 0 or 1: take a 1-heap (there is no other move).

This bot is for misere; optimal.py plays normal Nim. A bot is not told the variant on the
wire: it is part of the task statement.

Run by hand: `python3 bots/nim/optimal_misere.py`, type `1 1 3` (it answers `3 2`), then
type the opponent's moves; Ctrl-D (end of input) ends it. See protocols/nim.md.

Self-contained on purpose (bots run confined, without the `judge` package), so the loop
that reads and tracks the heaps is the same in every Nim sample bot.
"""

import sys
from functools import reduce
from operator import xor

# heaps may have any number of digits (a Python before 3.10.7 or 3.11.0rc2 has no limit)
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def choose(heaps: list[int]) -> tuple[int, int]:
    """The misere move (heap number from 1, counters to take)."""
    big = [i for i, size in enumerate(heaps) if size > 1]
    if not big:
        return heaps.index(1) + 1, 1
    if len(big) == 1:
        keep = 0 if heaps.count(1) % 2 else 1
        return big[0] + 1, heaps[big[0]] - keep
    total = reduce(xor, heaps)
    for i, size in enumerate(heaps):
        if size ^ total < size:
            return i + 1, size - (size ^ total)
    largest = heaps.index(max(heaps))
    return largest + 1, heaps[largest]  # lost: every move loses; keep the game short


def main() -> None:
    heaps: list[int] = []
    for line in sys.stdin:
        if heaps:
            heap, count = map(int, line.split())
            heaps[heap - 1] -= count
        else:
            heaps = [int(t) for t in line.split()]
        if any(heaps):
            heap, count = choose(heaps)
            print(heap, count, flush=True)
            heaps[heap - 1] -= count


if __name__ == "__main__":
    main()
