"""Ratings from a joint Bradley-Terry model of all games, with a prior and 95% intervals (a
tournament's); and skills with their uncertainty, updated game by game (a league's)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

ELO_PER_UNIT = 400 / math.log(10)  # one unit of log-odds in Elo points
BASE_RATING = 1500.0
PRIOR_SD = 2.0  # log-odds (about 350 Elo): keeps a bot that wins everything finite
#: the least sigma of a skill fitted from games (a lone anchor's, which has none)
FITTED_SIGMA = 1.0


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
    theta, covariance = strengths(
        n, [(index[a], index[b], s, 1.0, 1) for a, b, s in games], np.zeros(n),
        1.0 / prior_sd**2, np.zeros(n), np.ones(n, dtype=bool))
    # ratings are relative: centre them, and their covariance, on the field's mean
    centre = np.eye(n) - 1.0 / n
    theta = centre @ theta
    sd = np.sqrt(np.clip(np.diag(centre @ covariance @ centre), 0, None))
    return {
        name: Rating(float(BASE_RATING + ELO_PER_UNIT * theta[i]),
                     float(BASE_RATING + ELO_PER_UNIT * (theta[i] - 1.96 * sd[i])),
                     float(BASE_RATING + ELO_PER_UNIT * (theta[i] + 1.96 * sd[i])))
        for name, i in index.items()
    }


def strengths(n: int, games: Sequence[tuple[int, int, float, float, int]],
              mean: np.ndarray, precision: float, start: np.ndarray, free: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """Maximum a posteriori strengths of `n` players and their covariance, by Newton's
    method: each game (a, b, score of a, scale c, how many such games) says P(a beats b) =
    1 / (1 + exp((x_b - x_a) / c)); each free x has a N(mean, 1 / precision) prior, the
    others stay at `start` (their covariance rows are 0)."""
    a = np.array([g[0] for g in games], dtype=np.int64)
    b = np.array([g[1] for g in games], dtype=np.int64)
    s = np.array([g[2] for g in games], dtype=float)
    c = np.array([g[3] for g in games], dtype=float)
    many = np.array([g[4] for g in games], dtype=float)
    x = start.astype(float).copy()
    keep = np.diag(free.astype(float))
    hessian = -precision * np.eye(n)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp((x[b] - x[a]) / c))
        grad = -precision * (x - mean)
        np.add.at(grad, a, many * (s - p) / c)
        np.add.at(grad, b, many * (p - s) / c)
        w = many * p * (1 - p) / c**2
        hessian = -precision * np.eye(n)
        np.add.at(hessian, (a, a), -w)
        np.add.at(hessian, (b, b), -w)
        np.add.at(hessian, (a, b), w)
        np.add.at(hessian, (b, a), w)
        # the fixed players' rows and columns out: each stays where it is
        hessian = keep @ hessian @ keep - np.diag(1.0 - free)
        step = np.linalg.solve(hessian, keep @ grad)
        x -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return x, keep @ np.linalg.inv(-hessian) @ keep


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
        """Fix `who`'s skill at `mu`: its games move only its opponents' (an anchor of a
        league), and its sigma as any player's, from `sigma`."""
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
        # a pinned player keeps its skill, its opponent is rated against it all the same;
        # its sigma moves as a bot's does, so that their conservative ratings compare alike
        self._ratings[a] = self._held(ra, na) if a in self._pinned else na
        self._ratings[b] = self._held(rb, nb) if b in self._pinned else nb

    def _held(self, old: Any, new: Any) -> Any:
        return self.model.rating(mu=old.mu, sigma=new.sigma, name=old.name)


def place(defaults: dict[str, float], held: dict[str, Skill],
          games: Sequence[tuple[str, str, float]], beta: float,
          reference: str | None = None) -> dict[str, Skill]:
    """The skills of the players of `defaults` (each with its skill before any game), fitted
    from (a, b, score of a) games between them and against the `held` players, whose skills
    stay: the most likely under OpenSkill's model of a game of two (P(a beats b) = 1 / (1 +
    exp((mu_b - mu_a) / c)), c^2 = 2 beta^2 + sigma_a^2 + sigma_b^2), each with its
    standard error as its sigma (at least `FITTED_SIGMA`). With none held, `reference`
    keeps its default (else the defaults' mean is kept)."""
    names = [*defaults, *held]
    index = {p: i for i, p in enumerate(names)}
    n, k = len(names), len(defaults)
    start = np.array([*defaults.values(), *(s.mu for s in held.values())])
    free = np.arange(n) < k
    sigma = np.array([FITTED_SIGMA] * k + [s.sigma for s in held.values()])
    spread = PRIOR_SD * math.sqrt(2) * beta  # PRIOR_SD in log-odds, on the skills' scale
    alike = Counter(games)
    for _ in range(2):  # the scale of each game from its players' sigmas, then again
        rows = [(index[a], index[b], score,
                 math.sqrt(2 * beta**2 + sigma[index[a]]**2 + sigma[index[b]]**2), many)
                for (a, b, score), many in alike.items()]
        mu, covariance = strengths(n, rows, start, 1 / spread**2, start, free)
        if not held:  # placed by its mean: each one's error from the field's mean
            centre = np.eye(n) - 1.0 / n
            covariance = centre @ covariance @ centre
        sigma[:k] = np.maximum(np.sqrt(np.clip(np.diag(covariance)[:k], 0, None)),
                               FITTED_SIGMA)
    if not held and reference in index:
        mu[:k] += defaults[reference] - mu[index[reference]]
    return {name: Skill(float(mu[i]), float(sigma[i])) for name, i in index.items() if i < k}
