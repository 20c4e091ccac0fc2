"""The Nim batch assignment: a program reads `nim.txt` and answers every line; we grade it.

Grading is a careful human grader's: an output line is compared word by word (blank lines
skipped, "counter" accepted for one counter), answers are matched with the data sets in
order, and a program that fails on the whole file is run again on each data set it missed,
alone, so that one bad line costs one line. `strict=True` compares exactly, line by line.
"""

from __future__ import annotations

import difflib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from judge.games.base import InputError, parse_int
from judge.games.nim.solver import winning_moves


def parse_input(text: str, name: str = "nim.txt") -> list[tuple[int, ...]]:
    """The data sets of a `nim.txt`: a count n, then n lines of two or more heap sizes."""
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise InputError(f"{name}: the first line must hold the number of data sets")
    try:
        n = parse_int(lines[0].strip(), f"{name} line 1 (the number of data sets)", 0)
    except InputError as exc:
        raise InputError(str(exc)) from None
    if len(lines) - 1 < n:
        raise InputError(f"{name} announces {counted(n, 'data set')} but has only "
                         f"{len(lines) - 1}")
    cases = []
    for number, line in enumerate(lines[1 : n + 1], 2):
        tokens = line.split()
        if len(tokens) < 2:
            raise InputError(f"{name} line {number}: a data set has two or more heap sizes")
        cases.append(tuple(parse_int(t, f"{name} line {number}: a heap size", 0)
                           for t in tokens))
    return cases


def data_lines(text: str, count: int) -> list[str]:
    """The first `count` data set lines of a `nim.txt` that `parse_input` accepted, as written."""
    return text.splitlines()[1 : count + 1]


def expected_answer(sizes: tuple[int, ...], strict: bool = False) -> str:
    """`Lose Game`, or the winning move from the first heap that allows one: `Remove 1
    counter from Heap 2`, `Remove 2 counters ...`; `strict`, as the statement's format has
    it, `counters` for one counter too."""
    moves = winning_moves(sizes, misere=False)
    if not moves:
        return "Lose Game"
    heap, count = moves[0]
    noun = "counters" if strict or count != 1 else "counter"
    return f"Remove {count} {noun} from Heap {heap}"


def counted(n: int, noun: str) -> str:
    """`n` and its noun: `1 data set`, `2 data sets`, `0 data sets`."""
    return f"{n} {noun}{'s' * (n != 1)}"


def answer_key(text: str, strict: bool = False) -> str:
    """What an output line is compared by: strict, the line without trailing spaces; else its
    words joined by single spaces, "counter" read as "counters" when one counter is removed
    (an expected answer is compared by its key too)."""
    if strict:
        return text.rstrip()
    words = text.split()
    if len(words) == 6 and words[:3] == ["Remove", "1", "counter"] and words[3:5] == [
            "from", "Heap"]:
        words[2] = "counters"
    return " ".join(words)


class OutputLine(NamedTuple):
    """A line of a program's output that is matched with a data set."""

    #: its number in the output, from 1
    number: int
    #: as written, without trailing spaces
    text: str
    #: what it is compared by (`answer_key`)
    key: str


def graded_lines(output: str, strict: bool = False) -> list[OutputLine]:
    """The output lines matched with the data sets in order: the non-blank ones (strict: all)."""
    return [OutputLine(number, text.rstrip(), answer_key(text, strict))
            for number, text in enumerate(output.splitlines(), 1)
            if strict or text.strip()]


#: how a line was graded: from the run on the whole file, or from a run on its data set alone
#: (as written, or with its heaps separated by single spaces)
WHOLE_FILE, OWN_RUN, OWN_RUN_SINGLE_SPACES = "whole file", "own run", "own run, single spaces"


