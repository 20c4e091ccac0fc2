"""`judge opponent`: the optimal opponent on stdin/stdout, as the IOI task shipped it."""

from __future__ import annotations

import subprocess
import sys


def opponent(stdin: str, *args: str) -> subprocess.CompletedProcess:
    """Run `judge opponent` with the given input."""
    return subprocess.run(
        [sys.executable, "-m", "judge", "opponent", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_replays_the_statement_example_game_as_player_two():
    out = opponent("2\n5\n5\n", "--game", "ioiwari", "--start", "4 3 2 4 2 3 2")
    assert out.returncode == 0, out.stderr
    # the opponent's last move, pit 7, ends the game: like the judge, it is not sent
    assert out.stdout.splitlines() == ["4 3 2 4 2 3 2", "3", "4"]
    assert "plays 7, which ends the game" in out.stderr
    assert "you win (11 to 9)" in out.stderr


def test_opens_the_game_when_the_user_takes_the_second_seat():
    out = opponent("", "--game", "nim", "--start", "3 4 5", "--seat", "2")
    # the opponent's winning move takes 2 from heap 1, so the user is sent 1 4 5
    assert out.stdout.splitlines()[0] == "1 4 5"
    assert out.returncode == 1 and "input ended" in out.stderr


def test_illegal_move_ends_the_game_with_status_one_and_the_reason():
    out = opponent("9\n", "--game", "ioiwari")
    assert out.returncode == 1
    assert "illegal-move" in out.stderr and "no pit 9" in out.stderr


def test_misere_nim_opponent_wins_from_a_winning_start():
    out = opponent(
        "1 1\n",
        "--game",
        "nim",
        "--rules",
        "misere=on",
        "--start",
        "1 1 1",
    )
    # after the user takes a heap, 1 1 is left: the opponent takes one, the user the last
    assert out.stdout.splitlines()[:2] == ["1 1 1", "2 1"]
