"""A contestant's program as a player: the game's wire protocol over pipes, with deadlines."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pexpect

from judge import verdicts
from judge.games.base import InputError, Seat
from judge.players.base import OutOfTime, Played, Player, PlayerFailure, Seated
from judge.sandbox import (
    CompileError,
    Confined,
    Exit,
    Limits,
    NotGradable,
    Usage,
    program_for,
    resolve_sandbox,
)

if TYPE_CHECKING:
    from judge.sandbox.program import Program
    from judge.sandbox.waiting import View

#: bytes asked for per read of the bot's output
READ_CHUNK = 1 << 16
#: the judge looks at the bot's processes this often (s): while it waits for a move, and
#: after a move when the last look is older than that (a bot may fork and keep moving)
WATCH_SECONDS = 0.1
#: stderr words that show a bot ran out of memory
OUT_OF_MEMORY = ("MemoryError", "std::bad_alloc", "Cannot allocate memory", "out of memory",
                 "OutOfMemoryError", "Array buffer allocation failed",
                 "Failed to reserve virtual memory")
#: signals a program typically dies of when an allocation fails
ALLOCATION_SIGNALS = {signal.SIGSEGV, signal.SIGABRT, signal.SIGKILL, signal.SIGBUS}
#: share of the address-space limit which, seen in use, makes such a death a memory-limit
MEMORY_NEAR_LIMIT = 0.8
#: a bot seen waiting for input (see `judge.sandbox.waiting`) the same way this long apart,
#: not one of its threads run in between, loses at once what it would lose at the limit (s)
WAITING_GRACE = 0.1
#: ... on a terminal, whose input reaches the bot a little after the judge writes it
WAITING_GRACE_PTY = 0.5
#: the first look for a bot waiting for input, this long after its input was sent (s);
#: each look that finds it busy makes the interval a quarter longer, up to WATCH_SECONDS
FIRST_LOOK = 0.02
#: languages whose output the judge never leaves in the bot's buffer (Python run with -u,
#: Pascal with its unit that flushes every write): such a bot waiting for input with no
#: move sent has not written one
FLUSHED_LANGUAGES = frozenset({"Python 3", "Python 2", "Pascal"})
#: shells, whose scripts hold no output back either (each command's is written as it runs)
SHELLS = frozenset({"sh", "bash", "dash", "ksh", "mksh", "zsh", "busybox"})


class BotPlayer(Player):
    """A bot program: a fresh confined process per game, spoken to line by line."""

    def __init__(
        self,
        path: str | Path,
        limits: Limits | None = None,
        sandbox: str = "auto",
        pty: bool = False,
        name: str | None = None,
        seed: int | None = None,
        entry: str | None = None,
    ) -> None:
        """Prepare the bot at `path`; raises `InputError` for a missing or unrunnable file.

        A bot in a compiled language is compiled here (once per content); a compile error is
        reported as the ``compile-error`` verdict of every game it plays. Its language may
        add to `limits` (a runtime's start-up). A folder is a bot by its entry (`entry`, or
        found by convention); one that cannot be graded gets the ``not-graded`` verdict in
        every game, saying why. With `pty`, the bot's stdin and
        stdout are a terminal, so that a program that never flushes still works.
        """
        self.path = Path(path)
        self.name = name or self.path.name
        self.limits = limits or Limits()
        self.sandbox = resolve_sandbox(sandbox)
        if pty and self.sandbox == "gvisor":  # (its kernel shows a host pty as a plain file)
            raise InputError("--pty is not available with sandbox=gvisor: the sandbox's "
                             "kernel does not give the bot the judge's terminal")
        self.pty = pty
        #: given to the bot as BOT_SEED, so that a random bot's game can be replayed
        self.seed = seed
        self.compile_error: str | None = None
        self.not_graded: str | None = None
        try:
            self.program, self.limits = program_for(path, entry).under(self.limits)
        except CompileError as exc:
            self.compile_error = str(exc)
        except NotGradable as exc:
            self.not_graded = str(exc)
        self.process: Confined | None = None
        #: the bot's process group in the current or last game
        self.pgid: int | None = None
        #: the end of its stderr in the current or last game
        self.stderr = ""
        #: CPU seconds its process used for its last move
        self.last_cpu = 0.0
        #: what its process used in the last game (None: it did not start)
        self.usage: Usage | None = None
        #: stopped whenever its opponent is on move (a game between two bots: see `play_game`)
        self.takes_turns = False
        self._moves = 0
        #: what the bot was sent for its current move, as messages name it
        self._sent = ""
        self._cpu = 0.0
        self._read = 0
        self._pending = b""
        self._watched = 0.0
        #: looking for a bot waiting for input: when to look next, the interval, and the
        #: view last seen with when it was first seen
        self._look_at, self._look_every = 0.0, FIRST_LOOK
        self._waiting: tuple[View, float] | None = None
        #: the longest move line accepted in this game (see `choose`)
        self._line_bytes = self.limits.line_bytes
        #: the clock's allowance for the next move, and the line that tells it to the bot
        #: (None: no clock; see `clocked`), and whether the current move is on a clock
        self._clock: tuple[float, str | None] | None = None
        self._on_clock = False

    def begin(self, game: Seated[Any, Any], seat: Seat) -> None:
        """Start the bot's process for a new game; a compile error fails here."""
        self.close()
        self.usage = None
        super().begin(game, seat)
        self._moves, self._cpu, self._read, self._pending = 0, 0.0, 0, b""
        self._watched = time.monotonic()
        self._game_deadline = self._watched + self.limits.game_seconds
        self.stderr = ""
        if self.compile_error is not None:
            raise PlayerFailure(verdicts.COMPILE_ERROR, self.compile_error)
        if self.not_graded is not None:
            raise PlayerFailure(verdicts.NOT_GRADED, self.not_graded)
        try:
            env = {"BOT_SEED": str(self.seed)} if self.seed is not None else None
            self.process = Confined(self.program, self.limits, self.sandbox, self.pty, env=env)
        except OSError as exc:
            if exc.filename is None:  # not the bot's exec failing: the judge's own trouble
                raise
            raise PlayerFailure(verdicts.CRASH, f"the bot could not be started: {exc}") from None
        self.pgid = self.process.pgid
        if self.takes_turns:  # (until its first move)
            self.process.pause(True)

    def clocked(self, allowance: float, told: str | None) -> None:
        """The next move is on a clock: it may take `allowance` seconds (instead of the
        move's limit), and the bot first reads the line `told` if not None (the referee's
        call, before the move)."""
        self._clock = (allowance, told)

    def choose(self, pos: Any, last: Played | None) -> Any:
        """Send the position (first move) or the opponent's move, and read the bot's move."""
        proc = self._running()
        clock, self._clock = self._clock, None
        if self.takes_turns:
            proc.pause(False)
        if self._moves == 0:
            lines = self.game.wire_start(pos)
            text = "".join(f"{line}\n" for line in lines)
            limit = self.limits.first_move_seconds
            self._sent = "the start position" if len(lines) == 1 else \
                f"the start ({len(lines)} lines)"
            # a move may need to quote numbers as long as the start's (Nim heaps of any size)
            self._line_bytes = max(self.limits.line_bytes, max(map(len, lines)) + 64)
        else:
            assert last is not None, "the opponent's move is needed after the first move"
            text = self.game.format_move(last.move, last.before) + "\n"
            limit = self.limits.move_seconds
            self._sent = f"its opponent's move {text.strip()!r}"
        self._on_clock = clock is not None
        if clock is not None:
            limit, told = clock
            text = text if told is None else f"{told}\n{text}"
        self._moves += 1
        start = time.monotonic()
        if start >= self._game_deadline:
            raise self._game_time_limit()
        try:
            proc.send(text.encode(), min(limit, self._game_deadline - start))
        except TimeoutError:
            raise self._time_limit(limit) from None
        line = self._read_line(min(start + limit, self._game_deadline), limit)
        if self._moves == 1:  # its memory after its start (seen even if it dies later)
            proc.look_at_memory()
        if time.monotonic() - self._watched > WATCH_SECONDS:
            self._watch(proc, waiting=False)
        if self.takes_turns:  # (stopped, then read: all it spent in the move counts in it)
            proc.pause(True)
        cpu = proc.cpu_seconds()
        self.last_cpu, self._cpu = cpu - self._cpu, cpu
        return self.game.parse_move(line.decode("utf-8", errors="replace"), pos)

    def end(self, final: Any, last: Played | None) -> None:
        """Close the bot's input, give it the grace time to exit, then kill what is left."""
        proc = self.process
        if proc is not None:
            proc.pause(False)
            proc.end_input()
            proc.poll(timeout=self.limits.grace_seconds)
            # a helper process killed for memory while the bot played on is the bot's
            # failure too, as contest judges have it (runguard: any OOM kill in the run)
            if proc.killed_for_memory():
                self.close()
                alive = proc.exit is None or proc.exit.returncode == 0
                raise PlayerFailure(
                    verdicts.MEMORY_LIMIT,
                    f"after move {self._moves}: the kernel killed "
                    f"{'a process other than its main one' if alive else 'its process'} for"
                    f" memory during the game (limit {self.limits.memory_bytes >> 20} MiB)",
                )
        self.close()

    def close(self) -> None:
        """Kill the bot's whole process group, reap it, remove its directory and keep what it
        used (idempotent)."""
        proc, self.process = self.process, None
        if proc is not None:
            proc.kill()
            self.usage = proc.usage()
            self.stderr = proc.stderr_tail()

    # --- reading a move ----------------------------------------------------------------
    def _running(self) -> Confined:
        if self.process is None:
            raise RuntimeError("choose() called before begin() or after close()")
        return self.process

    def _read_line(self, deadline: float, limit: float) -> bytes:
        """The bot's next line (without the newline), within the deadline and output limits;
        a bot found waiting for input before it has one fails at once."""
        proc = self._running()
        buf = self._pending
        asked = time.monotonic()
        self._expect_output(asked)
        while True:
            newline = buf.find(b"\n")
            if newline >= 0:
                line, self._pending = buf[:newline], buf[newline + 1 :]
                if len(line) <= self._line_bytes:
                    return line
            if len(buf) > self._line_bytes:
                raise PlayerFailure(
                    verdicts.OUTPUT_LIMIT,
                    f"move {self._moves}: a line longer than {self._line_bytes} bytes"
                    f" (it starts {bytes(buf[:40])!r})",
                )
            now = time.monotonic()
            left = deadline - now
            if left <= 0:
                if deadline >= self._game_deadline:
                    raise self._game_time_limit()
                raise self._time_limit(limit, buf)
            wake = min(self._watched + WATCH_SECONDS, self._look_at) - now
            try:
                chunk = proc.output.read_nonblocking(
                    READ_CHUNK, timeout=min(left, max(wake, 0.001)))
            except pexpect.TIMEOUT:
                now = time.monotonic()
                if now - self._watched >= WATCH_SECONDS:
                    self._watch(proc, waiting=True)
                if now >= self._look_at:
                    self._look(proc, deadline, now, asked, buf)
                continue
            except pexpect.EOF:
                raise self._output_ended(proc) from None
            self._expect_output(time.monotonic())
            self._read += len(chunk)
            if self._read > self.limits.output_bytes:
                raise PlayerFailure(
                    verdicts.OUTPUT_LIMIT,
                    f"move {self._moves}: more than {self.limits.output_bytes} bytes of output"
                    " in one game",
                )
            buf += chunk

    def _expect_output(self, now: float) -> None:
        """The bot is to write (its input sent, or some output came): look for it waiting
        for input from the first look on."""
        self._waiting, self._look_every = None, FIRST_LOOK
        self._look_at = now + FIRST_LOOK

    def _look(self, proc: Confined, deadline: float, now: float, asked: float,
              pending: bytes) -> None:
        """Look for the bot waiting for input (see `judge.sandbox.waiting`): seen the same
        way after the grace, it fails at once with the verdict of its time limit, the
        message saying what it waited for and when it was stopped (`asked`: when its input
        was sent; `pending`: what it wrote of its move)."""
        view = proc.input_wait(deadline)
        grace = WAITING_GRACE_PTY if self.pty else WAITING_GRACE
        if view is None:  # busy (or not to be seen): look less often
            self._waiting = None
            self._look_every = min(1.25 * self._look_every, WATCH_SECONDS)
            self._look_at = now + self._look_every
        elif self._waiting is None or self._waiting[0] != view:
            self._waiting = (view, now)
            self._look_at = now + grace
        elif now - self._waiting[1] >= grace:
            stopped = f"stopped after {now - asked:.2f} s"
            raise PlayerFailure(verdicts.TIME_LIMIT,
                                f"move {self._moves}: {self._waited(pending, stopped)}")
        else:
            self._look_at = self._waiting[1] + grace

    def _time_limit(self, limit: float, pending: bytes = b"") -> PlayerFailure:
        """The verdict of a bot with no move at its deadline (`pending`: what it wrote of
        its move); on a clock, its flag fell (the referee words it)."""
        if self._on_clock:
            return OutOfTime()
        proc = self.process
        if proc is not None and proc.waiting_for_input():
            why = self._waited(pending)
        else:
            why = "it was still running"
        return PlayerFailure(
            verdicts.TIME_LIMIT, f"no move within {limit:g} s on its move {self._moves} ({why})"
        )

    def _waited(self, pending: bytes, stopped: str = "") -> str:
        """What a bot waiting for input before its move did, as far as the judge can tell
        (`pending`: what it wrote of its move; `stopped`: when it was stopped, if before its
        deadline). Output never flushed looks the same as input wanted: where the bot's
        output could be held in its buffer, the message asks which."""
        when = f" ({stopped})" if stopped else ""
        if pending:
            shown = pending[:40].decode("utf-8", errors="replace")
            return (f"it wrote {shown!r} without a newline, then waited for input{when}:"
                    " a move ends with a newline")
        read = f"it read {self._sent}, then waited for"
        if self.pty or output_never_held(self.program):
            return f"{read} more input than the protocol gives before its move{when}"
        return (f"{read} input with no move sent: more input than the protocol gives before"
                f" its move, or a move written but not flushed?{when}")

    def _game_time_limit(self) -> PlayerFailure:
        return PlayerFailure(
            verdicts.TIME_LIMIT,
            f"move {self._moves}: the game took longer than {self.limits.game_seconds:g} s",
        )

    def _watch(self, proc: Confined, waiting: bool) -> None:
        """Look at the bot's processes (a fork bomb?) and sample its use of CPU and memory.

        While `waiting` for a move, also look for a closed output: under bwrap the
        sandbox's own processes keep the pipe open, so no EOF comes.
        """
        self._watched = time.monotonic()
        cpu = proc.cpu_seconds()
        proc.sample_memory()
        if waiting and (proc.output_closed() or proc.poll() is not None):
            # it closed its output, or ended while what it left holds the pipe open
            raise self._output_ended(proc)
        if proc.killed_for_memory():
            proc.kill()
            raise PlayerFailure(
                verdicts.MEMORY_LIMIT,
                f"move {self._moves}: its processes used more than"
                f" {self.limits.memory_bytes >> 20} MiB together",
            )
        if proc.hit_process_limit():
            proc.kill()
            raise self._process_limit("; the judge killed them")
        if cpu > self.limits.cpu_seconds:  # summed over all its processes
            proc.kill()
            raise PlayerFailure(
                verdicts.CPU_LIMIT,
                f"move {self._moves}: used more than {self.limits.cpu_seconds} s of CPU time"
                f" ({cpu:.2f} s, all its processes)",
            )

    def _process_limit(self, then: str = "") -> PlayerFailure:
        return PlayerFailure(
            verdicts.CRASH,
            f"move {self._moves}: tried to run more than {self.limits.processes}"
            f" processes and threads{then}",
        )

    def _output_ended(self, proc: Confined) -> PlayerFailure:
        """The verdict for a bot whose output ended before its move."""
        ended = proc.poll(timeout=self.limits.grace_seconds)
        where = f"move {self._moves}: "
        if proc.hit_process_limit():  # what it died of, whatever it said
            return self._process_limit()
        if ended is None:
            return PlayerFailure(verdicts.NO_MOVE, where + "closed its output without moving")
        failure = exit_failure(ended, proc.stderr_tail(), self.limits, where,
                               self.program.address_space)
        return failure or PlayerFailure(verdicts.NO_MOVE, where + "exited without moving")


