"""Allocates memory without end after reading the board."""

import sys

sys.stdin.readline()
hoard = []
while True:
    hoard.append(bytearray(1 << 20))
