"""Game clocks: time controls read as fastchess and cutechess write them, each seat's clock
charged with its moves' recorded times, and the flag falling when the clock says."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from judge import verdicts
from judge.clock import Clock, Clocks, SeatClock
from judge.games import load_game
from judge.games.base import InputError
from judge.players.base import Played, Player
from judge.records import MoveRecord, PlayedGame
from judge.referee import play_game

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
