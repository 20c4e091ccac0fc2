"""Tic-tac-toe sample bot (weak): a random empty cell; perfect play beats it.

Reads the grid (`x.o/.x./..o`), then alternately writes a cell number 1 to 9 and reads the
opponent's. See protocols/tictactoe.md. Self-contained (bots run without the `judge`
package).
"""

import os
import random
import sys

RNG = random.Random(os.environ.get("BOT_SEED", "tictactoe"))  # BOT_SEED replays a game


def main() -> None:
    cells = []
    for line in sys.stdin:
        if cells:
            cells[int(line) - 1] = "o"  # the opponent's mark: which one does not matter here
        else:
            cells = list(line.strip().replace("/", ""))
        free = [i for i, c in enumerate(cells) if c == "."]
        if not free:
            break
        i = RNG.choice(free)
        print(i + 1, flush=True)
        cells[i] = "x"


if __name__ == "__main__":
    main()
