/* judge-exec: confine this process, then exec the bot.
 *
 * The judge starts every bot through this helper, so that Python can spawn it with vfork
 * (no fork of the judge, no Python in the child) and the set-up is a handful of system
 * calls. Options, in the order they are applied whatever the order given:
 *
 *   -p PPID        die with the judge (PR_SET_PDEATHSIG); exit if PPID is already gone
 *   -c FD          join a cgroup: write "0" to FD (an open cgroup.procs), then close it
 *   -m FD          (as root) enter the mount namespace FD (the judge's without what bwrap
 *                  never shows: see `lean_mount_namespace`), then close it
 *   -z FD          write "0" to FD (a cgroup's counter: CPU used, peak memory) last before
 *                  the exec, then close it: what started the bot is not counted as its own
 *   -k PATH        (as root) make PATH reachable: bind it back under -K covers
 *   -K DIR         (as root) cover DIR with an empty read-only tmpfs (hides the rest of it)
 *   -T DIR         (as root) a private tmpfs of -w's SIZE on DIR (a /tmp), the bot's own
 *                  (-u's uid, mode 0700: no other uid can put anything in it)
 *   -w SIZE:DIR    (as root) mount a private tmpfs of SIZE bytes on DIR, owned by -u
 *   -f DIR         (as root) copy the regular files of DIR into -w's tmpfs
 *   -i             (as root) private IPC and network namespaces, made for this game (the
 *                  network's loopback up)
 *   -r R:SOFT:HARD set resource limit R (numbers; -1 is unlimited)
 *   -o PATH        (as root) give PATH to -u's uid (chown, not following a link)
 *   -x FD          stay as the bot's parent and reaper of all it leaves, and write its wait
 *                  status to FD ("S9", "E0")
 *   -R             the same without the report (around bwrap, whose PID 1 outlives it)
 *   -u UID         drop every group and become UID (gid UID), losing all capabilities
 *   -s             no new privileges, no new user namespaces, no keyrings, io_uring or perf
 *                  events, no sockets but local, IP and netlink ones (seccomp)
 *   -d DIR         change to DIR last
 *
 * Everything after "--" is the command. Started as /proc/self/fd/N (by bwrap, given a
 * descriptor of the helper's file), it does not pass N on. A failure exits with status 126
 * and a message on stderr, which the judge reports as the bot's crash.
 *
 * `judge-exec -L FD:PPID [-c FD]...` is a launcher that a judge process keeps: it dies with
 * PPID, joins the cgroups given (so that what it forks is born in them, with no migration
 * per game), and for each request on the socket FD forks a child that does all of the
 * above (no exec of the helper per game). Without -x the child becomes the bot: the
 * launcher is its parent and reports how it ended. It holds the private namespaces a child
 * makes until it has reaped it, and when the judge is done or gone it kills every process
 * of the uids (-u) it started bots as. See `launcher()` for requests and reports.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ITEMS 32

/* in a child of the launcher: the launcher's pid, the parent that -p names */
static pid_t launcher_parent = 0;
/* in a child of the launcher: where it says that its private namespaces are made ("n"),
   or closes without a word (none made), so that the launcher holds them (see `hold`) */
static int ready_fd = -1;

static volatile sig_atomic_t judge_gone = 0;

static void on_term(int sig) {
    (void)sig;
    judge_gone = 1;
}

/* SIGKILL every descendant of `pid` that /proc lists now (the children of each of its
   threads, theirs, ...). What one of them forks meanwhile comes back to this process, their
   subreaper, once its parent is dead: the caller repeats until it has no child left. */
