"""Reads with a timeout the old way (alarm: SIGALRM's handler ends the read): waits 1 s for
a second line that does not come, then plays well."""

import signal
import sys

import first_pit


class TimedOut(Exception):
    """The alarm rang."""


def ring(signum: int, frame: object) -> None:
    raise TimedOut


signal.signal(signal.SIGALRM, ring)
board = sys.stdin.readline()
signal.alarm(1)
try:
    sys.stdin.readline()
except TimedOut:
    pass
first_pit.play(board)
