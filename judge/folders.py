"""A bot given as a folder: its files and their digest (what the sandbox builds and what
copies are looked for in)."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

MOST_FILES = 1000
"""The most files a bot's folder may hold at its top (a student's folder holds tens)."""

MOST_BYTES = 64 << 20
"""The most bytes its files may hold in all: a bot's disk quota (`Limits.disk_bytes`)."""


def read_file(path: str | Path, most: int, follow: bool = True) -> bytes:
    """The content of the regular file at `path`, its first `most` + 1 bytes at most (more
    than `most`: too big); `OSError` if it cannot be read or is no regular file (a FIFO
    must not make the judge wait, /dev/zero fill its memory), or is a link and not
    `follow`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW))
    with open(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a file")
        return fh.read(most + 1)


def folder_files(folder: Path) -> dict[str, bytes]:
    """The files of a bot's folder, by name: its regular files at its top (not in its
    folders, not hidden, not links: a link must not make the judge read what its author
    could not), in name order. `OSError` if it cannot be read, or holds more than
    `MOST_FILES` files or `MOST_BYTES` bytes (each file's size is known before any is
    read: a sparse file of gigabytes is never read)."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        st = path.lstat()
        if stat.S_ISREG(st.st_mode):  # not a link, a FIFO, a device or a folder
            found.append((path, st.st_size))
            if len(found) > MOST_FILES:
                raise OSError(errno.EFBIG, f"more than {MOST_FILES} files")
    total = sum(size for _, size in found)
    if total > MOST_BYTES:
        raise OSError(errno.EFBIG, f"its files hold {total >> 20} MiB, more than "
                                   f"{MOST_BYTES >> 20} MiB")
    files: dict[str, bytes] = {}
    for path, _ in found:  # (each may have been replaced or grown since)
        files[path.name] = read_file(path, MOST_BYTES - sum(map(len, files.values())),
                                     follow=False)
    if sum(map(len, files.values())) > MOST_BYTES:
        raise OSError(errno.EFBIG, f"its files hold more than {MOST_BYTES >> 20} MiB")
    return files


def folder_digest(files: dict[str, bytes]) -> str:
    """The SHA-256 of a bot's folder: its files' names and contents."""
    digest = hashlib.sha256()
    for name, data in sorted(files.items()):
        digest.update(hashlib.sha256(os.fsencode(name)).digest())
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()
