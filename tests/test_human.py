"""`judge play --vs human`: hints, bad input asked again, undo and redo."""

from __future__ import annotations

import subprocess
import sys


def play(stdin: str, *args: str) -> subprocess.CompletedProcess:
    """`judge play` with a human typing `stdin`."""
    return subprocess.run([sys.executable, "-m", "judge", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


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
    assert "1. player 1 (human): 2 1" in out.stdout
    assert "3. player 1 (human): 2 1" in out.stdout
    assert "result: optimal loses" in out.stdout


def test_a_human_mistake_is_named_with_the_right_move():
    out = play("1 1\n", "--game", "nim", "--start", "1 2", "--seat", "2", "optimal",
               "--vs", "human")
    assert out.returncode == 0, out.stderr
    assert "1. player 1 (human): 1 1  MISTAKE (this move threw away the win)" in out.stdout
    assert "right: 2 1" in out.stdout
