"""Facts about Swiss pairing and its tie-breaks (judge.pairing)."""

from __future__ import annotations

import random

import pytest

from judge.pairing import Game, Pair, Round, bracket, pair, records, standings


def next_round(players: int, played: list[Round], rng: random.Random) -> Round:
    """The next round paired and played, each game won by the higher seed more often than
    not, with ties."""
    pairing = pair(players, played)
    games = []
    for p in pairing.pairs:
        u = rng.random() + (0.15 if p.first < p.second else -0.15)
        games.append(Game(p.first, p.second, 1.0 if u > 0.6 else 0.5 if u > 0.4 else 0.0))
    return Round(tuple(games), pairing.bye)


def play(players: int, rounds: int, seed: int) -> list[Round]:
    """Rounds paired one after the other from a fixed seed."""
    rng = random.Random(seed)
    played: list[Round] = []
    for _ in range(rounds):
        played.append(next_round(players, played, rng))
    return played


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seven_rounds_of_64_repeat_no_pairing_and_balance_the_seats(seed):
    played = play(64, 7, seed)
    met = [frozenset((g.first, g.second)) for r in played for g in r.games]
    assert len(met) == len(set(met)) == 7 * 32
    for r in played:
        assert r.bye is None
        assert sorted(p for g in r.games for p in (g.first, g.second)) == list(range(64))
    for rec in records(64, played):
        assert abs(rec.seats.count(0) - rec.seats.count(1)) <= 1
        assert all(len(set(rec.seats[i:i + 3])) == 2 for i in range(len(rec.seats) - 2))


def test_the_bye_goes_to_the_lowest_ranked_player_without_one_and_rotates():
    rng = random.Random(5)
    played: list[Round] = []
    for _ in range(9):
        before = records(9, played)
        played.append(next_round(9, played, rng))
        bye = played[-1].bye
        assert bye is not None and before[bye].byes == 0
        assert all(before[bye].points <= before[p].points for p in range(9)
                   if before[p].byes == 0)
    assert sorted(r.bye for r in played if r.bye is not None) == list(range(9))


def test_points_are_the_games_scores_and_a_bye_counts_as_a_win():
    played = play(11, 5, 7)
    table = standings(11, played)
    assert sum(s.points for s in table) == sum(len(r.games) for r in played) + 5
    for s in table:
        won = sum(g.score if g.first == s.player else 1 - g.score
                  for r in played for g in r.games if s.player in (g.first, g.second))
        assert s.points == won + s.byes


def test_buchholz_and_sonneborn_berger_on_a_hand_computed_example():
    played = [Round((Game(0, 2, 1.0), Game(3, 1, 0.5))),
              Round((Game(1, 0, 0.5), Game(2, 3, 1.0))),
              Round((Game(0, 3, 1.0), Game(2, 1, 0.0)))]
    table = {s.player: (s.points, s.buchholz, s.sonneborn_berger)
             for s in standings(4, played)}
    # points 2.5, 2, 1, 0.5; Buchholz sums the opponents' points, Sonneborn-Berger weights
    # them by the score against each (0: 1 x 1 + 0.5 x 2 + 1 x 0.5)
    assert table == {0: (2.5, 3.5, 2.5), 1: (2.0, 4.0, 2.5), 2: (1.0, 5.0, 0.5),
                     3: (0.5, 5.5, 1.0)}
    assert [s.player for s in standings(4, played)] == [0, 1, 2, 3]


def test_a_bye_adds_to_neither_tie_break_and_ties_fall_to_the_higher_seed():
    table = standings(3, [Round((Game(0, 1, 1.0),), bye=2)])
    assert [(s.player, s.points, s.buchholz, s.sonneborn_berger) for s in table] == [
        (0, 1.0, 0.0, 0.0), (2, 1.0, 0.0, 0.0), (1, 0.0, 1.0, 0.0)]


def test_the_first_round_pairs_the_top_half_against_the_bottom_half_seats_alternating():
    assert pair(8, []).pairs == (Pair(0, 4), Pair(5, 1), Pair(2, 6), Pair(7, 3))


def test_an_odd_score_group_floats_its_lowest_player_down():
    first = Round((Game(0, 3, 1.0), Game(4, 1, 0.0), Game(2, 5, 0.0)))
    pairs = {frozenset((p.first, p.second)) for p in pair(6, [first]).pairs}
    assert frozenset((0, 1)) in pairs  # the winners 0, 1, 5: 0 meets 1, 5 floats
    assert any(frozenset((5, p)) in pairs for p in (2, 3, 4))


def test_a_floater_meets_the_top_of_the_group_below_and_the_rest_pair_by_halves():
    # after round 1 the winners are 0, 1, 2, the draw 3 and 7, the losers 4, 5, 6: 2 floats
    # to 3 and 7, and 7 floats to 4, 5, 6, where the Dutch system pairs it with 4 (the first
    # it may meet), then 5 with 6
    first = Round((Game(0, 4, 1.0), Game(5, 1, 0.0), Game(2, 6, 1.0), Game(7, 3, 0.5)))
    pairs = {frozenset((p.first, p.second)) for p in pair(8, [first]).pairs}
    assert pairs == {frozenset(ab) for ab in ((0, 1), (2, 3), (7, 4), (5, 6))}


def test_four_players_in_three_rounds_meet_everyone_when_the_last_round_is_forced():
    played = play(4, 3, 11)
    met = {frozenset((g.first, g.second)) for r in played for g in r.games}
    assert len(met) == 6


def test_the_same_results_give_the_same_pairing():
    played = play(30, 4, 9)
    assert pair(30, played) == pair(30, list(played))
    assert play(30, 4, 9) == played


def test_a_knockout_bracket_seeds_1_v_16_8_v_9_and_gives_the_top_seeds_the_byes():
    first = [s + 1 for s in bracket(16) if s is not None]
    assert list(zip(first[::2], first[1::2], strict=True)) == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert bracket(5) == [0, None, 3, 4, 1, None, 2, None]
    assert bracket(2) == [0, 1]
