"""Nim by search: a memoised win/lose table for small games, the nim-sum for large."""
import sys
from functools import lru_cache


@lru_cache(maxsize=None)
def wins(position):
    for heap, size in enumerate(position):
        for take in range(1, size + 1):
            after = list(position)
            after[heap] -= take
            if not wins(tuple(sorted(after))):
                return True
    return False


def search(heaps):
    for heap, size in enumerate(heaps):
        for take in range(1, size + 1):
            after = list(heaps)
            after[heap] -= take
            if not wins(tuple(sorted(after))):
                return heap, take
    return None


def bouton(heaps):
    total = 0
    for size in heaps:
        total ^= size
    for heap, size in enumerate(heaps):
        if size ^ total < size:
            return heap, size - (size ^ total)
    return None


def decide(heaps):
    small = sum(heaps) <= 20
    found = search(heaps) if small else bouton(heaps)
    if found is None:
        heap = heaps.index(max(heaps))
        found = heap, 1
    return found


def main():
    heaps = [int(word) for word in sys.stdin.readline().split()]
    while sum(heaps) > 0:
        heap, take = decide(heaps)
        heaps[heap] -= take
        print(heap + 1, take, flush=True)
        if sum(heaps) == 0:
            return
        words = sys.stdin.readline().split()
        if len(words) != 2:
            return
        heaps[int(words[0]) - 1] -= int(words[1])


if __name__ == "__main__":
    main()
