"""The exec helper (`helper.c`): built once into the cache, it confines and execs a bot,
and (as a launcher the judge keeps, see `launcher.py`) forks each bot's starter.

With it, starting a bot is a request to the launcher and a few system calls in C; without
a C compiler the judge falls back to doing the same in Python between fork and exec
(slower: the whole judge is forked, and it cannot mount or filter system calls).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("helper.c")


@functools.cache
def helper_path() -> str | None:
    """The built helper (built now if needed), or None when no C compiler can build it."""
    from judge.solvers.cache import cache_dir

    source = SOURCE.read_bytes()
    key = hashlib.sha256(source + os.uname().machine.encode() + b"static").hexdigest()[:24]
    folder = cache_dir() / "helper"
    binary = folder / f"judge-exec-{key}"
    if binary.is_file() and os.access(binary, os.X_OK):
        return str(binary)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix="build-") as tmp:
        out = Path(tmp) / "judge-exec"
        # static where the C library allows it: no dynamic loading at each exec (inside
        # bubblewrap, per game); else as any program
        for static in (["-static"], []):
            try:
                done = subprocess.run(
                    [cc, "-O2", *static, "-o", str(out), str(SOURCE)],
                    stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                )
            except (OSError, subprocess.TimeoutExpired):
                return None
            if done.returncode == 0:
                break
        else:
            return None
        os.chmod(out, 0o755)
        os.replace(out, binary)
    return str(binary)
