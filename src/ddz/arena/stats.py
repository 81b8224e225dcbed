"""Statistics of the arena: intervals that stay in their range, Elo, and a Bradley-Terry
rating list (the SPRT is :mod:`ddz.arena.sprt`).

The arena plays each deal at several tables with the seats exchanged (bridge's duplicate
scoring), so the luck of the deal cancels within a deal, and the deals are independent
samples of the paired statistic: every interval here is computed on per-deal values.

* :func:`wp_interval`: a win probability's interval (values in [0, 1]): Wilson's score
  interval on the effective number of deals. With per-deal values that are 0 or 1 it is
  Wilson's interval; duplicate scores (0.5 for a split deal) vary less than a coin of the
  same mean, so the deals count for more (at most ``n (n + 1)``). It never leaves [0, 1]
  and is never of zero width.
* :func:`adp_interval`: a mean of points (values in a known range ``[low, high]``): a
  bootstrap-t (studentised bootstrap) interval whose variance has a floor that shrinks
  as ``1 / n``, clipped to the range; never of zero width, even when every deal scored
  the same (where a t-interval is a point).
* :func:`elo_interval`: the logistic Elo of a WP strictly inside (0, 1), and of its
  interval's ends (``None`` past 0 or 1: unbounded).
* :func:`rating_list`: Bradley-Terry ratings of three or more bots fitted to the per-deal
  pair scores, with intervals from a bootstrap over deals.

The bootstraps draw from a fixed seed, so that the same values give the same interval (a
resumed or merged run prints the numbers of one uninterrupted run).
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..errors import DdzError

__all__ = ["Z95", "mean_ci", "wilson", "wp_interval", "adp_interval", "elo_of", "score_of", "elo_interval",
           "bradley_terry", "rating_list", "BOOTSTRAP"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

BOOTSTRAP = 2000
"""Resamples of :func:`adp_interval`'s bootstrap-t."""

_SEED = 20261206        # the bootstraps' fixed seed: the same values give the same interval


def _values(values: Sequence[float], what: str) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    if not x.size:
        raise DdzError(f"{what} needs at least one value")
    if not np.all(np.isfinite(x)):
        raise DdzError(f"{what} needs finite values")
    return x


def mean_ci(values: Sequence[float], z: float = Z95) -> Tuple[float, float, float]:
    """The mean of ``values`` and its normal (t-like) confidence interval: the plain
    large-sample interval, unclipped. The arena prints :func:`wp_interval` and
    :func:`adp_interval` instead, which keep to their range on small samples.

    :param values: floats; at least one.
    :param z: the normal quantile (default :data:`Z95`, a 95% interval).
    :returns: ``(mean, low, high)``; with one value nothing is known of the spread:
        ``(mean, -inf, inf)``.
    :raises DdzError: no values, or a value that is not finite.
    """
    x = _values(values, "mean_ci")
    mean = float(math.fsum(x) / x.size)
    if x.size < 2:
        return mean, -math.inf, math.inf
    half = z * math.sqrt(float(np.var(x, ddof=1)) / x.size)
    return mean, mean - half, mean + half


def wilson(p: float, n: float, z: float = Z95) -> Tuple[float, float]:
    """Wilson's score interval of a proportion ``p`` observed on ``n`` trials (``n`` may
    be an effective, non-integer number).

    :returns: ``(low, high)``, inside [0, 1] and of positive width for any finite n > 0.
    :raises DdzError: ``p`` outside [0, 1] or ``n <= 0``.
    """
    if not 0 <= p <= 1 or not n > 0:
        raise DdzError(f"wilson needs 0 <= p <= 1 and n > 0, got p={p!r}, n={n!r}")
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def wp_interval(values: Sequence[float], z: float = Z95) -> Tuple[float, float, float]:
    """A win probability and its interval from per-deal values in [0, 1].

    Wilson's score interval (:func:`wilson`) at the mean ``m`` of the values, on the
    effective number of deals ``n m(1 - m) / v``, where ``v`` is the values' variance
    (divisor ``n``) regularised by a floor of ``m(1 - m) / (n + 1)`` (at most ``n (n + 1)``
    effective deals: few deals that happen to score alike do not make a narrow interval).
    For values that are 0 or 1, ``v = m(1 - m)``: ``n`` deals, Wilson's interval itself;
    duplicate scores (0.5 for a split deal) vary less than a coin of their mean and count
    for more. Where ``m`` is 0 or 1, ``n`` deals.

    :param values: per-deal values in [0, 1]; at least one.
    :returns: ``(mean, low, high)`` with ``0 <= low < high <= 1``.
    :raises DdzError: no values, or one outside [0, 1].
    """
    x = _values(values, "wp_interval")
    if np.any(x < 0) or np.any(x > 1):
        raise DdzError("wp_interval needs values in [0, 1]")
    n = x.size
    mean = min(1.0, max(0.0, float(math.fsum(x) / n)))
    pq = mean * (1 - mean)
    if pq <= 0:
        n_eff = float(n)
    else:
        v = max(float(np.mean((x - mean) ** 2)), pq / (n + 1))
        n_eff = n * pq / v
    lo, hi = wilson(mean, n_eff, z)
    return mean, lo, hi


