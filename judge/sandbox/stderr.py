"""A bot's stderr: drained by one thread per judge process while the bot plays, keeping only
its tail; at the game's end the judge drains and closes it itself."""

from __future__ import annotations

import os
import select
import threading
from contextlib import suppress

_STDERR_CHUNK = 1 << 16
#: the most read from a pipe in one go: what it holds when its bot has ended (a pipe holds
#: 64 KiB by default), or a flood, between which the pump looks at the other pipes
_DRAIN_BYTES = 1 << 20


class StderrTail:
    """The end of one bot's stderr (its pipe is made non-blocking here). Whoever reads the
    pipe holds `lock`; once `done`, it is closed and nobody reads it again."""

    def __init__(self, fd: int, keep: int) -> None:
        os.set_blocking(fd, False)
        self.fd, self.keep = fd, keep
        self.data = bytearray()
        self.total = 0
        #: set once the pipe has ended (or was given up) and its fd is closed
        self.done = threading.Event()
        self.lock = threading.Lock()

    def read_now(self, close: bool = True) -> bool:
        """Read what the pipe holds now, without waiting (at most `_DRAIN_BYTES`); whether it
        has come to its end, where it is closed (unless not `close`). The caller holds
        `lock`."""
        if self.done.is_set():  # closed: its number may be another descriptor's by now
            return True
        for _ in range(_DRAIN_BYTES // _STDERR_CHUNK):
            try:
                chunk = os.read(self.fd, _STDERR_CHUNK)
            except BlockingIOError:
                return False
            except OSError:
                chunk = b""
            if not chunk:
                if close:
                    self.close()
                return True
            self.total += len(chunk)
            self.data += chunk
            if len(self.data) > 2 * self.keep:
                del self.data[: -self.keep]
        return False

    def drain(self) -> bool:
        """`read_now` for a caller that does not hold `lock`: it is taken here."""
        with self.lock:
            return self.read_now()

    def close(self) -> None:
        """Close the pipe, once. The caller holds `lock`."""
        if not self.done.is_set():
            with suppress(OSError):
                os.close(self.fd)
            self.done.set()

    def text(self) -> str:
        """The kept tail, decoded, saying how much came before it."""
        with self.lock:
            tail = bytes(self.data[-self.keep :])
            dropped = self.total - len(tail)
        text = tail.decode(errors="replace")
        return f"[{dropped} earlier bytes not kept]\n{text}" if dropped else text


class StderrPump(threading.Thread):
    """One thread per judge process (its `SandboxContext`'s) drains the stderr of every bot
    it runs while it plays, so that no bot ever blocks on a full pipe (a thread per game
    cost 0.17 ms to start).

    Pipes are handed over and taken back directly (epoll may be changed from any thread),
    so the pump wakes only when a bot writes to stderr: not per game to take a pipe in,
    nor at a bot's exit, as the judge takes its pipe back before it ends the bot's input.
    """

    def __init__(self) -> None:
        super().__init__(daemon=True, name="bot-stderr")
        self.epoll = select.epoll()
        self._lock = threading.Lock()  # over `_tails` and the pipes in `epoll`
        self._tails: dict[int, StderrTail] = {}

    def add(self, tail: StderrTail) -> None:
        """Start draining `tail`'s pipe."""
        with self._lock:
            self._tails[tail.fd] = tail
            self.epoll.register(tail.fd, select.EPOLLIN)

    def take(self, tail: StderrTail) -> None:
        """Stop draining `tail`'s pipe: its caller reads it from now on (`read_now`)."""
        with self._lock:
            if self._tails.get(tail.fd) is tail:
                del self._tails[tail.fd]
                with suppress(OSError):
                    self.epoll.unregister(tail.fd)

    def give_up(self, tail: StderrTail) -> None:
        """Read what `tail`'s pipe holds now and close it (its bot is dead or dying: what it
        wrote is there, and the pipe's end need not be waited for, which under bwrap comes
        only when the sandbox is torn down)."""
        self.take(tail)
        with tail.lock:
            tail.read_now()
            tail.close()

    def run(self) -> None:
        while True:
            try:
                events = self.epoll.poll()
            except InterruptedError:
                continue
            for fd, _ in events:
                with self._lock:
                    # (a pipe taken back meanwhile is not here; its number may be a new
                    # pipe's, which a read that does not wait leaves as it is if empty)
                    tail = self._tails.get(fd)
                if tail is None:
                    continue
                with tail.lock:
                    with self._lock:  # still the pump's? (taken back while it waited)
                        if self._tails.get(fd) is not tail:
                            continue
                    if tail.read_now(close=False):  # its end: let go of it, then close it
                        with self._lock:
                            if self._tails.get(fd) is tail:
                                del self._tails[fd]
                                with suppress(OSError):
                                    self.epoll.unregister(fd)
                        tail.close()
