"""The thread that drains the bots' stderr closes each pipe once, and only its own."""

from __future__ import annotations

import array
import fcntl
import os
import termios
import time

from judge.sandbox.stderr import StderrTail, _StderrPump


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


def test_a_pipe_given_up_as_it_ends_is_closed_once_not_its_reused_number() -> None:
    # A bot ends: its stderr pipe reaches its end just as the judge gives it up. The pump
    # closes it; the number is then free, and the judge's next game takes it (here: a
    # descriptor of /dev/null put on that number). The pump must not close that one too
    # when it comes to the pipe's end, which it had seen in the same look.
    pump = _StderrPump()
    pump.start()
    pipes = {name: os.pipe() for name in ("ending", "busy", "slow", "after")}
    tails = {name: StderrTail(r, 1024) for name, (r, _) in pipes.items()}
    for name in ("ending", "busy", "slow"):
        pump.add(tails[name])
    ending = tails["ending"].fd
    assert wait_for(lambda: all(t.fd in pump.selector.get_map()
                                for n, t in tails.items() if n != "after"))
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        # the pump is held while it takes in a chunk of "busy" ...
        with tails["busy"]._lock, tails["slow"]._lock:
            os.write(pipes["busy"][1], b"x")
            # (once the chunk is read, the pump waits for the lock to keep it)
            assert wait_for(lambda: unread(pipes["busy"][0]) == 0)
            # ... meanwhile "ending" is given up and then ends, and "slow" is given up
            pump.give_up(tails["ending"])  # (returns after 1 s: the pump is held)
            os.close(pipes["ending"][1])
            pump.give_up(tails["slow"])
            os.write(pipes["slow"][1], b"y")
            # the pump goes on: it closes "ending", then waits for "slow"'s lock
            tails["busy"]._lock.release()
            try:
                assert tails["ending"].done.wait(10.0)
                os.dup2(null, ending)  # the number is free: the judge takes it again
            finally:
                tails["busy"]._lock.acquire()
        assert tails["slow"].done.wait(10.0)
        pump.add(tails["after"])  # a round trip: the pump has done what it saw before
        os.close(pipes["after"][1])
        assert tails["after"].done.wait(10.0)
        os.fstat(ending)  # still open: the pump closed only its own pipe
    finally:
        for fd in (null, ending, pipes["busy"][1], pipes["slow"][1]):
            try:
                os.close(fd)
            except OSError:
                pass
