"""The course packages of `judge export` run on the Ubuntu releases of the services that run
them, in root file systems scripts/ubuntu_root.sh made: Gradescope's autograder built and
run as Gradescope builds and runs it, on Ubuntu 22.04 (JUDGE_UBUNTU_JAMMY, its default
image) and 24.04 (JUDGE_UBUNTU_NOBLE), and GitHub Classroom's workflow, its steps run as
GitHub's runner and command grader run them, on Ubuntu 24.04; each bot's points compared
with `judge run`'s here.

Each run is a layer of its own (overlayfs) over the prepared root, which stays as it was:
the autograder's build (setup.sh) one layer, each submission's run another above it, as
Gradescope starts each submission in a fresh container of the built image."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.command import judge
from tests.test_packages import ROOT, STARTS

#: the prepared roots (scripts/ubuntu_root.sh jammy|noble DIR)
JAMMY = Path(os.environ.get("JUDGE_UBUNTU_JAMMY", "/nonexistent"))
NOBLE = Path(os.environ.get("JUDGE_UBUNTU_NOBLE", "/nonexistent"))
#: the machine's certificates, given to the root: where the network's HTTPS passes through a
#: proxy with an authority of its own, pip in the root trusts it as the machine does
CERTIFICATES = "/etc/ssl/certs/ca-certificates.crt"


def needs_root_fs(root: Path, variable: str) -> pytest.MarkDecorator:
    """Skipped without the root that `variable` names, or as an ordinary user."""
    return pytest.mark.skipif(
        not (root / "etc" / "os-release").is_file() or os.geteuid() != 0,
        reason=f"no Ubuntu root (scripts/ubuntu_root.sh, {variable}), or not root")


def inside(layers: list[Path], top: Path, command: str, *, user: str = "root",
           env: dict[str, str] | None = None, cwd: str = "/",
           timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    """`command` (bash) run in the root of `layers` (the lowest last) with `top` as the
    writable layer above them, as `user`, with the machine's network, in a mount and PID
    namespace of its own whose root it is: its output as text."""
    for name in ("upper", "work", "root"):
        (top / name).mkdir(parents=True, exist_ok=True)
    root = top / "root"
    lower = ":".join(str(p) for p in layers)
    variables = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                 "HOME": "/root" if user == "root" else f"/home/{user}", "LANG": "C.UTF-8",
                 "PIP_CERT": CERTIFICATES, **(env or {})}
    run = ["env", "-i", *(f"{k}={v}" for k, v in variables.items()), "bash", "-c",
           f"cd {shlex.quote(cwd)} && {command}"]
    if user != "root":
        run = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", *run]
    mount = (f"mount -t overlay overlay -o lowerdir={lower},upperdir={top}/upper,"
             f"workdir={top}/work {root}"
             f" && mount -t proc proc {root}/proc && mount --rbind /dev {root}/dev"
             f" && mount --bind /etc/resolv.conf {root}/etc/resolv.conf")
    if Path(CERTIFICATES).is_file():
        mount += (f" && mkdir -p {root}/etc/ssl/certs && touch {root}{CERTIFICATES}"
                  f" && mount --bind {CERTIFICATES} {root}{CERTIFICATES}"
                  f" && mount -o remount,bind,ro {root}{CERTIFICATES}")
    # the root made the mount namespace's root (pivot_root, as a container's runtime does,
    # where a chroot would leave bubblewrap the machine's root to bind its paths from)
    mount += (f" && cd {root} && pivot_root . mnt && exec chroot . /bin/sh -c"
              f" 'umount -l /mnt && exec \"$@\"' sh {shlex.join(run)}")
    return subprocess.run(["unshare", "--mount", "--pid", "--fork", "--propagation",
                           "private", "sh", "-c", mount], capture_output=True, text=True,
                          timeout=timeout)


def starts(tmp: Path, more: tuple[str, ...] = ()) -> Path:
    """Nim's `STARTS` (and `more`) in tmp/nim.txt."""
    tests = tmp / "nim.txt"
    tests.write_text("\n".join([*STARTS["nim"], *more]) + "\n")
    return tests


#: the submissions: the sample bots of Nim (one in C), one that crashes at its first move,
#: one that does not compile
CRASH = "import sys\nsys.stdin.readline()\nraise SystemExit(3)\n"
BROKEN = "int main(void) { return oops; }\n"


