"""--fail-fast N: a bot whose first N games end with the same failure on its first move has
its other games recorded as not played, and lost; any other bot plays all of its games."""

from __future__ import annotations

import json
from pathlib import Path

from judge import verdicts
from judge.games import load_game
from judge.kinds.grading import given_up
from judge.plan import OPTIMAL
from judge.records import MoveRecord, PlayedGame, Verdict
from judge.referee import not_played
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
TESTS = "1 2\n1 3\n2 3\n1 4\n2 5\n"  # five Nim starts won by the mover


def record(code: str, bot_moves: int = 0, seat: int | None = 0) -> PlayedGame:
    moves = (MoveRecord(0, "1 1", 0.1),) * bot_moves
    return PlayedGame("nim", "1 2", ("bot.py", OPTIMAL), moves,
                      verdict=Verdict(code, "", seat))


def test_only_the_same_failure_on_the_first_move_in_each_of_n_games_gives_up() -> None:
    same = [record(verdicts.TIME_LIMIT)] * 3
    assert "time-limit on its first move (--fail-fast 3)" in given_up("bot.py", same, 3)
    assert given_up("bot.py", same[:2], 3) is None  # fewer games than N
    assert given_up("bot.py", [*same[:2], record(verdicts.CRASH)], 3) is None  # two ways
    # the same failure, once on a later move: the same way all the same
    assert given_up("bot.py", [*same[:2], record(verdicts.TIME_LIMIT, 1)], 3) == \
        "its last 3 games ended with time-limit (--fail-fast 3)"
    assert given_up("bot.py", [*same[:2], record(verdicts.OK, seat=None)], 3) is None


