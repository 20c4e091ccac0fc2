/* The bot's system call filter, an allowlist: a call that is not listed here is refused
   (ENOSYS, as on a kernel without it), whatever it is and whenever the kernel adds it.
   What is listed is what the runtimes of the language table and their compilers need
   (their sample bots and compilers traced under the filter), and the common calls of any
   program; some are allowed only with certain arguments. Each language gets the base set
   and the groups its runtime needs (`syscalls` in the language table, the helper's -g):
   threads, event descriptors, memory made executable (a JIT's); a compile and a program of
   no language get every group. docs/sandbox.md keeps the table readable, with why each
   call that a program might miss is left out; `judge-exec -S [GROUPS]` prints the list as
   built, for the test that walks every number of the architecture. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "exec.h"

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "the system call filter knows x86_64 and aarch64 only"
#endif

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x8
#endif
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif
#define SO_COOKIE_ 57
#define SO_NETNS_COOKIE_ 71
/* (a pidfd of the peer, or of each sender with its messages, Linux 6.5) */
#define SO_PASSPIDFD_ 76
#define SO_PEERPIDFD_ 77
/* (a filter of a socket's messages, classic or eBPF, and of a port's group) */
#define SO_ATTACH_FILTER_ 26
#define SO_ATTACH_BPF_ 50
#define SO_ATTACH_REUSEPORT_CBPF_ 51
#define SO_ATTACH_REUSEPORT_EBPF_ 52
/* (a pidfd's inode number counts the machine's processes) */
#define CLONE_PIDFD_ 0x1000
#define MADV_COLD_ 20
#define MADV_PAGEOUT_ 21
#define MADV_MERGEABLE_ 12
/* the extended-attribute calls of Linux 6.13, numbered alike on every architecture */
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#define __NR_getxattrat 464
#define __NR_listxattrat 465
#define __NR_removexattrat 466
#endif

/* the groups of calls beyond the base set that a language's runtime may need */
enum {
    THREADS = 1,  /* threads: clone with CLONE_THREAD, and what only threads use */
    EVENTS = 2,   /* event descriptors: epoll, eventfd, signalfd, timerfd (event loops) */
    JIT = 4,      /* memory made executable that maps no file (a JIT's code) */
};
static const struct { const char *name; unsigned bit; } group_names[] = {
    {"threads", THREADS}, {"events", EVENTS}, {"jit", JIT},
};

struct call { const char *name; int nr; unsigned group; };
#define C(name) {#name, __NR_##name, 0}
/* a call of a group only */
#define G(name, group) {#name, __NR_##name, group}

/* Allowed with any arguments (but for `exec_ruled`), the most frequent first (the filter
   tries them in order); those of a group only in a filter of that group. */
