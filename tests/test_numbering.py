"""One numbering of a run's games in every output: a game has the number `judge show RUN
--game N` takes in the details (text, markdown, CSV), JSON, transcripts, the HTML report and
each bot's page, Gradescope and `judge serve`'s link; and a shared page's reproduce
command, run by a student in a folder holding only their own file, plays their games again."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"
#: the starts of the class's run, graded in both seats
STARTS = ["1 2 4", "3 4 5", "2 2 7"]
#: display names (one a browser would take for markup, were it not escaped)
NAMES = {"alice/main.py": "Alice <A>", "bella/main.py": "Bella, Student",
         "carol/main.py": "carol & co"}
#: bella's pages and Gradescope file, by her display name
BELLA = "Bella__Student"


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """Run 1 of r.db: alice (perfect), bella (greedy), carol (random), each in a folder of
    their own, on three starts in both seats; then a tournament (run 2) and a match (run 3)
    of them."""
    folder = tmp_path_factory.mktemp("numbering")
    for name, bot in (("alice", "optimal.py"), ("bella", "greedy.py"), ("carol", "random.py")):
        (folder / name).mkdir()
        shutil.copy(NIM / bot, folder / name / "main.py")
    (folder / "starts.txt").write_text("".join(f"{s}\n" for s in STARTS))
    with open(folder / "names.csv", "w", newline="") as fh:
        csv.writer(fh).writerows([["path", "name"], *NAMES.items()])
    bots = list(NAMES)
    for command in (["run", "--tests", "starts.txt", "--seats", "both", "--names", "names.csv"],
                    ["tournament", "--starts", "starts.txt"],
                    ["match", "--starts", "starts.txt", "--max-games", "4"]):
        out = judge(command[0], "--game", "nim", *command[1:], "--db", "r.db", "--jobs", "2",
                    *(bots if command[0] != "match" else bots[1:]), cwd=folder)
        assert out.returncode == 0, out.stderr
    return folder


def show(folder: Path, *args: str) -> str:
    out = judge("show", "--db", "r.db", *args, cwd=folder)
    assert out.returncode == 0, out.stderr
    return out.stdout


def blocks(page: str) -> dict[int, dict]:
    """A report's per-game JSON blocks by their number."""
    return {int(n): json.loads(text) for n, text in re.findall(
        r'<script type="application/json" id="game-(\d+)">(.*?)</script>', page, re.S)}


def replayed(folder: Path, run: int, number: int, db: str = "r.db"
             ) -> tuple[str, list[str], str]:
    """The start, the moves and the stderr of `judge show RUN --game N`."""
    out = judge("show", str(run), "--db", db, "--game", str(number), cwd=folder)
    assert out.returncode == 0, out.stderr
    start = re.search(r"^start: (.*)$", out.stdout, re.M).group(1)
    # each move as the game names it, then as the protocol writes it: "pit 4 (4)"
    moves = re.findall(r"^\d+\. player \d \([^)]*\): .*?\(([^()]*)\)  \(", out.stdout, re.M)
    return start, moves, out.stderr


@pytest.fixture(scope="module")
def chosen(graded) -> dict:
    """Bella's second game, as the run's JSON gives it."""
    games = json.loads(show(graded, "1", "--format", "json"))["games"]
    assert [g["game"] for g in games] == list(range(1, len(games) + 1))
    game = [g for g in games if g["bot"] == "bella/main.py"][1]
    assert game["game"] == 8 and (game["start"], game["seat"]) == ("3 4 5", 1)
    return game


def test_the_details_number_the_game_as_json_does(graded, chosen):
    n, start = str(chosen["game"]), chosen["start"]
    table = show(graded, "1", "--details", "--wide")
    rows = [re.split(r"\s{2,}", line.strip()) for line in table.splitlines()]
    assert [r[:3] for r in rows if r[0] == n] == [[n, "bella/main.py", start]]
    markdown = show(graded, "1", "--details", "--format", "markdown")
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in markdown.splitlines()
             if line.startswith("|")]
    assert [c[:3] for c in cells if c[0] == n] == [[n, "bella/main.py", start]]
    rows = list(csv.DictReader(io.StringIO(show(graded, "1", "--details", "--format", "csv"))))
    assert [(r["bot"], r["start"], r["moves"]) for r in rows if r["game"] == n] == [
        ("bella/main.py", start, ", ".join(chosen["moves"]))]


