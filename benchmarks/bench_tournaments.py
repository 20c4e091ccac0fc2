"""Swiss and knockout tournaments of Nim bots of known strength: does the order come out?

    python benchmarks/bench_tournaments.py swiss [--entrants 64] [--rounds 7] [--pairs 2]
        [--runs 10] [--jobs 2]
    python benchmarks/bench_tournaments.py knockout [--entrants 16] [--runs 10] [--pairs 2]
        [--weakest 0] [--strongest 1]

Bot i of N plays on each move Bouton's best move with probability weakest + (strongest -
weakest) i / (N - 1) and otherwise bots/nim/random.py's move (seeded by BOT_SEED), so the
strengths are known and ordered: by default from the random bot itself (0) to a perfect
player (1), evenly. Each system is played `--runs` times, with seeds --seed, --seed + 1,
... A Swiss (`--pairs` game pairs a pairing, as `judge tournament --pairs`) gets the bots
in an order shuffled by the seed (its seeds tell it nothing) and prints Spearman's rho
between its final standings and the true order, each run's and their mean and least, and
the time a Swiss took; a knockout gets them seeded strongest first and prints how often the
strongest won.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RANDOM_BOT = Path(__file__).resolve().parent.parent / "bots" / "nim" / "random.py"

#: put before the random bot's `if __name__ == "__main__":`, so that its loop calls it
STRONGER = """
random_choose = choose
BEST = {best}


def choose(heaps, rng):
    \"\"\"Bouton's best move with probability BEST where there is one, else a random move.\"\"\"
    total = 0
    for size in heaps:
        total ^= size
    if total and rng.random() < BEST:
        for i, size in enumerate(heaps):
            if size ^ total < size:
                return i + 1, size - (size ^ total)
    return random_choose(heaps, rng)


"""


def bots(folder: Path, n: int, weakest: float, strongest: float) -> list[str]:
    """N bot files, weakest first."""
    head, sep, tail = RANDOM_BOT.read_text().partition('if __name__ == "__main__":')
    if not sep:
        sys.exit(f"{RANDOM_BOT} has no `if __name__` block to put the stronger choice before")
    paths = []
    for i in range(n):
        path = folder / f"s{i:03d}.py"
        best = round(weakest + (strongest - weakest) * i / (n - 1), 4)
        path.write_text(head + STRONGER.format(best=best) + sep + tail)
        paths.append(str(path))
    return paths


def tournament(folder: Path, db: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "judge", "tournament", "--game", "nim",
                          "--db", str(folder / db), "--format", "json", *args],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit(out.stderr)
    return json.loads(out.stdout)


def spearman(order: list[str], truth: list[str]) -> float:
    """Spearman's rho of `order` (best first) against `truth` (best first)."""
    place = {p: r for r, p in enumerate(truth)}
    d2 = sum((rank - place[p]) ** 2 for rank, p in enumerate(order))
    n = len(order)
    return 1 - 6 * d2 / (n * (n * n - 1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("system", choices=["swiss", "knockout"])
    p.add_argument("--entrants", type=int)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--pairs", type=int, default=2)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--weakest", type=float, default=0.0)
    p.add_argument("--strongest", type=float, default=1.0)
    a = p.parse_args()
    n = a.entrants or (64 if a.system == "swiss" else 16)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        strongest_first = bots(folder, n, a.weakest, a.strongest)[::-1]
        began = time.monotonic()
        if a.system == "swiss":
            rhos = []
            for run in range(a.runs):
                shuffled = list(strongest_first)
                random.Random(a.seed + run).shuffle(shuffled)
                one = time.monotonic()
                data = tournament(folder, f"s{run}.db", "--system", "swiss", "--rounds",
                                  str(a.rounds), "--pairs", str(a.pairs), "--seed",
                                  str(a.seed + run), "--jobs", str(a.jobs), *shuffled)
                rhos.append(spearman([s["bot"] for s in data["standings"]], strongest_first))
                print(f"run {run + 1} (seed {a.seed + run}): {len(data['games'])} games "
                      f"({time.monotonic() - one:.0f} s), Spearman rho {rhos[-1]:.3f}",
                      flush=True)
            print(f"Swiss of {n} Nim bots ({a.weakest:g}-{a.strongest:g}) in {a.rounds} "
                  f"rounds of {a.pairs} game pair{'s' if a.pairs != 1 else ''} a pairing, "
                  f"{a.runs} runs "
                  f"({time.monotonic() - began:.0f} s): Spearman rho mean "
                  f"{sum(rhos) / len(rhos):.3f}, least {min(rhos):.3f}")
            return
        won = 0
        for run in range(a.runs):
            data = tournament(folder, f"k{run}.db", "--system", "knockout", "--pairs",
                              str(a.pairs), "--seed", str(a.seed + run), "--jobs",
                              str(a.jobs), *strongest_first)
            champion = data["ties"][-1]["winner"]
            won += champion == strongest_first[0]
            print(f"run {run + 1}: {len(data['games'])} games, the winner is seed "
                  f"{strongest_first.index(champion) + 1}", flush=True)
        print(f"knockout of {n} Nim bots ({a.weakest:g}-{a.strongest:g}), {a.pairs} pairs a tie, "
              f"{a.runs} runs ({time.monotonic() - began:.0f} s): the strongest won {won}")


if __name__ == "__main__":
    main()
