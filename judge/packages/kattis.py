"""A problem package in the Kattis problem package format (legacy), which Kattis's
problemtools verify and DOMjudge imports: an interactive problem whose output validator is
the judge's opponent (`judge.packages.bundle`)."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from judge.packages import bundle
from judge.packages.problem import Problem
from judge.packages.statement import latex

#: the limits DOMjudge reads (Kattis derives its time limit from the accepted bots)
DOMJUDGE_INI = "timelimit = {seconds}\n"
#: DOMjudge builds a validator of several files by its ``build`` and runs its ``run``
DOMJUDGE_SCRIPTS = {"build": "#!/bin/sh\n# the interactor is Python: nothing to build\n",
                    "run": '#!/bin/sh\nexec python3 "$(dirname "$0")/main.py" "$@"\n'}
#: DOMjudge's time limit per case, in seconds: a whole game's moves (the judge's own
#: default game time is 30 s of wall clock)
DOMJUDGE_SECONDS = 10


def write(problem: Problem, folder: Path, domjudge: bool = False) -> None:
    """The package in `folder`: problem.yaml, the statement, data/sample and data/secret,
    the interactor in output_validators/ (and again, as the cases' validator, in
    input_validators/), the sample bots in submissions/ (and, for DOMjudge,
    domjudge-problem.ini, the interactor as one file and its build and run scripts)."""
    game = problem.game
    rules = game.rules_string()
    (folder / "problem.yaml").write_text(
        f"name: {problem.title}\n"
        f"uuid: {uuid.uuid5(uuid.NAMESPACE_URL, 'judge:' + game.describe())}\n"
        f"source: judge ({game.describe()})\n"
        "license: permission\nrights_owner: the contest's organisers\n"
        "validation: custom interactive\n"
        "limits:\n  validation_time: 60\n  validation_memory: 1024\n", encoding="utf-8")
    statement = folder / "problem_statement"
    statement.mkdir()
    text = game.protocol_text() or f"# {game.name}\n\nSee judge games --protocol {game.name}."
    if rules:
        text += f"\n\n## The rules of this problem\n\n`{rules}`\n"
    (statement / "problem.en.tex").write_text(latex(text, problem.title), encoding="utf-8")
    samples = set(problem.samples)
    for name, case in problem.named():
        data = folder / "data" / ("sample" if case in samples else "secret")
        data.mkdir(parents=True, exist_ok=True)
        (data / f"{name}.in").write_text(case.text(game), encoding="utf-8")
        (data / f"{name}.ans").write_text(case.expected + "\n", encoding="utf-8")
    for kind, name in (("output_validators", "interactor"), ("input_validators", "cases")):
        (folder / kind / name).mkdir(parents=True)
        if domjudge and kind == "output_validators":
            # DOMjudge's import keeps a validator's files by their base names, in one folder
            (folder / kind / name / "main.py").write_text(
                bundle.single_file(game, problem.replies), encoding="utf-8")
        else:
            bundle.write(folder / kind / name, game, problem.replies)
    for bot in problem.bots:
        target = folder / "submissions" / bot.verdict
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bot.path, target / bot.path.name)
    if domjudge:
        (folder / "domjudge-problem.ini").write_text(
            DOMJUDGE_INI.format(seconds=DOMJUDGE_SECONDS), encoding="utf-8")
        for name, text in DOMJUDGE_SCRIPTS.items():
            script = folder / "output_validators" / "interactor" / name
            script.write_text(text, encoding="utf-8")
            script.chmod(0o755)
