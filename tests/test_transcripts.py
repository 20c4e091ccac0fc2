"""Transcripts: `judge show RUN --format jsonl` writes one replayable line per game, and
`judge show --replay FILE` checks each against the rules."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from judge.analysis import review
from judge.games import load_game
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
TESTS_BOTS = ROOT / "tests" / "bots"


def exported(tmp_path: Path, game: str, starts: str, *bots: Path) -> list[str]:
    (tmp_path / "starts.txt").write_text(starts)
    db = str(tmp_path / "r.db")
    ran = judge("run", "--game", game, "--db", db, "--tests", str(tmp_path / "starts.txt"),
                *map(str, bots), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    out = judge("show", "1", "--db", db, "--format", "jsonl", "--output",
                str(tmp_path / "t.jsonl"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    return (tmp_path / "t.jsonl").read_text().splitlines()


@pytest.mark.parametrize("game, starts, bots", [
    ("ioiwari", "4 3 2 4 2 3 2\n2 2 2 2 2 2 2\n", ["ioiwari/greedy.py", "ioiwari/random.py"]),
    ("nim", "3 4 5\n1 2 3 4\n", ["nim/optimal.py", "nim/random.py"]),
    ("chopsticks", "(L 1 1 1 1 1 1)\n", ["chopsticks/greedy.py"]),
])
def test_every_stored_game_exports_as_a_line_that_replays(game: str, starts: str,
                                                          bots: list[str],
                                                          tmp_path: Path) -> None:
    lines = exported(tmp_path, game, starts, *(BOTS / b for b in bots))
    assert len(lines) == len(starts.splitlines()) * len(bots)
    rules = load_game(game, "")
    for line in lines:
        data = json.loads(line)
        for key in ("game", "rules", "judge", "tier", "seed", "run_seed", "players", "start",
                    "moves", "results", "verdict", "final"):
            assert key in data
        bot = next(p for p in data["players"] if p["name"] != "optimal")
        assert len(bot["sha256"]) == 64
        start = rules.parse_position(data["start"])
        reviews = review(rules, start, [m["move"] for m in data["moves"]])
        for m, r in zip(data["moves"], reviews, strict=False):
            assert (m["before"], m["after"]) == (r.before, r.after)
            assert m["seat"] == r.seat + 1 and "seconds" in m and "cpu_seconds" in m
    replay = judge("show", "--replay", str(tmp_path / "t.jsonl"), cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert f"{len(lines)} of {len(lines)} transcripts replay as recorded" in replay.stdout


def test_a_forfeited_game_replays_with_its_illegal_last_move(tmp_path: Path) -> None:
    bot = tmp_path / "illegal.py"
    bot.write_text("import sys\nsys.stdin.readline()\nprint(9, flush=True)\n")
    lines = exported(tmp_path, "ioiwari", "4 3 2 4 2 3 2\n", bot)
    assert json.loads(lines[0])["verdict"]["code"] == "illegal-move"
    replay = judge("show", "--replay", str(tmp_path / "t.jsonl"), cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout


@pytest.mark.parametrize("tamper, says", [
    (lambda d: d["moves"][2].update(move="9"), "move 3 ('9') is not legal"),
    (lambda d: d.update(final="1 1 1 1 1 1 1 | 0 0 1"), "the final position recorded"),
    (lambda d: d["moves"][0].update(after=-20), "move 1: the values recorded"),
    (lambda d: d["moves"][1].update(seat=1), "move 2 is by seat 1, but seat 2 is to move"),
    (lambda d: d.update(results=["loss", "win"] if d["results"][0] == "win"
                        else ["win", "loss"]), "the results recorded"),
])
def test_a_transcript_that_does_not_replay_is_named(tamper, says: str, tmp_path: Path) -> None:
    line = exported(tmp_path, "ioiwari", "4 3 2 4 2 3 2\n", BOTS / "ioiwari" / "greedy.py")[0]
    data = json.loads(line)
    tamper(data)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line + "\n" + json.dumps(data) + "\n")
    replay = judge("show", "--replay", str(bad), cwd=tmp_path)
    assert replay.returncode == 5
    assert f"line 2: inconsistent: {says}" in replay.stdout
    assert "line 1:" not in replay.stdout and "1 of 2 transcripts" in replay.stdout


def test_a_file_that_is_not_transcripts_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    out = judge("show", "--replay", str(junk), cwd=tmp_path)
    assert out.returncode == 2 and "not a transcript line" in out.stderr


def test_an_output_file_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path
) -> None:
    out = judge("run", "--game", "nim", "--db", str(tmp_path / "r.db"), "--output",
                str(tmp_path / "no" / "such" / "report.html"), "--format", "html",
                str(BOTS / "nim" / "optimal.py"), cwd=tmp_path)
    assert out.returncode == 2 and "--output" in out.stderr
    assert not (tmp_path / "r.db").exists()


def test_run_tournament_and_show_write_the_html_report_to_a_file(tmp_path: Path) -> None:
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    db = str(tmp_path / "r.db")
    out = judge("run", "--game", "nim", "--db", db, "--tests", str(tmp_path / "starts.txt"),
                "--format", "html", "--output", str(tmp_path / "run.html"),
                str(BOTS / "nim" / "random.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""  # all of it went to the file
    page = (tmp_path / "run.html").read_text()
    assert page.lstrip().lower().startswith("<!doctype html") and "random.py" in page
    assert (tmp_path / "run.html").stat().st_mode & 0o777 == 0o666 & ~_umask()
    tour = judge("tournament", "--game", "nim", "--db", db, "--include-optimal", "--starts",
                 str(tmp_path / "starts.txt"), "--format", "html",
                 str(BOTS / "nim" / "random.py"), cwd=tmp_path)
    assert tour.returncode == 0, tour.stderr
    assert "<svg" in tour.stdout and "optimal" in tour.stdout
    shown = judge("show", "2", "--db", db, "--format", "html", cwd=tmp_path)
    assert shown.stdout == tour.stdout


def _umask() -> int:
    import os

    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_a_game_played_on_a_cluster_worker_exports_that_workers_tier_and_name(
        tmp_path: Path) -> None:
    # on a cluster the run's recorded tier is the coordinator's; each game played on a
    # worker carries the worker's own (`judge.cluster.play_remote`)
    import sqlite3

    lines = exported(tmp_path, "nim", "3 4 5\n1 2 3\n", BOTS / "nim" / "optimal.py")
    local = [json.loads(line) for line in lines]
    assert all("worker" not in d for d in local)
    db = tmp_path / "r.db"
    with sqlite3.connect(db) as con:
        key, record = con.execute("SELECT key, record FROM games ORDER BY key").fetchone()
        rec = json.loads(record)
        rec.update(tier="none", worker="node-7")
        con.execute("UPDATE games SET record = ? WHERE key = ?", (json.dumps(rec), key))
    out = judge("show", "1", "--db", str(db), "--format", "jsonl", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    by_key = {d["key"]: d for d in map(json.loads, out.stdout.splitlines())}
    assert (by_key[key]["tier"], by_key[key]["worker"]) == ("none", "node-7")
    other = next(d for k, d in by_key.items() if k != key)
    assert other["tier"] == local[0]["tier"] and "worker" not in other
    (tmp_path / "c.jsonl").write_text(out.stdout)
    replayed = judge("show", "--replay", str(tmp_path / "c.jsonl"), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def _replayed(tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess:
    path = tmp_path / "check.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return judge("show", "--replay", str(path), cwd=tmp_path)


@pytest.mark.parametrize("tamper, says", [
    # the forfeiting bot is made the winner
    (lambda d: d.update(results=d["results"][::-1]), "the results recorded ['win', 'loss']"),
    # the failure is struck out: an ok game that stops before its end
    (lambda d: d.update(verdict={"code": "ok", "message": "", "seat": None}),
     "the verdict is ok, but the moves stop before the end of the game"),
    (lambda d: d["verdict"].update(code="lucky"),
     "the verdict recorded ('lucky') is not a verdict of the judge"),
])
def test_a_forfeit_whose_results_or_verdict_were_changed_is_named(
        tamper, says: str, tmp_path: Path) -> None:
    (tmp_path / "quits.py").write_text(
        "import sys\nsys.stdin.readline()\nprint('1 1', flush=True)\n"
        "sys.stdin.readline()\nprint('nonsense', flush=True)\n")
    line = exported(tmp_path, "nim", "3 4 5\n", tmp_path / "quits.py")[0]
    data = json.loads(line)
    assert data["verdict"]["code"] == "garbage" and data["results"] == ["loss", "win"]
    tamper(data)
    replay = _replayed(tmp_path, [line, json.dumps(data)])
    assert replay.returncode == 5, replay.stderr
    assert "line 2: inconsistent: " + says in replay.stdout
    assert "line 1:" not in replay.stdout


def test_a_start_the_rules_refuse_is_an_inconsistency_not_a_bad_file(tmp_path: Path) -> None:
    line = exported(tmp_path, "nim", "3 4 5\n", BOTS / "nim" / "optimal.py")[0]
    data = json.loads(line)
    data["start"] = "3 -4 5"
    replay = _replayed(tmp_path, [line, json.dumps(data)])
    assert replay.returncode == 5, replay.stderr
    assert "line 2: inconsistent: the start recorded is not a position" in replay.stdout
    assert "1 of 2 transcripts" in replay.stdout


def test_a_corrupt_line_is_named_and_the_lines_after_it_still_checked(tmp_path: Path) -> None:
    line = exported(tmp_path, "nim", "3 4 5\n", BOTS / "nim" / "optimal.py")[0]
    data = json.loads(line)
    data["results"] = data["results"][::-1]
    replay = _replayed(tmp_path, [line, line[:40], json.dumps(data)])
    assert replay.returncode == 5, replay.stderr  # the inconsistency after it is not lost
    said = replay.stdout.splitlines()
    assert said[0].startswith(f"{tmp_path / 'check.jsonl'}, line 2: not a transcript line")
    assert said[1].startswith(f"{tmp_path / 'check.jsonl'}, line 3: inconsistent: ")
    assert said[2] == "1 of 3 lines replay as recorded: 1 inconsistent, 1 not a transcript"
    assert "1 of 3 lines of" in replay.stderr
    only_corrupt = _replayed(tmp_path, [line, line[:40]])
    assert only_corrupt.returncode == 2  # bad input, once the rest is checked
    assert "1 of 2 lines replay as recorded: 0 inconsistent" in only_corrupt.stdout


def test_a_line_that_is_json_but_no_object_is_refused_plainly(tmp_path: Path) -> None:
    replay = _replayed(tmp_path, ["[1, 2]"])
    assert replay.returncode == 2
    assert "not a transcript line: not a judge-transcript/1 line" in replay.stderr
    assert "Traceback" not in replay.stderr


@pytest.mark.parametrize("args, says", [
    (["--format", "html"], "--format html writes one run: give the RUN"),
    (["--format", "jsonl", "--output", "runs.jsonl"], "--format jsonl writes one run"),
    (["--replay", "t.jsonl", "--format", "html"], "--replay checks a file of transcripts"),
    (["--replay", "t.jsonl", "--details"], "--replay checks a file of transcripts"),
])
def test_show_refuses_a_format_it_would_not_write(args: list[str], says: str,
                                                  tmp_path: Path) -> None:
    """`judge show` without a RUN lists the runs as a table: asked for a page or transcripts,
    it says so rather than print that table; `--replay` prints only its own text."""
    exported(tmp_path, "nim", "3 4 5\n", BOTS / "nim" / "optimal.py")
    out = judge("show", "--db", str(tmp_path / "r.db"), *args, cwd=tmp_path)
    assert out.returncode == 2 and says in out.stderr
    assert out.stdout == "" and not (tmp_path / "runs.jsonl").exists()
