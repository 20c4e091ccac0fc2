"""Starts children that leave its session and process group, then never moves."""

import os
import sys
import time

sys.stdin.readline()
for _ in range(3):
    if os.fork() == 0:
        os.setsid()
        time.sleep(10**6)
time.sleep(10**6)