def test_a_bot_that_crashes_at_start_plays_n_games_and_loses_the_rest_unplayed(
        tmp_path: Path) -> None:
    (tmp_path / "tests.txt").write_text(TESTS)
    (tmp_path / "crash.py").write_text("import sys\nsys.exit(3)\n")
    (tmp_path / "good.py").write_bytes((ROOT / "bots" / "nim" / "optimal.py").read_bytes())
    out = judge("run", "--game", "nim", "--tests", "tests.txt", "--fail-fast", "2",
                "--sandbox", "none", "--format", "json", "crash.py", "good.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    crash = [g for g in data["games"] if g["bot"] == "crash.py"]
    assert [g["verdict"] for g in crash] == ["crash", "crash", *["not-played"] * 3]
    assert all(g["result"] == "loss" for g in crash)
    assert "its first 2 games ended with crash on its first move" in crash[-1]["message"]
    good = [g for g in data["games"] if g["bot"] == "good.py"]
    assert [g["verdict"] for g in good] == ["ok"] * 5  # a good bot plays every game
    bots = {b["bot"]: b for b in data["bots"]}
    assert bots["crash.py"]["failures"] == {"crash": 2, "not-played": 3}
    assert bots["good.py"]["wins"] == 5


def test_a_resume_keeps_the_runs_fail_fast_and_a_bad_n_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tests.txt").write_text(TESTS)
    (tmp_path / "crash.py").write_text("import sys\nsys.exit(3)\n")
    first = judge("run", "--game", "nim", "--tests", "tests.txt", "--fail-fast", "1",
                  "--sandbox", "none", "crash.py", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = judge("run", "--resume", "1", "--fail-fast", "2", cwd=tmp_path)
    assert again.returncode == 2 and "drop --fail-fast" in again.stderr
    for bad in ("0", "-1", "x"):
        refused = judge("run", "--game", "nim", "--fail-fast", bad, "crash.py", cwd=tmp_path)
        assert refused.returncode == 2 and "--fail-fast" in refused.stderr


def test_a_game_not_played_says_why_in_words_that_fit_it() -> None:
    assert verdicts.given_up(verdicts.COMPILE_ERROR, 3) == \
        "not played: the bot did not compile (--fail-fast 3)"
    assert verdicts.given_up(verdicts.CRASH, 1) == \
        "not played: its first game ended with crash on its first move (--fail-fast 1)"
    assert verdicts.given_up(verdicts.CRASH, 2).startswith("not played: its first 2 games")
    # the schedule's reason, as the referee records it
    game = load_game("nim")
    record = not_played(game, game.parse_position("1 2"), ["bot.py", OPTIMAL], 0,
                        "its first 2 games ended with compile-error on its first move "
                        "(--fail-fast 2)")
    assert record.verdict.code == verdicts.NOT_PLAYED
    assert record.verdict.message == "not played: the bot did not compile (--fail-fast 2)"
    assert verdicts.not_played_message("another reason") == "another reason"


def test_a_bot_that_does_not_compile_has_its_games_say_so(tmp_path: Path) -> None:
    (tmp_path / "tests.txt").write_text(TESTS)
    (tmp_path / "broken.py").write_text("def (:\n")  # a syntax error: compile-error
    out = judge("run", "--game", "nim", "--tests", "tests.txt", "--fail-fast", "2",
                "--sandbox", "none", "--db", "r.db", "--format", "json", "broken.py",
                cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)["games"]
    assert [g["verdict"] for g in games] == ["compile-error"] * 2 + ["not-played"] * 3
    for unplayed in games[2:]:
        assert unplayed["message"] == "not played: the bot did not compile (--fail-fast 2)"
        assert "on its first move" not in unplayed["message"]
    # a game replayed shows the compiler's message with its line breaks, escaped
    shown = judge("show", "1", "--db", "r.db", "--game", "1", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    verdict = shown.stdout[shown.stdout.index("verdict: "):]
    assert verdict.startswith("verdict: compile-error (player 1, broken.py):\n  "), verdict
    assert "\\n" not in verdict and "SyntaxError" in verdict
    assert len(verdict.splitlines()) > 2
    unplayed = judge("show", "1", "--db", "r.db", "--game", "3", cwd=tmp_path)
    assert "verdict: not-played (player 1, broken.py): not played: the bot did not " \
        "compile (--fail-fast 2)\n" in unplayed.stdout


def test_a_bot_whose_last_n_games_time_out_on_a_later_move_loses_the_rest_unplayed(
        tmp_path: Path) -> None:
    (tmp_path / "tests.txt").write_text(TESTS)
    optimal = (ROOT / "bots" / "nim" / "optimal.py").read_text()
    moved = "            print(heap, count, flush=True)\n"
    assert moved in optimal  # its first move at once, then asleep past --move-time
    (tmp_path / "sleepy.py").write_text(optimal.replace(
        moved, moved + "            __import__('time').sleep(60)\n"))
    out = judge("run", "--game", "nim", "--tests", "tests.txt", "--fail-fast", "2",
                "--move-time", "0.5", "--format", "json", "sleepy.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)["games"]
    assert [g["verdict"] for g in games] == ["time-limit", "time-limit", *["not-played"] * 3]
    assert all(len(g["moves"]) >= 2 for g in games[:2])  # it moved, then timed out
    assert {g["message"] for g in games[2:]} == {
        "not played: its last 2 games ended with time-limit on a later move (--fail-fast 2)"}


def test_the_last_n_games_are_each_bots_latest_in_the_schedule() -> None:
    later = [record(verdicts.CRASH, 1)] * 2
    assert given_up("bot.py", later, 2, first=False) == \
        "its last 2 games ended with crash on a later move (--fail-fast 2)"
    assert given_up("bot.py", later, 2) == given_up("bot.py", later, 2, first=False)
    assert given_up("bot.py", [record(verdicts.CRASH)] * 2, 2, first=False) == \
        "its last 2 games ended with crash on its first move (--fail-fast 2)"
    assert given_up("bot.py", [record(verdicts.CRASH, 1), record(verdicts.CRASH)], 2,
                    first=False) == "its last 2 games ended with crash (--fail-fast 2)"
    assert given_up("bot.py", [record(verdicts.CRASH, 1), record(verdicts.OK, 3, None)], 2,
                    first=False) is None
