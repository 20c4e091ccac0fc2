"""The suite's own set-up: a test that hangs fails after ``JUDGE_TEST_TIMEOUT`` seconds,
with the stacks of its threads, and the run goes on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

#: slow: a second run of pytest
pytestmark = pytest.mark.slow


def test_a_hanging_test_fails_at_the_timeout_and_the_run_goes_on() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(HERE / "data" / "deadline" / "hangs.py")],
        capture_output=True, text=True, timeout=120, cwd=HERE.parent,
        env={**os.environ, "JUDGE_TEST_TIMEOUT": "1"})
    assert out.returncode == 1, out.stdout + out.stderr
    assert "the test ran past JUDGE_TEST_TIMEOUT (1 s)" in out.stdout
    assert "1 failed" in out.stdout
    assert 'hangs.py", line 9 in test_hangs' in out.stdout + out.stderr  # where it hung
