"""The narrow facets: a consumer takes the facets it reads, not the whole `Game`. The generic
solver takes `Rules`, so that an object that has them and nothing else (not a `Game`) is
solved; and mypy holds a function typed to take `Rules` to the rules (it cannot reach for
the notation), as it holds this file's games to the Protocols they are given as."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from judge.games.base import Facts, Game, Rules, Seat
from judge.solvers import Solvable
from judge.solvers.base import Outcome
from judge.solvers.generic import GenericSolver

ROOT = Path(__file__).resolve().parent.parent


class TakeAway:
    """Rules alone: a heap of `size` counters, each move takes 1 or 2 of them, and the
    player who takes the last one wins. A position is (counters left, seat to move); its
    number (the optional `Encoded` facet) is ``2 * left + seat``."""

    def __init__(self, size: int) -> None:
        self.size = size

    def start(self) -> tuple[int, Seat]:
        return (self.size, 0)

    def mover(self, pos: tuple[int, Seat]) -> Seat:
        return pos[1]

    def legal_moves(self, pos: tuple[int, Seat]) -> list[int]:
        return [n for n in (1, 2) if n <= pos[0]]

    def play(self, pos: tuple[int, Seat], move: int) -> tuple[int, Seat]:
        return (pos[0] - move, 1 - pos[1])

    def is_over(self, pos: tuple[int, Seat]) -> bool:
        return pos[0] == 0

    def winner(self, pos: tuple[int, Seat]) -> Seat | None:
        return 1 - pos[1]  # the player who took the last counter

    def encode(self, pos: tuple[int, Seat]) -> int:
        return 2 * pos[0] + pos[1]


def test_the_generic_solver_solves_a_game_of_rules_alone() -> None:
    solver = GenericSolver(TakeAway(10))
    for left in range(11):
        ev = solver.evaluate((left, 0))
        lost = left % 3 == 0  # the mover loses exactly on a multiple of 3
        assert ev.value is (Outcome.LOSS if lost else Outcome.WIN), left
        assert ev.remoteness == (2 * (left // 3) if lost else 2 * (left // 3) + 1), left
        assert ev.best_moves == ([] if left == 0 else [1, 2][:left] if lost else [left % 3])
    assert solver.stats([(10, 0)]) == {"positions": 20, "win": 13, "loss": 7, "draw": 0}
    assert solver.choose((10, 0)) == 1
    assert solver.described is None  # no facts, so no table on disk under a made-up name


@pytest.mark.slow
def test_mypy_holds_a_function_of_the_rules_to_the_rules(tmp_path: Path) -> None:
    source = tmp_path / "narrow.py"
    source.write_text(
        "from typing import Any\n"
        "from judge.games.base import Game, Rules\n"
        "def ok(game: Rules[Any, Any]) -> bool:\n"
        "    return game.is_over(game.play(game.start(), game.legal_moves(game.start())[0]))\n"
        "def reaches(game: Rules[Any, Any]) -> None:\n"
        "    game.format_position(game.start())\n"
        "def adapted(game: Game[Any, Any]) -> bool:\n"
        "    return ok(game)\n")
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          str(source), __file__], capture_output=True, text=True, cwd=ROOT)
    mine = (str(source), str(Path(__file__).relative_to(ROOT)))  # (strict on these alone)
    errors = [line for line in run.stdout.splitlines()
              if ": error:" in line and line.startswith(mine)]
    assert len(errors) == 1, run.stdout
    assert "narrow.py:6:" in errors[0]
    assert '"Rules[Any, Any]" has no attribute "format_position"' in errors[0]


def members(proto: type) -> dict[str, str]:
    """The public members a Protocol declares (its own and its Protocol bases'), each with
    its signature as `Game` writes it: a method's, a property's type."""
    found = {}
    for cls in reversed(proto.__mro__):
        if not getattr(cls, "_is_protocol", False) or cls.__module__ == "typing":
            continue
        for name, member in vars(cls).items():
            if name.startswith("_"):
                continue
            if isinstance(member, property):
                assert member.fget is not None
                found[name] = f"ClassVar[{member.fget.__annotations__['return']}]"
            else:
                found[name] = str(inspect.signature(member)).replace("P_in", "P")
    return found


def test_every_game_has_the_facets_with_the_signatures_of_game() -> None:
    for proto in (Rules, Facts, Solvable):
        for name, written in members(proto).items():
            ours = vars(Game).get(name)
            if ours is None or not callable(ours):
                assert written == Game.__annotations__[name], (proto.__name__, name)
            else:
                assert written == str(inspect.signature(ours)), (proto.__name__, name)
    assert set(members(Rules)) == {"start", "mover", "legal_moves", "play", "is_over", "winner"}
    assert set(members(Solvable)) == set(members(Rules)) | {"solver", "describe"}