static void kill_descendants(pid_t pid, int depth) {
    char path[64], line[4096];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) return;
    struct dirent *task;
    while ((task = readdir(tasks))) {
        if (task->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/%d/task/%.16s/children", (int)pid, task->d_name);
        FILE *fh = fopen(path, "re");
        if (!fh) continue;
        size_t got = fread(line, 1, sizeof line - 1, fh);
        fclose(fh);
        line[got] = 0;
        char *rest = NULL;  /* strtok_r: the recursion below has its own */
        for (char *word = strtok_r(line, " \n", &rest); word;
             word = strtok_r(NULL, " \n", &rest)) {
            pid_t kid = (pid_t)atoi(word);
            if (kid <= 0) continue;
            kill(kid, SIGSTOP); /* no more forks while its own children are listed */
            if (depth < 64) kill_descendants(kid, depth + 1);
            kill(kid, SIGKILL);
        }
    }
    closedir(tasks);
}

/* (a message formatted on the stack and written at once: no stream of the C library, whose
   list a child in the launcher's or reaper's memory would share) */
static void die(const char *what, const char *arg) {
    char line[512];
    int n = snprintf(line, sizeof line, "judge-exec: %s %s: %s\n", what, arg ? arg : "",
                     strerror(errno));
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) {
        /* nowhere to say it */
    }
    _exit(126);
}

/* the credential system calls (those of 32-bit ids, where the first ones took 16) */
#ifdef SYS_setresuid32
#define SYS_SETRESUID SYS_setresuid32
#define SYS_SETRESGID SYS_setresgid32
#define SYS_SETGROUPS SYS_setgroups32
#else
#define SYS_SETRESUID SYS_setresuid
#define SYS_SETRESGID SYS_setresgid
#define SYS_SETGROUPS SYS_setgroups
#endif

/* drop every group and become `uid` (gid `uid`), losing all capabilities: NULL, or the
   name of the call that failed (the system calls themselves, for this process alone: the
   C library's wrappers may take a lock of its own to apply them to every thread, which a
   child killed meanwhile would leave taken in the memory it shares with its parent) */
static const char *become(long uid) {
    if (syscall(SYS_SETGROUPS, 0, NULL)) return "setgroups";
    if (syscall(SYS_SETRESGID, uid, uid, uid)) return "setresgid";
    if (syscall(SYS_SETRESUID, uid, uid, uid)) return "setresuid";
    return NULL;
}

/* join the cgroup whose cgroup.procs `fd` is open, then close it */
static void join_cgroup(int fd) {
    if (write(fd, "0", 1) != 1) die("join cgroup", NULL);
    close(fd);
}

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
static void no_user_namespaces(void) {
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

/* mkdir -p the parents of path, then the mount point itself (a directory or a file) */
static void mount_point(const char *path, int is_dir) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) && errno != EEXIST) die("mkdir", buf);
            *p = '/';
        }
    }
    if (is_dir) {
        if (mkdir(buf, 0755) && errno != EEXIST) die("mkdir", buf);
    } else {
        /* (never waiting: a FIFO in the way fails, it does not stop the launcher) */
        int fd = open(buf, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
        if (fd < 0) die("create", buf);
        close(fd);
    }
}

static void copy_files(int from, const char *to_dir, uid_t uid) {
    DIR *dir = fdopendir(from);
    if (!dir) die("opendir", to_dir);
    int to = open(to_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (to < 0) die("open", to_dir);
    struct dirent *ent;
    char buf[65536];
    while ((ent = readdir(dir))) {
        if (ent->d_type != DT_REG) continue;
        int in = openat(dirfd(dir), ent->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        int out = openat(to, ent->d_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (in < 0 || out < 0) die("copy", ent->d_name);
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, n) != n) die("copy", ent->d_name);
        if (fchown(out, uid, uid)) die("chown", ent->d_name);
        close(in);
        close(out);
    }
    closedir(dir);
    close(to);
}

/* bring the loopback of a new network namespace up, as bwrap does for its own */
static void loopback_up(void) {
    struct ifreq ifr;
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0) die("socket", "lo");
    memset(&ifr, 0, sizeof ifr);
    memcpy(ifr.ifr_name, "lo", 3);
    if (ioctl(sock, SIOCGIFFLAGS, &ifr)) die("ioctl", "lo");
    ifr.ifr_flags |= IFF_UP;
    if (ioctl(sock, SIOCSIFFLAGS, &ifr)) die("ioctl", "lo");
    close(sock);
}

