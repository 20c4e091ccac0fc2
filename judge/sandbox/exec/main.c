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
 *   -I N           the -T and -w tmpfs mounts, and -n's, hold at most N files and folders
 *                  (nr_inodes: each is kernel memory that only a cgroup counts)
 *   -n DIR         (with CAP_SYS_ADMIN) bound the tmpfs on DIR, made by bwrap, to -I's N:
 *                  remounted, or where it may not (an ordinary user's bwrap runs it in a
 *                  nested user namespace) covered by a new one of the same size, mode and
 *                  owner, with copies of its files, in a mount namespace of its own
 *   -D             drop every capability once the mounts are made (as an ordinary user,
 *                  bwrap gives the helper CAP_SYS_ADMIN in its user namespace for -n)
 *   -i             (as root) private IPC and network namespaces, made for this game (the
 *                  network's loopback up)
 *   -P             (as root, in a mount namespace of its own: the one it makes, or bwrap's
 *                  as its PID 1) mount on /proc a proc of processes only (subset=pid): no
 *                  machine-wide file
 *   -N             (as root, from the launcher, with mounts and -x or -R) the launcher clones
 *                  this helper as PID 1 of a PID namespace made for this game, where it stays
 *                  as the bot's reaper; /proc is then that namespace's (with -P, its
 *                  processes only): the bot sees no process of the judge or another game
 *   -r R:SOFT:HARD set resource limit R (numbers; -1 is unlimited)
 *   -o PATH        (as root) give PATH to -u's uid (chown, not following a link)
 *   -x FD          stay as the bot's parent and reaper of all it leaves, and write its wait
 *                  status to FD ("S9", "E0"); with -s, answer the bot's sysinfo meanwhile
 *                  (its filter hands the calls over: see seccomp.c)
 *   -R             the same without the report (around bwrap, whose PID 1 outlives it)
 *   -u UID         drop every group and become UID (gid UID), losing all capabilities
 *   -W PATH        (repeated) a Landlock domain of the bot's own, where it may write only
 *                  beneath these paths (where the kernel has Landlock), and read only
 *                  beneath them, beneath every entry of / but /proc, and the files of its
 *                  own /proc that runtimes read
 *   -V PATH        (repeated, with -W) read only beneath these paths (and -W's, and its
 *                  own /proc files), not beneath every entry of /
 *   -s             no new privileges and the system call filter of seccomp.c: an
 *                  allowlist (any call not listed is refused with ENOSYS), some calls
 *                  only with certain arguments (no socket but a local pair, no
 *                  extended attribute, clone without new namespaces, no look into or
 *                  eviction from the page cache, no lock shared with another process)
 *   -g GROUPS      (with -s) the filter of the base set and these groups only, named with
 *                  commas ("threads,events,jit"; "base": none of them): a language's
 *                  runtime's needs; without -g every group (a compile, a program of no
 *                  language)
 *   -d DIR         change to DIR last
 *
 * `judge-exec -S [GROUPS]` prints the calls the filter allows, as built ("NAME NUMBER
 * [ruled]"): of those groups (as -g names them), or of every group.
 *
 * Everything after "--" is the command. Started as /proc/self/fd/N (by bwrap, given a
 * descriptor of the helper's file), it does not pass N on. A failure exits with status 126
 * and a message on stderr, which the judge reports as the bot's crash.
 *
 * `judge-exec -L FD:PPID [-c FD]...` is a launcher that a judge process keeps: it dies with
 * PPID, joins the cgroups given (so that what it forks is born in them, with no migration
 * per game), and for each request on the socket FD forks a child that does all of the
 * above (no exec of the helper per game). Without -x the child becomes the bot: the
 * launcher is its parent, reports how it ended and answers its sysinfo (-s). It holds the
 * private namespaces a child makes until it has reaped it, and when the judge is done or
 * gone it kills every process of the uids (-u) it started bots as. See `launcher()` for
 * requests and reports.
 */
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

#include <sys/prctl.h>

#include "exec.h"

int main(int argc, char **argv) {
    /* not to be looked into by a bot of the same uid (an ordinary user's judge): neither
       its memory nor its descriptors through /proc; a bot's exec makes its own dumpable */
    if (prctl(PR_SET_DUMPABLE, 0)) die("dumpable", NULL);
    /* started through a descriptor of its file (bwrap, which does not show the file): not
       passed on to the bot */
    if (argc > 0 && argv[0] && !strncmp(argv[0], "/proc/self/fd/", 14)) {
        char *end;
        long fd = strtol(argv[0] + 14, &end, 10);
        if (*end == 0 && end != argv[0] + 14 && fd >= 3 && fd < (1L << 20))
            fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    }
    if (argc >= 3 && !strcmp(argv[1], "-L")) return launcher(argc, argv);
    if ((argc == 2 || argc == 3) && !strcmp(argv[1], "-S")) {
        long groups = argc == 3 ? call_groups(argv[2]) : (long)ALL_CALL_GROUPS;
        if (groups < 0) { errno = EINVAL; die("bad groups", argv[2]); }
        print_calls((unsigned)groups);
        return fflush(stdout) ? 1 : 0;
    }
    return helper(argc, argv);
}
