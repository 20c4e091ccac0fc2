/* The bot's system call filter: no new privileges, no new user namespaces, nothing that
   outlives the game in the kernel or is shared with other games (see docs/sandbox.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "exec.h"

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif
#if defined(ARCH) && !(defined(__NR_clone3) && defined(__NR_io_uring_setup))
/* a C library whose tables lack them would build a filter without their rules: the judge
   then builds with another compiler */
#error "system call numbers of clone3 or io_uring missing"
#endif

/* (numbers that older headers lack) */
#ifndef __NR_cachestat
#define CACHESTAT 451
#else
#define CACHESTAT __NR_cachestat
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x8
#endif
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif
#define MADV_COLD_ 20
#define MADV_PAGEOUT_ 21

#define DENY(nr, err)                                                \
    do {                                                             \
        code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1); \
        code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err)); \
    } while (0)

/* No new user namespaces; and nothing that outlives the bot in per-uid kernel state (the
   keyrings of its slot's uid), nor io_uring (whose operations seccomp does not see), nor
   perf events. */
void filter_calls(void) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) die("no_new_privs", NULL);
#ifdef ARCH
    struct sock_filter code[128];
    int n = 0;
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, arch));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    /* the x32 numbers of the same calls would pass the checks below */
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
#endif
#ifdef __NR_clone3
    DENY(__NR_clone3, ENOSYS); /* its flags are in memory: say it does not exist */
#endif
    DENY(__NR_setns, EPERM);
    DENY(__NR_keyctl, ENOSYS);
    DENY(__NR_add_key, ENOSYS);
    DENY(__NR_request_key, ENOSYS);
#ifdef __NR_io_uring_setup
    DENY(__NR_io_uring_setup, ENOSYS);
    DENY(__NR_io_uring_enter, ENOSYS);
    DENY(__NR_io_uring_register, ENOSYS);
#endif
    DENY(__NR_perf_event_open, EPERM);
    /* no other process's memory or descriptors: as an ordinary user, bwrap's PID 1 runs as
       the bot's uid, dumpable and without this filter */
    DENY(__NR_ptrace, EPERM);
    DENY(__NR_process_vm_readv, EPERM);
    DENY(__NR_process_vm_writev, EPERM);
    DENY(__NR_process_madvise, EPERM);
    DENY(__NR_pidfd_getfd, EPERM);
    /* no timestamps set on files that a later game sees (the host's /dev without bwrap) */
    DENY(__NR_utimensat, EPERM);
#ifdef __NR_utimes
    DENY(__NR_utimes, EPERM);
    DENY(__NR_utime, EPERM);
    DENY(__NR_futimesat, EPERM);
#endif
    /* the page cache of the system's files, which every game shares: no eviction (advice
       taken and ignored), no look at what is in it */
    DENY(__NR_fadvise64, 0);
    DENY(__NR_mincore, ENOSYS);
    DENY(CACHESTAT, ENOSYS);
    /* memory that no process maps, which the judge's own sums (no cgroups) would miss */
    DENY(__NR_memfd_create, ENOSYS);
    /* locks on shared files, which bots playing at once would both see: taken and
       released as asked, but of no effect (asked about, there is none to tell) */
    DENY(__NR_flock, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fcntl, 0, 10);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, args[1]));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_GETLK, 5, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_OFD_GETLK, 4, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETLK, 4, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETLKW, 3, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_OFD_SETLK, 2, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_OFD_SETLKW, 1, 2);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOLCK);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    /* reads that say whether a page is cached (RWF_NOWAIT) */
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_preadv2, 1, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_pwritev2, 0, 4);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, args[5]));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RWF_NOWAIT, 0, 1);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EOPNOTSUPP);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    /* advice that evicts a file's pages: taken and ignored */
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_madvise, 0, 5);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, args[2]));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MADV_COLD_, 1, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MADV_PAGEOUT_, 0, 1);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    /* sockets of the families programs use (local, IP, and netlink, by which the C library
       asks for the addresses): no other, some of which the kernel keeps outside the network
       namespace (AF_VSOCK reaches the hypervisor) or which leave in it what the judge does
       not see, for a later game in the same namespace to find */
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socketpair, 0, 7);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, args[0]));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 4, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAFNOSUPPORT);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unshare, 1, 0);
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, args[0]));
    code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {(unsigned short)n, code};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) die("seccomp", NULL);
#endif
}
