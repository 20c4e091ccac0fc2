"""Who is in a league: bots added at once each told what they retired, and upload tokens
only for its members (without playing a game); and what its play, through the path every
kind of run plays through (`judge.commands.runs.play`), keeps when it cannot go on."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

import judge.backends as backends
from judge.cli import main
from judge.commands import inputs, runs
from judge.exits import ExitStatus
from judge.kinds import league
from judge.league import game_number
from judge.store import Store

ROOT = Path(__file__).resolve().parent.parent
GREEDY = ROOT / "bots/nim/greedy.py"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A Nim league with carol v1 in it."""
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    path = str(tmp_path / "l.db")
    assert main(["league", "new", "--game", "nim", "--db", path]) == 0
    assert main(["league", "add", "carol", str(GREEDY), "--db", path]) == 0
    return path


def test_versions_added_at_once_each_retire_the_one_before_them(db: str, tmp_path: Path,
                                                                monkeypatch) -> None:
    files = []
    for n in range(2, 6):
        files.append(tmp_path / f"carol{n}.py")
        files[-1].write_text(GREEDY.read_text() + f"# version {n}\n")
    # all four have read the league (carol v1 active) before any is added
    ready = threading.Barrier(len(files))
    checked = inputs.check_bots
    monkeypatch.setattr(inputs, "check_bots", lambda paths: (ready.wait(), checked(paths)))
    answers: list[list[str]] = []

    def add(file: Path) -> None:
        answers.append(league.add_version(inputs, runs, db, "carol", str(file))[1])

    threads = [threading.Thread(target=add, args=(f,)) for f in files]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [["carol v1"], ["carol v2"], ["carol v3"], ["carol v4"]]


def test_a_token_is_only_for_a_bot_of_the_league_unless_asked_for_a_new_one(
        db: str, capsys) -> None:
    def tokens() -> dict[str, str]:
        with Store(db, read_only=True) as store:
            return dict(store.run(1).plan.tokens)  # type: ignore[attr-defined]

    assert main(["league", "token", "ghost", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "no bot 'ghost' in the league" in err and "--new" in err and "Traceback" not in err
    assert tokens() == {}  # nothing made
    assert main(["league", "token", "carol", "--db", db]) == 0
    assert main(["league", "token", "ghost", "--new", "--db", db]) == 0  # its first upload
    assert set(tokens()) == {"carol", "ghost"}
    assert main(["league", "token", "carol", "--new", "--db", db]) == 2  # in it already


def test_a_worker_killed_in_a_game_is_one_line_and_the_games_stored_are_kept(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "add", "dan", str(GREEDY), "--db", db]) == 0
    played = backends.play_spec

    def dies_in_game_7(setup, spec):  # (the workers are forked: they have it)
        if game_number(spec.key) == 7:
            os._exit(9)  # as a worker killed by the kernel in the middle of a game
        return played(setup, spec)

    monkeypatch.setattr(backends, "play_spec", dies_in_game_7)
    capsys.readouterr()
    assert main(["league", "play", "--jobs", "2", "--db", db]) == ExitStatus.STOPPED
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "error" in line]
    assert said == [f"judge: error: a process of the judge that played games ended with a "
                    f"game unplayed; stored: {count(db)} games; `judge league play --db "
                    f"{db}` goes on"], err
    assert count(db) >= 5  # those ended before game 7 was handed out, at least
    monkeypatch.setattr(backends, "play_spec", played)
    before = count(db)
    assert main(["league", "play", "--jobs", "1", "--games", "2", "--db", db]) == 0
    assert count(db) == before + 2
    with Store(db, read_only=True) as store:
        assert store.run(1).finished is None  # a league never finishes


def count(db: str) -> int:
    """How many games the league of `db` has stored."""
    with Store(db, read_only=True) as store:
        return len(store.games(1))


def test_a_league_game_shown_again_names_its_players_as_the_league_does(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "add", "dave", str(ROOT / "bots/nim/random.py"), "--db", db]) == 0
    assert main(["league", "play", "--games", "1", "--jobs", "1", "--db", db]) == 0
    capsys.readouterr()
    assert main(["show", "1", "--game", "1", "--db", db]) == 0
    shown = capsys.readouterr().out
    assert "carol v1" in shown and "dave v1" in shown
    assert ".league" not in shown  # (not the paths of the server's copies)


def test_tc_for_names_a_member_whose_every_version_plays_on_that_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    db = str(tmp_path / "l.db")
    slow = tmp_path / "slow.py"  # greedy, a tenth of a second a move
    slow.write_text(GREEDY.read_text().replace(
        "            print(heap, count, flush=True)",
        "            __import__('time').sleep(0.1)\n            print(heap, count, flush=True)"))
    assert main(["league", "new", "--game", "nim", "--db", db, "--tc-for", "sam=0.05+0"]) == 0
    assert main(["league", "add", "sam", str(slow), "--db", db]) == 0
    assert main(["league", "add", "gus", str(GREEDY), "--db", db]) == 0
    assert main(["league", "play", "--games", "2", "--jobs", "1", "--db", db]) == 0
    with Store(db, read_only=True) as store:
        games = list(store.games(1).values())
    assert len(games) == 2
    for rec in games:  # sam's first move is past its 0.05 s; gus, on no clock, waits
        sam = next(seat for seat, who in enumerate(rec.players) if "/sam/" in who)
        assert (rec.verdict.code, rec.verdict.seat) == ("time-forfeit", sam)


@pytest.mark.parametrize("named", ["optimal", "level:3", "a b"])
def test_tc_for_in_a_league_names_a_bot_by_its_name(tmp_path: Path, named: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "l.db")
    status = main(["league", "new", "--game", "nim", "--db", db, "--tc-for", f"{named}=1"])
    assert status == ExitStatus.BAD_INPUT and "--tc-for" in capsys.readouterr().err
    assert not os.path.exists(db)
