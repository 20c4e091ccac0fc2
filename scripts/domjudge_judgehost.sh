#!/bin/sh
# Build and install DOMjudge's judgehost (judgedaemon, runguard, runpipe, its scripts) from
# a DOMjudge git checkout into PREFIX, as root, for tests/test_contest_systems.py (which
# plays a stand-in domserver to it): JUDGE_DOMJUDGE_HOME=PREFIX python -m pytest -m slow ...
#
#   sh scripts/domjudge_judgehost.sh DOMJUDGE_CHECKOUT PREFIX
#
# Needs: apt-get install g++ libcgroup-dev libcap-dev libfmt-dev php-cli php-curl sudo.
# runguard at DOMjudge's HEAD needs cgroup v2 with the memory controller; on a machine with
# cgroup v1 the runguard of the last commit that had it is built. The chroot is the host's
# own /usr and /etc (DOMjudge makes one with dj_make_chroot); Python runs with python3 where
# DOMjudge's default is pypy3.
set -eu
SRC=$(realpath "$1"); H=$(realpath -m "$2"); B=$H/build
rm -rf "$H"; mkdir -p "$B/shim" "$H/bin" "$H/etc" "$H/lib/judge" "$H/log" "$H/run" "$H/tmp" \
    "$H/judgings" "$H/lang"
REV=$(git -C "$SRC" rev-parse --short=12 HEAD)
printf '#define DOMJUDGE_VERSION "%s"\n#define REVISION "%s"\n#define HAVE_SYSLOG_H 1\n' \
    "$REV" "$REV" > "$B/config.h"
# GCC 12 has no <format>: {fmt} stands in for it
printf '#pragma once\n#include <fmt/format.h>\n#include <fmt/chrono.h>\nnamespace std {\n%s\n}\n' \
    'using fmt::format; using fmt::format_error; template <class... A> using format_string = fmt::format_string<A...>;' \
    > "$B/shim/format"
sed -e "s|@RUNUSER@|domjudge-run|g; s|@judgehost_judgedir@|$H/judgings|" \
    "$SRC/etc/runguard-config.h.in" > "$B/runguard-config.h"
CXX="g++ -O2 -std=c++20 -I $B -I $B/shim -I $SRC/lib"
for f in lib.error lib.misc; do $CXX -c "$SRC/lib/$f.cc" -o "$B/$f.o"; done
$CXX -o "$H/bin/runpipe" "$SRC/judge/runpipe.cc" "$B/lib.error.o" "$B/lib.misc.o" -lfmt
$CXX -o "$H/lib/judge/evict" "$SRC/judge/evict.cc" "$B/lib.error.o" "$B/lib.misc.o" -lfmt
if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then
    $CXX -o "$H/bin/runguard" "$SRC/judge/runguard.cc" "$B/lib.error.o" "$B/lib.misc.o" \
        -lcgroup -lfmt
else
    V1=$(git -C "$SRC" log -1 --format=%H --grep='Remove support for cgroup v1')^
    mkdir -p "$B/v1"
    git -C "$SRC" archive "$V1" judge/runguard.cc lib | tar -x -C "$B/v1"
    for f in lib.error lib.misc; do gcc -O2 -I "$B" -c "$B/v1/lib/$f.c" -o "$B/v1/$f.o"; done
    g++ -O2 -std=c++20 -I "$B" -I "$B/v1/lib" -o "$H/bin/runguard" "$B/v1/judge/runguard.cc" \
        "$B/v1/lib.error.o" "$B/v1/lib.misc.o" -lcgroup
    for c in cpuset memory cpu cpuacct; do mkdir -p "/sys/fs/cgroup/$c/domjudge"; done
    cat /sys/fs/cgroup/cpuset/cpuset.cpus > /sys/fs/cgroup/cpuset/domjudge/cpuset.cpus
    cat /sys/fs/cgroup/cpuset/cpuset.mems > /sys/fs/cgroup/cpuset/domjudge/cpuset.mems
fi
sub() {
    sed -e "s|@judgehost_bindir@|$H/bin|g; s|@judgehost_etcdir@|$H/etc|g; \
s|@judgehost_libdir@|$H/lib|g; s|@judgehost_libjudgedir@|$H/lib/judge|g; \
s|@judgehost_logdir@|$H/log|g; s|@judgehost_rundir@|$H/run|g; s|@judgehost_tmpdir@|$H/tmp|g; \
s|@judgehost_judgedir@|$H/judgings|g; s|@judgehost_chrootdir@|/|g; s|@RUNUSER@|domjudge-run|g; \
s|@RUNGROUP@|domjudge-run|g; s|@DOMJUDGE_USER@|domjudge|g; s|@DOMJUDGE_VERSION@|$REV|g; \
s|@configure_input@|made by scripts/domjudge_judgehost.sh|g" "$1"
}
sub "$SRC/judge/judgedaemon.in" > "$H/bin/judgedaemon"
sub "$SRC/etc/judgehost-static.php.in" > "$H/etc/judgehost-static.php"
sub "$SRC/judge/chroot-startstop.sh.in" > "$H/lib/judge/chroot-startstop.sh"
cp "$SRC/etc/judgehost-config.php" "$H/etc/"
cp "$SRC"/lib/*.php "$SRC/lib/lib.error.sh" "$H/lib/"
for f in compile.sh build_executable.sh check_diff.sh version_check.sh run-interactive.sh \
    judgedaemon.main.php; do cp "$SRC/judge/$f" "$H/lib/judge/"; done
chmod 755 "$H/bin/judgedaemon" "$H"/lib/judge/*.sh
for lang in c py3; do cp -r "$SRC/sql/files/defaultdata/$lang" "$H/lang/"; done
command -v pypy3 >/dev/null || sed -i 's/pypy3/python3/g' "$H/lang/py3/run"
getent passwd domjudge >/dev/null || useradd -r -M -s /bin/sh domjudge
getent passwd domjudge-run >/dev/null || useradd -r -M -s /bin/false -U domjudge-run
touch "$H/etc/restapi.secret"
chown -R domjudge "$H/log" "$H/run" "$H/tmp" "$H/judgings" "$H/etc/restapi.secret"
sub "$SRC/etc/sudoers-domjudge.in" > /etc/sudoers.d/domjudge-judgehost
chmod 440 /etc/sudoers.d/domjudge-judgehost
echo "DOMjudge $REV judgehost in $H"
