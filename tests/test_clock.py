"""Game clocks (--tc, --tc-for, --tell-time): time controls read as fastchess and cutechess
write them, each seat's clock charged with its moves' recorded times, the flag falling when
the clock says, and the bots told their clock only when asked."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from judge import verdicts
from judge.clock import Clock, Clocks, SeatClock
from judge.games import load_game
from judge.games.base import InputError
from judge.kinds.tournament import TournamentPlan
from judge.plan import Harness, from_config
from judge.players.base import Played, Player
from judge.records import MoveRecord, PlayedGame
from judge.referee import play_game
from judge.store import Store
from tests.command import judge

# --- time controls -------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "clock"), [
    ("10+0.1", Clock(10, 0.1)),
    ("40/60+0.5", Clock(60, 0.5, moves=40)),
    ("1:30+1", Clock(90, 1)),
    ("5", Clock(5)),
    ("1+0.01,first=2", Clock(1, 0.01, first=2)),
    ("60,move=2", Clock(60, move=2)),
    ("0,move=1", Clock(0, move=1)),
])
def test_a_time_control_reads_as_fastchess_writes_it(spec: str, clock: Clock) -> None:
    assert Clock.parse(spec) == clock
    assert Clock.parse(clock.text()) == clock


def test_inf_is_no_clock() -> None:
    assert Clock.parse("inf") is None
    assert Clocks.given("inf", None, False).any is False


@pytest.mark.parametrize("spec", ["", "10+", "abc", "0", "10+x", "0/10+1", "-1+1", "nan",
                                  "10,foo=1", "10,first=1,first=2", "1:x", "10++1", "inf+1"])
def test_a_bad_time_control_is_refused(spec: str) -> None:
    with pytest.raises(InputError, match="time control"):
        Clock.parse(spec)


def test_increments_add() -> None:
    seat = SeatClock(Clock(1, 0.5))
    assert seat.charge(0.2) and seat.left == pytest.approx(1.3)
    assert seat.charge(0.3) and seat.left == pytest.approx(1.5)


def test_moves_per_period_give_the_base_again() -> None:
    seat = SeatClock(Clock(10, moves=2))
    assert seat.charge(3) and seat.left == pytest.approx(7)
    assert seat.charge(3) and seat.left == pytest.approx(14)  # 4 left, and 10 more
    assert seat.charge(1) and seat.left == pytest.approx(13)


def test_the_first_move_has_its_allowance_and_kaggle_moves_their_free_time() -> None:
    first = SeatClock(Clock(1, first=5))
    assert first.allowance() == 6
    assert first.charge(4) and first.left == 1 and first.allowance() == 1
    overage = SeatClock(Clock(3, move=1))
    assert overage.charge(0.5) and overage.left == 3  # within its free second
    assert overage.charge(2.5) and overage.left == pytest.approx(1.5)  # 1.5 s overrun paid
    assert overage.allowance() == pytest.approx(2.5)
    assert not overage.charge(3)  # 2 s overrun, 1.5 s budget: the flag falls


def test_the_flag_falls_beyond_the_clock_and_no_increment_comes() -> None:
    seat = SeatClock(Clock(1, 0.5))
    assert not seat.charge(1.25)
    assert seat.left == pytest.approx(-0.25)


# --- the referee ---------------------------------------------------------------------


class Sleeper(Player):
    """Takes one counter from the first heap that has one, after `seconds`."""

    name = "sleeper"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, pos: Any, last: Played | None) -> Any:
        time.sleep(self.seconds)
        heap = next(i for i, n in enumerate(self.game.format_position(pos).split()) if n != "0")
        return self.game.parse_move(f"{heap + 1} 1", pos)


def test_the_referee_charges_each_move_and_records_what_is_left() -> None:
    game = load_game("nim", "")
    record = play_game(game, [Sleeper(0.05), Sleeper(0.0)], game.parse_position("100"),
                       clocks=[Clock(0.4, 0.01), None])
    assert record.verdict.code == verdicts.TIME_FORFEIT and record.verdict.seat == 0
    mine = [m for m in record.moves if m.seat == 0]
    for n, _ in enumerate(mine, 1):
        spent = sum(m.seconds or 0 for m in mine[:n])
        assert mine[n - 1].clock == pytest.approx(0.4 + 0.01 * n - spent)
    assert all(m.clock is None for m in record.moves if m.seat == 1)
    found = re.fullmatch(r"move (\d+): its clock ran out \(0\.000 s left of 0\.4\+0\.01; "
                         r"the move took (\d+\.\d{3}) s\)", record.verdict.message)
    assert found, record.verdict.message
    assert int(found[1]) == len(mine) + 1
    assert float(found[2]) >= mine[-1].clock - 0.0005  # more than the clock held


def test_a_move_record_from_before_clocks_loads() -> None:
    old = {"game": "nim", "moves": [{"seat": 0, "move": "1 1", "seconds": 0.1}]}
    rec = PlayedGame.from_json(old)
    assert rec.moves[0].clock is None and rec.clocks is None
    assert rec.to_json()["moves"][0]["clock"] is None
    timed = rec._replace(moves=(MoveRecord(0, "1 1", 0.1, None, 0.9),))
    assert PlayedGame.from_json(timed.to_json()).clocks == (0.9,)


def test_a_plan_keeps_its_clocks() -> None:
    clocks = Clocks(Clock(1, 0.01), {"a.py": Clock(5, 0.05), "b.py": None}, tell=True)
    plan = TournamentPlan(game="nim", entrants=("a.py", "b.py"),
                          harness=Harness(clocks=clocks))
    assert from_config("tournament", plan.to_config()).harness.clocks == clocks
    words = plan.to_argv()
    assert words[words.index("--tc") + 1] == "1+0.01"
    assert "a.py=5+0.05" in words and "b.py=inf" in words and "--tell-time" in words
    old = {k: v for k, v in plan.to_config().items() if k != "clocks"}
    assert from_config("tournament", old).harness.clocks == Clocks()
    assert replace(plan, harness=Harness()).to_argv().count("--tc") == 0


@pytest.mark.parametrize(("given", "bot", "clock"), [
    ("a.py=5+0.05", "a.py", Clock(5, 0.05)),
    ("a.py=5,first=2", "a.py", Clock(5, first=2)),  # the spec's own = is not the bot's
    ("a.py=2,first=1,move=0.5", "a.py", Clock(2, first=1, move=0.5)),
    ("x=1.py=5", "x=1.py", Clock(5)),  # a bot's name may hold one
    ("a.py=inf", "a.py", None),
])
def test_tc_for_names_a_bot_and_its_whole_time_control(given: str, bot: str,
                                                        clock: Clock | None) -> None:
    assert Clocks.given(None, [given], False).by_bot == {bot: clock}


# --- the command line ----------------------------------------------------------------

#: a Nim bot that takes one counter from the first heap that has one, after SLEEP seconds;
#: with TOLD it reads a `time` line before each move (kept on its stderr), without it any
#: line not a move makes it fail
BOT = """\
import sys, time
heaps = None
for line in sys.stdin:
    if TOLD:
        assert line.startswith("time "), line
        print(line.strip(), file=sys.stderr, flush=True)
        line = sys.stdin.readline()
    words = [int(w) for w in line.split()]
    if heaps is None:
        heaps = words
    else:
        heaps[words[0] - 1] -= words[1]
    i = next(i for i, n in enumerate(heaps) if n)
    heaps[i] -= 1
    time.sleep(SLEEP)
    print(i + 1, 1, flush=True)
