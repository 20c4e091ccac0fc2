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
from judge.sandbox.languages import SYSCALL_GROUPS, Table

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


def listed(groups: tuple[str, ...] | None = None) -> dict[str, tuple[int, bool]]:
    """The filter's list as built, of the base set and `groups` (None: every group): name ->
    (number, allowed only with some arguments)."""
    profile = [] if groups is None else [",".join(("base", *groups))]
    out = subprocess.run([helper(), "-S", *profile], capture_output=True, text=True,
                         check=True).stdout
    calls = {}
    for line in out.splitlines():
        name, number, *ruled = line.split()
        calls[name] = (int(number), bool(ruled))
    return calls


#: who the table's third column names for the filter of every group (a compile's, and a
#: program's of no language)
COMPILERS = "compilers"


def documented(who: str = COMPILERS) -> dict[str, bool]:
    """The rows of docs/sandbox.md's table that `who` (a language's name, or `COMPILERS`)
    gets: name -> allowed only with some arguments."""
    text = DOCS.read_text()
    table = text[text.index("### The allowlist"):]
    table = table[: table.index("\n### ", 5)]
    calls: dict[str, bool] = {}
    for row in re.findall(r"^\| ([^|]+) \| ([^|]+) \| ([^|]+) \|", table, re.M):
        kind, given = row[1].strip(), [word.strip() for word in row[2].split(",")]
        if kind in ("any", "some") and (given == ["every"] or who in given):
            for name in re.findall(r"`([a-z0-9_]+)`", row[0]):
                assert name not in calls, f"{name}: in two rows that {who} gets"
                calls[name] = kind == "some"
    return calls


#: what the table names and a build may lack: calls of another architecture, or newer than
#: this C library's table (refused there, as on a kernel without them)
X86_ONLY = {"arch_prctl", "open", "stat", "lstat", "access", "poll", "select", "pipe", "dup2",
            "fork", "vfork", "getpgrp", "alarm", "pause", "time", "readlink", "mkdir", "rmdir",
            "unlink", "rename", "link", "symlink", "chmod", "chown", "lchown", "creat",
            "getdents", "epoll_create", "epoll_wait", "eventfd", "signalfd", "mknod"}
NEWER = {"fchmodat2", "map_shadow_stack", "futex_wake", "futex_wait", "futex_requeue", "mseal",
         "epoll_pwait2", "futex_waitv", "close_range", "openat2", "faccessat2", "getrlimit",
         "setrlimit", "renameat"}


def assert_built_as_documented(built: dict[str, tuple[int, bool]], docs: dict[str, bool],
                               who: str) -> None:
    assert docs, f"no row of docs/sandbox.md's table for {who}"
    for name, (_, ruled) in built.items():
        assert name in docs, f"{who}: {name} is allowed but not in docs/sandbox.md's table"
        assert docs[name] == ruled, \
            f"{who}: {name}: documented as {'some' if docs[name] else 'any'}"
    missing = set(docs) - set(built)
    assert missing <= X86_ONLY | NEWER, (who, missing - X86_ONLY - NEWER)


def test_the_list_built_is_the_list_documented() -> None:
    assert_built_as_documented(listed(), documented(), COMPILERS)


@pytest.mark.parametrize("key", list(Table().languages))
def test_each_language_gets_the_rows_documented_for_it(key: str) -> None:
    # each language's filter (its `syscalls` groups) allows exactly the calls of the rows
    # that name it, with the same arguments ("some" where it has a rule)
    lang = Table().languages[key]
    assert lang.syscalls is not None, f"{key}: no syscalls in languages.toml"
    docs = documented(lang.name)
    if os.uname().machine != "x86_64":  # (aarch64's mprotect has no rule: see the table)
        docs["mprotect"] = False
    assert_built_as_documented(listed(lang.syscalls), docs, lang.name)


