"""Writes 8 MiB to stderr, then plays well."""

import sys


# the first-pit player, inlined: a bot sees only its own file
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


def play() -> None:
    """Answer every board or opponent move with the first non-empty pit until EOF."""
    pits = [int(t) for t in sys.stdin.readline().split()]
    while True:
        move = next(i + 1 for i, beads in enumerate(pits) if beads)
        sow(pits, move)
        print(move, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        sow(pits, int(line))


chunk = "x" * 1023 + "\n"


def flood() -> None:
    """Write the flood to stderr."""
    for _ in range(8192):
        sys.stderr.write(chunk)


flood()
play()