def adp_interval(values: Sequence[float], low: float, high: float, z: float = Z95,
                 resamples: int = BOOTSTRAP) -> Tuple[float, float, float]:
    """A mean of points and its bootstrap-t interval, inside the known range of a value.

    The studentised bootstrap: the standard error of the sample and of each resample
    comes from its variance (divisor ``n``) with a floor of ``h**2 / (n + 1)``, ``h`` half
    the range's width (``h**2`` is the largest variance a value in the range can have), so
    that it is never zero; the interval ``[m - t_hi se, m - t_lo se]`` from the
    resamples' t quantiles is clipped to ``[low, high]``. The resamples draw from a fixed
    seed.

    :param values: per-deal values in ``[low, high]``; at least one.
    :param low, high: the range a value can take (``low < high``).
    :param z: a 95% interval by default (the quantiles ``Phi(-z)``, ``Phi(z)``).
    :param resamples: bootstrap resamples (>= 100).
    :returns: ``(mean, lo, hi)`` with ``low <= lo < hi <= high``.
    :raises DdzError: no values, a value outside the range, a bad range.
    """
    x = _values(values, "adp_interval")
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise DdzError(f"adp_interval needs a finite range low < high, got [{low!r}, {high!r}]")
    if np.any(x < low) or np.any(x > high):
        raise DdzError(f"adp_interval needs values in [{low}, {high}]")
    n = x.size
    mean = float(math.fsum(x) / n)
    floor = ((high - low) / 2) ** 2 / (n + 1)
    se = math.sqrt(max(float(np.mean((x - mean) ** 2)), floor) / n)
    rng = np.random.default_rng(_SEED)
    # resample the distinct values' counts (a multinomial): the cost does not grow with n
    u, counts = np.unique(x, return_counts=True)
    draws = rng.multinomial(n, counts / n, size=max(100, int(resamples)))
    means = draws @ u / n
    var = np.maximum(draws @ (u * u) / n - means * means, floor)
    t = (means - mean) / np.sqrt(var / n)
    a = 0.5 * math.erfc(z / math.sqrt(2))
    t_lo, t_hi = np.quantile(t, [a, 1 - a])
    lo, hi = mean - float(t_hi) * se, mean - float(t_lo) * se
    if not hi - lo > 0:         # a resampled t that never moves (one distinct value): the normal quantiles
        lo, hi = mean - z * se, mean + z * se
    return mean, max(low, lo), min(high, hi)


