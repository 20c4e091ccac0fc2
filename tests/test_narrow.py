"""Tables at 80 columns: every line of a command's table fits, long paths keep their end,
and --wide (or another format) gives everything in full."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from judge.report import Fit, fitted, shortened
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
#: a folder deep enough that a path through it takes more than 80 columns alone
DEEP = "submissions-of-the-spring-term-class-of-two-thousand-and-twenty-six/group-b"


def widest(text: str) -> int:
    """The longest line of `text`, in characters."""
    return max(map(len, text.splitlines()))


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A database with a grading run (run 1), a tournament (run 2) and a match (run 3) of
    Nim bots whose paths are long: alice's, bob's, carol's main.py, and one that crashes."""
    folder = tmp_path_factory.mktemp("narrow")
    bots = []
    for name, source in [("alice", BOTS / "nim/optimal.py"), ("bob", BOTS / "nim/greedy.py"),
                         ("carol", BOTS / "nim/random.py"),
                         ("dave", ROOT / "tests/bots/garbage.py")]:
        path = folder / DEEP / name / "main.py"
        path.parent.mkdir(parents=True)
        shutil.copy(source, path)
        bots.append(str(path))
    starts = folder / "starts.txt"
    starts.write_text("1 2 4\n3 4 5\n2 2 7\n")
    db = str(folder / "r.db")
    common = ["--game", "nim", "--rules", "misere=on", "--db", db, "--jobs", "2"]
    printed = []
    for args in (["run", "--tests", str(starts), "--seats", "both", "--details", *bots],
                 ["tournament", "--starts", str(starts), "--details", *bots, "optimal"],
                 ["match", "--starts", str(starts), "--max-games", "6", "--details",
                  *bots[:2]]):
        out = judge(*args, *common, cwd=folder)
        assert out.returncode in (0, 1), out.stderr
        printed.append(out.stdout)
    (folder / "printed.txt").write_text("".join(printed))
    return folder


def test_run_tournament_and_match_print_tables_that_fit_80_columns(played):
    printed = (played / "printed.txt").read_text()
    assert printed.count("rules: misere=on") == 3
    assert widest(printed) <= 80 and DEEP not in printed


COMMANDS = [("show", "1"), ("show", "1", "--details"), ("show", "2", "--details"),
            ("show", "3", "--details"), ("show",)]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_line_of_a_table_fits_80_columns_by_default(played, command):
    out = judge(*command, "--db", str(played / "r.db"), cwd=played)
    assert out.returncode == 0, out.stderr
    assert widest(out.stdout) <= 80, out.stdout
    assert DEEP not in out.stdout  # the paths were shortened


@pytest.mark.parametrize("command", COMMANDS[:4], ids=" ".join)
def test_a_shortened_path_keeps_its_end_and_the_rules_have_a_line(played, command):
    out = judge(*command, "--db", str(played / "r.db"), cwd=played).stdout
    assert re.search(r"(^| )…[^ ]*/alice/main\.py ", out, re.M), out
    assert "rules: misere=on" in out.splitlines()


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_wide_keeps_every_path_and_column(played, command):
    out = judge(*command, "--wide", "--db", str(played / "r.db"), cwd=played)
    assert out.returncode == 0, out.stderr
    if command != ("show",):
        assert str(played / DEEP / "alice/main.py") in out.stdout
    assert "nim misere=on" in out.stdout
    assert widest(out.stdout) > 80


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_a_tournaments_standings_give_slow_moves_and_what_each_bot_used(played, fmt):
    out = judge("show", "2", "--wide", "--format", fmt, "--db", str(played / "r.db"),
                cwd=played).stdout
    header = next(line for line in out.splitlines() if line.startswith("rank"))
    assert re.search(r"accuracy\W+slow\W+cpu\W+memory\W+failures", header), header
    alice = next(line for line in out.splitlines() if "alice/main.py" in line)
    assert re.search(r"\d\.\d+ s", alice) and re.search(r"\d+(\.\d+)? [KM]iB", alice), alice


def test_the_narrow_games_table_gives_the_messages_under_it(played):
    narrow = judge("show", "1", "--details", "--db", str(played / "r.db"), cwd=played).stdout
    wide = judge("show", "1", "--details", "--wide", "--db", str(played / "r.db"),
                 cwd=played).stdout
    assert "hello, judge" in wide
    assert "message" not in narrow  # no column of them: lines under the table
    assert "game 24: a move is two whole numbers" in narrow
    assert "hello, judge" in " ".join(narrow.split())  # wrapped, not cut
    assert "loss (" in narrow  # the verdict beside the result


