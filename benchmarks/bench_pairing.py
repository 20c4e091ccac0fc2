"""Time Swiss pairing (judge.pairing): N entrants over R rounds, each game won by the
stronger seed with a probability from the Elo formula (strength = seed), a fixed seed.

    python benchmarks/bench_pairing.py [--players 1000] [--rounds 9]

Prints each round's pairing time, and the checks: repeats, byes, seats.
"""

from __future__ import annotations

import argparse
import random
import time

from judge.pairing import Game, Round, pair, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.players
    played: list[Round] = []
    times = []
    for number in range(args.rounds):
        start = time.perf_counter()
        pairing = pair(n, played)
        times.append(time.perf_counter() - start)
        games = []
        for p in pairing.pairs:
            # seed s is 20 Elo stronger than seed s + 1
            expected = 1 / (1 + 10 ** ((p.first - p.second) * 20 / 400))
            u = rng.random()
            games.append(Game(p.first, p.second, 1.0 if u < expected - 0.05
                              else 0.5 if u < expected + 0.05 else 0.0))
        played.append(Round(tuple(games), pairing.bye))
        print(f"round {number + 1}: paired in {times[-1]:.3f} s")
    past = records(n, played)
    repeats = sum(len(r.seats) - len(r.opponents) for r in past) // 2
    worst = max(abs(r.seats.count(0) - r.seats.count(1)) for r in past)
    runs = sum(1 for r in past for i in range(len(r.seats) - 2)
               if r.seats[i] == r.seats[i + 1] == r.seats[i + 2])
    print(f"{n} players, {args.rounds} rounds: slowest round {max(times):.3f} s, "
          f"mean {sum(times) / len(times):.3f} s; repeated pairings {repeats}, "
          f"most byes {max(r.byes for r in past)}, worst seat imbalance {worst}, "
          f"three same seats in a row {runs}")


if __name__ == "__main__":
    main()
