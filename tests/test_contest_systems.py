"""The exported DOMjudge and CMS packages judged by those systems' own code, where it is
installed (scripts/domjudge_judgehost.sh, scripts/cms_isolate.sh), each case's verdict
compared with `judge run`'s: DOMjudge's judgehost (judgedaemon, runpipe, runguard) with a
stand-in domserver (tests/tools/domserver.py), and CMS's loader and Communication task
type in isolate sandboxes (tests/tools/cms_evaluate.py)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.command import judge
from tests.test_packages import STARTS, graded, tied_task

TOOLS = Path(__file__).resolve().parent / "tools"
#: where scripts/domjudge_judgehost.sh installed DOMjudge's judgehost
DOMJUDGE = Path(os.environ.get("JUDGE_DOMJUDGE_HOME", "/nonexistent"))
#: where scripts/cms_isolate.sh installed CMS and isolate
CMS = Path(os.environ.get("JUDGE_CMS_HOME", "/nonexistent"))
#: the CMS tests' condition
NEEDS_CMS = pytest.mark.skipif(
    not (CMS / "venv" / "bin" / "python").is_file() or os.geteuid() != 0,
    reason="CMS and isolate (scripts/cms_isolate.sh, JUDGE_CMS_HOME) are not installed, "
    "or not root")
#: the sample bots' languages, by suffix, as DOMjudge and CMS name them
LANGUAGES = {".py": ("py3", "Python 3 / CPython"), ".c": ("c", "C11 / gcc")}


def export(tmp_path: Path, system: str, game: str) -> Path:
    """`game` exported for `system` on `STARTS`, both seats, to tmp_path/GAME (where
    `graded` finds its cases in data/: DOMjudge's package has them there already)."""
    tests = tmp_path / f"{game}.txt"
    tests.write_text("\n".join(STARTS[game]) + "\n")
    out = judge("export", system, game, "--tests", str(tests), "--seats", "both",
                "--output", str(tmp_path / game))
    assert out.returncode == 0, out.stderr
    return tmp_path / game


def case_of(text: str) -> tuple[str, int]:
    """A case file's start and seat."""
    lines = dict(line.split(" ", 1) for line in text.splitlines())
    return lines["start"], int(lines["seat"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not (DOMJUDGE / "bin" / "judgedaemon").is_file() or os.geteuid() != 0,
                    reason="DOMjudge's judgehost (scripts/domjudge_judgehost.sh, "
                    "JUDGE_DOMJUDGE_HOME) is not installed, or not root")
@pytest.mark.parametrize("game", ["nim", "ioiwari", "chopsticks"])
def test_domjudge_s_judgehost_judges_each_case_as_judge_run(tmp_path: Path, game: str) -> None:
    package = export(tmp_path, "domjudge", game)
    bots = sorted(package.glob("submissions/*/*"))
    port, report = free_port(), tmp_path / "report.json"
    for old in (DOMJUDGE / "judgings").iterdir():  # (a former run's judgings: the same ids)
        shutil.rmtree(old)
    (DOMJUDGE / "etc" / "restapi.secret").write_text(
        f"default http://127.0.0.1:{port}/api judgehost secret\n")
    server = subprocess.Popen([sys.executable, str(TOOLS / "domserver.py"), str(port),
                               str(package), str(DOMJUDGE / "lang"), str(report),
                               *(f"{LANGUAGES[p.suffix][0]}:{p}" for p in bots)])
    while not listening(port):
        assert server.poll() is None, "the domserver stand-in did not start"
        time.sleep(0.2)
    with (tmp_path / "judgedaemon.log").open("w") as log:
        # (its own mount namespace: the chroot's bind mounts end with it)
        daemon = subprocess.Popen(["unshare", "-m", "--propagation", "private", "su", "-s",
                                   "/bin/sh", "domjudge", "-c",
                                   f"exec {DOMJUDGE / 'bin' / 'judgedaemon'}"],
                                  stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and daemon.poll() is None:
            got = json.loads(report.read_text())
            if got["errors"] or len(got["runs"]) == len(got["cases"]):
                break
            time.sleep(1)
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
        server.terminate()
        server.wait(timeout=60)
    got = json.loads(report.read_text())
    assert not got["errors"], got["errors"]
    assert len(got["runs"]) == len(got["cases"]) == len(bots) * 6, (tmp_path / "judgedaemon.log")
    by_bot: dict[str, dict[tuple[str, int], bool]] = {}
    for task, (bot, case) in got["cases"].items():
        where = case_of(next(package.glob(f"data/*/{case}.in")).read_text())
        by_bot.setdefault(bot, {})[where] = got["runs"][task]["runresult"] == "correct"
    for bot in bots:
        assert by_bot[str(bot)] == graded(tmp_path, game, bot), bot.name


def cms_evaluate(task: Path, bots: list[str], report: Path) -> dict:
    """CMS's evaluation of `bots` (LANGUAGE:FILE) on `task` (tools/cms_evaluate.py)."""
    env = dict(os.environ, CMS_CONFIG=str(CMS / "cms.toml"),
               PATH=f"{CMS / 'bin'}:/usr/bin:/bin")
    done = subprocess.run([str(CMS / "venv" / "bin" / "python"),
                           str(TOOLS / "cms_evaluate.py"), str(task), str(report), *bots],
                          capture_output=True, text=True, env=env, timeout=1800)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(report.read_text()))


@pytest.mark.slow
@NEEDS_CMS
@pytest.mark.parametrize("game", ["nim", "ioiwari", "chopsticks"])
def test_cms_s_communication_task_type_scores_each_case_as_judge_run(tmp_path: Path,
                                                                     game: str) -> None:
    task = export(tmp_path, "cms", game)
    (task / "data" / "secret").mkdir(parents=True)  # (where `graded` finds the cases)
    for case in (task / "input").iterdir():
        (task / "data" / "secret" / f"{case.stem}.in").write_text(case.read_text())
    bots = sorted((task / "sol").iterdir())
    got = cms_evaluate(task, [f"{LANGUAGES[bot.suffix][1]}:{bot}" for bot in bots],
                       tmp_path / "report.json")
    assert (got["task_type"], got["parameters"]) == ("Communication", [1, "alone", "std_io"])
    for bot in bots:
        row = got["bots"][str(bot)]
        assert row["compiled"] and len(row["cases"]) == 6, row
        assert all(case["success"] for case in row["cases"].values()), row
        outcomes = {case_of(case["input"]): case["outcome"] == "1.0"
                    for case in row["cases"].values()}
        assert outcomes == graded(tmp_path, game, bot), bot.name


@pytest.mark.slow
@NEEDS_CMS
def test_cms_scores_a_tie_where_a_win_was_possible_half(tmp_path: Path) -> None:
    task, moves = tied_task(tmp_path)
    bot = tmp_path / "tie.py"
    bot.write_text(f"import sys\nfor move in {moves!r}:\n"
                   "    sys.stdin.readline()\n    print(move, flush=True)\n")
    got = cms_evaluate(task, [f"Python 3 / CPython:{bot}"], tmp_path / "r.json")
    case = got["bots"][str(bot)]["cases"]["000"]
    assert case["outcome"] == "0.5" and "tie" in case["text"][0], case