static const struct call plain[] = {
    /* input, output, memory, threads, signals, time */
    C(read), C(write), C(futex), C(close), C(mmap), C(munmap), C(mprotect), C(brk),
    C(mremap), C(rt_sigprocmask), C(rt_sigreturn), C(lseek),
    C(newfstatat), C(fstat), C(statx), C(openat), C(clock_gettime), C(clock_getres),
    C(clock_nanosleep), C(nanosleep), C(gettimeofday), G(sched_yield, THREADS), C(getpid),
    C(gettid), C(readv), C(writev), C(pread64), C(pwrite64), C(preadv), C(pwritev),
    C(dup), C(dup3), C(pipe2), C(ppoll), C(pselect6), G(epoll_create1, EVENTS),
    G(epoll_ctl, EVENTS), G(epoll_pwait, EVENTS), G(eventfd2, EVENTS), G(signalfd4, EVENTS),
    G(timerfd_create, EVENTS), G(timerfd_settime, EVENTS), G(timerfd_gettime, EVENTS),
    C(rt_sigsuspend), C(rt_sigpending),
    C(rt_sigtimedwait), C(rt_sigqueueinfo), C(rt_tgsigqueueinfo), C(sigaltstack),
    C(restart_syscall), C(kill), C(tgkill), C(tkill), C(getitimer), C(setitimer),
    C(timer_create), C(timer_settime), C(timer_gettime), C(timer_getoverrun),
    C(timer_delete), C(times), C(getrusage), C(uname), C(getrandom),
    G(membarrier, THREADS), C(set_robust_list), C(set_tid_address), C(rseq), C(exit),
    C(exit_group),
    /* processes */
    C(execve), C(execveat), C(wait4), C(waitid), C(getppid), C(getpgid),
    C(setpgid), C(getsid), C(setsid), C(sched_getaffinity), C(sched_getparam),
    C(sched_getscheduler), C(sched_getattr), C(sched_get_priority_max),
    C(sched_get_priority_min), C(sched_rr_get_interval), C(getpriority), C(getcpu),
    C(capget), C(getuid), C(geteuid), C(getgid), C(getegid), C(getresuid), C(getresgid),
    C(getgroups), C(umask),
    /* files, in the bot's own folders (the rest of what it sees is read-only) */
    C(faccessat), C(readlinkat), C(getdents64), C(getcwd), C(chdir), C(fchdir),
    C(mkdirat), C(unlinkat), C(linkat), C(symlinkat), C(mknodat), C(renameat2),
    C(fchmod), C(fchmodat), C(fchown), C(fchownat), C(ftruncate), C(truncate),
    C(fallocate), C(fsync), C(fdatasync), C(sync_file_range), C(msync), C(statfs),
    C(fstatfs), C(sendfile), C(splice), C(tee), C(vmsplice), C(copy_file_range),
    /* on the pair of local sockets it may have (`socket` is refused below); no `bind`: an
       abstract name is the network namespace's, which without bubblewrap as an ordinary
       user is the machine's, where another bot's bind of the same name would fail */
    C(getsockname), C(getpeername), C(sendto), C(recvfrom), C(sendmsg),
    C(recvmsg), C(sendmmsg), C(recvmmsg), C(shutdown),
    /* memory protection keys, NUMA's question of where memory is */
    G(pkey_alloc, JIT), G(pkey_free, JIT), G(pkey_mprotect, JIT), C(get_mempolicy),
#if defined(__x86_64__)
    /* the older calls that x86_64 keeps beside the generic ones */
    C(arch_prctl), C(open), C(stat), C(lstat), C(access), C(poll), C(select), C(pipe),
    C(dup2), C(fork), C(vfork), C(getpgrp), C(alarm), C(pause), C(time), C(readlink),
    C(mkdir), C(rmdir), C(unlink), C(rename), C(link), C(symlink), C(chmod), C(chown),
    C(lchown), C(creat), C(getdents), G(epoll_create, EVENTS), G(epoll_wait, EVENTS),
    G(eventfd, EVENTS), G(signalfd, EVENTS), C(mknod),
#endif
#ifdef __NR_getrlimit
    C(getrlimit), C(setrlimit),
#endif
#ifdef __NR_renameat
    C(renameat),
#endif
    /* (calls newer than some C libraries' tables) */
#ifdef __NR_close_range
    C(close_range),
#endif
#ifdef __NR_openat2
    C(openat2),
#endif
#ifdef __NR_faccessat2
    C(faccessat2),
#endif
#ifdef __NR_epoll_pwait2
    G(epoll_pwait2, EVENTS),
#endif
#ifdef __NR_futex_waitv
    C(futex_waitv),
#endif
#ifdef __NR_fchmodat2
    C(fchmodat2),
#endif
#ifdef __NR_map_shadow_stack
    C(map_shadow_stack),
#endif
#ifdef __NR_futex_wake
    C(futex_wake), C(futex_wait), C(futex_requeue),
#endif
#ifdef __NR_mseal
    C(mseal),
#endif
};

/* Allowed with some arguments only, or taken and ignored (`argument_rules` says how). */
static const struct call ruled[] = {
    C(flock), C(fadvise64), C(fcntl), C(madvise), C(preadv2), C(pwritev2), C(socket),
    C(socketpair), C(getsockopt), C(setsockopt), C(clone), C(prlimit64), C(sched_setaffinity),
    C(sched_setscheduler), C(sched_setparam), C(sched_setattr), C(setpriority), C(sysinfo),
    C(getxattr), C(lgetxattr), C(fgetxattr), C(listxattr), C(llistxattr), C(flistxattr),
    C(setxattr), C(lsetxattr), C(fsetxattr), C(removexattr), C(lremovexattr),
    C(fremovexattr), C(setxattrat), C(getxattrat), C(listxattrat), C(removexattrat),
    C(ioctl), C(prctl), C(rt_sigaction),
};
/* the extended-attribute calls, all answered as a file system without them answers */
static const int attribute_calls[] = {
    __NR_getxattr, __NR_lgetxattr, __NR_fgetxattr, __NR_listxattr, __NR_llistxattr,
    __NR_flistxattr, __NR_setxattr, __NR_lsetxattr, __NR_fsetxattr, __NR_removexattr,
    __NR_lremovexattr, __NR_fremovexattr, __NR_setxattrat, __NR_getxattrat,
    __NR_listxattrat, __NR_removexattrat,
};
#undef C
#undef G

