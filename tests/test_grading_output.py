"""What grading and tournaments say: the move where each game was lost, a replay of any
stored game, exit statuses, one CSV table, and fair default tournaments."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge.games import load_game
from judge.games.base import TOURNAMENT_STARTS
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"


def graded(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    """Ioiwari greedy.py graded on two starts; it loses value in one of them."""
    (tmp_path / "starts.txt").write_text("4 3 2 4 2 3 2\n2 2 2 2 2 2 2\n")
    return judge("run", "--game", "ioiwari", "--tests", str(tmp_path / "starts.txt"),
                 "--db", str(tmp_path / "r.db"), "--jobs", "1", *extra,
                 str(BOTS / "ioiwari" / "greedy.py"), cwd=tmp_path)


def test_json_games_carry_the_first_mistake_as_the_review_says(tmp_path: Path) -> None:
    out = graded(tmp_path, "--format", "json")
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)["games"]
    game = load_game("ioiwari", "")
    from judge.analysis import review

    for g in games:
        reviews = review(game, game.parse_position(g["start"]), g["moves"], seats=(0,))
        wrong = [r for r in reviews if r.mistake]
        if not wrong:
            assert g["first_mistake"] is None
            continue
        first = g["first_mistake"]
        assert (first["ply"], first["move"], first["best_moves"]) == (
            wrong[0].ply, wrong[0].move, wrong[0].best_moves)
    assert any(g["first_mistake"] for g in games)  # greedy errs on one of these starts


def test_details_name_the_first_mistake_of_each_game(tmp_path: Path) -> None:
    out = graded(tmp_path, "--format", "json")
    mistakes = [g["first_mistake"] for g in json.loads(out.stdout)["games"]]
    table = judge("show", "1", "--db", str(tmp_path / "r.db"), "--details", "--wide",
                  cwd=tmp_path)
    narrow = judge("show", "1", "--db", str(tmp_path / "r.db"), "--details", cwd=tmp_path)
    for m in filter(None, mistakes):
        assert f"move {m['ply']}: {m['move']} (right: {', '.join(m['best_moves'])}" \
            in table.stdout
        assert f"move {m['ply']}: " in narrow.stdout


def test_show_replays_a_stored_game_as_play_prints_it(tmp_path: Path) -> None:
    out = graded(tmp_path, "--format", "json")
    games = json.loads(out.stdout)["games"]
    for n, g in enumerate(games, 1):
        shown = judge("show", "1", "--db", str(tmp_path / "r.db"), "--game", str(n),
                      cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert f"start: {g['start']}" in shown.stdout
        lines = [line for line in shown.stdout.splitlines() if line[:1].isdigit()
                 and ". player" in line]
        # each move as the game names it, then as the protocol writes it: "pit 4 (4)"
        assert [re.search(r"\(([^()]*)\)  \(", line).group(1) for line in lines] == g["moves"]
        if g["first_mistake"]:
            ply = g["first_mistake"]["ply"]
            assert "MISTAKE" in lines[ply - 1]
    missing = judge("show", "1", "--db", str(tmp_path / "r.db"), "--game", "99", cwd=tmp_path)
    assert missing.returncode == 2 and "give --game 1 to 2" in missing.stderr


def test_a_run_with_void_games_ends_with_status_4(tmp_path: Path) -> None:
    from judge.commands.runs import exit_status
    from judge.exits import ExitStatus
    from judge.kinds.grading import GradingPlan
    from judge.records import PlayedGame, Verdict
    from judge.store import Store

    store = Store(tmp_path / "r.db")
    run = store.create_run(GradingPlan(game="nim", bots=()))

    def record(code: str) -> PlayedGame:
        return PlayedGame("nim", "1", ("a", "optimal"), results=("win", "loss"),
                          verdict=Verdict(code))

    store.add_game(run, "a|1", record("ok"))
    assert exit_status(store, run, skipped=False) == 0
    assert exit_status(store, run, skipped=True) == ExitStatus.SKIPPED == 3
    store.add_game(run, "a|2", record("judge-error"))
    assert exit_status(store, run, skipped=True) == ExitStatus.VOID == 4


def test_a_graded_run_ends_with_status_0(tmp_path: Path) -> None:
    assert graded(tmp_path).returncode == 0


def test_csv_is_one_table_and_the_others_go_to_files(tmp_path: Path) -> None:
    out = graded(tmp_path, "--format", "csv", "--details", "--output-dir",
                 str(tmp_path / "tables"))
    assert out.returncode == 0, out.stderr
    # the files only: stdout is one line that names them
    assert out.stdout == f"judge: wrote 2 files to {tmp_path / 'tables'} (bots.csv, games.csv)\n"
    shown = judge("show", "1", "--db", str(tmp_path / "r.db"), "--format", "csv", "--details")
    rows = list(csv.reader(io.StringIO(shown.stdout)))
    assert rows[0][:3] == ["game", "bot", "start"] and len(rows) == 3  # header + 2 games
    assert all(len(r) == len(rows[0]) for r in rows)
    bots = list(csv.reader((tmp_path / "tables" / "bots.csv").open()))
    assert bots[0][0] == "bot" and len(bots) == 2
    games = list(csv.reader((tmp_path / "tables" / "games.csv").open()))
    assert games == rows


def test_an_output_dir_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = graded(tmp_path, "--format", "csv", "--output-dir", str(blocker))
    assert out.returncode == 2 and "--output-dir" in out.stderr
    assert not (tmp_path / "r.db").exists()


@pytest.mark.parametrize("args, says", [
    (["run", "--game", "nim", "--format", "json"], "--output-dir writes tables"),
    (["tournament", "--game", "nim", "--format", "html"], "a tournament's page is one"),
    (["match", "--game", "nim", "--format", "html"], "a match's page is one"),
])
def test_an_output_dir_that_the_format_writes_nothing_into_is_refused_before_any_game(
        tmp_path: Path, args: list[str], says: str) -> None:
    out = judge(*args, "--db", "r.db", "--output-dir", "out", str(BOTS / "nim" / "optimal.py"),
                str(BOTS / "nim" / "random.py"), cwd=tmp_path)
    assert out.returncode == 2 and says in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_tournament_csv_is_one_table_and_max_points_bound_points(tmp_path: Path) -> None:
    args = ["tournament", "--game", "nim", "--db", str(tmp_path / "t.db"), "--seed", "3",
            "--include-optimal", str(BOTS / "nim" / "optimal.py"),
            str(BOTS / "nim" / "random.py")]
    out = judge(*args, "--format", "csv", "--output", "standings.csv", "--output-dir",
                str(tmp_path / "t"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("judge: wrote 3 files to ") and out.stdout.count("\n") == 1
    rows = list(csv.reader((tmp_path / "standings.csv").open()))
    assert rows[0][:2] == ["rank", "bot"] and len(rows) == 4
    assert {p.name for p in (tmp_path / "t").iterdir()} == {
        "standings.csv", "crosstable.csv", "games.csv"}
    shown = judge("show", "1", "--db", str(tmp_path / "t.db"), "--format", "json",
                  cwd=tmp_path)
    for s in json.loads(shown.stdout)["standings"]:
        assert s["max_points"] >= s["points"] and s["max_points"] == s["games"]


def test_default_nim_and_chopsticks_tournaments_use_several_starts() -> None:
    for name in ("nim", "chopsticks"):
        game = load_game(name, "")
        starts = game.tournament_starts()
        assert len(starts) == TOURNAMENT_STARTS
        assert len(set(starts)) == len(starts)
        assert not any(game.is_over(p) for p in starts)
    assert len(load_game("ioiwari", "").tournament_starts()) == 51


@pytest.mark.slow
def test_the_tricky_opponent_takes_more_from_greedy_over_the_standard_set(
    tmp_path: Path
) -> None:
    scores = {}
    for kind in ("optimal", "tricky"):
        out = judge("run", "--game", "ioiwari", "--db", str(tmp_path / f"{kind}.db"),
                    "--format", "json", "--opponent", kind, str(BOTS / "ioiwari" / "greedy.c"),
                    cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        run = json.loads(out.stdout)
        assert run["opponent"] == kind and run["bots"][0]["games"] == 357
        scores[kind] = run["bots"][0]["points"]
    assert scores["tricky"] < scores["optimal"]


def test_play_and_opponent_take_the_tricky_opponent(tmp_path: Path) -> None:
    out = judge("play", "--game", "nim", "--start", "3 4 5", "--vs", "tricky", "--format",
                "json", str(BOTS / "nim" / "optimal.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["players"][1]["name"] == "tricky"
    served = subprocess.run([sys.executable, "-m", "judge", "opponent", "--game", "nim",
                             "--start", "2 2 1 1", "--opponent", "tricky", "--seat", "2"],
                            input="", capture_output=True, text=True, timeout=60, cwd=tmp_path)
    # the tricky opponent opens 2 2 1 1 with heap 3 (see tests/test_tricky.py); the optimal
    # one with heap 1: what it sent first after the heaps is the opening move applied
    assert served.stdout.splitlines()[0] == "2 2 0 1"


def test_show_replays_a_game_against_tricky_naming_it(tmp_path: Path) -> None:
    (tmp_path / "starts.txt").write_text("2 2 1 1\n")
    out = judge("run", "--game", "nim", "--tests", str(tmp_path / "starts.txt"), "--seats",
                "both", "--opponent", "tricky", "--db", str(tmp_path / "r.db"), "--jobs", "1",
                str(BOTS / "nim" / "optimal.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    shown = judge("show", "--db", str(tmp_path / "r.db"), "1", "--game", "1", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    header = shown.stdout.splitlines()[0]
    assert "tricky" in header and "optimal" not in header.replace("optimal.py", "")
    page = tmp_path / "run.html"
    html = judge("show", "--db", str(tmp_path / "r.db"), "1", "--format", "html", "--output",
                 str(page), cwd=tmp_path)
    assert html.returncode == 0, html.stderr
    blocks = re.findall(r'<script type="application/json" id="game-\d+">(.*?)</script>',
                        page.read_text(), re.S)
    assert blocks and all("tricky" in json.loads(b)["p"] and "optimal" not in json.loads(b)["p"]
                          for b in blocks)
