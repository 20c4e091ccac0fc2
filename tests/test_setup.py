"""The README's two set-up commands: they work as written with the system's Python, which
refuses a plain `pip install` (PEP 668), and CI runs the test command exactly as written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = Path("/usr/bin/python3")


def readme_commands() -> list[str]:
    """The indented one-line commands of the README's set-up, in order."""
    text = (ROOT / "README.md").read_text()
    head = text[:text.index("## Commands")]
    return [m.group(1) for m in re.finditer(r"^    (python3 -m venv .+)$", head, re.M)]


def test_ci_runs_the_readme_test_command_as_written() -> None:
    main, tests = readme_commands()
    assert "judge run --game ioiwari bots/ioiwari/*" in main
    assert "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text()
    lines = ci.splitlines()
    assert tests in lines
    # in a subshell of its own: under `set -e` a failure inside an && list (ruff, say) would
    # not stop the script, which would go on and end green
    at = lines.index(tests)
    assert (lines[at - 1], lines[at + 1]) == ("(", ")") and "set -euo pipefail" in lines
    assert 'export PATH="/usr/bin:/bin:$PATH"' in ci  # python3 is the system's there


@pytest.mark.slow  # a fresh virtual environment installed as the README says
def test_the_readme_main_command_works_with_the_system_python(tmp_path: Path) -> None:
    if not SYSTEM_PYTHON.exists() or subprocess.run(
            [SYSTEM_PYTHON, "-c", "import ensurepip, venv"], capture_output=True).returncode:
        pytest.skip("no system Python with venv here (Debian: python3-venv)")
    main, _ = readme_commands()
    project = tmp_path / "judge"
    try:  # the project as a user has it: the files of its repository
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("the project's files are those git lists: no git or no git checkout here")
    for name in filter(None, listed):
        target = project / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"/usr/bin:/bin:{env.get('PATH', '')}"
    out = subprocess.run(["bash", "-c", main], cwd=project, env=env, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    assert (project / ".venv" / "bin" / "judge").exists()
    # (a row cut to 80 columns with its copy marks starts …/ioiwari/NAME)
    rows = [line for line in out.stdout.splitlines()
            if line.startswith(("bots/ioiwari/", "…/ioiwari/"))]
    assert len(rows) == len(list((ROOT / "bots" / "ioiwari").iterdir()))


@pytest.mark.parametrize("command, extra", [
    (["worker", "tls://127.0.0.1:1"], "cluster"), (["scheduler"], "cluster"),
    (["run", "--game", "nim", "--cluster", "tls://127.0.0.1:1", "bots/nim/optimal.py"],
     "cluster"),
])
def test_a_missing_extra_is_named_as_this_checkouts_own(command: list[str], extra: str) -> None:
    # `judge` on the package index is another project: the hint installs this folder's extra
    # into the judge's own interpreter
    import sys
    import tomllib

    blocked = ("import sys; sys.modules['distributed'] = None; from judge.cli import main; "
               "sys.exit(main(sys.argv[1:]))")
    out = subprocess.run([sys.executable, "-c", blocked, *command], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 2, out.stderr
    hint = f"cd {ROOT} && {sys.executable} -m pip install -e '.[{extra}]'"
    assert out.stderr.rstrip().endswith(hint), out.stderr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert extra in project["optional-dependencies"]
