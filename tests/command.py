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
