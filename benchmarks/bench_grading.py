"""Grading speed: `judge run` on the sample Ioiwari bots over all 357 standard starts, with 1
and 2 jobs, next to a bare harness that plays the same games with no sandbox, no limits, no
review and no database.

Run: python benchmarks/bench_grading.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judge.games.ioiwari import Ioiwari
from judge.sandbox import program_for, resolve_sandbox

ROOT = Path(__file__).resolve().parent.parent
BOTS = sorted(str(p) for p in (ROOT / "bots/ioiwari").iterdir() if p.suffix in (".py", ".c"))


def bare_harness() -> float:
    """Seconds to play every bot on every start over plain pipes, one game at a time."""
    from bench_overhead import bare

    game = Ioiwari()
    starts = game.standard_starts()
    return sum(bare([], starts, program_for(b).argv) for b in BOTS)


def judge_run(jobs: int) -> float:
    """Seconds for `judge run` with `jobs` parallel games."""
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "judge", "run", "--game", "ioiwari", "--jobs",
                        str(jobs), "--db", os.path.join(tmp, "r.db"), *BOTS],
                       check=True, capture_output=True)
        return time.perf_counter() - started


def main() -> None:
    """Print the figures."""
    games = len(BOTS) * 357
    print(f"{len(BOTS)} bots x 357 starts = {games} games; sandbox {resolve_sandbox('auto')}; "
          f"{os.cpu_count()} cores")
    bare = bare_harness()
    print(f"bare harness, 1 game at a time   {bare:6.1f} s  {games / bare:6.1f} games/s")
    for jobs in (1, 2):
        t = judge_run(jobs)
        print(f"judge run --jobs {jobs}                {t:6.1f} s  {games / t:6.1f} games/s"
              f"  ({t / bare:.2f}x the bare harness)")


if __name__ == "__main__":
    main()
