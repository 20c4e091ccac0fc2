"""One suite over every installed game, as OpenSpiel's random simulation test: the generic
game suite of `judge games --check` (judge/gamecheck.py) passes on every game the judge has
and on the plugin example, and catches games broken on purpose, naming the position and
the move."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.gamecheck import Check, Failure, Suite
from judge.games import GAMES, load_game
from judge.games.base import Game
from judge.games.tictactoe import Grid, TicTacToe

ROOT = Path(__file__).resolve().parent.parent
#: small rules for the judge's own games, so that solving stays quick
SMALL = {"chopsticks": "hands=2", "connect4": "rows=3 cols=4 connect=3"}


def failures(game: Game) -> dict[Check, list[Failure]]:
    """The failures of each check of the suite on `game` (a skipped check fails here, but
    for the transcripts of a game of these tests, which has no protocol page)."""
    found = {}
    for outcome in Suite(game).run():
        if outcome.check is Check.TRANSCRIPTS and type(game).__module__ == __name__:
            assert outcome.skipped is not None and "no protocol page" in outcome.skipped
            continue
        assert outcome.skipped is None, outcome.skipped
        assert outcome.tried or outcome.check is Check.PERFECT, outcome.check
        found[outcome.check] = outcome.failures
    return found


@pytest.mark.parametrize("name", list(GAMES))
def test_every_installed_game_passes_the_generic_suite(name: str) -> None:
    found = failures(load_game(name, SMALL.get(name, "")))
    assert {check: [f.text() for f in fs] for check, fs in found.items()} == {
        check: [] for check in Check}


class ListsTakenCells(TicTacToe):
    """Tic-tac-toe whose legal moves include the cells already taken."""

    def legal_moves(self, pos: Grid) -> list[int]:
        return [] if self.is_over(pos) else list(range(1, 10))


class ForgetsTheLastRow(TicTacToe):
    """Tic-tac-toe whose notation leaves out the marks of the bottom row."""

    def format_position(self, pos: Grid) -> str:
        return super().format_position(pos)[:-3] + "..."


class WritesTheNextCell(TicTacToe):
    """Tic-tac-toe that tells a bot each move as the cell after the one played."""

    def format_move(self, move: int, pos: Grid) -> str:
        return str(move % 9 + 1)


def test_a_listed_move_the_rules_refuse_is_named_with_its_position() -> None:
    found = failures(ListsTakenCells())
    said = [f.text() for f in found[Check.RULES]]
    assert said, "no failure found"
    taken = [f for f in found[Check.RULES] if "illegal-move" in f.got]
    assert taken, said
    # the position after X took the cell: the move listed is that very cell
    first = taken[0]
    assert first.move is not None and "is taken by" in first.got
    cell = int(first.move) - 1
    assert first.position.replace("/", "")[cell] in "xo"
    assert first.expected.startswith("a legal move")


def test_a_position_notation_that_does_not_read_back_is_caught() -> None:
    found = failures(ForgetsTheLastRow())
    assert found[Check.RULES] == []
    said = [f.text() for f in found[Check.CODEC]]
    assert said and all("read back" in s for s in said), said
    lost = next(f for f in found[Check.CODEC] if "the same legal moves" in f.expected)
    assert lost.position.endswith("/...") and lost.expected.endswith(")")
    assert lost.got.endswith("7, 8, 9")  # the bottom row read back empty


def test_a_move_written_as_another_is_caught_at_the_move() -> None:
    found = failures(WritesTheNextCell())
    wrong = [f for f in found[Check.RULES] if "the move it was written from" in f.expected]
    assert wrong, [f.text() for f in found[Check.RULES]]
    assert (wrong[0].position, wrong[0].move, wrong[0].got) == (".../.../...", "2", "2")
    assert wrong[0].expected.startswith("the line '2' read back as 1,")  # cell 1, said "2"


def judge_games(*args: str, path: list[Path]) -> subprocess.CompletedProcess[str]:
    """`judge games ARGS` with the folders `path` first on its PYTHONPATH."""
    folders = [*map(str, path), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(folders))
    return subprocess.run([sys.executable, "-m", "judge", "games", *args], capture_output=True,
                          text=True, timeout=600, cwd=ROOT, env=env)


def registered(folder: Path, name: str, entry: str) -> Path:
    """`folder`, holding an installed package `name` 1.0 that registers the game `entry`."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[judge.games]\n{entry}\n")
    return folder


def test_judge_games_check_passes_the_plugin_example(tmp_path: Path) -> None:
    site = registered(tmp_path, "subtraction_game",
                      "subtraction = subtraction_game:Subtraction")
    out = judge_games("--check", "subtraction", path=[site, ROOT / "examples/plugin-game"])
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "checking subtraction heap=21 take=1,2,3 (from subtraction_game 1.0)"
    assert [line.split()[0] for line in lines[1:]] == ["ok"] * len(Check)
    assert lines[-2:] == ["ok       bot in seat 2  1 game",
                          "ok       transcripts    2 transcripts"]  # take=1,3,4's too


def test_judge_games_check_fails_a_broken_plugin_with_status_1(tmp_path: Path) -> None:
    site = registered(tmp_path, "brokentoe", "brokentoe = brokentoe:BrokenToe")
    (site / "brokentoe.py").write_text(
        "from judge.games.tictactoe import TicTacToe\n\n\n"
        "class BrokenToe(TicTacToe):\n    name = 'brokentoe'\n\n"
        "    def format_move(self, move, pos):\n        return str(move % 9 + 1)\n")
    out = judge_games("--check", "brokentoe", path=[site])
    assert out.returncode == 1, out.stdout + out.stderr
    assert "FAILED   rules" in out.stdout
    assert ("  position .../.../..., move 2: expected the line '2' read back as 1, the move "
            "it was written from, got 2") in out.stdout
    assert out.stderr.startswith("judge: brokentoe: ") and "checks failed" in out.stderr


@pytest.mark.parametrize(("args", "said"), [
    (["--check", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["--check", "connect4", "--rules", "rows=0"], "rows"),
    (["--rules", "rows=3"], "--rules and --seed go with --check GAME"),
])
def test_judge_games_check_refuses_bad_input_in_one_line_with_status_2(
        args: list[str], said: str) -> None:
    out = judge_games(*args, path=[])
    assert out.returncode == 2, out.stdout + out.stderr
    assert said in out.stderr and len(out.stderr.splitlines()) == 1 and out.stdout == ""


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_judge_games_check_passes_every_installed_game_under_its_own_rules(name: str) -> None:
    out = judge_games("--check", name, path=[])
    assert out.returncode == 0, out.stdout + out.stderr
    assert [line.split()[0] for line in out.stdout.splitlines()[1:]] == ["ok"] * len(Check)
