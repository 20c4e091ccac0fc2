"""Answers the board with pit 8, which does not exist."""

import sys

sys.stdin.readline()
print(8, flush=True)
sys.stdin.readline()
