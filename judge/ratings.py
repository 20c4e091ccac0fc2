"""Ratings from a joint Bradley-Terry model of all games, with a prior and 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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
