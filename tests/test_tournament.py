"""`judge tournament` with sample bots of known strength."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.games import load_game
from judge.games.base import played_starts
from judge.games.ioiwari import Ioiwari
from judge.solvers import solver_for

#: slow: whole tournaments, killed and resumed (`-m slow` runs them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
BOTS = [str(ROOT / "bots/ioiwari" / name) for name in ("random.py", "greedy.py", "optimal.py")]
STARTS = (ROOT / "samples/ioiwari-starts-51.txt").read_text().splitlines()[1:9]
#: the starts of a default Nim tournament (11: `1 1 1` tells nothing)
NIM_STARTS = len(played_starts(load_game("nim")))


def tournament(tmp_path: Path, *extra: str) -> list[str]:
    """The command line of a small Ioiwari tournament."""
    starts = tmp_path / "starts.txt"
    starts.write_text("\n".join(STARTS) + "\n")
    return [
        sys.executable,
        "-m",
        "judge",
        "tournament",
        "--game",
        "ioiwari",
        "--starts",
        str(starts),
        "--db",
        str(tmp_path / "t.db"),
        "--format",
        "json",
        "--seed",
        "7",
        *extra,
        *BOTS,
    ]


def run(args: list[str]) -> dict:
    """Run and parse the JSON output."""
    out = subprocess.run(args, capture_output=True, text=True, timeout=600)
    void = [g.get("message") for g in json.loads(out.stdout or "{}").get("games", ())
            if g.get("verdict") == "judge-error"]
    assert out.returncode == 0, (out.stderr, void)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def with_optimal(tmp_path_factory) -> dict:
    """A tournament of the three sample bots and the optimal player."""
    return run(tournament(tmp_path_factory.mktemp("t"), "--include-optimal"))


def test_optimal_beats_greedy_beats_random_with_finite_ordered_ratings(with_optimal):
    data = with_optimal
    names = [Path(s["bot"]).name for s in data["standings"]]
    assert names.index("greedy.py") < names.index("random.py")
    assert names.index("optimal.py") < names.index("greedy.py")
    by_name = {Path(s["bot"]).name: s for s in data["standings"]}
    ratings = [by_name[n]["rating"] for n in ("optimal.py", "greedy.py", "random.py")]
    assert ratings == sorted(ratings, reverse=True)
    for s in data["standings"]:
        assert s["rating_low"] < s["rating"] < s["rating_high"]
        assert {"bot", "points", "wins", "ties", "losses", "accuracy"} <= set(s)
    # 4 participants, 6 pairs, 8 starts, both seats
    assert len(data["games"]) == 6 * 8 * 2
    assert data["crosstable"]


def test_the_optimal_player_never_loses_a_game_it_could_win(with_optimal):
    data = with_optimal
    game = Ioiwari()
    solver = solver_for(game)
    for g in data["games"]:
        for seat, who in enumerate(g["players"]):
            if who != "optimal":
                continue
            start = game.parse_position(g["start"])
            value = solver.evaluate(start).value  # for seat 0, who moves first
            if (value > 0) == (seat == 0) and value != 0:
                assert g["results"][seat] == "win", g


def test_a_killed_tournament_resumes_to_the_same_standings(tmp_path):
    whole_dir, part = tmp_path / "whole", tmp_path / "part"
    whole_dir.mkdir()
    part.mkdir()
    whole = run(tournament(whole_dir))
    args = tournament(part)
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    db = part / "t.db"
    stored = 0
    deadline = time.monotonic() + 120
    while stored < 10 and time.monotonic() < deadline:
        time.sleep(0.1)
        try:
            stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:
            stored = 0
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    resumed = run(
        [
            sys.executable,
            "-m",
            "judge",
            "tournament",
            "--resume",
            "1",
            "--db",
            str(db),
            "--format",
            "json",
        ]
    )
    assert len(resumed["games"]) == len(whole["games"])
    strip = [
        {k: s[k] for k in ("bot", "points", "wins", "ties", "losses", "rating")}
        for s in resumed["standings"]
    ]
    assert strip == [
        {k: s[k] for k in ("bot", "points", "wins", "ties", "losses", "rating")}
        for s in whole["standings"]
    ]


def test_random_bots_get_a_recorded_seed_per_game_so_rounds_differ(tmp_path):
    bots = []
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text((ROOT / "bots/nim/random.py").read_text())
        bots.append(str(tmp_path / name))

    def args(db: str) -> list[str]:
        return [sys.executable, "-m", "judge", "tournament", "--game", "nim", "--rounds", "3",
                "--db", str(tmp_path / db), "--format", "json", "--seed", "11", *bots]

    first = run(args("first.db"))
    seeds = [g["seed"] for g in first["games"]]
    assert len(set(seeds)) == len(seeds) == 3 * 2 * NIM_STARTS  # rounds, seats, starts
    assert first["identical_games"] < len(seeds) - 2  # the rounds are not one game repeated
    again = run(args("again.db"))  # the same seed replays the same games
    assert [g["moves"] for g in again["games"]] == [g["moves"] for g in first["games"]]


# --- the judge's own players as entrants: optimal and weaker levels ---------------------------

def nim_seats(tmp_path: Path, db: str, *extra: str) -> list[str]:
    """A Nim tournament of the greedy bot, two weaker levels and the optimal player."""
    return [sys.executable, "-m", "judge", "tournament", "--game", "nim", "--seed", "3",
            "--db", str(tmp_path / db), "--format", "json", *extra,
            str(ROOT / "bots/nim/greedy.py"), "level:2", "level:9", "optimal"]


def test_weaker_levels_are_seats_named_in_the_standings_and_replay_for_a_seed(tmp_path):
    first = run(nim_seats(tmp_path, "first.db", "--jobs", "1"))
    names = [s["bot"] for s in first["standings"]]
    by_name = {s["bot"]: s for s in first["standings"]}
    assert set(by_name) == {str(ROOT / "bots/nim/greedy.py"), "level:2", "level:9", "optimal"}
    assert names[0] == "optimal" and by_name["optimal"]["accuracy"] is None
    assert by_name["level:9"]["accuracy"] > by_name["level:2"]["accuracy"]
    assert len(first["games"]) == 6 * 2 * NIM_STARTS  # 6 pairs, both seats
    # the same seed plays the same games, in one process or two
    again = run(nim_seats(tmp_path, "again.db", "--jobs", "2"))
    assert [(g["key"], g["seed"], g["moves"]) for g in again["games"]] == [
        (g["key"], g["seed"], g["moves"]) for g in first["games"]]
    # the run records the levels: its command line names them, its transcripts replay
    from judge.store import Store

    argv = Store(str(tmp_path / "first.db")).run(1).plan.to_argv()
    assert argv[-2:] == ["level:2", "level:9"] and "--include-optimal" in argv
    jsonl = tmp_path / "games.jsonl"
    subprocess.run([sys.executable, "-m", "judge", "show", "1", "--db",
                    str(tmp_path / "first.db"), "--format", "jsonl", "--output", str(jsonl)],
                   check=True, timeout=120)
    replay = subprocess.run([sys.executable, "-m", "judge", "show", "--replay", str(jsonl)],
                            capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0 and "replay as recorded" in replay.stdout + replay.stderr


def test_a_tournament_with_levels_resumes_to_the_same_games(tmp_path):
    whole = run(nim_seats(tmp_path, "whole.db"))
    part = run(nim_seats(tmp_path, "part.db"))
    db = sqlite3.connect(tmp_path / "part.db")
    with db:  # as if stopped half-way: half of the games are not stored, the run not finished
        db.execute("DELETE FROM games WHERE rowid % 2 = 0")
        db.execute("UPDATE runs SET finished = NULL")
    assert db.total_changes > len(whole["games"]) // 2
    db.close()
    resumed = run([sys.executable, "-m", "judge", "tournament", "--resume", "1", "--db",
                   str(tmp_path / "part.db"), "--format", "json"])
    assert len(part["games"]) == len(resumed["games"]) == len(whole["games"])
    assert [(g["key"], g["moves"]) for g in resumed["games"]] == [
        (g["key"], g["moves"]) for g in whole["games"]]


@pytest.mark.parametrize("names, words", [
    (["level:11", "optimal"], "level:N with N from 0"),
    (["level:3", "level:03"], "level:3 is named twice"),
    (["level:3"], "at least two participants"),
])
def test_bad_levels_are_refused_before_anything_is_played(tmp_path, names, words):
    out = subprocess.run([sys.executable, "-m", "judge", "tournament", "--game", "nim",
                          "--db", str(tmp_path / "t.db"), *names],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and words in out.stderr
    assert not (tmp_path / "t.db").exists()
