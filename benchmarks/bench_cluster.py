"""Games per second on the local pool and on a Dask cluster on this machine, and the
cluster's cost per game.

Starts `judge scheduler` and WORKERS `judge worker` processes (one game at a time each) on
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
        # the cluster's credentials made for this benchmark alone, used by every process
        os.environ["JUDGE_CLUSTER_CREDENTIALS"] = str(tmp / "credentials")
        procs = [subprocess.Popen([sys.executable, "-m", "judge", "scheduler", "--host",
                                   "127.0.0.1", "--port", "0"], start_new_session=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True)]
        try:
            address = procs[0].stdout.readline().strip()  # printed once it listens
            if not address.startswith("tls://"):
                sys.exit("judge scheduler did not start")
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "judge", "worker", address, "--jobs",
                 str(args.workers)], start_new_session=True, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL))
            from distributed import Client

            from judge.credentials import security

            with Client(address, security=security(), timeout=30) as client:
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
