"""`judge play --vs human`: hints, bad input asked again, undo and redo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"


def play(stdin: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`judge play` with a human typing `stdin`."""
    return subprocess.run([sys.executable, "-m", "judge", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, env=env)


def test_hint_bad_input_undo_and_redo_at_the_terminal():
    typed = "hint\n9 9\nundo\n2 1\nundo\nredo\n2 1\n"
    out = play(typed, "--game", "nim", "--start", "1 2", "--seat", "2", "optimal",
               "--vs", "human")
    assert out.returncode == 0, out.stderr
    assert "2 1: win in 3" in out.stdout  # the hint: the only winning move
    assert "1 1: loss in 2" in out.stdout
    assert "there is no heap 9" in out.stdout  # explained, not a forfeit
    assert "nothing to undo" in out.stdout
    # after undo and redo the game is the same three moves, and the human won it
    assert "1. player 1 (human): take 1 from heap 2 (2 1)" in out.stdout
    assert "3. player 1 (human): take 1 from heap 2 (2 1)" in out.stdout
    assert "result: optimal loses" in out.stdout


def test_a_human_mistake_is_named_with_the_right_move():
    out = play("1 1\n", "--game", "nim", "--start", "1 2", "--seat", "2", "optimal",
               "--vs", "human")
    assert out.returncode == 0, out.stderr
    assert ("1. player 1 (human): take 1 from heap 1 (1 1)  MISTAKE (this move threw away the "
            "win)") in out.stdout
    assert "right: 2 1" in out.stdout


def test_a_failing_bot_loses_to_the_human_with_its_verdict_and_is_cleaned_up(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    out = play("", "--game", "ioiwari", "--vs", "human", str(BOTS / "garbage.py"), env=env)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert "garbage.py loses" in out.stdout
    assert "verdict: garbage (player 1" in out.stdout
    assert not list(tmp_path.glob("judge-bot-*"))  # the bot's work directory is gone


def test_undo_against_a_bot_is_refused_because_a_process_cannot_take_a_move_back():
    # 1 1 1: the human empties heap 1, the bot takes one of the others, the human the last
    out = play("1 1\nundo\nredo\n2 1\n3 1\n", "--game", "nim", "--start", "1 1 1",
               "--vs", str(ROOT / "bots" / "nim" / "optimal.py"), "human")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("a bot program cannot") == 2
    assert "result: human wins" in out.stdout
    assert "verdict: ok" in out.stdout


def test_with_json_the_dialogue_goes_to_stderr_and_stdout_is_one_json_object():
    out = play("2 1\n2 1\n", "--game", "nim", "--start", "1 2", "--format", "json",
               "human", "--vs", "optimal")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["result"] == "win" and data["verdict"] == "ok"
    assert [m["move"] for m in data["moves"]][0] == "2 1"
    assert "you>" in out.stderr and "optimal plays take 1 from heap 1 (1 1)" in out.stderr


def test_quit_and_the_end_of_input_resign_the_game_with_status_0():
    for typed, why in (("1 3\nquit\n", "typed quit"), ("", "the input ended")):
        out = play(typed, "--game", "nim", "--start", "3 4 5", "--vs", "human", "optimal",
                   "--format", "json")
        assert out.returncode == 0, out.stderr
        human = json.loads(out.stdout)["players"][1]
        assert (human["result"], human["verdict"]) == ("loss", "resigned")
        assert why in human["message"]


def test_ctrl_c_alone_interrupts_the_game():
    import signal
    import time

    # Ctrl-C as at a terminal: not ignored by the judge even where the suite runs with it
    # ignored (started in the background by a script), which a child would inherit
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "judge", "play", "--game", "nim",
                                 "--start", "3 4 5", "--vs", "human", "optimal"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, before)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    seen = ""
    while not seen.endswith("> ") and time.monotonic() < deadline:
        seen += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "interrupted" in err


def test_ctrl_c_while_the_command_loads_is_an_interruption_not_a_traceback(monkeypatch):
    from judge import cli

    def interrupted(argv=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["run"]) == 130
