"""A bot given as a folder, as the judge reads it (judge/folders.py): its regular files at
its top, by name, within bounds known before any file is read."""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

import judge.folders
from judge.folders import folder_files
from judge.sandbox.build import folder_entry
from judge.sandbox.program import NotGradable

SCANDIR = os.scandir


def test_a_folder_of_too_many_entries_is_refused_whatever_they_are(tmp_path, monkeypatch):
    # (hidden files and folders were listed to their end, a million of them in seconds, at
    # every game of the folder's bot, and never counted)
    monkeypatch.setattr(judge.folders, "MOST_ENTRIES", 5, raising=False)
    (tmp_path / "main.py").write_text("print(1)\n")
    for i in range(3):
        (tmp_path / f"folder{i}").mkdir()
    for i in range(2):
        (tmp_path / f".hidden{i}").write_text("")
    with pytest.raises(OSError, match="more than 5 files and folders at its top") as caught:
        folder_files(tmp_path)
    assert caught.value.errno == errno.EFBIG
    (tmp_path / "folder0").rmdir()  # five: the most
    assert list(folder_files(tmp_path)) == ["main.py"]


def test_a_folders_entry_is_found_without_reading_its_files(tmp_path: Path, monkeypatch):
    # (the judge read every file of the folder to find it, then again for its digest)
    def read_file(*_: object, **__: object) -> bytes:
        raise AssertionError("a file was read")

    (tmp_path / "main.py").write_text("print(1)\n")
    (tmp_path / "notes.txt").write_text("mine\n")
    monkeypatch.setattr(judge.folders, "read_file", read_file)
    assert folder_entry(tmp_path) == tmp_path / "main.py"



class Counted:
    """`os.scandir`'s listing of `path`, the name of each entry it gives kept in `seen`."""

    def __init__(self, path: str, seen: list[str]) -> None:
        self.listing, self.seen = SCANDIR(path), seen

    def __enter__(self) -> Counted:
        return self

    def __exit__(self, *_: object) -> None:
        self.listing.close()

    def __iter__(self) -> Counted:
        return self

    def __next__(self) -> os.DirEntry[str]:
        item = next(self.listing)
        self.seen.append(item.name)
        return item


def test_a_folders_subfolders_are_listed_no_further_than_2000_entries(tmp_path, monkeypatch):
    """Where the top holds no program, its subfolders are searched for one to name, but
    not to their end (a subfolder of a million entries was listed whole, at each game)."""
    (tmp_path / "a").mkdir()
    for i in range(3000):
        (tmp_path / "a" / f"{i}.txt").write_text("")
    seen: list[str] = []
    monkeypatch.setattr(os, "scandir", lambda path: Counted(path, seen))
    with pytest.raises(NotGradable, match="^an empty folder$"):
        folder_entry(tmp_path)
    assert 2 <= len(seen) <= 2002  # (the top's one entry twice: for its files, then below)


def test_a_link_to_a_folder_other_users_may_not_read_is_not_graded(tmp_path):
    """As a link to a file is refused: a link in a submission must not make the judge read
    (build, run, show as a copy) what its author could not."""
    from judge.sandbox import program_for

    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "main.py").write_text('print("TOPSECRET-91c2")\n')
    (private / "main.py").chmod(0o600)
    (tmp_path / "eve").symlink_to(private)
    message = f"a link to {private}, which other users may not read (give the folder itself)"
    with pytest.raises(NotGradable, match=f"^{re.escape(message)}$"):
        folder_entry(tmp_path / "eve")
    with pytest.raises(NotGradable, match=f"^{re.escape(message)}$"):
        program_for(tmp_path / "eve")

    shared = Path(tempfile.mkdtemp())  # (pytest's folders are the user's own: 0700)
    try:
        shared.chmod(0o755)
        (shared / "main.py").write_text('print("mine")\n')
        (shared / "main.py").chmod(0o644)
        (tmp_path / "ann").symlink_to(shared)
        assert folder_entry(tmp_path / "ann") == tmp_path / "ann" / "main.py"
    finally:
        shutil.rmtree(shared)
