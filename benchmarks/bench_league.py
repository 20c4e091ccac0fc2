"""A league of the judge's 11 players of known order (level:0 ... level:9 and optimal):
Spearman's rho between the leaderboard and the true order, as games are played.

    python benchmarks/bench_league.py [--game nim|ioiwari] [--games 2000] [--step 100]
        [--jobs N] [--seed S] [--anchors]

With --anchors the league is of anchors as an organiser adds them: optimal, level:2, level:5
and level:8 placed by their games, and level:0 ... level:10 rated (level:10 plays as optimal
does: the two are tied in the true order); it prints too level:10's skill against
optimal's.

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
ANCHORS = ["optimal", "level:2", "level:5", "level:8"]
#: with --anchors: every level, level:10 as strong as optimal
EVERY = [f"level:{n}" for n in range(11)] + ["optimal"]


def judge(folder: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "judge", "league", *args, "--db", "l.db"],
                         cwd=folder, capture_output=True, text=True, check=True)
    return out.stdout


def ranks(values: list[float]) -> list[float]:
    """Each value's rank from 0, tied values sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(order: list[str], players: list[str]) -> float:
    """Spearman's rho of the leaderboard `order` (best first) against the true order of
    `players` (weakest first; level:10 and optimal tied): the correlation of the ranks."""
    strength = [min(players.index(p), players.index("level:10") if "level:10" in players
                    else len(players)) for p in order]
    x, y = ranks([-float(i) for i in range(len(order))]), ranks([float(v) for v in strength])
    mx, my = sum(x) / len(x), sum(y) / len(y)
    cov = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    return cov / (sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** 0.5


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="nim")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--step", type=int, default=100)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--anchors", action="store_true",
                   help="optimal, level:2, level:5, level:8 anchors placed by their games")
    a = p.parse_args()
    players = EVERY if a.anchors else PLAYERS
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        judge(folder, "new", "--game", a.game, "--seed", str(a.seed))
        for player in players:
            # rated, to be found; with --anchors the anchors placed by their games
            fitted = a.anchors and player in ANCHORS
            judge(folder, "add", "--anchor", player, *([] if fitted else ["--unpinned"]))
        print(f"{a.game}, seed {a.seed}, --jobs {a.jobs}" + (", anchors" if a.anchors else ""))
        print("games  rho    seconds  " + ("level:10 - optimal (sigma)  " if a.anchors else "")
              + "leaderboard")
        played, began = 0, time.monotonic()
        while played < a.games:
            judge(folder, "play", "--games", str(a.step), "--jobs", str(a.jobs))
            played += a.step
            board = json.loads(judge(folder, "show", "--format", "json"))["leaderboard"]
            order = [row["name"] for row in board]
            skill = {row["name"]: (row["mu"], row["sigma"]) for row in board}
            gap = ""
            if a.anchors:
                (top, sigma), (best, _) = skill["level:10"], skill["optimal"]
                gap = f"{top - best:+6.2f} ({sigma:.2f})" + " " * 15
            short = " ".join(n.replace("level:", "").replace("optimal", "O") for n in order)
            print(f"{played:5}  {spearman(order, players):.3f}  "
                  f"{time.monotonic() - began:7.1f}  {gap}{short}", flush=True)


if __name__ == "__main__":
    main()
