"""`judge league`: a ladder that plays until stopped, with bots and versions added while it
plays (Nim, small starts, the judge's level players and tiny Python bots)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
GREEDY = ROOT / "bots/nim/greedy.py"
OPTIMAL_BOT = ROOT / "bots/nim/optimal.py"
#: a generous bound on waiting for a state (a game stored, a process gone), never a time
DEADLINE = 120


def league(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return judge("league", *args, "--db", "l.db", cwd=folder)


def ok(folder: Path, *args: str) -> str:
    out = league(folder, *args)
    assert out.returncode == 0, out.stderr
    return out.stdout


def board(folder: Path, *args: str) -> dict:
    return json.loads(ok(folder, "show", "--format", "json", *args))


def by_label(data: dict) -> dict[str, dict]:
    return {row["label"]: row for row in data["leaderboard"]}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A Nim league on three small starts with two level anchors."""
    (tmp_path / "starts.txt").write_text("1 2 4\n2 3\n1 1 3\n")
    ok(tmp_path, "new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
    for level in ("level:2", "level:8"):
        ok(tmp_path, "add", "--anchor", level)
    return tmp_path


def background(folder: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "judge", "league", "play", "--jobs", "1",
                             *args, "--db", "l.db"], cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(check, what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not check():
        assert time.monotonic() < end, f"no {what} in {DEADLINE} s"
        time.sleep(0.1)


def test_a_new_version_retires_the_old_whose_games_and_history_stay(folder: Path) -> None:
    (folder / "alice.py").write_bytes(GREEDY.read_bytes())
    ok(folder, "add", "alice", "alice.py")
    ok(folder, "play", "--games", "12", "--jobs", "1")
    first = by_label(board(folder))["alice v1"]["games"]
    assert first > 0
    (folder / "alice.py").write_bytes(OPTIMAL_BOT.read_bytes())  # the same file, resubmitted
    assert "alice v1 retires" in ok(folder, "add", "alice", "alice.py")
    ok(folder, "play", "--games", "12", "--jobs", "1")
    labels = by_label(board(folder))
    assert "alice v1" not in labels and labels["alice v2"]["games"] > 0
    every = by_label(board(folder, "--retired"))
    assert every["alice v1"]["games"] == first and not every["alice v1"]["active"]
    history = board(folder, "--bot", "alice")["history"]
    assert len(history["alice v1"]) == first and history["alice v2"]


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_keeps_every_game_played_and_play_goes_on(folder: Path, sig: int,
                                                           status: int) -> None:
    play = background(folder)
    wait_for(lambda: board(folder)["games"] >= 6, "games stored")
    play.send_signal(sig)
    _, err = play.communicate(timeout=DEADLINE)
    assert play.returncode == status, err
    stored = board(folder)["games"]
    said = int(err.split("league stopped: ")[1].split()[0])
    assert said == stored  # every game it played is stored, nothing more
    ok(folder, "play", "--games", "4", "--jobs", "1")
    assert board(folder)["games"] == stored + 4


def test_a_bot_added_while_play_runs_gets_games_without_a_restart(folder: Path) -> None:
    play = background(folder)
    try:
        wait_for(lambda: board(folder)["games"] >= 2, "games stored")
        again = league(folder, "play", "--games", "2")
        assert again.returncode == 2 and "another judge" in again.stderr  # one at a time
        ok(folder, "add", "bob", str(GREEDY))
        wait_for(lambda: by_label(board(folder)).get("bob v1", {}).get("games", 0) > 0,
                 "game of the bot added")
    finally:
        play.send_signal(signal.SIGTERM)
        play.communicate(timeout=DEADLINE)


def test_a_broken_version_is_placed_last_after_its_first_failures(folder: Path) -> None:
    (folder / "crash.py").write_text("import sys\nsys.exit(3)\n")
    ok(folder, "add", "carol", str(GREEDY))
    ok(folder, "add", "crash", "crash.py")
    ok(folder, "play", "--games", "24", "--jobs", "1")
    rows = board(folder)["leaderboard"]
    last = rows[-1]
    assert last["label"] == "crash v1"
    assert "crash" in last["broken"] and last["failures"] == {"crash": last["games"]}
    assert last["games"] <= 3 + 1  # its first games (a pair at a time), then none


def test_show_gives_every_format(folder: Path) -> None:
    ok(folder, "add", "dave", str(GREEDY))
    ok(folder, "play", "--games", "8", "--jobs", "1")
    text = ok(folder, "show")
    assert "rank" in text and "dave" in text and "level:8" in text
    csv = ok(folder, "show", "--format", "csv").splitlines()
    assert csv[0].startswith("rank,name,version,rating") and len(csv) == 4
    page = ok(folder, "show", "--format", "html")
    assert page.startswith("<!doctype html>") and "dave" in page
    assert "| rank" in ok(folder, "show", "--format", "markdown")
    pair = json.loads(ok(folder, "show", "--pair", "dave", "level:2", "--format", "json"))
    assert all(set(g["players"]) == {"dave v1", "level:2"} for g in pair["games_of_pair"])
    assert "history" in ok(folder, "show", "--bot", "dave")
    listed = judge("show", "1", "--db", "l.db", cwd=folder)  # a league is a stored run
    assert listed.returncode == 0 and "dave" in listed.stdout


def test_bad_inputs_exit_2_with_a_message_and_change_nothing(folder: Path) -> None:
    before = (board(folder), sorted(os.listdir(folder)))
    (folder / "same.py").write_bytes(GREEDY.read_bytes())
    ok(folder, "add", "erin", "same.py")
    before = (board(folder), sorted(p.name for p in folder.rglob("*") if "-wal" not in p.name
                                    and "-shm" not in p.name))
    cases = [
        (("new", "--game", "nim"), "has a league already"),
        (("add", "erin", "same.py"), "the same program"),
        (("add", "frank", "missing.py"), "no bot file"),
        (("add", "bad name", "same.py"), "a bot's name"),
        (("add", "optimal"), "--anchor"),
        (("add", "--anchor", "level:11"), "level:N"),
        (("add", "--anchor", "level:2"), "already"),
        (("add", "--anchor", "bob"), "--anchor takes"),
        (("remove", "nobody"), "no bot"),
        (("remove", "level:2"), "permanent anchor"),
        (("play", "--games", "0"), "--games"),
        (("show", "--bot", "nobody"), "no bot"),
    ]
    for args, message in cases:
        out = league(folder, *args)
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)
    after = (board(folder), sorted(p.name for p in folder.rglob("*") if "-wal" not in p.name
                                   and "-shm" not in p.name))
    assert after == before
    out = judge("league", "show", "--db", "none.db", cwd=folder)
    assert out.returncode == 2 and not (folder / "none.db").exists()
    out = judge("league", "new", "--game", "nim", "--starts", "missing.txt", "--db", "n.db",
                cwd=folder)
    assert out.returncode == 2 and not (folder / "n.db").exists()