/* what the bot's side of the helper still does once its namespaces are made: join, limit,
   become the bot's uid, filter, then exec */
struct bot {
    char **command;
    long uid, ppid;
    int ncg, nlim, nown, nreset, seccomp, status_fd;
    int *cgroups, *resets;
    long long (*lims)[3];
    char **own;
    const char *chdir_to;
};

static int become_bot(struct bot *b) {
    for (int k = 0; k < b->ncg; k++) join_cgroup(b->cgroups[k]);
    for (int k = 0; k < b->nlim; k++) {
        struct rlimit rl = {(rlim_t)b->lims[k][1], (rlim_t)b->lims[k][2]};
        if (syscall(SYS_prlimit64, 0, (int)b->lims[k][0], &rl, NULL)) die("setrlimit", NULL);
    }
    for (int k = 0; k < b->nown; k++)
        if (b->uid >= 0 && lchown(b->own[k], b->uid, b->uid)) die("chown", b->own[k]);
    const char *failed = b->uid >= 0 ? become(b->uid) : NULL;
    if (failed) die(failed, NULL);
    if (b->ppid >= 0) {  /* after the change of uid, which clears it */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL)) die("pdeathsig", NULL);
        if (getppid() != b->ppid) _exit(126);
    }
    if (b->seccomp) no_user_namespaces();
    if (b->chdir_to && chdir(b->chdir_to)) die("chdir", b->chdir_to);
    for (int k = 0; k < b->nreset; k++) {
        if (write(b->resets[k], "0", 1) != 1) die("reset counter", NULL);
        close(b->resets[k]);
    }
    /* every signal as a new process has it, whatever the judge ignored or blocked (under
       nohup, SIGHUP) and the reaper waits for: an ignored disposition survives exec */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(b->command[0], b->command);
    if (errno == ENOEXEC && strchr(b->command[0], '/')) {
        /* a script without "#!": run by the shell, as glibc's execvp does (musl's does not) */
        int n = 0;
        while (b->command[n]) n++;
        char *shell[n + 2];
        shell[0] = "sh";
        memcpy(shell + 1, b->command, sizeof shell[0] * (size_t)(n + 1));
        execv("/bin/sh", shell);
        errno = ENOEXEC;
    }
    die("exec", b->command[0]);
    return 126;
}

/* The bot's side of a reaper (see `helper`): it runs in the reaper's memory until its exec,
   the reaper waiting (as vfork), and writes there only into `b`. */
static int reaped_bot(void *arg) {
    struct bot *b = arg;
    if (b->status_fd >= 0) close(b->status_fd);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    if (b->ppid >= 0) b->ppid = getppid();
    return become_bot(b);
}

/* the stack of the bot's side of a reaper */
static char reaper_stack[1 << 16] __attribute__((aligned(64)));

