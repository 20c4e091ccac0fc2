"""The tricky opponent: as perfect as the optimal player, and harder for imperfect bots."""

from __future__ import annotations

import random
import runpy
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from judge.analysis import perfect_results
from judge.games.base import Game, InputError
from judge.games.chopsticks import Chopsticks
from judge.games.ioiwari import Board, Ioiwari
from judge.games.nim import Heaps, Nim
from judge.players.base import Played, Player
from judge.players.bot import BotPlayer
from judge.players.optimal import OPPONENTS, OptimalPlayer, opponent_player
from judge.players.tricky import (
    TrickyPlayer,
    candidate_moves,
    keeping_replies,
    tricky_move,
    two_ply_keeping,
)
from judge.referee import play_game
from judge.results import points_of
from judge.solvers import solver_for
from judge.solvers.base import best_of
from judge.testsets import default_tests

ROOT = Path(__file__).resolve().parent.parent
IOIWARI = Ioiwari()
PITS = range(1, 8)


@cache
def standard_starts(first: bool) -> list[Board]:
    """The default Ioiwari test set for a bot in the first seat (the 357 standard starts) or
    in the second seat."""
    return default_tests(IOIWARI, first)


@cache
def greedy_choose() -> Any:
    """The move rule of the greedy sample bot, taken from its own file."""
    return runpy.run_path(str(ROOT / "bots/ioiwari/greedy.py"))["choose"]


class GreedyPit(Player):
    """bots/ioiwari/greedy.py in-process: its own `choose` on the pits."""

    name = "greedy"

    def choose(self, pos: Board, last: Played | None) -> int:
        return greedy_choose()(pos.pits)


class RandomPit(Player):
    """bots/ioiwari/random.py in-process: a uniform non-empty pit, seeded as BOT_SEED."""

    name = "random"

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def choose(self, pos: Board, last: Played | None) -> int:
        return self.rng.choice([p for p in PITS if pos.pits[p - 1]])


def bot_seat_play(bot: Player, opponent: Player, start: Board, first: bool) -> tuple[str, int]:
    """The bot's result and final score difference in one game."""
    players = [bot, opponent] if first else [opponent, bot]
    record = play_game(IOIWARI, players, start)
    seat = 0 if first else 1
    assert record.verdict.seat is None, record.verdict
    return record.results[seat], record.score[seat] - record.score[1 - seat]


def keepers_by_enumeration(game: Game, pos: Any) -> tuple[int, int]:
    """Replies at `pos` that are not mistakes in the analysis' sense, and all replies."""
    solver = solver_for(game)
    moves = game.legal_moves(pos)
    return sum(1 for m in moves if not solver.is_mistake(pos, m)), len(moves)


def reachable(game: Game, starts: list[Any], cap: int) -> list[Any]:
    """Unfinished positions reachable from `starts`, at most about `cap` of them."""
    seen = dict.fromkeys(starts)
    frontier = list(starts)
    while frontier and len(seen) < cap:
        pos = frontier.pop()
        for move in game.legal_moves(pos):
            nxt = game.play(pos, move)
            if nxt not in seen and not game.is_over(nxt):
                seen[nxt] = None
                frontier.append(nxt)
    return list(seen)


# --- as perfect as the optimal player ----------------------------------------------------


@pytest.mark.parametrize("first", [True, False], ids=["bot-first", "bot-second"])
@pytest.mark.parametrize("seed", [None, 11])
def test_a_perfect_bot_scores_the_same_against_tricky_as_against_optimal(first, seed):
    starts = standard_starts(first)
    assert len(starts) == (357 if first else 75)  # second seat: lost 20-bead boards by rotation
    for i, start in enumerate(starts):
        bot_seed = None if seed is None else seed + i
        against_optimal = bot_seat_play(OptimalPlayer(bot_seed), OptimalPlayer(seed), start, first)
        against_tricky = bot_seat_play(OptimalPlayer(bot_seed), TrickyPlayer(seed), start, first)
        assert against_tricky == against_optimal, IOIWARI.format_position(start)
        assert against_tricky[0] == perfect_results(IOIWARI, start)[0 if first else 1]


