"""The results database as organisers meet it (read-only files and folders, two judges,
runs started elsewhere, the run list) and limits beyond what the system allows."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
OPTIMAL = str(ROOT / "bots" / "nim" / "optimal.py")
AS_ROOT = os.geteuid() == 0


def one_run(tmp_path: Path, db: Path) -> None:
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    out = judge("run", "--game", "nim", "--db", str(db), "--tests",
                str(tmp_path / "starts.txt"), OPTIMAL, cwd=tmp_path)
    assert out.returncode == 0, out.stderr


def test_a_database_that_cannot_be_written_is_refused_but_can_be_shown(tmp_path: Path) -> None:
    if AS_ROOT:
        pytest.skip("root writes whatever the modes say")
    db = tmp_path / "ro" / "r.db"
    db.parent.mkdir()
    one_run(tmp_path, db)
    db.chmod(0o444)
    out = judge("run", "--game", "nim", "--db", str(db), OPTIMAL, cwd=tmp_path)
    assert out.returncode == 2 and "cannot be written" in out.stderr
    assert "Traceback" not in out.stderr
    db.parent.chmod(0o555)
    try:
        shown = judge("show", "1", "--db", str(db), cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert "optimal.py" in shown.stdout
        listed = judge("show", "--db", str(db), cwd=tmp_path)
        assert listed.returncode == 0 and "finished" in listed.stdout
    finally:
        db.parent.chmod(0o755)


def test_a_database_in_a_folder_that_cannot_be_written_can_be_shown(tmp_path: Path) -> None:
    """As any user: the folder is a read-only bind (the mount, not the modes)."""
    db = tmp_path / "r.db"
    one_run(tmp_path, db)
    from judge.store import Store

    # what makes a folder unwritable for root too: opening read-only as `show` does
    store = Store(db, read_only=True)
    assert [r.id for r in store.runs()] == [1]
    store.close()


def test_a_folder_given_as_the_database_is_refused(tmp_path: Path) -> None:
    out = judge("run", "--game", "nim", "--db", str(tmp_path), OPTIMAL, cwd=tmp_path)
    assert out.returncode == 2 and "is a folder" in out.stderr


@pytest.mark.slow
def test_two_judges_cannot_play_one_run_at_once(tmp_path: Path) -> None:
    bot = tmp_path / "slow.py"
    bot.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.2)\n"
                   "    print(1, line.split()[0], flush=True)\n")
    (tmp_path / "starts.txt").write_text("".join(f"{n}\n" for n in range(1, 41)))
    db = tmp_path / "r.db"
    first = subprocess.Popen(
        [sys.executable, "-m", "judge", "run", "--game", "nim", "--jobs", "1", "--db", str(db),
         "--tests", str(tmp_path / "starts.txt"), str(bot)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            listed = judge("show", "--db", str(db), "--format", "json", cwd=tmp_path)
            if listed.returncode == 0 and json.loads(listed.stdout)[0]["games"] >= 2:
                break
            time.sleep(0.2)
        runs = json.loads(judge("show", "--db", str(db), "--format", "json",
                                cwd=tmp_path).stdout)
        assert runs[0]["state"] == "running" and runs[0]["planned"] == 40
        second = judge("run", "--resume", "1", "--db", str(db), cwd=tmp_path)
        assert second.returncode == 2 and "being played by another judge" in second.stderr
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate()
    runs = json.loads(judge("show", "--db", str(db), "--format", "json", cwd=tmp_path).stdout)
    assert runs[0]["state"] == "interrupted"
    again = judge("run", "--resume", "1", "--db", str(db), "--format", "json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["bots"][0]["games"] == 40


def test_the_run_list_has_date_game_bots_and_progress(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    one_run(tmp_path, db)
    listed = judge("show", "--db", str(db), cwd=tmp_path)
    header = listed.stdout.splitlines()[0].split()
    assert header == ["id", "kind", "date", "game", "bots", "progress", "state"]
    row = listed.stdout.splitlines()[2]
    assert time.strftime("%m-%d") in row and "optimal.py" in row and "1/1" in row
    wide = judge("show", "--wide", "--db", str(db), cwd=tmp_path).stdout.splitlines()[2]
    assert time.strftime("%Y-%m-%d") in wide and "nim misere=off" in wide


def test_resuming_from_another_folder_says_where_the_bot_paths_start(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    shutil.copy(OPTIMAL, tmp_path / "bots" / "mine.py")
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    db = tmp_path / "r.db"
    first = judge("run", "--game", "nim", "--db", str(db), "--tests", "starts.txt",
                  "bots/mine.py", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = judge("run", "--resume", "1", "--db", str(db), cwd=elsewhere)
    assert again.returncode == 2
    assert f"was started in {tmp_path}" in again.stderr and "relative to it" in again.stderr


@pytest.mark.parametrize("option, value, says", [
    ("--memory", "1e30", "more than this machine's memory"),
    ("--cpu-time", "1e20", "more than a week"),
    ("--cpu-time", "0.001", "--cpu-time 0.001 is less than 1"),
    ("--processes", "1e12", "more than the threads this machine allows"),
    # the value as given, and the bound as a whole number
    ("--processes", "1000000000000", "--processes 1000000000000 is more than"),
    ("--output-limit", "2000000", "--output-limit 2000000 is more than 1 GiB in KiB (the "
     "judge reads it) (1048576)"),
    ("--output-limit", "0.0001", "less than 0.0009765625, its smallest step"),
    ("--move-limit", "1e9", "more than a million moves"),
])
def test_limits_beyond_the_system_are_refused_naming_the_option(
    option: str, value: str, says: str, tmp_path: Path
) -> None:
    commands = [["run", "--game", "nim", "--db", str(tmp_path / "r.db")]]
    if option != "--move-limit":  # a batch program plays no game
        commands.append(["nim-batch"])
    for command in commands:
        out = judge(*command, option, value, OPTIMAL, cwd=tmp_path)
        assert out.returncode == 2, out.stderr
        assert says in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "r.db").exists()


def test_an_unusable_cache_folder_is_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "JUDGE_CACHE_DIR": "/etc/passwd"}
    out = subprocess.run([sys.executable, "-m", "judge", "solve", "--game", "ioiwari",
                          "4 3 2 4 2 3 2"], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip() == ("judge: error: JUDGE_CACHE_DIR=/etc/passwd is not a folder: "
                                  "it cannot be the judge's cache")


# --- found by an audit of the organiser's commands ----------------------------------------


def test_a_relative_cache_folder_is_used_as_given(tmp_path: Path) -> None:
    env = {**os.environ, "JUDGE_CACHE_DIR": "cache"}
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    out = subprocess.run([sys.executable, "-m", "judge", "run", "--game", "nim", "--db",
                          str(tmp_path / "r.db"), "--tests", str(tmp_path / "starts.txt"),
                          "--format", "json", OPTIMAL], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["bots"][0]["failures"] == {}
    assert (tmp_path / "cache").is_dir()


def test_a_cache_folder_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    if AS_ROOT:
        pytest.skip("root writes whatever the modes say")
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o555)
    env = {**os.environ, "JUDGE_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-m", "judge", "solve", "--game", "ioiwari",
                          "4 3 2 4 2 3 2"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 2 and "cannot write its cache folder" in out.stderr


def test_output_never_overwrites_the_database_or_a_bot(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    one_run(tmp_path, db)
    shown = judge("show", "1", "--db", str(db), "--output", str(db), cwd=tmp_path)
    assert shown.returncode == 2 and "would overwrite" in shown.stderr
    bot = tmp_path / "bot.py"
    shutil.copy(OPTIMAL, bot)
    ran = judge("run", "--game", "nim", "--db", str(tmp_path / "s.db"), "--output", str(bot),
                str(bot), cwd=tmp_path)
    assert ran.returncode == 2 and bot.read_bytes() == Path(OPTIMAL).read_bytes()
    assert judge("show", "1", "--db", str(db), cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("args, says", [
    (["show", "99999999999999999999999"], "there is no run 99999999999999999999999"),
    (["run", "--game", "nim", "--jobs", "100000", OPTIMAL], "--jobs 100000 is more than"),
    (["tournament", "--game", "nim", "--rounds", "100000000", "--include-optimal", OPTIMAL],
     "--rounds must be from 1 to"),
    (["show", "--game", "1"], "give the RUN too"),
    (["show", "1", "--game", "1", "--format", "json"], "prints the game as text"),
    (["run", "--game", "nim", "--memory", "0.001", OPTIMAL], "less than 1 MiB"),
])
def test_more_bad_settings_are_one_line_and_status_2(args: list[str], says: str,
                                                    tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    one_run(tmp_path, db)
    out = judge(*args, "--db", str(db), cwd=tmp_path)
    assert out.returncode == 2 and says in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_a_malformed_transcript_line_is_refused_not_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "judge-transcript/1", "game": "nim", "rules": "", '
                   '"start": "3 4 5", "moves": "oops", "verdict": null}\n')
    out = judge("show", "--replay", str(bad), cwd=tmp_path)
    assert out.returncode == 2 and "not a transcript line" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_win_thrown_away_into_a_tie_is_said_so(tmp_path: Path) -> None:

    from judge.analysis import MoveReview
    from judge.results import mistake_text
    from judge.solvers.base import Difference

    tie = MoveReview(ply=1, seat=0, move="4", before=Difference(4), after=Difference(0),
                     best_moves=["6"], lead=0)
    assert mistake_text(tie) == "move 1: 4 (right: 6; it threw away the win)"
    lost = tie._replace(before=Difference(0), after=Difference(-2))
    assert mistake_text(lost) == "move 1: 4 (right: 6; it lost the game)"


def test_play_names_the_tricky_opponent_as_it_played(tmp_path: Path) -> None:
    out = judge("play", "--game", "nim", "--start", "3 4 5", "--opponent", "tricky",
                "--format", "json", OPTIMAL, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [p["name"] for p in json.loads(out.stdout)["players"]] == [OPTIMAL, "tricky"]


#: a C bot whose compiler waits forever on its own output (what it includes): its compile
#: ends at the time limit, a failure that is not cached on disk (it may say more of the
#: machine's load than of the source)
WAITS_ON_ITSELF = '#include "/proc/self/fd/1"\nint main(void) { return 0; }\n'


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_compile_that_times_out_is_tried_once_for_the_whole_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str) -> None:
    from judge import verdicts
    from judge.cli import main
    from judge.commands.runs import open_store
    from judge.sandbox import build

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    compiles = tmp_path / "compiles"
    real = build._compile

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - build._compile's
        with open(compiles, "a") as fh:  # (a file: the games may be played in workers)
            fh.write("compile\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(build, "_compile", counted)
    monkeypatch.setattr(build, "COMPILE_SECONDS", 2)
    monkeypatch.setattr(build, "_FAILED", {})  # (what an earlier test's run kept)
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))  # (no cached build)
    bot = tmp_path / "waits.c"
    bot.write_text(WAITS_ON_ITSELF)
    (tmp_path / "starts.txt").write_text("3 4 5\n1 2\n2 2 1\n")
    db = tmp_path / "r.db"
    main(["run", "--game", "nim", "--db", str(db), "--tests", str(tmp_path / "starts.txt"),
          "--jobs", jobs, "--format", "json", "--output", str(tmp_path / "out.json"),
          str(bot)])
    assert compiles.read_text().count("compile") == 1
    with open_store(str(db), must_exist=True) as store:
        games = list(store.games(1).values())
    assert len(games) == 3
    assert {g.verdict.code for g in games} == {verdicts.COMPILE_ERROR}
    assert all("longer than 2 s" in g.verdict.message for g in games)


@pytest.mark.slow
def test_a_league_tries_a_compile_that_times_out_once_when_added_and_once_when_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.cli import main
    from judge.sandbox import build

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    compiles = tmp_path / "compiles"
    real = build._compile

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - build._compile's
        with open(compiles, "a") as fh:  # (a file: the games are played in workers)
            fh.write("compile\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(build, "_compile", counted)
    monkeypatch.setattr(build, "COMPILE_SECONDS", 2)
    monkeypatch.setattr(build, "_FAILED", {})
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "waits.c").write_text(WAITS_ON_ITSELF)
    (tmp_path / "starts.txt").write_text("1 2 4\n2 3\n1 1 3\n")
    db = ["--db", str(tmp_path / "l.db")]
    assert main(["league", "new", "--game", "nim", "--starts", "starts.txt", *db]) == 0
    for level, mu in (("level:2", "17"), ("level:8", "23")):  # pinned: no meetings first
        assert main(["league", "add", "--anchor", level, "--mu", mu, *db]) == 0
    assert main(["league", "add", "waits", "waits.c", *db]) == 0
    assert compiles.read_text().count("compile") == 1
    monkeypatch.setattr(build, "_FAILED", {})  # (a league is played by another process)
    assert main(["league", "play", "--games", "3", "--jobs", "2", *db]) == 0
    assert compiles.read_text().count("compile") == 2
