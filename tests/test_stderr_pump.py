"""The thread that drains the bots' stderr: it reads and closes only the pipes it holds, and
never one that the judge has taken back, even when its number is reused at once."""

from __future__ import annotations

import array
import fcntl
import os
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from judge.sandbox.stderr import StderrPump, StderrTail


def wait_for(check, timeout: float = 10.0) -> bool:  # noqa: ANN001 - a predicate
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def unread(fd: int) -> int:
    """How many bytes the pipe `fd` holds, not yet read."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def close_all(*fds: int) -> None:
    """Close each of `fds` that is still open."""
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


@contextmanager
def pump_waiting_for_the_lock() -> Iterator[tuple[StderrPump, StderrTail, int, int]]:
    """A pump holding a pipe (its tail, read and write ends): within, the judge holds the
    pipe's lock, and the pump has seen output on it and waits for that lock."""
    pump = StderrPump()
    pump.start()
    r, w = os.pipe()
    tail = StderrTail(r, 1024)
    pump.add(tail)
    with tail.lock:
        os.write(w, b"x")
        time.sleep(0.05)  # (the pump wakes and waits for the lock)
        yield pump, tail, r, w


def round_trip(pump: StderrPump) -> None:
    """Return once the pump has dealt with what it saw before: a new pipe that ends is
    closed by it."""
    r, w = os.pipe()
    tail = StderrTail(r, 16)
    pump.add(tail)
    os.close(w)
    assert tail.done.wait(10.0)


def test_a_pipe_taken_back_as_the_pump_reads_it_is_not_read_or_closed_by_it() -> None:
    # The pump sees output on a bot's pipe and waits for the pipe's lock, which the judge
    # holds: the judge takes the pipe back and closes it, and the number goes at once to
    # another descriptor (here: another pipe, holding two bytes).
    other_r, other_w = os.pipe()
    os.write(other_w, b"zz")
    r = w = -1
    try:
        with pump_waiting_for_the_lock() as (pump, tail, r, w):
            pump.take(tail)
            tail.close()
            os.dup2(other_r, r)
        round_trip(pump)
        assert unread(r) == 2  # still open and unread: not the pump's
        assert tail.total == 0
    finally:
        close_all(other_r, other_w, r, w)


def test_a_pipe_taken_back_is_left_to_the_judge_and_one_held_is_drained() -> None:
    pump = StderrPump()
    pump.start()
    (r1, w1), (r2, w2) = os.pipe(), os.pipe()
    taken, held = StderrTail(r1, 1024), StderrTail(r2, 1024)
    pump.add(taken)
    pump.add(held)
    pump.take(taken)
    # a flood of 8 MiB: the writer never blocks for long on the pipe the pump holds
    writer = threading.Thread(target=lambda: [os.write(w2, b"y" * 65536) for _ in range(128)])
    writer.start()
    writer.join(20.0)
    assert not writer.is_alive()
    os.write(w1, b"x" * 100)
    os.close(w2)
    assert held.done.wait(10.0)
    round_trip(pump)
    assert held.total == 8 << 20 and len(held.text()) < 2 * 1024 + 100
    assert unread(r1) == 100 and taken.total == 0  # not read by the pump
    with taken.lock:
        taken.read_now()  # the judge's own read
    assert taken.total == 100 and not taken.done.is_set()
    os.close(w1)
    with taken.lock:
        taken.read_now()
    assert taken.done.is_set()


def test_a_pipe_taken_back_while_the_pump_waits_for_it_stays_the_judges() -> None:
    # the pump has seen output and waits for the pipe's lock, which the judge holds as it
    # reads; the judge takes the pipe back and the bot ends: the pipe's end is the judge's
    # to see and close (the pump closing it would leave the judge waiting on a closed
    # descriptor)
    r = w = -1
    try:
        with pump_waiting_for_the_lock() as (pump, tail, r, w):
            pump.take(tail)
            tail.read_now()
            os.close(w)
        round_trip(pump)
        assert not tail.done.is_set() and tail.total == 1
        with tail.lock:
            assert tail.read_now()  # the judge sees the end, and closes it
        assert tail.done.is_set()
    finally:
        close_all(r, w)
