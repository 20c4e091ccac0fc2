"""Subtraction-game sample bot (weak): a random legal take, so that perfect play beats it
from most heaps.

Reads the numbers a move may take (`1 2 3`) and the counters in the heap (`21`), then
alternately writes the counters it takes and reads the opponent's take. See
subtraction_game/protocol.md. Self-contained (bots run without the `judge` package).
"""

import os
import random

RNG = random.Random(os.environ.get("BOT_SEED", "subtraction"))  # BOT_SEED replays a game


def main() -> None:
    takes = [int(t) for t in input().split()]
    heap = int(input())
    while any(k <= heap for k in takes):
        mine = RNG.choice([k for k in takes if k <= heap])
        print(mine, flush=True)
        heap -= mine
        try:
            heap -= int(input())
        except EOFError:  # the judge closed the input: the game is over
            return


if __name__ == "__main__":
    main()
