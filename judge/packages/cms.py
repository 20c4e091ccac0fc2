"""A CMS task (the Italian YAML format that cmsImportTask reads): a Communication task whose
manager is the judge's opponent as one Python file, the contestant's program on
stdin/stdout (no stub), each case scored by the share of perfect play's points earned."""

from __future__ import annotations

import shutil
from pathlib import Path

from judge.packages import bundle
from judge.packages.problem import Problem

#: CMS's limits: the whole game's moves in seconds, and MiB
TIME_LIMIT, MEMORY_LIMIT = 10, 256


def write(problem: Problem, folder: Path) -> None:
    """The task in `folder`: task.yaml, check/manager, input/ and output/ (a file a case),
    the protocol page as the contestants' attachment (att/protocol.md) and the sample bots
    (sol/)."""
    game = problem.game
    named = problem.named()
    samples = set(problem.samples)
    public = ",".join(str(i) for i, (_, case) in enumerate(named) if case in samples)
    (folder / "task.yaml").write_text(
        f"name: {game.name}\ntitle: {problem.title}\n"
        f"time_limit: {TIME_LIMIT}\nmemory_limit: {MEMORY_LIMIT}\n"
        f"n_input: {len(named)}\npublic_testcases: \"{public}\"\ntotal_value: 100\n"
        "infile: \"\"\noutfile: \"\"\n"
        "# a Communication task: check/manager plays the judge's side; the contestant's\n"
        "# program reads and writes stdin and stdout (no stub)\n"
        "num_processes: 1\nuser_io: std_io\ntoken_mode: disabled\n", encoding="utf-8")
    for kind in ("input", "output", "check", "att", "sol"):
        (folder / kind).mkdir()
    # the loader lists sol/ for a Communication task's stubs: the sample bots, none a stub
    for bot in problem.bots:
        shutil.copyfile(bot.path, folder / "sol" / bot.path.name)
    for i, (_, case) in enumerate(named):
        (folder / "input" / f"input{i}.txt").write_text(case.text(game), encoding="utf-8")
        (folder / "output" / f"output{i}.txt").write_text(case.expected + "\n",
                                                          encoding="utf-8")
    manager = folder / "check" / "manager"
    manager.write_text(bundle.single_file(game, problem.replies), encoding="utf-8")
    manager.chmod(0o755)
    (folder / "att" / "protocol.md").write_text(game.protocol_text() or "", encoding="utf-8")
