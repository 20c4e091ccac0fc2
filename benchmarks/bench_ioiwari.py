"""Ioiwari table: cold build, warm load from the disk cache, positions per second.

Run: python benchmarks/bench_ioiwari.py
"""

from __future__ import annotations

import os
import tempfile
import time


def main() -> None:
    """Print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["JUDGE_CACHE_DIR"] = tmp
        from judge.games.ioiwari import Ioiwari
        from judge.games.ioiwari.solver import BOARDS, IoiwariSolver, build_tables

        t = time.perf_counter()
        build_tables()
        build = time.perf_counter() - t

        t = time.perf_counter()
        IoiwariSolver(Ioiwari())  # builds and stores the table (cold cache)
        cold = time.perf_counter() - t

        t = time.perf_counter()
        solver = IoiwariSolver(Ioiwari())  # loads it (warm cache)
        warm = time.perf_counter() - t

        game = Ioiwari()
        starts = game.standard_starts()
        t = time.perf_counter()
        for pos in starts:
            solver.evaluate(pos)
        lookup = (time.perf_counter() - t) / len(starts)

    print(f"boards in the table       {BOARDS:,}")
    print(f"full table build          {build:.3f} s ({BOARDS / build:,.0f} positions/s)")
    print(f"first use, cold cache     {cold:.3f} s (build + store)")
    print(f"first use, warm cache     {warm * 1000:.1f} ms (load + checksum)")
    print(f"evaluate one position     {lookup * 1e6:.0f} us (value, remoteness, best moves)")


if __name__ == "__main__":
    main()
