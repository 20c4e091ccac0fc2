/* One bot's set-up, as a recipe: die with the judge, join its cgroups, namespaces made for
   this game, mounts, resource limits, uid, system call filter, default signals, exec; or
   stay as the bot's reaper and report how it ended (-x, -R). */
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
#include <dirent.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <stdint.h>

#include "exec.h"

/* (mount_setattr, Linux 5.12 and later; older headers lack them) */
#ifdef __NR_mount_setattr
#define MOUNT_SETATTR __NR_mount_setattr
#else
#define MOUNT_SETATTR 442
#endif
#define MOUNT_ATTR_RDONLY_ 0x1
#define MOUNT_ATTR_NOSUID_ 0x2
#define MOUNT_ATTR__ATIME_ 0x70
#define MOUNT_ATTR_NOATIME_ 0x10
#define AT_RECURSIVE_ 0x8000

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

/* drop every capability of this process: ambient, effective, permitted, inheritable (an
   ordinary user's bwrap gave CAP_SYS_ADMIN, ambient too, for the mounts) */
static void drop_capabilities(void) {
    struct { uint32_t version; int pid; } head = {0x20080522, 0};  /* version 3 */
    struct { uint32_t effective, permitted, inheritable; } none[2];
    memset(none, 0, sizeof none);
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
        die("drop capabilities", "ambient");
    if (syscall(SYS_capset, &head, none)) die("drop capabilities", NULL);
}

/* The outermost mount points strictly below `dir` (from /proc/self/mountinfo, at most
   MAX_ITEMS, each allocated), into `found`; how many. */
static int mounts_below(const char *dir, char **found) {
    FILE *info = fopen("/proc/self/mountinfo", "re");
    if (!info) die("open", "/proc/self/mountinfo");
    char line[8192], point[4096];
    size_t len = strlen(dir);
    int n = 0;
    while (fgets(line, sizeof line, info)) {
        char *field = line;  /* the fifth field, its escapes (\040 and kin) undone */
        for (int k = 0; k < 4 && field; k++) field = strchr(field, ' ') ? strchr(field, ' ') + 1 : NULL;
        if (!field) continue;
        size_t m = 0;
        for (char *c = field; *c && *c != ' ' && m + 1 < sizeof point; c++) {
            if (c[0] == '\\' && c[1] && c[2] && c[3]) {
                point[m++] = (char)(((c[1] - '0') << 6) | ((c[2] - '0') << 3) | (c[3] - '0'));
                c += 3;
            } else {
                point[m++] = *c;
            }
        }
        point[m] = 0;
        if (strncmp(point, dir, len) || point[len] != '/') continue;
        int inside = 0;  /* (below one found already: bound again with it) */
        for (int k = 0; k < n && !inside; k++) {
            size_t l = strlen(found[k]);
            inside = !strncmp(point, found[k], l) && (point[l] == '/' || point[l] == 0);
        }
        if (inside) continue;
        if (n == MAX_ITEMS) { errno = E2BIG; die("mounts below", dir); }
        if (!(found[n++] = strdup(point))) die("strdup", NULL);
    }
    fclose(info);
    return n;
}

/* Bound the tmpfs on `dir` (bwrap's) to `inodes` files and folders: remounted, or where
   this process may not (an ordinary user's bwrap with --disable-userns runs it in a user
   namespace nested in the one that owns the mounts) covered, in a mount namespace of its
   own (made once: `*own_ns`), by a new tmpfs of the same size, mode and owner holding
   copies of its files (the bot's). */
static void bound_files(const char *dir, long inodes, int *own_ns) {
    char opts[128];
    snprintf(opts, sizeof opts, "nr_inodes=%ld", inodes);
    if (!mount("none", dir, NULL, MS_REMOUNT | MS_NOSUID | MS_NODEV, opts)) return;
    if (errno != EPERM) die("remount", dir);
    struct stat st;
    struct statfs fs;
    int from = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (from < 0 || fstat(from, &st) || fstatfs(from, &fs)) die("open", dir);
    if (!*own_ns && unshare(CLONE_NEWNS)) die("unshare", "mount namespace");
    *own_ns = 1;
    /* what bwrap shows below it (a runtime under /tmp): bound again on the new one */
    char *below[MAX_ITEMS];
    int kept[MAX_ITEMS], nbelow = mounts_below(dir, below);
    for (int k = 0; k < nbelow; k++)
        if ((kept[k] = open(below[k], O_PATH | O_CLOEXEC)) < 0) die("open", below[k]);
    snprintf(opts, sizeof opts, "size=%llu,nr_inodes=%ld,mode=%o,uid=%ld,gid=%ld",
             (unsigned long long)fs.f_blocks * (unsigned long long)fs.f_bsize, inodes,
             (unsigned)(st.st_mode & 07777), (long)st.st_uid, (long)st.st_gid);
    if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts)) die("tmpfs", dir);
    copy_files(from, dir, st.st_uid);  /* (closes `from`) */
    for (int k = 0; k < nbelow; k++) {
        char path[64];
        struct stat at;
        if (fstat(kept[k], &at)) die("stat", below[k]);
        mount_point(below[k], S_ISDIR(at.st_mode));
        snprintf(path, sizeof path, "/proc/self/fd/%d", kept[k]);
        if (mount(path, below[k], NULL, MS_BIND | MS_REC, NULL)) die("bind", below[k]);
        close(kept[k]);
        free(below[k]);
    }
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
    unsigned groups;  /* the filter's groups of calls (-g) */
    int *cgroups, *resets;
    long long (*lims)[3];
    char **own;
    const char *chdir_to;
    char **writable;
    int nwritable;
    char **readable;
    int nreadable;
    /* where the bot's side sends the reaper the filter's listener (-1: no reaper) */
    int notice_sock;
};

