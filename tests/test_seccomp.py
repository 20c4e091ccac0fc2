"""The system call filter is an allowlist: every call of the architecture that is not
listed is refused, the list is the one docs/sandbox.md shows, and the calls that opened
channels or ran code outside the box are not on it.

The walk runs a probe under the real filter (the exec helper's ``-s``) that makes every
system call number this architecture could have, except those listed, each in a child of
its own, and reports what each returned.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from judge.sandbox.exec_helper import helper_path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "sandbox.md"
ENOSYS = 38

#: every number a call of x86_64 or aarch64 has now, with room for the next years' calls
HIGHEST = 1023

#: calls that the kernel passes through every seccomp filter (Linux 6.11 and later): they
#: act only when made from a uprobe's trampoline page; from anywhere else `uretprobe` ends
#: the caller with SIGILL and `uprobe` returns ENXIO
PASSED_THROUGH = {"x86_64": {335: "uretprobe", 336: "uprobe"}}

PROBE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* for each number on stdin: in a child, the call with every argument 0; print
   "NUMBER ERRNO" (0: it returned without error, -SIGNAL: the child died of it) */
int main(void) {
    long nr;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (scanf("%ld", &nr) == 1) {
        int fds[2];
        if (pipe(fds)) return 2;
        pid_t child = fork();
        if (child == 0) {
            close(fds[0]);
            alarm(2);
            long got = syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L);
            int err = got == -1 ? errno : 0;
            if (write(fds[1], &err, sizeof err) != sizeof err) _exit(3);
            _exit(0);
        }
        close(fds[1]);
        int err = 0, status = 0;
        ssize_t n = read(fds[0], &err, sizeof err);
        close(fds[0]);
        waitpid(child, &status, 0);
        if (n != sizeof err) err = WIFSIGNALED(status) ? -WTERMSIG(status) : -1000;
        printf("%ld %d\n", nr, err);
    }
    return 0;
}
"""


def helper() -> str:
    path = helper_path()
    if path is None:
        pytest.skip("no exec helper here (no C compiler)")
    return path


def listed() -> dict[str, tuple[int, bool]]:
    """The filter's list as built: name -> (number, allowed only with some arguments)."""
    out = subprocess.run([helper(), "-S"], capture_output=True, text=True, check=True).stdout
    calls = {}
    for line in out.splitlines():
        name, number, *ruled = line.split()
        calls[name] = (int(number), bool(ruled))
    return calls


def documented() -> dict[str, bool]:
    """The table of docs/sandbox.md: name -> allowed only with some arguments."""
    text = DOCS.read_text()
    table = text[text.index("### The allowlist"):]
    table = table[: table.index("\n### ", 5)]
    calls = {}
    for row in re.findall(r"^\| ([^|]+) \| ([^|]+) \|", table, re.M):
        kind = row[1].strip()
        if kind in ("any", "some"):
            for name in re.findall(r"`([a-z0-9_]+)`", row[0]):
                calls[name] = kind == "some"
    return calls


def test_the_list_built_is_the_list_documented() -> None:
    built, docs = listed(), documented()
    assert docs, "no table found in docs/sandbox.md"
    for name, (_, ruled) in built.items():
        assert name in docs, f"{name} is allowed but not in docs/sandbox.md's table"
        assert docs[name] == ruled, f"{name}: documented as {'some' if docs[name] else 'any'}"
    # what the table names and this build lacks: calls of another architecture, or newer
    # than this C library's table (refused here, as on a kernel without them)
    missing = set(docs) - set(built)
    x86_only = {"arch_prctl", "open", "stat", "lstat", "access", "poll", "select", "pipe",
                "dup2", "fork", "vfork", "getpgrp", "alarm", "pause", "time", "readlink",
                "mkdir", "rmdir", "unlink", "rename", "link", "symlink", "chmod", "chown",
                "lchown", "creat", "getdents", "epoll_create", "epoll_wait", "eventfd",
                "signalfd", "mknod"}
    newer = {"fchmodat2", "map_shadow_stack", "futex_wake", "futex_wait", "futex_requeue",
             "mseal", "epoll_pwait2", "futex_waitv",
             "close_range", "openat2", "faccessat2", "getrlimit", "setrlimit", "renameat"}
    assert missing <= x86_only | newer, missing - x86_only - newer


def test_calls_that_opened_channels_or_escaped_are_not_listed() -> None:
    # each of these opened a channel between bots or games, ran code outside the box, or
    # kept state beyond the game in the audits: none is on the list
    built = listed()
    for name in ("inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init",
                 "io_setup", "io_submit", "io_uring_setup", "keyctl", "add_key",
                 "request_key", "perf_event_open", "bpf", "userfaultfd", "ptrace",
                 "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd",
                 "pidfd_open", "pidfd_send_signal",
                 "memfd_create", "mincore", "cachestat", "mlock", "mlockall", "mlock2",
                 "unshare", "setns", "clone3", "mount", "utimensat", "shmget", "semget",
                 "msgget", "mq_open", "kcmp", "seccomp", "sync", "syncfs", "ioprio_set",
                 "set_mempolicy", "move_pages", "name_to_handle_at", "open_by_handle_at",
                 "setuid", "setresuid", "setgroups", "capset", "personality", "chroot"):
        assert name not in built, name


