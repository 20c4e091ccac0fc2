"""Reads the board and sleeps 1.5 s (clock_nanosleep) before its first move, then plays well."""

import sys
import time

import first_pit

board = sys.stdin.readline()
time.sleep(1.5)
first_pit.play(board)
