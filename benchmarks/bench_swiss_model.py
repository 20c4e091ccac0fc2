"""The Swiss of bench_tournaments.py without processes: what limits how well it ranks?

    python benchmarks/bench_swiss_model.py [--entrants 64] [--rounds 7] [--pairs 2]
        [--runs 200] [--weakest 0] [--strongest 1] [--seed 1]

The same Nim bots (bench_tournaments.py's source, each `choose` called in this process,
both bots of a game pair seeded alike as BOT_SEED is), the same starts in the same order
(the game's default starts, `--pairs` game pairs a pairing, each round on the next starts),
paired by judge.pairing round after round and scored as judge.kinds.tournament scores a
pairing, so hundreds of Swisses take a minute. Prints Spearman's rho against the true
order, mean and least over the runs, of the final order by

- the standings (points, Buchholz, Sonneborn-Berger, seed), as `judge tournament` ranks;
- points alone, ties by seed;
- points, ties by the true strength: the best any tie-break could do;
- Bradley-Terry ratings fitted to the same games (judge.ratings.fit): all they tell.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench_tournaments import bots, spearman

from judge.games import load_game
from judge.games.base import played_starts
from judge.pairing import Game, Round, pair, standings
from judge.ratings import fit

Choose = Callable[[list[int], random.Random], tuple[int, int]]


def load_bots(n: int, weakest: float, strongest: float) -> list[Choose]:
    """Each bot's `choose` (weakest first), from the files bench_tournaments.py writes."""
    chooses = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in bots(Path(tmp), n, weakest, strongest):
            space: dict = {"__name__": "bot", "__file__": path}
            exec(compile(Path(path).read_text(), path, "exec"), space)
            chooses.append(space["choose"])
    return chooses


def game(start: list[int], first: Choose, second: Choose, seed: int) -> float:
    """First's score in one game of Nim from `start`, both bots seeded with `seed`."""
    heaps, players = list(start), (first, second)
    rngs = [random.Random(str(seed)), random.Random(str(seed))]
    mover = 0
    while True:
        heap, count = players[mover](heaps, rngs[mover])
        heaps[heap - 1] -= count
        if not any(heaps):
            return 1.0 - mover
        mover = 1 - mover


def swiss(chooses: list[Choose], rounds: int, pairs: int, seed: int,
          starts: list[list[int]]) -> tuple[list[int], list[Round]]:
    """One Swiss of `pairs` game pairs a pairing: the bots (by index, weakest first) in
    their seed order, and its rounds."""
    rng = random.Random(seed)
    seeds = list(range(len(chooses)))
    rng.shuffle(seeds)
    order = list(starts)
    random.Random(f"{seed}|starts").shuffle(order)  # as TournamentPlan.round_start
    played: list[Round] = []
    for number in range(rounds):
        pairing = pair(len(seeds), played)
        games = []
        for p in pairing.pairs:
            a, b = chooses[seeds[p.first]], chooses[seeds[p.second]]
            points = 0.0
            for k in range(pairs):
                start = order[(number * pairs + k) % len(order)]
                both = rng.getrandbits(31)
                points += game(start, a, b, both) + 1 - game(start, b, a, both)
            games.append(Game(p.first, p.second, points / (2 * pairs)))
        played.append(Round(tuple(games), pairing.bye))
    return seeds, played


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--entrants", type=int, default=64)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--pairs", type=int, default=2)
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--weakest", type=float, default=0.0)
    p.add_argument("--strongest", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    n = a.entrants
    chooses = load_bots(n, a.weakest, a.strongest)
    nim = load_game("nim")
    starts = [[int(t) for t in nim.format_position(s).split()]
              for s in played_starts(nim)]
    truth = list(range(n - 1, -1, -1))  # strongest first
    rhos: dict[str, list[float]] = {k: [] for k in
                                    ("standings", "points", "points, true ties", "ratings")}
    for run in range(a.runs):
        seeds, played = swiss(chooses, a.rounds, a.pairs, a.seed + run, starts)
        table = standings(n, played)
        by_seed = {s.player: s for s in table}
        games = [(str(g.first), str(g.second), g.score) for r in played for g in r.games]
        rating = fit([str(s) for s in range(n)], games)
        orders = {
            "standings": [s.player for s in table],
            "points": sorted(range(n), key=lambda s: (-by_seed[s].points, s)),
            "points, true ties": sorted(range(n), key=lambda s: (-by_seed[s].points,
                                                                 -seeds[s])),
            "ratings": sorted(range(n), key=lambda s: -rating[str(s)].rating),
        }
        for name, order in orders.items():
            rhos[name].append(spearman([seeds[s] for s in order], truth))
    pairs = f"{a.pairs} game pair{'s' if a.pairs != 1 else ''}"
    print(f"Swiss of {n} Nim bots ({a.weakest:g}-{a.strongest:g}) in {a.rounds} rounds of "
          f"{pairs} a pairing, {a.runs} runs: Spearman rho of the order by")
    for name, values in rhos.items():
        print(f"  {name:18} mean {statistics.mean(values):.3f}, least {min(values):.3f}")


if __name__ == "__main__":
    main()
