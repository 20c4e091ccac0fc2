"""Octal-game sample bot: perfect play by Sprague-Grundy values, for Kayles (code 0.77).

Reads the heap sizes, then alternately writes its move `H K L` (from heap H take K counters,
leaving L to their left) and reads the opponent's in the same form. Each heap's Grundy value
comes from the mex rule; a position is lost for the mover exactly when the XOR of its heaps'
values is 0, so it plays a move that leaves 0 when there is one, else takes one counter.
Set CODE for another octal game (0.07 is Dawson's Kayles): the code is part of the task
statement, not of the wire. See protocols/octal.md.

Self-contained on purpose (bots run confined, without the `judge` package).
"""

import sys
from functools import reduce
from operator import xor

CODE = "0.77"
DIGITS = [int(d) for d in CODE.split(".")[1]]
grundy = [0]


def leaves(digit: int, rest: int) -> list[int]:
    """The left parts a move may leave of `rest` remaining counters, up to the mirror."""
    if rest == 0:
        return [0] if digit & 1 else []
    return ([0] if digit & 2 else []) + (list(range(1, rest // 2 + 1)) if digit & 4 else [])


def g(n: int) -> int:
    while len(grundy) <= n:
        m = len(grundy)
        seen = {grundy[left] ^ grundy[m - k - left] for k, d in enumerate(DIGITS[:m], 1)
                for left in leaves(d, m - k)}
        grundy.append(min(set(range(len(seen) + 1)) - seen))
    return grundy[n]


def moves(heaps: list[int]) -> list[tuple[int, int, int]]:
    return [(h, k, left) for h, size in enumerate(heaps, 1) for k, d in
            enumerate(DIGITS[:size], 1) for left in leaves(d, size - k)]


def play(heaps: list[int], move: tuple[int, int, int]) -> list[int]:
    h, k, left = move
    parts = [p for p in (left, heaps[h - 1] - k - left) if p]
    return heaps[: h - 1] + parts + heaps[h:]


def main() -> None:
    heaps = None
    for line in sys.stdin:
        if heaps is None:
            heaps = [int(t) for t in line.split() if t != "0"]
        else:
            heaps = play(heaps, tuple(map(int, line.split())))
        legal = moves(heaps)
        if not legal:
            break
        good = [m for m in legal if reduce(xor, map(g, play(heaps, m)), 0) == 0]
        move = (good or legal)[0]
        print(*move, flush=True)
        heaps = play(heaps, move)


if __name__ == "__main__":
    main()
