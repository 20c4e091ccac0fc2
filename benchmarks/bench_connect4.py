"""Connect Four 7x6 by search: the time per position of Pascal Pons' test sets (each
position's exact score, checked against the set's), and of whole graded games.

The sets are the lines of tests/data/connect4-pons.txt (20 of each of four sets), or with
--sets DIR Pons' whole files found there (Test_L3_R1, Test_L2_R1, Test_L2_R2, Test_L1_R1,
Test_L1_R2, Test_L1_R3, from http://blog.gamesolver.org/data/), --lines N of each. Each set
is solved by a fresh searcher (its table of bounds empty), one position after another as a
game would ask. Then `judge run` grades bots/connect4/optimal.c against the judge's optimal
opponent on --games openings of the 7x6 test set, every move judged, with one job: the
run's wall time over the games.

With --first-moves, it solves the position after each first move of the empty board, and
checks the scores Pons' solver gives the first player: -2 -1 0 1 0 -1 -2 by column, a win
by the centre column only (the 1988 result of J. D. Allen and L. V. Allis); without an
opening book each takes a long time (minutes to hours on 2 cores).

Run: python benchmarks/bench_connect4.py [--sets DIR] [--lines N] [--games N] [--first-moves]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.resources import files
from pathlib import Path

from judge.games.connect4 import OPENINGS, ConnectFour
from judge.games.connect4.solver import Search, library

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "connect4-pons.txt"
#: the benchmark's searches never give up
NO_BUDGET = 2**62
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")


def read_sets(folder: Path | None, lines: int) -> dict[str, list[tuple[str, int]]]:
    """Each set's positions (columns played) and scores."""
    found: dict[str, list[tuple[str, int]]] = {}
    if folder is None:
        for line in SAMPLE.read_text().splitlines():
            if line and not line.startswith("#"):
                name, columns, score = line.split()
                found.setdefault(name, []).append((columns, int(score)))
    else:
        for name in SETS:
            path = folder / name
            if path.is_file():
                rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
                found[name] = [(columns, int(score)) for columns, score in rows]
    return {name: rows[:lines] for name, rows in found.items()}


def bench_set(game: ConnectFour, rows: list[tuple[str, int]]) -> tuple[list[float], int, int]:
    """The seconds of each position, the positions searched and the wrong scores."""
    codes = game.position_codes()
    assert codes is not None
    search = Search(game, codes, budget=NO_BUDGET)
    search.ready()
    times, wrong = [], 0
    for columns, score in rows:
        pos = game.start()
        for column in columns:
            pos = game.play(pos, int(column))
        start = time.perf_counter()
        got = search.score(pos)
        times.append(time.perf_counter() - start)
        wrong += got != score
    return times, search.nodes(), wrong


def bench_games(games: int) -> None:
    """A `judge run` of the C optimal bot on the first `games` openings."""
    text = files("judge.games.connect4").joinpath(OPENINGS).read_text()
    openings = [line for line in text.splitlines() if line and not line.startswith("#")]
    with tempfile.TemporaryDirectory() as tmp:
        tests = Path(tmp) / "tests.txt"
        tests.write_text("\n".join(openings[:games]) + "\n")
        env = {**os.environ, "JUDGE_CACHE_DIR": os.environ.get("JUDGE_CACHE_DIR",
                                                               str(Path(tmp) / "cache"))}
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "judge", "run", "--game", "connect4", "--rules",
             "rows=6 cols=7", "--tests", str(tests), "--jobs", "1", "--db",
             str(Path(tmp) / "results.sqlite"), str(ROOT / "bots" / "connect4" / "optimal.c")],
            capture_output=True, text=True, cwd=tmp, env=env)
        spent = time.perf_counter() - start
    print(done.stdout.strip() or done.stderr.strip())
    plural = "s" if games != 1 else ""
    print(f"judge run, {games} game{plural} of 7x6 (optimal.c, every move judged, --jobs 1): "
          f"{spent:.1f} s, {spent / games:.1f} s a game")


#: the first player's score by first column (from the left), after Pons' solver
FIRST_MOVES = (-2, -1, 0, 1, 0, -1, -2)


def bench_first_moves(game: ConnectFour) -> None:
    """Each first move's score for the first player, with its time, centre first."""
    codes = game.position_codes()
    assert codes is not None
    search = Search(game, codes, budget=NO_BUDGET)
    for column in (4, 3, 5, 2, 6, 1, 7):
        start = time.perf_counter()
        score = -search.score(game.play(game.start(), column))
        print(f"first move in column {column}: score {score} (published "
              f"{FIRST_MOVES[column - 1]}), {time.perf_counter() - start:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=Path, help="a folder of Pons' test set files")
    parser.add_argument("--lines", type=int, default=1000, help="positions of each set")
    parser.add_argument("--games", type=int, default=4, help="graded games (0: none)")
    parser.add_argument("--first-moves", action="store_true",
                        help="solve the 7 first moves of the empty board too (slow)")
    args = parser.parse_args()
    if library() is None:
        sys.exit("no C compiler builds the search here")
    game = ConnectFour("rows=6 cols=7")
    print(f"{'set':12} {'positions':>9} {'mean':>10} {'worst':>10} {'nodes/pos':>10} wrong")
    for name, rows in read_sets(args.sets, args.lines).items():
        if not rows:
            continue
        times, nodes, wrong = bench_set(game, rows)
        print(f"{name:12} {len(rows):9} {statistics.mean(times) * 1e3:8.2f}ms "
              f"{max(times) * 1e3:8.1f}ms {nodes / len(rows):10.0f} {wrong}")
    if args.games:
        bench_games(args.games)
    if args.first_moves:
        bench_first_moves(game)


if __name__ == "__main__":
    main()
