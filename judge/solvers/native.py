"""C programs and libraries of the judge's own, built at first use into the cache folder.

A build is kept under a name that holds a digest of its sources (and of whatever else it
depends on), so a changed source is built again and an unchanged one never; it is made in a
folder of its own and moved into place whole, so two processes building at once both end
with a complete file.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

#: how long one compiler run may take
BUILD_SECONDS = 120


def built(folder: str, name: str, files: list[Path], salt: bytes,
          commands: Callable[[Path, Path], list[list[str]]]) -> str | None:
    """The path of the file built from `files` (sources and headers; their names and
    contents, with `salt`, key the build), built now if need be under the cache's `folder`:
    `commands(tmp, out)` lists compiler command lines, each tried in turn until one writes
    `out` (`tmp` is a scratch folder beside it). None when none succeeds."""
    from judge.solvers.cache import cache_dir

    digest = hashlib.sha256(salt)
    for path in files:
        digest.update(f"\0{path.name}\0".encode() + path.read_bytes())
    place = cache_dir() / folder
    target = place / f"{name}-{digest.hexdigest()[:24]}"
    if target.is_file() and os.access(target, os.X_OK):
        return str(target)
    place.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=place, prefix="build-") as tmp:
        out = Path(tmp) / name
        for argv in commands(Path(tmp), out):
            try:
                done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                                      timeout=BUILD_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if done.returncode == 0 and out.is_file():
                break
        else:
            return None
        os.chmod(out, 0o755)
        os.replace(out, target)
    return str(target)
