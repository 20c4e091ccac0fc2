"""Paired-game statistics: the pentanomial model, logistic Elo, LOS and the GSPRT.

A *pair* is one start played twice with the seats swapped. From bot A's view its score is
0, 0.5, 1, 1.5 or 2 (win 1, draw 0.5 per game); `counts` are the numbers of pairs with each
score, from 0 to 2 points (fishtest's ``pentanomial`` list, "LL, LD, DD+WL, DW, WW").

The formulas are those of fishtest (``server/fishtest/stats/stat_util.py`` and
``LLRcalc.py``, official-stockfish/fishtest) and fastchess (``elo_pentanomial.cpp``,
``sprt.cpp``, Disservin/fastchess), which agree:

- zero counts are *regularized* to 1e-3 (``LLRcalc.regularize``) before anything is computed;
- the score per game is ``mu = sum(n_i * i/4) / N`` over the N pairs (pair score / 2), and
  ``var = sum(n_i * (i/4 - mu)^2) / N`` is the variance of the (halved) pair score, so the
  standard error of ``mu`` is ``sqrt(var / N)`` (fastchess ``variance_per_pair``; fishtest's
  ``stats`` gives the same with its per-game variance ``2 var`` over ``2N`` games);
- Elo is logistic: ``elo(x) = -400 log10(1/x - 1)``, with ``x`` clamped to [1e-3, 1 - 1e-3]
  (fishtest ``stat_util.elo``); the 95% interval is ``elo(mu -/+ 1.96 * se)`` and its
  half-width ``(elo(mu + 1.96 se) - elo(mu - 1.96 se)) / 2`` is fishtest's ``elo95`` and
  fastchess's ``error()``;
- LOS (likelihood of superiority) is ``Phi((mu - 0.5) / se)`` (fishtest ``get_elo``);
- the log-likelihood ratio is fishtest's ``LLR_logistic(elo0, elo1, results)`` (fastchess
  ``getLLR_logistic``): the generalized SPRT of van den Bergh. For each hypothesis score
  ``s = L(elo) = 1 / (1 + 10^(-elo/400))`` the maximum-likelihood distribution on the five
  outcomes with expectation ``s`` is ``p_i = phat_i / (1 + x (a_i - s))``, where ``x`` solves
  the secular equation ``sum phat_i (a_i - s) / (1 + x (a_i - s)) = 0`` (M. van den Bergh,
  "Comments on normalized Elo", Proposition 1.1); then
  ``LLR = N * sum phat_i (log p1_i - log p0_i)``;
- the SPRT stops with H1 when ``LLR >= log((1 - beta) / alpha)`` and with H0 when
  ``LLR <= log(beta / (1 - alpha))``.

Pure functions of the standard library (no NumPy, no SciPy: the secular equation is solved
by bisection, Phi by ``math.erf``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: the score of a pair for the bot whose view it is, by pentanomial bucket
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
#: what a zero count becomes before the statistics (fishtest ``LLRcalc.regularize``)
REGULARIZE = 1e-3
#: scores are kept this far from 0 and 1 before they become Elo (fishtest ``stat_util.elo``)
SCORE_CLAMP = 1e-3
#: the 97.5% quantile of the standard normal law (a two-sided 95% interval)
Z95 = 1.959963984540054
#: the SPRT's parameters when --sprt does not name them
DEFAULTS = {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}
#: the largest |Elo| a hypothesis may name (scores this close to 0 or 1 mean nothing here)
MAX_ELO = 1000.0


@dataclass(frozen=True)
class SprtParams:
    """H0: Elo = elo0 against H1: Elo = elo1 (logistic Elo of bot A over bot B), with the
    largest error rates alpha (accepting H1 when H0 holds) and beta (the converse)."""

    elo0: float = DEFAULTS["elo0"]
    elo1: float = DEFAULTS["elo1"]
    alpha: float = DEFAULTS["alpha"]
    beta: float = DEFAULTS["beta"]

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: log((1 - beta) / alpha)."""
        return math.log((1 - self.beta) / self.alpha)

    def to_dict(self) -> dict[str, float]:
        """The four parameters by name."""
        return asdict(self)

    def text(self) -> str:
        """``elo0=0 elo1=10 alpha=0.05 beta=0.05``, as --sprt takes it."""
        return " ".join(f"{k}={v:g}" for k, v in self.to_dict().items())