/* The next signal the reaper waits for (SIGCHLD, SIGTERM), answering meanwhile the calls
   its bot's filter hands over on `*listener` (set to -1 once no process is left to make
   one); 0 when woken by something else. */
static int next_signal(sigset_t *waited, int sfd, int *listener) {
    if (*listener < 0 || sfd < 0) return sigwaitinfo(waited, NULL);
    struct pollfd fds[2] = {{sfd, POLLIN, 0}, {*listener, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) return 0;
    if (fds[1].revents & POLLIN) {
        answer_notice(*listener);
    } else if (fds[1].revents & (POLLHUP | POLLERR | POLLNVAL)) {
        close(*listener);
        *listener = -1;
    }
    struct signalfd_siginfo si;
    if ((fds[0].revents & POLLIN) && read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
        return (int)si.ssi_signo;
    return 0;
}

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
    if (b->nwritable) {  /* (no new privileges first, as Landlock needs it) */
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) die("no_new_privs", NULL);
        landlock_bot(b->writable, b->nwritable, b->readable, b->nreadable);
    }
    /* every signal as a new process has it, whatever the judge ignored or blocked (under
       nohup, SIGHUP) and the reaper waits for: an ignored disposition survives exec. (Before
       the filter, which hands a change of SIGCHLD's to the reaper, waiting for the exec) */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (b->seccomp) {
        int listener = filter_calls(b->notice_sock >= 0, b->groups);
        if (b->notice_sock >= 0) {  /* (to the reaper, which answers on it) */
            send_fd(b->notice_sock, listener);
            close(b->notice_sock);
            if (listener >= 0) close(listener);
        }
    }
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
    if (b->status_fd >= 0) close(b->status_fd);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    if (b->ppid >= 0) b->ppid = getppid();
    return become_bot(b);
}

/* the stack of the bot's side of a reaper */
static char reaper_stack[1 << 16] __attribute__((aligned(64)));