@dataclass
class BatchGrade:
    """Line-by-line result of one program's output."""

    cases: int
    correct: int = 0
    first_wrong: dict[str, Any] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    #: compared exactly, line by line (`--strict`)
    strict: bool = False
    #: where the answers appear at other output lines than the data sets' (see `find_shifts`)
    shifts: list[dict[str, Any]] = field(default_factory=list)
    #: the first non-blank line after the answers to the last data set, as a wrong line
    extra: dict[str, Any] | None = None
    #: the lines correct in the run on the whole file
    whole_file_correct: int | None = None
    #: the runs on single data sets, when there were some (see `grade_program`)
    per_case: dict[str, Any] | None = None
    #: what a grader should know, one sentence each
    notes: list[str] = field(default_factory=list)
    #: where a program that wrote no answer looked for its input or put its answers, when
    #: seen: "stdin" (it waited on its standard input) or "output.txt" (it left that file)
    hint: str | None = None

    def recount(self) -> None:
        """`correct` and `first_wrong` from `lines` (and `extra`)."""
        self.correct = sum(1 for entry in self.lines if entry["ok"])
        self.first_wrong = next((e for e in self.lines if not e["ok"]), self.extra)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"cases": self.cases, "correct": self.correct, "first_wrong": self.first_wrong,
                "lines": self.lines, "strict": self.strict, "shifts": self.shifts,
                "whole_file_correct": self.whole_file_correct, "per_case": self.per_case,
                "notes": self.notes, "hint": self.hint}


def grade_output(output: str, cases: list[tuple[int, ...]], strict: bool = False) -> BatchGrade:
    """Compare a program's output with the expected answers, one point per correct line.

    By default the non-blank lines are matched with the data sets in order and compared by
    their words (so surrounding and repeated spaces, blank lines and "1 counter" are
    forgiven); `strict` compares line i with data set i, forgiving only trailing spaces.
    Lines beyond the last data set score nothing but are shown as the first wrong line.
    """
    view = graded_lines(output, strict)
    wanted = [expected_answer(sizes, strict) for sizes in cases]
    keys = [answer_key(want, strict) for want in wanted]
    grade = BatchGrade(len(cases), strict=strict)
    for i, (sizes, want) in enumerate(zip(cases, wanted, strict=True)):
        got = view[i] if i < len(view) else None
        grade.lines.append({
            "line": i + 1, "heaps": " ".join(map(str, sizes)), "expected": want,
            "got": shortened(got.text) if got else None,
            "ok": got is not None and got.key == keys[i],
            "output_line": got.number if got else None, "graded": WHOLE_FILE, "verdict": None})
    extra = [line for line in view[len(cases):] if line.text.strip()]
    if extra:
        grade.extra = {"line": len(cases) + 1, "heaps": None,
                       "expected": f"nothing (there {'is' if len(cases) == 1 else 'are'} "
                                   f"{counted(len(cases), 'data set')})",
                       "got": shortened(extra[0].text), "ok": False,
                       "output_line": extra[0].number, "graded": WHOLE_FILE, "verdict": None}
    grade.recount()
    grade.whole_file_correct = grade.correct
    grade.shifts = find_shifts(view, keys)
    grade.notes = [shift["message"] for shift in grade.shifts[:SHIFT_NOTES]]
    if len(grade.shifts) > SHIFT_NOTES:
        grade.notes.append(f"{counted(len(grade.shifts) - SHIFT_NOTES, 'more shift')} (see "
                           "the JSON)")
    return grade


#: the most output lines and data sets `find_shifts` aligns (it takes quadratic time)
SHIFT_WINDOW = 5000


def find_shifts(view: list[OutputLine], wanted: list[str]) -> list[dict[str, Any]]:
    """Where the answers stand K lines off their data sets' lines, K changing at line L
    (`wanted`: the expected answers' keys, see `answer_key`).

    The output is aligned with the expected answers (a diff of their keys); each aligned
    stretch gives the offset of its answers (output line number minus data set number). A
    shift is credited when the in-order grading matches the answers anyway (blank lines
    skipped). A stretch of one line off the grading's order counts only when its answer is
    unique among the expected answers and in the output (one `Lose Game` matches many).
    """
    keys = [line.key for line in view[:SHIFT_WINDOW]]
    wanted = wanted[:SHIFT_WINDOW]
    matcher = difflib.SequenceMatcher(None, keys, wanted, autojunk=False)
    counts = Counter(keys) + Counter(wanted)  # 2: once in each
    shifts: list[dict[str, Any]] = []
    offset = seen = 0
    for a, b, size in matcher.get_matching_blocks():
        if size == 0 or (size == 1 and a != b and counts[keys[a]] > 2):
            continue
        for k in range(size):
            by = view[a + k].number - (b + k + 1)
            if by != offset:
                shifts.append(_shift(b + k + 1, by, offset, a == b, view[seen:a + k]))
                offset = by
        seen = a + size
    return shifts


