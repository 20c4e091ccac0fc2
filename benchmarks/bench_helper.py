"""What an exec of the exec helper costs, built with glibc and with musl, side by side.

Under bubblewrap the helper is executed inside the sandbox for every game (it becomes the
bot's reaper, drops to the slot's uid, filters system calls, then executes the bot), so its
start is on the per-game path. A static glibc asks the processor about its features and
caches at every start (`cpuid`, which in a virtual machine exits to the hypervisor); musl's
start is a few system calls. Printed: the median milliseconds to spawn and reap `true`
alone, through the helper, and through the helper as a reaper (`-x`), for each build,
interleaved. Run: ``python benchmarks/bench_helper.py [--repeat N]`` (musl-gcc needed for
the musl column).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from judge.sandbox.exec_helper import _kernel_headers, sources


def build(tmp: Path, name: str, compiler: list[str]) -> str | None:
    out = tmp / name
    done = subprocess.run([*compiler, "-O2", "-o", str(out), *map(str, sources())],
                          capture_output=True)
    return str(out) if done.returncode == 0 else None


def spawn_ms(argv: list[str], times: int) -> float:
    """Mean milliseconds to start `argv` and reap it, over `times` runs."""
    began = time.perf_counter()
    for _ in range(times):
        os.waitpid(os.posix_spawn(argv[0], argv, {}), 0)
    return (time.perf_counter() - began) / times * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="rounds of 300 starts each")
    args = parser.parse_args()
    true = shutil.which("true") or "/bin/true"
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        builds = {"glibc": build(tmp, "glibc", ["cc", "-static"])}
        musl = shutil.which("musl-gcc")
        if musl:
            builds["musl"] = build(tmp, "musl", [musl, "-static",
                                                 *_kernel_headers(tmp, shutil.which("cc"))])
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 9)  # (the status descriptor of -x)
        rows: dict[str, list[float]] = {"true alone": []}
        for name, helper in builds.items():
            if helper:
                rows[f"{name}: helper -- true"] = []
                rows[f"{name}: helper -x FD -- true"] = []
        for _ in range(args.repeat):
            rows["true alone"].append(spawn_ms([true], 300))
            for name, helper in builds.items():
                if helper:
                    rows[f"{name}: helper -- true"].append(spawn_ms([helper, "--", true], 300))
                    rows[f"{name}: helper -x FD -- true"].append(
                        spawn_ms([helper, "-x", "9", "--", true], 300))
    print(f"Spawn and reap, median of {args.repeat} rounds of 300 (ms)")
    for label, values in rows.items():
        print(f"  {label:28} {statistics.median(values):6.3f}")


if __name__ == "__main__":
    main()
