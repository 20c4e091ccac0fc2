"""A new kind of stored run is one module and one line in `judge.kinds.MODULES`: the trial
of `tests/plugin_kinds/trial.py`, registered by that line alone, has a working command (its
--help, a run played and stored, --resume refusing what set it up) that `judge show`
shows, as the judge's own kinds have."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

BOT = str(Path(__file__).resolve().parent.parent / "bots" / "nim" / "optimal.py")

#: the judge's command line in a fresh interpreter, with the one line that registers the
#: trial (its module found beside the tests)
WITH_TRIAL = """
import sys
import judge.kinds
judge.kinds.MODULES["trial"] = "plugin_kinds.trial"
from judge.cli import main
sys.exit(main(sys.argv[1:]))
"""


def judge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`judge ARGS` with the trial registered."""
    return subprocess.run([sys.executable, "-c", WITH_TRIAL, *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)})


def test_a_kind_in_one_module_registered_by_one_line_has_its_command(tmp_path):
    listed = judge("--help", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "\n    trial        a bot against the perfect player" in listed.stdout
    helped = judge("trial", "--help", cwd=tmp_path)
    assert helped.returncode == 0, helped.stderr
    assert "The BOT plays the perfect player once on each of the first starts." in helped.stdout
    assert "--first N" in helped.stdout and "--sandbox" in helped.stdout  # a shared group

    played = judge("trial", "--game", "nim", "--first", "2", "--jobs", "1", "--db", "r.db",
                   BOT, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert re.fullmatch(rf"trial 1: {re.escape(BOT)} won [012] of 2 games\n", played.stdout)
    shown = judge("show", "1", "--db", "r.db", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == played.stdout

    refused = judge("trial", "--resume", "1", "--first", "3", "--db", "r.db", cwd=tmp_path)
    assert refused.returncode == 2
    assert "drop --first" in refused.stderr


def test_without_its_line_the_judge_knows_no_such_command(tmp_path):
    out = subprocess.run([sys.executable, "-m", "judge", "trial", "--help"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 2
    assert "unknown command trial" in out.stderr


#: the same, with a kind that declares no command (stored and shown only)
WITHOUT_COMMAND = WITH_TRIAL.replace(
    '"plugin_kinds.trial"\n',
    '"plugin_kinds.trial"\njudge.kinds.MODULES["shown"] = "plugin_kinds.shown"\n')


def test_a_kind_without_a_command_is_no_command_and_breaks_none(tmp_path):
    package = tmp_path / "plugin_kinds"
    package.mkdir()
    trial = Path(__file__).parent / "plugin_kinds" / "trial.py"
    (package / "trial.py").write_text(trial.read_text())
    (package / "shown.py").write_text(
        "from plugin_kinds.trial import KIND as TRIAL\n"
        "KIND = TRIAL._replace(name='shown', command=None)\n")
    run = [sys.executable, "-c", WITHOUT_COMMAND]
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    listed = subprocess.run([*run, "--help"], capture_output=True, text=True, timeout=600,
                            cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    assert "trial" in listed.stdout and "shown" not in listed.stdout
    asked = subprocess.run([*run, "shown"], capture_output=True, text=True, timeout=600,
                           cwd=tmp_path, env=env)
    assert asked.returncode == 2 and "Traceback" not in asked.stderr
