"""A league while it plays: how fast a new version of a strong bot is placed, and what
browsers polling the leaderboard (`judge serve --db FILE`, /league) cost it.

    python benchmarks/bench_league_live.py [--jobs 2] [--warmup 150] [--games 200]
        [--pollers 20] [--poll 3] [--window 10] [--rounds 8] [--seed 1]

placement: a Nim league of the anchors level:2, level:5, level:8 and optimal (pinned at 17,
20, 23 and 25) and the bots greedy (weak), random and a strong one (the optimal Python bot)
plays `--warmup` games;
then a new version of the strong bot is added while it plays, and its rating (mu - 3 sigma)
is read every half second until it has `--games` games. Its time to be placed is the time
after which its rating stays within 2 sigma (its final sigma) of its final rating.

pollers: the same league plays on, in windows of `--window` seconds, alternately alone and
with `--pollers` clients each reading /api/league every `--poll` seconds (the page's rate);
games per minute are counted from the database in each window.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"


def judge(folder: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "judge", "league", *args, "--db", "l.db"],
                         cwd=folder, capture_output=True, text=True, check=True)
    return out.stdout


def stored(folder: Path) -> int:
    db = sqlite3.connect(f"file:{folder / 'l.db'}?mode=ro", uri=True, timeout=30)
    try:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        db.close()


def standing(folder: Path, label: str) -> dict | None:
    board = json.loads(judge(folder, "show", "--format", "json"))["leaderboard"]
    return next((r for r in board if r["label"] == label), None)


def placement(folder: Path, a: argparse.Namespace) -> None:
    while stored(folder) < a.warmup:
        time.sleep(0.5)
    strong = folder / "strong.py"
    strong.write_text((NIM / "optimal.py").read_text() + "# v2\n")
    began = time.monotonic()
    judge(folder, "add", "strong", str(strong))
    seen: list[tuple[float, int, float, float]] = []
    while True:
        row = standing(folder, "strong v2")
        if row is not None:
            seen.append((time.monotonic() - began, row["games"], row["rating"], row["sigma"]))
            if row["games"] >= a.games:
                break
        time.sleep(0.5)
    _, games, final, sigma = seen[-1]
    placed = seen[-1]
    for point in reversed(seen):
        if abs(point[2] - final) > 2 * sigma:
            break
        placed = point
    print(f"placement (--jobs {a.jobs}): strong v2 final rating {final:.2f} "
          f"(sigma {sigma:.2f}) after {games} games, {seen[-1][0]:.1f} s; within 2 sigma "
          f"of it for good after {placed[1]} games, {placed[0]:.1f} s", flush=True)


def serve(folder: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0",
                             "--no-browser", "--db", "l.db"], cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"serving on (http://[^/\s]+)", line)
        if found:
            return proc, found.group(1)
    raise SystemExit("judge serve did not start")


def pollers(address: str, a: argparse.Namespace, stop: threading.Event,
            latencies: list[float]) -> list[threading.Thread]:
    def poll(offset: float) -> None:
        stop.wait(offset)
        while not stop.is_set():
            began = time.monotonic()
            with urllib.request.urlopen(address + "/api/league", timeout=30) as r:
                r.read()
            latencies.append(time.monotonic() - began)
            stop.wait(a.poll)

    threads = [threading.Thread(target=poll, args=(a.poll * i / a.pollers,), daemon=True)
               for i in range(a.pollers)]
    for t in threads:
        t.start()
    return threads


def cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` has used (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def polling(folder: Path, a: argparse.Namespace) -> None:
    proc, address = serve(folder)
    try:
        rates: dict[bool, list[float]] = {False: [], True: []}
        latencies: list[float] = []
        served = 0.0  # the server's CPU seconds in the polled windows
        for _ in range(a.rounds):
            for polled in (False, True):
                stop = threading.Event()
                threads = pollers(address, a, stop, latencies) if polled else []
                time.sleep(2)  # the pollers under way
                first, began, cpu = stored(folder), time.monotonic(), cpu_seconds(proc.pid)
                time.sleep(a.window)
                rate = (stored(folder) - first) * 60 / (time.monotonic() - began)
                served += (cpu_seconds(proc.pid) - cpu) if polled else 0
                rates[polled].append(rate)
                stop.set()
                for t in threads:
                    t.join()
                print(f"  {'with' if polled else 'without'} {a.pollers} pollers: "
                      f"{rate:.0f} games/min", flush=True)
        share = served / (a.rounds * a.window)
        print(f"pollers: the server used {100 * share:.1f}% of a core while they polled "
              f"({100 * share / (os.cpu_count() or 1):.1f}% of this machine's "
              f"{os.cpu_count()} cores)", flush=True)
        alone, polled = (sum(r) / len(r) for r in (rates[False], rates[True]))
        costs = sorted(1 - p / q for q, p in zip(rates[False], rates[True], strict=True))
        latencies.sort()
        print(f"pollers: {alone:.0f} games/min alone, {polled:.0f} with {a.pollers} polling "
              f"every {a.poll:g} s ({100 * (alone - polled) / alone:+.1f}% cost; the median "
              f"of {len(costs)} pairs of windows {100 * costs[len(costs) // 2]:+.1f}%); "
              f"{len(latencies)} polls, median {1000 * latencies[len(latencies) // 2]:.1f} ms, "
              f"slowest {1000 * latencies[-1]:.1f} ms", flush=True)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--warmup", type=int, default=150)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--pollers", type=int, default=20)
    p.add_argument("--poll", type=float, default=3.0)
    p.add_argument("--window", type=float, default=10.0)
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--skip", choices=("placement", "pollers"))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        judge(folder, "new", "--game", "nim", "--seed", str(a.seed))
        # pinned (--mu), so that the bots play from the first game
        for anchor, mu in (("level:2", 17), ("level:5", 20), ("level:8", 23), ("optimal", 25)):
            judge(folder, "add", "--anchor", anchor, "--mu", str(mu))
        for name, bot in (("greedy", "greedy.py"), ("random", "random.py"),
                          ("strong", "optimal.py")):
            judge(folder, "add", name, str(NIM / bot))
        play = subprocess.Popen([sys.executable, "-m", "judge", "league", "play", "--jobs",
                                 str(a.jobs), "--db", "l.db"], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if a.skip != "placement":
                placement(folder, a)
            if a.skip != "pollers":
                polling(folder, a)
        finally:
            play.send_signal(signal.SIGTERM)
            play.wait()


if __name__ == "__main__":
    main()
