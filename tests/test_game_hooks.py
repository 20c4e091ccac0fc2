"""What the judge says and scores of a game comes from the game's optional hooks: a game
that sets none of them is graded, scored, explained and listed with the defaults, and the
built-in games keep their own (points, test sets, rules text, end reasons, nim-sum)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from judge.cli import main
from judge.games import load_game
from judge.games.base import TOURNAMENT_STARTS, Game, Points, PositionError, Seat, evenly
from judge.games.ioiwari import START_BEADS, canonical_rotation
from judge.results import points_of
from judge.solvers import solver_for
from judge.solvers.base import order
from judge.testsets import default_tests
from judge.web.explain import end_reason, rules_panel


@dataclass(frozen=True)
class Pile:
    """Counters left and the seat to move."""

    left: int
    to_move: Seat = 0


class TakeAway(Game[Pile, int]):
    """Take one or two counters from a pile; whoever takes the last one wins.

    (A game with no hook of its own: every default applies.)"""

    name = "takeaway"

    def start(self) -> Pile:
        return Pile(10)

    def standard_starts(self) -> list[Pile]:
        return [Pile(n) for n in range(1, 31)]

    def parse_position(self, text: str) -> Pile:
        """The counters left: '10'."""
        if not text.strip().isdigit():
            raise PositionError(f"not a pile: {text!r}")
        return Pile(int(text))

    def format_position(self, pos: Pile) -> str:
        return str(pos.left)

    def mover(self, pos: Pile) -> Seat:
        return pos.to_move

    def legal_moves(self, pos: Pile) -> list[int]:
        return [k for k in (1, 2) if k <= pos.left]

    def play(self, pos: Pile, move: int) -> Pile:
        return Pile(pos.left - move, 1 - pos.to_move)

    def is_over(self, pos: Pile) -> bool:
        return pos.left == 0

    def winner(self, pos: Pile) -> Seat | None:
        return 1 - pos.to_move

    def wire_start(self, pos: Pile) -> list[str]:
        return [str(pos.left)]

    def parse_move(self, line: str, pos: Pile) -> int:
        return int(line)

    def format_move(self, move: int, pos: Pile) -> str:
        return str(move)

    def render(self, pos: Pile) -> str:
        return "|" * pos.left


def test_a_game_without_hooks_gets_the_defaults() -> None:
    game = TakeAway()
    assert game.points == Points(1.0, 0.5, 0.0) and game.max_tests is None
    assert game.position_syntax() == "The counters left: '10'."
    assert game.rules_text() == ["Take one or two counters from a pile; whoever takes the "
                                 "last one wins."]
    assert rules_panel(game) == {"summary": game.rules_text(), "variant": None, "notes": [],
                                 "protocol": None}
    over = game.play(Pile(1), 1)
    assert end_reason(game, over, False, 100, None) == "player 1 wins"
    assert game.grundy_value(Pile(7)) is None and game.browser_limit(Pile(10**6)) is None
    rng = random.Random(1)
    assert {game.random_move(Pile(5), rng) for _ in range(50)} == {1, 2}


def test_a_game_without_hooks_gets_default_test_sets_from_its_solver() -> None:
    game = TakeAway()
    # a multiple of 3 is lost for the mover: the first seat is tested on the others
    assert [p.left for p in default_tests(game, True)] == [n for n in range(1, 31) if n % 3]
    assert [p.left for p in default_tests(game, False)] == list(range(3, 31, 3))
    starts = game.tournament_starts()
    assert len(starts) == TOURNAMENT_STARTS and starts == evenly(game.standard_starts(),
                                                                  TOURNAMENT_STARTS)


def test_points_per_game_come_from_the_game_and_default_to_one_half_nothing() -> None:
    assert points_of("ioiwari") == {"win": 4.0, "tie": 2.0, "loss": 0.0}
    assert points_of("nim") == {"win": 1.0, "tie": 0.0, "loss": 0.0}
    assert points_of("chopsticks") == points_of("tictactoe") == {"win": 1.0, "tie": 0.5,
                                                                 "loss": 0.0}
    assert points_of("no-such-game") == {"win": 1.0, "tie": 0.5, "loss": 0.0}


def test_ioiwari_second_seat_is_tested_on_lost_20_bead_boards_one_per_rotation() -> None:
    game = load_game("ioiwari")
    tests = default_tests(game, False)
    solver = solver_for(game)
    assert len(tests) == 75
    assert all(sum(b.pits) == START_BEADS and canonical_rotation(b.pits) == b.pits
               and order(solver.evaluate(b).value) < 0 for b in tests)
    assert len(game.tournament_starts()) == 51


def test_chopsticks_default_tests_are_capped_and_nim_counts_its_nim_sum() -> None:
    chopsticks = load_game("chopsticks", "hands=2")
    assert len(default_tests(chopsticks, True)) == chopsticks.max_tests == 24
    nim = load_game("nim", "misere=on")
    pos = nim.parse_position("3 4 5")
    assert nim.grundy_value(pos) == 2 and nim.grundy_name == "nim-sum"
    assert nim.grundy_text(pos, 2) == (
        "Nim-sum (Grundy value under normal play): 011 xor 100 xor 101 = 010 = 2: the mover "
        "wins by a move to nim-sum 0 (misère: until only heaps of 0 or 1 counters remain).")
    octal = load_game("octal")
    assert octal.grundy_value(octal.parse_position("3")) == octal.grundy(
        octal.parse_position("3"))


def test_judge_games_lists_each_games_points_and_position_notation(capsys) -> None:
    assert main(["games", "--format", "json"]) == 0
    rows = {r["game"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["ioiwari"]["points"] == "4/2/0" and rows["nim"]["points"] == "1/0/0"
    assert rows["octal"]["points"] == "1/0.5/0"
    assert rows["nim"]["position"].startswith("the heap sizes")
    assert "Outcome classes" in rows["chopsticks"]["values"]
    assert all(r["position"] for r in rows.values())
