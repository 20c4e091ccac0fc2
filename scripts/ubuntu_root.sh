#!/bin/sh
# Make an Ubuntu root file system as the services that run `judge export`'s course packages
# have it, for tests/test_ubuntu.py (JUDGE_UBUNTU_JAMMY=DIR, JUDGE_UBUNTU_NOBLE=DIR), which
# runs the packages in it:
#
#   sh scripts/ubuntu_root.sh jammy DIR   # Gradescope's default base image (Ubuntu 22.04)
#   sh scripts/ubuntu_root.sh noble DIR   # GitHub's ubuntu-latest runner (Ubuntu 24.04),
#                                         # and Gradescope's on 24.04
#
# Needs root, debootstrap and bubblewrap (apt-get install debootstrap bubblewrap) and
# Ubuntu's archive (UBUNTU_MIRROR, default http://archive.ubuntu.com/ubuntu/). A minimal
# Ubuntu (debootstrap's minbase, as Docker's ubuntu images) with its main, universe, -updates
# and -security archives, and then:
# - jammy: what Gradescope's image adds (python3, pip, curl, unzip, dos2unix; /autograder);
# - noble: what the runner has that the workflow uses (python3, pip, venv, git, gcc, sudo),
#   and its user `runner` (uid 1001) who may sudo, as the workflow's steps run.
set -eu
[ $# = 2 ] || { echo "usage: sh scripts/ubuntu_root.sh jammy|noble DIR" >&2; exit 2; }
REL=$1
DIR=$(realpath -m "$2")
MIRROR=${UBUNTU_MIRROR:-http://archive.ubuntu.com/ubuntu/}
case $REL in
    jammy) ADD="python3 python3-pip curl unzip dos2unix ca-certificates" ;;
    noble) ADD="python3 python3-pip python3-venv git gcc g++ make sudo curl unzip ca-certificates" ;;
    *) echo "ubuntu_root.sh: $REL: not jammy or noble" >&2; exit 2 ;;
esac
[ ! -e "$DIR" ] || [ -z "$(ls -A "$DIR")" ] || {
    echo "ubuntu_root.sh: $DIR has files in it" >&2; exit 2; }
inside() {  # a command run as root in the root being made, with the machine's network
    bwrap --bind "$DIR" / --dev /dev --proc /proc \
        --ro-bind /etc/resolv.conf /etc/resolv.conf --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin \
        --unshare-pid --die-with-parent "$@"
}
# (a debootstrap older than the release has no script of its name: Ubuntu's share gutsy's)
SCRIPT=/usr/share/debootstrap/scripts/$REL
[ -e "$SCRIPT" ] || SCRIPT=/usr/share/debootstrap/scripts/gutsy
# (Debian has no Ubuntu keyring: debootstrap then warns that it cannot check the first
# download, and apt in the root checks all that follows with the keyring debootstrap put there)
KEYRING=
[ ! -f /usr/share/keyrings/ubuntu-archive-keyring.gpg ] ||
    KEYRING=--keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg
# shellcheck disable=SC2086
debootstrap $KEYRING --variant=minbase --components=main,universe "$REL" "$DIR" "$MIRROR" "$SCRIPT"
printf 'deb %s %s main universe\n' "$MIRROR" "$REL" "$MIRROR" "$REL-updates" \
    "$MIRROR" "$REL-security" > "$DIR/etc/apt/sources.list"
# shellcheck disable=SC2086
inside sh -ec "
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get upgrade -y -qq >/dev/null
    apt-get install -y -qq --no-install-recommends $ADD >/dev/null
    apt-get clean"
if [ "$REL" = jammy ]; then
    mkdir -p "$DIR/autograder/source" "$DIR/autograder/submission" "$DIR/autograder/results"
else
    inside sh -ec "
        useradd -m -u 1001 -s /bin/bash runner
        echo 'runner ALL=(ALL) NOPASSWD:ALL' > /etc/sudoers.d/runner"
fi
inside sh -c \
    '. /etc/os-release; echo "$PRETTY_NAME: $(python3 --version), $(pip3 --version | cut -d" " -f1-2)"'
