"""Reads the board and then computes forever."""

import sys

sys.stdin.readline()
while True:
    pass