/* The groups named in `names` ("threads,events", "base" for none of them); -1 when a name
   is not a group's. */
long call_groups(const char *names) {
    unsigned groups = 0;
    for (const char *at = names; *at;) {
        size_t len = strcspn(at, ",");
        int known = len == 4 && !strncmp(at, "base", 4);
        for (size_t k = 0; k < sizeof group_names / sizeof group_names[0]; k++)
            if (strlen(group_names[k].name) == len && !strncmp(at, group_names[k].name, len)) {
                groups |= group_names[k].bit;
                known = 1;
            }
        if (!known) return -1;
        at += len + (at[len] == ',');
    }
    return groups;
}

/* whether the filter of `groups` allows `nr`, a call of `plain`, only with some arguments:
   without JIT, the calls that make memory executable (`exec_rule`) */
static int exec_ruled(int nr, unsigned groups) {
#if defined(__x86_64__)
    if (nr == __NR_mprotect) return !(groups & JIT);
#endif
    return nr == __NR_mmap && !(groups & JIT);
}

/* Print the allowlist of `groups` as built, a call a line: "NAME NUMBER", and "NAME NUMBER
   ruled" for those allowed with some arguments only. */
void print_calls(unsigned groups) {
    for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
        if (!plain[k].group || (plain[k].group & groups))
            printf("%s %d%s\n", plain[k].name, plain[k].nr,
                   exec_ruled(plain[k].nr, groups) ? " ruled" : "");
    for (size_t k = 0; k < sizeof ruled / sizeof ruled[0]; k++)
        printf("%s %d ruled\n", ruled[k].name, ruled[k].nr);
}

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#error "seccomp user notifications missing from these headers (Linux 5.0)"
#endif

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JEQ(k, t, f) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f)))
#define JSET(k, t, f) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (t), (f)))
#define LOAD(field) STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
/* the high half of a 64-bit argument (the low half is LOAD's: both architectures are
   little-endian) */
#define LOAD_HIGH(field) \
    STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field) + 4)
#define RET(value) STMT(BPF_RET | BPF_K, (value))
#define ALLOW RET(SECCOMP_RET_ALLOW)
#define ERRNO(err) RET(SECCOMP_RET_ERRNO | (err))

/* the namespaces a clone may not make (the bot has no capability for any but a user
   namespace, which would give it all the others) */
#define NEW_NAMESPACES (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | \
                        CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET)

struct program { struct sock_filter code[1024]; int n; };

/* `body` (ending in returns only) for the call `nr`: the call skips it otherwise */
static void rule(struct program *p, int nr, const struct sock_filter *body, int size) {
    p->code[p->n++] = JEQ((unsigned)nr, 0, (unsigned char)size);
    for (int k = 0; k < size; k++) p->code[p->n++] = body[k];
}
#define RULE(p, nr, ...)                                                            \
    do {                                                                            \
        const struct sock_filter body_[] = {__VA_ARGS__};                           \
        rule(p, nr, body_, (int)(sizeof body_ / sizeof body_[0]));                  \
    } while (0)

/* Of fcntl's commands, those listed: descriptors, flags, owners and signals of its own
   I/O, pipe sizes, seals, leases asked about. Record locks are taken and released as
   asked but of no effect (two bots playing at once would both see a lock on a system
   file; asked about, there is none to tell); no lease taken (another process's open of
   the file would wait on it), no directory notice (F_NOTIFY: inotify's channel again). */