def output_never_held(program: Program) -> bool:
    """Whether all that `program` writes reaches its output at once: its language's output
    is flushed by the judge (`FLUSHED_LANGUAGES`), or it is a shell script."""
    if program.language:
        return program.language in FLUSHED_LANGUAGES
    try:
        with open(program.source, "rb") as fh:
            first = fh.readline(256)
    except OSError:
        return False
    words = [os.fsdecode(w) for w in first[2:].split()] if first.startswith(b"#!") else []
    if words and Path(words[0]).name == "env":  # #!/usr/bin/env bash
        words = [w for w in words[1:] if not w.startswith("-")]
    return bool(words) and Path(words[0]).name in SHELLS


def exit_failure(ended: Exit, tail: str, limits: Limits, where: str,
                 address_space: bool = True) -> PlayerFailure | None:
    """The verdict a bot's exit earns (CPU, memory, signal, status), or None for status 0.

    `tail` is the end of its stderr, `where` a prefix for the message (e.g. the move),
    `address_space` whether its program runs under the address-space limit (a managed
    runtime does not: the gigabytes the JVM or node reserve are no sign of a failed
    allocation, its resident memory is).
    """
    last_words = next((s for s in reversed(tail.splitlines()) if s.strip()), "")
    said = f" ({last_words.strip()[:200]})" if last_words else ""
    sig = ended.signal
    if sig == signal.SIGXCPU or (
        sig == signal.SIGKILL and ended.cpu_seconds >= limits.cpu_seconds
    ):
        return PlayerFailure(
            verdicts.CPU_LIMIT,
            where + f"used more than {limits.cpu_seconds} s of CPU time"
            f" ({ended.cpu_seconds:.2f} s)",
        )
    used = ended.memory_bytes if address_space else ended.peak_bytes
    near_limit = used >= MEMORY_NEAR_LIMIT * limits.memory_bytes
    # a failed allocation kills by a signal, or makes a careful program exit non-zero
    failed = sig in ALLOCATION_SIGNALS or (sig is None and ended.returncode != 0)
    if ended.oom_killed or any(word in tail for word in OUT_OF_MEMORY) or (failed and near_limit):
        return PlayerFailure(
            verdicts.MEMORY_LIMIT,
            where + f"ran out of memory (limit {limits.memory_bytes >> 20} MiB)" + said,
        )
    if sig is not None:
        return PlayerFailure(verdicts.CRASH, where + f"killed by {ended.signal_name}" + said)
    if ended.returncode != 0:
        return PlayerFailure(
            verdicts.CRASH, where + f"exited with status {ended.returncode}" + said
        )
    return None

