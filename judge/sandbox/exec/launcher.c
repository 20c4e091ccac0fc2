/* The launcher a judge process keeps (see launcher.py): it lives in its slot's cgroups,
   forks a child per request that sets up and becomes the bot (see helper.c), holds the
   child's namespaces until it has reaped it, and reports how each child ended. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "exec.h"


#define MAX_MESSAGE (1 << 20)
#define MAX_FDS 64
#define MAX_KIDS 256

/* what the launcher started and has not seen end: the child, its report pipe, and the uid
   it runs the bot as (-u; -1: none) */
static struct {
    pid_t pid;
    int fd;
    long uid;
    int ns[2];
    int own_ipc;       /* whether it makes an IPC namespace of its own (-i) */
    int listener;      /* where its bot's filter hands over calls to answer (-1: none) */
} kids[MAX_KIDS];

/* a pidfd of the launcher itself, which a child cloned into a PID namespace of its own
   (-N) watches for the launcher's death (-1: none, before Linux 5.3) */
static int own_pidfd = -1;

/* the launcher's own oom_score_adj before it protected itself: its children get it back */
static char oom_adj[16] = "";

static void set_oom_adj(const char *value) {
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    if (write(fd, value, strlen(value)) < 0) { /* not allowed: left as it is */ }
    close(fd);
}

/* whether a request's helper options (before "--") hold the flag `opt` */
static int has_flag(char **argv, int argc, const char *opt) {
    for (int k = 1; k < argc && strcmp(argv[k], "--"); k++)
        if (!strcmp(argv[k], opt)) return 1;
    return 0;
}

/* report how child `pid` ended on its report pipe: "STATUS MAXRSS_KB UTIME_US STIME_US" */
static void report(pid_t pid, int status, const struct rusage *ru) {
    for (int k = 0; k < MAX_KIDS; k++) {
        if (kids[k].pid != pid) continue;
        dprintf(kids[k].fd, "%d %ld %lld %lld\n", status, ru->ru_maxrss,
                (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec,
                (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec);
        close(kids[k].fd);
        /* its namespaces are let go only now: their teardown (an RCU grace period for the
           mounts) delays neither the bot's exit nor the report */
        for (int j = 0; j < 2; j++)
            if (kids[k].ns[j] >= 0) close(kids[k].ns[j]);
        if (kids[k].listener >= 0) close(kids[k].listener);
        kids[k].listener = -1;
        kids[k].pid = 0;
        return;
    }
}

static void reap_all(void) {
    int status;
    struct rusage ru;
    pid_t pid;
    while ((pid = wait4(-1, &status, WNOHANG, &ru)) > 0) report(pid, status, &ru);
}

/* SIGKILL every child the launcher still has, its own and the orphans it took in as their
   subreaper (one that ignores SIGTERM, or was started as the judge died, before it could
   ask to die with its parent); the number signalled (0: none left) */
static int kill_children(void) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0) return 0;
    buf[got] = 0;
    int n = 0;
    for (char *p = buf, *end;; p = end) {
        long pid = strtol(p, &end, 10);
        if (end == p) break;
        if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0) n++;
    }
    return n;
}

/* SIGKILL every process of `uid` (from a child that becomes it: kill(-1) reaches all the
   processes of its own uid but itself), and wait for that child */
static void kill_uid(long uid) {
    pid_t pid = fork();
    if (pid == 0) {
        if (become(uid)) _exit(126);
        kill(-1, SIGKILL);
        _exit(0);
    }
    if (pid > 0) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    }
}

/* the value of option `opt` among a request's helper arguments (before "--"), or NULL */
static const char *option(char **argv, int argc, const char *opt) {
    for (int k = 1; k + 1 < argc && strcmp(argv[k], "--"); k++)
        if (!strcmp(argv[k], opt)) return argv[k + 1];
    return NULL;
}

/* close every descriptor from `from` up but those in `keep` (sorted) */
static void close_all_but(int from, const int *keep, int nkeep) {
    for (int k = 0; k <= nkeep; k++) {
        unsigned int last = k < nkeep ? (unsigned int)keep[k] - 1 : ~0U;
        if ((unsigned int)from <= last && syscall(SYS_close_range, from, last, 0)) {
            for (unsigned int fd = from; fd <= last && fd < 65536; fd++) close((int)fd);
        }
        if (k < nkeep && keep[k] + 1 > from) from = keep[k] + 1;
    }
}

/* read what the launcher's signalfd holds; whether SIGTERM (the judge's death) was in it */
static int drain_signals(int sfd) {
    struct signalfd_siginfo info;
    int term = 0;
    while (read(sfd, &info, sizeof info) > 0)
        if (info.ssi_signo == SIGTERM) term = 1;
    return term;
}

