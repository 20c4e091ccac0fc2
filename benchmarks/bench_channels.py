"""Bandwidth of seven residual channels between bots, measured on the machine it runs on.

1. `sysinfo`, between two bots playing at once on two cores (a `--jobs 2` run). For each
   symbol a sender holds a number of extra threads (`procs`: 2 levels, 0 or 8 threads, or
   4 levels, 0 to 15 in steps of 5; a bot may have 16 processes by default) or MiB of tmpfs
   (`sharedram`: a file of /dev/shm grown and shrunk, 1 MiB a level), and a receiver reads
   `sysinfo()` nine tenths into the symbol. Both are C programs run by the judge's exec
   helper as a game's bot is (the helper its reaper, the bot under its system call filter,
   whose `sysinfo` the helper answers; as uid 65534 when run as root), started at once and
   synchronised only by the wall clock: an agreed start time and symbol period. The first
   symbols are known to the receiver (it learns the levels from them); it then follows the
   drift of the rest of the machine from the symbols it decodes.
2. Pipe inode numbers, between consecutive games on one core. Linux numbers pipes and
   sockets from a counter per CPU, handed out in batches of 1024, so `inode % 1024` moves
   by one per pipe or socket made on that CPU, whoever makes it. A sender bot, at the end
   of its game, makes pipes until `inode % 1024` is its symbol; the next game's bot makes
   one pipe and reads `inode % 1024`. The games are played by the judge (Nim, one move
   each), pinned to one core as a `--jobs` worker is, under bubblewrap and without it, so
   that all the judge does between two games is in the channel. The receiver subtracts the
   offset learnt from the first pairs; with M symbols 1024/M apart, a symbol is decoded
   right when the residual is under half that spacing, so one set of pairs gives the
   error rate for every M.
3. A shared futex, between two bots playing at once on two cores. A futex without
   `FUTEX_PRIVATE_FLAG` on a page of a file is keyed by the file: both map the same
   system file read-only (`/etc/ld.so.cache`), the receiver waits on its first word until
   nine tenths into each symbol, the sender wakes it over and over through the first eight
   tenths of a 1 and does nothing in a 0. Run as the sysinfo channel's programs are (the
   exec helper, the filter, the wall clock).

4. Contention for the memory system, between two bots playing at once on two cores. For
   each symbol the sender either sleeps (0) or streams through a buffer larger than the
   processor's last-level cache (1); the receiver walks a buffer of its own for most of the
   symbol and counts its passes, fewer when the sender streams. No call and no file is
   involved: only the shared cache and memory bandwidth, which no sandbox on one machine
   separates (the organiser's remedies: `--jobs 1`, or one bot per machine).
5. The kernel's cache of names (dentries), from one game to the next. A lookup of a name
   that does not exist leaves a negative dentry, which makes the next lookup of it some
   four times faster, whoever made it: every bot sees the same system folders. A sender
   bot looks up those of a message's names (in `/usr/lib`) whose bit is 1; the next
   game's bot times a lookup of each, learns where fast ends from a known preamble and
   reads the bits. The games are played by the judge (Nim, one move each) in each mode,
   as the inode channel's are.
6. Descriptors in flight, between two bots at once. The kernel counts the descriptors sent
   over local sockets and not yet received per uid, and refuses a send (`ETOOMANYREFS`)
   while they are more than the sender's descriptor limit: through a 1 the sender keeps
   128 in flight, the receiver (64 descriptors at most, as a bot) sends one halfway into
   each symbol. Run as the futex channel's programs are, both with one uid (an ordinary
   user's tiers) and, as root, each with its own (root's slots).
7. Pipe pages, between two bots at once. The kernel counts the pages of an unprivileged
   uid's pipes (their sizes, not what they hold) and gives a new pipe two pages once they
   are past `pipe-user-pages-soft`: through a 1 the sender sets its 64 pipes to 1 MiB each
   (`F_SETPIPE_SZ`), the receiver makes a pipe and reads its size. Run as channel 6.

Each figure is bits per symbol (log2 of the levels), symbols per second, the symbol error
rate, the raw rate, and a capacity estimate: Fano's lower bound on the mutual information,
log2 M - H(e) - e log2(M - 1) bits per symbol, for uniform symbols and error rate e.
Whatever else runs on the machine is noise: the figures are this machine's, at that time.

Run: ``python benchmarks/bench_channels.py [--periods 0.25,0.5,1,2,5,20] [--pairs 100]
[--only sysinfo|inodes|futex|contention|dentries|inflight|pipes]``, as root or as an
ordinary user (under 5 minutes); needs `cc`.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judge.games.nim import Nim
from judge.players.bot import BotPlayer
from judge.players.optimal import OptimalPlayer
from judge.referee import play_game
from judge.sandbox import Limits, bwrap_path
from judge.sandbox.context import sandbox_context
from judge.sandbox.exec_helper import helper_path
from judge.sandbox.tiers import runsc_missing

#: the wall clock, a sleep until a time of it (ns) and pinning to a core, of the
#: channels' programs
CLOCK_C = r"""
static long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void until(long long ns) {
    struct timespec t = {ns / 1000000000, ns % 1000000000};
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &t, NULL)) {}
}

