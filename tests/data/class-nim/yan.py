"""Nim bot (normal play): always move to a position whose nim-sum is 0."""
import sys
from functools import reduce
from operator import xor

def parse(line):
    a, b = line.split()
    return int(a) - 1, int(b)

def apply_move(heaps, h, k):
    return heaps[:h] + [heaps[h] - k] + heaps[h + 1:]

def main():
    lines = iter(sys.stdin)
    first = next(lines, "")
    heaps = list(map(int, first.split()))
    while any(heaps):
        h, k = pick(heaps)
        print(h + 1, k, flush=True)
        heaps = apply_move(heaps, h, k)
        line = next(lines, None)
        if line is None:
            break
        heaps = apply_move(heaps, *parse(line))

def pick(heaps):
    s = nimsum(heaps)
    if s:
        return next((i, n - (n ^ s)) for i, n in enumerate(heaps) if n ^ s < n)
    return next((i, n) for i, n in enumerate(heaps) if n)

def nimsum(heaps):
    return reduce(xor, heaps, 0)

main()
