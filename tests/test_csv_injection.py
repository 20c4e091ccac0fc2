"""CSV injection: every CSV the judge writes (the grade book, `--format csv` of every
command, the tables of `--output-dir`) gives a name a spreadsheet would take for a formula
as text, behind a `'` (OWASP's rule), and leaves the judge's own numbers numbers."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from judge.exports import gradebook
from judge.report import Number, render_rows
from judge.summaries import BotRow, View
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
#: display names (the bots' folders) that a spreadsheet would read as a formula
FORMULAS = ['=HYPERLINK("x.example","y")', "+plus", "-minus", "@at", "\ttab", "\rcr"]
#: a name with `=` further in: text a spreadsheet reads as text
MIDDLE = "mid=dle"
NAMES = [*FORMULAS, MIDDLE]
#: the bots' paths, as the commands are given them (after `--`: one starts with `-`)
BOTS = [f"{name}/main.py" for name in NAMES]


def shown(text: str) -> str:
    """`text` as any cell of the judge shows it: a carriage return escaped."""
    return text.replace("\r", "\\x0d")


def as_text(names: list[str], suffix: str = "") -> list[str]:
    """The cells the names (with `suffix`) should be: each of `FORMULAS` behind a `'`,
    `MIDDLE` as it is."""
    return sorted(("'" if name in FORMULAS else "") + shown(name) + suffix for name in names)


def table(text: str) -> list[dict[str, str]]:
    """The rows of a CSV, read back as Python's csv module reads it."""
    return list(csv.DictReader(io.StringIO(text)))


