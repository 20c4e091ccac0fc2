"""`judge league`: a ladder that plays until stopped, with bots and versions added while it
plays (Nim, small starts, the judge's level players and tiny Python bots)."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.command import judge

#: slow: leagues of hundreds of games, killed and resumed (`-m slow` runs them)
pytestmark = pytest.mark.slow

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
    """A Nim league on three small starts with two level anchors, pinned (so that bots play
    from the first game: anchors placed by their games would meet each other first)."""
    (tmp_path / "starts.txt").write_text("1 2 4\n2 3\n1 1 3\n")
    ok(tmp_path, "new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
    for level, mu in (("level:2", "17"), ("level:8", "23")):
        ok(tmp_path, "add", "--anchor", level, "--mu", mu)
    return tmp_path


def background(folder: Path, *args: str) -> subprocess.Popen[str]:
    jobs = [] if "--jobs" in args else ["--jobs", "1"]
    # Ctrl-C reaches the judge even where the tests run with SIGINT ignored (nohup, &)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen([sys.executable, "-m", "judge", "league", "play", *jobs,
                                 *args, "--db", "l.db"], cwd=folder, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGINT, before)


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
    ok(folder, "add", "amy", str(GREEDY))
    play = background(folder)
    wait_for(lambda: board(folder)["games"] >= 6, "games stored")
    play.send_signal(sig)
    try:
        _, err = play.communicate(timeout=DEADLINE)
    finally:
        play.kill()  # (one that did not stop plays on no longer)
    assert play.returncode == status, err
    stored = board(folder)["games"]
    said = int(err.split("stopped with ")[1].split()[0])
    assert said == stored  # every game it played is stored, nothing more
    ok(folder, "play", "--games", "4", "--jobs", "1")
    assert board(folder)["games"] == stored + 4


def test_a_bot_added_while_play_runs_gets_games_without_a_restart(folder: Path) -> None:
    ok(folder, "add", "amy", str(GREEDY))
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


def test_a_league_of_one_bot_waits_for_a_second_says_so_once_and_then_plays(
        tmp_path: Path) -> None:
    ok(tmp_path, "new", "--game", "nim", "--seed", "3")
    ok(tmp_path, "add", "amy", str(GREEDY))
    play = subprocess.Popen([sys.executable, "-m", "judge", "league", "play", "--jobs", "1",
                             "--games", "4", "--db", "l.db"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert play.stderr is not None
    said = b""
    end = time.monotonic() + DEADLINE
    while b"waiting" not in said:  # (read from the pipe itself, as it comes)
        assert time.monotonic() < end, f"no wait said in {DEADLINE} s: {said!r}"
        if select.select([play.stderr], [], [], 0.1)[0]:
            chunk = os.read(play.stderr.fileno(), 4096)
            assert chunk, said  # (it ended)
            said += chunk
    ok(tmp_path, "add", "bob", str(GREEDY))
    rest = play.communicate(timeout=DEADLINE)[1]
    err = (said + rest).decode()
    assert play.returncode == 0, err
    assert err.count("judge: fewer than two bots to match: waiting for `judge league add`") \
        == 1, err
    assert "4 games played" in err and board(tmp_path)["games"] == 4


def test_a_broken_version_is_placed_last_after_its_first_failures(folder: Path) -> None:
    (folder / "crash.py").write_text("import sys\nsys.exit(3)\n")
    ok(folder, "add", "carol", str(GREEDY))
    ok(folder, "add", "crash", "crash.py")
    ok(folder, "play", "--games", "24", "--jobs", "1")
    rows = board(folder)["leaderboard"]
    last = rows[-1]
    assert last["label"] == "crash v1"
    assert "crash" in last["broken"] and last["failures"] == {"crash": last["games"]}
    assert last["games"] == 3  # its first games, then none


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


def test_a_pair_s_games_list_their_moves_apart_as_a_tournament_does(folder: Path) -> None:
    """Nim's moves are `H K`: a pair's games give them comma-separated (`1 2, 2 1`), as a
    tournament's --details does, where one run of numbers (`1 2 2 1`) hid where each ends."""
    import csv
    import io

    ok(folder, "add", "dave", str(GREEDY))
    ok(folder, "play", "--games", "6", "--jobs", "1")
    games = json.loads(ok(folder, "show", "--pair", "dave", "level:2", "--format",
                          "json"))["games_of_pair"]
    rows = list(csv.DictReader(io.StringIO(ok(folder, "show", "--pair", "dave", "level:2",
                                              "--format", "csv"))))
    assert games and len(rows) == len(games)
    assert any(len(g["moves"]) > 1 for g in games)
    assert [r["moves"] for r in rows] == [", ".join(g["moves"]) for g in games]


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


