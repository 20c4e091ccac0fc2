"""Plays well, then writes 2 MiB to stderr once its input has ended, and last words."""

import sys

import first_pit

first_pit.play()
chunk = "x" * 1023 + "\n"
for _ in range(2048):
    sys.stderr.write(chunk)
sys.stderr.write("last words\n")