def test_the_groups_of_the_language_table_are_the_helpers() -> None:
    assert listed(SYSCALL_GROUPS) == listed()
    for group in SYSCALL_GROUPS:  # each adds calls, or takes a rule off
        assert listed((group,)) != listed(()), group
    bad = subprocess.run([helper(), "-S", "base,threads,nosuch"], capture_output=True,
                         text=True)
    assert bad.returncode == 126 and "bad groups base,threads,nosuch" in bad.stderr, bad


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
                 "setuid", "setresuid", "setgroups", "capset", "personality", "chroot",
                 "readahead", "bind"):
        assert name not in built, name


@pytest.mark.parametrize("groups", [None, ()], ids=["every group", "base"])
def test_every_number_not_listed_is_refused(groups: tuple[str, ...] | None) -> None:
    # the filter of every group (a compile's) and the base set's (a language with
    # `syscalls = []`), whose calls
    # of the groups are refused as any call not listed
    exe = helper()
    with tempfile.TemporaryDirectory() as tmp:  # (one the probe's uid can enter)
        os.chmod(tmp, 0o755)
        walk(exe, Path(tmp), groups)


def walk(exe: str, tmp_path: Path, groups: tuple[str, ...] | None) -> None:
    """Every number not listed in the filter of `groups` (None: every group), made by the
    probe in `tmp_path` under that filter."""
    probe = tmp_path / "probe"
    source = tmp_path / "probe.c"
    source.write_text(PROBE)
    try:
        subprocess.run(["cc", "-O1", "-o", str(probe), str(source)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no C compiler for the probe")
    allowed = {number for number, _ in listed(groups).values()}
    numbers = [nr for nr in range(HIGHEST + 1) if nr not in allowed]
    if os.uname().machine == "x86_64":  # the x32 table: nothing of it is listed
        numbers += [0x40000000 + nr for nr in range(600)]
    # (as root: under a uid that owns nothing, in case a call slipped through)
    uid = ["-u", "65534"] if os.geteuid() == 0 else []
    probe.chmod(0o755)
    profile = [] if groups is None else ["-g", ",".join(("base", *groups))]
    done = subprocess.run([exe, *uid, "-s", *profile, "--", str(probe)], capture_output=True,
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


#: a C bot that first tries what the audits found through calls the filter allowed, each
#: reported as "GOT what" or "NOT what (ERRNO)", then plays the first non-empty pit
ATTACKS_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/un.h>
#include <unistd.h>

static void report(const char *what, long got) {
    if (got < 0) fprintf(stderr, "NOT %s (%d)\n", what, errno);
    else fprintf(stderr, "GOT %s\n", what);
}

/* the neighbour tables' statistics, which the routing netlink shows of the whole machine:
   a dump of RTM_GETNEIGHTBL, answered by RTM_NEWNEIGHTBL messages */
static long neighbour_tables(void) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return -1;
    struct { struct nlmsghdr head; struct ndtmsg body; } ask;
    memset(&ask, 0, sizeof ask);
    ask.head.nlmsg_len = sizeof ask;
    ask.head.nlmsg_type = RTM_GETNEIGHTBL;
    ask.head.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    ask.body.ndtm_family = AF_UNSPEC;
    static char answer[1 << 16];
    long got = send(fd, &ask, sizeof ask, 0) == (long)sizeof ask
                   ? recv(fd, answer, sizeof answer, 0) : -1;
    int err = errno;
    close(fd);
    errno = err;
    if (got > 0 && ((struct nlmsghdr *)answer)->nlmsg_type != RTM_NEWNEIGHTBL)
        return errno = EPROTO, -1;
    return got;
}

static void attributes(void) {
    int fd = open("kept", O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    static char value[4096], names[4096];
    memset(value, 'x', sizeof value);
    report("setxattr", syscall(SYS_setxattr, "kept", "user.a", value, sizeof value, 0));
    report("lsetxattr", syscall(SYS_lsetxattr, "kept", "user.b", value, sizeof value, 0));
    report("fsetxattr", syscall(SYS_fsetxattr, fd, "user.c", value, sizeof value, 0));
    report("getxattr", syscall(SYS_getxattr, "kept", "user.a", value, sizeof value));
    report("lgetxattr", syscall(SYS_lgetxattr, "kept", "user.a", value, sizeof value));
    report("fgetxattr", syscall(SYS_fgetxattr, fd, "user.a", value, sizeof value));
    report("listxattr", syscall(SYS_listxattr, "kept", names, sizeof names));
    report("llistxattr", syscall(SYS_llistxattr, "kept", names, sizeof names));
    report("flistxattr", syscall(SYS_flistxattr, fd, names, sizeof names));
    report("removexattr", syscall(SYS_removexattr, "kept", "user.a"));
    report("lremovexattr", syscall(SYS_lremovexattr, "kept", "user.b"));
    report("fremovexattr", syscall(SYS_fremovexattr, fd, "user.c"));
    /* the forms of Linux 6.13 (their numbers are the same on every architecture) */
    struct { unsigned long value; unsigned size, flags; } args = {(unsigned long)value,
                                                                  sizeof value, 0};
    report("setxattrat", syscall(463, AT_FDCWD, "kept", 0, "user.d", &args, sizeof args));
    report("getxattrat", syscall(464, AT_FDCWD, "kept", 0, "user.d", &args, sizeof args));
    report("listxattrat", syscall(465, AT_FDCWD, "kept", 0, names, sizeof names));
    report("removexattrat", syscall(466, AT_FDCWD, "kept", 0, "user.d"));
    close(fd);
}

/* sysinfo into memory the bot may not write: the kernel answers EFAULT and writes nothing */
static void sysinfo_into(const char *what, int protection) {
    char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(page, 4096, protection);
    report(what, syscall(SYS_sysinfo, page));
    mprotect(page, 4096, PROT_READ);
    int untouched = 1;
    for (int k = 0; k < 4096; k++) untouched &= page[k] == 0;
    char said[64];
    snprintf(said, sizeof said, "%s: memory unchanged", what);
    report(said, untouched ? 0 : (errno = EEXIST, -1));
}

/* the options and requests a runtime uses, and some it does not */
static void narrowed(void) {
    char name[16];
    report("prctl PR_SET_NAME", prctl(PR_SET_NAME, "bot", 0, 0, 0));
    report("prctl PR_GET_NAME", prctl(PR_GET_NAME, name, 0, 0, 0));
    report("prctl PR_SET_CHILD_SUBREAPER", prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0));
    report("prctl PR_SET_DUMPABLE", prctl(PR_SET_DUMPABLE, 0, 0, 0, 0));
    report("prctl PR_SET_TIMERSLACK", prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0));
    int waiting = 0, size = 0;
    report("ioctl FIONREAD", ioctl(0, FIONREAD, &waiting));
    report("ioctl FIOCLEX", ioctl(0, FIONCLEX));
    int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
    report("ioctl FIGETBSZ", ioctl(fd, FIGETBSZ, &size));
    close(fd);
    char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    report("madvise MADV_DONTNEED", madvise(page, 4096, MADV_DONTNEED));
    report("madvise MADV_MERGEABLE", madvise(page, 4096, 12));
}

/* a name of the network namespace's own: without bubblewrap as an ordinary user, the
   machine's, where another bot's bind to the same name fails */
static void bound(void) {
    int pair[2];
    report("socketpair", socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair));
    struct sockaddr_un name = {AF_UNIX, "\0judge-test-bound"};
    report("bind", bind(pair[0], (struct sockaddr *)&name, sizeof name));
}

