"""Ratings from a joint Bradley-Terry model of all games, with a prior and 95% intervals (a
tournament's); and skills with their uncertainty, updated game by game (a league's)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

ELO_PER_UNIT = 400 / math.log(10)  # one unit of log-odds in Elo points
BASE_RATING = 1500.0
PRIOR_SD = 2.0  # log-odds (about 350 Elo): keeps a bot that wins everything finite


@dataclass(frozen=True)
class Rating:
    """A rating on the Elo scale with its 95% interval."""

    rating: float
    low: float
    high: float


def fit(players: Sequence[str], games: Sequence[tuple[str, str, float]],
        prior_sd: float = PRIOR_SD) -> dict[str, Rating]:
    """Maximum a posteriori Bradley-Terry strengths from (a, b, score of a) games.

    A score is 1 for a win of `a`, 0.5 for a tie, 0 for a loss; P(a beats b) =
    1 / (1 + exp(theta_b - theta_a)); each theta has a N(0, prior_sd^2) prior. Intervals
    come from the inverse Hessian of the log posterior (a Laplace approximation).
    """
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    a = np.array([index[g[0]] for g in games], dtype=np.int64)
    b = np.array([index[g[1]] for g in games], dtype=np.int64)
    s = np.array([g[2] for g in games], dtype=float)
    theta = np.zeros(n)
    precision = 1.0 / prior_sd**2
    hessian = -precision * np.eye(n)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
        grad = -precision * theta
        np.add.at(grad, a, s - p)
        np.add.at(grad, b, p - s)
        w = p * (1 - p)
        hessian = -precision * np.eye(n)
        np.add.at(hessian, (a, a), -w)
        np.add.at(hessian, (b, b), -w)
        np.add.at(hessian, (a, b), w)
        np.add.at(hessian, (b, a), w)
        step = np.linalg.solve(hessian, grad)
        theta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    # ratings are relative: centre them, and their covariance, on the field's mean
    centre = np.eye(n) - 1.0 / n
    theta = centre @ theta
    sd = np.sqrt(np.clip(np.diag(centre @ np.linalg.inv(-hessian) @ centre), 0, None))
    return {
        name: Rating(float(BASE_RATING + ELO_PER_UNIT * theta[i]),
                     float(BASE_RATING + ELO_PER_UNIT * (theta[i] - 1.96 * sd[i])),
                     float(BASE_RATING + ELO_PER_UNIT * (theta[i] + 1.96 * sd[i])))
        for name, i in index.items()
    }


class Skill(NamedTuple):
    """A rating with its uncertainty (OpenSkill's Plackett-Luce model, a Bayesian
    approximation of TrueSkill's kind): the skill `mu` and its standard deviation `sigma`."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: a skill the player has with about 99.9% certainty (what a ladder
        ranks by, so that a player with few games is not ranked above its evidence)."""
        return self.mu - 3 * self.sigma


class Skills:
    """Every player's `Skill`, updated game by game (OpenSkill's defaults: mu 25, sigma
    25/3 for a new player)."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce  # imported only where skills are rated

        self.model = PlackettLuce()
        self._ratings: dict[str, Any] = {}
        self._pinned: set[str] = set()

    def pin(self, who: str, mu: float, sigma: float) -> None:
        """Fix `who`'s skill: its games rate only its opponents (an anchor of a league)."""
        self._ratings[who] = self.model.rating(mu=mu, sigma=sigma, name=who)
        self._pinned.add(who)

    def is_pinned(self, who: str) -> bool:
        return who in self._pinned

    def __getitem__(self, who: str) -> Skill:
        r = self._ratings.get(who)
        return Skill(self.model.mu, self.model.sigma) if r is None else Skill(r.mu, r.sigma)

    def rate(self, a: str, b: str, score: float) -> None:
        """One game of `a` against `b`, `score` a's: 1 a win, 0.5 a tie, 0 a loss."""
        ra = self._ratings.get(a) or self.model.rating(name=a)
        rb = self._ratings.get(b) or self.model.rating(name=b)
        ranks: list[float] = [0, 0] if score == 0.5 else [0, 1] if score > 0.5 else [1, 0]
        [na], [nb] = self.model.rate([[ra], [rb]], ranks=ranks)
        # a pinned player keeps its prior; its opponent is rated against it all the same
        self._ratings[a] = ra if a in self._pinned else na
        self._ratings[b] = rb if b in self._pinned else nb