def test_pinned_anchors_keep_their_rating_over_many_games(folder: Path) -> None:
    ok(folder, "add", "--anchor", "optimal", "--mu", "30")
    ok(folder, "add", "--anchor", "level:5", "--unpinned")
    ok(folder, "add", "gina", str(GREEDY))
    ok(folder, "add", "hugo", str(OPTIMAL_BOT))
    ok(folder, "play", "--games", "60", "--jobs", "2")
    rows = by_label(board(folder))
    pinned = {"level:2": 17.0, "level:8": 23.0, "optimal": 30.0}
    for label, mu in pinned.items():
        assert rows[label]["mu"] == mu and rows[label]["placement"] == "pinned", rows[label]
        assert rows[label]["games"] > 0
    assert rows["level:5"]["sigma"] < 25 / 3 and rows["gina v1"]["sigma"] < 25 / 3
    history = board(folder, "--bot", "level:8")["history"]["level:8"]
    assert history and {s["mu"] for s in history} == {23.0}
    store = sqlite3.connect(folder / "l.db")
    keys = [k for (k,) in store.execute("SELECT key FROM games")]
    assert keys and not any(set(k.split("|")[1:3]) <= {"level:2", "level:8", "optimal"}
                            for k in keys)  # two pinned anchors never meet


SLOW_BOT = """import sys, time
heaps = None
for line in sys.stdin:
    if heaps is None:
        heaps = [int(t) for t in line.split()]
        if heaps == [1, 2, 4]:
            time.sleep(6)  # slow when it moves first from this start only
    else:
        heap, count = map(int, line.split())
        heaps[heap - 1] -= count
    if any(heaps):
        i = heaps.index(max(heaps))
        print(i + 1, heaps[i], flush=True)
        heaps[i] = 0
"""


def most_overtaken(order: list[str]) -> int:
    """The most games matched after a slow game of SLOW_BOT (moving first from 1 2 4) and
    stored before it, of the game keys `order` in the order they were stored."""
    slow = [i for i, k in enumerate(order)
            if "/slow/" in k.split("|")[1] and k.split("|")[3] == "1 2 4"]
    assert slow, order

    def overtaken(i: int) -> int:
        number = int(order[i].split("|")[0])
        return sum(int(k.split("|")[0]) > number for k in order[:i])

    return max(map(overtaken, slow))


def test_a_slot_whose_game_ends_is_given_the_next_while_a_slow_game_plays(folder) -> None:
    (folder / "slow.py").write_text(SLOW_BOT)
    ok(folder, "add", "slow", "slow.py")
    ok(folder, "add", "fast", str(GREEDY))
    ok(folder, "play", "--games", "30", "--jobs", "2")
    store = sqlite3.connect(folder / "l.db")
    order = [k for (k,) in store.execute("SELECT key FROM games ORDER BY stored, rowid")]
    assert len(order) == 30
    # a batch of games per slot would store none matched after a batch before it ends
    assert most_overtaken(order) >= 6, order


def test_a_league_killed_at_random_moments_loses_only_games_in_flight(folder: Path) -> None:
    ok(folder, "add", "ivy", str(GREEDY))
    ok(folder, "add", "jon", str(OPTIMAL_BOT))
    rng = random.Random(7)
    stored = 0
    for _ in range(3):
        play = background(folder, "--jobs", "2")
        target = stored + rng.randint(1, 12)
        wait_for(lambda target=target: board(folder)["games"] >= target, "games stored")
        time.sleep(rng.random() * 0.3)  # somewhere in a game, or between two
        play.kill()  # SIGKILL: no handler runs
        play.communicate(timeout=DEADLINE)
        db = sqlite3.connect(folder / "l.db")
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        db.close()
        now = board(folder)["games"]
        assert now >= target  # every game stored stays stored
        stored = now
    ok(folder, "play", "--games", "6", "--jobs", "2")  # it goes on where it was
    data = board(folder)
    assert data["games"] == stored + 6 and not data["running"]
    assert sum(r["games"] for r in data["leaderboard"]) == 2 * data["games"]
