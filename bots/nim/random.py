"""Nim sample bot: a uniformly random legal move.

Reads the heap sizes, then alternately writes its move `H K` (take K counters from heap H)
and reads the opponent's move in the same form, keeping the heaps itself. Every legal move
(each heap H with each count K from 1 to its size) is equally likely, so big heaps are
chosen more often. The generator is seeded from the environment variable BOT_SEED when it
is set (any string), and from a fixed seed otherwise, so a game can be replayed exactly.

Run by hand: `BOT_SEED=7 python3 bots/nim/random.py`, type `3 4 5`, then type the
opponent's moves; Ctrl-D (end of input) ends it. See protocols/nim.md.

Self-contained on purpose (bots run confined, without the `judge` package), so the loop
that reads and tracks the heaps is the same in every Nim sample bot.
"""

import os
import sys
from bisect import bisect_right
from itertools import accumulate

# This file is called random.py, and Python puts its folder first on the module path when it
# runs a script: drop that folder, so that `import random` finds the standard library.
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != HERE]
import random  # noqa: E402

# heaps may have any number of digits (a Python before 3.10.7 or 3.11.0rc2 has no limit)
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def choose(heaps: list[int], rng: random.Random) -> tuple[int, int]:
    """A random legal move (heap number from 1, counters to take)."""
    ends = list(accumulate(heaps))  # move number `pick` is in the first heap ending after it
    pick = rng.randrange(ends[-1])
    i = bisect_right(ends, pick)
    return i + 1, pick - (ends[i] - heaps[i]) + 1


def main() -> None:
    rng = random.Random(os.environ.get("BOT_SEED", "nim"))
    heaps: list[int] = []
    for line in sys.stdin:
        if heaps:
            heap, count = map(int, line.split())
            heaps[heap - 1] -= count
        else:
            heaps = [int(t) for t in line.split()]
        if any(heaps):
            heap, count = choose(heaps, rng)
            print(heap, count, flush=True)
            heaps[heap - 1] -= count


if __name__ == "__main__":
    main()
