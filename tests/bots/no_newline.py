"""Writes its move without the newline (flushed), then waits for the opponent's move."""

import sys

sys.stdin.readline()
sys.stdout.write("1")
sys.stdout.flush()
sys.stdin.readline()
