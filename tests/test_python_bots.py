"""Python bots start without `site` (see `judge.sandbox.build`): they must not notice."""

from __future__ import annotations

import subprocess
from pathlib import Path

from judge.sandbox import program_for

SCRIPT = """
import sys
assert __name__ == "__main__", __name__
assert __file__ == sys.argv[0] == {path!r}, (__file__, sys.argv)
assert sys.path[0] == {folder!r}, sys.path
assert sys.argv[1:] == [], sys.argv
import pexpect  # from the judge's site-packages
help, copyright  # what site gives every script
print("ready", flush=True)
{ending}
"""


def run(tmp_path: Path, ending: str) -> subprocess.CompletedProcess:
    bot = tmp_path / "bot.py"
    bot.write_text(SCRIPT.format(path=str(bot), folder=str(tmp_path), ending=ending))
    return subprocess.run(program_for(bot).argv, capture_output=True, text=True, timeout=60)


def test_a_python_bot_runs_as_a_script_with_the_judges_packages(tmp_path: Path) -> None:
    done = run(tmp_path, "")
    assert (done.returncode, done.stdout, done.stderr) == (0, "ready\n", "")


def test_exit_and_quit_work_as_in_any_script(tmp_path: Path) -> None:
    assert run(tmp_path, "exit(3)").returncode == 3
    assert run(tmp_path, "quit(4)").returncode == 4


def test_an_uncaught_exception_ends_with_its_own_line(tmp_path: Path) -> None:
    done = run(tmp_path, "raise MemoryError('out of room')")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == "MemoryError: out of room"
    assert 'bot.py", line' in done.stderr
