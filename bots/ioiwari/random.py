"""Ioiwari sample bot: a uniformly random legal pit.

Reads the seven pit counts, then alternately writes its pit and reads the opponent's pit,
keeping the board itself. Each move is a non-empty pit chosen uniformly at random. The
generator is seeded from the environment variable BOT_SEED when it is set (any string), and
from a fixed seed otherwise, so a game can be replayed exactly.

Run by hand: `BOT_SEED=7 python3 bots/ioiwari/random.py`, type `4 3 2 4 2 3 2`, read its pit,
type the opponent's pit, and so on; Ctrl-D (end of input) ends it. See protocols/ioiwari.md.

This file is self-contained on purpose (bots run confined, without the `judge` package), so
the sowing rule is a copy of the one in judge/games/ioiwari/__init__.py, and the reading loop is
the same in every Ioiwari sample bot.
"""

import os
import sys

# This file is called random.py, and Python puts its folder first on the module path when it
# runs a script: drop that folder, so that `import random` finds the standard library.
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != HERE]
import random  # noqa: E402

PITS = 7
FULL = 5  # a pit never holds more: sowing past a full pit takes a bead out of it instead


def sow(pits: tuple[int, ...], pit: int) -> tuple[int, ...]:
    """Play `pit` (1..7): the pits after (banks are the judge's business)."""
    board = list(pits)
    i = pit - 1
    hand, board[i] = board[i], 0
    while hand > 1:
        i = (i + 1) % PITS
        if board[i] == FULL:
            board[i] -= 1
        else:
            board[i] += 1
            hand -= 1
    i = (i + 1) % PITS
    if 1 <= board[i] < FULL:  # the last bead captures the pit
        board[i] = 0
    return tuple(board)


def main() -> None:
    rng = random.Random(os.environ.get("BOT_SEED", "ioiwari"))
    pits: tuple[int, ...] | None = None
    for line in sys.stdin:
        pits = tuple(map(int, line.split())) if pits is None else sow(pits, int(line))
        if any(pits):
            pit = rng.choice([p for p in range(1, PITS + 1) if pits[p - 1]])
            print(pit, flush=True)
            pits = sow(pits, pit)


if __name__ == "__main__":
    main()
