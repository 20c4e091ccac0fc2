"""What every contest package of a game holds, built once (`Problem`), and the folder it is
written to: whole or not at all."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.games.base import Game, InputError
from judge.interactor import Case
from judge.packages.replies import reply_table
from judge.solvers import solver_for
from judge.solvers.base import order
from judge.testsets import default_tests

#: the judge's project folder (a source checkout): its source, and the sample bots
PROJECT = Path(__file__).resolve().parent.parent.parent
BOTS = PROJECT / "bots"


@dataclass(frozen=True)
class Bot:
    """A sample bot a package carries as a submission, and whether it gets every case
    right ("accepted") or not ("wrong_answer")."""

    path: Path
    verdict: str


@dataclass(frozen=True)
class Problem:
    """A game's contest problem: its cases (the first of each seat is a sample), the
    opponent's replies in every game they can lead to, and the sample bots."""

    game: Game
    cases: tuple[Case, ...]
    samples: tuple[Case, ...]
    replies: dict[str, str]
    bots: tuple[Bot, ...]
    #: "first" or "both", and the user's starts (`judge run --tests`), if given
    seats: str = "first"
    starts: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """The problem's name: the game and the rules that are not its defaults."""
        changed = [f"{k}={v}" for k, v in self.game.rules.items()
                   if v != self.game.defaults.get(k)]
        return self.game.name.capitalize() + (f" ({' '.join(changed)})" if changed else "")

    def named(self) -> list[tuple[str, Case]]:
        """Every case with its file name (without suffix), samples first: ``seat1-001``."""
        numbers = {1: 0, 2: 0}
        out = []
        for case in self.cases:
            numbers[case.seat] += 1
            out.append((f"seat{case.seat}-{numbers[case.seat]:03d}", case))
        return out


def build(game: Game, starts: list[Any] | None, seats: str,
          choose: Callable[[Any], Any] | None, bots: Path = BOTS) -> Problem:
    """The problem of `game`: `starts` (or the default test set of each seat) as cases of
    the first seat, or of both (`seats`), and the replies `choose` plays in them (none
    without it: a package that runs the judge itself)."""
    solver = solver_for(game)
    cases, positions = [], []
    for seat in (1, 2) if seats == "both" else (1,):
        pool = starts if starts is not None else default_tests(game, seat == 1)
        for pos in pool:
            if game.is_over(pos):
                continue
            v = order(solver.evaluate(pos).value) * (1 if game.mover(pos) == seat - 1 else -1)
            cases.append(Case(game.format_position(pos), seat,
                              "win" if v > 0 else "tie" if v == 0 else "loss"))
            positions.append((pos, seat - 1))
    if not cases:
        raise InputError("no case to export: every start is already the end of the game")
    samples = tuple(next(c for c in cases if c.seat == s) for s in sorted({c.seat for c in cases}))
    replies = reply_table(game, positions, choose) if choose is not None else {}
    return Problem(game, tuple(cases), samples, replies,
                   tuple(sample_bots(game, bots / game.name)), seats,
                   tuple(game.format_position(p) for p in starts or ()))


def sample_bots(game: Game, folder: Path) -> list[Bot]:
    """The game's sample bots: ``optimal`` (``optimal_KEY`` for a rule KEY not at its
    default) is accepted, those not named optimal are wrong answers (they lose a case)."""
    if not folder.is_dir():
        return []
    changed = [k for k, v in game.rules.items() if v != game.defaults.get(k)]
    perfect = f"optimal_{changed[0]}" if len(changed) == 1 else "optimal" if not changed else ""
    bots = []
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        if path.stem == perfect:
            bots.append(Bot(path, "accepted"))
        elif not path.stem.startswith("optimal"):
            bots.append(Bot(path, "wrong_answer"))
    return bots


def check_output(output: Path, force: bool) -> None:
    """Refuse (`InputError`) an output that is a file, or a folder with files in it without
    `force`."""
    if output.is_symlink() or output.exists() and not output.is_dir():
        raise InputError(f"--output {output} is not a folder")
    if output.is_dir() and any(output.iterdir()) and not force:
        raise InputError(f"--output {output} is a folder with files in it: give --force to "
                         "replace it")


def write_whole(output: Path, force: bool, fill: Callable[[Path], None]) -> None:
    """Write a package into `output` whole or not at all: `fill` writes it into a new folder
    beside it, which then takes its place (the old one's, with `force`)."""
    check_output(output, force)
    parent = output.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{output.name}.", dir=parent))
    except OSError as exc:
        raise InputError(f"--output {output}: cannot write there: {exc.strerror or exc}") from None
    old = None
    try:
        fill(staging)
        os.chmod(staging, 0o755)
        if output.is_dir():
            old = Path(tempfile.mkdtemp(prefix=f".{output.name}.old.", dir=parent))
            os.replace(output, old / "package")
        os.replace(staging, output)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None and (old / "package").exists() and not output.exists():
            os.replace(old / "package", output)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def source_files(folder: str) -> Iterator[tuple[Path, str]]:
    """The judge's source, for a package that installs the judge: (file, its name under
    `folder`) for pyproject.toml, README.md and the package (without compiled files)."""
    if not (PROJECT / "pyproject.toml").is_file():
        raise InputError("the judge's source is not at hand (no pyproject.toml beside its "
                         "package): export from the judge's project folder's install")
    for name in ("pyproject.toml", "README.md"):
        yield PROJECT / name, f"{folder}/{name}"
    for path in sorted((PROJECT / "judge").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path, f"{folder}/{path.relative_to(PROJECT).as_posix()}"
