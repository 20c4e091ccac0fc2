"""Says on stderr which cores it may run on and which process started its launcher, then
plays the first pit."""

import os
import sys

import first_pit

with open(f"/proc/{os.getppid()}/stat") as fh:
    worker = fh.read().rsplit(")", 1)[1].split()[1]  # the parent of the bot's launcher
print("cores", *sorted(os.sched_getaffinity(0)), "worker", worker, file=sys.stderr, flush=True)
first_pit.play()