static void fcntl_rule(struct program *p) {
    static const unsigned allowed[] = {
        F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETOWN, F_SETOWN,
        F_GETOWN_EX, F_SETOWN_EX, F_GETSIG, F_SETSIG, F_GETPIPE_SZ, F_SETPIPE_SZ,
        F_GETLEASE, F_ADD_SEALS, F_GET_SEALS,
    };
    static const unsigned asked[] = {F_GETLK, F_OFD_GETLK};
    static const unsigned taken[] = {F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW};
    enum { NA = sizeof allowed / sizeof allowed[0], NQ = 2, NT = 4 };
    /* the body: load, the tests, then refused, allowed, no locks, taken */
    int tests = NQ + NT + NA, refused = 1 + tests, allow = refused + 1,
        no_locks = allow + 1, ignored = no_locks + 1;
    p->code[p->n++] = JEQ(__NR_fcntl, 0, (unsigned char)(ignored + 1));
    int at = 0;
    p->code[p->n++] = LOAD(args[1]);
    for (int k = 0; k < NQ; k++, at++)
        p->code[p->n++] = JEQ(asked[k], (unsigned char)(no_locks - (1 + at) - 1), 0);
    for (int k = 0; k < NT; k++, at++)
        p->code[p->n++] = JEQ(taken[k], (unsigned char)(ignored - (1 + at) - 1), 0);
    for (int k = 0; k < NA; k++, at++)
        p->code[p->n++] = JEQ(allowed[k], (unsigned char)(allow - (1 + at) - 1), 0);
    p->code[p->n++] = ERRNO(EINVAL);
    p->code[p->n++] = ALLOW;
    p->code[p->n++] = ERRNO(ENOLCK);
    p->code[p->n++] = ERRNO(0);
}

/* Of ioctl's requests, those the runtimes of the language table make (traced), on the
   descriptors a bot has: its pipes, its files, /dev's null, zero, random and its terminal
   (a pty, where the judge gives one): whether a descriptor is a terminal and its size
   (TCGETS, TIOCGWINSZ: every C library and runtime at its start), the modes of its own
   terminal (TCSETS and its two other forms: Node.js puts them back as it exits, and
   aborts where that fails but with EPERM), how much waits to be
   read (FIONREAD: the JVM), non-blocking and close-on-exec (FIONBIO: Node.js; FIOCLEX,
   FIONCLEX: Python). Any other answers ENOTTY, as a descriptor that has no such request:
   none of them reads or moves anything beyond the bot's own descriptors, but they are
   not needed, and each driver's requests are code of its own. */
static void ioctl_rule(struct program *p) {
    static const unsigned allowed[] = {TCGETS, TIOCGWINSZ, TCSETS, TCSETSW, TCSETSF,
                                       FIONREAD, FIONBIO, FIOCLEX, FIONCLEX};
    enum { NA = sizeof allowed / sizeof allowed[0] };
    p->code[p->n++] = JEQ(__NR_ioctl, 0, (unsigned char)(NA + 3));
    p->code[p->n++] = LOAD(args[1]);
    for (int k = 0; k < NA; k++)
        p->code[p->n++] = JEQ(allowed[k], (unsigned char)(NA - k), 0);
    p->code[p->n++] = ERRNO(ENOTTY);
    p->code[p->n++] = ALLOW;
}

