# Chopsticks: tap with the first live hand the first live hand of the opponent
import sys

rules = sys.stdin.readline().split()
fingers = 5
for r in rules:
    if r.startswith("fingers="):
        fingers = int(r[8:])
pos = sys.stdin.readline().strip("()\n ").split()
side = pos[0]
nums = [int(v) for v in pos[1:]]
half = len(nums) // 2
mine = nums[:half] if side == "L" else nums[half:]
theirs = nums[half:] if side == "L" else nums[:half]


def hit(src, dst, i, j):
    v = dst[j] + src[i]
    dst[j] = v if v <= fingers else 0


while any(mine) and any(theirs):
    i = next(k for k in range(len(mine)) if mine[k])
    j = max((k for k in range(len(theirs)) if theirs[k]), key=lambda k: theirs[k])
    hit(mine, theirs, i, j)
    print(i + 1, j + 1, flush=True)
    if not any(theirs):
        break
    line = sys.stdin.readline().split()
    if not line:
        break
    hit(theirs, mine, int(line[0]) - 1, int(line[1]) - 1)
