/* What the other parts share: dying with a message, becoming a uid, joining a cgroup,
   killing what a process left. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "exec.h"

/* in a child of the launcher: the launcher's pid, the parent that -p names */
pid_t launcher_parent = 0;
/* in a child of the launcher: where it says that its private namespaces are made ("n"),
   or closes without a word (none made), so that the launcher holds them (see `hold`) */
int ready_fd = -1;
/* in a child of the launcher that becomes the bot: where it sends the launcher its filter's
   listener (-1: none; a reaper makes its own) */
int notice_fd = -1;
/* in a child of the launcher cloned into a PID namespace of its own: a pidfd of the
   launcher (-1: none) */
int parent_pidfd = -1;

volatile sig_atomic_t judge_gone = 0;

int parent_gone(long ppid) {
    if (parent_pidfd >= 0) {  /* (readable once that process has ended) */
        struct pollfd polled = {parent_pidfd, POLLIN, 0};
        return poll(&polled, 1, 0) != 0;
    }
    pid_t parent = getppid();  /* (0: outside this PID namespace, nothing to compare) */
    return parent != 0 && parent != ppid;
}

void on_term(int sig) {
    (void)sig;
    judge_gone = 1;
}

/* SIGKILL every descendant of `pid` that /proc lists now (the children of each of its
   threads, theirs, ...). What one of them forks meanwhile comes back to this process, their
   subreaper, once its parent is dead: the caller repeats until it has no child left. */
void kill_descendants(pid_t pid, int depth) {
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
void die(const char *what, const char *arg) {
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
const char *become(long uid) {
    if (syscall(SYS_SETGROUPS, 0, NULL)) return "setgroups";
    if (syscall(SYS_SETRESGID, uid, uid, uid)) return "setresgid";
    if (syscall(SYS_SETRESUID, uid, uid, uid)) return "setresuid";
    return NULL;
}

/* join the cgroup whose cgroup.procs `fd` is open, then close it */
void join_cgroup(int fd) {
    if (write(fd, "0", 1) != 1) die("join cgroup", NULL);
    close(fd);
}

/* send `fd` (or, if it is -1, nothing but a byte) over the socket `sock` */
void send_fd(int sock, int fd) {
    char byte = 0, room[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&byte, 1};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (fd >= 0) {
        memset(room, 0, sizeof room);
        msg.msg_control = room;
        msg.msg_controllen = sizeof room;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    if (sendmsg(sock, &msg, 0) != 1) die("sendmsg", "listener");
}

/* the descriptor `send_fd` sent over `sock`, or -1 (none, or the sender died first) */
int receive_fd(int sock) {
    char byte, room[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&byte, 1};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = room;
    msg.msg_controllen = sizeof room;
    if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1) return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}