/* the calls of `ruled`, each with what it may do */
static void argument_rules(struct program *p, unsigned groups) {
    /* locks on whole files: taken and released as asked, but of no effect (see fcntl) */
    RULE(p, __NR_flock, ERRNO(0));
    fcntl_rule(p);
    /* the page cache of the system's files, which every game shares: no eviction (advice
       taken and ignored), no look at what is in it (reads that fail on a missing page);
       no page offered to the kernel's merging of identical pages (MADV_MERGEABLE, EINVAL
       as a kernel without it answers), where the time of a write tells whether another
       process holds a page of the same content */
    RULE(p, __NR_fadvise64, ERRNO(0));
    RULE(p, __NR_madvise, LOAD(args[2]), JEQ(MADV_COLD_, 3, 0), JEQ(MADV_PAGEOUT_, 2, 0),
         JEQ(MADV_MERGEABLE_, 2, 0), ALLOW, ERRNO(0), ERRNO(EINVAL));
    /* of ioctl's requests, those the runtimes make (`ioctl_rule`) */
    ioctl_rule(p);
    /* of prctl's options, a thread's name (the JVM names its threads; C libraries and
       runtimes name and ask a thread's name): the rest act on other processes
       (PR_SCHED_CORE shares a core-scheduling cookie with one), on what the judge reads
       of the bot (PR_SET_DUMPABLE hides its /proc files from an ordinary user's judge,
       PR_SET_CHILD_SUBREAPER takes its orphans from the helper), or on nothing a bot
       needs, and answer EINVAL as options a kernel does not know */
    RULE(p, __NR_prctl, LOAD(args[0]), JEQ(PR_SET_NAME, 1, 0), JEQ(PR_GET_NAME, 0, 1), ALLOW,
         ERRNO(EINVAL));
    RULE(p, __NR_preadv2, LOAD(args[5]), JSET(RWF_NOWAIT, 1, 0), ALLOW, ERRNO(EOPNOTSUPP));
    RULE(p, __NR_pwritev2, LOAD(args[5]), JSET(RWF_NOWAIT, 1, 0), ALLOW, ERRNO(EOPNOTSUPP));
    /* no socket but a pair of local ones: an IP socket moves the machine's counters of
       TCP and UDP (`/proc/self/net/sockstat`, `softnet_stat`), a local one named by a
       path reaches whatever listens on it (an ordinary user's tmux, agents, buses), the
       routing netlink shows the neighbour tables' statistics, which are the machine's,
       not the network namespace's, and which every lookup moves, and some families the
       kernel keeps outside the network namespace (AF_VSOCK reaches the hypervisor) */
    RULE(p, __NR_socketpair, LOAD(args[0]), JEQ(AF_UNIX, 0, 1), ALLOW, ERRNO(EAFNOSUPPORT));
    RULE(p, __NR_socket, ERRNO(EAFNOSUPPORT));
    /* no extended attribute, in any form: tmpfs keeps them outside its size (a bot's
       disk and memory that no limit counts), answered as a file system without them
       answers (EOPNOTSUPP), which programs that copy or list attributes take as none */
    for (size_t k = 0; k < sizeof attribute_calls / sizeof attribute_calls[0]; k++)
        RULE(p, attribute_calls[k], ERRNO(EOPNOTSUPP));
    /* the socket options programs read and set, but the cookies, numbers from
       machine-wide counters that a bot can move (it makes sockets ask for theirs) and
       another read, and pidfds (the peer's, SO_PEERPIDFD, or each sender's, SO_PASSPIDFD),
       whose inode number is the machine's count of processes made, which a bot moves by
       forking */
    RULE(p, __NR_getsockopt, LOAD(args[1]), JEQ(SOL_SOCKET, 0, 4), LOAD(args[2]),
         JEQ(SO_COOKIE_, 3, 0), JEQ(SO_NETNS_COOKIE_, 2, 0), JEQ(SO_PEERPIDFD_, 1, 0), ALLOW,
         ERRNO(ENOPROTOOPT));
    /* nor buffers larger than the kernel's default (taken and ignored), nor a filter of
       its messages: both are the kernel's memory, which the judge's own sums do not count
       (a send buffer raised to the largest the kernel allows held 8 MiB; a filter of 4096
       instructions some 90 KiB), and a filter is code the kernel compiles and runs */
    RULE(p, __NR_setsockopt, LOAD(args[1]), JEQ(SOL_SOCKET, 0, 10), LOAD(args[2]),
         JEQ(SO_SNDBUF, 9, 0), JEQ(SO_RCVBUF, 8, 0), JEQ(SO_SNDBUFFORCE, 7, 0),
         JEQ(SO_RCVBUFFORCE, 6, 0), JEQ(SO_PASSPIDFD_, 6, 0), JEQ(SO_ATTACH_FILTER_, 5, 0),
         JEQ(SO_ATTACH_BPF_, 4, 0), JEQ(SO_ATTACH_REUSEPORT_CBPF_, 3, 0),
         JEQ(SO_ATTACH_REUSEPORT_EBPF_, 2, 0), ALLOW, ERRNO(0), ERRNO(ENOPROTOOPT));
    /* a process, or with THREADS a thread too, in the bot's namespaces (clone3's flags are
       in memory, where a filter cannot look: it is not listed, and C libraries fall back to
       clone) */
    RULE(p, __NR_clone, LOAD(args[0]),
         JSET(NEW_NAMESPACES | CLONE_PIDFD_ | (groups & THREADS ? 0 : CLONE_THREAD), 0, 1),
         ERRNO(EPERM), ALLOW);
    /* of its own process only: another of the same uid (the judge, as an ordinary user)
       keeps its limits, its CPUs and its priority */
    static const int own_only[] = {__NR_prlimit64, __NR_sched_setaffinity,
                                   __NR_sched_setscheduler, __NR_sched_setparam,
                                   __NR_sched_setattr};
    for (size_t k = 0; k < sizeof own_only / sizeof own_only[0]; k++)
        RULE(p, own_only[k], LOAD(args[0]), JEQ(0, 0, 1), ALLOW, ERRNO(EPERM));
    /* (PRIO_PROCESS, 0): its own priority, not its group's or its user's */
    RULE(p, __NR_setpriority, LOAD(args[0]), JEQ(0, 0, 3), LOAD(args[1]), JEQ(0, 0, 1),
         ALLOW, ERRNO(EPERM));
}

