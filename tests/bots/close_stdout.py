"""Closes its standard output after reading the board, and stays alive."""

import os
import sys
import time

sys.stdin.readline()
os.close(1)
time.sleep(10**6)
