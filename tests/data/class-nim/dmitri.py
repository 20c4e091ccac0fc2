"""Nim, normal play. Uses Bouton's theorem: move to a position with nim-sum 0."""
import sys
from functools import reduce
from operator import xor


def nimsum(heaps):
    return reduce(xor, heaps, 0)


def apply_move(heaps, h, k):
    return heaps[:h] + [heaps[h] - k] + heaps[h + 1:]


def pick(heaps):
    s = nimsum(heaps)
    if s:
        return next((i, n - (n ^ s)) for i, n in enumerate(heaps) if n ^ s < n)
    # lost anyway: take a whole heap, the shortest way to lose
    return next((i, n) for i, n in enumerate(heaps) if n)


def parse(line):
    a, b = line.split()
    return int(a) - 1, int(b)


def main():
    lines = iter(sys.stdin)
    heaps = list(map(int, next(lines, "").split()))
    while any(heaps):
        h, k = pick(heaps)
        print(h + 1, k, flush=True)
        heaps = apply_move(heaps, h, k)
        line = next(lines, None)
        if line is None:
            break
        heaps = apply_move(heaps, *parse(line))


main()