/* Without JIT, `mmap` and `mprotect` (at their place in `plain`, among the most frequent):
   no anonymous memory mapped executable, none made executable (EACCES, as a system that
   forbids it answers); a file's pages map as asked, as the dynamic linker maps libraries. */
static void exec_rule(struct program *p, int nr) {
    if (nr == __NR_mmap)
        RULE(p, nr, LOAD(args[2]), JSET(PROT_EXEC, 0, 2), LOAD(args[3]),
             JSET(MAP_ANONYMOUS, 1, 0), ALLOW, ERRNO(EACCES));
    else
        RULE(p, nr, LOAD(args[2]), JSET(PROT_EXEC, 0, 1), ERRNO(EACCES), ALLOW);
}

/* The filter of `groups` as a program: with `supervised`, `sysinfo` goes to the supervisor
   that listens (`answer_notice`), else to the kernel. */
static void build(struct program *p, int supervised, unsigned groups) {
    p->n = 0;
    p->code[p->n++] = LOAD(arch);
    p->code[p->n++] = JEQ(ARCH, 1, 0);
    p->code[p->n++] = RET(SECCOMP_RET_KILL_PROCESS);
    p->code[p->n++] = LOAD(nr);
#if defined(__x86_64__)
    /* the x32 numbers are another table, of which nothing is listed */
    p->code[p->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
    p->code[p->n++] = ERRNO(ENOSYS);
#endif
    for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++) {
        if (plain[k].group && !(plain[k].group & groups)) continue;
        if (exec_ruled(plain[k].nr, groups)) {
            exec_rule(p, plain[k].nr);
            continue;
        }
        p->code[p->n++] = JEQ((unsigned)plain[k].nr, 0, 1);
        p->code[p->n++] = ALLOW;
    }
    argument_rules(p, groups);
    /* the machine's memory, threads and load, which other bots move: told by the
       supervisor as figures that do not move (see `answer_notice`) */
    RULE(p, __NR_sysinfo, RET(supervised ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ALLOW));
    /* SIGCHLD's action stays the default, asked as it may be: a child reaped unseen as it
       ends (SIGCHLD ignored, SA_NOCLDWAIT) adds its CPU to no process's, where a wait adds
       it to the parent's, so that without cgroups the judge's sums never saw what such
       children used. A new action is taken and of no effect (Go and the shells set one,
       and stop where that fails); the supervisor tells the old one, the default (else 0,
       the old one not written). Any other signal's, and asking, go to the kernel */
    RULE(p, __NR_rt_sigaction, LOAD(args[0]), JEQ(SIGCHLD, 0, 4), LOAD(args[1]),
         JEQ(0, 0, 3), LOAD_HIGH(args[1]), JEQ(0, 0, 1), ALLOW,
         RET(supervised ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ERRNO));
    p->code[p->n++] = ERRNO(ENOSYS);  /* anything else: as if the kernel had no such call */
}

/* No new privileges, and the filter of `groups`: every call refused but those listed above.
   With `supervised`, the descriptor on which its `sysinfo` calls are to be answered (-1
   where the kernel cannot hand them over, before Linux 5.0: they then go to the kernel). */
int filter_calls(int supervised, unsigned groups) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) die("no_new_privs", NULL);
    static struct program p;
    if (supervised) {
        build(&p, 1, groups);
        struct sock_fprog prog = {(unsigned short)p.n, p.code};
        long fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
                          SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
        if (fd >= 0) return (int)fd;
    }
    build(&p, 0, groups);
    struct sock_fprog prog = {(unsigned short)p.n, p.code};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) die("seccomp", NULL);
    return -1;
}

/* the kernel's `struct sysinfo` (linux/sysinfo.h), which is what the caller's buffer holds
   (a C library's own may be larger: musl's has 256 bytes more) */