static int helper(int argc, char **argv) {
    long ppid = -1, uid = -1, work_size = 0;
    int cgroups[MAX_ITEMS], ncg = 0, resets[MAX_ITEMS], nreset = 0, nkeep = 0, ncover = 0, nlim = 0, seccomp = 0;
    char *keep[MAX_ITEMS], *cover[MAX_ITEMS], *own[MAX_ITEMS], *work = NULL, *chdir_to = NULL;
    char *temp[MAX_ITEMS], *files_from = NULL;
    int nown = 0, status_fd = -1, ntemp = 0, new_ipc = 0, reaper = 0;
    int mnt_fd = -1;
    long long lims[MAX_ITEMS][3];
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "-s")) { seccomp = 1; continue; }
        if (!strcmp(opt, "-i")) { new_ipc = 1; continue; }
        if (!strcmp(opt, "-R")) { reaper = 1; continue; }
        if (!val || opt[0] != '-' || opt[2]) { errno = EINVAL; die("bad option", opt); }
        i++;
        switch (opt[1]) {
        case 'p': ppid = launcher_parent ? launcher_parent : atol(val); break;
        case 'c': if (ncg < MAX_ITEMS) cgroups[ncg++] = atoi(val); break;
        case 'z': if (nreset < MAX_ITEMS) resets[nreset++] = atoi(val); break;
        case 'k': if (nkeep < MAX_ITEMS) keep[nkeep++] = val; break;
        case 'K': if (ncover < MAX_ITEMS) cover[ncover++] = val; break;
        case 'T': if (ntemp < MAX_ITEMS) temp[ntemp++] = val; break;
        case 'f': files_from = val; break;
        case 'w': work_size = atol(val); work = strchr(val, ':') + 1; break;
        case 'r':
            if (nlim < MAX_ITEMS &&
                sscanf(val, "%lld:%lld:%lld", &lims[nlim][0], &lims[nlim][1], &lims[nlim][2]) == 3)
                nlim++;
            break;
        case 'u': uid = atol(val); break;
        case 'o': if (nown < MAX_ITEMS) own[nown++] = val; break;
        case 'x': status_fd = atoi(val); break;
        case 'd': chdir_to = val; break;
        case 'm': mnt_fd = atoi(val); break;
        default: errno = EINVAL; die("bad option", opt);
        }
    }
    if (i + 1 >= argc) { errno = EINVAL; die("no command", NULL); }
    struct bot bot = {argv + i + 1, uid, ppid, ncg, nlim, nown, nreset, seccomp, status_fd,
                      cgroups, resets, lims, own, chdir_to};

    if (mnt_fd >= 0) {  /* (its root and working folder are then the namespace's root) */
        if (setns(mnt_fd, CLONE_NEWNS)) die("setns", "mount namespace");
        close(mnt_fd);
    }
    /* the private namespaces are made before the reaper forks, so that the reaper holds
       them: the bot's exit is then not slowed by their teardown (an RCU grace period
       for the mounts), which happens when the reaper ends, after it has reported */
    int mounts = nkeep || ncover || ntemp || work;  /* (a private mount namespace for them) */
    /* every game gets namespaces of its own, made here: nothing an earlier game did in
       them (System V ids, network counters, tmpfs inode numbers) is there to be seen */
    if (new_ipc) {
        if (unshare(CLONE_NEWIPC | CLONE_NEWNET)) die("unshare", "ipc and network namespaces");
        loopback_up();
    }
    if (mounts) {
        int kept[MAX_ITEMS], from = -1;
        struct stat st;
        char opts[128];
        if (unshare(CLONE_NEWNS)) die("unshare", "mount namespace");
        if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL)) die("mount", "/");
        /* opened in the new namespace, before covering: bound back after it */
        for (int k = 0; k < nkeep; k++)
            if ((kept[k] = open(keep[k], O_PATH | O_CLOEXEC)) < 0) die("open", keep[k]);
        if (files_from && (from = open(files_from, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
            die("open", files_from);
        for (int k = 0; k < ncover; k++)
            if (mount("tmpfs", cover[k], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m"))
                die("cover", cover[k]);
        /* the bot's own (not open to other uids: nothing of theirs can come in, even
           through a folder passed on to them, so that a kept namespace stays its own) */
        if (uid >= 0)
            snprintf(opts, sizeof opts, "mode=0700,uid=%ld,gid=%ld,size=%ld", uid, uid,
                     work_size > 0 ? work_size : 1L << 24);
        else
            snprintf(opts, sizeof opts, "mode=1777,size=%ld", work_size > 0 ? work_size : 1L << 24);
        for (int k = 0; k < ntemp; k++)
            if (mount("tmpfs", temp[k], "tmpfs", MS_NOSUID | MS_NODEV, opts))
                die("tmpfs", temp[k]);
        for (int k = 0; k < nkeep; k++) {
            char path[64];
            if (fstat(kept[k], &st)) die("stat", keep[k]);
            mount_point(keep[k], S_ISDIR(st.st_mode));
            snprintf(path, sizeof path, "/proc/self/fd/%d", kept[k]);
            if (mount(path, keep[k], NULL, MS_BIND | MS_REC, NULL)) die("bind", keep[k]);
            close(kept[k]);
        }
        for (int k = 0; k < ncover; k++)
            if (mount(NULL, cover[k], NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
                die("remount", cover[k]);
        if (work) {
            snprintf(opts, sizeof opts, "size=%ld,mode=0700,uid=%ld,gid=%ld", work_size,
                     uid < 0 ? (long)getuid() : uid, uid < 0 ? (long)getgid() : uid);
            if (mount("tmpfs", work, "tmpfs", MS_NOSUID | MS_NODEV, opts)) die("mount", work);
            if (from >= 0) copy_files(from, work, uid < 0 ? getuid() : (uid_t)uid);
        }
    }
    if (ready_fd >= 0) {  /* (before any fork: no other process may keep it open) */
        if ((new_ipc || mounts) && write(ready_fd, "n", 1) != 1) {
            /* not held by the launcher: torn down as the bot exits, only later */
        }
        close(ready_fd);
        ready_fd = -1;
    }
    if (status_fd >= 0 || reaper) {
        /* stay as the bot's parent and reaper of all it leaves (orphans come here, not to
           an init that may never reap them), and report the bot's own wait status:
           through bwrap it would arrive as 128 + signal, like an exit with that status */
        if (ppid >= 0) {
            /* the judge's death is a SIGTERM here: with a uid of the bot's own every
               process of that uid is then killed, else every descendant of this helper
               (what left the bot's session too, as it is their subreaper) */
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_term;
            if (sigaction(SIGTERM, &sa, NULL)) die("sigaction", NULL);
            if (prctl(PR_SET_PDEATHSIG, SIGTERM)) die("pdeathsig", NULL);
            if (getppid() != ppid) _exit(126);
        }
        if (prctl(PR_SET_CHILD_SUBREAPER, 1)) die("subreaper", NULL);
        /* SIGTERM (the judge's death) and SIGCHLD wait blocked, taken one at a time:
           none can come between a look at the flag and the wait, where a blocking
           wait() would miss it while the bot lives (blocked before the bot's side
           starts, so that no handler of the reaper's runs in it; it execs unblocked) */
        sigset_t waited;
        sigemptyset(&waited);
        sigaddset(&waited, SIGCHLD);
        sigaddset(&waited, SIGTERM);
        sigprocmask(SIG_BLOCK, &waited, NULL);
        /* not to be looked into by the bot, which may have its uid (no bubblewrap, or bwrap
           as an ordinary user): its descriptors (the status pipe; the helper's file, by
           which bwrap started it) and its memory; the bot gets its own at its exec */
        if (prctl(PR_SET_DUMPABLE, 0)) die("dumpable", NULL);
        /* the bot's side shares this memory until its exec: no copy of the page tables,
           no copy-on-write faults */
        pid_t child = clone(reaped_bot, reaper_stack + sizeof reaper_stack,
                            CLONE_VM | CLONE_VFORK | SIGCHLD, &bot);
        if (child < 0) die("clone", NULL);
        int status = 0, code = 126, reaped;
        /* a judge that is gone does not read its status pipe: the report must not end
           the reaper (SIGPIPE) before it has reaped all (set here, not in the bot) */
        signal(SIGPIPE, SIG_IGN);
        for (int fd = 0; fd < 3; fd++) close(fd);
        for (int k = 0; k < ncg; k++) close(cgroups[k]);
        for (int k = 0; k < nreset; k++) close(resets[k]);
        for (;;) {
            if (judge_gone == 1 && uid >= 0) {
                judge_gone = 2;
                if (become(uid)) _exit(126);
                kill(-1, SIGKILL); /* every process of the uid but this one */
            } else if (judge_gone && uid < 0) {
                kill_descendants(getpid(), 0); /* again after each reaping */
            }
            while ((reaped = waitpid(-1, &status, WNOHANG)) > 0) {
                if (reaped != child) continue;
                code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
                if (status_fd < 0) continue;
                char word[16];
                int n = WIFSIGNALED(status) ? snprintf(word, sizeof word, "S%d", WTERMSIG(status))
                                            : snprintf(word, sizeof word, "E%d", WEXITSTATUS(status));
                if (write(status_fd, word, (size_t)n) != n) {
                    /* the judge is gone: nobody reads it */
                }
                close(status_fd);
                status_fd = -1;
            }
            if (reaped < 0 && errno == ECHILD) break;
            if (sigwaitinfo(&waited, NULL) == SIGTERM && !judge_gone) judge_gone = 1;
        }
        _exit(code);
    }
    return become_bot(&bot);
}

/* ---- the launcher ---------------------------------------------------------------- */

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
} kids[MAX_KIDS];

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
                        int nfds, const int *targets, int ready) {
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
    start_child(s->argv, s->argc, s->env, s->cwd, fds, s->nfds, s->targets, s->ready);
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
static int launcher(int argc, char **argv) {
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
    for (;;) {
        struct pollfd polled[2] = {{sock, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (poll(polled, 2, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll", NULL);
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
        int ready[2] = {-1, -1};
        int valid = argc > 0 && envc >= 0 && cwd && ntargets == nfds && nfds >= 1 &&
                    at == nptrs && slot >= 0;
        if (valid && pipe2(ready, O_CLOEXEC) < 0) {
            answer = -errno;  /* (nothing started) */
            valid = 0;
        }
        const char *as = valid ? option(argv, argc, "-u") : NULL;
        if (valid) {
            struct spawn s = {argv, env, argc, nfds, ready[1], sock, sfd, ready[0], cwd, fds,
                              targets, getpid()};
            argv[argc] = NULL; /* (all parsed) */
            env[envc] = NULL;
            char **own_env = environ;
            /* A child that becomes the bot shares the launcher's memory until its exec,
               the launcher waiting (as vfork): no copy of the launcher's page tables, no
               copy-on-write faults, no TLB flush per game. One that stays as a reaper
               (-x, -R) gets a copy (fork): the launcher must not wait for it; so does one
               that copies files (-f), which allocates (in the launcher's heap, else). */
            if (has_flag(argv, argc, "-x") || has_flag(argv, argc, "-R") ||
                has_flag(argv, argc, "-f")) {
                pid = fork();
                if (pid == 0) _exit(spawned(&s));
            } else {
                pid = clone(spawned, spawn_stack + sizeof spawn_stack,
                            CLONE_VM | CLONE_VFORK | SIGCHLD, &s);
            }
            answer = pid < 0 ? -errno : pid;
            environ = own_env;  /* (what a child in this memory set for itself) */
            launcher_parent = 0;
            ready_fd = -1;
            close(ready[1]);
            if (pid > 0) {
                kids[slot].pid = pid;
                kids[slot].fd = fds[0];
                kids[slot].uid = as ? atol(as) : -1;
                kids[slot].own_ipc = has_flag(argv, argc, "-i");
                kids[slot].ns[0] = kids[slot].ns[1] = -1;
                fds[0] = -1;
            }
        }
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
    return 0;
}

int main(int argc, char **argv) {
    /* started through a descriptor of its file (bwrap, which does not show the file): not
       passed on to the bot */
    if (argc > 0 && argv[0] && !strncmp(argv[0], "/proc/self/fd/", 14)) {
        char *end;
        long fd = strtol(argv[0] + 14, &end, 10);
        if (*end == 0 && end != argv[0] + 14 && fd >= 3 && fd < (1L << 20))
            fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    }
    if (argc >= 3 && !strcmp(argv[1], "-L")) return launcher(argc, argv);
    return helper(argc, argv);
}
