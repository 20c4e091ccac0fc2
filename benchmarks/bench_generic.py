"""Generic solver benchmark: tic-tac-toe and Connect Four 4x4, 5x4, 4x5 and 5x5, solved cold.

For each game, in a fresh process with an empty cache directory: seconds to solve the start
and answer it (from the solver's construction, the imports done), then seconds to count the
reachable positions won, lost and drawn (what `judge solve --stats` prints), each as wall
time and, in brackets, the process's CPU time (the fairer figure on a busy machine); peak
memory; and the start's value with the counts, which must not change from one solver to
another (a solver that refuses to count says so instead).

    python benchmarks/bench_generic.py [--solver-file FILE] [--only NAME]

`--solver-file` times another copy of the solver's module (a file defining
`GenericSolver`, such as an older `judge/solvers/generic.py` kept elsewhere), so that the
two can be run side by side. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

from judge.games import load_game
from judge.games.base import InputError

GAMES = [
    ("tictactoe", ""),
    ("connect4", "rows=4 cols=4"),
    ("connect4", "rows=5 cols=4"),
    ("connect4", "rows=4 cols=5"),
    ("connect4", "rows=5 cols=5"),
]


def solver_class(path: str | None) -> Any:
    """The `GenericSolver` of the judge, or of the module file at `path`."""
    if path is None:
        from judge.solvers.generic import GenericSolver

        return GenericSolver
    spec = importlib.util.spec_from_file_location("timed_generic", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module.GenericSolver


def measure(name: str, rules: str, path: str | None) -> dict[str, Any]:
    """Solve the start of one game in this process, then count its reachable positions."""
    cls = solver_class(path)
    game = load_game(name, rules)
    wall, cpu = time.perf_counter(), time.process_time()
    solver = cls(game)
    try:
        value = solver.evaluate(game.start()).value
    except InputError as exc:  # too big for this solver
        value = f"refused: {exc}"
    solved = time.perf_counter() - wall, time.process_time() - cpu
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        counts: dict[str, int] | str = solver.stats([game.start()])
    except InputError as exc:
        counts = f"refused: {exc}"
    counted = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "solve": solved,
        "stats": counted,
        "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "value": value,
        "counts": counts,
    }


def in_child(name: str, rules: str, path: str | None) -> dict[str, Any]:
    """`measure` in a fresh interpreter with an empty cache directory of its own."""
    with tempfile.TemporaryDirectory(prefix="bench-generic-") as cache_dir:
        env = dict(os.environ, JUDGE_CACHE_DIR=cache_dir)
        command = [sys.executable, __file__, "--one", name, rules]
        if path is not None:
            command += ["--solver-file", path]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    """Time every game (or measure one with --one, printing JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=2, metavar=("GAME", "RULES"), help=argparse.SUPPRESS)
    parser.add_argument("--solver-file", help="time the GenericSolver of this module file")
    parser.add_argument("--only", help="time only this rules string (e.g. 'rows=5 cols=4')")
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(*args.one, args.solver_file)))
        return
    print(f"solver: {args.solver_file or 'judge.solvers.generic'}")
    print("| game | positions | win / loss / draw | value of start | solve s | stats s "
          "| peak MiB |")
    print("| --- | ---: | --- | --- | ---: | ---: | ---: |")
    for name, rules in GAMES:
        if args.only is not None and args.only != rules:
            continue
        r = in_child(name, rules, args.solver_file)
        c = r["counts"]
        counts = (f"{c['positions']:,} | {c['win']:,} / {c['loss']:,} / {c['draw']:,}"
                  if isinstance(c, dict) else f"- | {c}")
        solve, stats = ("{:.2f} ({:.2f})".format(*r[k]) for k in ("solve", "stats"))
        print(f"| {name} {rules} | {counts} | {r['value']} | {solve} | {stats} "
              f"| {r['peak'] / 2**20:.0f} |", flush=True)


if __name__ == "__main__":
    main()
