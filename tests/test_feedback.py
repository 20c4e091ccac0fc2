"""What a grading run's results give away (`--feedback full|mistakes|results`), what a
shared output leaves out (`--share`), and the bots' display names, in every format."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge.plan import default_names, from_config
from tests.command import judge, show
from tests.test_html import browser, open_game  # a headless Chromium, and opening a game

__all__ = ["browser"]  # a fixture the browser test takes

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots" / "ioiwari"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a stored run 1: two students' main.py (greedy, random), two starts;
    greedy loses value on the first."""
    folder = tmp_path_factory.mktemp("class")
    for student, bot in (("alice", "greedy.py"), ("bob", "random.py")):
        (folder / student).mkdir()
        (folder / student / "main.py").write_bytes((BOTS / bot).read_bytes())
    (folder / "starts.txt").write_text("4 3 2 4 2 3 2\n2 2 2 2 2 2 2\n")
    out = judge("run", "--game", "ioiwari", "--tests", str(folder / "starts.txt"), "--seed",
                "1", "--db", "r.db", "--jobs", "1", "alice/main.py", "bob/main.py",
                cwd=folder)
    assert out.returncode == 0, out.stderr
    return folder


def payloads(page: str) -> list[dict]:
    """The JSON of every game's viewer embedded in an HTML page."""
    blocks = re.findall(r'<script type="application/json" id="game-\d+">(.*?)</script>', page)
    assert blocks
    return [json.loads(b) for b in blocks]


def test_full_feedback_is_todays_output_with_the_right_moves(run: Path) -> None:
    data = json.loads(show(run, "--format", "json"))
    assert any(g["first_mistake"] and g["first_mistake"]["best_moves"] for g in data["games"])
    assert show(run, "--format", "json", "--feedback", "full") == show(run, "--format", "json")
    page = show(run, "--format", "html")
    assert any(len(m) == 5 and "right:" in m[4] for p in payloads(page) for m in p["m"])


def test_mistakes_json_names_where_games_were_lost_but_no_right_move_nor_value(
        run: Path) -> None:
    data = json.loads(show(run, "--format", "json", "--feedback", "mistakes"))
    mistakes = [g["first_mistake"] for g in data["games"] if g["first_mistake"]]
    assert mistakes and all(set(m) == {"ply", "move"} for m in mistakes)
    full = json.loads(show(run, "--format", "json"))["games"]
    assert [g["first_mistake"] and g["first_mistake"]["ply"] for g in full] == \
        [g["first_mistake"] and g["first_mistake"]["ply"] for g in data["games"]]


def test_results_json_has_no_first_mistake_nor_accuracy(run: Path) -> None:
    data = json.loads(show(run, "--format", "json", "--feedback", "results"))
    assert all("first_mistake" not in g for g in data["games"])
    assert all("accuracy" not in b for b in data["bots"])
    assert [g["result"] for g in data["games"]] == \
        [g["result"] for g in json.loads(show(run, "--format", "json"))["games"]]


def test_tables_and_csv_show_only_what_the_feedback_allows(run: Path) -> None:
    mistakes = show(run, "--details", "--feedback", "mistakes")
    assert re.search(r"move \d+: \d", mistakes) and "right" not in mistakes
    rows = list(csv.DictReader(io.StringIO(show(run, "--details", "--format", "csv",
                                                "--feedback", "results"))))
    assert rows and "first_mistake" not in rows[0]
    markdown = show(run, "--details", "--format", "markdown", "--feedback", "results")
    assert "accuracy" not in markdown and "first_mistake" not in markdown
    assert "first_mistake" not in show(run, "--details", "--feedback", "results")


def test_jsonl_carries_the_solvers_values_only_at_full_feedback(run: Path) -> None:
    def values(*args: str) -> bool:
        lines = show(run, "--format", "jsonl", *args).splitlines()
        return any("before" in m for line in lines for m in json.loads(line)["moves"])

    assert values() and not values("--feedback", "mistakes")
    assert not values("--feedback", "results")



def test_jsonl_at_mistakes_says_where_each_game_was_lost(run: Path) -> None:
    lines = [json.loads(line) for line in show(run, "--format", "jsonl", "--feedback",
                                               "mistakes").splitlines()]
    games = json.loads(show(run, "--format", "json", "--feedback", "mistakes"))["games"]
    assert [line["first_mistake"] for line in lines] == [g["first_mistake"] for g in games]
    results = show(run, "--format", "jsonl", "--feedback", "results").splitlines()
    assert all("first_mistake" not in json.loads(line) for line in results)


