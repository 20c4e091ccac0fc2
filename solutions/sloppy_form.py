# Right answers, sloppy form: prints an empty line first, splits lines on single spaces (so
# it crashes on a data set with two spaces between heaps) and writes "1 counter" in the
# singular. Full marks with the default, fair grading (blank lines skipped, each data set it
# crashed on run again alone, the singular accepted); almost nothing with --strict.
from functools import reduce

lines = open("nim.txt").read().split("\n")
print()
for line in lines[1:int(lines[0]) + 1]:
    heaps = [int(word) for word in line.split(" ")]  # int("") fails on "3  4 5"
    nim_sum = reduce(lambda a, b: a ^ b, heaps, 0)
    h = next((i for i, size in enumerate(heaps) if size ^ nim_sum < size), None)
    if h is None:
        print("Lose Game")
    else:
        x = heaps[h] - (heaps[h] ^ nim_sum)
        print(f"Remove {x} counter{'s' if x != 1 else ''} from Heap {h + 1}")
