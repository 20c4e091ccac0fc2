"""Make the test set of Connect Four on 7x6 (judge/games/connect4/openings-7x6.txt).

The search solves positions of 14 discs in about a second or less, but those of a few discs
in minutes or more, so `judge run` on 7x6 starts from openings of 14 discs, not from the
empty board. They are played at random with a fixed seed, and kept when no one has won, the
player to move cannot win at once, the game is not decided within 10 moves, and the search
answered within `--seconds`: so many won, lost and drawn for the player to move.

Run: python scripts/connect4_openings.py [--seconds S] > judge/games/connect4/openings-7x6.txt
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from judge.games.connect4 import ConnectFour
from judge.solvers import solver_for

DISCS = 14
WANTED = {"win": 16, "loss": 16, "draw": 8}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    game = ConnectFour("rows=6 cols=7")
    solver = solver_for(game)
    rng = random.Random(args.seed)
    kept: dict[str, list[str]] = {k: [] for k in WANTED}
    tried = 0
    while any(len(kept[k]) < n for k, n in WANTED.items()):
        tried += 1
        pos = game.start()
        for _ in range(DISCS):
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
            if game.is_over(pos):
                break
        if game.is_over(pos) or any(game.is_over(game.play(pos, m))
                                    for m in game.legal_moves(pos)):
            continue
        start = time.perf_counter()
        found = solver.evaluate(pos)
        spent = time.perf_counter() - start
        value = str(found.value)
        if spent > args.seconds or len(kept[value]) >= WANTED[value]:
            continue
        if found.remoteness is not None and found.remoteness < 10:
            continue
        text = game.format_position(pos)
        if text not in {line.split()[0] for lines in kept.values() for line in lines}:
            rem = "" if found.remoteness is None else f" in {found.remoteness}"
            kept[value].append(f"{text}  # {value}{rem} for the player to move")
        print(f"{tried} tried, {spent:.2f} s: {value}", file=sys.stderr, flush=True)
    print(f"# Connect Four 7x6: openings of {DISCS} discs played at random (seed {args.seed}),"
          " made by scripts/connect4_openings.py")
    for value in WANTED:
        print("\n".join(kept[value]))


if __name__ == "__main__":
    main()