def submissions(folder: Path) -> list[Path]:
    folder.mkdir()
    bots = [shutil.copy(ROOT / "bots" / "nim" / name, folder)
            for name in ("optimal.py", "greedy.py", "random.py", "optimal_misere.py",
                         "optimal.c")]
    (folder / "crash.py").write_text(CRASH)
    (folder / "broken.c").write_text(BROKEN)
    return [Path(b) for b in bots] + [folder / "crash.py", folder / "broken.c"]


#: Gradescope's base images: 22.04 its documentation's default, 24.04 for a newer one
GRADESCOPE = {"jammy": (JAMMY, "JUDGE_UBUNTU_JAMMY"), "noble": (NOBLE, "JUDGE_UBUNTU_NOBLE")}


@pytest.fixture(scope="module", params=sorted(GRADESCOPE))
def built(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """Gradescope's build of an autograder of Nim (STARTS, both seats) on a root: (the
    folder, the root, its build layer)."""
    root, variable = GRADESCOPE[request.param]
    if not (root / "etc" / "os-release").is_file() or os.geteuid() != 0:
        pytest.skip(f"no Ubuntu root (scripts/ubuntu_root.sh, {variable}), or not root")
    tmp = tmp_path_factory.mktemp(f"gradescope-{request.param}")
    out = judge("export", "gradescope", "nim", "--tests", str(starts(tmp)), "--seats", "both",
                "--output", str(tmp / "export"))
    assert out.returncode == 0, out.stderr
    # what Gradescope's image build does (its Dockerfile): curl, unzip and dos2unix
    # installed, the zip added and unzipped into /autograder/source, run_autograder copied
    # up, line ends fixed, setup.sh run
    (tmp / "build" / "upper").mkdir(parents=True)
    shutil.copy(tmp / "export" / "autograder.zip", tmp / "build" / "upper" / "autograder.zip")
    build = inside([root], tmp / "build", (
        "apt-get update -qq && apt-get install -y -qq curl unzip dos2unix >/dev/null"
        " && mkdir -p /autograder/source && unzip -q -n -d /autograder/source /autograder.zip"
        " && cp /autograder/source/run_autograder /autograder/run_autograder"
        " && dos2unix -q /autograder/run_autograder /autograder/source/setup.sh"
        " && chmod +x /autograder/run_autograder"
        " && apt-get update -qq && bash /autograder/source/setup.sh && apt-get clean"
        " && rm -rf /var/lib/apt/lists/* /tmp/* /var/tmp/* /autograder.zip"),
        env={"DEBIAN_FRONTEND": "noninteractive"}, timeout=3600)
    assert build.returncode == 0, build.stdout + build.stderr
    return tmp, root, tmp / "build" / "upper"


def gradescope_results(built: tuple[Path, Path, Path], bots: list[Path]) -> dict[str, Any]:
    """run_autograder as Gradescope runs it on the submission of `bots`, in a fresh layer
    above the build (as a fresh container of the built image): the results.json it wrote."""
    tmp, root, layer = built
    top = tmp / f"run-{bots[0].name}-{len(bots)}"
    submission = top / "upper" / "autograder" / "submission"
    submission.mkdir(parents=True)
    for bot in bots:
        shutil.copy(bot, submission)
    done = inside([layer, root], top, "/autograder/run_autograder", cwd="/autograder",
                  timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads((top / "upper" / "autograder" / "results" / "results.json")
                           .read_text()))


@pytest.mark.slow
def test_gradescope_s_build_and_runs_grade_as_judge_run(
        built: tuple[Path, Path, Path]) -> None:
    tmp = built[0]
    bots = submissions(tmp / "bots")
    scores = {}
    for bot in bots:
        results = gradescope_results(built, [bot])
        run = judge("run", "--game", "nim", "--rules", "misere=off", "--tests",
                    str(tmp / "nim.txt"), "--seats", "both", "--opponent", "optimal",
                    "--feedback", "mistakes", "--db", str(tmp / f"{bot.name}.db"),
                    "--format", "gradescope", "--", str(bot))
        assert run.returncode == 0, run.stderr
        # the same file: each game's score, status and words (a compiler's message too)
        assert results == json.loads(run.stdout), bot.name
        scores[bot.name] = results["score"], results["max_score"]
    assert scores["optimal.py"] == scores["optimal.c"] == (3, 3)
    assert scores["crash.py"] == scores["broken.c"] == scores["greedy.py"] == (0, 3)
    # two files, neither named: refused with why, a score of 0
    refused = gradescope_results(built, bots[:2])
    assert refused["score"] == 0 and "submit one file" in refused["output"]


#: the environment the command grader gives a test's command (its src/main.js), beside the
#: PATH and HOME of its step
GRADER_ENV = {"FORCE_COLOR": "true", "DOTNET_CLI_HOME": "/tmp", "DOTNET_NOLOGO": "true"}
#: where the runner checks the repository out, and where the Python of actions/setup-python
#: stands (here a venv of the release's own Python: setup-python's builds are GitHub's)
WORKSPACE = "/home/runner/work/nim/nim"
TOOLCACHE = "/home/runner/hostedtoolcache/Python/x64"


@pytest.mark.slow
@needs_root_fs(NOBLE, "JUDGE_UBUNTU_NOBLE")
def test_the_classroom_workflow_s_steps_on_ubuntu_24_04_grade_as_judge_run(
        tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    # (the greedy bot wins 7 and 1 1 1, and loses the others: tests passed and failed)
    out = judge("export", "classroom", "nim", "--tests", str(starts(tmp_path, ("7", "1 1 1"))),
                "--seats", "both", "--output", str(tmp_path / "repo"))
    assert out.returncode == 0, out.stderr
    flow = yaml.safe_load((tmp_path / "repo" / ".github" / "workflows" / "classroom.yml")
                          .read_text())
    steps = flow["jobs"]["run-autograding-tests"]["steps"]
    assert flow["jobs"]["run-autograding-tests"]["runs-on"] == "ubuntu-latest"
    # actions/checkout: the repository in the workspace, the runner's
    install = tmp_path / "install"
    shutil.copytree(tmp_path / "repo", install / "upper" / WORKSPACE.lstrip("/"))
    done = inside([NOBLE], install, "chown -R runner:runner /home/runner")
    assert done.returncode == 0, done.stderr
    # actions/setup-python, then each `run` step as the runner runs it (bash -e, pipefail)
    path = f"{TOOLCACHE}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python@"))
    assert python["with"]["python-version"] == "3.11"
    runs = [s["run"] for s in steps if "run" in s]
    script = f"python3 -m venv {TOOLCACHE}\n" + "\n".join(runs)
    done = inside([NOBLE], install,
                  f"bash --noprofile --norc -eo pipefail -c {shlex.quote(script)}",
                  user="runner", env={"PATH": path}, cwd=WORKSPACE)
    assert done.returncode == 0, done.stdout + done.stderr
    tests = [s for s in steps if s.get("uses", "").startswith(
        "classroom-resources/autograding-command-grader@")]
    points = {}
    for bot in ("optimal.py", "greedy.py"):
        top = tmp_path / f"run-{bot}"
        (top / "upper" / WORKSPACE.lstrip("/")).mkdir(parents=True)
        shutil.copy(ROOT / "bots" / "nim" / bot, top / "upper" / WORKSPACE.lstrip("/") / "bot.py")
        points[bot] = 0
        for test in tests:
            # the command grader: execSync(command), by /bin/sh with its environment; the
            # test's points when it exits with status 0
            done = inside([install / "upper", NOBLE], top,
                          f"exec sh -c {shlex.quote(test['with']['command'])}", user="runner",
                          env={"PATH": path, **GRADER_ENV}, cwd=WORKSPACE,
                          timeout=60 * test["with"]["timeout"])
            points[bot] += test["with"]["max-score"] if done.returncode == 0 else 0
            # passed where judge run here gives the bot every point of the test's starts
            group = tmp_path / "repo" / test["with"]["command"].split("--tests ")[1].split()[0]
            run = judge("run", "--game", "nim", "--tests", str(group), "--seats", "both",
                        "--db", str(top / f"{group.stem}.db"), "--format", "json",
                        str(ROOT / "bots" / "nim" / bot))
            row = json.loads(run.stdout)["bots"][0]
            assert (done.returncode == 0) == (row["points"] == row["max_points"]), \
                (bot, test["name"], done.stdout, done.stderr)
    assert points == {"optimal.py": 5, "greedy.py": 2}
