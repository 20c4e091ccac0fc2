"""`judge nim-batch`: grade programs for the Nim batch assignment (reads nim.txt, answers)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from judge.commands.inputs import check_bots, harness_setup, read_lines
from judge.commands.options import add_harness_options
from judge.exits import ExitStatus
from judge.kinds.nimbatch import NimBatchPlan
from judge.report import FORMATS, Fit, printable_line, render_rows, to_json, wrapped


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `nim-batch` subcommand."""
    p = sub.add_parser(
        "nim-batch",
        help="grade programs for the Nim batch assignment",
        description="Run each PROGRAM with nim.txt in its working directory and grade its "
        "output line by line: 'Lose Game' when the nim-sum is 0, otherwise 'Remove X counters "
        "from Heap H' for the first heap H that allows a winning move. One point per correct "
        "line; the first wrong line is shown. Graded as a careful human would: lines are "
        "compared word by word (spaces around and between words do not count, 'counter' is "
        "accepted for one counter), blank lines are skipped and the answers matched with the "
        "data sets in order; the details say where the output is shifted. When the run on "
        "the whole file fails (crash, limits) or gives fewer answers than data sets, each "
        "data set it missed is run again alone (a one-data-set nim.txt, a fresh confined run "
        "with the same limits), so that one bad line costs one line; one that fails as "
        "written is tried once more with single spaces between its heaps. Per-case runs of "
        "a program stop after the first-move limit times the data sets (at most 180 s), or "
        "when the first 3 all time out.",
        epilog="examples:\n  judge nim-batch --details solutions/*.py\n"
        "  judge nim-batch --strict solutions/*\n"
        "  judge nim-batch --input samples/nim.txt --per-case --details alice.c",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("programs", nargs="+", metavar="PROGRAM",
                   help="a source file in one of the languages below, or any executable")
    p.add_argument("--input", type=Path, metavar="FILE",
                   help="the nim.txt to give (default: the statement's example and 46 more "
                   "data sets, some with heaps beyond 64 bits)")
    p.add_argument("--strict", action="store_true",
                   help="compare exactly: output line i with data set i, only trailing spaces "
                   "forgiven (no word-by-word comparison, no blank lines skipped, no "
                   "'counter', no retry with single spaces)")
    p.add_argument("--per-case", action="store_true",
                   help="grade every data set from a run of its own, even when the run on "
                   "the whole file succeeds")
    p.add_argument("--format", choices=(*FORMATS, "html"), default="table",
                   help="output format: html is one self-contained page (every program's "
                   "grade, then every line of each program, graded)")
    p.add_argument("--details", action="store_true",
                   help="show every line's verdict, how it was graded, and the notes")
    p.add_argument("--wide", action="store_true",
                   help="--format table in full, a program a line (by default a table fits "
                   "80 columns: long paths keep their end, long cells are wrapped, and the "
                   "messages and notes go under the table)")
    add_harness_options(p, jobs=False, seed=False, limits={
        "--first-move-time": "wall-clock seconds for the whole run (and for each per-case run)",
        "--cpu-time": "CPU seconds for the whole run (and for each per-case run)",
        "--memory": "address space in MiB",
        "--processes": "processes and threads",
        "--output-limit": "KiB of output",
    })
    p.set_defaults(func=run)


def new_plan(args: argparse.Namespace) -> tuple[NimBatchPlan, list[str]]:
    """The plan of the grading, and the messages of programs skipped."""
    from judge.nimbatch import parse_input, standard_input

    text = "\n".join(read_lines(args.input)) + "\n" if args.input else standard_input()
    cases = parse_input(text, str(args.input) if args.input else "nim.txt")
    harness = harness_setup(args)  # the language table first: programs are compiled next
    programs, skipped = check_bots(args.programs)
    return NimBatchPlan(programs=tuple(programs), text=text, cases=tuple(cases),
                        input_file=str(args.input) if args.input else None,
                        strict=args.strict, per_case=args.per_case, harness=harness), skipped


def grade(plan: NimBatchPlan) -> list[dict[str, Any]]:
    """Each program's grade, as a row of the table."""
    from judge.nimbatch import counted, grade_program

    print(f"judge: nim-batch: {counted(len(plan.programs), 'program')}, confinement "
          f"{plan.harness.tier}", file=sys.stderr)
    rows = []
    for program in plan.programs:
        result, failure = grade_program(
            program, plan.text, list(plan.cases), plan.harness.limits, plan.harness.sandbox,
            strict=plan.strict, per_case=plan.per_case,
            progress=lambda s: print(f"judge: {s}", file=sys.stderr))
        rows.append({
            "program": program, **result.to_dict(),
            "score": f"{result.correct}/{result.cases}",
            "verdict": failure.code if failure else "ok",
            "message": failure.message if failure else "",
        })
    return rows


def run(args: argparse.Namespace) -> int:
    """Grade each program and print the grades."""
    plan, skipped = new_plan(args)
    rows = grade(plan)
    if args.format == "html":
        from judge.html.report import render_nim_batch

        sys.stdout.write(render_nim_batch(plan, [
            dict(row, note_lines=row["notes"],
                 lines=[dict(entry, graded=graded(entry)) for entry in row["lines"]])
            for row in table_rows(rows)]))
    else:
        sys.stdout.write(grades_text(rows, args.format, args.details, args.wide))
    return ExitStatus.SKIPPED if skipped else ExitStatus.OK


#: the grades at 80 columns: the message and notes under the table, the first wrong line
#: wrapped
NARROW_PROGRAMS = (["program", "score", "verdict", "first_wrong"],
                   Fit({"program": "path", "first_wrong": "wrap"}))
#: every line of a program (--details) at 80 columns: the long cells wrapped
NARROW_LINES = Fit({"heaps": "wrap", "expected": "wrap", "got": "wrap", "graded": "wrap"})


def grades_text(rows: list[dict[str, Any]], fmt: str, details: bool, wide: bool = False
                ) -> str:
    """The grades as text in the format (CSV with details: one table of every line); a
    table fits 80 columns unless `wide`."""
    if fmt == "json":
        return to_json({"programs": [{k: v for k, v in r.items() if k != "score"}
                                     for r in rows]})
    table = table_rows(rows)
    if fmt == "csv" and details:  # one table: every line of every program
        lines = [dict(entry, program=r["program"], graded=graded(entry))
                 for r in rows for entry in r["lines"]]
        return render_rows(lines, "csv", ["program", "line", "heaps", "expected", "got", "ok",
                                          "graded"])
    narrow = fmt == "table" and not wide
    out: list[str] = []
    if narrow:
        headers, fit = NARROW_PROGRAMS
        out.append(render_rows(table, fmt, headers, fit))
        said = [wrapped(f"{printable_line(r['program'])}: "
                        + "; ".join(printable_line(t) for t in (r["message"], r["notes"]) if t))
                for r in table if r["message"] or r["notes"]]
        out.append("\n" + "".join(said) if said else "")
    else:
        out.append(render_rows(table, fmt, ["program", "score", "verdict", "first_wrong",
                                            "message", "notes"]))
    if details:
        for r in rows:
            out.append(f"\n{r['program']}\n")
            for note in r["notes"]:
                out.append(wrapped(f"note: {note}") if narrow else f"note: {note}\n")
            lines = [dict(entry, graded=graded(entry)) for entry in r["lines"]]
            out.append(render_rows(lines, fmt, ["line", "heaps", "expected", "got", "ok",
                                                "graded"], NARROW_LINES if narrow else None))
    return "".join(out)


def table_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The grades as the table shows them: the first wrong line and the notes in short."""
    table = []
    for r in rows:
        wrong = r["first_wrong"]
        shown = "" if wrong is None else (
            f"line {wrong['line']}: expected {wrong['expected']!r}, got "
            + ("nothing" if wrong["got"] is None else repr(wrong["got"])))
        table.append(dict(r, first_wrong=shown, notes=summary(r)))
    return table


def summary(row: dict[str, Any]) -> str:
    """The notes of a program in short, for the table (`--details` has them in full)."""
    from judge.nimbatch import SHORT_HINTS, counted

    parts = [SHORT_HINTS[row["hint"]]] if row["hint"] else []
    if row["shifts"]:
        first = row["shifts"][0]
        more = len(row["shifts"]) - 1
        parts.append(f"output shifted from line {first['line']}" + (f" (+{more})" if more else ""))
    per_case = row["per_case"]
    if per_case:
        parts.append(f"{counted(len(per_case['lines']), 'line')} graded per case")
        if per_case["single_spaces"]:
            parts.append(f"{len(per_case['single_spaces'])} only with single spaces")
        if per_case["stopped"]:
            parts.append("per-case runs stopped")
    return "; ".join(parts)


def graded(entry: dict[str, Any]) -> str:
    """How a line was graded, for the details: its run, and that run's verdict if it failed."""
    shown = entry["graded"]
    if entry.get("verdict") not in (None, "ok"):
        shown += f" ({entry['verdict']})"
    before = entry.get("as_written")
    if before and before["verdict"] not in (None, "ok"):
        shown += f" (as written: {before['verdict']})"
    elif before:
        shown += " (as written: wrong)"
    return shown
