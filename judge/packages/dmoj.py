"""A DMOJ problem: init.yml with a bridged interactor (testlib's contract) that is the
judge's opponent as one Python file, and the cases, each worth the points perfect play
earns there, made whole numbers by `point_scale` (a tie's points are partial points)."""

from __future__ import annotations

from pathlib import Path

from judge.interactor import point_scale
from judge.packages import bundle
from judge.packages.problem import Problem


def write(problem: Problem, folder: Path) -> None:
    """The problem in `folder`: init.yml, interactor.py, the cases (``NAME.in`` and
    ``NAME.ans``) and the protocol page (statement.md) for the problem's description."""
    game = problem.game
    lines = ["# the judge's opponent, run by DMOJ's bridged grader under testlib's contract",
             "interactive:", "  files: interactor.py", "  lang: PY3", "  type: testlib",
             "  feedback: true", "test_cases:"]
    for name, case in problem.named():
        (folder / f"{name}.in").write_text(case.text(game), encoding="utf-8")
        (folder / f"{name}.ans").write_text(case.expected + "\n", encoding="utf-8")
        points = round(getattr(game.points, case.expected) * point_scale(game))
        lines.append(f"- {{in: {name}.in, out: {name}.ans, points: {points}}}")
    (folder / "init.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "interactor.py").write_text(bundle.single_file(game, problem.replies),
                                          encoding="utf-8")
    (folder / "statement.md").write_text(game.protocol_text() or "", encoding="utf-8")
