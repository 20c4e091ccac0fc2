"""`judge solve` as a user runs it: JSON contract, errors with exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.command import judge


def test_ioiwari_example_start_solves_to_a_positive_value_with_best_moves():
    out = judge("solve", "--game", "ioiwari", "--format", "json", "4 3 2 4 2 3 2")
    assert out.returncode == 0, out.stderr
    (entry,) = json.loads(out.stdout)
    assert entry["position"] == "4 3 2 4 2 3 2"
    assert entry["value"] > 0
    assert "2" in entry["best_moves"]
    assert entry["remoteness"] >= 1


def test_hundreds_of_positions_from_a_file_in_one_call(tmp_path):
    from judge.games.ioiwari import standard_boards

    f = tmp_path / "starts.txt"
    lines = [" ".join(map(str, b)) for b in standard_boards()]
    f.write_text("# the standard starts\n" + "\n".join(lines))
    out = judge("solve", "--game", "ioiwari", "--format", "json", "--positions", str(f))
    assert out.returncode == 0, out.stderr
    entries = json.loads(out.stdout)
    assert len(entries) == 357
    assert all(e["value"] > 0 for e in entries)


def test_nim_misere_rule_is_recorded_and_applied():
    out = judge("solve", "--game", "nim", "--rules", "misere=on", "--format", "json", "1 1 1")
    (entry,) = json.loads(out.stdout)
    assert entry["value"] == "loss"
    assert entry["game"] == "nim misere=on"


def test_malformed_position_is_a_one_line_error_with_status_2():
    out = judge("solve", "--game", "ioiwari", "4 3 2 x 2 3 2")
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert "x" in out.stderr and "Traceback" not in out.stderr


def test_unknown_rule_is_a_one_line_error_with_status_2():
    out = judge("solve", "--game", "nim", "--rules", "mystery=1", "3 4 5")
    assert out.returncode == 2
    assert "unknown rule 'mystery'" in out.stderr


@pytest.mark.parametrize(("lines", "reason"), [
    ("", "no positions in the file"),
    ("3 4 5\n3 x 5\n", "line 2: bad Nim position '3 x 5'"),
])
def test_an_empty_or_bad_positions_file_is_named_in_the_error(tmp_path, lines, reason):
    path = tmp_path / "positions.txt"
    path.write_text(lines)
    out = judge("solve", "--game", "nim", "--positions", str(path))
    assert out.returncode == 2
    assert out.stderr == f"judge: error: {path}: {reason}" + out.stderr.split(reason, 1)[1]


def test_missing_positions_file_is_an_error_with_status_2(tmp_path):
    out = judge("solve", "--game", "nim", "--positions", str(tmp_path / "nope.txt"))
    assert out.returncode == 2
    assert "no such file" in out.stderr


def test_chopsticks_positions_of_different_shapes_with_outcome_classes():
    out = judge("solve", "--game", "chopsticks", "--format", "json", "(L 1 1 1 1 1 1)",
                "(1 4 | 1 1)", "(1 | 1 1)")
    assert out.returncode == 0, out.stderr
    start, small, lopsided = json.loads(out.stdout)
    assert start["value"] == "loss" and start["outcome"] == "P"
    assert small["value"] == "win" and small["best_moves"]
    assert lopsided["outcome"] in ("N", "P", "L", "R")
    assert start["game"].startswith("chopsticks hands=3/3 fingers=5")
    # each entry names the hand counts of its own position
    assert small["game"].startswith("chopsticks hands=2/2 fingers=5")
    assert lopsided["game"].startswith("chopsticks hands=1/2 fingers=5")


def test_small_positions_solve_under_rules_whose_own_start_is_too_big():
    out = judge("solve", "--game", "chopsticks", "--rules", "hands=16 fingers=100",
                "--format", "json", "(1 | 100)")
    assert out.returncode == 0, out.stderr
    (entry,) = json.loads(out.stdout)
    # Right's hand of 100 tapped by Left's 1 would hold 101 fingers: out, a win in one
    assert (entry["value"], entry["remoteness"]) == ("win", 1)
    assert entry["game"].startswith("chopsticks hands=1/1")


@pytest.mark.parametrize("command", [["run"], ["tournament", "--include-optimal"], ["play"]])
def test_rules_too_big_to_solve_are_refused_before_any_game(tmp_path, command):
    bot = str(Path(__file__).resolve().parent.parent / "bots" / "chopsticks" / "greedy.py")
    db = tmp_path / "r.sqlite"
    out = judge(*command, "--game", "chopsticks", "--rules", "hands=16 fingers=1000",
                "--db", str(db), bot) if command[0] != "play" else judge(
                "play", "--game", "chopsticks", "--rules", "hands=16 fingers=1000", bot)
    assert out.returncode == 2, out.stderr
    assert "use fewer hands or fingers" in out.stderr and "Traceback" not in out.stderr
    assert not db.exists()


def test_chopsticks_stats_count_won_lost_and_drawn_positions():
    out = judge("solve", "--game", "chopsticks", "--rules", "hands=2 knockout=rollover split=on",
                "--stats", "--format", "json")
    assert out.returncode == 0, out.stderr
    stats = json.loads(out.stdout)
    assert stats["positions"] == stats["win"] + stats["loss"] + stats["draw"]
    assert stats["draw"] > 0  # rollover with splits loops: perfect players can draw


def test_senseless_chopsticks_rules_are_refused_with_the_reason():
    out = judge("solve", "--game", "chopsticks", "--rules", "knockout=rollover fingers=1",
                "(L 1 1 1 1 1 1)")
    assert out.returncode == 2
    assert "rollover" in out.stderr and "Traceback" not in out.stderr


def test_nim_stats_on_heaps_too_big_to_count_is_refused_at_once():
    out = judge("solve", "--game", "nim", "--stats", "1000000000000 5")
    assert out.returncode == 2, out.stderr
    assert "at most 2,000,000 counters" in out.stderr and "Traceback" not in out.stderr


def test_a_correct_bot_beats_the_judge_from_huge_lost_heaps_in_a_few_moves():
    big = "1" + "0" * 5000
    bot = str(Path(__file__).resolve().parent.parent / "bots" / "nim" / "optimal.py")
    out = judge("play", "--game", "nim", "--format", "json", "--seat", "2",
                "--start", f"{big} {big} 1000000 1000000", bot)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["result"], data["verdict"]) == ("win", "ok")
    assert len(data["moves"]) == 4


def test_markdown_escapes_the_bar_of_research_notation_so_each_row_keeps_its_cells():
    out = judge("solve", "--game", "chopsticks", "--format", "markdown", "(1 4 | 1 1)")
    assert out.returncode == 0, out.stderr
    header, rule, row = out.stdout.splitlines()
    assert "(1 4 \\| 1 1)" in row
    unescaped = row.replace("\\|", "")
    assert unescaped.count("|") == header.count("|") == rule.count("|")


def test_research_notation_with_other_hand_counts_than_the_rules_is_reported():
    import subprocess

    def solve(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "judge", "solve", "--game", "chopsticks",
                               *args], capture_output=True, text=True, timeout=120)

    named = solve("--rules", "hands=2", "--format", "json", "(1 1 4 | 1 1 1)")
    assert named.returncode == 0
    assert ("(1 1 4 | 1 1 1) is solved with 3/3 hands, its own (the rules say hands=2/2)"
            in named.stderr)
    assert json.loads(named.stdout)[0]["game"].startswith("chopsticks hands=3/3")
    noted = solve("(1 4 | 1 1 1)")
    assert noted.returncode == 0
    assert "is solved with 2/3 hands, its own (the rules default to hands=3/3)" in noted.stderr
    agreed = solve("--rules", "hands=2/3", "(1 4 | 1 1 1)")
    assert agreed.returncode == 0 and agreed.stderr == ""


def test_stats_of_research_notation_name_the_hand_counts_counted():
    out = judge("solve", "--game", "chopsticks", "--rules", "hands=3", "--stats", "--format",
                "json", "(1 1 | 1 1)")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["game"].startswith("chopsticks hands=2/2")


#: a plugin game in a module of its own: one heap, a move takes 1 or 2 counters; `WINNER`
#: says who wins when the heap is empty (normal play: the one who took the last counter)
TAKEAWAY = '''
from judge.games.base import Game, PositionError


class Takeaway(Game):
    """One heap; a move takes 1 or 2 counters."""

    name = "takeaway"

    def start(self):
        return (7, 0)

    def standard_starts(self):
        return [self.start()]

    def parse_position(self, text):
        if not text.isdigit():
            raise PositionError(f"bad heap {text!r}")
        return (int(text), 0)

    def format_position(self, pos):
        return str(pos[0])

    def mover(self, pos):
        return pos[1]

    def legal_moves(self, pos):
        return [k for k in (1, 2) if k <= pos[0]]

    def play(self, pos, move):
        return (pos[0] - move, 1 - pos[1])

    def is_over(self, pos):
        return pos[0] == 0

    def winner(self, pos):
        return WINNER

    def encode(self, pos):
        return 2 * pos[0] + pos[1]

    def wire_start(self, pos):
        return [str(pos[0])]

    def parse_move(self, line, pos):
        return int(line)

    def format_move(self, move, pos):
        return str(move)

    def render(self, pos):
        return str(pos[0])
'''


def test_a_plugin_game_whose_winner_changed_is_solved_anew_not_from_its_old_table(tmp_path):
    """The start's table is cached on disk; a teacher who turns the game misere (a new
    `winner`, same name, rules and class) gets the new game's values, not the old table's."""
    site = tmp_path / "site"
    info = site / "takeaway-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: takeaway\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[judge.games]\ntakeaway = takeaway:Takeaway\n")
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1",
           "JUDGE_CACHE_DIR": str(tmp_path / "cache")}

    def value_of_three(winner: str) -> str:
        (site / "takeaway.py").write_text(TAKEAWAY.replace("WINNER", winner))
        out = subprocess.run([sys.executable, "-m", "judge", "solve", "--game", "takeaway",
                              "--format", "json", "3"], capture_output=True, text=True,
                             env=env, cwd=tmp_path, timeout=600)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)[0]["value"]

    assert value_of_three("1 - pos[1]") == "loss"  # normal play: 3 is lost for the mover
    assert value_of_three("pos[1]") == "win"  # misere: take 2, the other takes the last