def test_the_html_at_mistakes_gives_no_right_move_value_or_remoteness(run: Path) -> None:
    page = show(run, "--format", "html", "--feedback", "mistakes")
    games = payloads(page)
    assert all("pf" not in p for p in games)  # results under perfect play: a value
    assert all(len(m) == 4 for p in games for m in p["m"])  # no judgement text
    codes = {m[3] for p in games for m in p["m"]}
    assert codes & set("mld") and codes <= set("mld") | {""}  # only the mistakes marked
    for word in ("right:", "MISTAKE", "value", "remoteness", "instead of"):
        assert word not in "".join(json.dumps(p) for p in games)
    assert 'class="h-perfect"' not in page and "(right" not in page


def test_the_html_at_results_judges_no_move(run: Path) -> None:
    page = show(run, "--format", "html", "--feedback", "results")
    games = payloads(page)
    assert all(m[3] == "" and len(m) == 4 for p in games for m in p["m"])
    assert all("pf" not in p for p in games)
    assert 'class="h-mistake"' not in page and "<th>accuracy</th>" not in page


def test_a_shared_page_has_no_path_folder_nor_database(run: Path) -> None:
    page = show(run, "--format", "html", "--share")
    assert str(run) not in page and "r.db" not in page
    assert "cd " not in re.search(r'id="reproduce">([^<]*)', page).group(1)
    assert "main.py" not in page
    assert [p["p"] for p in payloads(page)][0][0] == "alice"
    lines = show(run, "--format", "jsonl", "--share")
    assert "main.py" not in lines and str(run) not in lines


def test_a_shared_json_names_bots_by_their_folders(run: Path) -> None:
    data = json.loads(show(run, "--format", "json", "--share"))
    assert [b["bot"] for b in data["bots"]] == ["alice", "bob"]
    assert {g["bot"] for g in data["games"]} == {"alice", "bob"}
    unshared = json.loads(show(run, "--format", "json"))
    assert [b["bot"] for b in unshared["bots"]] == ["alice/main.py", "bob/main.py"]


def test_the_list_of_runs_names_bots_by_their_display_names(run: Path) -> None:
    out = judge("show", "--db", "r.db", cwd=run)
    assert "alice, bob" in out.stdout


def test_default_names_are_folders_of_their_own_else_file_names_else_paths() -> None:
    assert default_names(["a/greedy.py", "a/random.py"]) == {"a/greedy.py": "greedy.py",
                                                             "a/random.py": "random.py"}
    assert default_names(["alice/main.c", "bob/main.c"]) == {"alice/main.c": "alice",
                                                             "bob/main.c": "bob"}
    assert default_names(["carol/main.c", "dan/bot.py"]) == {"carol/main.c": "carol",
                                                             "dan/bot.py": "dan"}
    assert default_names(["alice/main.c"]) == {"alice/main.c": "main.c"}
    assert default_names(["x/alice/main.c", "y/alice/main.c"]) == {
        "x/alice/main.c": "x/alice/main.c", "y/alice/main.c": "y/alice/main.c"}


def test_a_run_stored_without_names_shows_its_default_names() -> None:
    old = {"version": 2, "game": "nim", "bots": ["alice/main.c", "bob/main.c"],
           "starts": {"first": ["1 2"]}}
    plan = from_config("run", old)
    assert plan.names == {}
    assert plan.display_names() == {"alice/main.c": "alice", "bob/main.c": "bob"}


def test_feedback_of_a_tournament_is_refused_with_status_2(run: Path) -> None:
    out = judge("tournament", "--game", "nim", "--db", "t.db", "--jobs", "1",
                str(ROOT / "bots" / "nim" / "optimal.py"), str(ROOT / "bots" / "nim" /
                                                               "random.py"), cwd=run)
    assert out.returncode == 0, out.stderr
    for asked in (["--feedback", "results"], ["--share"],
                  ["--format", "html", "--output-dir", "pages-t"]):
        refused = judge("show", "1", "--db", "t.db", *asked, cwd=run)
        assert refused.returncode == 2 and "is a tournament" in refused.stderr
    assert not (run / "pages-t").exists()
    replay = judge("show", "1", "--db", "r.db", "--game", "1", "--feedback", "mistakes",
                   cwd=run)
    assert replay.returncode == 2 and "drop --feedback" in replay.stderr


def names_stored(run: Path, names: str, db: str) -> list[str]:
    """The bots' names that a run of alice's and bob's bots with `--names NAMES` stores
    (in the new database `db`), as a shared JSON gives them."""
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", db,
                "--jobs", "1", "--names", names, "alice/main.py", "bob/main.py", cwd=run)
    assert out.returncode == 0, out.stderr
    shown = judge("show", "1", "--db", db, "--format", "json", "--share", cwd=run)
    return [b["bot"] for b in json.loads(shown.stdout)["bots"]]


