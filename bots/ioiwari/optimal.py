"""Ioiwari sample bot: perfect play.

Reads the seven pit counts, then alternately writes its pit and reads the opponent's pit,
keeping the board itself (the banks do not matter to the choice: a move's worth is what it
adds to the mover's bank minus what it adds to the opponent's). It plays the move with the
best final score difference, found by a memoised search over the boards reachable from the
current one:

    best(B) = max over legal pits p of (gain(B, p) - best(after(B, p))),  best(empty) = 0

Among equally good moves it takes the lowest pit. From a standard 20-bead start the search
visits a few thousand boards and answers the first move in well under a second.

Run by hand: `python3 bots/ioiwari/optimal.py`, type `4 3 2 4 2 3 2`, read its pit, type the
opponent's pit, and so on; Ctrl-D (end of input) ends it. See protocols/ioiwari.md.

This file is self-contained on purpose (bots run confined, without the `judge` package), so
the sowing rule is a copy of the one in judge/games/ioiwari/__init__.py, and the reading loop is
the same in every Ioiwari sample bot.
"""

import sys
from functools import cache

PITS = 7
FULL = 5  # a pit never holds more: sowing past a full pit takes a bead out of it instead


def sow(pits: tuple[int, ...], pit: int) -> tuple[tuple[int, ...], int]:
    """Play `pit` (1..7): the pits after, and the mover's gain minus the opponent's."""
    board = list(pits)
    i = pit - 1
    hand, board[i] = board[i], 0
    gain = 0
    while hand > 1:
        i = (i + 1) % PITS
        if board[i] == FULL:
            board[i] -= 1
            gain += 1
        else:
            board[i] += 1
            hand -= 1
    i = (i + 1) % PITS
    if 1 <= board[i] < FULL:  # the last bead captures the pit
        gain += board[i] + 1
        board[i] = 0
    else:  # the last bead goes to the opponent
        gain -= 1
    return tuple(board), gain


def move_value(pits: tuple[int, ...], pit: int) -> int:
    """The final score difference for the mover who plays `pit`, with best play after."""
    after, gain = sow(pits, pit)
    return gain - best(after)


@cache
def best(pits: tuple[int, ...]) -> int:
    """The best final score difference (mover minus opponent) from `pits`."""
    return max((move_value(pits, p) for p in range(1, PITS + 1) if pits[p - 1]), default=0)


def choose(pits: tuple[int, ...]) -> int:
    """A best pit, the lowest of them on a tie."""
    return max((p for p in range(1, PITS + 1) if pits[p - 1]), key=lambda p: move_value(pits, p))


def main() -> None:
    pits: tuple[int, ...] | None = None
    for line in sys.stdin:
        pits = tuple(map(int, line.split())) if pits is None else sow(pits, int(line))[0]
        if any(pits):
            pit = choose(pits)
            print(pit, flush=True)
            pits = sow(pits, pit)[0]


if __name__ == "__main__":
    main()
