# A correct solution of the Nim batch assignment: full marks, by default and with --strict.
# Python integers have no size limit, so heaps beyond 64 bits are no problem.
from functools import reduce

with open("nim.txt") as f:
    n = int(f.readline())
    for _ in range(n):
        heaps = [int(word) for word in f.readline().split()]
        nim_sum = reduce(lambda a, b: a ^ b, heaps, 0)
        if nim_sum == 0:
            print("Lose Game")
            continue
        # the FIRST heap that a winning move can come from
        h = next(i for i, size in enumerate(heaps) if size ^ nim_sum < size)
        print(f"Remove {heaps[h] - (heaps[h] ^ nim_sum)} counters from Heap {h + 1}")
