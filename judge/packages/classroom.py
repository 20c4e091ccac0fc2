"""A GitHub Classroom assignment: the starter repository's workflow runs the judge on the
student's bot with GitHub's autograding actions (a command-grader test per group of starts,
passed when the bot earns every point perfect play earns there, worth a point per start)
and reports the points."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from judge.packages.problem import Problem, source_files

#: where the judge's source goes in the student's repository
SOURCE = ".judge/judge-src"
#: the most tests (groups of starts) of a workflow
GROUPS = 10
#: a test's time limit, in minutes
TIMEOUT = 10

#: the check of a group: `judge run`'s JSON in, exit 0 when the bot earned every point
CHECK = ("python3 -c 'import json, sys; b = json.load(sys.stdin)[\"bots\"][0]; "
         "print(b[\"bot\"], b[\"points\"], \"of\", b[\"max_points\"], \"points\", "
         "b[\"failures\"] or \"\"); sys.exit(b[\"points\"] < b[\"max_points\"])'")

HEAD = """# GitHub Classroom's autograding: the judge grades the bot ({bot}) on {game}
name: Autograding Tests
on: [push, workflow_dispatch, repository_dispatch]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
    - name: Checkout code
      uses: actions/checkout@v4
    - name: Set up Python
      uses: actions/setup-python@v5
      with:
        python-version: '3.11'
    - name: Install the judge and the toolchains
      run: |
        sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap gcc{packages}
        python -m pip install -q ./{source}
"""

STEP = """    - name: {name}
      id: {id}
      uses: classroom-resources/autograding-command-grader@v1
      with:
        test-name: {name}
        setup-command: ''
        command: {command}
        timeout: {timeout}
        max-score: {score}
"""

REPORT = """    - name: Autograding Reporter
      uses: classroom-resources/autograding-grading-reporter@v1
      env:
{env}
      with:
        runners: {runners}
"""


def groups(starts: list[str]) -> list[list[str]]:
    """The starts in at most `GROUPS` groups of about equal size, in their order."""
    size = -(-len(starts) // GROUPS)
    return [starts[i:i + size] for i in range(0, len(starts), size)]


def workflow(problem: Problem, bot: str, packages: tuple[str, ...],
             opponent: str) -> tuple[str, list[list[str]]]:
    """The workflow's text, and the starts of each of its tests (``.judge/tests/NN.txt``)."""
    game = problem.game
    starts = list(dict.fromkeys(c.start for c in problem.cases))
    parts = [HEAD.format(bot=bot, game=game.describe(), source=SOURCE,
                         packages="".join(f" {shlex.quote(p)}" for p in packages))]
    ids = []
    for number, group in enumerate(groups(starts), 1):
        run = shlex.join(["judge", "run", "--game", game.name, "--rules", game.rules_string(),
                          "--tests", f".judge/tests/{number:02d}.txt", "--seats",
                          problem.seats, "--opponent", opponent, "--db",
                          f"/tmp/judge-{number:02d}.sqlite", "--format", "json", "--",
                          bot])
        ids.append(f"group-{number:02d}")
        parts.append(STEP.format(
            name=json.dumps(f"starts {number}: {group[0]}" + (" ..." if len(group) > 1 else "")),
            id=ids[-1], command=json.dumps(f"{run} | {CHECK}"), timeout=TIMEOUT,
            score=len(group)))
    env = "\n".join(f"        {i.upper().replace('-', '_')}_RESULTS: "
                    f"\"${{{{steps.{i}.outputs.result}}}}\"" for i in ids)
    parts.append(REPORT.format(env=env, runners=",".join(ids)))
    return "".join(parts), groups(starts)


def write(problem: Problem, bot: str, packages: tuple[str, ...], opponent: str,
          folder: Path) -> None:
    """The starter repository in `folder`: the workflow, the starts of its tests, the
    judge's source, the protocol page as the README, and a sample bot to start from."""
    text, tests = workflow(problem, bot, packages, opponent)
    (folder / ".github" / "workflows").mkdir(parents=True)
    (folder / ".github" / "workflows" / "classroom.yml").write_text(text, encoding="utf-8")
    (folder / ".judge" / "tests").mkdir(parents=True)
    for number, group in enumerate(tests, 1):
        (folder / ".judge" / "tests" / f"{number:02d}.txt").write_text(
            "\n".join(group) + "\n", encoding="utf-8")
    for path, name in source_files(SOURCE):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / name)
    (folder / "README.md").write_text(problem.game.protocol_text() or "", encoding="utf-8")
    starters = [b.path for b in problem.bots if b.verdict == "wrong_answer"
                and b.path.suffix == Path(bot).suffix]
    if starters and not (folder / bot).exists():
        shutil.copyfile(starters[0], folder / bot)