def assert_no_formula(rows: list[dict[str, str]]) -> None:
    """No cell but a number starts with what a spreadsheet takes for a formula."""
    for row in rows:
        for cell in row.values():
            if cell.startswith(("=", "+", "-", "@", "\t", "\r")):
                float(cell)  # a number: a ValueError fails the test


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a bot (Nim's random player) in a folder of each of `NAMES`, and one
    start."""
    where = tmp_path_factory.mktemp("names")
    for name in NAMES:
        (where / name).mkdir()
        (where / name / "main.py").write_bytes((ROOT / "bots" / "nim" / "random.py").read_bytes())
    (where / "starts.txt").write_text("3 4 5\n")
    return where


def command(folder: Path, *args: str) -> str:
    """What `judge ARGS` prints in `folder`, which must succeed."""
    out = judge(*args, cwd=folder)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def graded(folder: Path) -> tuple[Path, str]:
    """The folder with run 1 of `r.db`, a grading run of the bots, and what
    `judge run --format gradebook` printed of it."""
    out = command(folder, "run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db",
                  "--jobs", "1", "--format", "gradebook", "--", *BOTS)
    return folder, out


def test_run_gradebook_names_start_with_a_quote_and_scores_stay_numbers(
        graded: tuple[Path, str]) -> None:
    rows = table(graded[1])
    assert as_text([r["name"] for r in rows]) == as_text(NAMES)
    assert all(float(r["score"]) >= 0 and r["max"] == "1" for r in rows)
    assert_no_formula(rows)


def test_show_gradebook_is_the_same_csv(graded: tuple[Path, str]) -> None:
    folder, out = graded
    assert command(folder, "show", "1", "--db", "r.db", "--format", "gradebook") == out


def test_run_csv_and_its_output_dir_give_each_path_as_text(folder: Path) -> None:
    command(folder, "run", "--game", "nim", "--tests", "starts.txt", "--db", "c.db", "--jobs",
            "1", "--format", "csv", "--output", "run.csv", "--output-dir", "run-csv", "--",
            *BOTS)
    for text in ((folder / "run.csv").read_text(), (folder / "run-csv" / "bots.csv").read_text()):
        rows = table(text)
        assert sorted(r["bot"] for r in rows) == as_text(NAMES, "/main.py")
        assert all(r["games"] == "1" for r in rows)
        assert_no_formula(rows)
    games = table((folder / "run-csv" / "games.csv").read_text())
    assert sorted(r["bot"] for r in games) == as_text(NAMES, "/main.py")
    assert_no_formula(games)


@pytest.mark.parametrize("args, column, suffix", [
    ([], "bot", "/main.py"),
    (["--details"], "bot", "/main.py"),
    (["--share"], "bot", ""),  # the display names
])
def test_show_csv_gives_each_name_as_text(graded: tuple[Path, str], args: list[str],
                                          column: str, suffix: str) -> None:
    rows = table(command(graded[0], "show", "1", "--db", "r.db", "--format", "csv", *args))
    assert sorted(r[column] for r in rows) == as_text(NAMES, suffix)
    assert_no_formula(rows)


def test_the_csv_list_of_runs_gives_the_bots_as_text(graded: tuple[Path, str]) -> None:
    (row,) = table(command(graded[0], "show", "--db", "r.db", "--format", "csv"))
    assert row["bots"] == "'" + ", ".join(map(shown, NAMES))
    assert row["id"] == "1"


def test_tournament_csv_gives_each_bot_as_text_and_ratings_as_numbers(folder: Path) -> None:
    command(folder, "tournament", "--game", "nim", "--starts", "starts.txt", "--db", "t.db",
            "--jobs", "1", "--gauntlet", "optimal", "--format", "csv", "--output", "t.csv",
            "--output-dir", "t-csv", "--", *BOTS)
    out = (folder / "t.csv").read_text()
    for text in (out, (folder / "t-csv" / "standings.csv").read_text(),
                 (folder / "t-csv" / "crosstable.csv").read_text()):
        rows = table(text)
        assert sorted(r["bot"] for r in rows if r["bot"] != "optimal") == \
            as_text(NAMES, "/main.py")
        assert_no_formula(rows)
    standings = table(out)
    assert all(float(r["rating"]) for r in standings)
    details = table(command(folder, "show", "1", "--db", "t.db", "--format", "csv",
                            "--details"))
    assert len(details) == 2 * len(NAMES)
    assert_no_formula(details)
    assert_no_formula(table((folder / "t-csv" / "games.csv").read_text()))


@pytest.mark.parametrize("pair", [FORMULAS[0:2], FORMULAS[2:4], FORMULAS[4:6]])
def test_match_csv_gives_both_bots_as_text(folder: Path, pair: list[str]) -> None:
    db = f"m-{FORMULAS.index(pair[0])}.db"
    command(folder, "match", "--game", "nim", "--max-games", "2", "--seed", "5", "--db", db,
            "--jobs", "1", "--format", "csv", "--output", db + ".csv", "--output-dir",
            db + "-csv", "--", *(f"{name}/main.py" for name in pair))
    (row,) = table((folder / (db + ".csv")).read_text())
    assert [row["bot_a"], row["bot_b"]] == ["'" + shown(name) + "/main.py" for name in pair]
    assert_no_formula([row, *table((folder / (db + "-csv") / "games.csv").read_text())])


def test_a_match_csv_keeps_a_negative_llr_a_number_and_a_middle_equals_sign(
        folder: Path) -> None:
    (row,) = table(command(folder, "match", "--game", "nim", "--max-games", "8", "--seed",
                           "5", "--db", "mid.db", "--jobs", "1", "--format", "csv", "--",
                           f"{MIDDLE}/main.py", "optimal"))
    assert row["bot_a"] == f"{MIDDLE}/main.py"
    assert row["llr"].startswith("-") and float(row["llr"]) < 0
    assert row["elo"].startswith("'-")  # "-300.0 ± 500.0" is text, not a number


def test_nim_batch_csv_gives_each_program_as_text(tmp_path: Path) -> None:
    for name in NAMES:
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.py").write_bytes((ROOT / "solutions" / "correct.py")
                                                  .read_bytes())
    for args in ([], ["--details"]):
        rows = table(command(tmp_path, "nim-batch", "--format", "csv", *args, "--", *BOTS))
        assert sorted(set(r["program"] for r in rows)) == as_text(NAMES, "/main.py")
        assert_no_formula(rows)


def test_a_gradebooks_negative_score_stays_a_number_beside_a_quoted_name() -> None:
    bots = [BotRow("-3 points", 1, 0, 0, 1, -3.0, 4.0, {}, 0, None)]
    assert list(csv.reader(io.StringIO(gradebook(bots, View())))) == [
        ["name", "score", "max"], ["'-3 points", "-3", "4"]]


def test_csv_writes_the_judges_numbers_as_they_are_and_text_behind_a_quote() -> None:
    row = {"int": -3, "float": -12.5, "rating": Number("-12"), "name": "-12", "list": ["=x"],
           "plain": "a=b", "tab": "\tx"}
    (cells,) = list(csv.DictReader(io.StringIO(render_rows([row], "csv", list(row)))))
    assert cells == {"int": "-3", "float": "-12.5", "rating": "-12", "name": "'-12",
                     "list": "'=x", "plain": "a=b", "tab": "'\tx"}


def test_a_cell_with_a_semicolon_is_quoted_so_no_locale_splits_it_into_a_formula() -> None:
    # (a spreadsheet that reads `;` as the separator would take `=1+1` for a cell of its own)
    from judge.report import render_rows

    text = render_rows([{"name": "a;=1+1", "score": 3}, {"name": "b", "score": 4}], "csv",
                       ["name", "score"])
    lines = text.splitlines()
    assert lines[1] == '"a;=1+1","3"'
    assert lines[2] == "b,4"