@pytest.mark.parametrize("fmt", ["markdown", "csv"])
def test_other_formats_keep_the_full_paths(played, fmt):
    out = judge("show", "2", "--details", "--format", fmt, "--db", str(played / "r.db"),
                cwd=played).stdout
    assert str(played / DEEP / "alice/main.py") in out
    assert "…" not in out


def test_json_keeps_the_full_paths(played):
    data = json.loads(judge("show", "1", "--format", "json", "--db", str(played / "r.db"),
                            cwd=played).stdout)
    assert str(played / DEEP / "alice/main.py") in [b["bot"] for b in data["bots"]]


def test_a_crosstable_of_many_bots_is_drawn_in_blocks_that_fit(tmp_path):
    players = [f"level:{n}" for n in range(10)]
    out = judge("tournament", "--game", "nim", "--db", str(tmp_path / "r.db"), *players,
                "optimal", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert widest(out.stdout) <= 80
    heads = [line.split() for line in out.stdout.splitlines() if line.startswith("bot ")]
    assert [h[1:] for h in heads] == [[f"#{j}" for j in range(1, 9)], ["#9", "#10", "#11"]]
    wide = judge("show", "1", "--wide", "--db", str(tmp_path / "r.db"), cwd=tmp_path).stdout
    assert [f"#{j}" for j in range(1, 12)] in [line.split()[1:] for line in wide.splitlines()]


def test_shortened_keeps_the_end_of_a_path_from_a_slash():
    assert shortened("/home/teacher/class/alice/main.c", 16, keep_end=True) == "…/alice/main.c"
    assert shortened("move 7: 3 (right: 1, 5)", 10) == "move 7: 3…"
    assert shortened("short", 10) == "short"


def test_fitted_shortens_the_widest_column_first_then_drops():
    matrix = [["x" * 60, "y" * 40]]
    cells, heads = fitted(matrix, ["a", "b"], Fit({"a": "text", "b": "text"}))
    assert heads == ["a", "b"]
    assert len(cells[0][0]) + len(cells[0][1]) + 2 <= 80
    assert abs(len(cells[0][0]) - len(cells[0][1])) <= 1  # shared out, not one cut away
    cells, heads = fitted([["1"] * 30], [f"column{i}" for i in range(30)],
                          Fit({}, drop=tuple(f"column{i}" for i in range(29, 0, -1))))
    assert sum(len(h) + 2 for h in heads) + 2 * (len(heads) - 1) <= 80
    assert heads[0] == "column0"


def test_a_match_heading_escapes_the_control_characters_of_a_bot_name(tmp_path):
    odd = tmp_path / "a\x1b[31mred"
    odd.mkdir()
    shutil.copy(BOTS / "nim/greedy.py", odd / "main.py")
    out = judge("match", "--game", "nim", "--max-games", "2", "--db", "m.db",
                str(odd / "main.py"), str(BOTS / "nim/random.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout and "\\x1b[31mred/main.py" in out.stdout


def test_details_at_80_columns_wrap_the_right_move_instead_of_cutting_it(played):
    details = (played / "printed.txt").read_text().split("\ntournament 2:")[0]
    assert widest(details) <= 80
    games = details[details.index("\ngame "):]
    assert "(right" in games and not re.search(r"\(r[a-z: 0-9,]*…", games)  # not cut
    shown = json.loads(judge("show", "1", "--db", "r.db", "--format", "json",
                             cwd=played).stdout)
    words = " ".join(games.split())
    for game in shown["games"]:
        right = (game["first_mistake"] or {}).get("best_moves")
        if right:
            assert f"right: {', '.join(right)}" in words


def test_a_wrapped_cell_takes_lines_of_its_own_as_tabulate_draws_it() -> None:
    from tabulate import tabulate

    from judge.report import simple_table

    matrix = [["1", "move 11: 1 (right: 2;\nit lost the game)", "x"], ["2", "", "y\nz"]]
    assert simple_table(matrix, ["game", "first_mistake", "slow"]) == tabulate(
        matrix, headers=["game", "first_mistake", "slow"], tablefmt="simple",
        disable_numparse=True)
    cells, _ = fitted([["1", "move 11: 1 (right: 2, 3, 4, 5, 6, 7; it lost the game) " * 3]],
                      ["game", "first_mistake"], Fit({"first_mistake": "wrap"}))
    assert max(map(len, cells[0][1].splitlines())) <= 80 - 2 - 6
    assert " ".join(cells[0][1].split()) == " ".join(
        ("move 11: 1 (right: 2, 3, 4, 5, 6, 7; it lost the game) " * 3).split())
