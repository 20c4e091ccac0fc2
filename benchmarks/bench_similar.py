"""Copy detection on a big class: how long `judge show RUN --similar` takes to compare 300
programs of 200 lines (the goal: under 10 s), read, tokenised and tiled pair by pair.

The programs are Python, generated: functions of about ten lines, each of statements and
expressions drawn at random (assignments, loops, calls, nested blocks) over the student's
own names and numbers, so that programs share the language's idioms (short runs the
tiling follows and drops) but not their code; every tenth program is a copy of the one
before with its functions reordered and a statement added (the 30 pairs to find).
Tokenising (Pygments, once per program) and tiling (every pair) are timed apart; the
table gives the best of `--repeat` runs, in seconds of the clock and of this process's
CPU (on a busy machine, the CPU is the figure to compare with the goal).

Run: python benchmarks/bench_similar.py [--programs 300] [--lines 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

from judge.similarity import THRESHOLD, compare_files, similar_pairs, tokens

#: the goal: this many programs ...
GOAL_PROGRAMS = 300
#: ... compared in under this many seconds
GOAL_SECONDS = 10.0

#: the operators and calls of the expressions a student writes
OPERATORS = ["+", "-", "*", "//", "%", "^", "&", "|", "<<"]
CALLS = ["len", "max", "min", "abs", "sum", "sorted", "int", "str", "list", "tuple"]
COMPARISONS = ["<", ">", "==", "!=", "<=", ">="]


def expression(rng: random.Random, names: list[str], depth: int = 2) -> str:
    """An expression of the student's names and numbers."""
    pick = rng.random()
    if depth == 0 or pick < 0.3:
        return rng.choice(names) if rng.random() < 0.7 else str(rng.randint(0, 99))
    if pick < 0.6:
        return (f"{expression(rng, names, depth - 1)} {rng.choice(OPERATORS)} "
                f"{expression(rng, names, depth - 1)}")
    if pick < 0.75:
        return f"{rng.choice(CALLS)}({expression(rng, names, depth - 1)})"
    if pick < 0.9:
        return f"{rng.choice(names)}[{expression(rng, names, depth - 1)}]"
    return f"({expression(rng, names, depth - 1)})"


def statements(rng: random.Random, names: list[str], depth: int = 2) -> list[str]:
    """A few statements (lines), nested blocks down to `depth`."""
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        pick = rng.random()
        if depth and pick < 0.25:
            test = (f"{expression(rng, names, 1)} {rng.choice(COMPARISONS)} "
                    f"{expression(rng, names, 1)}")
            head = rng.choice([f"if {test}:", f"while {test}:",
                               f"for {rng.choice(names)} in range({expression(rng, names, 1)}):"])
            lines += [head, *("    " + line for line in statements(rng, names, depth - 1))]
        elif pick < 0.4:
            lines.append(f"{rng.choice(names)}.append({expression(rng, names)})")
        elif pick < 0.5:
            lines.append(f"print({expression(rng, names, 1)}, flush=True)")
        elif pick < 0.7:
            lines.append(f"{rng.choice(names)} {rng.choice(OPERATORS)}= "
                         f"{expression(rng, names)}")
        else:
            lines.append(f"{rng.choice(names)} = {expression(rng, names)}")
    return lines


def program(rng: random.Random, lines: int) -> str:
    """One student's program of about `lines` lines."""
    names = [f"{rng.choice('abcdefghpqrstxyz')}{rng.choice(['', 'val', 'tmp', 'idx', 's'])}"
             f"{k}" for k in range(12)]
    functions = []
    written = 0
    while written < lines:
        body = []
        while len(body) < 6:
            body += statements(rng, names)
        args = ", ".join(rng.sample(names, rng.randint(1, 3)))
        text = [f"def {rng.choice(names)}_{len(functions)}({args}):",
                *(f"    {line}" for line in body), f"    return {rng.choice(names)}"]
        functions.append("\n".join(text))
        written += len(text) + 2
    return "\n\n\n".join(functions) + "\n"


def copy(rng: random.Random, text: str) -> str:
    """`text` with its functions reordered and a statement added to one of them."""
    functions = text.split("\n\n\n")
    rng.shuffle(functions)
    functions[0] = functions[0].replace("\n", "\n    unused = 0\n", 1)
    return "\n\n\n".join(functions)


def write_class(folder: Path, count: int, lines: int) -> tuple[tuple[str, str, str], ...]:
    """`count` programs in `folder`, as a run gives them (name, path, SHA-256)."""
    rng = random.Random(2026)
    texts: list[str] = []
    for k in range(count):
        texts.append(copy(rng, texts[k - 1]) if k % 10 == 9 else program(rng, lines))
    files = []
    for k, text in enumerate(texts):
        path = folder / f"student{k:03}.py"
        path.write_text(text)
        files.append((path.name, str(path), hashlib.sha256(text.encode()).hexdigest()))
    return tuple(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=GOAL_PROGRAMS)
    parser.add_argument("--lines", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        files = write_class(Path(tmp), args.programs, args.lines)
        count = sum(len(Path(p).read_text().splitlines()) for _, p, _ in files) // len(files)
        for _ in range(args.repeat):
            compare_files.cache_clear()
            start, cpu = time.perf_counter(), time.process_time()
            found = compare_files(files)
            whole, cpu = time.perf_counter() - start, time.process_time() - cpu
            start = time.process_time()
            programs = {name: tokens(Path(path).read_text(), path) for name, path, _ in files}
            lexed = time.process_time() - start
            start = time.process_time()
            similar_pairs(programs)  # type: ignore[arg-type]
            tiled = time.process_time() - start
            rows.append((whole, cpu, lexed, tiled, len(found.pairs)))
    whole, cpu, lexed, tiled, pairs = min(rows, key=lambda row: row[1])
    print(tabulate([[args.programs, count, args.programs * (args.programs - 1) // 2,
                     f"{whole:.2f} s", f"{cpu:.2f} s", f"{lexed:.2f} s", f"{tiled:.2f} s",
                     pairs]],
                   headers=["programs", "lines each", "pairs", "--similar", "its CPU",
                            "tokenising (CPU)", "tiling (CPU)",
                            f"pairs at {100 * THRESHOLD:g}%"]))
    verdict = "met" if cpu < GOAL_SECONDS else "NOT met"
    print(f"goal ({args.programs} programs in under {GOAL_SECONDS:g} s of CPU): {verdict}")


if __name__ == "__main__":
    main()
