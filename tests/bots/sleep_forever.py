"""Reads the board and then sleeps forever."""

import sys
import time

sys.stdin.readline()
time.sleep(10**6)
