"""Nim with reduce and generators."""
import sys
from functools import reduce
from operator import xor


def moves(heaps):
    total = reduce(xor, heaps, 0)
    good = ((k, h - (h ^ total)) for k, h in enumerate(heaps) if (h ^ total) < h)
    return next(good, None) if total else None


def fallback(heaps):
    k = max(range(len(heaps)), key=heaps.__getitem__)
    return k, 1


lines = iter(sys.stdin)
heaps = list(map(int, next(lines).split()))
while any(heaps):
    k, n = moves(heaps) or fallback(heaps)
    heaps[k] -= n
    print(k + 1, n, flush=True)
    if not any(heaps):
        break
    line = next(lines, "")
    if not line.strip():
        break
    k, n = map(int, line.split())
    heaps[k - 1] -= n
