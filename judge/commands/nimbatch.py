"""`judge nim-batch`: grade programs for the Nim batch assignment (reads nim.txt, answers)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands.common import (
    EXIT_SKIPPED,
    add_harness_options,
    check_bots,
    harness_setup,
    read_lines,
)
from judge.report import FORMATS, render_rows, to_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `nim-batch` subcommand."""
    p = sub.add_parser(
        "nim-batch",
        help="grade programs for the Nim batch assignment",
        description="Run each PROGRAM once with nim.txt in its working directory and grade its "
        "output line by line: 'Lose Game' when the nim-sum is 0, otherwise 'Remove X counters "
        "from Heap H' for the first heap H that allows a winning move. One point per correct "
        "line; the first wrong line is shown. The whole run must finish within the "
        "first-move time limit.",
        epilog="examples:\n  judge nim-batch solutions/*.py\n"
        "  judge nim-batch --input samples/nim.txt --details alice.c",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("programs", nargs="+", metavar="PROGRAM",
                   help="a source file in one of the languages below, or any executable")
    p.add_argument("--input", type=Path, metavar="FILE",
                   help="the nim.txt to give (default: the statement's example and 46 more "
                   "data sets, some with heaps beyond 64 bits)")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")
    p.add_argument("--details", action="store_true", help="show every line's verdict")
    add_harness_options(p, jobs=False, seed=False, limits={
        "--first-move-time": "wall-clock seconds for the whole run",
        "--cpu-time": "CPU seconds for the whole run",
        "--memory": "address space in MiB",
        "--processes": "processes and threads",
        "--output": "KiB of output",
    })
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Grade each program."""
    from judge.nimbatch import grade_output, parse_input, run_program, standard_input

    text = "\n".join(read_lines(args.input)) + "\n" if args.input else standard_input()
    cases = parse_input(text, str(args.input) if args.input else "nim.txt")
    setup = harness_setup(args)  # the language table first: programs are compiled next
    programs, skipped = check_bots(args.programs)
    status = EXIT_SKIPPED if skipped else 0
    print(f"judge: nim-batch: {len(programs)} programs, confinement "
          f"{setup['tier']['name']}", file=sys.stderr)
    from judge.sandbox import Limits

    limits = Limits(**setup["limits"])
    rows = []
    for program in programs:
        output, failure = run_program(program, text, limits, setup["sandbox"])
        grade = grade_output(output, cases)
        rows.append({
            "program": program, **grade.to_dict(),
            "score": f"{grade.correct}/{grade.cases}",
            "verdict": failure.code if failure else "ok",
            "message": failure.message if failure else "",
        })
    if args.format == "json":
        sys.stdout.write(to_json({"programs": [{k: v for k, v in r.items() if k != "score"}
                                               for r in rows]}))
        return status
    table = []
    for r in rows:
        wrong = r["first_wrong"]
        shown = "" if wrong is None else (
            f"line {wrong['line']}: expected {wrong['expected']!r}, got "
            + ("nothing" if wrong["got"] is None else repr(wrong["got"])))
        table.append(dict(r, first_wrong=shown))
    sys.stdout.write(render_rows(table, args.format,
                                 ["program", "score", "verdict", "first_wrong", "message"]))
    if args.details:
        for r in rows:
            sys.stdout.write(f"\n{r['program']}\n")
            sys.stdout.write(render_rows(r["lines"], args.format,
                                         ["line", "heaps", "expected", "got", "ok"]))
    return status
