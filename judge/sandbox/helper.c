/* judge-exec: confine this process, then exec the bot.
 *
 * The judge starts every bot through this helper, so that Python can spawn it with vfork
 * (no fork of the judge, no Python in the child) and the set-up is a handful of system
 * calls. Options, in the order they are applied whatever the order given:
 *
 *   -p PPID        die with the judge (PR_SET_PDEATHSIG); exit if PPID is already gone
 *   -c FD          join a cgroup: write "0" to FD (an open cgroup.procs), then close it
 *   -n FD          (as root) enter the network namespace FD (a slot's, kept between its
 *                  games: see `Slot.net_namespace`), then close it
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
 *   -i             (as root) a private IPC namespace (System V and POSIX queues)
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
 *
 * A child's mount namespace is kept after its game as a box for the next child with the
 * same mount options (-K -T -k -w -u, no -f), which enters it instead of making one while
 * each private tmpfs is exactly as it was made: nothing in it, nothing changed or set on
 * it (see `roots_as_made`); else it makes its own, which is kept in its place. Its IPC
 * namespace (-i) is kept and entered with it while it holds nothing (see `ipc_empty`).
 * The judge starts a slot's next game once every process of its last is gone, so none is
 * in a box that is entered.
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
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ITEMS 32

/* in a child of the launcher: the launcher's pid, the parent that -p names */
static pid_t launcher_parent = 0;
/* in a child of the launcher: where it says that its private namespaces are made ("n"),
   or closes without a word (none made), so that the launcher holds them (see `hold`) */
static int ready_fd = -1;

/* What a slot's private tmpfs roots (-T, then -w) looked like when they were made: a kept
   mount namespace (a box, see the launcher) is entered again only while each is exactly
   so (nothing in it, nothing changed or set on it, the same filesystem). */
#define MAX_ROOTS 8
struct root_state {
    dev_t dev;
    ino_t ino;
    mode_t mode;
    uid_t uid;
    gid_t gid;
    nlink_t nlink;
    struct timespec atime, mtime, ctime;
    unsigned long long files, blocks;
    ssize_t xattrs;
};
/* the child's word on its ready pipe: 'n' (namespaces made; with the roots' state when its
   mount namespace may be kept), 'r' (the box it was given entered, an IPC namespace made)
   or 'R' (the box entered with the IPC namespace kept in it) */
struct made {
    char word;
    int count;
    struct root_state roots[MAX_ROOTS];
};
/* in a child of the launcher: the box (a kept mount namespace) to enter, found fit, and
   the IPC namespace kept with it (or -1: the child makes one) */
static int box_fd = -1, box_ipc_fd = -1;

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
    struct sock_filter code[64];
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

/* the state of the tmpfs root at `path` now; 0, or -1 */
static int root_state(const char *path, struct root_state *r) {
    struct stat st;
    struct statfs fs;
    memset(r, 0, sizeof *r);
    if (lstat(path, &st) || statfs(path, &fs)) return -1;
    r->dev = st.st_dev;
    r->ino = st.st_ino;
    r->mode = st.st_mode;
    r->uid = st.st_uid;
    r->gid = st.st_gid;
    r->nlink = st.st_nlink;
    r->atime = st.st_atim;
    r->mtime = st.st_mtim;
    r->ctime = st.st_ctim;
    r->files = (unsigned long long)(fs.f_files - fs.f_ffree);
    r->blocks = (unsigned long long)(fs.f_blocks - fs.f_bfree);
    r->xattrs = llistxattr(path, NULL, 0);
    return 0;
}

