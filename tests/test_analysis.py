"""Moves judged against perfect play: mistakes, slow wins, the move that lost the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from judge.analysis import review
from judge.games import load_game
from judge.games.ioiwari import Ioiwari
from judge.players.base import Played, Player
from judge.players.optimal import OptimalPlayer
from judge.referee import play_game
from judge.sandbox import Limits


def test_the_statement_example_game_is_perfect_play_by_both_players():
    game = Ioiwari()
    reviews = review(game, game.start(), ["2", "3", "5", "4", "5", "7"])
    assert len(reviews) == 6
    assert all(r.optimal for r in reviews)
    assert [r.seat for r in reviews] == [0, 1, 0, 1, 0, 1]


def test_a_move_that_gives_away_the_win_is_a_result_changing_mistake():
    game = Ioiwari()
    (first,) = review(game, game.start(), ["1"])
    assert first.before == 2 and first.after == 0  # a win by 2 becomes a tie
    assert first.mistake and first.changed_result and not first.optimal
    assert first.best_moves == ["2", "4", "7"]


def test_the_lead_in_the_banks_decides_whether_a_mistake_changes_the_result():
    game = Ioiwari()
    pos = game.parse_position("1 0 0 0 0 0 1 | 10 0 1")  # player 1 leads by 10
    reviews = review(game, pos, ["1"])
    assert reviews[0].lead == 10
    assert not reviews[0].changed_result  # whatever it plays, a 10-bead lead still wins


def test_a_winning_move_that_makes_no_progress_in_a_loopy_game_is_slow_not_optimal():
    game = load_game("chopsticks", "hands=2 split=on knockout=rollover")
    pos = game.parse_position("(L 4 1 0 1)")
    fast, slow = review(game, pos, ["1 2"]), review(game, pos, ["2 2"])
    assert fast[0].optimal and fast[0].remoteness == 1
    assert slow[0].after == "win" and slow[0].slow and not slow[0].mistake
    assert not slow[0].optimal and slow[0].move_remoteness == 9


def test_an_illegal_last_move_ends_the_review():
    game = Ioiwari()
    assert len(review(game, game.start(), ["2", "2"])) == 1  # pit 2 is empty after move 1


class RandomPlayer(Player):
    """Any legal move, from a seeded generator: games full of mistakes."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, pos: Any, last: Played | None) -> Any:
        return self.rng.choice(sorted(self.game.legal_moves(pos), key=repr))


@pytest.mark.parametrize("name, rules", [("ioiwari", ""), ("nim", "misere=on"),
                                         ("chopsticks", "hands=2 split=on knockout=rollover")])
def test_the_review_from_the_referees_moves_is_the_review_from_their_text(name: str,
                                                                          rules: str) -> None:
    # a run's games are reviewed from the moves as the referee played them (not parsed
    # and played again): the same review, move for move
    game = load_game(name, rules)
    limits = Limits(move_limit=60)
    for seed in range(12):
        start = game.start()
        players = [RandomPlayer(seed), OptimalPlayer(seed)][:: 1 if seed % 2 else -1]
        record = play_game(game, players, start, limits)
        moves = [m.move for m in record.moves]
        assert len(record.played) == len(moves) > 0
        for seats in ((0, 1), (0,), (1,)):
            assert review(game, start, moves, seats, record.played) == \
                review(game, start, moves, seats)


def test_the_review_of_a_bots_moves_as_played_is_the_review_from_their_text() -> None:
    # (the bot's moves parsed from its output by the referee)
    from pathlib import Path

    from judge.players.bot import BotPlayer

    game = Ioiwari()
    bot = Path(__file__).parent / "bots" / "first_pit.py"
    for start in game.standard_starts()[:4]:
        record = play_game(game, [BotPlayer(bot, sandbox="none"), OptimalPlayer(1)], start)
        moves = [m.move for m in record.moves]
        assert record.verdict.code == "ok" and moves
        assert review(game, start, moves, (0,), record.played) == \
            review(game, start, moves, (0,))
