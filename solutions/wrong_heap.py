# Wrong heap: plays a winning move, but from the LARGEST heap that allows one instead of the
# first, as the assignment asks. Partial marks: every line where those heaps differ is wrong.
from functools import reduce

with open("nim.txt") as f:
    n = int(f.readline())
    for _ in range(n):
        heaps = [int(word) for word in f.readline().split()]
        nim_sum = reduce(lambda a, b: a ^ b, heaps, 0)
        if nim_sum == 0:
            print("Lose Game")
            continue
        options = [i for i, size in enumerate(heaps) if size ^ nim_sum < size]
        h = max(options, key=lambda i: heaps[i])  # the bug: should be options[0]
        print(f"Remove {heaps[h] - (heaps[h] ^ nim_sum)} counters from Heap {h + 1}")
