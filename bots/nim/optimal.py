"""Nim sample bot: perfect normal play (whoever takes the last counter wins), after Bouton.

Reads the heap sizes, then alternately writes its move `H K` (take K counters from heap H)
and reads the opponent's move in the same form, keeping the heaps itself. The nim-sum s is
the XOR of all heap sizes. When s is not 0 it takes the FIRST heap h with h XOR s < h down
to h XOR s, which leaves a nim-sum of 0: a lost position for the opponent. When s is 0 it is
lost against perfect play: every move loses, and it empties the largest heap, as the judge
does, so that a game from huge heaps stays short.
Heaps may be arbitrarily large (Python integers).

This bot is for normal play; optimal_misere.py plays the misere rules. A bot is not told the
variant on the wire: it is part of the task statement.

Run by hand: `python3 bots/nim/optimal.py`, type `3 4 5` (it answers `1 2`), then type the
opponent's moves; Ctrl-D (end of input) ends it. See protocols/nim.md.

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
    """The Bouton move (heap number from 1, counters to take)."""
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