static int by_number(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* Hold the private namespaces that child `k` makes (if it makes any): it writes "n" on
   `ready` once they are made, or closes it without a word. Its mount and IPC namespaces
   are then kept open until it is reaped, never longer: no game sees another's. */
static void hold(int k, int ready) {
    struct pollfd polled = {ready, POLLIN, 0};
    char word = 0;
    kids[k].ns[0] = kids[k].ns[1] = -1;
    if (poll(&polled, 1, 2000) == 1 && read(ready, &word, 1) == 1 && word == 'n') {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)kids[k].pid);
        kids[k].ns[0] = open(path, O_RDONLY | O_CLOEXEC);
        if (kids[k].own_ipc) {
            snprintf(path, sizeof path, "/proc/%d/ns/ipc", (int)kids[k].pid);
            kids[k].ns[1] = open(path, O_RDONLY | O_CLOEXEC);
        }
    }
    close(ready);
}

/* in the forked child: the request's descriptors where the judge asked for them, its
   environment and folder, a session of its own; then the helper with its arguments */
static void start_child(char **argv, int argc, char **env, const char *cwd, int *fds,
                        int nfds, const int *targets, int ready, int notice, int pidfd) {
    sigset_t none;
    sigemptyset(&none);
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (oom_adj[0]) set_oom_adj(oom_adj);
    if (setsid() < 0) die("setsid", NULL);
    int base = 3, keep[MAX_FDS + 3], nkeep = 0;
    for (int k = 0; k < nfds; k++)
        if (targets[k] >= base) base = targets[k] + 1;
    /* every descriptor to keep moved above the targets first: the launcher's own (the
       ready pipe) may have the number that one of the judge's gets here */
    if ((ready_fd = fcntl(ready, F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
    keep[nkeep++] = ready_fd;
    if (notice >= 0) {
        if ((notice_fd = fcntl(notice, F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
        keep[nkeep++] = notice_fd;
    }
    if (pidfd >= 0) {
        if ((parent_pidfd = fcntl(pidfd, F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
        keep[nkeep++] = parent_pidfd;
    }
    for (int k = 0; k < nfds; k++) {
        if (targets[k] < 0) continue;
        if ((fds[k] = fcntl(fds[k], F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
    }
    for (int k = 0; k < nfds; k++) {
        if (targets[k] < 0) continue;
        if (dup2(fds[k], targets[k]) < 0) die("dup2", NULL);
        if (targets[k] >= 3) keep[nkeep++] = targets[k];
    }
    qsort(keep, nkeep, sizeof keep[0], by_number);
    close_all_but(3, keep, nkeep);
    if (chdir(cwd)) die("chdir", cwd);
    environ = env;
    _exit(helper(argc, argv));
}

/* what a child of the launcher starts from (see `spawned`) */
struct spawn {
    char **argv, **env;
    int argc, nfds, ready, sock, sfd, ready_read;
    const char *cwd;
    int *fds;
    const int *targets;
    pid_t launcher;
    int notice;  /* (-1, or where the child sends its filter's listener) */
    int pidfd;   /* (-1, or the launcher's pidfd, for a child in a PID namespace of its own) */
};

/* A child of the launcher: it lets go of the launcher's own descriptors, then sets up and
   becomes the bot. It may run in the launcher's memory (see `launcher`): it writes there
   only what the launcher resets once it is back (the helper's globals and `environ`). */
static int spawned(void *arg) {
    struct spawn *s = arg;
    int fds[MAX_FDS];  /* (moved about by the child: the launcher's list stays as it is) */
    memcpy(fds, s->fds, sizeof fds[0] * (size_t)s->nfds);
    launcher_parent = s->launcher;
    close(s->sock);
    close(s->sfd);
    close(s->ready_read);
    start_child(s->argv, s->argc, s->env, s->cwd, fds, s->nfds, s->targets, s->ready,
                s->notice, s->pidfd);
    return 126;
}

/* the stack of a child that shares the launcher's memory until its exec */
static char spawn_stack[1 << 18] __attribute__((aligned(64)));

/* The launcher dies with PPID (as SIGTERM: see below). Requests come on `sock`
   (SOCK_SEQPACKET), one message each: NUL-ended strings, the
   number of arguments and each of them, the number of environment entries and each, the
   folder to start in, the number of descriptors and, for each, the number it gets in the
   child (-1: not passed on); the descriptors themselves come with it (SCM_RIGHTS), the
   first being the write end of the report pipe (target -1). The answer is the child's pid
   as a 4-byte int (negative: an errno, nothing started). When the child ends, reaped here,
   a line on its report pipe says how (see `report`). */
int launcher(int argc, char **argv) {
    const char *spec = argv[2];
    int sock = atoi(spec);
    const char *colon = strchr(spec, ':');
    pid_t judge = colon ? (pid_t)atol(colon + 1) : 0;
    /* SIGCHLD and the judge's death (SIGTERM) are read from a signalfd; the judge's
       death ends the launcher as the judge's end does (below), so that what it started
       is reaped here, not left to the judge's parent or an init that may never reap */
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigaddset(&chld, SIGTERM);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) die("signalfd", NULL);
    if (prctl(PR_SET_PDEATHSIG, SIGTERM)) die("pdeathsig", NULL);
    if (judge && getppid() != judge) _exit(126);
    /* what a starter leaves when it is killed with its slot comes here and is reaped:
       a zombie left to an init that never reaps would count against the slot for ever */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1)) die("subreaper", NULL);
#ifdef SYS_pidfd_open
    own_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);  /* (close-on-exec) */
#endif
    /* never the kernel's choice when a slot runs out of memory (a bot that fills its
       tmpfs, with little of its own resident, would otherwise make it the largest) */
    int adj = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC);
    if (adj >= 0) {
        ssize_t got = read(adj, oom_adj, sizeof oom_adj - 1);
        oom_adj[got > 0 ? got : 0] = 0;
        close(adj);
        if (got > 0) set_oom_adj("-1000");
    }
    for (int k = 3; k + 1 < argc; k += 2) {
        if (strcmp(argv[k], "-c")) { errno = EINVAL; die("bad option", argv[k]); }
        join_cgroup(atoi(argv[k + 1]));
    }
    signal(SIGPIPE, SIG_IGN);
    static char buf[MAX_MESSAGE + 1];
    static char *ptrs[MAX_MESSAGE / 2 + 4];
    union {
        char space[CMSG_SPACE(sizeof(int) * MAX_FDS)];
        struct cmsghdr align;
    } control;
    for (int k = 0; k < MAX_KIDS; k++) kids[k].listener = -1;
    for (;;) {
        /* the judge's requests, signals, and the listeners of the bots it started */
        struct pollfd polled[2 + MAX_KIDS] = {{sock, POLLIN, 0}, {sfd, POLLIN, 0}};
        int npolled = 2, whose[MAX_KIDS];
        for (int k = 0; k < MAX_KIDS; k++)
            if (kids[k].pid && kids[k].listener >= 0) {
                whose[npolled - 2] = k;
                polled[npolled++] = (struct pollfd){kids[k].listener, POLLIN, 0};
            }
        if (poll(polled, (nfds_t)npolled, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll", NULL);
        }
        for (int j = 2; j < npolled; j++) {
            int kid = whose[j - 2];
            if (polled[j].revents & POLLIN) {
                answer_notice(kids[kid].listener);
            } else if (polled[j].revents) {  /* (no process of it left to call) */
                close(kids[kid].listener);
                kids[kid].listener = -1;
            }
        }
        if (polled[1].revents) {
            int judge_gone = drain_signals(sfd);
            reap_all();
            if (judge_gone) break;
        }
        if (!polled[0].revents) continue;
        struct iovec iov = {buf, MAX_MESSAGE};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.space;
        msg.msg_controllen = sizeof control.space;
        ssize_t got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break; /* the judge is done (or gone) */
        buf[got] = 0;
        int fds[MAX_FDS], nfds = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
            int n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int k = 0; k < n; k++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + k * sizeof(int), sizeof fd);
                if (nfds < MAX_FDS) fds[nfds++] = fd;
                else close(fd);
            }
        }
        /* split the strings */
        int nptrs = 0;
        for (char *p = buf; p < buf + got; p += strlen(p) + 1) ptrs[nptrs++] = p;
        int at = 0, answer = -EINVAL, slot = -1, targets[MAX_FDS];
        int argc = at < nptrs ? atoi(ptrs[at++]) : -1;
        char **argv = ptrs + at;
        at += argc > 0 ? argc : 0;
        int envc = at < nptrs ? atoi(ptrs[at++]) : -1;
        char **env = ptrs + at;
        at += envc > 0 ? envc : 0;
        char *cwd = at < nptrs ? ptrs[at++] : NULL;
        int ntargets = at < nptrs ? atoi(ptrs[at++]) : -1;
        for (int k = 0; k < ntargets && k < MAX_FDS && at < nptrs; k++)
            targets[k] = atoi(ptrs[at++]);
        for (int k = 0; k < MAX_KIDS && slot < 0; k++)
            if (!kids[k].pid) slot = k;
        if (slot < 0) answer = -EAGAIN;
        pid_t pid = -1;
        int ready[2] = {-1, -1}, listener = -1;
        int valid = argc > 0 && envc >= 0 && cwd && ntargets == nfds && nfds >= 1 &&
                    at == nptrs && slot >= 0;
        if (valid && pipe2(ready, O_CLOEXEC) < 0) {
            answer = -errno;  /* (nothing started) */
            valid = 0;
        }
        const char *as = valid ? option(argv, argc, "-u") : NULL;
        if (valid) {
            struct spawn s = {argv, env, argc, nfds, ready[1], sock, sfd, ready[0], cwd, fds,
                              targets, getpid(), -1, -1};
            argv[argc] = NULL; /* (all parsed) */
            env[envc] = NULL;
            char **own_env = environ;
            /* A child that becomes the bot shares the launcher's memory until its exec,
               the launcher waiting (as vfork): no copy of the launcher's page tables, no
               copy-on-write faults, no TLB flush per game. One that stays as a reaper
               (-x, -R) gets a copy (fork): the launcher must not wait for it; so does one
               that copies files (-f), which allocates (in the launcher's heap, else). */
            if (has_flag(argv, argc, "-N")) {
                /* PID 1 of a PID namespace made for this game (a copy, as fork): the
                   bot's reaper, whose /proc shows the bot nothing of other games */
                s.pidfd = own_pidfd;
                pid = clone(spawned, spawn_stack + sizeof spawn_stack, CLONE_NEWPID | SIGCHLD,
                            &s);
            } else if (has_flag(argv, argc, "-x") || has_flag(argv, argc, "-R") ||
                       has_flag(argv, argc, "-f")) {
                pid = fork();
                if (pid == 0) _exit(spawned(&s));
            } else {
                /* the child that becomes the bot sends its filter's listener back: its
                   calls of sysinfo are answered here (see `answer_notice`) */
                int notice[2] = {-1, -1};
                if (has_flag(argv, argc, "-s") &&
                    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, notice) == 0)
                    s.notice = notice[1];
                pid = clone(spawned, spawn_stack + sizeof spawn_stack,
                            CLONE_VM | CLONE_VFORK | SIGCHLD, &s);
                if (notice[1] >= 0) close(notice[1]);
                if (notice[0] >= 0) {  /* (its exec or its end is behind us: no wait) */
                    listener = pid > 0 ? receive_fd(notice[0]) : -1;
                    close(notice[0]);
                }
            }
            answer = pid < 0 ? -errno : pid;
            environ = own_env;  /* (what a child in this memory set for itself) */
            launcher_parent = 0;
            ready_fd = notice_fd = parent_pidfd = -1;
            close(ready[1]);
            if (pid > 0) {
                kids[slot].pid = pid;
                kids[slot].fd = fds[0];
                kids[slot].uid = as ? atol(as) : -1;
                kids[slot].own_ipc = has_flag(argv, argc, "-i");
                kids[slot].ns[0] = kids[slot].ns[1] = -1;
                kids[slot].listener = listener;
                listener = -1;
                fds[0] = -1;
            }
        }
        if (listener >= 0) close(listener);  /* (no child to answer for) */
        for (int k = 0; k < nfds; k++)
            if (fds[k] >= 0) close(fds[k]);
        int32_t word = answer;  /* answered first: the judge goes on while a child is held */
        if (send(sock, &word, sizeof word, MSG_NOSIGNAL) != sizeof word) break;
        if (pid > 0) hold(slot, ready[0]);
        else if (ready[0] >= 0) close(ready[0]);
    }
    /* the judge is done (or gone): every process of the uids of what it started and has
       not seen end is killed (a bot started directly, and all it left, wherever it went);
       what is left is told to end (a starter then kills what its bot left), and all is
       reaped here, for up to 5 s */
    for (int k = 0; k < MAX_KIDS; k++) {
        if (!kids[k].pid || kids[k].uid < 0) continue;
        int seen = 0;
        for (int j = 0; j < k; j++) seen |= kids[j].pid && kids[j].uid == kids[k].uid;
        if (!seen) kill_uid(kids[k].uid);
    }
    for (int k = 0; k < MAX_KIDS; k++)
        if (kids[k].pid) kill(kids[k].pid, SIGTERM);
    for (int waited = 0; waited < 50; waited++) {
        reap_all();
        siginfo_t left;
        if (waitid(P_ALL, 0, &left, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD) break;
        struct pollfd polled = {sfd, POLLIN, 0};
        if (poll(&polled, 1, 100) > 0) drain_signals(sfd);
    }
    /* what is still here is killed: nothing the judge started outlives the launcher */
    for (int round = 0; round < 20 && kill_children(); round++) {
        struct pollfd polled = {sfd, POLLIN, 0};
        if (poll(&polled, 1, 50) > 0) drain_signals(sfd);
        reap_all();
    }
    return 0;
}
