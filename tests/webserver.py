"""A real `judge serve` for the web tests (on 127.0.0.1 unless told): started on a free port,
stopped after."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"


def stored_run(tmp: Path) -> Path:
    """A results database with one grading run: the greedy Nim bot on two starts."""
    db = tmp / "runs.db"
    starts = tmp / "starts.txt"
    starts.write_text("3 4 5\n2 5 6\n")
    out = subprocess.run([sys.executable, "-m", "judge", "run", "--game", "nim", "--db", str(db),
                          "--tests", str(starts), "--seed", "1",
                          str(BOTS / "nim" / "greedy.py")],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert db.exists(), out.stderr
    return db


@contextmanager
def serving(*args: str) -> Iterator[str]:
    """`judge serve ARGS` in its own process; yields its address (http://127.0.0.1:PORT)."""
    with announced(*args) as url:
        found = re.match(r"http://[^/]+", url)
        assert found, url
        yield found.group(0)


@contextmanager
def announced(*args: str) -> Iterator[str]:
    """`judge serve ARGS` in its own process; yields the address it printed as it started
    (http://HOST:PORT/, with ?token=... when it needs one)."""
    with started(*args) as (_, url):
        yield url


@contextmanager
def started(*args: str, env: dict[str, str] | None = None, open_files: int | None = None,
            hard_files: int | None = None) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`judge serve ARGS` in its own process, with `env` added to the environment, and its
    limit of open descriptors `open_files` (soft) and `hard_files` (hard), when given;
    yields the process and the address it printed as it started."""
    def limited() -> None:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        hard = hard_files or hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(open_files or soft, hard), hard))

    proc = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0",
                             "--no-browser", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            start_new_session=True, env={**os.environ, **(env or {})},
                            preexec_fn=limited)
    try:
        deadline = time.monotonic() + 60
        line = ""
        found = None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            found = re.search(r"serving on (http://\S+)", line)
            if found:  # its later output read on, so that it never fills the pipe
                threading.Thread(target=proc.stdout.read, daemon=True).start()
                yield proc, found.group(1)
                break
            if not line and proc.poll() is not None:
                break
        else:
            raise AssertionError("judge serve did not start")
        if not found:
            raise AssertionError(f"judge serve did not start: {line}{proc.stdout.read()}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
