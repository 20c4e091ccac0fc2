"""Says on stderr which cores it may run on, then plays the first pit."""

import os
import sys

import first_pit

print("cores", *sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
first_pit.play()
