"""Octal-game sample bot (weak): a random legal move of Kayles (code 0.77); perfect play
beats it from any won position.

Reads the heap sizes, then alternately writes `H K L` (from heap H take K counters, leaving
L to their left) and reads the opponent's move. See protocols/octal.md. Self-contained
(bots run without the `judge` package).
"""

import os
import random
import sys

RNG = random.Random(os.environ.get("BOT_SEED", "octal"))  # BOT_SEED replays a game


def play(heaps: list[int], h: int, k: int, left: int) -> list[int]:
    parts = [p for p in (left, heaps[h - 1] - k - left) if p]
    return heaps[: h - 1] + parts + heaps[h:]


def main() -> None:
    heaps = None
    for line in sys.stdin:
        if heaps is None:
            heaps = [int(t) for t in line.split() if t != "0"]
        else:
            heaps = play(heaps, *map(int, line.split()))
        if not heaps:
            break
        h = RNG.randrange(len(heaps)) + 1
        k = RNG.randint(1, min(2, heaps[h - 1]))  # Kayles: one or two adjacent pins
        left = RNG.randint(0, heaps[h - 1] - k)
        print(h, k, left, flush=True)
        heaps = play(heaps, h, k, left)


if __name__ == "__main__":
    main()
