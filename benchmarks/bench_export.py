"""What an exported package's interactor costs per case, and what exporting costs.

For each game, `judge export kattis` on the game's default test set (both seats), timed;
then the package's interactor (``main.py``, the system's Python, no judge on its path) run
under Kattis's contract against the sample optimal bot on a few cases: the interactor's
CPU time per case (its own, read from the kernel when it ends), the wall time of the whole
case (both processes), the interactor's peak memory, and the size of the replies table it
loads. Run:
``python benchmarks/bench_export.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
PYTHON = shutil.which("python3", path="/usr/bin:/bin") or sys.executable


def one_case(validator: Path, case: Path, bot: Path,
             feedback: Path) -> tuple[float, float, float]:
    """(the interactor's CPU seconds, the case's wall seconds, the interactor's peak
    memory in MiB) of one case."""
    started = time.perf_counter()
    player = subprocess.Popen([sys.executable, str(bot)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    assert player.stdin is not None and player.stdout is not None
    inter = subprocess.Popen([PYTHON, "main.py", str(case), str(case.with_suffix(".ans")),
                              str(feedback)], cwd=validator, env={"PATH": "/usr/bin:/bin"},
                             stdin=player.stdout, stdout=player.stdin)
    player.stdin.close()
    player.stdout.close()
    _, status, usage = os.wait4(inter.pid, 0)
    inter.returncode = os.waitstatus_to_exitcode(status)
    player.wait()
    if inter.returncode != 42:
        raise SystemExit(f"{case}: the interactor said {inter.returncode}, not 42")
    return (usage.ru_utime + usage.ru_stime, time.perf_counter() - started,
            usage.ru_maxrss / 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10, help="cases timed per game")
    parser.add_argument("games", nargs="*", default=["nim", "ioiwari", "chopsticks"])
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            out = Path(tmp) / game
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "judge", "export", "kattis", game,
                            "--seats", "both", "--output", str(out)], check=True,
                           capture_output=True)
            export_seconds = time.perf_counter() - started
            validator = out / "output_validators" / "interactor"
            feedback = Path(tmp) / "feedback"
            feedback.mkdir(exist_ok=True)
            cases = sorted((out / "data").glob("*/*.in"))
            timed = [one_case(validator, c, ROOT / "bots" / game / "optimal.py", feedback)
                     for c in cases[:: max(1, len(cases) // args.cases)][: args.cases]]
            cpu = sorted(t[0] for t in timed)
            wall = sorted(t[1] for t in timed)
            memory = max(t[2] for t in timed)
            rows.append([game, len(cases), f"{export_seconds:.1f}",
                         f"{(validator / 'replies.json.gz').stat().st_size / 1024:.0f}",
                         f"{cpu[len(cpu) // 2] * 1000:.0f}", f"{cpu[-1] * 1000:.0f}",
                         f"{wall[len(wall) // 2] * 1000:.0f}", f"{memory:.0f}"])
    print(tabulate(rows, headers=["game", "cases", "export s", "replies KiB",
                                  "interactor CPU ms (median)", "(max)",
                                  "case wall ms (median)", "interactor MiB (max)"]))


if __name__ == "__main__":
    main()