/* a pidfd of the socket's peer (SO_PEERPIDFD), or of each sender with its messages
   (SO_PASSPIDFD): its inode number is the machine's count of processes made so far, which
   another bot moves by forking; a filter of the socket's messages (SO_ATTACH_FILTER), the
   kernel's memory that the judge's own sums do not count */
static void socket_options(void) {
    int pair[2], fd = -1, on = 1;
    socklen_t size = sizeof fd;
    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
    report("SO_PEERPIDFD", getsockopt(pair[0], SOL_SOCKET, 77, &fd, &size));
    report("SO_PASSPIDFD", setsockopt(pair[0], SOL_SOCKET, 76, &on, sizeof on));
    struct sock_filter all = BPF_STMT(BPF_RET | BPF_K, 0xffff);
    struct sock_fprog filter = {1, &all};
    report("SO_ATTACH_FILTER", setsockopt(pair[0], SOL_SOCKET, SO_ATTACH_FILTER, &filter,
                                          sizeof filter));
}

static void attacks(void) {
    narrowed();
    bound();
    socket_options();
    report("neighbour tables", neighbour_tables());
    attributes();
    int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
    report("readahead", syscall(SYS_readahead, fd, 0L, 1L << 20));
    close(fd);
    sysinfo_into("sysinfo into read-only memory", PROT_READ);
    sysinfo_into("sysinfo into inaccessible memory", PROT_NONE);
    struct sysinfo info;
    report("sysinfo", syscall(SYS_sysinfo, &info));
}
"""


def attacking_bot(folder: Path, attacks: str = ATTACKS_C, name: str = "attacks.c") -> Path:
    """The C first-pit bot that first runs `attacks` (C code with an `attacks` function)."""
    source = (ROOT / "tests" / "bots" / "first_pit.c").read_text()
    main = "int main(void) {\n"
    assert main in source
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(attacks + source.replace(main, main + "    attacks();\n"))
    return path


def attacks_said(mode: str, tmp_path: Path, bot: Path | None = None) -> str:
    """What the attacking bot (or `bot`) said of each call in one game in `mode` (skipped
    where the mode or the filter is not here), its game played to the end."""
    from test_confinement import MODES, play, said

    from judge import verdicts  # (the bots' modules: tests/ is on the path)

    if mode not in MODES:
        pytest.skip("no bubblewrap here")
    if helper_path() is None:
        pytest.skip("no exec helper here: no filter")
    tmp_path.chmod(0o755)
    record = play(bot or attacking_bot(tmp_path / "bot"), mode)
    text = said(record)
    assert record.verdict.code == verdicts.OK, (record.verdict, text)
    return text


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_calls_that_carried_state_between_bots_are_refused_and_sysinfo_faults_as_the_kernel(
        mode: str, tmp_path: Path) -> None:
    text = attacks_said(mode, tmp_path)
    # the routing netlink: the machine's neighbour tables' statistics (one per machine,
    # whatever the network namespace), which every lookup moves
    assert "NOT neighbour tables (97)" in text, text  # EAFNOSUPPORT
    # extended attributes, which tmpfs keeps outside its size: none in any form, as on a
    # file system without them (EOPNOTSUPP)
    for call in ("setxattr", "lsetxattr", "fsetxattr", "getxattr", "lgetxattr", "fgetxattr",
                 "listxattr", "llistxattr", "flistxattr", "removexattr", "lremovexattr",
                 "fremovexattr", "setxattrat", "getxattrat", "listxattrat", "removexattrat"):
        assert f"NOT {call} (95)\n" in text, (call, text)
    # a pidfd, whose inode number counts the processes the machine has made, and a socket
    # filter, uncounted memory of the kernel's (ENOPROTOOPT)
    for option in ("SO_PEERPIDFD", "SO_PASSPIDFD", "SO_ATTACH_FILTER"):
        assert f"NOT {option} (92)" in text, (option, text)
    # the writer of a page-cache channel
    assert f"NOT readahead ({ENOSYS})" in text, text
    # the helper's sysinfo answer faults where the kernel's would, and writes nothing
    for what in ("sysinfo into read-only memory", "sysinfo into inaccessible memory"):
        assert f"NOT {what} (14)" in text, text  # EFAULT
        assert f"GOT {what}: memory unchanged" in text, text
    assert "GOT sysinfo\n" in text, text


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_prctl_ioctl_and_madvise_take_what_the_runtimes_use_only(
        mode: str, tmp_path: Path) -> None:
    text = attacks_said(mode, tmp_path)
    # a thread's name (the JVM's threads), input waiting (the JVM), close-on-exec (Python)
    for what in ("prctl PR_SET_NAME", "prctl PR_GET_NAME", "ioctl FIONREAD", "ioctl FIOCLEX",
                 "madvise MADV_DONTNEED"):
        assert f"GOT {what}\n" in text, (what, text)
    # options no runtime asks for (EINVAL), a file system's request (ENOTTY), pages
    # offered for merging with other processes' (EINVAL, as a kernel without it)
    for what in ("prctl PR_SET_CHILD_SUBREAPER", "prctl PR_SET_DUMPABLE",
                 "prctl PR_SET_TIMERSLACK"):
        assert f"NOT {what} (22)" in text, (what, text)
    assert "NOT ioctl FIGETBSZ (25)" in text, text
    # a pair of local sockets, named by nothing: an abstract name belongs to the network
    # namespace, which without bubblewrap as an ordinary user is the machine's
    assert "GOT socketpair\n" in text, text
    assert f"NOT bind ({ENOSYS})" in text, text
    assert "NOT madvise MADV_MERGEABLE (22)" in text, text


@pytest.mark.needs_toolchain("javascript")
@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_node_on_a_terminal_sets_its_modes_back_at_its_exit(mode: str, tmp_path: Path) -> None:
    # Node.js puts back its terminal's modes as it exits (tcsetattr: TCSETS), and aborts
    # when that fails otherwise than with EPERM
    from test_confinement import LIMITS, MODES
    from test_hostile import FirstPit, assert_nothing_runs_on

    from judge import verdicts
    from judge.games import load_game
    from judge.players.bot import BotPlayer
    from judge.referee import play_game

    if mode not in MODES:
        pytest.skip("no bubblewrap here")
    if helper_path() is None:
        pytest.skip("no exec helper here: no filter")
    game = load_game("nim")
    player = BotPlayer(ROOT / "bots" / "languages" / "nim" / "optimal.js", LIMITS, mode,
                       pty=True)
    record = play_game(game, [player, FirstPit()], game.start(), LIMITS)
    assert_nothing_runs_on(player)
    assert record.verdict.code == verdicts.OK, record.verdict
    assert "Assertion failed" not in (record.stderr[0] or ""), record.stderr[0]


#: a C bot that first makes the calls of the groups (threads, event descriptors, a JIT's
#: executable memory) that a C program's filter leaves out
GROUPS_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *what, long got) {
    if (got < 0) fprintf(stderr, "NOT %s (%d)\n", what, errno);
    else fprintf(stderr, "GOT %s\n", what);
}

static void *nothing(void *arg) { return arg; }

static void attacks(void) {
    report("eventfd2", eventfd(0, EFD_CLOEXEC));
    report("epoll_create1", epoll_create1(EPOLL_CLOEXEC));
    sigset_t none;
    sigemptyset(&none);
    report("signalfd4", signalfd(-1, &none, SFD_CLOEXEC));
    report("timerfd_create", timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
    report("membarrier", syscall(SYS_membarrier, 0, 0, 0));  /* MEMBARRIER_CMD_QUERY */
    report("sched_yield", sched_yield());
    pthread_t thread;
    int err = pthread_create(&thread, NULL, nothing, NULL);
    if (!err) pthread_join(thread, NULL);
    report("a thread", err ? (errno = err, -1) : 0);
    void *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    report("mmap PROT_EXEC", code == MAP_FAILED ? -1 : 0);
    char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    report("mprotect PROT_EXEC", mprotect(page, 4096, PROT_READ | PROT_EXEC));
    report("mprotect PROT_READ", mprotect(page, 4096, PROT_READ));
    pid_t child = fork();
    if (child == 0) _exit(0);
    report("a process", child < 0 ? -1 : waitpid(child, NULL, 0));
}
"""