def test_show_game_n_replays_that_very_game_and_links_it_by_the_same_number(graded, chosen):
    start, moves, stderr = replayed(graded, 1, chosen["game"])
    assert (start, moves) == (chosen["start"], chosen["moves"])
    assert f"/run/1/game/{chosen['game']}?move=0" in stderr


def test_transcripts_number_it_the_same(graded, chosen):
    lines = [json.loads(line) for line in show(graded, "1", "--format", "jsonl").splitlines()]
    assert [line["game_number"] for line in lines] == list(range(1, len(lines) + 1))
    line = lines[chosen["game"] - 1]
    assert line["start"] == chosen["start"]
    assert [m["move"] for m in line["moves"]] == chosen["moves"]
    assert "bella/main.py" in [p["name"] for p in line["players"]]


@pytest.mark.parametrize("share", [[], ["--share"]])
def test_the_report_and_bellas_own_page_number_it_as_the_whole_run(graded, chosen, share):
    n = chosen["game"]
    page = show(graded, "1", "--format", "html", *share)
    game = blocks(page)[n]
    assert (game["s"], [m[0] for m in game["m"]]) == (chosen["start"], chosen["moves"])
    # each move as the game names it too, for the viewer (Game.move_label): Nim's names
    # follow from the moves' texts, given once for the page
    names = json.loads(re.search(r'<script type="application/json" id="move-labels">(.*?)'
                                 r"</script>", page, re.S).group(1))
    assert "ml" not in game and [names[m] for m in chosen["moves"]] == [
        f"take {k} from heap {h}" for h, k in (m.split() for m in chosen["moves"])]
    folder = f"pages{len(share)}"
    show(graded, "1", "--format", "html", "--output-dir", folder, *share)
    own = (graded / folder / f"{BELLA}.html").read_text()
    games = blocks(own)
    assert sorted(games) == list(range(7, 13))  # her games keep their numbers
    assert (games[n]["s"], [m[0] for m in games[n]["m"]]) == (chosen["start"],
                                                              chosen["moves"])
    assert re.findall(r'<tr data-game="(\d+)"', own) == [str(k) for k in range(7, 13)]
    assert f'href="#game={n}"' in own


@pytest.mark.parametrize("tests", ["game", "seat"])
def test_gradescope_names_her_games_by_their_numbers_in_the_run(graded, chosen, tests):
    show(graded, "1", "--format", "gradescope", "--output-dir", f"gs-{tests}",
         "--gradescope-tests", tests)
    data = json.loads((graded / f"gs-{tests}" / f"{BELLA}.json").read_text())
    n = chosen["game"]
    if tests == "game":
        test = next(t for t in data["tests"] if t["name"].startswith(f"game {n}:"))
        assert test["name"] == f"game {n}: start {chosen['start']}, as player 1"
        assert test["number"] == str(n) and test["output"].startswith(f"game {n}: ")
        assert [t["number"] for t in data["tests"]] == [str(k) for k in range(7, 13)]
    else:
        assert f"\ngame {n}: " in data["tests"][0]["output"]
        assert data["tests"][0]["output"].startswith("game 7: ")


