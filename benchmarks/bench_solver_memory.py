"""Memory of the generic solver's search that keeps its moves, by kind of key: positions as
Python objects, numbers from the game's `encode`, and position codes searched as if they
could come back (not layer by layer).

For each game, in a fresh process with an empty cache directory: the positions and moves
the search found, seconds of CPU to solve the start, the process's peak resident memory
(`resource.getrusage` maxrss) and that peak less the process's before the search, in bytes a
position, which is what the solver's estimate must cover (`generic.OBJECT_BYTES`,
`ENCODED_BYTES`, `CODED_BYTES`). Domineering is the test's own game (tests/domineering.py,
plain Python with `encode`), as a plugin's author would write it.

    python benchmarks/bench_solver_memory.py [--only NAME] [--budget BYTES] [--solver-file FILE]

`--only` measures the rows whose name contains NAME (`domineering 5x5`); `--budget` sets
`JUDGE_SOLVER_MEMORY` in the children; `--solver-file` measures another copy of the solver's
module, as `bench_generic.py` does. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_generic import solver_class  # noqa: E402

from judge.games import load_game  # noqa: E402
from judge.games.base import InputError  # noqa: E402

#: (row name, game, rules, kind of key)
ROWS = [
    ("tictactoe, objects", "tictactoe", "", "objects"),
    ("tictactoe, encode", "tictactoe", "", "encode"),
    ("connect4 4x4, objects", "connect4", "rows=4 cols=4", "objects"),
    ("connect4 4x4, encode", "connect4", "rows=4 cols=4", "encode"),
    ("connect4 4x4, codes", "connect4", "rows=4 cols=4", "codes"),
    ("connect4 5x4, codes", "connect4", "rows=5 cols=4", "codes"),
    ("domineering 4x4, objects", "domineering", "rows=4 cols=4", "objects"),
    ("domineering 4x5, objects", "domineering", "rows=4 cols=5", "objects"),
    ("domineering 4x5, encode", "domineering", "rows=4 cols=5", "encode"),
    ("domineering 5x5, encode", "domineering", "rows=5 cols=5", "encode"),
    ("domineering 4x6, encode", "domineering", "rows=4 cols=6", "encode"),
    ("domineering 5x6, encode", "domineering", "rows=5 cols=6", "encode"),
    ("domineering 5x7, encode", "domineering", "rows=5 cols=7", "encode"),
]


def game_of(name: str, rules: str, kind: str) -> Any:
    """The game, with its numbers taken away for the kinds that do without them."""
    if name == "domineering":
        from tests.domineering import Domineering, PlainDomineering

        return (PlainDomineering if kind == "objects" else Domineering)(rules)
    return load_game(name, rules)


def measure(name: str, rules: str, kind: str, path: str | None) -> dict[str, Any]:
    """Solve the start of one game in this process with one kind of key."""
    import numpy as np

    game = game_of(name, rules, kind)
    solver = solver_class(path)(game)
    solver._layered = False
    if kind != "codes":
        solver.codes = None
    if kind == "objects":
        solver.key, solver._encoded = (lambda pos: pos), False
    moves = []
    explore = solver.explore

    def counted(*args: Any, **kwargs: Any) -> Any:
        graph = explore(*args, **kwargs)
        moves.append(len(graph.parents))
        return graph

    solver.explore = counted  # type: ignore[method-assign]
    np.zeros(1).sum()  # NumPy loaded before the baseline
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    cpu = time.process_time()
    try:
        value: str = solver.evaluate(game.start()).value.value
    except InputError as exc:
        value = f"refused: {exc}"
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    positions = sum(len(s.codes) for s in solver.segments) + len(solver.table)
    return {"positions": positions, "moves": sum(moves), "cpu": cpu, "peak": peak,
            "before": before, "value": value}


def in_child(name: str, rules: str, kind: str, budget: str | None,
             path: str | None) -> dict[str, Any]:
    """`measure` in a fresh interpreter with an empty cache directory of its own."""
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as cache_dir:
        env = dict(os.environ, JUDGE_CACHE_DIR=cache_dir)
        if budget is not None:
            env["JUDGE_SOLVER_MEMORY"] = budget
        command = [sys.executable, __file__, "--one", name, rules, kind]
        if path is not None:
            command += ["--solver-file", path]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    """Measure every row (or one with --one, printing JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=3, metavar=("GAME", "RULES", "KIND"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--only", help="measure only the rows whose name contains this")
    parser.add_argument("--budget", help="JUDGE_SOLVER_MEMORY for the searches")
    parser.add_argument("--solver-file", help="measure the GenericSolver of this module file")
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(*args.one, args.solver_file)))
        return
    print(f"solver: {args.solver_file or 'judge.solvers.generic'}")
    print("| game, key | positions | moves | value of start | CPU s | peak MiB "
          "| bytes a position |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for row, name, rules, kind in ROWS:
        if args.only is not None and args.only not in row:
            continue
        r = in_child(name, rules, kind, args.budget, args.solver_file)
        each = (r["peak"] - r["before"]) / r["positions"] if r["positions"] else 0
        print(f"| {row} | {r['positions']:,} | {r['moves']:,} | {r['value']} | {r['cpu']:.2f} "
              f"| {r['peak'] / 2**20:.0f} | {each:.0f} |", flush=True)


if __name__ == "__main__":
    main()