@pytest.mark.parametrize("game", [Nim(), Nim("misere=on")], ids=["normal", "misere"])
def test_tricky_never_gives_up_value_in_nim(game):
    solver = solver_for(game)
    starts = [Heaps((3, 4, 5)), Heaps((1, 2, 4, 7)), Heaps((2, 2, 1, 1)), Heaps((1, 1, 1, 2, 3))]
    for pos in reachable(game, starts, 3000):
        best = [m.move for m in best_of(solver.move_values(pos))]
        assert tricky_move(solver, pos) in best, pos
        assert tricky_move(solver, pos, random.Random(3)) in best, pos


@pytest.mark.parametrize("rules", [
    "",  # the defaults: 3 hands each, 5 fingers, cut-off
    "hands=2 fingers=5 knockout=rollover split=on",  # loopy: draws
    "hands=2/1 fingers=4 misere=on",
])
def test_tricky_never_gives_up_value_in_chopsticks(rules):
    game = Chopsticks(rules)
    solver = solver_for(game)
    for pos in reachable(game, game.standard_starts(), 1200):
        best = [m.move for m in best_of(solver.move_values(pos))]
        assert tricky_move(solver, pos) in best, game.format_position(pos)


@pytest.mark.parametrize("game", [Nim(), Nim("misere=on"), Chopsticks(),
                                  Chopsticks("hands=2 fingers=5 knockout=rollover split=on")],
                         ids=["nim", "misere", "chopsticks", "rollover"])
def test_tricky_gets_the_perfect_result_against_the_optimal_player(game):
    starts = game.standard_starts() + ([Heaps((1, 2, 4, 7)), Heaps((6, 6))]
                                       if game.name == "nim" else [])
    for start in starts:
        for players in ([OptimalPlayer(5), TrickyPlayer(6)], [TrickyPlayer(7), OptimalPlayer(8)]):
            record = play_game(game, players, start)
            assert record.results == perfect_results(game, start), record.verdict


def test_huge_nim_heaps_cost_nothing_and_match_the_optimal_choices():
    game = Nim()
    solver = solver_for(game)
    for sizes in [(10**30, 10**30 - 1, 5), (10**6, 3, 10**6 + 3), (2**40, 2**40)]:
        pos = Heaps(sizes)
        assert tricky_move(solver, pos) in solver.evaluate(pos).best_moves


# --- what "keeping the value" counts ------------------------------------------------------


@pytest.mark.parametrize("game", [Ioiwari(), Nim(), Nim("misere=on"), Chopsticks(),
                                  Chopsticks("hands=2 fingers=5 knockout=rollover split=on")],
                         ids=["ioiwari", "nim", "misere", "chopsticks", "rollover"])
def test_keeping_replies_are_the_replies_the_analysis_does_not_call_mistakes(game):
    starts = [Heaps((3, 4, 5)), Heaps((1, 1, 2, 6))] if game.name == "nim" else (
        standard_starts(True)[:3] if game.name == "ioiwari" else game.standard_starts())
    for pos in reachable(game, starts, 600):
        assert keeping_replies(solver_for(game), pos) == keepers_by_enumeration(game, pos), pos


# --- the choice rule on hand-made positions -----------------------------------------------


def test_ioiwari_fewest_keeping_replies_first_where_optimal_plays_otherwise():
    # 0 0 1 1 1 1 1: pits 3, 4, 5 and 6 all lose by 1 in 3 moves. Pit 3 captures pit 4 and
    # leaves 0 0 0 0 1 1 1, where the bot captures with pit 5 or pit 6 (2 good replies of 3);
    # pit 4 captures pit 5 and leaves 0 0 1 0 0 1 1, where only pit 6 captures (1 of 3).
    solver = solver_for(IOIWARI)
    pos = Board((0, 0, 1, 1, 1, 1, 1))
    assert candidate_moves(solver, pos) == [3, 4, 5, 6]
    counts = {m: keepers_by_enumeration(IOIWARI, IOIWARI.play(pos, m)) for m in (3, 4, 5, 6)}
    assert counts == {3: (2, 3), 4: (1, 3), 5: (1, 3), 6: (2, 3)}
    assert solver.choose(pos) == 3
    assert tricky_move(solver, pos) == 4  # 4 and 5 tie on every key: the first in move order