static void pin(const char *core) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(atoi(core), &cpus);
    sched_setaffinity(0, sizeof cpus, &cpus);
}
"""

#: sender and receiver of the sysinfo channel (argv: send|recv procs|sharedram START_NS
#: PERIOD_NS CORE UNIT SYMBOLS; a symbol is a digit, the level: threads or MiB = level x UNIT)
CHANNEL_C = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

static int stop[64];

static void *idle(void *flag) {
    while (!__atomic_load_n((int *)flag, __ATOMIC_ACQUIRE))
        syscall(SYS_futex, flag, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}
""" + CLOCK_C + r"""
int main(int argc, char **argv) {
    if (argc != 8) return 2;
    int send = argv[1][0] == 's', threads = argv[2][0] == 'p';
    long long start = atoll(argv[3]), period = atoll(argv[4]);
    long unit = atol(argv[6]);
    const char *symbols = argv[7];
    pin(argv[5]);
    prctl(PR_SET_TIMERSLACK, 1);  /* wake on time, not up to 50 us late */
    pthread_t tid[64];
    int held = 0, fd = -1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 16);
    if (send && !threads) {
        char path[64];
        snprintf(path, sizeof path, "/dev/shm/channel-%d", getpid());
        if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0) return 1;
        unlink(path);
    }
    for (long i = 0; symbols[i]; i++) {
        int level = symbols[i] - '0';
        if (!send) {
            struct sysinfo s;
            until(start + i * period + period * 9 / 10);
            sysinfo(&s);
            printf("%u %llu\n", s.procs, (unsigned long long)s.sharedram * s.mem_unit);
            continue;
        }
        until(start + i * period);
        if (threads) {
            int want = level * unit;
            for (; held < want; held++) {
                stop[held] = 0;
                if (pthread_create(&tid[held], &attr, idle, &stop[held])) return 1;
            }
            for (int j = want; j < held; j++) {
                __atomic_store_n(&stop[j], 1, __ATOMIC_RELEASE);
                syscall(SYS_futex, &stop[j], FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
            }
            for (; held > want; held--) pthread_join(tid[held - 1], NULL);
        } else {
            off_t size = (off_t)level * unit << 20;
            if (ftruncate(fd, size) || (size && fallocate(fd, 0, 0, size))) return 1;
        }
    }
    return 0;
}
"""

