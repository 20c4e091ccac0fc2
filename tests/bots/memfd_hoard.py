"""Holds 512 MiB in memory files that no process of it maps (`memfd_create` and `write`),
then plays the first non-empty pit; where `memfd_create` is refused, holds them in its own
memory instead."""

import os
import sys

import first_pit

board = sys.stdin.readline()
hoard: list[object] = []
try:
    for _ in range(32):
        fd = os.memfd_create("hoard")
        for _ in range(16):
            os.write(fd, bytes(1 << 20))
        hoard.append(fd)
except OSError:
    hoard = [bytearray(1 << 20) for _ in range(512)]
first_pit.play(board)