def test_ioiwari_ties_are_broken_by_the_seed():
    # the same board: pits 4 and 5 are equally tricky (1 good reply of 3, none deeper)
    solver = solver_for(IOIWARI)
    pos = Board((0, 0, 1, 1, 1, 1, 1))
    picks = {seed: tricky_move(solver, pos, random.Random(seed)) for seed in range(40)}
    assert set(picks.values()) == {4, 5}
    assert all(pick == random.Random(seed).choice([4, 5]) for seed, pick in picks.items())
    player = TrickyPlayer(21)
    player.begin(IOIWARI, 0)
    assert player.choose(pos, None) == random.Random(21).choice([4, 5])


def test_ioiwari_two_ply_look_ahead_decides_before_the_share_of_mistakes():
    # 0 1 1 0 1 1 2: pits 5, 6, 7 all draw. Pit 5 leaves the bot 2 good replies; pits 6 and 7
    # leave it 1 (of 3 and of 4). Over two plies pit 6 leaves 0 more, pit 7 leaves 1: pit 6,
    # although pit 7 leaves the larger share of mistakes.
    solver = solver_for(IOIWARI)
    pos = Board((0, 1, 1, 0, 1, 1, 2))
    assert candidate_moves(solver, pos) == [5, 6, 7]
    assert {m: keeping_replies(solver, IOIWARI.play(pos, m)) for m in (5, 6, 7)} == {
        5: (2, 3), 6: (1, 3), 7: (1, 4)}
    assert two_ply_keeping(solver, IOIWARI.play(pos, 6)) == 0
    assert two_ply_keeping(solver, IOIWARI.play(pos, 7)) == 1
    assert solver.choose(pos) == 5
    assert tricky_move(solver, pos) == 6


def test_ioiwari_share_of_mistakes_breaks_the_last_tie():
    # 0 0 0 2 0 0 3: pits 4 and 7 both lose by 3, leave 1 good reply and 1 more two plies on;
    # pit 7 leaves 1 1 0 2 0 0 0 (3 replies), pit 4 leaves 0 0 0 0 1 0 3 (2 replies)
    solver = solver_for(IOIWARI)
    pos = Board((0, 0, 0, 2, 0, 0, 3))
    assert candidate_moves(solver, pos) == [4, 7]
    assert [keeping_replies(solver, IOIWARI.play(pos, m)) for m in (4, 7)] == [(1, 2), (1, 3)]
    assert solver.choose(pos) == 4
    assert tricky_move(solver, pos) == 7


def test_nim_two_ply_look_ahead_takes_a_single_counter_heap():
    # 2 2 1 1 is lost; every best move takes one counter and leaves 1 winning reply of 5.
    # Emptying a 1-heap (heap 3) leaves 2 2 0 1: the bot must take the other 1-heap, and after
    # our next move it again has 1 winning reply. Taking from a 2-heap leaves 1 2 1 1: the bot
    # wins only by 2 -> 1, and then 1 1 1 1 minus one counter leaves it 3 winning replies.
    game = Nim()
    solver = solver_for(game)
    pos = Heaps((2, 2, 1, 1))
    moves = candidate_moves(solver, pos)
    assert moves == [(1, 1), (2, 1), (3, 1), (4, 1)]
    assert {keeping_replies(solver, game.play(pos, m)) for m in moves} == {(1, 5)}
    assert [two_ply_keeping(solver, game.play(pos, m)) for m in moves] == [3, 3, 1, 1]
    assert solver.choose(pos) == (1, 1)
    assert tricky_move(solver, pos) == (3, 1)


