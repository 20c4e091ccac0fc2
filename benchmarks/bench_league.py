"""A league of the judge's 11 players of known order (level:0 ... level:9 and optimal):
Spearman's rho between the leaderboard and the true order, as games are played.

    python benchmarks/bench_league.py [--game nim|ioiwari] [--games 2000] [--step 100]
        [--jobs N] [--seed S]

The league is played in steps of `--step` games (`judge league play --games STEP`, so
every step is also a stop and a resume), the leaderboard read after each
(`judge league show --format json`)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = [f"level:{n}" for n in range(10)] + ["optimal"]


def judge(folder: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "judge", "league", *args, "--db", "l.db"],
                         cwd=folder, capture_output=True, text=True, check=True)
    return out.stdout


def spearman(order: list[str]) -> float:
    """Spearman's rho of the leaderboard `order` (best first) against the true order."""
    truth = {p: r for r, p in enumerate(reversed(PLAYERS))}
    n = len(order)
    d2 = sum((rank - truth[p]) ** 2 for rank, p in enumerate(order))
    return 1 - 6 * d2 / (n * (n * n - 1))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="nim")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--step", type=int, default=100)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        judge(folder, "new", "--game", a.game, "--seed", str(a.seed))
        for player in PLAYERS:
            judge(folder, "add", "--anchor", player, "--unpinned")  # rated, to be found
        print(f"{a.game}, seed {a.seed}, --jobs {a.jobs}")
        print("games  rho    seconds  leaderboard")
        played, began = 0, time.monotonic()
        while played < a.games:
            judge(folder, "play", "--games", str(a.step), "--jobs", str(a.jobs))
            played += a.step
            board = json.loads(judge(folder, "show", "--format", "json"))["leaderboard"]
            order = [row["name"] for row in board]
            print(f"{played:5}  {spearman(order):.3f}  {time.monotonic() - began:7.1f}  "
                  + " ".join(n.replace("level:", "") .replace("optimal", "O") for n in order),
                  flush=True)


if __name__ == "__main__":
    main()
