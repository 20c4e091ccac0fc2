"""Reads its input in a thread of its own (asleep in a read of it all along); its main thread
waits 1 s on a timed wait before its first move, then plays well."""

import queue
import sys
import threading

import first_pit

source = sys.stdin
lines: queue.Queue[str] = queue.Queue()


def reader() -> None:
    for line in source:
        lines.put(line)
    lines.put("")


class Lines:
    """Its input as the reader thread passes it on."""

    def readline(self) -> str:
        return lines.get()


threading.Thread(target=reader, daemon=True).start()
sys.stdin = Lines()
board = sys.stdin.readline()
threading.Event().wait(1.0)
first_pit.play(board)