def test_judge_serve_opens_it_by_the_same_number(graded, chosen):
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")
    from starlette.testclient import TestClient

    from judge.web.app import create_app
    from judge.web.sessions import Served

    app = create_app(Served(db=graded / "r.db"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        stored = client.get(f"/api/runs/1/games/{chosen['game']}").json()
    assert (stored["start"], stored["moves"]) == (chosen["start"], chosen["moves"])


@pytest.mark.parametrize("run", [2, 3])
def test_a_tournament_and_a_match_number_their_games_as_show_game_n(graded, run):
    games = json.loads(show(graded, str(run), "--format", "json"))["games"]
    assert [g["game"] for g in games] == list(range(1, len(games) + 1))
    lines = [json.loads(line) for line in show(graded, str(run), "--format",
                                               "jsonl").splitlines()]
    page = blocks(show(graded, str(run), "--format", "html"))
    table = show(graded, str(run), "--details", "--format", "csv")
    rows = {r["game"]: r for r in csv.DictReader(io.StringIO(table))}
    for n in (2, len(games)):
        game = games[n - 1]
        start, moves, _ = replayed(graded, run, n)
        assert (start, moves) == (game["start"], game["moves"])
        assert lines[n - 1]["game_number"] == n and lines[n - 1]["start"] == start
        assert [m["move"] for m in lines[n - 1]["moves"]] == moves
        assert (page[n]["s"], [m[0] for m in page[n]["m"]]) == (start, moves)
        assert rows[str(n)]["key"] == game["key"]


def reproduce_text(page: str) -> str:
    """The reproduce command of a page, as a browser shows it."""
    return html.unescape(re.search(r'id="reproduce">(.*?)</pre>', page, re.S).group(1))


@pytest.fixture(scope="module")
def shared(graded) -> str:
    """Bella's page for her, as the class gets it."""
    show(graded, "1", "--format", "html", "--output-dir", "shared", "--share",
         "--feedback", "mistakes")
    return (graded / "shared" / f"{BELLA}.html").read_text()


def test_the_shared_page_gives_the_student_a_command_of_their_own(graded, shared):
    page = shared
    command = reproduce_text(page)
    assert command.splitlines()[-1].endswith(" main.py")  # her file, by its name alone
    for word in ("bella", "Bella", "Student", str(graded), "r.db", "cd ", "--sandbox"):
        assert word not in command, word
    assert "--tests judge-run1-starts.txt" in command and "--seats both" in command
    assert "--rules misere=off" in command and "--db judge-run1.sqlite" in command
    assert "<A>" not in page and "Alice &lt;A&gt;" not in page  # no other student
    assert "judge show 1 --db judge-run1.sqlite" in page
    # the teacher's own page keeps the teacher's command, in the run's folder
    show(graded, "1", "--format", "html", "--output-dir", "teacher")
    teacher = reproduce_text((graded / "teacher" / f"{BELLA}.html").read_text())
    assert teacher.startswith(f"cd {graded} && judge run ")
    assert teacher.endswith(" bella/main.py")


def test_the_shared_command_run_in_a_fresh_folder_plays_her_games_again(graded, shared,
                                                                        tmp_path):
    if not (Path(sys.executable).parent / "judge").exists():
        pytest.skip("the judge's command is not installed beside this Python")
    page = shared
    shutil.copy(graded / "bella" / "main.py", tmp_path / "main.py")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    out = subprocess.run(["sh", "-c", reproduce_text(page)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "judge-run1-starts.txt", "judge-run1.sqlite", "main.py"]
    mine = json.loads(judge("show", "1", "--db", "judge-run1.sqlite", "--format", "json",
                            cwd=tmp_path).stdout)["games"]
    hers = [g for g in json.loads(show(graded, "1", "--format", "json"))["games"]
            if g["bot"] == "bella/main.py"]
    assert [(g["start"], g["seat"], g["result"], g["moves"]) for g in mine] == [
        (g["start"], g["seat"], g["result"], g["moves"]) for g in hers]
    # the page says how her numbers map to its own, and its example replays the same game
    numbering = html.unescape(re.search(r'id="reproduce-numbering">(.*?)</p>', page,
                                        re.S).group(1))
    assert "your game N is game N + 6 here" in numbering
    yours, here = re.search(r"--game (\d+) replays game (\d+) of this page", numbering).groups()
    start, moves, _ = replayed(tmp_path, 1, int(yours), "judge-run1.sqlite")
    assert (start, moves) == (hers[int(here) - 7]["start"], hers[int(here) - 7]["moves"])
