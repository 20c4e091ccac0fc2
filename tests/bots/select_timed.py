"""Reads the board, waits 1 s in select for more input that does not come, then plays well."""

import select
import sys

import first_pit

board = sys.stdin.readline()
select.select([sys.stdin], [], [], 1.0)
first_pit.play(board)
