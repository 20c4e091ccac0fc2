"""The Nim batch assignment: a program reads `nim.txt` and answers every line; we grade it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.games.base import InputError, parse_int
from judge.solvers.nim import winning_moves


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
        raise InputError(f"{name} announces {n} data sets but has only {len(lines) - 1}")
    cases = []
    for number, line in enumerate(lines[1 : n + 1], 2):
        tokens = line.split()
        if len(tokens) < 2:
            raise InputError(f"{name} line {number}: a data set has two or more heap sizes")
        cases.append(tuple(parse_int(t, f"{name} line {number}: a heap size", 0)
                           for t in tokens))
    return cases


def expected_answer(sizes: tuple[int, ...]) -> str:
    """`Lose Game`, or the winning move from the first heap that allows one."""
    moves = winning_moves(sizes, misere=False)
    if not moves:
        return "Lose Game"
    heap, count = moves[0]
    return f"Remove {count} counters from Heap {heap}"


@dataclass
class BatchGrade:
    """Line-by-line result of one program's output."""

    cases: int
    correct: int = 0
    first_wrong: dict[str, Any] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"cases": self.cases, "correct": self.correct, "first_wrong": self.first_wrong,
                "lines": self.lines}


def grade_output(output: str, cases: list[tuple[int, ...]]) -> BatchGrade:
    """Compare a program's output with the expected answers, one point per correct line.

    Trailing spaces and a missing final newline are forgiven; anything else must match.
    Lines beyond the last data set score nothing but are shown as the first wrong line.
    """
    got = output.splitlines()
    grade = BatchGrade(len(cases))
    for i, sizes in enumerate(cases):
        want = expected_answer(sizes)
        line = got[i].rstrip() if i < len(got) else None
        ok = line == want
        grade.correct += ok
        entry = {"line": i + 1, "heaps": " ".join(map(str, sizes)), "expected": want,
                 "got": shortened(line), "ok": ok}
        grade.lines.append(entry)
        if not ok and grade.first_wrong is None:
            grade.first_wrong = entry
    extra = [g for g in got[len(cases):] if g.strip()]
    if extra and grade.first_wrong is None:
        grade.first_wrong = {"line": len(cases) + 1, "heaps": None,
                             "expected": f"nothing (there are {len(cases)} data sets)",
                             "got": shortened(extra[0]), "ok": False}
    return grade


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
    import random

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
    import time

    import pexpect

    from judge import verdicts
    from judge.players.base import PlayerFailure
    from judge.players.bot import exit_failure
    from judge.sandbox import CompileError, Confined, program_for

    try:
        program, limits = program_for(path).under(limits)
    except CompileError as exc:
        return "", PlayerFailure(verdicts.COMPILE_ERROR, str(exc))
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
                failure = exit_failure(ended, proc.stderr_tail(), limits, "")
    finally:
        proc.kill()
    return b"".join(chunks).decode("utf-8", errors="replace"), failure


def _rest(proc) -> bytes:  # noqa: ANN001 - a Confined
    """What is still in the pipe of a program that has ended (without waiting for EOF)."""
    import pexpect

    rest = b""
    while True:
        try:
            rest += proc.output.read_nonblocking(65536, timeout=0)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return rest
