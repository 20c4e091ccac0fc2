"""A bot given as a folder: its files and their digest (what the sandbox builds and what
copies are looked for in)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def folder_files(folder: Path) -> dict[str, bytes]:
    """The files of a bot's folder, by name: its regular files at its top (not in its
    folders, not hidden, not links: a link must not make the judge read what its author
    could not), in name order."""
    files = {}
    for path in sorted(folder.iterdir()):
        if not path.name.startswith(".") and not path.is_symlink() and path.is_file():
            files[path.name] = path.read_bytes()
    return files


def folder_digest(files: dict[str, bytes]) -> str:
    """The SHA-256 of a bot's folder: its files' names and contents."""
    digest = hashlib.sha256()
    for name, data in sorted(files.items()):
        digest.update(hashlib.sha256(name.encode()).digest())
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()
