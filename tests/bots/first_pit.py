"""A well-behaved Ioiwari bot: always plays the first non-empty pit. Others import `play`."""

import sys


def sow(pits: list[int], pit: int) -> None:
    """Play `pit` (1..7) on `pits` in place; the banks do not matter to this bot."""
    i = pit - 1
    hand, pits[i] = pits[i], 0
    while hand:
        i = (i + 1) % 7
        if hand > 1:
            if pits[i] == 5:
                pits[i] -= 1
            else:
                pits[i] += 1
                hand -= 1
        else:
            if 1 <= pits[i] <= 4:
                pits[i] = 0
            hand = 0


def play(board: str | None = None) -> None:
    """Answer every board or opponent move with the first non-empty pit until EOF (`board`:
    the board's line, when the caller has read it already)."""
    pits = [int(t) for t in (board or sys.stdin.readline()).split()]
    while True:
        move = next(i + 1 for i, beads in enumerate(pits) if beads)
        sow(pits, move)
        print(move, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        sow(pits, int(line))


if __name__ == "__main__":
    play()
