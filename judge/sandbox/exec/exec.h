/* judge-exec: what its parts offer each other (see main.c for what it does as a whole).
 *
 *   common.c    die, become a uid, join a cgroup, kill what a process left
 *   seccomp.c   the bot's system call filter
 *   landlock.c  the bot's Landlock domain: writes beneath its folders only, no other bot
 *   helper.c    the set-up of one bot, in order: namespaces, mounts, limits, uid, filter,
 *               signals, exec; and the reaper that stays as its parent
 *   launcher.c  the launcher a judge process keeps: forks each bot's set-up on request
 *   main.c      the command line: a launcher (-L) or one bot's set-up
 */
#ifndef JUDGE_EXEC_H
#define JUDGE_EXEC_H

#include <signal.h>
#include <sys/types.h>

/* how many of each repeated option (-c, -r, -k, ...) are taken */
#define MAX_ITEMS 32

/* ---- common.c ---- */
/* in a child of the launcher: the launcher's pid, the parent that -p names */
extern pid_t launcher_parent;
/* in a child of the launcher: where it says that its private namespaces are made ("n"),
   or closes without a word (none made), so that the launcher holds them */
extern int ready_fd;
/* in a child of the launcher that becomes the bot: where it sends its filter's listener */
extern int notice_fd;
/* in a child of the launcher made PID 1 of a namespace of its own (-N): a pidfd of the
   launcher, whose death it tells by (its parent is outside the namespace: getppid() is 0) */
extern int parent_pidfd;
/* whether the process that -p names (`ppid`) is gone: its pidfd says so, or getppid() */
int parent_gone(long ppid);
/* send a descriptor (or -1: none) over a socket; receive one (-1: none came) */
void send_fd(int sock, int fd);
int receive_fd(int sock);
/* set by `on_term`: the judge is gone (SIGTERM, its parent-death signal) */
extern volatile sig_atomic_t judge_gone;
void on_term(int sig);
/* SIGKILL every descendant of `pid` that /proc lists now */
void kill_descendants(pid_t pid, int depth);
/* say "judge-exec: WHAT ARG: errno's text" on stderr and exit with status 126 */
void die(const char *what, const char *arg) __attribute__((noreturn));
/* drop every group and become `uid`: NULL, or the name of the call that failed */
const char *become(long uid);
/* join the cgroup whose cgroup.procs `fd` is open, then close it */
void join_cgroup(int fd);

/* ---- seccomp.c ---- */
/* the groups of calls named in `names` ("threads,events,jit", "base" for none): a mask for
   the two below, or -1 for a name that is not a group's */
long call_groups(const char *names);
/* no new privileges, and the bot's system call filter of `groups` (see seccomp.c); with
   `supervised`, the listener on which the calls it hands over are answered, or -1 */
int filter_calls(int supervised, unsigned groups);
/* answer one call handed over on `listener` (its `sysinfo`) */
void answer_notice(int listener);
/* print the calls the filter of `groups` allows, as built (`judge-exec -S [GROUPS]`) */
void print_calls(unsigned groups);
/* every group: the filter of a compile, or of a program of no language */
#define ALL_CALL_GROUPS (~0u)

/* ---- landlock.c ---- */
/* a Landlock domain of the bot's own: writes only beneath `writable`, reads only beneath
   them and `readable` (or, with none given, every entry of / but /proc) and the files of
   its own /proc that runtimes read (no-op without Landlock) */
void landlock_bot(char **writable, int count, char **readable, int nreadable);

/* ---- helper.c ---- */
/* set up and exec one bot (or stay as its reaper) as the options in `argv` say */
int helper(int argc, char **argv);

/* ---- launcher.c ---- */
/* `judge-exec -L FD:PPID [-c FD]...`: serve requests to start bots until the judge is gone */
int launcher(int argc, char **argv);

#endif
