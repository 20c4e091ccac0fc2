"""A bot found waiting for input that will not come loses at once, with the verdict of its
time limit and a message that says what it read, that it waited for more input than the
protocol gives, and when it was stopped; a bot that is only slow is never cut short. Each
bot plays Ioiwari from the statement's start in each sandbox mode this machine has (see
test_hostile); one test plays the first ones again without cgroups.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from test_hostile import LIMITS, MODES_WITH_PTY, first_pit_game, play
from test_languages import need

from judge import verdicts
from judge.commands.inputs import report_tier, tier_for_run
from judge.sandbox import Tier, tier_for, waiting
from tests.command import judge

#: the tiers whose judge sees a bot wait (in the gvisor tier its process is the sandbox's
#: kernel's, not the machine's: it loses at its time limit, as docs/sandbox.md says)
MODES = MODES_WITH_PTY

#: slow: bots that wait for input, found in every tier (`-m slow` runs them)
pytestmark = pytest.mark.slow

#: a first move's limit long enough that a bot found at once is found well before it
EARLY = replace(LIMITS, first_move_seconds=10.0, move_seconds=2.0)
ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
#: what the message says of a bot that waited for more input (the judge knows its output
#: was not held back: a Python or shell bot, or one on a terminal) ...
MORE_INPUT = "then waited for more input than the protocol gives before its move (stopped after"
#: ... of one whose move may be in its output buffer (a C bot on pipes): it asks which
EITHER = ("then waited for input with no move sent: more input than the protocol gives "
          "before its move, or a move written but not flushed? (stopped after")
#: ... and of one that wrote part of a line
NO_NEWLINE = "it wrote '1' without a newline, then waited for input (stopped after"


def stopped_after(message: str) -> float:
    """The seconds after which the message says the bot was stopped."""
    found = re.search(r"\(stopped after (\d+\.\d\d) s\)", message)
    assert found, message
    return float(found[1])


def assert_stopped_early(message: str, limit: float) -> None:
    """The message of a bot stopped before its limit: when, and no word of the limit or of
    the flush advice of old."""
    assert stopped_after(message) < limit, message
    assert "no move within" not in message and "must flush" not in message, message


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("bot", "pty", "said"),
    [
        # its move stays in its stdout's buffer as it reads on: the same, seen from outside,
        # as a C bot that reads too much, so both are asked about
        ("no_flush.c", False, EITHER),
        ("reads_too_many.c", False, EITHER),
        # a terminal: its input arrives a little later, its output is flushed at a newline
        ("reads_too_many.c", True, MORE_INPUT),
        ("one_per_line.py", False, MORE_INPUT),  # Python's output is never held back
        ("read_more.sh", False, MORE_INPUT),  # the shell's own read builtin
        ("no_newline.py", False, NO_NEWLINE),  # some output came, but not a line
        ("thread_waits.py", False, MORE_INPUT),  # its main thread waits on its reader thread
        ("select_waits.py", False, MORE_INPUT),
    ],
)
def test_a_bot_waiting_for_input_is_found_early(mode: str, bot: str, pty: bool,
                                                said: str) -> None:
    record, _ = play(bot, mode, limits=EARLY, pty=pty)
    assert (record.verdict.code, record.verdict.seat, record.results) == (
        verdicts.TIME_LIMIT, 0, ["loss", "win"])
    message = record.verdict.message
    assert message.startswith("move 1: "), message
    if said != NO_NEWLINE:
        assert message.startswith("move 1: it read the start position, "), message
    assert said in message
    # found early by the judge's own clock from its input on (the whole game's time also
    # counts the bot's start, which a busy machine makes as long as it likes)
    assert_stopped_early(message, EARLY.first_move_seconds / 2)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_found_waiting_when_its_game_time_ends_first_is_told_so(mode: str) -> None:
    # the move's deadline is the game's: the bot is not told the game took too long
    limits = replace(EARLY, game_seconds=8.0)
    record, _ = play("one_per_line.py", mode, limits=limits)
    message = record.verdict.message
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert MORE_INPUT in message and "the game took longer" not in message, message
    assert_stopped_early(message, limits.game_seconds / 2)


@pytest.mark.parametrize("mode", MODES)
def test_a_node_bot_in_its_event_loop_is_found_early(mode: str) -> None:
    need("javascript")
    limits = replace(EARLY, first_move_seconds=20.0)  # (Node's start on a busy machine)
    record, _ = play("one_per_line.js", mode, limits=limits)
    assert record.verdict.code == verdicts.TIME_LIMIT
    assert "it read the start position, then waited" in record.verdict.message
    assert_stopped_early(record.verdict.message, limits.first_move_seconds / 2)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_found_waiting_at_a_later_move_has_that_moves_limit(mode: str) -> None:
    record, _ = play("later_move.py", mode, limits=EARLY)
    assert record.verdict.code == verdicts.TIME_LIMIT
    message = record.verdict.message
    assert message.startswith("move 2: it read its opponent's move '"), message
    assert MORE_INPUT in message
    assert_stopped_early(message, EARLY.move_seconds)  # below the move's limit


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
    report_tier()  # (said once bots are to run)
    said = capsys.readouterr().err
    assert "judge: note: a bot that waits for input it will not get is not seen here" in said
    assert "are not known" in said
    limits = replace(LIMITS, first_move_seconds=1.5)
    record, elapsed = play("no_flush.c", "none", limits=limits)
    assert record.verdict.code == verdicts.TIME_LIMIT
    # seen waiting at its deadline: the limit, and both causes asked about
    message = record.verdict.message
    assert message.startswith("no move within 1.5 s on its move 1 (it read the start "
                              "position, then waited for input with no move sent:"), message
    assert "or a move written but not flushed?)" in message and "stopped after" not in message
    assert elapsed >= limits.first_move_seconds


def test_the_command_line_says_what_a_waiting_bot_waited_for(tmp_path: Path) -> None:
    (tmp_path / "starts.txt").write_text("2 2 2 2 4 4 4\n")
    for bot in ("one_per_line.py", "no_flush.c", "read_more.sh"):
        (tmp_path / bot).write_bytes((BOTS / bot).read_bytes())
        (tmp_path / bot).chmod(0o755)
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--sandbox", "none",
                "--db", "r.db", "--format", "json", "one_per_line.py", "no_flush.c",
                cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    games = {g["bot"]: g for g in json.loads(out.stdout)["games"]}
    lines, c_bot = games["one_per_line.py"], games["no_flush.c"]
    assert lines["verdict"] == c_bot["verdict"] == "time-limit"
    assert lines["message"].startswith("move 1: it read the start position, " + MORE_INPUT)
    assert EITHER in c_bot["message"]
    for game in (lines, c_bot):
        assert_stopped_early(game["message"], 5.0)  # the first move's limit is 10 s
    played = judge("play", "--game", "ioiwari", "--sandbox", "none", "read_more.sh",
                   cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    verdict = next(ln for ln in played.stdout.splitlines() if ln.startswith("verdict:"))
    assert verdict.startswith("verdict: time-limit (player 1, read_more.sh): move 1: it "
                              "read the start position, " + MORE_INPUT), verdict
    assert_stopped_early(verdict, 5.0)


def test_a_tier_that_sees_all_of_a_bot_says_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    tier_for_run("none")
    report_tier()
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
