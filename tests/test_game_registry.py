"""Games found by their entry points (group ``judge.games``): the built-ins, a plugin that
brings a new game, a broken one, and `judge games`."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import judge.games as games
from judge.cli import main
from judge.games import BUILTIN, GROUP, GameLoadError, Registry, load_game
from judge.solvers import solver_for

ROOT = Path(__file__).resolve().parent.parent
NEW_GAMES = {"tictactoe", "octal", "connect4"}

PLUGIN = '''
from judge.games.tictactoe import TicTacToe


class Corners(TicTacToe):
    """Tic-tac-toe under another name: a game that a package outside the judge brings."""

    name = "corners"
'''


def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str,
            entry: str) -> Registry:
    """A package `package` 1.0 on the path registering the game `entry` ("name = target"),
    and a fresh registry in place of `GAMES`, which will read it."""
    info = tmp_path / f"{package}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    monkeypatch.setattr(games, "GAMES", registry)
    return registry


def test_pyproject_registers_every_game_of_the_judge_by_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    registered = project["entry-points"][GROUP]
    assert set(registered) == set(BUILTIN) | NEW_GAMES
    assert {n: registered[n] for n in BUILTIN} == BUILTIN  # the fast path says the same


def test_the_installed_games_are_found_by_their_entry_points() -> None:
    registry = Registry()
    assert set(registry) == set(BUILTIN) | NEW_GAMES
    for name in registry:
        assert load_game(name).name == name


def test_a_built_in_game_is_found_without_reading_the_entry_points() -> None:
    registry = Registry()
    assert "nim" in registry and registry["nim"] == BUILTIN["nim"]
    assert registry._found is None


def test_a_plugin_package_brings_a_game_with_its_solver(tmp_path, monkeypatch) -> None:
    (tmp_path / "corners_game.py").write_text(PLUGIN)
    registry = install(tmp_path, monkeypatch, "corners-game", "corners = corners_game:Corners")
    assert "corners" in registry
    assert registry.sources()["corners"].package == "corners-game 1.0"
    game = load_game("corners")
    assert solver_for(game).evaluate(game.start()).value == "draw"


def test_a_broken_plugin_is_named_and_breaks_no_other_game(tmp_path, monkeypatch,
                                                           capsys) -> None:
    install(tmp_path, monkeypatch, "broken-game", "broken = no_such_module_here:Game")
    with pytest.raises(GameLoadError, match=r"'broken'.*broken-game 1\.0.*ModuleNotFound"):
        load_game("broken")
    assert load_game("nim").name == "nim"
    assert load_game("tictactoe").name == "tictactoe"
    assert main(["games"]) == 1
    out, err = capsys.readouterr()
    assert "broken" in out and "tictactoe" in out
    assert "judge: error: game 'broken'" in err and "Traceback" not in err


def test_judge_games_lists_rules_variants_and_where_each_comes_from(capsys) -> None:
    assert main(["games", "--format", "json"]) == 0
    rows = {r["game"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) >= set(BUILTIN) | NEW_GAMES
    assert rows["octal"]["rules"] == "code=0.77"
    assert "dawson-chess (code=0.137)" in rows["octal"]["variants"]
    assert rows["connect4"]["rules"] == "rows=4 cols=4 connect=4"
    assert rows["nim"]["class"] == "judge.games.nim:Nim"
    assert rows["nim"]["from"].startswith("judge ")
    assert all(r["error"] is None for r in rows.values())


def test_docs_name_every_method_a_game_must_have_and_no_other() -> None:
    from judge.games.base import Game

    page = (ROOT / "docs" / "games.md").read_text()
    block = page.split("### 1. The rules", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    named = {line.split("def ", 1)[1].split("(", 1)[0] for line in block.splitlines()
             if line.strip().startswith("def ")}
    assert named == Game.__abstractmethods__


def test_a_game_derived_from_a_built_in_one_keeps_its_solver_under_another_name() -> None:
    from judge.games.nim import Nim
    from judge.games.nim.solver import NimSolver

    class Heaps(Nim):
        name = "heaps"

    assert type(solver_for(Heaps())) is NimSolver  # Bouton's rule, no search of the heaps