static int same_time(struct timespec a, struct timespec b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* whether each root (`paths`, in the box's mount namespace) is as it was made */
static int roots_as_made(char **paths, int n, const struct made *made) {
    if (made->count != n) return 0;
    for (int k = 0; k < n; k++) {
        struct root_state now;
        const struct root_state *was = &made->roots[k];
        if (root_state(paths[k], &now)) return 0;
        if (now.dev != was->dev || now.ino != was->ino || now.mode != was->mode ||
            now.uid != was->uid || now.gid != was->gid || now.nlink != was->nlink ||
            !same_time(now.atime, was->atime) || !same_time(now.mtime, was->mtime) ||
            !same_time(now.ctime, was->ctime) || now.files != was->files ||
            now.blocks != was->blocks || now.xattrs != was->xattrs)
            return 0;
    }
    return 1;
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
    sigset_t mask;  /* the signal mask to exec with (the reaper blocks what it waits for) */
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
    signal(SIGTERM, SIG_DFL);  /* (the reaper's handler, in a table of the bot's own) */
    sigprocmask(SIG_SETMASK, &b->mask, NULL);
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
    int nown = 0, status_fd = -1, ntemp = 0, new_ipc = 0, reaper = 0, net_fd = -1;
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
        case 'n': net_fd = atoi(val); break;
        case 'm': mnt_fd = atoi(val); break;
        default: errno = EINVAL; die("bad option", opt);
        }
    }
    if (i + 1 >= argc) { errno = EINVAL; die("no command", NULL); }
    struct bot bot = {argv + i + 1, uid, ppid, ncg, nlim, nown, nreset, seccomp, status_fd,
                      cgroups, resets, lims, own, chdir_to, {{0}}};

    if (net_fd >= 0) {
        if (setns(net_fd, CLONE_NEWNET)) die("setns", "network namespace");
        close(net_fd);
    }
    if (mnt_fd >= 0) {  /* (its root and working folder are then the namespace's root) */
        if (setns(mnt_fd, CLONE_NEWNS)) die("setns", "mount namespace");
        close(mnt_fd);
    }
    /* the private namespaces are made before the reaper forks, so that the reaper holds
       them: the bot's exit is then not slowed by their teardown (an RCU grace period
       for the mounts), which happens when the reaper ends, after it has reported */
    int mounts = nkeep || ncover || ntemp || work;  /* (a private mount namespace for them) */
    /* its private tmpfs roots: what makes a kept mount namespace fit for another game */
    char *roots[MAX_ROOTS];
    int nroots = 0;
    struct made made = {'n', -1, {{0}}};
    for (int k = 0; k < ntemp && nroots < MAX_ROOTS; k++) roots[nroots++] = temp[k];
    if (work && nroots < MAX_ROOTS) roots[nroots++] = work;
    int boxable = mounts && !files_from && nroots == ntemp + (work ? 1 : 0);
    int entered = boxable && box_fd >= 0 && !setns(box_fd, CLONE_NEWNS);
    int ipc_entered = entered && new_ipc && box_ipc_fd >= 0 && !setns(box_ipc_fd, CLONE_NEWIPC);
    if (new_ipc && !ipc_entered && unshare(CLONE_NEWIPC)) die("unshare", "ipc namespace");
    if (box_fd >= 0) close(box_fd);
    if (box_ipc_fd >= 0) close(box_ipc_fd);
    box_fd = box_ipc_fd = -1;
    if (mounts && !entered) {
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
        made.count = boxable ? nroots : -1;
        for (int k = 0; k < nroots && made.count >= 0; k++)
            if (root_state(roots[k], &made.roots[k])) made.count = -1;
    }
    if (ready_fd >= 0) {  /* (before any fork: no other process may keep it open) */
        ssize_t size = entered ? 1 : made.count >= 0 ? (ssize_t)sizeof made : 1;
        made.word = ipc_entered ? 'R' : entered ? 'r' : 'n';
        if ((new_ipc || mounts) && write(ready_fd, &made, size) != size) {
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
        sigprocmask(SIG_BLOCK, &waited, &bot.mask);
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
    int box;           /* the box it was given (its index), or -1 */
    int own_ipc;       /* whether it makes an IPC namespace of its own (-i) */
    char *key;         /* its mount options (see `box_key`), or NULL: not to be kept */
    struct made *made; /* the roots of the mount namespace it made, to keep it as a box */
} kids[MAX_KIDS];

/* Boxes: mount namespaces that children made, kept after their game (see `keep_box`) for
   the next child with the same mount options, which enters one instead of making its own
   while it is exactly as it was made (see `box_fits`): no namespace, no mount to make
   and none to tear down (an RCU grace period) per game. A uid has one box at most, let
   go before its next game when it is not clean: what a bot left in one is never kept (its
   memory is charged to the slot) into a later game. */
#define MAX_BOXES 4
static struct {
    int fd;         /* the namespace, or -1 */
    int ipc, mq;    /* the IPC namespace kept with it and the root of its POSIX message
                       queues (a directory), or -1 */
    pid_t user;     /* the child in it now, or 0 */
    long uid;       /* whose it is (-u) */
    char *key;
    struct made made;
    unsigned long used;
} boxes[MAX_BOXES];
static unsigned long box_clock = 0;
/* the launcher's own oom_score_adj before it protected itself: its children get it back */
static char oom_adj[16] = "";

static void set_oom_adj(const char *value) {
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    if (write(fd, value, strlen(value)) < 0) { /* not allowed: left as it is */ }
    close(fd);
}

static void drop_box(int b) {
    close(boxes[b].fd);
    if (boxes[b].mq >= 0) close(boxes[b].mq);  /* (its mount first, then the namespace) */
    if (boxes[b].ipc >= 0) close(boxes[b].ipc);
    free(boxes[b].key);
    boxes[b].fd = boxes[b].ipc = boxes[b].mq = -1;
    boxes[b].key = NULL;
}

/* the launcher's own mount and IPC namespaces (to come back to from a box), or -1 */
static int home_ns = -1, home_ipc = -1;

/* The root of the POSIX message queues of IPC namespace `ipc`, as a directory (through a
   mount of their filesystem that is attached nowhere), or -1. */
static int mqueue_root(int ipc) {
    int dir = -1;
#ifdef SYS_fsmount
    if (home_ipc < 0 || setns(ipc, CLONE_NEWIPC)) return -1;
    int fs = (int)syscall(SYS_fsopen, "mqueue", 1 /* FSOPEN_CLOEXEC */);
    if (fs >= 0 && !syscall(SYS_fsconfig, fs, 6 /* FSCONFIG_CMD_CREATE */, NULL, NULL, 0)) {
        int mnt = (int)syscall(SYS_fsmount, fs, 1 /* FSMOUNT_CLOEXEC */, 0);
        if (mnt >= 0) {
            dir = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            close(mnt);
        }
    }
    if (fs >= 0) close(fs);
    if (setns(home_ipc, CLONE_NEWIPC)) die("setns", "back");
#else
    (void)ipc;
#endif
    return dir;
}

union semun {
    int val;
    struct semid_ds *buf;
    unsigned short *array;
    struct seminfo *__buf;
};

/* Whether IPC namespace `ipc` holds nothing: no System V message queue, shared memory
   segment or semaphore set (their counts in it), and no POSIX message queue (`mq`, the
   root of its queues, lists nothing). */
static int ipc_empty(int ipc, int mq) {
    struct msginfo msgs;
    struct shm_info shms;
    struct seminfo sems;
    union semun arg = {.__buf = &sems};
    if (home_ipc < 0 || setns(ipc, CLONE_NEWIPC)) return 0;
    int empty = msgctl(0, MSG_INFO, (struct msqid_ds *)&msgs) >= 0 && msgs.msgpool == 0 &&
                shmctl(0, SHM_INFO, (struct shmid_ds *)&shms) >= 0 && shms.used_ids == 0 &&
                semctl(0, 0, SEM_INFO, arg) >= 0 && sems.semusz == 0;
    if (setns(home_ipc, CLONE_NEWIPC)) die("setns", "back");
    char entries[4096];
    long got;
    if (lseek(mq, 0, SEEK_SET) < 0) return 0;
    while (empty && (got = syscall(SYS_getdents64, mq, entries, sizeof entries)) > 0)
        for (long at = 0; at < got && empty;) {
            struct dirent64 *entry = (struct dirent64 *)(entries + at);
            empty = !strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..");
            at += entry->d_reclen;
        }
    return empty && got == 0;
}

/* Keep mount namespace `fd`, made with options `key` for `uid` (its roots as `made` says),
   and with it IPC namespace `ipc` (if not -1), as the box for them: in place of that
   uid's, else of none, else of the least recently used one that no child is in (it is let
   go); or let them go. */
static void keep_box(const char *key, long uid, const struct made *made, int fd, int ipc) {
    int at = -1;
    for (int b = 0; b < MAX_BOXES && at < 0; b++)
        if (boxes[b].fd >= 0 && boxes[b].uid == uid && !boxes[b].user) at = b;
    for (int b = 0; b < MAX_BOXES && at < 0; b++)
        if (boxes[b].fd < 0) at = b;
    int full = at < 0;  /* (the least recently used then, of those no child is in) */
    for (int b = 0; b < MAX_BOXES && full; b++)
        if (!boxes[b].user && (at < 0 || boxes[b].used < boxes[at].used)) at = b;
    char *copy = at >= 0 ? strdup(key) : NULL;
    if (!copy) {
        close(fd);
        if (ipc >= 0) close(ipc);
        return;
    }
    if (boxes[at].fd >= 0) drop_box(at);
    int mq = ipc >= 0 ? mqueue_root(ipc) : -1;
    if (mq < 0 && ipc >= 0) {  /* (its queues cannot be seen: not kept) */
        close(ipc);
        ipc = -1;
    }
    boxes[at].fd = fd;
    boxes[at].ipc = ipc;
    boxes[at].mq = mq;
    boxes[at].uid = uid;
    boxes[at].key = copy;
    boxes[at].made = *made;
    boxes[at].used = ++box_clock;
}

/* Whether box `b` is clean for the request `argv`: each private tmpfs root in it (-T, then
   -w) as it was made; and (with `keeps`) each path bound back (-k) the same file as here,
   not one put in its place since; its IPC namespace empty. Looked at from inside the
   box, and back. */
static int box_fits(int b, char **argv, int argc, int keeps) {
    char *roots[MAX_ROOTS], *keep[MAX_ITEMS];
    struct stat here[MAX_ITEMS], there;
    int nroots = 0, nkeep = 0, fits;
    const char *work = NULL;  /* (its root comes after the -T ones, as the child lists them) */
    for (int k = 1; k + 1 < argc && strcmp(argv[k], "--"); k++) {
        if (keeps && !strcmp(argv[k], "-k") && nkeep < MAX_ITEMS) keep[nkeep++] = argv[k + 1];
        if (!strcmp(argv[k], "-T") && nroots < MAX_ROOTS) roots[nroots++] = argv[k + 1];
        if (!strcmp(argv[k], "-w") && strchr(argv[k + 1], ':')) work = strchr(argv[k + 1], ':') + 1;
    }
    if (work && nroots < MAX_ROOTS) roots[nroots++] = (char *)work;
    for (int k = 0; k < nkeep; k++)
        if (stat(keep[k], &here[k])) return 0;
    if (home_ns < 0 || setns(boxes[b].fd, CLONE_NEWNS)) return 0;
    fits = roots_as_made(roots, nroots, &boxes[b].made);
    for (int k = 0; k < nkeep && fits; k++)
        fits = !stat(keep[k], &there) && there.st_dev == here[k].st_dev &&
               there.st_ino == here[k].st_ino;
    if (setns(home_ns, CLONE_NEWNS)) die("setns", "back");
    return fits && (boxes[b].ipc < 0 || ipc_empty(boxes[b].ipc, boxes[b].mq));
}

/* whether a request's helper options (before "--") hold the flag `opt` */
static int has_flag(char **argv, int argc, const char *opt) {
    for (int k = 1; k < argc && strcmp(argv[k], "--"); k++)
        if (!strcmp(argv[k], opt)) return 1;
    return 0;
}

/* The options of a request that make a child's mount namespace (covers, private tmpfs,
   paths bound back, the work dir and whose it is) and whether it has an IPC namespace of
   its own (kept with it), as one string; NULL when its namespace
   is not to be kept (files copied into its work dir, or no mounts). */
static char *box_key(char **argv, int argc) {
    size_t size = 1;
    int mounts = 0;
    for (int k = 1; k + 1 < argc && strcmp(argv[k], "--"); k++) {
        if (!strcmp(argv[k], "-f")) return NULL;
        if (argv[k][0] == '-' && argv[k][1] && strchr("KTkwu", argv[k][1]) && !argv[k][2]) {
            size += strlen(argv[k + 1]) + 24;
            mounts |= argv[k][1] != 'u';
        }
    }
    char *key = mounts ? malloc(size + 2) : NULL;
    if (!key) return NULL;
    size_t at = 0;
    key[0] = 0;
    if (has_flag(argv, argc, "-i")) at += snprintf(key, size + 2, "i;");  /* (its IPC kept too) */
    for (int k = 1; k + 1 < argc && strcmp(argv[k], "--"); k++)
        if (argv[k][0] == '-' && argv[k][1] && strchr("KTkwu", argv[k][1]) && !argv[k][2])
            at += snprintf(key + at, size + 2 - at, "%c%zu:%s", argv[k][1],
                           strlen(argv[k + 1]), argv[k + 1]);
    return key;
}

/* report how child `pid` ended on its report pipe: "STATUS MAXRSS_KB UTIME_US STIME_US" */
static void report(pid_t pid, int status, const struct rusage *ru) {
    for (int k = 0; k < MAX_KIDS; k++) {
        if (kids[k].pid != pid) continue;
        dprintf(kids[k].fd, "%d %ld %lld %lld\n", status, ru->ru_maxrss,
                (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec,
                (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec);
        close(kids[k].fd);
        if (kids[k].box >= 0) boxes[kids[k].box].user = 0;
        if (kids[k].made && kids[k].ns[0] >= 0) {
            keep_box(kids[k].key, kids[k].uid, kids[k].made, kids[k].ns[0], kids[k].ns[1]);
            kids[k].ns[0] = kids[k].ns[1] = -1;
        }
        /* its namespaces are let go only now: their teardown (an RCU grace period for the
           mounts) delays neither the bot's exit nor the report */
        for (int j = 0; j < 2; j++)
            if (kids[k].ns[j] >= 0) close(kids[k].ns[j]);
        free(kids[k].key);
        free(kids[k].made);
        kids[k].key = NULL;
        kids[k].made = NULL;
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
   `ready` once they are made (with its roots: see `struct made`), "r" once it has entered
   its box (and made an IPC namespace), "R" once it has entered its box with the IPC
   namespace kept there, or closes it without a word. Its mount and IPC namespaces are then kept open
   until it is reaped (and its mount namespace kept as a box, when it may be). */
static void hold(int k, int ready) {
    struct pollfd polled = {ready, POLLIN, 0};
    struct made made;
    ssize_t got = 0;
    kids[k].ns[0] = kids[k].ns[1] = -1;
    if (poll(&polled, 1, 2000) == 1) got = read(ready, &made, sizeof made);
    if (got >= 1 && (made.word == 'n' || made.word == 'r')) {
        char path[64];
        if (made.word == 'n') {  /* (not when it entered its box: that is held already) */
            snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)kids[k].pid);
            kids[k].ns[0] = open(path, O_RDONLY | O_CLOEXEC);
        }
        if (kids[k].own_ipc) {  /* (else it is the launcher's own: never kept in a box) */
            snprintf(path, sizeof path, "/proc/%d/ns/ipc", (int)kids[k].pid);
            kids[k].ns[1] = open(path, O_RDONLY | O_CLOEXEC);
        }
        if (made.word == 'n' && got == (ssize_t)sizeof made && made.count >= 0 &&
            kids[k].key && (kids[k].made = malloc(sizeof made)))
            *kids[k].made = made;
    }
    close(ready);
}

/* in the forked child: the request's descriptors where the judge asked for them, its
   environment and folder, a session of its own; then the helper with its arguments */
static void start_child(char **argv, int argc, char **env, const char *cwd, int *fds,
                        int nfds, const int *targets, int ready, int box, int box_ipc) {
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
       ready pipe, the box) may have the number that one of the judge's gets here */
    if ((ready_fd = fcntl(ready, F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
    keep[nkeep++] = ready_fd;
    if (box >= 0) {
        if ((box_fd = fcntl(box, F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
        keep[nkeep++] = box_fd;
    }
    if (box >= 0 && box_ipc >= 0) {
        if ((box_ipc_fd = fcntl(box_ipc, F_DUPFD_CLOEXEC, base)) < 0) die("dup", NULL);
        keep[nkeep++] = box_ipc_fd;
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
    int argc, nfds, ready, box, box_ipc, sock, sfd, ready_read;
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
    start_child(s->argv, s->argc, s->env, s->cwd, fds, s->nfds, s->targets, s->ready, s->box,
                s->box_ipc);
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
    for (int b = 0; b < MAX_BOXES; b++) boxes[b].fd = boxes[b].ipc = boxes[b].mq = -1;
    home_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    home_ipc = open("/proc/self/ns/ipc", O_RDONLY | O_CLOEXEC);
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
        char *key = valid ? box_key(argv, argc) : NULL;
        const char *as = valid ? option(argv, argc, "-u") : NULL;
        int box = -1;
        for (int b = 0; b < MAX_BOXES && as; b++) {
            if (boxes[b].fd < 0 || boxes[b].user || boxes[b].uid != atol(as)) continue;
            int same = key && !strcmp(boxes[b].key, key), clean = box_fits(b, argv, argc, same);
            if (same && clean) box = b;
            else if (!clean) drop_box(b);  /* (before the uid's next game starts) */
            /* (a clean box of other options holds nothing: the new child's takes its place
               once it is reaped) */
        }
        if (valid) {
            struct spawn s = {argv, env, argc, nfds, ready[1], box >= 0 ? boxes[box].fd : -1,
                              box >= 0 ? boxes[box].ipc : -1, sock, sfd, ready[0], cwd, fds,
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
            ready_fd = box_fd = box_ipc_fd = -1;
            close(ready[1]);
            if (pid > 0) {
                kids[slot].pid = pid;
                kids[slot].fd = fds[0];
                kids[slot].uid = as ? atol(as) : -1;
                kids[slot].own_ipc = has_flag(argv, argc, "-i");
                kids[slot].ns[0] = kids[slot].ns[1] = -1;
                kids[slot].box = box;
                kids[slot].key = key;
                key = NULL;
                if (box >= 0) {
                    boxes[box].user = pid;
                    boxes[box].used = ++box_clock;
                }
                fds[0] = -1;
            }
        }
        free(key);
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