"""


def bot(folder: Path, name: str, sleep: float = 0.0, told: bool = False) -> str:
    (folder / name).write_text(f"SLEEP = {sleep}\nTOLD = {told}\n" + BOT)
    return name


def tournament(folder: Path, *args: str, heap: int = 60) -> dict[str, PlayedGame]:
    """The games of a tournament of Nim from one heap played in `folder` with `args`."""
    (folder / "starts.txt").write_text(f"{heap}\n")
    out = judge("tournament", "--game", "nim", "--starts", "starts.txt", "--sandbox", "none",
                "--jobs", "1", "--db", "r.db", *args, cwd=folder)
    assert out.returncode == 0, out.stderr
    return Store(folder / "r.db", read_only=True).games(1)


def readings(rec: PlayedGame, bot: str) -> tuple[list[MoveRecord], list[float]]:
    """`bot`'s moves in `rec`, and what its clock should read after each from the move
    times recorded (the clock of 1+0.01)."""
    mine = [m for m in rec.moves if m.seat == rec.seat_of(bot)]
    return mine, [1 + 0.01 * n - sum(m.seconds or 0 for m in mine[:n])
                  for n in range(1, len(mine) + 1)]


@pytest.mark.slow
def test_a_bot_loses_on_time_exactly_when_its_clock_says(tmp_path: Path) -> None:
    slow, fast = bot(tmp_path, "slow.py", sleep=0.1), bot(tmp_path, "fast.py")
    games = tournament(tmp_path, "--tc", "1+0.01", slow, fast)
    assert len(games) == 2
    for rec in games.values():
        seat = rec.seat_of(slow)
        assert rec.verdict.code == verdicts.TIME_FORFEIT and rec.verdict.seat == seat
        mine, expected = readings(rec, slow)
        assert [m.clock for m in mine] == pytest.approx(expected)
        assert all(left >= 0 for left in expected)  # the clock held every move it made
        # ... and not the next: it took more than the clock held (0.1 s a move against
        # 0.01 gained: at most 12 moves)
        found = re.search(r"move (\d+): its clock ran out \(0\.000 s left of 1\+0\.01; the "
                          r"move took (\d+\.\d{3}) s\)", rec.verdict.message)
        assert found, rec.verdict.message
        assert int(found[1]) == len(mine) + 1 <= 12
        assert float(found[2]) >= expected[-1] - 0.0005
        theirs, held = readings(rec, fast)
        assert [m.clock for m in theirs] == pytest.approx(held)


@pytest.mark.slow
def test_time_odds(tmp_path: Path) -> None:
    slow, fast = bot(tmp_path, "slow.py", sleep=0.1), bot(tmp_path, "fast.py")
    games = tournament(tmp_path, "--tc", "1+0.01", "--tc-for", f"{slow}=60", slow, fast,
                       heap=20)
    for rec in games.values():
        assert rec.verdict.code == verdicts.OK, rec.verdict
        mine = [m for m in rec.moves if m.seat == rec.seat_of(slow)]
        spent = sum(m.seconds or 0 for m in mine)
        assert mine[-1].clock == pytest.approx(60 - spent)  # no increment
        theirs, held = readings(rec, fast)
        assert [m.clock for m in theirs] == pytest.approx(held)


@pytest.mark.slow
def test_a_bot_told_its_clock_reads_it_before_each_move(tmp_path: Path) -> None:
    told, fast = bot(tmp_path, "told.py", told=True), bot(tmp_path, "other.py", told=True)
    games = tournament(tmp_path, "--tc", "5+0.25,first=2", "--tell-time", told, fast,
                       heap=10)
    for rec in games.values():
        assert rec.verdict.code == verdicts.OK, rec.verdict
        seat = rec.seat_of(told)
        lines = (rec.stderr[seat] or "").split("\n")[:-1]
        mine = [m for m in rec.moves if m.seat == seat]
        # before its first move: its base and its first move's allowance; then what its
        # clock read after its move before
        expected = ["time 7.000 0.250"] + [f"time {m.clock:.3f} 0.250" for m in mine[:-1]]
        assert lines == expected


def test_a_bot_not_told_reads_no_time_line(tmp_path: Path) -> None:
    strict, other = bot(tmp_path, "strict.py"), bot(tmp_path, "other.py")
    games = tournament(tmp_path, "--tc", "5+0.25", strict, other, heap=4)
    assert all(rec.verdict.code == verdicts.OK for rec in games.values())
    assert all(m.clock is not None for rec in games.values() for m in rec.moves)


@pytest.mark.parametrize(("args", "says"), [
    (["--tc", "10+x"], "time control '10+x': give [MOVES/]BASE"),
    (["--tc", "10,first=x"], "time control '10,first=x': 'x' is not a number of seconds"),
    (["--tc", "1:2:3"], "time control '1:2:3': give [MOVES/]BASE"),
    (["--tc-for", "nobody.py=1+0.1"], "--tc-for 'nobody.py': not one of the run's bots"),
    (["--tc-for", "a.py"], "--tc-for 'a.py': give BOT=SPEC"),
    (["--tc", "1", "--move-time", "2"], "--move-time does not apply with a clock"),
    (["--tell-time"], "--tell-time tells a bot its clock: give --tc"),
])
def test_a_bad_clock_is_one_line_and_status_2(tmp_path: Path, args: list[str],
                                               says: str) -> None:
    bot(tmp_path, "a.py"), bot(tmp_path, "b.py", sleep=0.001)
    out = judge("tournament", "--game", "nim", "--db", "r.db", *args, "a.py", "b.py",
                cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.startswith(f"judge: error: {says}"), out.stderr
    assert out.stderr.count("\n") == 1
    assert not (tmp_path / "r.db").exists()


@pytest.mark.parametrize("player", ["level:3", "optimal"])
def test_a_clock_for_the_judge_s_own_player_is_refused_as_such(tmp_path: Path,
                                                              player: str) -> None:
    """level:3 is given among the bots: the error says it plays without a clock, not that
    it is not one of the run's bots."""
    bot(tmp_path, "a.py")
    out = judge("tournament", "--game", "nim", "--db", "r.db", "--tc-for", f"{player}=1",
                "a.py", player, cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr == (f"judge: error: --tc-for {player!r}: the judge's own players "
                          "(optimal, tricky, level:N) play without a clock\n"), out.stderr
    assert not (tmp_path / "r.db").exists()


def test_a_run_shows_its_clock_and_each_moves_reading(tmp_path: Path) -> None:
    bot(tmp_path, "a.py")
    out = judge("run", "--game", "nim", "--sandbox", "none", "--jobs", "1", "--db", "r.db",
                "--tc", "30+1", "--format", "json", "--details", "a.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^judge: run 1: nim: .*, tc 30\+1, confinement", out.stderr, re.M)
    games = json.loads(out.stdout)["games"]
    for game in games:
        clocks = game["clocks"]
        assert len(clocks) == len(game["moves"])
        bot_moves = clocks[game["seat"] - 1::2] if game["moves"] else []
        assert all(c is not None and 0 < c <= 30 + len(clocks) for c in bot_moves)
        assert all(c is None for c in clocks[2 - game["seat"]::2])


# --- judge play ----------------------------------------------------------------------


@pytest.mark.slow
def test_judge_play_forfeits_a_bot_exactly_when_its_clock_says(tmp_path: Path) -> None:
    slow = bot(tmp_path, "slow.py", sleep=0.1)
    # from two equal heaps the optimal player answers each move in the other heap: the
    # game would last 120 moves
    out = judge("play", "--game", "nim", "--start", "60 60", "--sandbox", "none",
                "--tc", "1+0.01", "--format", "json", slow, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["result"] == "loss" and data["verdict"] == verdicts.TIME_FORFEIT
    mine = [m for m in data["moves"] if m["seat"] == 1]
    expected = [1 + 0.01 * n - sum(m["seconds"] for m in mine[:n])
                for n in range(1, len(mine) + 1)]
    assert [m["clock"] for m in mine] == pytest.approx(expected)
    assert all(left >= 0 for left in expected)
    found = re.fullmatch(r"move (\d+): its clock ran out \(0\.000 s left of 1\+0\.01; the "
                         r"move took (\d+\.\d{3}) s\)", data["message"])
    assert found, data["message"]
    assert int(found[1]) == len(mine) + 1 <= 12
    assert float(found[2]) >= expected[-1] - 0.0005
    assert all(m["clock"] is None for m in data["moves"] if m["seat"] == 2)  # untimed


def test_judge_play_shows_a_bot_told_its_clock_each_reading(tmp_path: Path) -> None:
    told = bot(tmp_path, "told.py", told=True)
    out = judge("play", "--game", "nim", "--start", "1 1 1 1", "--sandbox", "none",
                "--tc", "5+0.25,first=2", "--tell-time", told, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "verdict: ok" in out.stdout
    # its two moves, each with its clock's reading; the optimal player's without
    assert len(re.findall(r"player 1 \(told\.py\): .*\(\d\.\d{3} s, clock 0:0[57]\.\d\)",
                          out.stdout)) == 2, out.stdout
    assert "stderr of player 1 (last lines):\ntime 7.000 0.250\ntime " in out.stdout


def test_a_person_whose_clock_runs_out_loses_on_time_and_is_not_waited_for() -> None:
    # the person plays one move, then types nothing and never closes the input
    proc = subprocess.Popen([sys.executable, "-m", "judge", "play", "--game", "nim",
                             "--start", "3 4 5", "--tc", "1+0.5", "--format", "json",
                             "human"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write("1 2\n")
    proc.stdin.flush()
    try:
        proc.wait(timeout=60)  # the input stays open (its few lines fit in the pipes)
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.stdout is not None and proc.stderr is not None
    out, said = proc.stdout.read(), proc.stderr.read()
    assert proc.returncode == 0, said
    data = json.loads(out)
    assert data["result"] == "loss" and data["verdict"] == verdicts.TIME_FORFEIT
    assert data["message"].startswith("move 2: its clock ran out (0.000 s left of 1+0.5")
    first = data["moves"][0]
    assert first["clock"] == pytest.approx(1.5 - first["seconds"])
    assert "clocks: you 0:01." in said and "optimal untimed" in said
    assert "you lose on time: move 2: its clock ran out" in said


@pytest.mark.slow
def test_judge_play_gives_a_bot_time_odds_and_the_person_the_default_clock(
        tmp_path: Path) -> None:
    slow = bot(tmp_path, "slow.py", sleep=0.2)
    # the bot (player 1) takes from heap 1, the person mirrors it at once in heap 2: the
    # bot's own clock of 0.6 s (its start-up free) holds its moves 2 and 3 of 0.2 s and
    # not 4, the person's 60 s every one
    out = subprocess.run([sys.executable, "-m", "judge", "play", "--game", "nim",
                          "--start", "60 60", "--sandbox", "none", "--tc", "60",
                          "--tc-for", f"{slow}=0.6,first=2", "--vs", "human",
                          "--format", "json", slow], input="2 1\n" * 60,
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["result"] == "loss" and data["verdict"] == verdicts.TIME_FORFEIT
    assert data["failed_seat"] == 1
    assert re.fullmatch(r"move 4: its clock ran out \(0\.\d{3} s left of 0\.6,first=2; the "
                        r"move took \d\.\d{3} s\)", data["message"]), data["message"]
    mine = [m["seconds"] for m in data["moves"] if m["seat"] == 1]
    assert [m["clock"] for m in data["moves"] if m["seat"] == 1] == pytest.approx(
        [0.6, 0.6 - mine[1], 0.6 - mine[1] - mine[2]])
    theirs = [m["seconds"] for m in data["moves"] if m["seat"] == 2]
    assert len(theirs) == 3 and [m["clock"] for m in data["moves"] if m["seat"] == 2] \
        == pytest.approx([60 - sum(theirs[:n]) for n in range(1, 4)])
    assert "clocks: slow.py 0:00.6, you 1:00.0" in out.stderr  # before the first move


def test_judge_play_puts_a_computer_player_on_a_clock_only_when_named(tmp_path: Path) -> None:
    a = bot(tmp_path, "a.py")
    out = judge("play", "--game", "nim", "--start", "2 2", "--sandbox", "none",
                "--tc-for", "optimal=30", "--format", "json", a, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert all((m["clock"] is None) == (m["seat"] == 1) for m in data["moves"])
    assert all(0 < m["clock"] <= 30 for m in data["moves"] if m["seat"] == 2)


@pytest.mark.parametrize(("args", "says"), [
    (["--tc", "1+x"], "time control '1+x': give [MOVES/]BASE"),
    (["--tc", "1", "--move-time", "2"], "--move-time does not apply with a clock"),
    (["--tell-time"], "--tell-time tells a bot its clock: give --tc (or --tc-for)\n"),
    (["--tc-for", "b.py=1"], "--tc-for 'b.py': not a player of this game (name one as "
     "given: a.py, optimal)"),
    (["--tc-for", "human=1"], "--tc-for 'human': not a player of this game"),
    (["--tc-for", "a.py=1+x"], "time control '1+x': give [MOVES/]BASE"),
    (["--tc-for", "a.py"], "--tc-for 'a.py': give BOT=SPEC"),
    (["--tc-for", "a.py=1", "--tc-for", "a.py=2"], "--tc-for names a.py twice"),
])
def test_judge_play_refuses_a_bad_clock_in_one_line(tmp_path: Path, args: list[str],
                                                    says: str) -> None:
    out = judge("play", "--game", "nim", *args, bot(tmp_path, "a.py"), cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith(f"judge: error: {says}"), out.stderr
    assert out.stderr.count("\n") == 1
