"""A bot found waiting for input that will not come loses at once, with the verdict and
message of its time limit, saying when it was found; a bot that is only slow is never cut
short. Each bot plays Ioiwari from the statement's start in each sandbox mode this machine
has (see test_hostile); one test plays the first ones again without cgroups.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from test_hostile import LIMITS, MODES, first_pit_game, play
from test_languages import need

from judge import verdicts
from judge.commands.inputs import tier_for_run
from judge.sandbox import Tier, tier_for, waiting

#: a first move's limit long enough that a bot found at once is found well before it
EARLY = replace(LIMITS, first_move_seconds=10.0, move_seconds=2.0)
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("bot", "pty"),
    [
        ("no_flush.c", False),  # its move stays in its stdout's buffer as it reads on
        ("reads_too_many.c", False),
        ("reads_too_many.c", True),  # a terminal: its input arrives a little later
        ("one_per_line.py", False),
        ("read_more.sh", False),  # the shell's own read builtin
        ("no_newline.py", False),  # some output came, but not a line
        ("thread_waits.py", False),  # its main thread waits on its reader thread
        ("select_waits.py", False),
    ],
)
def test_a_bot_waiting_for_input_is_found_early(mode: str, bot: str, pty: bool) -> None:
    record, elapsed = play(bot, mode, limits=EARLY, pty=pty)
    assert (record.verdict.code, record.verdict.seat, record.results) == (
        verdicts.TIME_LIMIT, 0, ["loss", "win"])
    message = record.verdict.message
    assert message.startswith("no move within 10 s on its move 1 (found waiting for input"), \
        message
    assert "must flush" in message
    assert elapsed < EARLY.first_move_seconds / 2


@pytest.mark.parametrize("mode", MODES)
def test_a_node_bot_in_its_event_loop_is_found_early(mode: str) -> None:
    need("javascript")
    limits = replace(EARLY, first_move_seconds=20.0)  # (Node's start on a busy machine)
    record, elapsed = play("one_per_line.js", mode, limits=limits)
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert "found waiting for input" in record.verdict.message
    assert elapsed < limits.first_move_seconds / 2


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_found_waiting_at_a_later_move_has_that_moves_limit(mode: str) -> None:
    record, elapsed = play("later_move.py", mode, limits=EARLY)
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert record.verdict.message.startswith(
        "no move within 2 s on its move 2 (found waiting for input after")
    assert elapsed < EARLY.first_move_seconds / 2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "bot",
    [
        "busy_first.py",  # computes 1.5 s
        "sleep_first.py",  # sleeps 1.5 s in clock_nanosleep
        "thread_timed.py",  # its reader thread in read(0), its main thread on a 1 s timer
        "select_timed.py",  # select on its input with a 1 s timeout
        "alarm_read.py",  # read(0) with an alarm that ends it after 1 s
        "child_moves.py",  # read(0), while a child thinks 1 s and writes the move
    ],
)
def test_a_slow_bot_is_never_cut_short(mode: str, bot: str) -> None:
    record, elapsed = play(bot, mode, limits=EARLY)
    expected = first_pit_game()
    assert record.verdict.code == verdicts.OK, record.verdict.message
    assert [m.move for m in record.moves] == [m.move for m in expected.moves]
    assert record.results == expected.results
    assert elapsed >= 1.0


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_whose_child_reads_gets_the_time_limit(mode: str) -> None:
    # its own process waits for the child: not a read of its input
    limits = replace(LIMITS, first_move_seconds=1.5)
    record, elapsed = play("child_reads.sh", mode, limits=limits)
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert record.verdict.message.startswith("no move within 1.5 s on its move 1 (it was")
    assert "found" not in record.verdict.message
    assert elapsed >= limits.first_move_seconds


def test_where_the_judge_cannot_look_the_time_limit_decides(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(waiting, "_KINDS", None)  # as on a machine of unknown numbers
    tier_for_run("none")
    said = capsys.readouterr().err
    assert "judge: note: a bot that waits for input it will not get is not seen here" in said
    assert "are not known" in said
    limits = replace(LIMITS, first_move_seconds=1.5)
    record, elapsed = play("no_flush.c", "none", limits=limits)
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert "found" not in record.verdict.message
    assert elapsed >= limits.first_move_seconds


def test_a_tier_that_sees_all_of_a_bot_says_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    tier_for_run("none")
    assert "not seen here" not in capsys.readouterr().err
    assert waiting.blind_reason(tier_for("none")) is None


def test_a_tier_without_the_helper_or_cgroups_does_not_see_every_process() -> None:
    bare = Tier(sandbox="none", uid=False, cgroups=False, helper=False)
    assert "all of a bot's processes" in (waiting.blind_reason(bare) or "")


@pytest.mark.skipif(not tier_for("none").cgroups,
                    reason="the slots have no cgroups here: the tests above ran without them")
def test_without_cgroups_the_judges_own_view_finds_them_too() -> None:
    chosen = "found_early or never_cut_short"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", chosen,
         "tests/test_early_detection.py"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**os.environ, "JUDGE_CGROUPS": "off"},
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.strip().splitlines()[-1], done.stdout[-2000:]
