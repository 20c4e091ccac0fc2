"""The HTML report of a big run: how long `render_report` takes for 1,000 and 10,000 games
(the goal: 10,000 games in under 10 s) and how large the page is.

The games are copies of the records of a real run (the greedy Ioiwari bot on three starts,
played by `judge run` first), stored under ten bot names with `Store.add_game` (`big_run`,
which the report's tests use too, for what holds of a big run at any speed). Each size is
rendered `--repeat` times; the table gives the best and the worst.

Run: python benchmarks/bench_report.py [--games 1000 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tabulate import tabulate

from judge.html.report import render_report
from judge.store import Store

ROOT = Path(__file__).resolve().parent.parent
#: the goal: a report of this many games ...
GOAL_GAMES = 10_000
#: ... rendered in under this many seconds
GOAL_SECONDS = 10.0


def real_run(folder: Path) -> Path:
    """A database holding one real grading run (run 1)."""
    starts = folder / "starts.txt"
    starts.write_text("2 2 2 2 4 4 4\n4 4 4 2 2 2 2\n2 3 4 2 3 4 2\n")
    db = folder / "real.db"
    subprocess.run([sys.executable, "-m", "judge", "run", "--game", "ioiwari", "--seed", "3",
                    "--tests", str(starts), "--db", str(db),
                    str(ROOT / "bots/ioiwari/greedy.py")], check=True, capture_output=True)
    return db


def big_run(source: Path, folder: Path, games: int) -> tuple[Store, int]:
    """A run of `games` copies of the real run's games, ten bots; (its store, its number)."""
    real = Store(source, read_only=True)
    info, records = real.run(1), list(real.games(1).values())
    store = Store(folder / f"big-{games}.db")
    plan = replace(info.plan, bots=tuple(f"bots/ioiwari/bot{i}.py" for i in range(10)))
    run_id = store.create_run(plan)
    for i in range(games):
        bot = plan.bots[i % 10]
        store.add_game(run_id, f"{bot}|{i}",
                       records[i % len(records)]._replace(players=(bot, "optimal")))
    store.finish(run_id)
    return Store(store.path, read_only=True), run_id


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1_000, GOAL_GAMES])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"render_report, best and worst of {args.repeat}; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = real_run(folder)
        for games in args.games:
            store, run_id = big_run(source, folder, games)
            times = []
            for _ in range(args.repeat):
                began = time.perf_counter()
                page = render_report(store, run_id)
                times.append(time.perf_counter() - began)
            size = len(page.encode("utf-8"))
            goal = f"< {GOAL_SECONDS:g} s: {'yes' if min(times) < GOAL_SECONDS else 'no'}" \
                if games == GOAL_GAMES else ""
            rows.append([f"{games:,}", f"{min(times):.2f}", f"{max(times):.2f}",
                         f"{min(times) / games * 1e6:.0f}", f"{size / 1e6:.1f}",
                         f"{size / games / 1e3:.2f}", goal])
    print(tabulate(rows, headers=["games", "best s", "worst s", "µs a game", "MB",
                                  "kB a game", "goal"]))


if __name__ == "__main__":
    main()