def _shift(line: int, by: int, before: int, credited: bool,
           between: list[OutputLine]) -> dict[str, Any]:
    """One entry of `find_shifts`, with its one-line message; `between` are the graded
    output lines since the last aligned one."""
    if by == 0:
        message = f"output back in step from line {line}"
    else:
        message = f"output shifted by {by} line{'s' * (abs(by) != 1)} from line {line}"
    if credited:
        message += " (blank lines, skipped)" if by > before else ""
    elif by < before:
        message += " (answers missing before it, not credited)"
    elif between and not any(line.text.strip() for line in between):
        message += " (blank lines before it, not credited with --strict)"
    else:
        message += " (extra lines before it, not credited)"
    return {"line": line, "by": by, "credited": credited, "message": message}


#: the most shifts the notes tell one by one (`shifts` has them all)
SHIFT_NOTES = 3


#: per-case runs of one program stop after this many seconds at most
PER_CASE_CAP_SECONDS = 180.0
#: per-case runs of one program stop when this many first runs all reach the time limit
PER_CASE_TIMEOUTS = 3


def per_case_budget(limits: Any, cases: int) -> float:
    """Seconds of per-case runs for one program: the first-move limit per data set, capped."""
    return min(limits.first_move_seconds * cases, PER_CASE_CAP_SECONDS)


#: how a program is run: (path, nim.txt, limits, sandbox) -> (output, failure or None)
Runner = Callable[[str, str, Any, str], tuple[str, Any]]
#: how a program that answered nothing is looked at: (path, nim.txt, limits, sandbox) ->
#: a key of `HINTS` or None
Looker = Callable[[str, str, Any, str], str | None]

#: the note for each hint, and what the table says in short
HINTS = {
    "stdin": "it waited for input on its standard input, where nothing comes: the data sets "
             "are in the file nim.txt in its working directory",
    "output.txt": "it wrote no answer to its standard output but left a file output.txt: "
                  "the answers go to standard output",
}
SHORT_HINTS = {"stdin": "reads stdin, not nim.txt", "output.txt": "wrote output.txt, not stdout"}


def grade_program(path: str, text: str, cases: list[tuple[int, ...]], limits: Any,
                  sandbox: str, strict: bool = False, per_case: bool = False,
                  budget: float | None = None, runner: Runner | None = None,
                  progress: Callable[[str], None] | None = None,
                  looker: Looker | None = None) -> tuple[BatchGrade, Any]:
    """Run a program on the whole `nim.txt` and grade it: (grade, failure of that run or None).

    When that run fails (crash, limits) or gives fewer answers than data sets, each data set
    it did not answer correctly is run again alone (a `nim.txt` of one data set, a fresh
    confined run with the same limits); with `per_case`, every data set is. A data set that
    fails as written is tried once more with its heaps separated by single spaces (not when
    `strict`). Per-case runs stop after `budget` seconds (default `per_case_budget`), or when
    the first `PER_CASE_TIMEOUTS` all time out; the grade's notes say so. A program that
    answered nothing is looked at (`looker`, default `look_for_misplaced_io` with the real
    runner) for input read from stdin or answers left in output.txt: the grade's `hint`.
    """
    from judge import verdicts

    run = runner or run_program
    output, failure = run(path, text, limits, sandbox)
    grade = grade_output(output, cases, strict)
    if failure is not None and failure.code == verdicts.COMPILE_ERROR:
        return grade, failure
    answers = sum(1 for line in output.splitlines() if line.strip())
    look = looker or (look_for_misplaced_io if runner is None else None)
    if answers == 0 and look is not None:
        grade.hint = look(path, text, limits, sandbox)
        if grade.hint is not None:
            grade.notes.insert(0, HINTS[grade.hint])
    if per_case:
        reason, todo = "--per-case", list(range(len(cases)))
    elif failure is not None:
        reason = f"the run on the whole file: {failure.code}"
        todo = [i for i, entry in enumerate(grade.lines) if not entry["ok"]]
    elif answers < len(cases):
        reason = (f"the run on the whole file gave {counted(answers, 'answer')} for "
                  f"{counted(len(cases), 'data set')}")
        todo = [i for i, entry in enumerate(grade.lines) if not entry["ok"]]
    else:
        return grade, failure
    if not todo:
        return grade, failure
    if progress:
        progress(f"{path}: {reason}; running {counted(len(todo), 'data set')} alone")
    _grade_per_case(grade, todo, reason, text, cases, strict,
                    lambda nim: run(path, nim, limits, sandbox),
                    per_case_budget(limits, len(cases)) if budget is None else budget)
    return grade, failure


