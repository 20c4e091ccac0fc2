"""Grading broken bots: `judge run --game ioiwari` over the 357 standard starts with two bots
that never move (a C bot that never flushes its output, a Python bot that wants each number
of the board on a line of its own), each alone and both in one run, against what the same
games would cost if each lasted its first move's limit; then both in one run with
`--fail-fast 3` (each bot's other games not played once its first 3 failed alike).

Run: python benchmarks/bench_broken.py [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from judge.sandbox import resolve_sandbox

#: the two broken bots, as a class hands them in
BOTS = {
    "no_flush.c": """\
#include <stdio.h>

int main(void) {
    int pits[7];
    for (int i = 0; i < 7; i++)
        if (scanf("%d", &pits[i]) != 1) return 1;
    for (;;) {  /* the move stays in stdout's buffer: a pipe is fully buffered */
        int move = 1, opponent;
        while (pits[move - 1] == 0) move++;
        printf("%d\\n", move);
        if (scanf("%d", &opponent) != 1) return 0;
    }
}
""",
    "one_per_line.py": """\
import sys

pits = [int(sys.stdin.readline().split()[0]) for _ in range(7)]
print(next(i + 1 for i, beads in enumerate(pits) if beads), flush=True)
""",
}


def judge_run(bots: list[Path], jobs: int, folder: Path,
              *options: str) -> tuple[float, list[dict]]:
    """Seconds for `judge run` of `bots` on the standard starts, and its games (JSON)."""
    db = folder / f"run-{time.monotonic_ns()}.db"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "run", "--game", "ioiwari",
                           "--jobs", str(jobs), "--format", "json", "--db", str(db),
                           *options, *map(str, bots)], capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"judge run failed ({done.returncode}): {done.stderr[-2000:]}")
    return took, json.loads(done.stdout)["games"]


def report(name: str, took: float, games: list[dict], jobs: int) -> None:
    """One line: games, wall time, verdicts, and the cost of the same games at the limit."""
    verdicts = Counter(g["verdict"] for g in games)
    found = sorted(float(m.group(1)) for g in games
                   if (m := re.search(r"stopped after ([\d.]+) s", g["message"])))
    median = f" (median {found[len(found) // 2]:.2f} s)" if found else ""
    limits = [float(m.group(1)) for g in games
              if (m := re.match(r"no move within ([\d.]+) s", g["message"]))]
    at_limit = sum(limits) / jobs
    print(f"{name:<28} {len(games):4d} games  {took:6.1f} s  {took / len(games) * 1000:5.0f} "
          f"ms/game  found early {len(found)}/{len(games)}{median}  "
          f"{', '.join(f'{v} {n}' for v, n in verdicts.items())}\n"
          f"{'':<28} at the limit ({len(limits)} x {max(limits, default=0):g} s / {jobs} "
          f"jobs): {at_limit:7.0f} s = {at_limit / took:.0f}x")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; sandbox {resolve_sandbox('auto')}; --jobs {args.jobs}; "
          "the 357 standard Ioiwari starts")
    with tempfile.TemporaryDirectory(prefix="judge-bench-broken-") as tmp:
        folder = Path(tmp)
        os.chmod(folder, 0o755)  # (bots run under a uid of their own as root)
        paths = []
        for name, source in BOTS.items():
            (folder / name).write_text(source)
            paths.append(folder / name)
        total = 0.0
        for path in paths:
            took, games = judge_run([path], args.jobs, folder)
            total += took
            report(path.name, took, games, args.jobs)
        print(f"{'the two runs':<28} {'':10} {total:6.1f} s")
        took, games = judge_run(paths, args.jobs, folder)
        report("both in one run", took, games, args.jobs)
        took, games = judge_run(paths, args.jobs, folder, "--fail-fast", "3")
        verdicts = Counter(g["verdict"] for g in games)
        print(f"{'both, --fail-fast 3':<28} {len(games):4d} games  {took:6.1f} s  "
              f"{', '.join(f'{v} {n}' for v, n in verdicts.items())}")


if __name__ == "__main__":
    main()
