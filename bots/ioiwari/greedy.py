"""Ioiwari sample bot: one-step greedy.

Reads the seven pit counts, then alternately writes its pit and reads the opponent's pit,
keeping the board itself. It plays the pit that adds the most to its own bank minus what the
same move gives the opponent, looking no further; ties go to the lowest pit. It is beaten by
the optimal opponent from most starts, which makes it a useful first bot to grade.

Run by hand: `python3 bots/ioiwari/greedy.py`, type `4 3 2 4 2 3 2`, read its pit, type the
opponent's pit, and so on; Ctrl-D (end of input) ends it. See protocols/ioiwari.md.

This file is self-contained on purpose (bots run confined, without the `judge` package), so
the sowing rule is a copy of the one in judge/games/ioiwari/__init__.py, and the reading loop is
the same in every Ioiwari sample bot.
"""

import sys

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


def choose(pits: tuple[int, ...]) -> int:
    """The pit with the largest immediate gain, the lowest of them on a tie."""
    return max((p for p in range(1, PITS + 1) if pits[p - 1]), key=lambda p: sow(pits, p)[1])


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
