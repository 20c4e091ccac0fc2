"""Nim sample bot: greedy, it takes the whole of the largest heap (the first one on a tie).

Reads the heap sizes, then alternately writes its move `H K` (take K counters from heap H)
and reads the opponent's move in the same form, keeping the heaps itself. It ignores the
nim-sum, so the optimal opponent beats it from any position it can win.

Run by hand: `python3 bots/nim/greedy.py`, type `3 4 5` (it answers `3 5`), then type the
opponent's moves; Ctrl-D (end of input) ends it. See protocols/nim.md.

Self-contained on purpose (bots run confined, without the `judge` package), so the loop
that reads and tracks the heaps is the same in every Nim sample bot.
"""

import sys

# heaps may have any number of digits (a Python before 3.10.7 or 3.11.0rc2 has no limit)
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def choose(heaps: list[int]) -> tuple[int, int]:
    """All of the largest heap (heap number from 1, counters to take)."""
    largest = max(heaps)
    return heaps.index(largest) + 1, largest


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
