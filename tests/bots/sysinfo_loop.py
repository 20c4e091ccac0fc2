"""Asks for sysinfo (which the exec helper answers for it) until it has used 0.6 s of CPU
itself, then plays the first non-empty pit."""

import ctypes
import sys
import time

import first_pit

board = sys.stdin.readline()
libc = ctypes.CDLL(None)
info = ctypes.create_string_buffer(256)
while time.process_time() < 0.6:
    for _ in range(100):
        libc.sysinfo(info)
first_pit.play(board)
