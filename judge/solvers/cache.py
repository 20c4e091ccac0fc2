"""Solved tables on disk: one checked file per table, rebuilt when corrupt or stale.

Tables are NumPy `.npz` files. A table of flat arrays of plain integers can also be read
without NumPy (`cached_flat`): a grading run that only looks values up then starts without
importing it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import numpy as np

#: bump when the meaning of any stored table changes; older files are then rebuilt
FORMAT_VERSION = 1

#: the modules of the interfaces a game and a solver implement: their code decides no
#: value, so a change there keeps the tables
INTERFACES = frozenset({"judge.games.base", "judge.solvers.base"})

#: the digest of each source file read, by path (a process reads each once)
_file_digests: dict[str, bytes] = {}


def cache_dir() -> Path:
    """Where tables live: ``$JUDGE_CACHE_DIR`` or the user's cache directory (made if
    missing); one that cannot be a folder of the judge's is an `InputError`."""
    env = os.environ.get("JUDGE_CACHE_DIR")
    if env:
        path, name = Path(os.path.abspath(env)), f"JUDGE_CACHE_DIR={env}"
    else:
        import platformdirs

        path = Path(platformdirs.user_cache_dir("judge"))
        name = f"the cache folder {path}"
    if not path.is_dir():
        from judge.games.base import InputError

        if path.exists():
            raise InputError(f"{name} is not a folder: it cannot be the judge's cache")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"{name}: cannot be the judge's cache folder: "
                             f"{exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        from judge.games.base import InputError

        raise InputError(f"{name}: the judge cannot write its cache folder there")
    return path


def code_digest(*classes: type) -> str:
    """A digest of the code that makes the values of a table: the source of every module
    that defines a class of the `classes`' MROs (the game's, its solver's), the judge's
    interfaces and Python's own modules aside. A module of the judge counts alone (a
    package's ``__init__`` with its folder); a class from outside the judge brings its
    whole top-level package (a plugin's helpers), so that any change to a rule, to the
    solver or to the numbering is a new table."""
    files: set[str] = set()
    for cls in classes:
        for klass in cls.__mro__:
            files |= _source_files(klass.__module__)
    h = hashlib.sha256()
    for path in sorted(files):
        digest = _file_digests.get(path)
        if digest is None:
            try:
                digest = hashlib.sha256(Path(path).read_bytes()).digest()
            except OSError:
                digest = b""
            _file_digests[path] = digest
        h.update(digest)
    return h.hexdigest()[:16]


def _source_files(name: str) -> set[str]:
    """The source files that module `name` stands for in `code_digest`."""
    top = name.partition(".")[0]
    if name in INTERFACES or top in sys.stdlib_module_names or top == "builtins":
        return set()
    module = sys.modules.get(name if top == __name__.partition(".")[0] else top)
    path = getattr(module, "__file__", None)
    if not path:  # a class made without a file: its name and rules alone key its table
        return set()
    if Path(path).name != "__init__.py":
        return {path}
    return {str(p) for p in Path(path).parent.rglob("*.py")}


def _digest(arrays: dict[str, np.ndarray]) -> str:
    import numpy as np

    contiguous = {name: np.ascontiguousarray(a) for name, a in arrays.items()}
    return _digest_of({name: (a.dtype.str, a.shape, a.data)
                       for name, a in contiguous.items()})


def _digest_of(parts: dict[str, tuple[str, tuple[int, ...], memoryview]]) -> str:
    """The checksum of arrays given as name -> (type string, shape, data): the one stored
    with a table, whether it is read with NumPy or without."""
    h = hashlib.sha256()
    for name in sorted(parts):
        descr, shape, data = parts[name]
        h.update(f"{name}:{descr}:{shape}".encode())
        h.update(data.cast("B"))
    return h.hexdigest()


def _path(key: str) -> Path:
    slug = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"table-{slug}.npz"


def load(key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under `key`, or None when absent, corrupt or of another version."""
    import numpy as np

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
    import numpy as np

    meta = {"version": FORMAT_VERSION, "key": key, "sha256": _digest(arrays)}
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                blob = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
                # mypy matches **arrays against savez's `allow_pickle: bool` too; no
                # array has that name
                np.savez(fh, __meta__=blob, **arrays)  # type: ignore[arg-type]
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


#: NumPy's type strings of the flat arrays `load_flat` reads, as `memoryview` formats
_FLAT_TYPES: dict[str, Literal["b", "B", "h", "H", "i", "I", "q", "Q"]] = {
    "|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<i4": "i", "<u4": "I", "<i8": "q",
    "<u8": "Q"}


def _npy(raw: bytes) -> tuple[str, tuple[int, ...], memoryview]:
    """(type string, shape, data) of a `.npy` file of a flat array, without NumPy."""
    if raw[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy file")
    start, size = 8, 2 if raw[6] == 1 else 4  # the header's length: 2 bytes in version 1
    length = int.from_bytes(raw[start : start + size], "little")
    header = ast.literal_eval(raw[start + size : start + size + length].decode("latin1"))
    descr, shape = header["descr"], tuple(header["shape"])
    if header["fortran_order"] or descr not in _FLAT_TYPES or len(shape) != 1:
        raise ValueError(f"not a flat array of plain integers: {descr} {shape}")
    if sys.byteorder != "little" and descr[0] == "<":
        raise ValueError("a big-endian machine reads this table through NumPy")
    data = memoryview(raw[start + size + length :]).cast(_FLAT_TYPES[descr])
    if len(data) != shape[0]:
        raise ValueError("truncated array")
    return descr, shape, data


def load_flat(key: str) -> dict[str, memoryview] | None:
    """Like `load`, for tables of flat integer arrays, as memoryviews and without NumPy."""
    try:
        with zipfile.ZipFile(_path(key)) as zf:
            parts = {n.removesuffix(".npy"): _npy(zf.read(n)) for n in zf.namelist()}
    except (OSError, ValueError, KeyError, SyntaxError, zipfile.BadZipFile):
        return None
    meta_part = parts.pop("__meta__", None)
    if meta_part is None:
        return None
    try:
        meta = json.loads(bytes(meta_part[2]).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    if meta.get("version") != FORMAT_VERSION or meta.get("key") != key:
        return None
    if meta.get("sha256") != _digest_of(parts):
        return None
    return {name: data for name, (_, _, data) in parts.items()}


def cached_flat(key: str, build: Callable[[], dict[str, Any]]) -> dict[str, memoryview]:
    """`cached` for tables of flat integer arrays, read without NumPy when stored."""
    arrays = load_flat(key)
    if arrays is None:
        built = build()
        save(key, built)
        arrays = load_flat(key) or {k: memoryview(v.tobytes()).cast(_FLAT_TYPES[v.dtype.str])
                                    for k, v in built.items()}
    return arrays
