"""Reads the board, then waits in select (no timeout) for a second line that never comes."""

import select
import sys

sys.stdin.readline()
select.select([sys.stdin], [], [])
print(1, flush=True)