def elo_of(score: float) -> float:
    """The logistic Elo difference of an expected score (a win probability):
    ``-400 log10(1/score - 1)``; -inf at 0 and +inf at 1.

    :raises DdzError: a score outside [0, 1] (or NaN).
    """
    if not 0 <= score <= 1:
        raise DdzError(f"an expected score is in [0, 1], got {score!r}")
    if score == 0:
        return -math.inf
    if score == 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of(elo: float) -> float:
    """The expected score of a logistic Elo difference: ``1 / (1 + 10**(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(wp: float, low: float, high: float) -> Tuple[Optional[float], List[Optional[float]]]:
    """The Elo of a WP and of its interval's ends: ``(elo, [elo_low, elo_high])``; the Elo
    is ``None`` unless ``0 < wp < 1`` (a bot that won or lost every deal has no finite
    Elo), an end is ``None`` where it is 0 or 1 (unbounded on that side)."""
    def one(p):
        return elo_of(p) if 0 < p < 1 else None
    return one(wp), [one(low), one(high)]


# -- Bradley-Terry ------------------------------------------------------------------------

_LOGISTIC = 400.0 / math.log(10.0)     # Elo points per unit of the natural log-odds


def bradley_terry(pairs: Sequence[Tuple[int, int]], score: np.ndarray, games: np.ndarray, bots: int,
                  iterations: int = 1000) -> np.ndarray:
    """Bradley-Terry strengths fitted by maximum likelihood (Hunter's MM iterations) to
    the pairs' scores; each pair also gets half a deal won by each side, a prior that
    keeps every rating finite when a bot won every deal.

    :param pairs: ``(a, b)`` bot indices of each pair.
    :param score: shape ``(..., pairs)``: a's total score against b (deals won, a split
        deal 0.5); leading axes fit independent problems (bootstrap resamples).
    :param games: shape ``(..., pairs)``: the deals each pair played.
    :param bots: the number of bots.
    :returns: shape ``(..., bots)``: ratings in logistic Elo, mean 0.
    """
    score = np.asarray(score, dtype=np.float64) + 0.5
    games = np.asarray(games, dtype=np.float64) + 1.0
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    wins = np.zeros(score.shape[:-1] + (bots,))
    for p in range(len(pairs)):
        wins[..., a[p]] += score[..., p]
        wins[..., b[p]] += games[..., p] - score[..., p]
    gamma = np.ones(score.shape[:-1] + (bots,))
    for _ in range(iterations):
        denom = np.zeros_like(gamma)
        for p in range(len(pairs)):
            t = games[..., p] / (gamma[..., a[p]] + gamma[..., b[p]])
            denom[..., a[p]] += t
            denom[..., b[p]] += t
        new = wins / denom
        new /= np.exp(np.mean(np.log(new), axis=-1, keepdims=True))
        done = np.max(np.abs(np.log(new / gamma))) < 1e-10
        gamma = new
        if done:
            break
    r = np.log(gamma) * _LOGISTIC
    return r - r.mean(axis=-1, keepdims=True)


def rating_list(pairs: Sequence[Tuple[int, int]], deal_scores: np.ndarray, bots: int, resamples: int = 200,
                z: float = Z95) -> List[Tuple[float, float, float]]:
    """Bradley-Terry ratings of the bots with 95% intervals from a bootstrap over deals
    (every pair's score of a deal resampled together, so the deals' correlation counts).

    :param pairs: ``(a, b)`` of each pair.
    :param deal_scores: shape ``(deals, pairs)``: a's duplicate score against b on each
        deal, in [0, 1].
    :param bots: how many bots (>= 2).
    :param resamples: bootstrap resamples (>= 20); a fixed seed.
    :returns: per bot ``(rating, low, high)`` in logistic Elo, the ratings of mean 0.
    :raises DdzError: no deals.
    """
    s = np.asarray(deal_scores, dtype=np.float64)
    if s.ndim != 2 or not s.shape[0]:
        raise DdzError("rating_list needs the scores of one deal or more")
    n = s.shape[0]
    games = np.full(s.shape[1], float(n))
    fit = bradley_terry(pairs, s.sum(axis=0), games, bots)
    rng = np.random.default_rng(_SEED)
    boots = []
    for chunk in range(0, max(20, int(resamples)), 50):
        k = min(50, max(20, int(resamples)) - chunk)
        w = rng.multinomial(n, np.full(n, 1.0 / n), size=k) if n <= 20000 else \
            np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(k)])
        boots.append(bradley_terry(pairs, w @ s, np.broadcast_to(games, (k, s.shape[1])), bots))
    boot = np.concatenate(boots)
    a = 0.5 * math.erfc(z / math.sqrt(2))
    lo, hi = np.quantile(boot, [a, 1 - a], axis=0)
    return [(float(fit[k]), float(min(lo[k], fit[k])), float(max(hi[k], fit[k]))) for k in range(bots)]