#: what the groups a C bot lacks add: (what GROUPS_C reports, errno without them)
GROUPED = [("eventfd2", ENOSYS), ("epoll_create1", ENOSYS), ("signalfd4", ENOSYS),
           ("timerfd_create", ENOSYS), ("mmap PROT_EXEC", 13)]  # EACCES
if os.uname().machine == "x86_64":  # (aarch64's C library makes its code executable so)
    GROUPED.append(("mprotect PROT_EXEC", 13))
#: what the threads group adds, which C bots have: (what GROUPS_C reports, errno without it)
THREADS = [("membarrier", ENOSYS), ("sched_yield", ENOSYS), ("a thread", 1)]  # EPERM


@pytest.mark.needs_toolchain("c")
@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_c_bot_has_threads_but_no_event_descriptors_or_executable_memory(
        mode: str, tmp_path: Path) -> None:
    # a C program's filter is the base set and threads: what event loops and JITs need is
    # refused, as the filter answers (ENOSYS for a call not listed, EACCES for memory made
    # executable)
    text = attacks_said(mode, tmp_path, attacking_bot(tmp_path / "bot", GROUPS_C, "bot.c"))
    for what, errno in GROUPED:
        assert f"NOT {what} ({errno})" in text, (what, text)
    # threads, a process, and memory made readable; the dynamic linker mapped the C
    # library's code (the bot runs)
    for what in ("a process", "mprotect PROT_READ", *(what for what, _ in THREADS)):
        assert f"GOT {what}\n" in text, (what, text)


