"""`judge doctor`: it names the tier a run takes, finds the toolchains as a run does, says
what would give each missing guarantee, fits 80 columns, and never hangs or fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.commands import doctor
from judge.sandbox.languages import Table
from judge.sandbox.tiers import GUARANTEES, Tier
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
OPTIMAL = str(ROOT / "bots" / "nim" / "optimal.py")
#: an ordinary user's tier with bubblewrap: a uid, limits and fair CPU do not hold
BWRAP = Tier("bwrap", uid=False, cgroups=False, helper=True)


def doctor_json(*args: str, cwd: Path, path: str | None = None) -> dict:
    """What `judge doctor --format json ARGS` says in `cwd` (under another PATH when
    `path` is given); it must exit with status 0."""
    env = dict(os.environ) if path is None else {**os.environ, "PATH": path}
    out = subprocess.run([sys.executable, "-m", "judge", "doctor", "--format", "json", *args],
                         capture_output=True, text=True, timeout=120, cwd=cwd, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def fake_tool(folder: Path, name: str, script: str) -> Path:
    """An executable shell script `name` in `folder` that runs `script`."""
    folder.mkdir(exist_ok=True)
    tool = folder / name
    tool.write_text(f"#!/bin/sh\n{script}\n")
    tool.chmod(0o755)
    return tool


def test_doctor_names_the_tier_that_a_run_takes_here(tmp_path):
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db",
                "--format", "json", OPTIMAL, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    said = doctor_json(cwd=tmp_path)
    assert said["tier"] == json.loads(out.stdout)["tier"]
    text = judge("doctor", cwd=tmp_path).stdout
    assert f"tier: {said['tier']} " in text


def test_each_guarantee_is_said_held_or_not_and_a_missing_one_with_the_runs_remedy(
        monkeypatch):
    monkeypatch.setattr("judge.sandbox.tiers.tier_for", lambda mode: BWRAP)
    report = doctor.examine(Table())
    assert [g.key for g in report.guarantees] == [key for key, _ in GUARANTEES]
    assert {g.key: g.held for g in report.guarantees} == BWRAP.holds()
    missing = [f"not guaranteed here: {g.text} ({g.how})" for g in report.guarantees
               if not g.held]
    assert missing == BWRAP.warnings()  # what `judge run --verbose` says, word for word
    assert report.tier == "bwrap" and report.advice


def test_a_language_whose_compiler_is_not_on_path_is_not_found(tmp_path):
    tools = tmp_path / "bin"
    fake_tool(tools, "judge-test-cc", "echo 'judge-test-cc 9.1.2 (for the doctor)'")
    (tmp_path / "languages.toml").write_text(
        '[c]\ncompile = ["judge-test-absent-cc", "-o", "{out}/bot", "{src}"]\n'
        '[made]\nname = "Made-up"\nsuffixes = [".made"]\n'
        'compile = ["judge-test-cc", "-o", "{out}/bot", "{src}"]\nrun = ["{dir}/bot"]\n'
        'package = "made-up-compiler"\n')
    said = doctor_json("--languages", "languages.toml", cwd=tmp_path,
                       path=f"{tools}{os.pathsep}{os.environ['PATH']}")
    found = {t["language"]: t for t in said["toolchains"]}
    assert found["c"]["path"] is None and found["c"]["version"] is None
    assert found["made"]["path"] == str(tools / "judge-test-cc")
    assert found["made"]["version"] == "judge-test-cc 9.1.2 (for the doctor)"
    out = judge("doctor", "--languages", "languages.toml", cwd=tmp_path)
    assert "not found: no judge-test-absent-cc (install gcc)" in " ".join(out.stdout.split())


def test_the_text_fits_80_columns_even_with_a_long_version_line(tmp_path):
    tools = tmp_path / "bin"
    fake_tool(tools, "judge-test-cc", "echo " + "very-long-version " * 12)
    (tmp_path / "languages.toml").write_text(
        '[made]\nname = "Made-up"\nsuffixes = [".made"]\n'
        f'compile = ["{tools}/judge-test-cc", "{{src}}"]\nrun = ["{{dir}}/bot"]\n')
    out = judge("doctor", "--languages", "languages.toml", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert max(map(len, out.stdout.splitlines())) <= 80
    assert "very-long-version" in out.stdout


def test_without_bwrap_on_path_the_advice_installs_bubblewrap(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    said = doctor_json(cwd=tmp_path, path=str(empty))
    bubblewrap = next(f for f in said["facts"] if f["name"] == "bubblewrap")
    assert bubblewrap == {"name": "bubblewrap", "ok": False, "text": "not installed"}
    assert said["tier"] is None or not said["tier"].startswith("bwrap")
    assert "apt-get install bubblewrap" in said["command"]


def test_a_bubblewrap_without_size_is_said_too_old(tmp_path):
    # as Ubuntu 22.04's bubblewrap 0.6.1: no --size, which the judge's sandbox uses
    tools = tmp_path / "bin"
    fake_tool(tools, "bwrap", 'case " $* " in *" --size "*) echo "bwrap: Unknown option --size"'
              ' >&2; exit 1;; *" --help "*) echo "    --tmpfs DEST    Mount new tmpfs on DEST";'
              ' exit 0;; esac; exit 1')
    said = doctor_json(cwd=tmp_path, path=f"{tools}:{os.environ['PATH']}")
    bubblewrap = next(f for f in said["facts"] if f["name"] == "bubblewrap")
    assert not bubblewrap["ok"]
    assert bubblewrap["text"] == (f"{tools / 'bwrap'} is too old: it has no --size (0.8.0 "
                                  "and later have it)")
    if os.geteuid() == 0:
        assert "a bubblewrap of 0.8.0 or later" in said["advice"]
        assert "not allowed to make namespaces" not in said["advice"]


def test_an_ordinary_user_is_told_to_run_the_judge_as_root(monkeypatch):
    monkeypatch.setattr("judge.sandbox.tiers.tier_for", lambda mode: BWRAP)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    report = doctor.examine(Table())
    assert report.command is not None and report.command.split(" && ")[-1].startswith("sudo ")
    assert report.command.endswith(" doctor") and "as root" in report.advice
    assert next(f for f in report.facts if f.name == "root").ok is False


def test_where_every_guarantee_holds_there_is_nothing_to_do(monkeypatch):
    best = Tier("bwrap", uid=True, cgroups=True, helper=True, cgroup_version=2,
                cgroup_limits=True, fair=True, landlock=True)
    monkeypatch.setattr("judge.sandbox.tiers.tier_for", lambda mode: best)
    report = doctor.examine(Table())
    assert report.command is None
    assert report.advice == "every guarantee holds: bwrap+uid+cgroups2 is the strongest tier"


def test_a_toolchain_that_hangs_on_its_version_does_not_hang_the_doctor(tmp_path):
    tools = tmp_path / "bin"
    fake_tool(tools, "judge-test-slow-cc", "sleep 60")
    (tmp_path / "languages.toml").write_text(
        '[made]\nname = "Made-up"\nsuffixes = [".made"]\n'
        f'compile = ["{tools}/judge-test-slow-cc", "{{src}}"]\nrun = ["{{dir}}/bot"]\n')
    started = time.monotonic()
    said = doctor_json("--languages", "languages.toml", cwd=tmp_path)
    assert time.monotonic() - started < 30
    made = next(t for t in said["toolchains"] if t["language"] == "made")
    assert made["path"] is not None and made["version"] is None


def test_a_bad_format_is_bad_input(tmp_path):
    out = judge("doctor", "--format", "xml", cwd=tmp_path)
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_the_cluster_extra_is_installed_exactly_when_its_packages_import(tmp_path):
    said = doctor_json(cwd=tmp_path)
    entry = next((e for e in said["extras"] if e["name"] == "cluster"), None)
    if entry is None:
        pytest.skip("the judge is not installed as a package here")
    try:
        import cryptography  # noqa: F401
        import distributed  # noqa: F401
        importable = True
    except ImportError:
        importable = False
    assert entry["installed"] is importable
    assert "distributed" in entry["packages"]


def test_the_gvisor_tier_is_said_to_work_exactly_where_a_run_may_ask_for_it(tmp_path):
    from judge.sandbox.tiers import runsc_refusal, runsc_version

    said = doctor_json(cwd=tmp_path)
    gvisor = next(f for f in said["facts"] if f["name"] == "gVisor")
    assert gvisor["ok"] is (runsc_refusal() is None)
    if gvisor["ok"]:  # its version, and a sandbox seen to start /bin/true
        assert str(runsc_version()) in gvisor["text"] and "/bin/true" in gvisor["text"]


def test_without_runsc_on_path_the_gvisor_tier_says_how_to_get_it(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    said = doctor_json(cwd=tmp_path, path=str(empty))
    gvisor = next(f for f in said["facts"] if f["name"] == "gVisor")
    assert gvisor["ok"] is False and "apt-get install runsc" in gvisor["text"]
    assert not (said["tier"] or "").startswith("gvisor")  # (auto never picks it)
