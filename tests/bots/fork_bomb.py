"""Starts processes until it cannot (each one sleeps), without ever moving."""

import os
import sys
import time

sys.stdin.readline()
for _ in range(10_000):
    if os.fork() == 0:
        time.sleep(10**6)
        os._exit(0)
