"""Reads the board and forks a child that thinks 1 s and writes the first move, while it
reads on (asleep in a read of its input); then plays well."""

import os
import sys
import time

import first_pit

board = sys.stdin.readline()
if os.fork() == 0:
    time.sleep(1.0)
    pits = [int(t) for t in board.split()]
    print(next(i + 1 for i, beads in enumerate(pits) if beads), flush=True)
    os._exit(0)


class AfterFirst:
    """Its output, but for the first move, which the child writes."""

    def __init__(self) -> None:
        self.first = True

    def write(self, text: str) -> None:
        if not self.first:
            sys.__stdout__.write(text)
        elif "\n" in text:
            self.first = False

    def flush(self) -> None:
        sys.__stdout__.flush()


sys.stdout = AfterFirst()
first_pit.play(board)
