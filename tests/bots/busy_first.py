"""Reads the board and computes for 1.5 s before its first move, then plays well."""

import sys
import time

import first_pit

board = sys.stdin.readline()
end = time.monotonic() + 1.5
while time.monotonic() < end:
    pass
first_pit.play(board)