def test_names_from_a_file_are_stored_with_the_run(run: Path) -> None:
    (run / "names.csv").write_text('path,name\nalice/main.py,"Smith, Alice"\n'
                                   "./bob/main.py\tBob\n")
    assert names_stored(run, "names.csv", "n.db") == ["Smith, Alice", "Bob"]


@pytest.mark.parametrize("text, said", [
    ("alice/main.py,x\ncarol.py,y\n", "line 2: carol.py is none of the bots"),
    ("alice/main.py\n", "line 1: not PATH<TAB>NAME"),
    ("alice/main.py,x\nalice/main.py,y\n", "given a name twice"),
    ("alice/main.py,bob\n", "two bots would be shown as 'bob'"),
])
def test_a_bad_names_file_is_refused_with_status_2_and_no_database(
        run: Path, text: str, said: str) -> None:
    (run / "bad.csv").write_text(text)
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", "bad.db",
                "--names", "bad.csv", "alice/main.py", "bob/main.py", cwd=run)
    assert out.returncode == 2 and said in out.stderr
    assert not (run / "bad.db").exists()


@pytest.mark.needs_chromium
def test_the_browser_at_mistakes_marks_where_it_was_lost_and_shows_no_solution(
        run: Path, browser) -> None:
    (run / "m.html").write_text(show(run, "--format", "html", "--feedback", "mistakes"))
    first = json.loads(show(run, "--format", "json", "--feedback", "mistakes"))["games"][0]
    ply = first["first_mistake"]["ply"]  # greedy errs in its first game
    open_game(browser, run / "m.html", 1)
    browser.execute_script("window.judgeViewer.go(arguments[0])", ply)
    mark = browser.execute_script(
        f"return document.querySelector('#moves li[data-ply=\"{ply}\"]').className")
    assert "mistake" in mark.split()
    text = browser.execute_script("return document.getElementById('viewer').innerText")
    assert f"Move {ply}:" in text
    for word in ("right:", "MISTAKE", "perfect play", "value", "instead of"):
        assert word not in text
    assert browser.execute_script(
        "return document.querySelectorAll('#moves .optimal, #moves .slow').length") == 0


def test_names_cannot_change_with_resume(run: Path) -> None:
    (run / "names2.csv").write_text("alice/main.py,A\n")
    out = judge("run", "--resume", "1", "--db", "r.db", "--names", "names2.csv", cwd=run)
    assert out.returncode == 2 and "drop --names" in out.stderr


def test_shared_text_replaces_whole_paths_only() -> None:
    from judge.summaries import View

    view = View(share=True, names={"alice/main.py": "alice", "a.py": "Al"},
                directory="/home/t/class")
    assert view.text('File "/home/t/class/alice/main.py", line 3') == 'File "alice", line 3'
    assert view.text("data.py, a.py, a.pyc") == "data.py, Al, a.pyc"
    assert view.text("cd /home/t/class; cat /home/t/class/x.txt /home/t/classes") == \
        "cd .; cat ./x.txt /home/t/classes"
    assert View(names={"a.py": "Al"}).text("a.py") == "a.py"  # not shared: as it was


def test_a_shared_command_names_files_outside_the_folder_by_their_names_alone() -> None:
    from judge.html.pages import reproduce
    from judge.kinds.grading import GradingPlan
    from judge.summaries import View

    plan = GradingPlan(game="ioiwari", bots=("alice/main.py", "bob/main.py"),
                       directory="/home/t/class",
                       tests="../../private/exam-starts.txt")
    command = reproduce(plan, View.of(plan, share=True))["command"]
    assert "private" not in command and "/home" not in command and "cd " not in command
    # a student's own command: the starts saved by it, their own file, their own database
    assert "--tests judge-run1-starts.txt" in command and command.endswith(" YOUR_FILE")
    assert "alice" not in command and "--db judge-run1.sqlite" in command
    assert "--tests ../../private/exam-starts.txt" in reproduce(plan, View.of(plan))["command"]
    # a rule's value with a slash is no file: it stays whole
    rules = GradingPlan(game="chopsticks", rules="hands=2/3", bots=("alice/main.py",),
                        directory="/home/t/class")
    assert "--rules hands=2/3" in reproduce(rules, View.of(rules, share=True))["command"]


