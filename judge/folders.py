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

MOST_ENTRIES = 10 * MOST_FILES
"""The most entries of any kind at its top, hidden ones and folders too: a listing longer
is the judge's time (a million took seconds, at each game), not a student's work."""


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


def folder_listing(folder: Path) -> list[tuple[str, int]]:
    """The files of a bot's folder, by name, with their sizes, none read: its regular files
    at its top (not in its folders, not hidden, not links: a link must not make the judge
    read what its author could not). `OSError` if it cannot be read, or holds more than
    `MOST_ENTRIES` entries (of any kind: the listing stops there), `MOST_FILES` files or
    `MOST_BYTES` bytes (a sparse file of gigabytes is never read)."""
    found = []
    with os.scandir(folder) as listing:
        for seen, item in enumerate(listing, 1):
            if seen > MOST_ENTRIES:
                raise OSError(errno.EFBIG, f"more than {MOST_ENTRIES} files and folders at "
                                           f"its top")
            if item.name.startswith("."):
                continue
            st = item.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode):  # not a link, a FIFO, a device or a folder
                found.append((item.name, st.st_size))
                if len(found) > MOST_FILES:
                    raise OSError(errno.EFBIG, f"more than {MOST_FILES} files")
    total = sum(size for _, size in found)
    if total > MOST_BYTES:
        raise OSError(errno.EFBIG, f"its files hold {total >> 20} MiB, more than "
                                   f"{MOST_BYTES >> 20} MiB")
    return sorted(found)


def folder_files(folder: Path) -> dict[str, bytes]:
    """The files of a bot's folder (`folder_listing`), by name, in name order, with their
    contents; `OSError` as `folder_listing` says, or if they have grown past `MOST_BYTES`
    since it."""
    files: dict[str, bytes] = {}
    for name, _ in folder_listing(folder):  # (each may have been replaced or grown since)
        files[name] = read_file(folder / name, MOST_BYTES - sum(map(len, files.values())),
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
