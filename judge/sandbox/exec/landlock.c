/* The bot's Landlock domain, where the kernel has Landlock (Linux 5.13 and later, enabled):
   a domain of its own for each bot, so that no other bot (of the same uid, as an ordinary
   user) can trace it or open its memory, nor it theirs; writes only beneath the folders it
   is given (its work dir, its private temporary folders, /proc, the usual devices), so
   that it cannot change the judge's files, database or cache even with the judge's uid;
   and (Linux 6.12 and later) no signal to and no abstract socket of any process outside its
   domain. Without Landlock the rest of the set-up applies as before (docs/sandbox.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <sys/stat.h>
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
/* the rights a rule on a file (not a folder) may give */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE)

/* Enter a new Landlock domain that allows writes beneath `writable` (paths; those that do
   not exist are skipped) only. No-op where the kernel has no Landlock. Needs no new
   privileges set (as the system call filter sets it). */
void landlock_bot(char **writable, int count) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return; /* (ENOSYS or EOPNOTSUPP: no Landlock here) */
    uint64_t handled = WRITES | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) |
                       (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
    struct ruleset_attr attr = {handled, 0,
                                abi >= 6 ? SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET : 0};
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr,
                               abi >= 6 ? sizeof attr : sizeof attr.handled_access_fs, 0);
    if (ruleset < 0) die("landlock", "ruleset");
    for (int k = 0; k < count; k++) {
        int fd = open(writable[k], O_PATH | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        if (fstat(fd, &st)) die("stat", writable[k]);
        struct landlock_path_beneath_attr rule = {
            S_ISDIR(st.st_mode) ? handled : handled & FILE_RIGHTS, fd};
        if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
            die("landlock", writable[k]);
        close(fd);
    }
    if (syscall(__NR_landlock_restrict_self, ruleset, 0)) die("landlock", "restrict");
    close(ruleset);
}
