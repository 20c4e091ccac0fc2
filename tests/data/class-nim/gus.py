#!/usr/bin/env python3
# random nim player (gus)
import os
import random
import sys

seed = os.environ.get("BOT_SEED")
if seed is not None:
    random.seed(int(seed))


def random_move(heaps):
    choices = [i for i, h in enumerate(heaps) if h > 0]
    i = random.choice(choices)
    return i, random.randint(1, heaps[i])


def run():
    line = sys.stdin.readline()
    heaps = [int(w) for w in line.split()]
    while sum(heaps) > 0:
        i, k = random_move(heaps)
        heaps[i] -= k
        sys.stdout.write(f"{i + 1} {k}\n")
        sys.stdout.flush()
        if sum(heaps) == 0:
            return
        line = sys.stdin.readline()
        if line == "":
            return
        h, k = map(int, line.split())
        heaps[h - 1] -= k


run()
