"""Removing what a bot left on disk: never following a link, whatever it did to the tree.

Where the judge can (bubblewrap, or a root judge with the exec helper), a bot's work dir
and /tmp are a size-capped tmpfs that vanishes with its mount namespace, and nothing here
is needed. Elsewhere its private directory is on disk and removed by `remove_tree`, which
holds two directory descriptors at a time however deep the tree, restores the rights a bot
took away from its own folders, and never chmods or enters anything through a link.
"""

from __future__ import annotations

import functools
import os
import secrets
import stat
import tempfile
from contextlib import suppress
from pathlib import Path

#: private directories are named after the judge's pid, so that a later judge can remove
#: those of a judge that was killed before it could
WORKDIR_PREFIX = "judge-bot-"
_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _open_dir(name: str, parent: int) -> int | None:
    """An fd of the real directory `name` in `parent`, giving it back its rights if need be."""
    try:
        return os.open(name, _FLAGS, dir_fd=parent)
    except PermissionError:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
        if not stat.S_ISDIR(st.st_mode):
            return None
        os.chmod(name, 0o700, dir_fd=parent)  # a directory, not a link: checked just above
        return os.open(name, _FLAGS, dir_fd=parent)
    except (NotADirectoryError, OSError):
        return None


def _empty(root: int) -> None:
    """Empty the directory `root`, flattening subdirectories into it as it goes."""
    while True:
        names = os.listdir(root)
        if not names:
            return
        for name in names:
            with suppress(FileNotFoundError):
                try:
                    os.unlink(name, dir_fd=root)
                    continue
                except IsADirectoryError:
                    pass
                sub = _open_dir(name, root)
                if sub is None:
                    continue
                try:
                    os.fchmod(sub, 0o700)
                    for child in os.listdir(sub):
                        try:
                            os.unlink(child, dir_fd=sub)
                        except IsADirectoryError:  # move it up: depth never costs an fd
                            os.rename(child, f".{secrets.token_hex(8)}", src_dir_fd=sub,
                                      dst_dir_fd=root)
                finally:
                    os.close(sub)
                os.rmdir(name, dir_fd=root)


def remove_tree(path: Path) -> bool:
    """Remove the directory `path` and everything in it; False (logged) if that failed."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return True
    try:
        if not stat.S_ISDIR(st.st_mode):
            os.unlink(path)
            return True
        fd = os.open(path, _FLAGS)
        try:
            os.fchmod(fd, 0o700)
            _empty(fd)
        finally:
            os.close(fd)
        os.rmdir(path)
        return True
    except OSError as exc:
        import logging

        logging.getLogger("judge.sandbox").warning("could not remove %s: %s", path, exc)
        return False


def remove_stale_workdirs() -> None:
    """Remove the private directories left by judges that were killed (once per process)."""
    with suppress(OSError):
        for path in Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}*-*"):
            pid = path.name[len(WORKDIR_PREFIX) :].split("-", 1)[0]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                remove_tree(path)


def remove_own_workdirs(pids: list[int]) -> None:
    """Remove the private directories of these (ended) processes of this judge."""
    for pid in pids:
        with suppress(OSError):
            for path in Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}{pid}-*"):
                remove_tree(path)


sweep_once = functools.cache(remove_stale_workdirs)
