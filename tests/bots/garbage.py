"""Answers the board with something that is not a move."""

import sys

sys.stdin.readline()
print("hello, judge", flush=True)
sys.stdin.readline()