#: sender and receiver of the futex channel (argv: send|recv FILE START_NS PERIOD_NS CORE
#: SYMBOLS; a symbol is 0 or 1; the receiver prints one line a symbol: 1 if it was woken)
FUTEX_C = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
""" + CLOCK_C + r"""
int main(int argc, char **argv) {
    if (argc != 7) return 2;
    int send = argv[1][0] == 's', fd = open(argv[2], O_RDONLY);
    long long start = atoll(argv[3]), period = atoll(argv[4]);
    const char *symbols = argv[6];
    pin(argv[5]);
    unsigned *word = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    if (fd < 0 || word == MAP_FAILED) return 1;
    for (long i = 0; symbols[i]; i++) {
        long long from = start + i * period;
        until(from);
        if (send) {
            while (symbols[i] == '1' && now() < from + period * 8 / 10)
                syscall(SYS_futex, word, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
            continue;
        }
        long long to = from + period * 9 / 10;
        struct timespec deadline = {to / 1000000000, to % 1000000000};
        long woken = syscall(SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, *word,
                             &deadline, NULL, FUTEX_BITSET_MATCH_ANY);
        printf("%d\n", woken == 0);
    }
    return 0;
}
"""

#: sender and receiver of the in-flight descriptors channel (argv as FUTEX_C's, the file
#: unused): through a 1 the sender keeps 128 descriptors in flight in a socket pair of its
#: own (sent, not received); the receiver, with 64 descriptors at most as a bot, sends one
#: in a pair of its own halfway into each symbol and prints 1 where the kernel refused it
#: (ETOOMANYREFS: its uid's descriptors in flight are more than its limit)
INFLIGHT_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
""" + CLOCK_C + r"""
/* `count` copies of descriptor 0 in one message; 0 or the error */
static int send_fds(int sock, int count) {
    char data = 'x', control[CMSG_SPACE(128 * sizeof(int))];
    struct iovec io = {&data, 1};
    struct msghdr msg = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control,
                         .msg_controllen = CMSG_SPACE(count * sizeof(int))};
    memset(control, 0, sizeof control);
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(count * sizeof(int));
    return sendmsg(sock, &msg, 0) < 0 ? errno : 0;
}

/* what was sent, its descriptors closed by the kernel (no room for them) */
static void drain(int sock) {
    char data[256];
    while (recv(sock, data, sizeof data, MSG_DONTWAIT) > 0) {}
}

int main(int argc, char **argv) {
    if (argc != 7) return 2;
    int send = argv[1][0] == 's', pair[2];
    long long start = atoll(argv[3]), period = atoll(argv[4]);
    const char *symbols = argv[6];
    pin(argv[5]);
    struct rlimit files = {64, 64};
    if (!send && setrlimit(RLIMIT_NOFILE, &files)) return 1;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) return 1;
    for (long i = 0; symbols[i]; i++) {
        long long from = start + i * period;
        if (send) {
            until(from);
            if (symbols[i] == '1' && send_fds(pair[0], 128)) return 1;
            until(from + period * 9 / 10);
            drain(pair[1]);
            continue;
        }
        until(from + period / 2);
        int err = send_fds(pair[0], 1);
        drain(pair[1]);
        printf("%d\n", err == ETOOMANYREFS);
    }
    return 0;
}
"""

#: sender and receiver of the pipe pages channel (argv as FUTEX_C's, the file unused):
#: through a 1 the sender's 64 pipes are 1 MiB each (the user's pipe pages past
#: pipe-user-pages-soft, 64 MiB), else a page; the receiver makes a pipe halfway into each
#: symbol and prints 1 where the kernel gave it two pages (its uid is past the soft limit)
PIPES_C = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
""" + CLOCK_C + r"""
int main(int argc, char **argv) {
    if (argc != 7) return 2;
    int send = argv[1][0] == 's', pipes[64][2];
    long long start = atoll(argv[3]), period = atoll(argv[4]);
    const char *symbols = argv[6];
    pin(argv[5]);
    for (int k = 0; send && k < 64; k++)
        if (pipe(pipes[k])) return 1;
    for (long i = 0; symbols[i]; i++) {
        long long from = start + i * period;
        if (send) {
            until(from);
            for (int k = 0; k < 64; k++)
                fcntl(pipes[k][0], F_SETPIPE_SZ, symbols[i] == '1' ? 1 << 20 : 4096);
            continue;
        }
        until(from + period / 2);
        int fds[2];
        if (pipe(fds)) return 1;
        printf("%d\n", fcntl(fds[0], F_GETPIPE_SZ) <= 8192);
        close(fds[0]);
        close(fds[1]);
    }
    return 0;
}
"""

#: sender and receiver of the contention channel (argv: send|recv START_NS PERIOD_NS CORE
#: MIB SYMBOLS): the sender streams through MIB MiB during a 1 (more than the last-level
#: cache), the receiver prints the passes it made over MIB/4 MiB of its own (what the cache
#: holds while the sender sleeps) in the middle 80% of each symbol
CONTENTION_C = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
""" + CLOCK_C + r"""
int main(int argc, char **argv) {
    if (argc != 7) return 2;
    int send = argv[1][0] == 's';
    long long start = atoll(argv[2]), period = atoll(argv[3]);
    size_t size = (size_t)atol(argv[5]) << 20;
    const char *symbols = argv[6];
    pin(argv[4]);
    volatile unsigned char *buffer = malloc(size);
    if (!buffer) return 1;
    memset((void *)buffer, 1, size);
    unsigned sum = 0;
    for (long i = 0; symbols[i]; i++) {
        long long from = start + i * period, to = from + period;
        if (send) {
            until(from);
            while (symbols[i] == '1' && now() < to - period / 20)
                for (size_t j = 0; j < size; j += 64) buffer[j]++;
            continue;
        }
        until(from + period / 10);
        long passes = 0;
        for (long long end = to - period / 10; now() < end; passes++)
            for (size_t j = 0; j < size / 4; j += 64) sum += buffer[j];
        printf("%ld\n", passes);
    }
    return sum == 42;
}
"""

#: the dentry channel's bot, in C (see its comment)
DENTRY_C = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

/* BOT_SEED = 2 k (the sender) or 2 k + 1 (the receiver) of message k: BITS names in the
   system's library folder, each looked up by the sender if its bit is 1 (the first
   PREAMBLE alternate 1, 0, ... for the receiver to learn from), then looked up by the
   receiver and timed; each says its bits on stderr in hexadecimal */
enum { BITS = 4096, PREAMBLE = 64 };

static long long ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(void) {
    const char *seed = getenv("BOT_SEED");
    long k = seed ? atol(seed) : 0;
    int receiver = k & 1;
    static char bit[BITS];
    static long long took[BITS];
    unsigned long long x = 88172645463325252ULL ^ (unsigned long long)(k >> 1);
    for (int i = 0; i < BITS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        bit[i] = i < PREAMBLE ? !(i & 1) : (char)(x & 1);
    }
    char name[96];
    struct stat st;
    stat("/usr/lib", &st);
    for (int i = 0; i < BITS; i++) {
        snprintf(name, sizeof name, "/usr/lib/.judge-bench-%ld-%d", k >> 1, i);
        if (receiver) {
            long long t = ns();
            stat(name, &st);
            took[i] = ns() - t;
        } else if (bit[i]) {
            stat(name, &st);
        }
    }
    if (receiver) { /* the threshold: between the preamble's medians of 1s and 0s */
        long long ones[PREAMBLE / 2], zeros[PREAMBLE / 2];
        for (int i = 0; i < PREAMBLE; i++) (i & 1 ? zeros : ones)[i / 2] = took[i];
        qsort(ones, PREAMBLE / 2, sizeof ones[0], cmp);
        qsort(zeros, PREAMBLE / 2, sizeof zeros[0], cmp);
        long long threshold = (ones[PREAMBLE / 4] + zeros[PREAMBLE / 4]) / 2;
        for (int i = 0; i < BITS; i++) bit[i] = took[i] < threshold;
    }
    for (int i = 0; i < BITS; i += 4)
        fprintf(stderr, "%x", bit[i] | bit[i + 1] << 1 | bit[i + 2] << 2 | bit[i + 3] << 3);
    fprintf(stderr, "\n");
    char line[64];
    if (!fgets(line, sizeof line, stdin)) return 0;
    printf("1 1\n");
    fflush(stdout);
    fgets(line, sizeof line, stdin);
    return 0;
}
"""

#: the inode channel's bot (Nim, one heap of one counter: it takes it and the game is over);
#: a sender (BOT_SEED = its symbol) sets the counter at the end of its game, a receiver
#: reads it at its start
INODE_BOT = """
import os, sys

def inode():
    r, w = os.pipe()
    number = os.fstat(r).st_ino
    os.close(r)
    os.close(w)
    return number

symbol = int(os.environ.get("BOT_SEED", "-1"))
if symbol < 0:
    print("inode", inode(), file=sys.stderr, flush=True)
sys.stdin.readline()
print("1 1", flush=True)
sys.stdin.readline()
while symbol >= 0 and inode() % 1024 != symbol:
    pass
"""

#: symbols known to the receiver before the message (each level in turn)
PREAMBLE = 16
#: inode numbers are handed out to each CPU in batches of this many
BATCH = 1024
#: symbols per game transition tried on the inode channel
LEVELS = (4, 16, 64, 256, 1024)


def entropy(p: float) -> float:
    return 0.0 if p <= 0 or p >= 1 else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def fano(levels: int, errors: float) -> float:
    """Bits per symbol that get through at least: Fano's bound for uniform symbols."""
    if errors >= 1 - 1 / levels:
        return 0.0
    return math.log2(levels) - entropy(errors) - errors * math.log2(levels - 1)


def decode(samples: list[float], sent: list[int], unit: float, levels: int) -> list[int]:
    """The levels read from `samples`: the baseline from the preamble, then followed over
    the last 9 symbols as decoded (the rest of the machine drifts)."""
    bases = [s - level * unit for s, level in zip(samples[:PREAMBLE], sent, strict=False)]
    got = []
    for sample in samples[PREAMBLE:]:
        level = min(levels - 1, max(0, round((sample - statistics.median(bases[-9:])) / unit)))
        got.append(level)
        bases.append(sample - level * unit)
    return got


def centred(shift: int) -> int:
    """`shift` modulo the batch, from -512 to 511."""
    return (shift + BATCH // 2) % BATCH - BATCH // 2


def learn(shifts: list[int], levels: int) -> int:
    """The offset a receiver takes from `shifts` (the sender's symbol to what it read) for
    `levels` symbols: the one that decodes most of them right, of those the nearest to all."""
    half = BATCH // levels / 2

    def score(offset: int) -> tuple[int, int]:
        residuals = [centred(s - offset) for s in shifts]
        return sum(-half <= r < half for r in residuals), -sum(map(abs, residuals))

    return max(range(BATCH), key=score)


def sysinfo_trial(program: Path, kind: str, levels: int, period: float, seconds: float,
                  unit: int, rng: random.Random) -> float:
    """The symbol error rate of one message of random symbols."""
    count = max(100, int(seconds / period))
    sent = [i % levels for i in range(PREAMBLE)]
    sent += [rng.randrange(levels) for _ in range(count)]
    symbols = "".join(map(str, sent))
    # (the helper stays as the bot's reaper, as for a game: it answers the bot's sysinfo)
    as_bot = [str(helper_path()), "-R", *(["-u", "65534"] if os.geteuid() == 0 else []), "-s",
              "--"]
    start = time.time_ns() + 300_000_000
    cores = sorted(os.sched_getaffinity(0))
    argv = [str(start), str(int(period * 1e9))]
    procs = [subprocess.Popen([*as_bot, str(program), role, kind, *argv, str(core),
                               str(unit), symbols], stdout=subprocess.PIPE, text=True)
             for role, core in (("send", cores[0]), ("recv", cores[-1]))]
    out = [p.communicate()[0] for p in procs]
    if any(p.returncode for p in procs):
        raise RuntimeError(f"the channel's programs failed: {[p.returncode for p in procs]}")
    rows = [line.split() for line in out[1].splitlines()]
    samples = [float(r[0]) if kind == "procs" else float(r[1]) / (1 << 20) for r in rows]
    got = decode(samples, sent, unit, levels)
    errors = sum(a != b for a, b in zip(got, sent[PREAMBLE:], strict=True))
    return errors / count


def bench_sysinfo(periods: list[float], seconds: float, shm_mib: int) -> None:
    """Channel 1: each figure, number of levels and period, and the best rate of each."""
    print(f"\n1. sysinfo between two bots at once (sender on core 0, receiver on the last; "
          f"{seconds:g} s or 100 symbols per message)")
    print(f"  {'figure':10} {'levels':>6} {'period':>8} {'sym/s':>6} {'bits/sym':>8} "
          f"{'errors':>7} {'raw b/s':>8} {'capacity b/s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        source, program = Path(tmp, "channel.c"), Path(tmp, "channel")
        source.write_text(CHANNEL_C)
        subprocess.run(["cc", "-O2", "-pthread", "-o", str(program), str(source)], check=True)
        rng = random.Random(1)
        for kind, units in (("procs", {2: 8, 4: 5}), ("sharedram", {2: shm_mib, 4: shm_mib})):
            best = (0.0, "")
            for levels, unit in units.items():
                for period in periods:
                    errors = sysinfo_trial(program, kind, levels, period, seconds, unit, rng)
                    rate = 1 / period
                    capacity = fano(levels, errors) * rate
                    print(f"  {kind:10} {levels:6} {period * 1000:6g} ms {rate:6.0f} "
                          f"{math.log2(levels):8.0f} {errors:7.1%} "
                          f"{math.log2(levels) * rate:8.0f} {capacity:12.1f}")
                    best = max(best, (capacity, f"{levels} levels, {period * 1000:g} ms, "
                                                f"{errors:.1%} errors"))
            print(f"  best {kind}: {best[0]:.0f} bits/s ({best[1]})")


def futex_trial(program: Path, period: float, seconds: float, rng: random.Random,
                uids: tuple[int, int] = (65534, 65534)) -> float:
    """The symbol error rate of one message of random bits over a shared futex (or another
    channel whose programs take the futex's arguments), sender and receiver as `uids` when
    run as root."""
    count = max(100, int(seconds / period))
    sent = [rng.randrange(2) for _ in range(count)]
    as_bot = [str(helper_path()), "-R"]
    start = time.time_ns() + 300_000_000
    cores = sorted(os.sched_getaffinity(0))
    procs = [subprocess.Popen([*as_bot, *(["-u", str(uid)] if os.geteuid() == 0 else []), "-s",
                               "--", str(program), role, "/etc/ld.so.cache", str(start),
                               str(int(period * 1e9)), str(core), "".join(map(str, sent))],
                              stdout=subprocess.PIPE, text=True)
             for role, core, uid in (("send", cores[0], uids[0]), ("recv", cores[-1], uids[1]))]
    out = [p.communicate()[0] for p in procs]
    if any(p.returncode for p in procs):
        raise RuntimeError(f"the channel's programs failed: {[p.returncode for p in procs]}")
    got = [int(line) for line in out[1].split()]
    return sum(a != b for a, b in zip(got, sent, strict=True)) / count


def bench_bits(title: str, source_text: str, periods: list[float], seconds: float,
               rng: random.Random, kinds: list[tuple[str, tuple[int, int]]]) -> None:
    """A channel of bits between two bots at once (`futex_trial`'s): each period, for each
    kind of run (the uids of sender and receiver as root), and the best rate of each."""
    print(f"\n{title} (sender on core 0, receiver on the last; {seconds:g} s or 100 symbols "
          f"per message)")
    print(f"  {'uids':9} {'period':>8} {'sym/s':>6} {'errors':>7} {'capacity b/s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        source, program = Path(tmp, "channel.c"), Path(tmp, "channel")
        source.write_text(source_text)
        subprocess.run(["cc", "-O2", "-o", str(program), str(source)], check=True)
        for kind, uids in kinds:
            best = (0.0, "")
            for period in periods:
                errors = futex_trial(program, period, seconds, rng, uids)
                capacity = fano(2, errors) / period
                print(f"  {kind:9} {period * 1000:6g} ms {1 / period:6.0f} {errors:7.1%} "
                      f"{capacity:12.1f}")
                best = max(best, (capacity, f"{period * 1000:g} ms, {errors:.1%} errors"))
            print(f"  best, {kind} uid: {best[0]:.0f} bits/s ({best[1]})")


def bench_futex(periods: list[float], seconds: float) -> None:
    """Channel 3: each period, and the best rate."""
    bench_bits("3. a shared futex between two bots at once", FUTEX_C, periods, seconds,
               random.Random(3), [("one", (65534, 65534))])


def bench_inflight(periods: list[float], seconds: float) -> None:
    """Channel 6: each period, with one uid for both (an ordinary user's tiers) and, as
    root, a uid each (root's slots)."""
    kinds = [("one", (65534, 65534))]
    if os.geteuid() == 0:
        kinds.append(("one each", (65534, 65533)))
    bench_bits("6. descriptors in flight, counted per uid, between two bots at once",
               INFLIGHT_C, periods, seconds, random.Random(6), kinds)


def bench_pipes(periods: list[float], seconds: float) -> None:
    """Channel 7: each period, with one uid for both (an ordinary user's tiers) and, as
    root, a uid each (root's slots)."""
    kinds = [("one", (65534, 65534))]
    if os.geteuid() == 0:
        kinds.append(("one each", (65534, 65533)))
    bench_bits("7. pipe pages, counted per uid, between two bots at once", PIPES_C, periods,
               seconds, random.Random(7), kinds)


def bench_contention(periods: list[float], seconds: float, mib: int) -> None:
    """Channel 4: two levels (idle or streaming) at each period, on two cores at once."""
    cores = sorted(os.sched_getaffinity(0))
    print(f"\n4. contention for cache and memory between two bots at once (sender on core "
          f"{cores[0]}, receiver on core {cores[-1]}, {mib} and {mib // 4} MiB; {seconds:g} s "
          f"or 100 symbols per message)")
    print(f"  {'period':>8} {'sym/s':>6} {'errors':>7} {'raw b/s':>8} {'capacity b/s':>12}")
    if len(cores) < 2:
        print("  (one core: the bots never play at the same time)")
        return
    as_bot = [str(helper_path()), "-R", *(["-u", "65534"] if os.geteuid() == 0 else []), "-s",
              "--"]
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        source, program = Path(tmp, "contention.c"), Path(tmp, "contention")
        source.write_text(CONTENTION_C)
        subprocess.run(["cc", "-O2", "-o", str(program), str(source)], check=True)
        best = (0.0, "")
        for period in periods:
            count = max(100, int(seconds / period))
            sent = [i % 2 for i in range(PREAMBLE)] + [rng.randrange(2) for _ in range(count)]
            start = time.time_ns() + 300_000_000
            argv = [str(start), str(int(period * 1e9))]
            procs = [subprocess.Popen([*as_bot, str(program), role, *argv, str(core), str(mib),
                                       "".join(map(str, sent))], stdout=subprocess.PIPE,
                                      text=True)
                     for role, core in (("send", cores[0]), ("recv", cores[-1]))]
            out = [p.communicate()[0] for p in procs]
            if any(p.returncode for p in procs):
                raise RuntimeError(f"the channel's programs failed: "
                                   f"{[p.returncode for p in procs]}")
            samples = [float(line) for line in out[1].split()]
            # passes fall when the sender streams: the unit is the preamble's gap (negative)
            known = list(zip(samples, sent[:PREAMBLE], strict=False))
            unit = (statistics.median(s for s, b in known if b)
                    - statistics.median(s for s, b in known if not b)) or -1.0
            got = decode(samples, sent, unit, 2)
            errors = sum(a != b for a, b in zip(got, sent[PREAMBLE:], strict=True)) / count
            rate = 1 / period
            capacity = fano(2, errors) * rate
            print(f"  {period * 1000:6g} ms {rate:6.0f} {errors:7.1%} {rate:8.0f} "
                  f"{capacity:12.1f}")
            best = max(best, (capacity, f"{period * 1000:g} ms, {errors:.1%} errors"))
        print(f"  best: {best[0]:.0f} bits/s ({best[1]})")


def bench_inodes(pairs: int, calibration: int) -> None:
    """Channel 2: in each sandbox mode, the symbols decoded right for each number of them."""
    core = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # the judge and its bots on one core, as with --jobs
    modes = ["none", "bwrap"] if bwrap_path() else ["none"]
    print(f"\n2. pipe inode numbers between consecutive games on core {core} "
          f"({calibration} pairs to learn the offset, then {pairs} pairs): the share of")
    print("  symbols decoded right and the bits per game transition, with M symbols")
    columns = "".join(f"   {f'M={m}':>9}" for m in LEVELS)
    print(f"  {'mode':6} {'offset':>6} {'ms/game':>7}{columns}   residual: median / worst")
    game, limits, rng = Nim(), Limits(), random.Random(2)
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        bot = Path(tmp, "bot.py")
        bot.write_text(INODE_BOT)
        bot.chmod(0o644)

        def played(symbol: int | None, mode: str) -> str:
            player = BotPlayer(bot, limits, mode, seed=symbol)
            record = play_game(game, [player, OptimalPlayer()], game.parse_position("1"),
                               limits)
            if record.verdict.code != "ok":
                raise RuntimeError(f"a game ended {record.verdict}")
            return record.stderr[0] or ""

        for mode in modes:
            try:
                played(None, mode)  # the judge's first game starts its launchers
                began = time.perf_counter()
                shifts = []
                for _ in range(calibration + pairs):
                    symbol = rng.randrange(BATCH)
                    played(symbol, mode)
                    shifts.append((int(played(None, mode).split()[1]) - symbol) % BATCH)
                seconds = (time.perf_counter() - began) / (calibration + pairs) / 2
            finally:
                sandbox_context().close()
            learnt, tried = shifts[:calibration], shifts[calibration:]
            offset = learn(learnt, BATCH)
            line = f"  {mode:6} {offset:6} {seconds * 1000:7.0f}"
            for levels in LEVELS:
                half, own = BATCH // levels / 2, learn(learnt, levels)
                errors = sum(not -half <= centred(s - own) < half for s in tried) / len(tried)
                line += f"   {1 - errors:4.0%} {fano(levels, errors):4.1f}"
            residuals = sorted((centred(s - offset) for s in tried), key=abs)
            print(f"{line}   {residuals[len(residuals) // 2]} / {residuals[-1]}")


def bench_dentries(messages: int) -> None:
    """Channel 5: in each sandbox mode, the bits of a message of 4096 carried from one game
    to the next, and how long the receiver took to read them."""
    modes = ["none", "bwrap"] if bwrap_path() else ["none"]
    modes += [] if runsc_missing() else ["gvisor"]
    print(f"\n5. negative dentries of names in /usr/lib between consecutive games "
          f"({messages} messages of 4096 bits, 64 of them a known preamble)")
    print(f"  {'mode':6} {'errors':>7} {'worst':>7} {'bits/game':>9} {'ms/game':>7}")
    game, limits, rng = Nim(), Limits(), random.Random()  # names never looked up before
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        bot = Path(tmp, "dentry.c")
        bot.write_text(DENTRY_C)
        bot.chmod(0o644)

        def played(seed: int, mode: str) -> tuple[int, float]:
            player = BotPlayer(bot, limits, mode, seed=seed)
            began = time.perf_counter()
            record = play_game(game, [player, OptimalPlayer()], game.parse_position("1"),
                               limits)
            if record.verdict.code != "ok":
                raise RuntimeError(f"a game ended {record.verdict}")
            return int((record.stderr[0] or "").split()[0][::-1], 16), time.perf_counter() - began

        for mode in modes:
            rates, seconds = [], []
            try:
                for _ in range(messages):
                    message = rng.randrange(1 << 40)
                    sent, _ = played(2 * message, mode)
                    got, took = played(2 * message + 1, mode)
                    rates.append(bin(sent ^ got).count("1") / 4096)
                    seconds.append(took)
            finally:
                sandbox_context().close()
            errors = statistics.mean(rates)
            print(f"  {mode:6} {errors:7.2%} {max(rates):7.2%} {fano(2, errors) * 4032:9.0f} "
                  f"{statistics.median(seconds) * 1000:7.0f}")


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--periods", default="0.25,0.5,1,2,5,20",
                    help="symbol periods of the sysinfo channel, ms (default 0.25,0.5,1,2,5,20)")
    ap.add_argument("--seconds", type=float, default=1.5,
                    help="length of each sysinfo message, s (at least 100 symbols)")
    ap.add_argument("--shm-mib", type=int, default=1,
                    help="MiB of tmpfs per level of the sharedram channel (default 1)")
    ap.add_argument("--pairs", type=int, default=100,
                    help="sender/receiver game pairs per sandbox mode (default 100)")
    ap.add_argument("--calibration", type=int, default=20,
                    help="pairs before those, to learn the offset (default 20)")
    ap.add_argument("--contention-periods", default="2,5,20,100",
                    help="symbol periods of the contention channel, ms (default 2,5,20,100)")
    ap.add_argument("--contention-mib", type=int, default=128,
                    help="MiB the contention channel's sender streams through, a quarter of "
                         "it the receiver's (default 128: the last-level cache is often 32)")
    ap.add_argument("--messages", type=int, default=10,
                    help="messages of the dentry channel per sandbox mode (default 10)")
    ap.add_argument("--only", choices=("all", "sysinfo", "inodes", "futex", "contention",
                                       "dentries", "inflight", "pipes"), default="all")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, Linux {os.uname().release}, load average {load:.2f}, "
          f"{'root' if os.geteuid() == 0 else 'an ordinary user'}; {time.ctime()}")
    periods = [float(p) / 1000 for p in args.periods.split(",")]
    if args.only in ("all", "futex"):
        bench_futex(periods, args.seconds)
    if args.only in ("all", "sysinfo"):
        bench_sysinfo(periods, args.seconds, args.shm_mib)
    if args.only in ("all", "inodes"):
        bench_inodes(args.pairs, args.calibration)
    if args.only in ("all", "contention"):
        bench_contention([float(p) / 1000 for p in args.contention_periods.split(",")],
                         args.seconds, args.contention_mib)
    if args.only in ("all", "dentries"):
        bench_dentries(args.messages)
    if args.only in ("all", "inflight"):
        bench_inflight(periods, args.seconds)
    if args.only in ("all", "pipes"):
        bench_pipes(periods, args.seconds)


if __name__ == "__main__":
    sys.exit(main())
