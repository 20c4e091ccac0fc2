"""Solved tables on disk: one checked file per table, rebuilt when corrupt or stale."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import platformdirs

#: bump when the meaning of any stored table changes; older files are then rebuilt
FORMAT_VERSION = 1


def cache_dir() -> Path:
    """Where tables live: ``$JUDGE_CACHE_DIR`` or the user's cache directory."""
    env = os.environ.get("JUDGE_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("judge"))


def _digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(memoryview(a).cast("B"))
    return h.hexdigest()


def _path(key: str) -> Path:
    slug = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"table-{slug}.npz"


def load(key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under `key`, or None when absent, corrupt or of another version."""
    path = _path(key)
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(bytes(data["__meta__"]).decode())
            arrays = {k: data[k] for k in data.files if k != "__meta__"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if meta.get("version") != FORMAT_VERSION or meta.get("key") != key:
        return None
    if meta.get("sha256") != _digest(arrays):
        return None
    return arrays


def save(key: str, arrays: dict[str, np.ndarray]) -> None:
    """Store `arrays` under `key` atomically; a cache that cannot be written is skipped."""
    meta = {"version": FORMAT_VERSION, "key": key, "sha256": _digest(arrays)}
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                blob = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
                np.savez(fh, __meta__=blob, **arrays)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return


def cached(key: str, build: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays under `key`, built with `build()` and stored when missing or bad."""
    arrays = load(key)
    if arrays is None:
        arrays = build()
        save(key, arrays)
    return arrays


def path_for(key: str) -> Path:
    """The file that holds (or would hold) the table stored under `key`."""
    return _path(key)
