"""Expects each number of the board on a line of its own: waits for a second line."""

import sys

pits = [int(sys.stdin.readline().split()[0]) for _ in range(7)]
print(1, flush=True)