def _grade_per_case(grade: BatchGrade, todo: list[int], reason: str, text: str,
                    cases: list[tuple[int, ...]], strict: bool,
                    run: Callable[[str], tuple[str, Any]], budget: float) -> None:
    """Regrade the lines `todo` (indexes) of `grade` from runs on their data sets alone."""
    from judge import verdicts

    written = data_lines(text, len(cases))
    spent, timeouts, stopped = 0.0, 0, None
    done: list[int] = []
    single: list[int] = []
    for i in todo:
        if spent >= budget:
            stopped = (f"per-case runs stopped after {spent:.1f} s, their budget of {budget:g} s "
                       f"(the first-move limit per data set, at most "
                       f"{PER_CASE_CAP_SECONDS:g} s)")
            break
        if len(done) == PER_CASE_TIMEOUTS and timeouts == len(done):
            stopped = ("per-case runs stopped: the first " + ("one" if timeouts == 1 else
                       f"{timeouts} all") + " hit the time limit")
            break
        entry, took = _run_case(run, written[i], cases[i], i, strict)
        spent += took
        timeouts += entry["verdict"] == verdicts.TIME_LIMIT
        respaced = " ".join(written[i].split())
        if not entry["ok"] and not strict and respaced != written[i]:
            again, took = _run_case(run, respaced, cases[i], i, strict)
            spent += took
            if again["ok"]:
                entry = dict(again, graded=OWN_RUN_SINGLE_SPACES,
                             as_written={"got": entry["got"], "verdict": entry["verdict"]})
                single.append(i + 1)
        grade.lines[i] = entry
        done.append(i + 1)
    not_run = [i + 1 for i in todo[len(done):]]
    grade.recount()
    grade.per_case = {"reason": reason, "lines": done, "single_spaces": single,
                      "not_run": not_run, "stopped": stopped, "seconds": round(spent, 2),
                      "budget_seconds": budget}
    if done:
        grade.notes.append(f"{lines_named(done)} graded per case, each in a run of its own "
                           f"({reason})")
    if single:
        grade.notes.append(f"{lines_named(single, 'was', 'were')} answered only when run "
                           "again with single spaces between the heaps")
    if stopped:
        grade.notes.append(f"{stopped}; {lines_named(not_run, 'was', 'were')} graded from the "
                           "whole file")


def _run_case(run: Callable[[str], tuple[str, Any]], line: str, sizes: tuple[int, ...],
              index: int, strict: bool) -> tuple[dict[str, Any], float]:
    """(the line entry, seconds taken) of one run on the data set `line` alone."""
    started = time.monotonic()
    output, failure = run(f"1\n{line}\n")
    took = time.monotonic() - started
    entry = grade_output(output, [sizes], strict).lines[0]
    entry.update(line=index + 1, graded=OWN_RUN, verdict=failure.code if failure else "ok")
    return entry, took


def lines_named(numbers: list[int], one: str = "", many: str = "") -> str:
    """`line 5` or `lines 1-3, 5`, followed by the verb `one` or `many` when given."""
    verb = one if len(numbers) == 1 else many
    return f"line{'s' * (len(numbers) != 1)} {line_ranges(numbers)}" + (f" {verb}" if verb else "")


