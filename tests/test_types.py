"""The package's type hints hold: mypy, configured in pyproject.toml, finds no error in judge/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_finds_no_error_in_the_package() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (it comes with the `test` extra)")
    # mypy's cache is the default .mypy_cache of the project (ignored by git): a first run
    # checks every module, later runs only the changed ones
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--no-color-output", "judge"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_the_games_and_solvers_pass_mypy_strict() -> None:
    """The layers a plugin game meets are typed in full: no bare `Game`, nothing returned
    as Any where a type is declared."""
    pytest.importorskip("mypy", reason="mypy is not installed (it comes with the `test` extra)")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--no-color-output", "--strict", "judge/games", "judge/solvers"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
