"""Plays its first move well, then wants two lines for each move of its opponent."""

import sys

import first_pit

pits = [int(t) for t in sys.stdin.readline().split()]
move = next(i + 1 for i, beads in enumerate(pits) if beads)
first_pit.sow(pits, move)
print(move, flush=True)
sys.stdin.readline()
sys.stdin.readline()
