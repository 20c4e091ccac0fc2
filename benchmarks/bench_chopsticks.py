"""Chopsticks solver benchmark: solve a ladder of variants, each in a fresh process.

For each variant: positions in its table, seconds to solve (and answer the start), peak
memory of the solving process, positions per second, peak bytes per position; then the
time a second process takes to answer from the table cached on disk.

    python benchmarks/bench_chopsticks.py [--max-positions N]

Prints a Markdown table. Every variant is solved into its own empty cache directory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from judge.games.chopsticks import Chopsticks
from judge.games.chopsticks.solver import ChopsticksSolver

LADDER = [
    "hands=2 fingers=5",
    "hands=3 fingers=5",
    "hands=3 fingers=10",
    "hands=4 fingers=10",
    "hands=4 fingers=14",
    "hands=4 fingers=14 split=on",
    "hands=4 fingers=15 knockout=rollover split=revive swap=on",
    "hands=4 fingers=14 attack=tapping misere=on split=on",
    "hands=3 fingers=30",
    "hands=4 fingers=17",
    "hands=3 fingers=36",
    "hands=3 fingers=40",
]


def measure(rules: str) -> dict[str, float]:
    """Solve (or load) the table of `rules` in this process and answer its start.

    The seconds run from the solver's construction (the imports are already done).
    """
    started = time.perf_counter()
    game = Chopsticks(rules)
    solver = ChopsticksSolver(game)
    positions, estimate = solver.estimate(game.hands)
    answer = solver.evaluate(game.start())
    return {
        "positions": positions,
        "estimate": estimate,
        "seconds": time.perf_counter() - started,
        "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "value": answer.value,
    }


def in_child(rules: str, cache_dir: str) -> dict[str, float]:
    """`measure(rules)` in a fresh interpreter using `cache_dir`, with its wall time."""
    env = dict(os.environ, JUDGE_CACHE_DIR=cache_dir)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--one", rules],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout)
    result["wall"] = time.perf_counter() - started
    return result


def main() -> None:
    """Run the ladder (or one variant with --one, printing JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", help="measure one rules string in this process")
    parser.add_argument("--max-positions", type=float, default=float("inf"))
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one)))
        return
    print(
        "| variant | positions | value of start | solve s | peak MiB | positions/s "
        "| bytes/position | estimate MiB | cached answer s (process s) |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rules in LADDER:
        game = Chopsticks(rules)
        if ChopsticksSolver(game).estimate(game.hands)[0] > args.max_positions:
            break
        with tempfile.TemporaryDirectory(prefix="bench-chopsticks-") as cache_dir:
            first = in_child(rules, cache_dir)
            second = in_child(rules, cache_dir)
        n, seconds, peak = first["positions"], first["seconds"], first["peak"]
        print(
            f"| `{rules}` | {n:,} | {first['value']} | {seconds:.2f} | {peak / 2**20:.0f} "
            f"| {n / seconds:,.0f} | {peak / n:.1f} | {first['estimate'] / 2**20:.0f} "
            f"| {second['seconds']:.2f} ({second['wall']:.2f}) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
