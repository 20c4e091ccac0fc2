"""The judge's command line as the tests run it: a fresh interpreter, output captured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def judge(*args: str, cwd: Path | None = None,
          timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`judge ARGS` run as `python -m judge` in `cwd`, its stdout and stderr as text; a hang
    ends the test at `timeout` seconds."""
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def show(folder: Path, *args: str) -> str:
    """What `judge show 1 --db r.db ARGS` prints in `folder` (run 1 of its database), which
    must succeed."""
    out = judge("show", "1", "--db", "r.db", *args, cwd=folder)
    assert out.returncode == 0, out.stderr
    return out.stdout