def parse_sprt(text: str) -> SprtParams:
    """The parameters of a ``"elo0=0 elo1=10 alpha=0.05 beta=0.05"`` string (keys left out
    keep their defaults); `ValueError` with the reason for anything else."""
    values = dict(DEFAULTS)
    seen: set[str] = set()
    for token in text.replace(",", " ").split():
        key, eq, raw = token.partition("=")
        key = key.strip().lower()
        if not eq or not key or not raw:
            raise ValueError(f"{token!r} is not KEY=VALUE (the keys: {', '.join(DEFAULTS)})")
        if key not in DEFAULTS:
            raise ValueError(f"unknown key {key!r} (the keys: {', '.join(DEFAULTS)})")
        if key in seen:
            raise ValueError(f"{key} is given twice")
        seen.add(key)
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(f"{key}={raw}: not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"{key}={raw}: not a finite number")
        values[key] = value
    p = SprtParams(**values)
    for key in ("elo0", "elo1"):
        if abs(values[key]) > MAX_ELO:
            raise ValueError(f"{key}={values[key]:g}: an Elo difference must be between "
                             f"-{MAX_ELO:g} and {MAX_ELO:g}")
    if not p.elo0 < p.elo1:
        raise ValueError(f"elo0 ({p.elo0:g}) must be less than elo1 ({p.elo1:g})")
    for key in ("alpha", "beta"):
        if not 0 < values[key] < 1:
            raise ValueError(f"{key}={values[key]:g}: must be between 0 and 1 (exclusive)")
    if p.alpha + p.beta >= 1:
        raise ValueError(f"alpha + beta ({p.alpha:g} + {p.beta:g}) must be less than 1")
    return p


def logistic_score(elo: float) -> float:
    """The expected score per game of an Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


def logistic_elo(score: float) -> float:
    """The Elo difference of a score per game, ``-400 log10(1/score - 1)``, the score
    clamped to [1e-3, 1 - 1e-3] (about +-1200 Elo) as fishtest does."""
    x = min(max(score, SCORE_CLAMP), 1 - SCORE_CLAMP)
    elo = -400 * math.log10(1 / x - 1)
    # a symmetric pentanomial has a mean of 0.5 up to the rounding of its sum: Elo 0, not
    # -7e-14 (shown as "-0.0"); and never -0.0
    return 0.0 if abs(elo) < 1e-9 else elo


def phi(x: float) -> float:
    """The standard normal cumulative distribution function."""
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def regularize(counts: Sequence[float]) -> list[float]:
    """The counts with each zero replaced by 1e-3 (fishtest ``LLRcalc.regularize``)."""
    return [c if c else REGULARIZE for c in counts]


def _check(counts: Sequence[float]) -> None:
    if len(counts) != 5 or any(c < 0 for c in counts):
        raise ValueError(f"a pentanomial is five counts >= 0, not {list(counts)!r}")


def to_pdf(counts: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    """(N, [(a_i, phat_i)]) of regularized counts: a_i = i/4 is the pair score halved (the
    score per game), phat_i its share (fishtest ``results_to_pdf``)."""
    _check(counts)
    reg = regularize(counts)
    total = sum(reg)
    return total, [(i / 4, n / total) for i, n in enumerate(reg)]


def mean_var(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The expectation and variance of a distribution [(value, probability)]."""
    mu = sum(p * a for a, p in pdf)
    return mu, sum(p * (a - mu) ** 2 for a, p in pdf)


def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """The x with ``sum p_i d_i / (1 + x d_i) = 0`` for [(d_i, p_i)] with d_i of both signs.

    The left side falls strictly from +inf to -inf on (-1/max d, -1/min d), where every
    ``1 + x d_i`` is positive: bisection to the last bit finds the one root.
    """
    lo = -1 / max(d for d, _ in pdf)
    hi = -1 / min(d for d, _ in pdf)

    def f(x: float) -> float:
        return sum(p * d / (1 + x * d) for d, p in pdf)

    for _ in range(400):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_expected(pdf: Sequence[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The maximum-likelihood distribution on the same values with expectation `s`, given
    the empirical one (fishtest ``LLRcalc.MLE_expected``; van den Bergh, Prop. 1.1)."""
    shifted = [(a - s, p) for a, p in pdf]
    x = _secular(shifted)
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """The generalized log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) for a
    pentanomial, in logistic Elo (fishtest ``LLRcalc.LLR_logistic``); 0 for no pairs."""
    _check(counts)
    if not sum(counts):
        return 0.0
    total, pdf = to_pdf(counts)
    p0 = mle_expected(pdf, logistic_score(elo0))
    p1 = mle_expected(pdf, logistic_score(elo1))
    return total * sum(ph * (math.log(q1) - math.log(q0))
                       for (_, ph), (_, q0), (_, q1) in zip(pdf, p0, p1, strict=True))


def llr_approx(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """The GSPRT's Brownian approximation ``N (s1 - s0)(2 mu - s0 - s1) / (2 var)`` of the
    same ratio (fishtest ``LLRcalc.LLR_alt2``), for comparison: close when elo0, elo1 and
    the observed Elo are near one another."""
    total, pdf = to_pdf(counts)
    mu, var = mean_var(pdf)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return total * (s1 - s0) * (2 * mu - s0 - s1) / var / 2


@dataclass(frozen=True)
class EloEstimate:
    """The Elo difference of a pentanomial with its 95% interval and LOS."""

    score: float  #: the mean score per game, unregularized
    elo: float
    low: float
    high: float
    error: float  #: the interval's half-width (fishtest ``elo95``, fastchess ``error()``)
    los: float


def elo_estimate(counts: Sequence[float]) -> EloEstimate | None:
    """Elo, its 95% interval and LOS from a pentanomial, as fishtest's ``get_elo`` computes
    them (regularized counts; see the module's docstring); None for no pairs."""
    _check(counts)
    pairs = sum(counts)
    if not pairs:
        return None
    raw = sum(n * a for n, a in zip(counts, PAIR_SCORES, strict=True)) / (2 * pairs)
    total, pdf = to_pdf(counts)
    mu, var = mean_var(pdf)
    se = math.sqrt(var / total)
    low, high = logistic_elo(mu - Z95 * se), logistic_elo(mu + Z95 * se)
    return EloEstimate(score=raw, elo=logistic_elo(mu), low=low, high=high,
                       error=(high - low) / 2, los=phi((mu - 0.5) / se))


def decision(llr: float, params: SprtParams) -> str | None:
    """``"H1"`` when the LLR reached the upper bound, ``"H0"`` the lower, else None."""
    if llr >= params.upper:
        return "H1"
    if llr <= params.lower:
        return "H0"
    return None


def pair_score(results: Sequence[str]) -> float:
    """A pair's score from one bot's view: its two results (win / tie / loss)."""
    points = {"win": 1.0, "tie": 0.5, "loss": 0.0}
    return sum(points[r] for r in results)


def pentanomial(scores: Sequence[float]) -> list[int]:
    """The five counts (pairs scoring 0, 0.5, 1, 1.5 and 2 points) of pair scores."""
    counts = [0] * 5
    for s in scores:
        counts[PAIR_SCORES.index(s)] += 1
    return counts


def summary(counts: Sequence[int], params: SprtParams) -> dict[str, Any]:
    """Everything a match reports about its pentanomial: pairs, score, Elo and interval,
    LOS, LLR, the bounds and the decision."""
    est = elo_estimate(counts)
    llr = llr_logistic(params.elo0, params.elo1, counts)
    return {
        "pairs": int(sum(counts)),
        "pentanomial": list(counts),
        "score": None if est is None else est.score,
        "elo": None if est is None else est.elo,
        "elo_low": None if est is None else est.low,
        "elo_high": None if est is None else est.high,
        "elo_error": None if est is None else est.error,
        "los": None if est is None else est.los,
        "llr": llr,
        "llr_bounds": [params.lower, params.upper],
        "decision": decision(llr, params),
    }
