#!/bin/sh
# Install CMS (its Python package, in a venv) and isolate from their git checkouts into
# PREFIX, as root, for tests/test_contest_systems.py, which evaluates the exported task with
# CMS's own task type: JUDGE_CMS_HOME=PREFIX python -m pytest -m slow ...
#
#   sh scripts/cms_isolate.sh CMS_CHECKOUT ISOLATE_CHECKOUT PREFIX
#
# Needs: apt-get install gcc libcap-dev libseccomp-dev libpq-dev python3-venv.
# isolate 2 needs cgroup v2 with the memory controller (and its isolate-cg-keeper running;
# not tried here); on a machine with cgroup v1, isolate 1.10.1 (the last with it) is built.
# Boxes run as uids from 70000 (the judge's game slots take 60000 and up, as isolate's
# default does).
set -eu
CMS=$(realpath "$1"); ISO=$(realpath "$2"); H=$(realpath -m "$3")
rm -rf "$H"; mkdir -p "$H/isolate-src" "$H/bin" "$H/box" "$H/tmp"
REV=HEAD
[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] || REV=v1.10.1
git -C "$ISO" archive "$REV" | tar -x -C "$H/isolate-src"
make -C "$H/isolate-src" -s isolate CONFIG="$H/isolate.cf"
cp "$H/isolate-src/isolate" "$H/bin/"
printf 'box_root = %s\nfirst_uid = 70000\nfirst_gid = 70000\nnum_boxes = 65000\n' "$H/box" \
    > "$H/isolate.cf"
if [ "$REV" = HEAD ]; then  # (isolate-cg-keeper, isolate's systemd service, makes the cgroup)
    printf 'lock_root = %s\ncg_root = auto:/run/isolate/cgroup\n' "$H/locks" >> "$H/isolate.cf"
else
    echo 'cg_root = /sys/fs/cgroup' >> "$H/isolate.cf"
fi
python3 -m venv "$H/venv"
"$H/venv/bin/pip" install -q "$CMS"
sed -e "s|^temp_dir = .*|temp_dir = \"$H/tmp\"|" "$CMS/config/cms.sample.toml" > "$H/cms.toml"
echo "CMS $(git -C "$CMS" rev-parse --short=12 HEAD), isolate $REV in $H"
