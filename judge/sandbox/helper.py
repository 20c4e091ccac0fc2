"""The exec helper (`exec/`, one C file per concern): built once into the cache, it
confines and execs a bot, and (as a launcher the judge keeps, see `launcher.py`) forks each
bot's starter.

With it, starting a bot is a request to the launcher and a few system calls in C; without
a C compiler the judge falls back to doing the same in Python between fork and exec
(slower: the whole judge is forked, and it cannot mount or filter system calls).
"""

from __future__ import annotations

import functools
import glob
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

#: the helper's sources: its C files and the header that lists what each offers
SOURCES = Path(__file__).with_name("exec")


def sources() -> list[Path]:
    """The helper's C files, in a fixed order."""
    return sorted(SOURCES.glob("*.c"))


#: the kernel's header folders that the helper includes (``linux/seccomp.h`` and what it
#: needs), which a musl toolchain does not search
KERNEL_HEADERS = ("linux", "asm", "asm-generic")


@functools.cache
def helper_path() -> str | None:
    """The built helper (built now if needed), or None when no C compiler can build it."""
    from judge.solvers.cache import cache_dir

    musl = shutil.which("musl-gcc")
    cc = shutil.which("cc") or shutil.which("gcc")
    digest = hashlib.sha256(os.uname().machine.encode() + (b"musl" if musl else b"static"))
    for path in sorted(SOURCES.iterdir()):
        if path.suffix in (".c", ".h"):
            digest.update(f"\0{path.name}\0".encode() + path.read_bytes())
    key = digest.hexdigest()[:24]
    folder = cache_dir() / "helper"
    binary = folder / f"judge-exec-{key}"
    if binary.is_file() and os.access(binary, os.X_OK):
        return str(binary)
    if cc is None and musl is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix="build-") as tmp:
        out = Path(tmp) / "judge-exec"
        # static with musl where it is installed: its start is a few system calls, where
        # a static glibc asks the processor about its features and caches some 25 times
        # (each a costly exit to the hypervisor in a virtual machine), 0.3 ms at each exec
        # (inside bubblewrap, per game); else static with the system's C library (no
        # dynamic loading at each exec), else as any program
        tries: list[list[str]] = []
        if musl:
            tries.append([musl, "-static", *_kernel_headers(Path(tmp), cc)])
        if cc:
            tries += [[cc, "-static"], [cc]]
        for compiler in tries:
            try:
                done = subprocess.run(
                    [*compiler, "-O2", "-o", str(out), *map(str, sources())],
                    stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                )
            except (OSError, subprocess.TimeoutExpired):
                continue
            if done.returncode == 0:
                break
        else:
            return None
        os.chmod(out, 0o755)
        os.replace(out, binary)
    return str(binary)


def _kernel_headers(tmp: Path, cc: str | None) -> list[str]:
    """Options that show musl's compiler the kernel's headers, and only them: a folder in
    `tmp` of links to those of the system's compiler (its multiarch folder for ``asm``)."""
    folders = [Path("/usr/include")]
    if cc:
        try:
            arch = subprocess.run([cc, "-print-multiarch"], capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            arch = ""
        if arch:
            folders.insert(0, Path("/usr/include") / arch)
    # (a compiler that does not tell its multiarch folder: any that holds asm/)
    folders += [Path(p).parent for p in sorted(glob.glob("/usr/include/*/asm"))]
    links = tmp / "kernel-headers"
    links.mkdir()
    for name in KERNEL_HEADERS:
        found = next((f / name for f in folders if (f / name).is_dir()), None)
        if found is not None:
            (links / name).symlink_to(found)
    return ["-idirafter", str(links)]