def line_ranges(numbers: list[int]) -> str:
    """Line numbers as sorted ranges: `1-3, 5, 8-9`."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


#: the most characters of a program's line quoted in a grade
QUOTE_CHARS = 200


def shortened(line: str | None) -> str | None:
    """`line`, cut to `QUOTE_CHARS` with its full length said when it is longer."""
    if line is None or len(line) <= QUOTE_CHARS:
        return line
    return f"{line[:QUOTE_CHARS]}... ({len(line):,} characters)"


def standard_input(extra: int = 46, seed: int = 2001) -> str:
    """The default `nim.txt`: the statement's example, then `extra` seeded data sets with
    small, large and huge heaps (so 64-bit overflow is caught)."""
    rng = random.Random(seed)
    lines = ["3 4 5", "8 13 5", "123 675 296 864 917 532", "9 7 4 12"]
    for i in range(extra):
        top = (10, 1000, 10**9, 10**30)[i % 4]
        heaps = [rng.randint(0, top) for _ in range(rng.randint(2, 7))]
        if i % 5 == 0:  # a losing position: the last heap completes a nim-sum of 0
            heaps[-1] = 0
            for h in heaps[:-1]:
                heaps[-1] ^= h
        sep = " " * rng.randint(1, 3)
        lines.append(sep.join(map(str, heaps)))
    return f"{len(lines)}\n" + "\n".join(lines) + "\n"


def run_program(path: str, nim_txt: str, limits: Any, sandbox: str) -> tuple[str, Any]:
    """Run a batch program with `nim.txt` in its directory: (its output, failure or None)."""
    from judge import verdicts
    from judge.players.base import PlayerFailure
    from judge.sandbox import CompileError, program_for

    try:
        program, limits = program_for(path).under(limits)
    except CompileError as exc:
        return "", PlayerFailure(verdicts.COMPILE_ERROR, str(exc))
    return _run_confined(program, nim_txt, limits, sandbox)


def _run_confined(program: Any, nim_txt: str, limits: Any, sandbox: str) -> tuple[str, Any]:
    """`run_program` of a built `program` (and its limits)."""
    import pexpect

    from judge import verdicts
    from judge.players.base import PlayerFailure
    from judge.players.bot import exit_failure
    from judge.sandbox import Confined

    proc = Confined(program, limits, sandbox, files={"nim.txt": nim_txt.encode()})
    chunks: list[bytes] = []
    size = 0
    failure = None
    try:
        proc.close_input()
        deadline = time.monotonic() + limits.first_move_seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                failure = PlayerFailure(verdicts.TIME_LIMIT, f"still running after "
                                        f"{limits.first_move_seconds:g} s")
                break
            try:
                chunk = proc.output.read_nonblocking(65536, timeout=min(left, 0.1))
            except pexpect.TIMEOUT:
                if proc.hit_process_limit():
                    failure = PlayerFailure(verdicts.CRASH, "more processes than the limit of "
                                            f"{limits.processes}; the judge killed them")
                    break
                if proc.poll() is not None:  # it has ended; what it left may hold its output
                    chunks.append(_rest(proc))
                    break
                continue
            except pexpect.EOF:
                break
            size += len(chunk)
            if size > limits.output_bytes:
                failure = PlayerFailure(verdicts.OUTPUT_LIMIT, f"wrote more than "
                                        f"{limits.output_bytes} bytes")
                break
            chunks.append(chunk)
        if failure is None:
            ended = proc.poll(timeout=limits.grace_seconds)
            if ended is not None:
                failure = exit_failure(ended, proc.stderr_tail(), limits, "",
                                       program.address_space)
    finally:
        proc.kill()
    return b"".join(chunks).decode("utf-8", errors="replace"), failure


#: the most seconds each look of `look_for_misplaced_io` runs the program
LOOK_SECONDS = 2.0


def look_for_misplaced_io(path: str, nim_txt: str, limits: Any, sandbox: str) -> str | None:
    """Why a program may have answered nothing: "output.txt" when it leaves that file in its
    folder (its answers written there), "stdin" when it is seen blocked reading its standard
    input (the data sets taken from there), else None. Two short confined runs of its own,
    each of at most `LOOK_SECONDS`, the first with its output thrown away and its folder
    listed, the second with its standard input left open and watched."""
    from dataclasses import replace

    from judge.sandbox import CompileError, Confined, program_for

    try:
        program, limits = program_for(path).under(limits)
    except CompileError:
        return None
    limits = replace(limits, first_move_seconds=min(limits.first_move_seconds, LOOK_SECONDS))
    listed = replace(program, argv=(
        "/bin/sh", "-c", '"$@" </dev/null >/dev/null 2>&1; [ -f output.txt ] && echo found',
        "sh", *program.argv))  # (its own file stays the last argument, which a sandbox shows)
    if _run_confined(listed, nim_txt, limits, sandbox)[0].strip() == "found":
        return "output.txt"
    proc = Confined(program, limits, sandbox, files={"nim.txt": nim_txt.encode()})
    try:
        deadline = time.monotonic() + limits.first_move_seconds
        while time.monotonic() < deadline and proc.poll(timeout=0.02) is None:
            if proc.waiting_for_input() or proc.input_wait(deadline + 60) is not None:
                return "stdin"
    finally:
        proc.kill()
    return None


def _rest(proc) -> bytes:  # noqa: ANN001 - a Confined
    """What is still in the pipe of a program that has ended (without waiting for EOF)."""
    import pexpect

    rest = b""
    while True:
        try:
            rest += proc.output.read_nonblocking(65536, timeout=0)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return rest
