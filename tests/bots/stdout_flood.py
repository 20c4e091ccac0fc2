"""Answers the board with an endless line."""

import sys

sys.stdin.readline()
chunk = b"1" * 65536
while True:
    sys.stdout.buffer.write(chunk)