def test_every_number_not_listed_is_refused() -> None:
    exe = helper()
    with tempfile.TemporaryDirectory() as tmp:  # (one the probe's uid can enter)
        os.chmod(tmp, 0o755)
        walk(exe, Path(tmp))


def walk(exe: str, tmp_path: Path) -> None:
    """Every number not listed, made by the probe in `tmp_path` under the filter."""
    probe = tmp_path / "probe"
    source = tmp_path / "probe.c"
    source.write_text(PROBE)
    try:
        subprocess.run(["cc", "-O1", "-o", str(probe), str(source)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no C compiler for the probe")
    allowed = {number for number, _ in listed().values()}
    numbers = [nr for nr in range(HIGHEST + 1) if nr not in allowed]
    if os.uname().machine == "x86_64":  # the x32 table: nothing of it is listed
        numbers += [0x40000000 + nr for nr in range(600)]
    # (as root: under a uid that owns nothing, in case a call slipped through)
    uid = ["-u", "65534"] if os.geteuid() == 0 else []
    probe.chmod(0o755)
    done = subprocess.run([exe, *uid, "-s", "--", str(probe)], capture_output=True,
                          text=True, input="\n".join(map(str, numbers)) + "\n", timeout=300)
    answers = dict(map(int, line.split()) for line in done.stdout.splitlines())
    assert set(answers) == set(numbers), (done.stderr, len(answers))
    passed = {nr: err for nr, err in answers.items() if err != ENOSYS
              and nr not in PASSED_THROUGH.get(os.uname().machine, {})}
    assert not passed, f"numbers not listed but not refused (number: errno): {passed}"


#: what a bot may do to its own process only, tried on its parent and on its user
OTHERS = """
import ctypes, resource
libc = ctypes.CDLL(None, use_errno=True)
def call(*args):
    if libc.syscall(*args) != 0:
        raise OSError(ctypes.get_errno(), "refused")
parent = os.getppid()
report("own limits", resource.prlimit(0, resource.RLIMIT_NOFILE) is not None)
attempt("lower the parent's limits",
        lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE, (3, 3)))
attempt("pin the parent", lambda: os.sched_setaffinity(parent, {0}))
attempt("renice the parent", lambda: os.setpriority(os.PRIO_PROCESS, parent, 19))
attempt("renice the user", lambda: os.setpriority(os.PRIO_USER, 0, 19))
attempt("renice the group", lambda: os.setpriority(os.PRIO_PGRP, 0, 19))
attempt("inotify", lambda: call(253 if os.uname().machine == "x86_64" else 26))
attempt("io_setup", lambda: call(206 if os.uname().machine == "x86_64" else 0, 1,
                                 ctypes.byref(ctypes.c_ulong(0))))
attempt("mlock", lambda: call(149 if os.uname().machine == "x86_64" else 228, 0, 4096))
import fcntl
folder = os.open("/usr", os.O_RDONLY)
attempt("dnotify", lambda: fcntl.fcntl(folder, 1026, 0x80000001))  # F_NOTIFY, DN_ACCESS
with open("leased", "w") as own:
    attempt("lease", lambda: fcntl.fcntl(own, 1024, fcntl.F_RDLCK))  # F_SETLEASE
    flags = fcntl.fcntl(own, fcntl.F_GETFL)
    fcntl.fcntl(own, fcntl.F_SETFL, flags | os.O_APPEND)
    fcntl.fcntl(own, fcntl.F_SETFD, fcntl.FD_CLOEXEC)
    fcntl.fcntl(own, fcntl.F_DUPFD_CLOEXEC, 10)
import socket
def cookie():
    mine, theirs = socket.socketpair()
    mine.getsockopt(socket.SOL_SOCKET, 57)  # SO_COOKIE
attempt("socket cookie", cookie)
attempt("sock_diag", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 4).close())
attempt("pidfd", lambda: os.close(os.pidfd_open(os.getpid())))
with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0):  # (the routing family)
    pass
mine, theirs = socket.socketpair()
mine.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
os.setpriority(os.PRIO_PROCESS, 0, 1)
os.sched_setaffinity(0, os.sched_getaffinity(0))
report("own priority and CPUs", True)
"""


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_bot_changes_the_limits_cpus_and_priority_of_its_own_process_only(
        mode: str, tmp_path: Path) -> None:
    from test_confinement import MODES, play, said, write_bot

    from judge import verdicts  # (the bots' modules: tests/ is on the path)

    if mode not in MODES:
        pytest.skip("no bubblewrap here")
    if helper_path() is None:
        pytest.skip("no exec helper here: no filter")
    record = play(write_bot(tmp_path / "bot", OTHERS), mode)
    text = said(record)
    assert record.verdict.code == verdicts.OK, (record.verdict, text)
    for what in ("lower the parent's limits", "pin the parent", "renice the parent",
                 "renice the user", "renice the group", "inotify", "io_setup", "mlock",
                 "dnotify", "lease", "socket cookie", "sock_diag", "pidfd"):
        assert f"NOT {what}" in text, text
    assert "GOT own limits" in text and "GOT own priority and CPUs" in text, text