@pytest.mark.parametrize("level", ["mistakes", "results"])
def test_slow_moves_which_say_which_moves_were_not_the_fastest_come_only_with_full(
        run: Path, level: str) -> None:
    full = json.loads(show(run, "--format", "json"))
    assert all("slow_moves" in b for b in full["bots"])
    assert all("slow_moves" in g for g in full["games"])
    data = json.loads(show(run, "--format", "json", "--feedback", level))
    assert not any("slow_moves" in row for row in [*data["bots"], *data["games"]])
    assert all("usage" in g for g in data["games"])  # what a bot used is no solution
    lines = [json.loads(line) for line in
             show(run, "--format", "jsonl", "--feedback", level).splitlines()]
    assert lines and not any("slow_moves" in line for line in lines)
    for args in ([], ["--details"], ["--details", "--wide"], ["--format", "csv", "--details"]):
        text = show(run, *args, "--feedback", level)
        headers = [line.replace(",", " ").split() for line in text.splitlines()
                   if line.startswith(("bot ", "game ", "bot,", "game,"))]
        assert headers and not any("slow" in header for header in headers)
    page = show(run, "--format", "html", "--feedback", level)
    assert "<th>slow</th>" not in page and not any("sl" in p for p in payloads(page))


def test_a_names_file_saved_with_semicolons_elsewhere_names_paths_from_its_own_folder(
        run: Path) -> None:
    # (as a spreadsheet saves CSV where `,` is the decimal mark; the file in a folder of
    # its own, its paths relative to it, the judge started elsewhere)
    (run / "class").mkdir()
    (run / "class" / "names.csv").write_text('path;name\n../alice/main.py;"Smith; Alice"\n'
                                             "../bob/main.py;Bob, B.\n")
    assert names_stored(run, "class/names.csv", "s.db") == ["Smith; Alice", "Bob, B."]


def test_copies_are_flagged_for_the_teacher_but_never_in_shared_output(tmp_path: Path) -> None:
    # (two students' identical files: `=1` beside their names, a note below; the page made
    # to hand to the class shows neither)
    for student in ("carol", "dave"):
        (tmp_path / student).mkdir()
        (tmp_path / student / "main.py").write_bytes((BOTS / "greedy.py").read_bytes())
    (tmp_path / "starts.txt").write_text("4 3 2 4 2 3 2\n")
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", "c.db",
                "--jobs", "1", "carol/main.py", "dave/main.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    teacher = judge("show", "1", "--db", "c.db", cwd=tmp_path).stdout
    assert "=1" in teacher and "the same program?" in teacher
    for fmt in ("table", "json", "markdown", "html"):
        shared = judge("show", "1", "--db", "c.db", "--share", "--format", fmt,
                       cwd=tmp_path).stdout
        if fmt != "html":  # (a page has `initial-scale=1`)
            assert "=1" not in shared and "~1" not in shared and "%1" not in shared, fmt
        assert "same program" not in shared and "same file content" not in shared, fmt
    data = json.loads(judge("show", "1", "--db", "c.db", "--share", "--format", "json",
                            cwd=tmp_path).stdout)
    assert all(b["same_file"] == b["same_source"] == b["same_mistakes"] == []
               for b in data["bots"])


def solution_given(run: Path, made: list[str]) -> bool:
    """Whether `judge show 1 MADE` (of the run's database) gives a right move: JSON's
    `best_moves`, a Gradescope test's or a page's viewer's `right: ...`."""
    out = judge("show", "1", "--db", "r.db", *made, cwd=run)
    assert out.returncode == 0, out.stderr
    if "json" in made:
        return any("best_moves" in (g.get("first_mistake") or {})
                   for g in json.loads(out.stdout)["games"])
    folder = run / made[made.index("--output-dir") + 1]
    if "gradescope" in made:
        return any("right:" in test["output"] for p in folder.glob("*.json")
                   for test in json.loads(p.read_text())["tests"])
    return any(len(m) == 5 and "right:" in m[4] for page in folder.glob("*.html")
               if page.name != "index.html" for p in payloads(page.read_text()) for m in p["m"])


@pytest.mark.parametrize("made", [["--format", "json", "--share"],
                                  ["--format", "gradescope", "--output-dir", "gs"],
                                  ["--format", "html", "--output-dir", "pages"]])
def test_what_students_read_gives_no_right_move_unless_full_is_asked(
        run: Path, made: list[str]) -> None:
    assert not solution_given(run, made)
    assert solution_given(run, [*made, "--feedback", "full"])
    assert solution_given(run, ["--format", "json"])  # the teacher's own table: full


def test_a_shared_pages_reproduce_line_still_plays_the_students_games(run: Path) -> None:
    show(run, "--format", "html", "--share", "--output-dir", "shared")
    alice = (run / "shared" / "alice.html").read_text()
    command = html.unescape(re.search(r'id="reproduce">([^<]*)', alice).group(1))
    own = run / "alice-again"
    own.mkdir()
    (own / "main.py").write_bytes((run / "alice" / "main.py").read_bytes())
    again = subprocess.run(["bash", "-c", command.replace("judge ", f"{sys.executable} -m "
                                                          "judge ", 1)],
                           cwd=own, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert (own / "judge-run1.sqlite").exists()