struct kernel_sysinfo {
    long uptime;
    unsigned long loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
    unsigned short procs, pad;
    unsigned long totalhigh, freehigh;
    unsigned int mem_unit;
    char rest[20 - 2 * sizeof(long) - sizeof(int) > 0 ? 20 - 2 * sizeof(long) - sizeof(int)
                                                      : 1];
};
_Static_assert(sizeof(long) != 8 || sizeof(struct kernel_sysinfo) == 112, "struct sysinfo");

/* Whether the bytes [at, at + size) of a process are all in writable mappings, as its
   `/proc/PID/maps` opened as `maps` says (then closed): where they are not, the kernel's
   own answer would fault (EFAULT), and /proc/PID/mem, which writes through page
   protections (a read-only or inaccessible page is written all the same), must not be
   used. (Another thread of the caller that changes a protection between this look and
   the write has that write in its own process's memory only.) */
static int writable(int maps, unsigned long at, unsigned long size) {
    FILE *in = fdopen(maps, "r");
    if (!in) return close(maps), 0;
    unsigned long need = at, end = at + size, start, stop;
    char perms[5];
    int ok = end > at;
    while (ok && need < end && fscanf(in, "%lx-%lx %4s%*[^\n]", &start, &stop, perms) == 3) {
        if (stop <= need) continue;
        ok = start <= need && perms[1] == 'w';  /* (a hole before it, or not writable) */
        need = stop;
    }
    fclose(in);
    return ok && need >= end;
}

/* the kernel's `struct sigaction` for rt_sigaction (both architectures have sa_restorer),
   and the size of its signal mask */
struct kernel_sigaction {
    unsigned long handler, flags, restorer, mask;
};
#define KERNEL_SIGSET_SIZE sizeof(unsigned long)

/* Answer one call the filter handed over on `listener`: `sysinfo`, with this machine's
   total memory, its uptime, and figures that no process moves (all of it free, no shared
   or buffer memory, no swap, no load, one process); `rt_sigaction` of SIGCHLD, whose
   action stays the default: done, and the old action told, the default. What is told is
   written into the caller's memory where the caller may write (EFAULT elsewhere, as the
   kernel answers). */
void answer_notice(int listener) {
    struct seccomp_notif req;
    struct seccomp_notif_resp resp;
    memset(&req, 0, sizeof req);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req)) return; /* (the caller is gone) */
    memset(&resp, 0, sizeof resp);
    resp.id = req.id;
    resp.error = -ENOSYS;
    /* what the call is told: `size` bytes of `told` at `at` in the caller's memory */
    union { struct kernel_sysinfo info; struct kernel_sigaction action; } told;
    memset(&told, 0, sizeof told);
    unsigned long at = 0;
    size_t size = 0;
    if (req.data.nr == __NR_sysinfo) {
        struct kernel_sysinfo real;
        if (!syscall(__NR_sysinfo, &real)) {
            told.info.uptime = real.uptime;
            told.info.totalram = told.info.freeram = real.totalram;
            told.info.procs = 1;
            told.info.mem_unit = real.mem_unit;
            at = (unsigned long)req.data.args[0];
            size = sizeof told.info;
        }
    } else if (req.data.nr == __NR_rt_sigaction) {
        if (req.data.args[3] != KERNEL_SIGSET_SIZE) resp.error = -EINVAL;
        else if (!req.data.args[2]) resp.error = 0;  /* (the old action not asked) */
        else at = (unsigned long)req.data.args[2], size = sizeof told.action;
    }
    char path[64];
    /* the caller's memory and its map opened first, then the call checked as still
       waiting: the process they hold is the caller, not one that took its pid since
       (process_vm_writev, which heeds page protections, names the process by its pid
       at the time of the write: a caller killed as it waits would free its thread's pid
       for another process to take, as the pid of the judge or of another bot) */
    int mem = -1, maps = -1;
    if (size) {
        snprintf(path, sizeof path, "/proc/%u/mem", req.pid);
        mem = open(path, O_WRONLY | O_CLOEXEC);
        snprintf(path, sizeof path, "/proc/%u/maps", req.pid);
        maps = mem >= 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    }
    if (maps >= 0 && ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id) == 0) {
        resp.error = writable(maps, at, size) &&
                             pwrite(mem, &told, size, (off_t)at) == (ssize_t)size ? 0 : -EFAULT;
        maps = -1;
    }
    if (maps >= 0) close(maps);
    if (mem >= 0) close(mem);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp)) {
        /* the caller is gone, or was killed as it waited */
    }
}
