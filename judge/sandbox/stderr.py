"""A bot's stderr: drained by one thread per judge process, keeping only its tail."""

from __future__ import annotations

import os
import selectors
import threading
from contextlib import suppress

_STDERR_CHUNK = 1 << 16
#: the most read from a pipe when its bot has ended (a pipe holds 64 KiB by default)
_DRAIN_BYTES = 1 << 20


class StderrTail:
    """The end of one bot's stderr, filled by the process's `_StderrPump`."""

    def __init__(self, fd: int, keep: int) -> None:
        self.fd, self.keep = fd, keep
        self.data = bytearray()
        self.total = 0
        #: set once the pipe has ended (or was given up) and its fd is closed
        self.done = threading.Event()
        self._lock = threading.Lock()

    def feed(self, chunk: bytes) -> None:
        with self._lock:
            self.total += len(chunk)
            self.data += chunk
            if len(self.data) > 2 * self.keep:
                del self.data[: -self.keep]

    def text(self) -> str:
        """The kept tail, decoded, saying how much came before it."""
        with self._lock:
            tail = bytes(self.data[-self.keep :])
            dropped = self.total - len(tail)
        text = tail.decode(errors="replace")
        return f"[{dropped} earlier bytes not kept]\n{text}" if dropped else text


class _StderrPump(threading.Thread):
    """One thread per judge process drains the stderr of every bot it runs, so that no bot
    ever blocks on a full pipe (a thread per game cost 0.17 ms to start)."""

    def __init__(self) -> None:
        super().__init__(daemon=True, name="bot-stderr")
        self.selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self.selector.register(self._wake_r, selectors.EVENT_READ)
        self._lock = threading.Lock()
        self._pending: list[tuple[bool, StderrTail]] = []

    def add(self, tail: StderrTail) -> None:
        """Start draining `tail`'s pipe."""
        self._ask(True, tail)

    def give_up(self, tail: StderrTail) -> None:
        """Stop draining `tail` once what its pipe holds now is read (its bot is dead or
        dying: what it wrote is there, and the pipe's end need not be waited for, which
        under bwrap comes only when the sandbox is torn down)."""
        if not tail.done.is_set():
            self._ask(False, tail)
            tail.done.wait(1.0)  # never forever: at worst an fd is left open

    def _ask(self, add: bool, tail: StderrTail) -> None:
        with self._lock:
            self._pending.append((add, tail))
        os.write(self._wake_w, b".")

    def run(self) -> None:
        while True:
            for key, _ in self.selector.select():
                if key.data is None:
                    self._take_requests()
                    continue
                tail = key.data
                if tail.done.is_set():
                    # given up and closed earlier in this batch: its number may be another
                    # descriptor's by now, which is not the pump's to read or close
                    continue
                try:
                    chunk = os.read(tail.fd, _STDERR_CHUNK)
                except OSError:
                    chunk = b""
                if chunk:
                    tail.feed(chunk)
                else:
                    self._close(tail)

    def _take_requests(self) -> None:
        with suppress(BlockingIOError):
            os.read(self._wake_r, 4096)
        with self._lock:
            pending, self._pending = self._pending, []
        for add, tail in pending:
            if add:
                try:
                    self.selector.register(tail.fd, selectors.EVENT_READ, tail)
                except (OSError, ValueError, KeyError):
                    self._close(tail)
            elif not tail.done.is_set():
                self._drain(tail)
                self._close(tail)

    def _drain(self, tail: StderrTail) -> None:
        """Read what `tail`'s pipe holds now, without waiting (at most `_DRAIN_BYTES`)."""
        with suppress(OSError):
            os.set_blocking(tail.fd, False)
            for _ in range(_DRAIN_BYTES // _STDERR_CHUNK):
                chunk = os.read(tail.fd, _STDERR_CHUNK)
                if not chunk:
                    return
                tail.feed(chunk)

    def _close(self, tail: StderrTail) -> None:
        if tail.done.is_set():  # once: the number may be another descriptor's by now
            return
        with suppress(OSError, ValueError, KeyError):
            self.selector.unregister(tail.fd)
        with suppress(OSError):
            os.close(tail.fd)
        tail.done.set()


_pump: _StderrPump | None = None
_pump_pid = 0


def stderr_pump() -> _StderrPump:
    """This process's pump, started on first use (a forked child starts its own)."""
    global _pump, _pump_pid
    if _pump is None or _pump_pid != os.getpid():
        _pump, _pump_pid = _StderrPump(), os.getpid()
        _pump.start()
    return _pump