int helper(int argc, char **argv) {
    long ppid = -1, uid = -1, work_size = 0;
    int cgroups[MAX_ITEMS], ncg = 0, resets[MAX_ITEMS], nreset = 0, nkeep = 0, ncover = 0, nlim = 0, seccomp = 0;
    char *keep[MAX_ITEMS], *cover[MAX_ITEMS], *own[MAX_ITEMS], *work = NULL, *chdir_to = NULL;
    char *temp[MAX_ITEMS], *files_from = NULL, *writable[MAX_ITEMS], *readable[MAX_ITEMS];
    int nwritable = 0, nreadable = 0, nremount = 0, drop_caps = 0;
    long inodes = 0;
    char *remount[MAX_ITEMS];
    int nown = 0, status_fd = -1, ntemp = 0, new_ipc = 0, reaper = 0, pids_only = 0;
    int pid_ns = 0;
    int mnt_fd = -1;
    long groups = ALL_CALL_GROUPS;
    long long lims[MAX_ITEMS][3];
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "-s")) { seccomp = 1; continue; }
        if (!strcmp(opt, "-i")) { new_ipc = 1; continue; }
        if (!strcmp(opt, "-R")) { reaper = 1; continue; }
        if (!strcmp(opt, "-P")) { pids_only = 1; continue; }
        if (!strcmp(opt, "-D")) { drop_caps = 1; continue; }
        if (!strcmp(opt, "-N")) { pid_ns = 1; continue; }
        if (!val || opt[0] != '-' || opt[2]) { errno = EINVAL; die("bad option", opt); }
        i++;
        switch (opt[1]) {
        case 'p': ppid = launcher_parent ? launcher_parent : atol(val); break;
        case 'c': if (ncg < MAX_ITEMS) cgroups[ncg++] = atoi(val); break;
        case 'z': if (nreset < MAX_ITEMS) resets[nreset++] = atoi(val); break;
        case 'k': if (nkeep < MAX_ITEMS) keep[nkeep++] = val; break;
        case 'K': if (ncover < MAX_ITEMS) cover[ncover++] = val; break;
        case 'T': if (ntemp < MAX_ITEMS) temp[ntemp++] = val; break;
        case 'W': if (nwritable < MAX_ITEMS) writable[nwritable++] = val; break;
        case 'V': if (nreadable < MAX_ITEMS) readable[nreadable++] = val; break;
        case 'f': files_from = val; break;
        case 'I': inodes = atol(val); break;
        case 'n': if (nremount < MAX_ITEMS) remount[nremount++] = val; break;
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
        case 'g':
            if ((groups = call_groups(val)) < 0) { errno = EINVAL; die("bad groups", val); }
            break;
        default: errno = EINVAL; die("bad option", opt);
        }
    }
    if (i + 1 >= argc) { errno = EINVAL; die("no command", NULL); }
    struct bot bot = {argv + i + 1, uid, ppid, ncg, nlim, nown, nreset, seccomp, status_fd,
                      (unsigned)groups, cgroups, resets, lims, own, chdir_to, writable,
                      nwritable, readable, nreadable, notice_fd};

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
        /* all of the machine's tree read-only and without access times here (but the
           tmpfs mounts made below): nothing the bot reads stamps a file that another
           bot, or the next game, could look at; nowhere to write but its own */
        struct mount_attr_ { unsigned long long set, clr, propagation, userns_fd; } attr = {
            MOUNT_ATTR_RDONLY_ | MOUNT_ATTR_NOATIME_ | MOUNT_ATTR_NOSUID_, MOUNT_ATTR__ATIME_,
            0, 0};
        if (syscall(MOUNT_SETATTR, AT_FDCWD, "/", AT_RECURSIVE_, &attr, sizeof attr) &&
            errno != ENOSYS)
            die("mount_setattr", "/");
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
        char files[40] = "";  /* (each file is kernel memory, which only a cgroup counts) */
        if (inodes > 0) snprintf(files, sizeof files, ",nr_inodes=%ld", inodes);
        if (uid >= 0)
            snprintf(opts, sizeof opts, "mode=0700,uid=%ld,gid=%ld,size=%ld%s", uid, uid,
                     work_size > 0 ? work_size : 1L << 24, files);
        else
            snprintf(opts, sizeof opts, "mode=1777,size=%ld%s",
                     work_size > 0 ? work_size : 1L << 24, files);
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
            snprintf(opts, sizeof opts, "size=%ld,mode=0700,uid=%ld,gid=%ld%s", work_size,
                     uid < 0 ? (long)getuid() : uid, uid < 0 ? (long)getgid() : uid, files);
            if (mount("tmpfs", work, "tmpfs", MS_NOSUID | MS_NODEV, opts)) die("mount", work);
            if (from >= 0) copy_files(from, work, uid < 0 ? getuid() : (uid_t)uid);
        }
    }
    if (pid_ns && (getpid() != 1 || !mounts || (status_fd < 0 && !reaper))) {
        /* (the launcher clones it into the namespace; it stays there as the bot's reaper) */
        errno = EINVAL;
        die("-N", "not PID 1 of a namespace of its own, with mounts and a reaper");
    }
    if (pids_only || pid_ns) {
        /* a /proc of processes only: none of the machine-wide files (counters a bot could
           move and another read: memory, forks, open files, interrupts, pressure,
           /proc/sys); only in a mount namespace of the game's own: the one made above, or
           bwrap's, whose PID 1 this helper is. With -N, the proc of the PID namespace the
           launcher made for this game: the bot sees its own processes and this helper,
           nothing of the judge's or of another game's */
        if (!mounts && getpid() != 1) {
            errno = EINVAL;
            die("-P", "outside a namespace of its own");
        }
        if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  pids_only ? "subset=pid" : NULL))
            die("mount", "/proc");
    }
    /* bwrap's tmpfs mounts (its --size bounds their bytes only) bounded in files too */
    if (nremount && inodes > 0) {
        char here[4096];
        int own_ns = 0;
        if (!getcwd(here, sizeof here)) die("getcwd", NULL);
        for (int k = 0; k < nremount; k++) bound_files(remount[k], inodes, &own_ns);
        if (own_ns && chdir(here)) die("chdir", here);  /* (the new tmpfs, if covered) */
    }
    if (drop_caps) drop_capabilities();  /* (the reaper's too: it needs none) */
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
            if (parent_gone(ppid)) _exit(126);
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
        /* the filter hands the bot's calls of `sysinfo` to this reaper (`answer_notice`):
           the bot's side sends it the listener here before its exec */
        int pair[2] = {-1, -1};
        if (seccomp && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair))
            die("socketpair", NULL);
        bot.notice_sock = pair[1];
        /* the bot's side shares this memory until its exec: no copy of the page tables,
           no copy-on-write faults */
        pid_t child = clone(reaped_bot, reaper_stack + sizeof reaper_stack,
                            CLONE_VM | CLONE_VFORK | SIGCHLD, &bot);
        if (child < 0) die("clone", NULL);
        int listener = -1, sfd = -1;
        if (pair[0] >= 0) {  /* (the bot's side has exec'd or died: nothing to wait for) */
            close(pair[1]);
            listener = receive_fd(pair[0]);
            close(pair[0]);
            if (listener >= 0 && (sfd = signalfd(-1, &waited, SFD_CLOEXEC)) < 0)
                die("signalfd", NULL);
        }
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
            if (next_signal(&waited, sfd, &listener) == SIGTERM && !judge_gone) judge_gone = 1;
        }
        _exit(code);
    }
    return become_bot(&bot);
}
