/* The bot's Landlock domain, where the kernel has Landlock (Linux 5.13 and later, enabled):
   a domain of its own for each bot, so that no other bot (of the same uid, as an ordinary
   user) can trace it or open its memory, nor it theirs; writes only beneath the folders it
   is given (its work dir, its private temporary folders, the usual devices), so that it
   cannot change the judge's files, database or cache even with the judge's uid; reads
   beneath the paths it is given (without bubblewrap: the system, its runtime, its own
   file), or anywhere, but in /proc only the files of its own process that the runtimes
   read (`PROC_OWN`); and (Linux 6.12 and later) no signal to and no abstract socket
   of any process outside its domain. Without Landlock the rest of the set-up applies as
   before (docs/sandbox.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <dirent.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec.h"

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)

/* (the kernel's struct landlock_ruleset_attr as of Landlock ABI 6) */
struct ruleset_attr {
    uint64_t handled_access_fs, handled_access_net, scoped;
};

/* what changes the file system: taken from the bot but beneath the folders given */
#define WRITES (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |          \
                LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |         \
                LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |             \
                LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |           \
                LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM)
/* what reads the file system: allowed beneath every top-level folder but /proc */
#define READS (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* the rights a rule on a file (not a folder) may give */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |           \
                     LANDLOCK_ACCESS_FS_READ_FILE)

/* the files of its own /proc/PID that a bot may read, those the runtimes of the language
   table read (docs/sandbox.md): its mappings (glibc's pthread_getattr_np of the main
   thread, in Rust's and Node.js's start), its cgroup and mounts (the JVM's and Node.js's
   container limits). Not its page map, fdinfo, memory or any other: each is a channel */
static const char *const PROC_OWN[] = {"maps", "cgroup", "mountinfo"};

/* add a rule giving `rights` beneath the file `fd` is open on (a file gets those of its
   kind only), then close it */
static void allow(int ruleset, int fd, uint64_t rights, const char *what) {
    struct stat st;
    if (fstat(fd, &st)) die("stat", what);
    struct landlock_path_beneath_attr rule = {
        S_ISDIR(st.st_mode) ? rights : rights & FILE_RIGHTS, fd};
    if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
        die("landlock", what);
    close(fd);
}

/* allow `rights` beneath the file `fd` is open on (closing it), unless it is on a proc file
   system (/proc, or a link to it) */
static void allow_but_proc(int ruleset, int fd, uint64_t rights, const char *what) {
    struct statfs fs;
    if (fstatfs(fd, &fs) || fs.f_type == PROC_SUPER_MAGIC) {
        close(fd);
        return;
    }
    allow(ruleset, fd, rights, what);
}

/* reads beneath `readable` (paths; those that do not exist are skipped), or with none given
   beneath every entry of /, but nothing on a proc file system; and of /proc only the files
   of `PROC_OWN` of this process (the bot, after its exec) */
static void allow_reads(int ruleset, char **readable, int count) {
    if (count) {
        for (int k = 0; k < count; k++) {
            int fd = open(readable[k], O_PATH | O_CLOEXEC);
            if (fd >= 0) allow_but_proc(ruleset, fd, READS, readable[k]);
        }
    } else {
        DIR *root = opendir("/");
        if (!root) die("opendir", "/");
        struct dirent *ent;
        while ((ent = readdir(root))) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
            int fd = openat(dirfd(root), ent->d_name, O_PATH | O_CLOEXEC);
            if (fd >= 0) allow_but_proc(ruleset, fd, READS, ent->d_name);
        }
        closedir(root);
    }
    for (size_t k = 0; k < sizeof PROC_OWN / sizeof *PROC_OWN; k++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/%s", (int)getpid(), PROC_OWN[k]);
        int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) allow(ruleset, fd, LANDLOCK_ACCESS_FS_READ_FILE, path);
    }
}

/* Enter a new Landlock domain that allows writes beneath `writable` (paths; those that do
   not exist are skipped) only, and reads beneath them and as `allow_reads` says. No-op
   where the kernel has no Landlock. Needs no new privileges set (as the system call filter
   sets it). */
void landlock_bot(char **writable, int count, char **readable, int nreadable) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return; /* (ENOSYS or EOPNOTSUPP: no Landlock here) */
    uint64_t handled = WRITES | READS | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) |
                       (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
    struct ruleset_attr attr = {handled, 0,
                                abi >= 6 ? SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET : 0};
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr,
                               abi >= 6 ? sizeof attr : sizeof attr.handled_access_fs, 0);
    if (ruleset < 0) die("landlock", "ruleset");
    for (int k = 0; k < count; k++) {
        int fd = open(writable[k], O_PATH | O_CLOEXEC);
        if (fd >= 0) allow(ruleset, fd, handled, writable[k]);
    }
    allow_reads(ruleset, readable, nreadable);
    if (syscall(__NR_landlock_restrict_self, ruleset, 0)) die("landlock", "restrict");
    close(ruleset);
}
