"""Reads its input in a thread of its own; its main thread wants a second line (waits on
the queue without a timeout) before its first move."""

import queue
import sys
import threading

lines: queue.Queue[str] = queue.Queue()


def reader() -> None:
    for line in sys.stdin:
        lines.put(line)


threading.Thread(target=reader, daemon=True).start()
lines.get()
lines.get()
print(1, flush=True)
