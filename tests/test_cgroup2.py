"""Game slots on the cgroup v2 hierarchy (``JUDGE_CGROUPS=v2``).

Each test runs a judge in a private mount namespace with the v2 hierarchy mounted (where
the machine has it mounted already, as a v2-only machine does, that mount is used), so the
machine's own mounts are not touched. The confinement suite's tests of what a slot's cgroup
gives run again there: CPU summed over processes and threads, nothing outliving its game, a
clean next game; and memory and processes bounded where the v2 hierarchy offers the memory
and pids controllers (on a machine whose controllers are all bound to v1 it offers neither:
those tests are skipped there, with the reason).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.needs_root("slot cgroups are made by a root judge"),
    pytest.mark.skipif(shutil.which("unshare") is None,
                       reason="the tests mount the v2 hierarchy with unshare (util-linux)"),
]


def _v2_mount() -> str | None:
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            left, _, right = line.partition(" - ")
            if right.split()[:1] == ["cgroup2"]:
                return left.split()[4]
    return None


def in_v2(command: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run a shell `command` with JUDGE_CGROUPS=v2, the v2 hierarchy mounted."""
    mount = ""
    if _v2_mount() is None:
        point = tmp_path / "cgroup2"
        point.mkdir()
        mount = f"mount -t cgroup2 none {point} && "
    env = {**os.environ, "JUDGE_CGROUPS": "v2", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", mount + command],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600,
    )
    if mount and "mount" in done.stderr and done.returncode == 32:
        pytest.skip(f"the v2 hierarchy cannot be mounted here: {done.stderr.strip()}")
    return done


def test_runs_on_v2_record_the_v2_tier(tmp_path: Path) -> None:
    done = in_v2(f"{sys.executable} -m judge run --game nim --format json --db "
                 f"{tmp_path / 'r.db'} bots/nim/optimal.py", tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["tier"].split("+")[-1] in ("cgroups2", "cgroups2-partial"), out["tier"]
    bot = out["bots"][0]
    assert bot["points"] == bot["max_points"]  # the optimal bot wins every game as before


@pytest.mark.slow
def test_confinement_suite_holds_on_v2(tmp_path: Path) -> None:
    """What a slot's cgroup gives, from the confinement suite, with slots on v2."""
    chosen = ("cpu_is_summed or every_thread or counted_together or memory_is_counted or "
              "outlive or leaves_no_daemon or leaving_a_daemon or touch_the_judge or "
              "killed_judge or tier or sees_no_process or league_bot")
    done = in_v2(f"{sys.executable} -m pytest -q -p no:cacheprovider -rs "
                 f"tests/test_confinement.py -k '{chosen}'", tmp_path)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    tail = done.stdout.strip().splitlines()[-1]
    assert " passed" in tail and "failed" not in tail, done.stdout[-4000:]
    # the tests of CPU over all threads and of nothing outliving its game ran, not skipped
    assert "CPU summed over threads needs a cgroup" not in done.stdout, done.stdout[-4000:]
