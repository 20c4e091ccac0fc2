# Fatima - nim bot
# I did not get the xor trick working so this one just takes
# one counter from the first heap that is not empty.
import sys


def first_nonempty(heaps):
    for i in range(len(heaps)):
        if heaps[i] > 0:
            return i
    return -1


heaps = None
for line in sys.stdin:
    nums = [int(x) for x in line.split()]
    if heaps is None:
        heaps = nums          # first line = the heaps
    else:
        heaps[nums[0] - 1] -= nums[1]   # opponent's move
    i = first_nonempty(heaps)
    if i == -1:
        break
    print(i + 1, 1)
    sys.stdout.flush()
    heaps[i] -= 1
    if first_nonempty(heaps) == -1:
        break
