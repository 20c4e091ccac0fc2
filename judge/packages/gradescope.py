"""Gradescope's autograder: a zip whose ``setup.sh`` installs the judge (from its source,
bundled) and the course's toolchains on Gradescope's Ubuntu image, and whose
``run_autograder`` grades the student's bot with `judge run` into ``results.json``."""

from __future__ import annotations

import shlex
import zipfile
from dataclasses import dataclass
from pathlib import Path

from judge.packages.problem import Problem, source_files

#: where the judge's source goes in the zip (Gradescope unzips it into /autograder/source)
SOURCE = "judge-src"

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, on its Ubuntu image, from /autograder/source: the
# course's toolchains, a Python of 3.11 or later, and the judge from its bundled source.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq gcc bubblewrap {packages} >/dev/null
python=""
for v in 3.13 3.12 3.11; do
    if command -v python$v >/dev/null; then python=python$v; break; fi
done
if [[ -z $python ]]; then  # Ubuntu 22.04 ships 3.10: 3.11 is in its universe
    apt-get install -y -qq python3.11 python3.11-venv >/dev/null
    python=python3.11
fi
apt-get install -y -qq "$python-venv" >/dev/null 2>&1 || true
"$python" -m venv /autograder/judge-venv
/autograder/judge-venv/bin/pip install -q "/autograder/source/{source}"
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: the student's bot, graded by the judge into
# results/results.json. AUTOGRADER_ROOT (default /autograder) and JUDGE (default the judge
# setup.sh installed) let it run elsewhere, as the tests run it.
set -uo pipefail
root="${{AUTOGRADER_ROOT:-/autograder}}"
judge="${{JUDGE:-$root/judge-venv/bin/judge}}"
results="$root/results/results.json"
mkdir -p "$root/results"
refuse() {{  # a submission that cannot be graded: score 0 and why
    printf '{{"score": 0, "output": "%s", "tests": []}}\\n' "$1" > "$results"
    exit 0
}}
cd "$root/submission" || refuse "no submission folder"
bot={bot}
if [[ ! -f $bot ]]; then
    shopt -s nullglob
    files=(*)
    (( ${{#files[@]}} == 1 )) && [[ -f ${{files[0]}} ]] || \\
        refuse "submit one file{named}: the bot"
    bot=${{files[0]}}
fi
"$judge" run --game {game} --rules {rules} {tests}--seats {seats} \\
    --opponent {opponent} --feedback {feedback} --db "$(mktemp -d)/results.sqlite" \\
    --format gradescope --output "$results" -- "./$bot"
status=$?
# a bad bot is graded, not refused: only the judge's own trouble leaves no results
[[ -s $results ]] || refuse "the judge could not grade the submission (status $status)"
"""


@dataclass(frozen=True)
class Course:
    """How the autograder grades: the file the student submits (or any one file), the
    feedback level of `judge run`, the opponent, and the toolchains' Ubuntu packages."""

    bot: str = ""
    feedback: str = "mistakes"
    opponent: str = "optimal"
    packages: tuple[str, ...] = ()


def scripts(problem: Problem, course: Course) -> dict[str, str]:
    """setup.sh, run_autograder and, for starts of the user's, tests.txt, by name."""
    game = problem.game
    run = RUN.format(bot=shlex.quote(course.bot),
                     named=f" named {course.bot}" if course.bot else "",
                     game=shlex.quote(game.name), rules=shlex.quote(game.rules_string()),
                     seats=problem.seats, opponent=course.opponent,
                     feedback=course.feedback,
                     tests='--tests "$root/source/tests.txt" ' if problem.starts else "")
    packages = " ".join(shlex.quote(p) for p in course.packages)
    texts = {"setup.sh": SETUP.format(packages=packages, source=SOURCE), "run_autograder": run}
    if problem.starts:
        texts["tests.txt"] = "\n".join(problem.starts) + "\n"
    return texts


def write(problem: Problem, course: Course, folder: Path) -> None:
    """The autograder in `folder`: autograder.zip, and its scripts beside it to read."""
    texts = scripts(problem, course)
    with zipfile.ZipFile(folder / "autograder.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in texts.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name != "tests.txt" else 0o644) << 16
            zf.writestr(info, text)
        for path, name in source_files(SOURCE):
            zf.write(path, name)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
        (folder / name).chmod(0o755 if name != "tests.txt" else 0o644)