def built_groups_program(tmp_path: Path) -> Path:
    """GROUPS_C's bot built here as a program (skipped without a C compiler)."""
    source = attacking_bot(tmp_path / "src", GROUPS_C, "bot.c")
    program = tmp_path / "bot" / "program"
    program.parent.mkdir()
    try:
        subprocess.run(["cc", "-O1", "-pthread", "-o", str(program), str(source)],
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no C compiler here")
    return program


def test_the_base_set_alone_makes_no_thread() -> None:
    # a language of a user's table with `syscalls = []` (the helper's -g base): a thread's
    # clone is refused with EPERM, membarrier and sched_yield as calls not listed
    exe = helper()
    with tempfile.TemporaryDirectory() as tmp:  # (one the program's uid can enter)
        os.chmod(tmp, 0o755)
        program = built_groups_program(Path(tmp))
        program.parent.chmod(0o755)
        uid = ["-u", "65534"] if os.geteuid() == 0 else []
        done = subprocess.run([exe, *uid, "-s", "-g", "base", "--", str(program)],
                              capture_output=True, text=True, input="", timeout=60)
    for what, errno in [*THREADS, *GROUPED]:
        assert f"NOT {what} ({errno})" in done.stderr, (what, done.stderr)
    assert "GOT a process\n" in done.stderr, done.stderr


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_program_of_no_language_has_every_group(mode: str, tmp_path: Path) -> None:
    # the same C code built here and given as a program (no language: every group, as a
    # compile has) makes every call that the C bot's filter refuses
    text = attacks_said(mode, tmp_path, built_groups_program(tmp_path))
    for what, _ in [*GROUPED, *THREADS]:
        assert f"GOT {what}\n" in text, (what, text)


#: a Python bot (threads and event descriptors, no JIT) making calls of each group
GROUPS_PYTHON = """
import mmap, select, threading
attempt("eventfd2", lambda: os.close(os.eventfd(0)))
attempt("epoll_create1", lambda: select.epoll().close())
def thread():
    done = threading.Thread(target=lambda: None)
    done.start()
    done.join()
attempt("a thread", thread)
attempt("mmap PROT_EXEC", lambda: mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_EXEC))
"""


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_python_bot_has_threads_and_event_descriptors_but_no_executable_memory(
        mode: str, tmp_path: Path) -> None:
    from test_confinement import write_bot

    text = attacks_said(mode, tmp_path, write_bot(tmp_path / "bot", GROUPS_PYTHON))
    for what in ("eventfd2", "epoll_create1", "a thread"):
        assert f"GOT {what}\n" in text, (what, text)
    assert "NOT mmap PROT_EXEC (PermissionError" in text, text
