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


#: a Nim bot that takes one counter from the largest heap, and imports `fractions` (written in
#: Python in every build: a module built into the interpreter, as `math` is in some, would
#: come before the bot's folder)
NIM_BOT = """
import fractions
import sys
heaps = list(map(int, sys.stdin.readline().split()))
while True:
    i = max(range(len(heaps)), key=lambda j: heaps[j])
    print(i + 1, fractions.Fraction(3, 2).numerator - 2, flush=True)
    heaps[i] -= 1
    line = sys.stdin.readline()
    if not line:
        break
    h, k = map(int, line.split())
    heaps[h - 1] -= k
"""


def play_nim(bot: Path) -> subprocess.CompletedProcess:
    """`judge play --game nim --start "1 2" BOT --sandbox none`."""
    from tests.command import judge

    return judge("play", "--game", "nim", "--start", "1 2", "--sandbox", "none", str(bot))


def test_a_bot_named_like_a_standard_module_is_noted_before_it_plays(tmp_path: Path) -> None:
    bot = tmp_path / "fractions.py"  # `import fractions` in it imports the bot itself
    bot.write_text(NIM_BOT)
    out = play_nim(bot)
    note = (f"judge: note: bot {bot} is named like Python's standard module 'fractions': "
            "Python puts a bot's folder first on its module path, so `import fractions` there"
            " (the bot's or a library's) finds the bot itself; rename it (fractions_bot.py)")
    assert note in out.stderr.splitlines(), out.stderr
    assert "crash" in out.stdout  # as said: the bot's `fractions` is itself, without Fraction


def test_a_bot_of_another_name_or_that_takes_its_folder_off_the_path_is_not_noted(
        tmp_path: Path) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text(NIM_BOT)
    out = play_nim(bot)
    assert "judge: note: bot" not in out.stderr and "crash" not in out.stdout, out.stderr
    sample = Path(__file__).resolve().parent.parent / "bots" / "nim" / "random.py"
    assert "judge: note: bot" not in play_nim(sample).stderr  # the sample bots do that


def test_a_bot_named_like_a_module_built_into_the_interpreter_is_not_noted(
        tmp_path: Path) -> None:
    bot = tmp_path / "sys.py"  # built into every interpreter: `import sys` finds the real one
    bot.write_text(NIM_BOT)
    out = play_nim(bot)
    assert "judge: note: bot" not in out.stderr and "crash" not in out.stdout, out.stderr
