"""Facts about the Bradley-Terry ratings."""

from __future__ import annotations

import math

from judge.ratings import BASE_RATING, ELO_PER_UNIT, fit


def test_a_bot_that_wins_everything_gets_a_finite_rating_above_the_rest():
    r = fit(["a", "b"], [("a", "b", 1.0)] * 50)
    assert math.isfinite(r["a"].rating) and math.isfinite(r["b"].rating)
    assert r["a"].rating > r["b"].rating


def test_equal_bots_rate_equal_and_their_interval_narrows_with_more_games():
    few = fit(["a", "b"], [("a", "b", 0.5)] * 10)
    many = fit(["a", "b"], [("a", "b", 0.5)] * 1000)
    assert few["a"].rating == few["b"].rating == BASE_RATING
    assert (many["a"].high - many["a"].low) < (few["a"].high - few["a"].low) / 5


def test_ratings_follow_a_transitive_field_and_are_centred():
    games = [("a", "b", 1.0)] * 8 + [("a", "b", 0.0)] * 2
    games += [("b", "c", 1.0)] * 8 + [("b", "c", 0.0)] * 2
    r = fit(["a", "b", "c"], games)
    assert r["a"].rating > r["b"].rating > r["c"].rating
    assert abs(sum(x.rating for x in r.values()) / 3 - BASE_RATING) < 1e-6
    assert all(x.low < x.rating < x.high for x in r.values())


def test_many_games_recover_the_true_win_probability():
    # a beats b 3 times in 4: the log-odds difference is ln 3
    r = fit(["a", "b"], [("a", "b", 1.0)] * 3000 + [("a", "b", 0.0)] * 1000, prior_sd=100)
    diff = (r["a"].rating - r["b"].rating) / ELO_PER_UNIT
    assert abs(diff - math.log(3)) < 0.01
