"""Games per second on the local pool and on a Dask cluster on this machine, and the
cluster's cost per game.

Starts a scheduler and WORKERS `judge worker` processes (one game at a time each) on
127.0.0.1, then plays the same Nim tournament (`bots/nim/optimal.c` against itself and the
optimal player, `--rounds R`) with `--jobs WORKERS` locally and with `--cluster`, side by
side. Run: ``python benchmarks/bench_cluster.py [--workers 2] [--rounds 4]``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bots" / "nim" / "optimal.c"


def tournament(tmp: Path, name: str, rounds: int, extra: list[str]) -> tuple[float, int]:
    """(seconds, games) of one tournament."""
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "judge", "tournament", "--game", "nim",
                          "--include-optimal", "--rounds", str(rounds), "--seed", "1",
                          "--db", str(tmp / f"{name}.db"), "--format", "json", str(BOT),
                          *extra], capture_output=True, text=True, check=True)
    return time.perf_counter() - began, len(json.loads(out.stdout)["games"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        info = tmp / "scheduler.json"
        procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                   "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", str(info)], start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        try:
            while True:
                try:
                    address = json.loads(info.read_text())["address"]
                    break
                except (OSError, ValueError, KeyError):
                    time.sleep(0.2)
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "judge", "worker", address, "--jobs",
                 str(args.workers)], start_new_session=True, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL))
            from distributed import Client

            with Client(address, timeout=30) as client:
                client.wait_for_workers(args.workers, timeout=120)
            tournament(tmp, "warm", 1, ["--cluster", address])  # bots built on the workers
            local, games = tournament(tmp, "local", args.rounds, ["--jobs", str(args.workers)])
            remote, _ = tournament(tmp, "cluster", args.rounds, ["--cluster", address])
        finally:
            for proc in procs:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
    print(f"{os.cpu_count()} cores; {games} games (Nim tournament, C bot), "
          f"{args.workers} game processes either way")
    print(f"  local pool   {local:6.2f} s   {games / local:7.1f} games/s")
    print(f"  Dask cluster {remote:6.2f} s   {games / remote:7.1f} games/s")
    print(f"  cluster cost per game: {(remote - local) / games * 1000:+.2f} ms "
          f"(start-up of the run included in both)")


if __name__ == "__main__":
    main()