def test_misere_nim_leaves_a_single_winning_reply():
    # misere 1 1 1 2 3 is lost. Emptying a 1-heap leaves two big heaps and 3 winning replies;
    # taking the 2-heap down to 1 leaves 1 1 1 1 3, won only by 3 -> 0 (an odd count of ones).
    game = Nim("misere=on")
    solver = solver_for(game)
    pos = Heaps((1, 1, 1, 2, 3))
    assert keeping_replies(solver, game.play(pos, (1, 1))) == (3, 7)
    assert keeping_replies(solver, game.play(pos, (4, 1))) == (1, 7)
    assert solver.choose(pos) == (1, 1)
    assert tricky_move(solver, pos) in {(4, 1), (5, 2)}
    assert keeping_replies(solver, game.play(pos, tricky_move(solver, pos)))[0] == 1


# --- harder for the sample bots --------------------------------------------------------------


def test_greedy_bot_scores_less_against_tricky_over_the_standard_starts():
    points = points_of("ioiwari")
    totals = {}
    for opponent in OPPONENTS:
        totals[opponent] = sum(
            points[bot_seat_play(GreedyPit(), opponent_player(opponent, None), start, True)[0]]
            for start in standard_starts(True))
    assert totals["tricky"] < totals["optimal"], totals


def expected_points_of_random_bot(opponent: str) -> float:
    """Exact expected points over the standard starts of a bot that picks a uniformly random
    non-empty pit (bots/ioiwari/random.py) against the unseeded `opponent`."""
    solver = solver_for(IOIWARI)
    choose = solver.choose if opponent == "optimal" else lambda pos: tricky_move(solver, pos)
    points = points_of("ioiwari")
    memo: dict[Board, float] = {}

    def expect(pos: Board) -> float:
        if IOIWARI.is_over(pos):
            mine, theirs = pos.banks
            return points["win" if mine > theirs else "tie" if mine == theirs else "loss"]
        if pos not in memo:
            if pos.to_move == 0:
                moves = IOIWARI.legal_moves(pos)
                memo[pos] = sum(expect(IOIWARI.play(pos, m)) for m in moves) / len(moves)
            else:
                memo[pos] = expect(IOIWARI.play(pos, choose(pos)))
        return memo[pos]

    return sum(expect(start) for start in standard_starts(True))


def test_random_bot_expects_fewer_points_against_tricky_over_the_standard_starts():
    # exact expectations: one seeded sample of 357 games is far too noisy to show a gap of a
    # few points (each game's points vary by about 1.3)
    optimal = expected_points_of_random_bot("optimal")
    tricky = expected_points_of_random_bot("tricky")
    assert tricky < optimal, (tricky, optimal)


def test_the_in_process_sample_bots_play_as_the_programs_do():
    starts = standard_starts(True)[::120]
    for start in starts:
        for program, model, seed in [("greedy.py", GreedyPit(), None),
                                     ("random.py", RandomPit("7"), 7)]:
            bot = BotPlayer(ROOT / "bots/ioiwari" / program, seed=seed)
            real = play_game(IOIWARI, [bot, TrickyPlayer(3)], start)
            ours = play_game(IOIWARI, [model, TrickyPlayer(3)], start)
            assert real.verdict.code == "ok", real.verdict
            assert [m.move for m in real.moves] == [m.move for m in ours.moves]


# --- the factory ------------------------------------------------------------------------------


def test_opponent_player_makes_each_kind_and_refuses_others():
    assert OPPONENTS == ("optimal", "tricky")
    assert isinstance(opponent_player("optimal", 4), OptimalPlayer)
    tricky = opponent_player("tricky", 4)
    assert isinstance(tricky, TrickyPlayer) and tricky.name == "tricky" and tricky.seed == 4
    with pytest.raises(InputError, match="optimal, tricky"):
        opponent_player("sneaky", None)
