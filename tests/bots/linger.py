"""Plays well, but ignores SIGTERM and the end of its input, and never exits."""

import signal
import time

import first_pit

signal.signal(signal.SIGTERM, signal.SIG_IGN)
first_pit.play()
time.sleep(10**6)
