"""The launcher a judge process keeps (``judge-exec -L``): it forks each bot's starter on
request, so that a game costs no fork or exec of the judge and no exec of the helper.

A request is one message on a socket pair: the helper's arguments, the environment, the
folder, and the descriptors the child gets (SCM_RIGHTS). The child does what the helper
does when run as a program (see `exec/launcher.c`), in a session of its own. The launcher is its
parent and reaps it; how it ended (wait status and resource use) comes on a pipe of the
child's own, which is readable once it is reaped.
"""

from __future__ import annotations

import os
import resource
import select
import socket
import struct
import subprocess
import threading
from contextlib import suppress

from judge.sandbox.spawning import popen

#: how long a launcher may take to answer a request (a fork) before it is given up
ANSWER_SECONDS = 10.0


class Started:
    """A bot's starter (the helper, or bwrap under it): what the judge needs of a process
    it started, however it started it."""

    def __init__(self, pid: int, ended_fd: int) -> None:
        self.pid = pid
        #: readable once the process has ended and is reaped (a pidfd, or the report pipe)
        self.ended_fd = ended_fd
        self.returncode: int | None = None
        self.usage: resource.struct_rusage | None = None

    def reap(self) -> bool:
        """Whether the process has ended (reaped once, its status and use kept)."""
        raise NotImplementedError

    def wait(self, timeout: float | None) -> bool:
        """Wait up to `timeout` s (None: as long as it takes) for the end; whether it came."""
        if self.reap():
            return True
        if self.ended_fd >= 0:
            select.select([self.ended_fd], [], [], timeout)
        return self.reap()

    def close(self) -> None:
        """Close the judge's descriptor of the end (once the process is reaped)."""
        if self.ended_fd >= 0:
            with suppress(OSError):
                os.close(self.ended_fd)
            self.ended_fd = -1


class Spawned(Started):
    """A child of the judge itself (`subprocess.Popen`), reaped with wait4."""

    def __init__(self, popen: subprocess.Popen) -> None:
        pidfd = -1
        with suppress(OSError):
            pidfd = os.pidfd_open(popen.pid)
        super().__init__(popen.pid, pidfd)
        self.popen = popen

    def reap(self, block: bool = False) -> bool:
        if self.returncode is None:
            pid, status, usage = os.wait4(self.pid, 0 if block else os.WNOHANG)
            if not pid:
                return False
            self.usage = usage
            self.returncode = self.popen.returncode = os.waitstatus_to_exitcode(status)
        return True

    def wait(self, timeout: float | None) -> bool:
        if timeout is None and self.ended_fd < 0:  # no pidfd to wait on (Linux < 5.3)
            return self.reap(block=True)
        return super().wait(timeout)


class Launched(Started):
    """A child of the launcher, which reports its end on a pipe."""

    def reap(self) -> bool:
        if self.returncode is None:
            try:
                line = os.read(self.ended_fd, 256)
            except BlockingIOError:
                return False
            except OSError:
                line = b""
            fields = line.split()
            if len(fields) == 4 and all(f.lstrip(b"-").isdigit() for f in fields):
                status, maxrss, utime, stime = (int(f) for f in fields)
                self.returncode = os.waitstatus_to_exitcode(status)
                self.usage = resource.struct_rusage(
                    (utime / 1e6, stime / 1e6, maxrss) + (0,) * 13)
            else:  # the launcher went first (the judge is ending): its status is unknown
                self.returncode = 126
        return True


class Launcher:
    """A ``judge-exec -L`` of this process (ended by `stop`); with `joins` (descriptors of
    cgroup.procs files) it lives in those cgroups, where all it starts is then born."""

    def __init__(self, helper: str, joins: list[int] | None = None) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        joins = joins or []
        try:
            self.proc = popen(
                [helper, "-L", f"{theirs.fileno()}:{os.getpid()}",
                 *(x for fd in joins for x in ("-c", str(fd)))], stdin=subprocess.DEVNULL,
                pass_fds=[theirs.fileno(), *joins], cwd="/", start_new_session=True)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.sock = ours
        self.sock.settimeout(ANSWER_SECONDS)  # never block for ever on it
        self.lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        """Whether the launcher still runs (it is started again when not)."""
        return self.proc.poll() is None

    def start(self, argv: list[str], env: dict[str, str], cwd: str, stdio: tuple[int, int, int],
              pass_fds: list[int]) -> tuple[int, int]:
        """Start the helper with arguments `argv[1:]` (`argv[0]` its name) and `stdio` as its
        0, 1 and 2 and `pass_fds` at the same numbers; its pid and the read end of its
        report pipe. Raises `OSError` if it could not be started."""
        strings = [str(len(argv)), *argv, str(len(env)),
                   *(f"{k}={v}" for k, v in env.items()), cwd, str(4 + len(pass_fds)),
                   "-1", "0", "1", "2", *(str(fd) for fd in pass_fds)]
        message = os.fsencode("\0".join(strings) + "\0")
        ended_read, ended_write = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        try:
            with self.lock:
                try:
                    socket.send_fds(self.sock, [message], [ended_write, *stdio, *pass_fds])
                    answer = self.sock.recv(4)
                except TimeoutError:  # stuck: its answer, if one comes, must not be taken
                    self.proc.kill()  # for the next start's: a new launcher is started
                    self.proc.wait()
                    raise
        except BaseException:
            os.close(ended_read)
            raise
        finally:
            os.close(ended_write)
        if len(answer) != 4:
            os.close(ended_read)
            raise OSError("the bot launcher has ended")
        (pid,) = struct.unpack("i", answer)
        if pid <= 0:
            os.close(ended_read)
            raise OSError(-pid, os.strerror(-pid))
        return pid, ended_read

    def stop(self) -> None:
        """End the launcher (its children are gone: the games are settled) and reap it."""
        with suppress(OSError):
            self.sock.close()
        try:  # (it gives what it started 5 s to end, then kills what is left)
            self.proc.wait(timeout=8)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
