"""The arena's sequential test: a generalised SPRT over the outcomes of a duplicate pair.

A sample is one deal: the first bot's duplicate score against the second over the deal's
tables, in [0, 1]. It takes a few values only (3 in douzero mode: both tables won, one,
none; a few more in game mode), so the likelihood is a multinomial over those values, as
fastchess and fishtest treat a game pair's five outcomes (the "pentanomial" model), not a
normal law with a variance estimated from the first samples.

The log-likelihood ratio after ``n`` deals is ``n (KL(p, q0) - KL(p, q1))``: ``p`` is the
distribution of the values seen, ``q_s`` the distribution closest to ``p`` (in
Kullback-Leibler divergence) whose mean is the score ``s`` of ``elo0`` or ``elo1``
(``q_j = p_j / (1 + lam (x_j - s))``, ``lam`` found by Newton's method on its concave dual).

Two guards make it honest on few deals:

* ``p`` is regularised: one pseudo-deal, half at score 0 and half at score 1, is added to
  the counts, so that the estimated distribution always has some spread (its variance is
  never zero: the plug-in normal GSPRT divided by a variance estimated from two equal
  samples) and every mean in (0, 1) is reachable;
* no decision before :attr:`Sprt.min_deals` deals (default :data:`MIN_DEALS`): the
  Wald bounds assume the LLR's increments look like their limit law, which a multinomial
  of up to 25 cells seen on a handful of deals does not. ``bench/bench_sprt.py`` measures
  the false-decision rates of this rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from ..errors import DdzError
from .stats import score_of

__all__ = ["Sprt", "SprtState", "MIN_DEALS", "PRIOR", "kl_to_mean", "llr_counts"]

MIN_DEALS = 30
"""No decision before this many deals (see the module docstring)."""

PRIOR = 1.0
"""Pseudo-deals added to the counts, half at score 0 and half at score 1."""

_NEWTON = 60


def kl_to_mean(x: np.ndarray, p: np.ndarray, s: float, iterations: int = _NEWTON) -> np.ndarray:
    """``min KL(p, q)`` over the distributions ``q`` on the values ``x`` whose mean is
    ``s``: ``max_lam sum_j p_j log(1 + lam (x_j - s))`` (its dual), by safeguarded
    Newton steps.

    :param x: shape ``(k,)``: the values, which must include some below and some above
        ``s`` where ``p`` is positive (the prior's 0 and 1 do).
    :param p: shape ``(..., k)``: probabilities (rows sum to 1).
    :param s: the target mean, strictly between the smallest and largest value.
    :returns: shape ``(...)``: the divergences (>= 0).
    """
    d = np.asarray(x, dtype=np.float64) - s
    p = np.asarray(p, dtype=np.float64)
    pos = p > 0
    dmax = np.max(np.where(pos, d, -np.inf), axis=-1)
    dmin = np.min(np.where(pos, d, np.inf), axis=-1)
    hi = -1.0 / dmin            # the dual's domain: 1 + lam d_j > 0 wherever p_j > 0
    lo = -1.0 / dmax
    m1 = np.sum(p * d, axis=-1)
    m2 = np.sum(p * d * d, axis=-1)
    # a bracketed Newton's method on g(lam) = sum p d / (1 + lam d) times the two end factors
    # (1 + lam dmin)(1 + lam dmax): the same root, without g's poles at the domain's ends
    # (which make plain Newton crawl when a value of tiny probability carries the optimum)
    shape = p.shape[:-1]
    p2 = p.reshape(-1, d.size)
    lo, hi, dmin, dmax = (np.broadcast_to(v, shape).reshape(-1) for v in (lo, hi, dmin, dmax))
    m1, m2 = m1.reshape(-1), m2.reshape(-1)
    blo, bhi = lo.copy(), hi.copy()
    lam = np.clip(m1 / np.maximum(m2, 1e-300), lo * 0.5, hi * 0.5)
    rows = np.arange(lam.size)          # the rows still iterating
    for _ in range(iterations):
        if not rows.size:
            break
        L, P = lam[rows][:, None], p2[rows]
        a_, b_ = dmin[rows][:, None], dmax[rows][:, None]
        den = 1.0 + L * d
        ea, eb = 1.0 + L * a_, 1.0 + L * b_
        r = ea * eb / den
        G = np.sum(P * d * r, axis=-1)
        dG = np.sum(P * d * ((a_ * eb + b_ * ea) / den - r * d / den), axis=-1)
        up = G > 0
        lo_r = blo[rows] = np.where(up, lam[rows], blo[rows])
        hi_r = bhi[rows] = np.where(up, bhi[rows], lam[rows])
        with np.errstate(divide="ignore", invalid="ignore"):
            new = lam[rows] - G / dG
        new = np.where((new >= lo_r) & (new <= hi_r) & (G != 0), new, np.where(G == 0, lam[rows], (lo_r + hi_r) / 2))
        moved = np.abs(new - lam[rows]) > 1e-13 * (1.0 + np.abs(new))
        lam[rows] = new
        rows = rows[moved]
    lam = lam.reshape(shape)
    den = 1.0 + lam[..., None] * d
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(pos, p * np.log(np.where(pos, den, 1.0)), 0.0)
    return np.maximum(np.sum(terms, axis=-1), 0.0)


def llr_counts(x: np.ndarray, counts: np.ndarray, s0: float, s1: float, prior: float = PRIOR) -> np.ndarray:
    """The multinomial GSPRT's LLR of the counts of the values ``x`` (the module
    docstring), vectorised over leading axes.

    :param x: shape ``(k,)``: the distinct values, in [0, 1].
    :param counts: shape ``(..., k)``: how many deals scored each value.
    :param s0, s1: the expected scores of H0 and H1, in (0, 1).
    :param prior: pseudo-deals, half at 0 and half at 1.
    :returns: shape ``(...)``: the LLRs (0 where no deal was counted).
    """
    x = np.asarray(x, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum(axis=-1)
    ends = [v for v in (0.0, 1.0) if not np.any(x == v)]
    xs = np.concatenate([x, ends])
    c = np.concatenate([counts, np.zeros(counts.shape[:-1] + (len(ends),))], axis=-1)
    c[..., (xs == 0.0) | (xs == 1.0)] += prior / 2
    p = c / c.sum(axis=-1, keepdims=True)
    return n * (kl_to_mean(xs, p, s0) - kl_to_mean(xs, p, s1))


@dataclass(frozen=True)
class SprtState:
    """Where a sequential test stands: ``llr`` and its bounds ``lower``/``upper``, the
    samples (deals) seen, and ``decision``: ``"H1"`` (accept elo1: the first bot is
    stronger by about elo1), ``"H0"`` (accept elo0) or ``None`` (undecided)."""

    llr: float
    lower: float
    upper: float
    samples: int
    decision: Optional[str]

    def to_dict(self) -> dict:
        """A JSON-serializable dict of the fields."""
        return {"llr": self.llr, "lower": self.lower, "upper": self.upper, "samples": self.samples,
                "decision": self.decision}


def _number(v) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of the first bot's score against the second
    (``elo0``, ``elo1``, ``alpha``, ``beta``; logistic Elo of the duplicate score), over
    the deals' outcomes as a multinomial (the module docstring); it stops at
    ``log(beta / (1 - alpha))`` (H0) or ``log((1 - beta) / alpha)`` (H1), never before
    ``min_deals`` deals.

    :param elo0: the Elo difference of H0 (e.g. 0).
    :param elo1: the Elo difference of H1, larger than ``elo0`` (e.g. 20).
    :param alpha: the false-positive rate, 0 < alpha < 1 (default 0.05).
    :param beta: the false-negative rate, 0 < beta < 1 (default 0.05).
    :param min_deals: no decision before this many deals (default :data:`MIN_DEALS`, >= 1).
    :raises DdzError: bad numbers, or ``elo1 <= elo0``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_deals: int = MIN_DEALS

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            v = getattr(self, name)
            if not _number(v):
                raise DdzError(f"Sprt {name} must be a finite number, got {v!r}")
        if not self.elo1 > self.elo0:
            raise DdzError(f"Sprt needs elo1 > elo0, got elo0={self.elo0!r}, elo1={self.elo1!r}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 1:
                raise DdzError(f"Sprt {name} must be between 0 and 1, got {getattr(self, name)!r}")
        m = self.min_deals
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not 1 <= m <= 10**9:
            if not (isinstance(m, float) and m.is_integer() and 1 <= m <= 10**9):
                raise DdzError(f"Sprt min_deals must be an integer >= 1, got {m!r}")
        object.__setattr__(self, "min_deals", int(m))
        for name in ("elo0", "elo1"):
            if not 0 < score_of(getattr(self, name)) < 1:
                raise DdzError(f"Sprt {name} is too large an Elo difference: {getattr(self, name)!r}")

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """``"elo0,elo1[,alpha[,beta]]"`` or ``"elo0=0 elo1=5 alpha=0.05 beta=0.05
        min_deals=30"``.

        :raises DdzError: not that form.
        """
        if not isinstance(text, str) or not text.strip():
            raise DdzError(f"an SPRT is 'elo0,elo1[,alpha[,beta]]', got {text!r}")
        parts = [p for p in text.replace(",", " ").split() if p]
        keys = ("elo0", "elo1", "alpha", "beta", "min_deals")
        values: Dict[str, float] = {}
        try:
            for i, p in enumerate(parts):
                if "=" in p:
                    k, v = p.split("=", 1)
                    if k not in keys:
                        raise DdzError(f"unknown SPRT parameter {k!r}; they are {', '.join(keys)}")
                    values[k] = float(v)
                elif i < 4:
                    values[keys[i]] = float(p)
                else:
                    raise ValueError
        except ValueError:
            raise DdzError(f"an SPRT is 'elo0,elo1[,alpha[,beta]]' of numbers, got {text!r}") from None
        if "elo0" not in values or "elo1" not in values:
            raise DdzError(f"an SPRT needs elo0 and elo1, got {text!r}")
        return cls(**values)

    @property
    def bounds(self) -> Tuple[float, float]:
        """``(lower, upper)`` bounds of the LLR."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def scores(self) -> Tuple[float, float]:
        """The expected scores of H0 and H1 (:func:`ddz.arena.stats.score_of`)."""
        return score_of(self.elo0), score_of(self.elo1)

    def llr(self, samples: Sequence[float]) -> float:
        """The LLR of per-deal scores (in [0, 1]); 0 with none."""
        counts = _count(samples)
        return self.llr_of_counts(counts)

    def llr_of_counts(self, counts: Dict[float, int]) -> float:
        """The LLR of ``{score: deals}``."""
        if not counts:
            return 0.0
        x = np.fromiter(counts.keys(), np.float64, len(counts))
        c = np.fromiter(counts.values(), np.float64, len(counts))
        s0, s1 = self.scores
        return float(llr_counts(x, c, s0, s1))

    def decision(self, llr: float, samples: int) -> Optional[str]:
        """``"H1"``, ``"H0"`` or ``None`` for an LLR after ``samples`` deals."""
        if samples < self.min_deals:
            return None
        lower, upper = self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else None

    def state(self, samples: Sequence[float]) -> SprtState:
        """The test after ``samples`` (per-deal scores in [0, 1], in deal order).

        :raises DdzError: a sample outside [0, 1].
        """
        llr = self.llr(samples)
        lower, upper = self.bounds
        return SprtState(llr, lower, upper, len(samples), self.decision(llr, len(samples)))

    def to_dict(self) -> dict:
        """The parameters as a dict."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "min_deals": self.min_deals}


def _key(x: float) -> float:
    return round(float(x), 12)


def _count(samples: Sequence[float]) -> Dict[float, int]:
    counts: Dict[float, int] = {}
    for v in samples:
        if not 0 <= v <= 1:
            raise DdzError(f"an SPRT sample is a score in [0, 1], got {v!r}")
        k = _key(v)
        counts[k] = counts.get(k, 0) + 1
    return counts


class SprtCounter:
    """The running test of :func:`ddz.arena.run`: :meth:`add` a deal's score, get the
    decision (or ``None``)."""

    def __init__(self, sprt: Sprt) -> None:
        self.sprt = sprt
        self.counts: Dict[float, int] = {}
        self.n = 0

    def add(self, score: float) -> Optional[str]:
        """Count one deal; the decision after it."""
        k = _key(score)
        self.counts[k] = self.counts.get(k, 0) + 1
        self.n += 1
        if self.n < self.sprt.min_deals:
            return None
        return self.sprt.decision(self.sprt.llr_of_counts(self.counts), self.n)


def llr_path(sprt: Sprt, samples: Sequence[float], points: int = 400) -> Tuple[np.ndarray, np.ndarray]:
    """The LLR after each of up to ``points`` deal counts spread over ``samples`` (for a
    chart): ``(deals, llr)``, both shape ``(m,)``."""
    n = len(samples)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0)
    at = np.unique(np.linspace(1, n, min(points, n)).round().astype(np.int64))
    x = np.asarray([_key(v) for v in samples])
    u, inv = np.unique(x, return_inverse=True)
    onehot = np.zeros((n, u.size))
    onehot[np.arange(n), inv] = 1
    cum = np.cumsum(onehot, axis=0)[at - 1]
    s0, s1 = sprt.scores
    return at, llr_counts(u, cum, s0, s1)


def tilt(x: Sequence[float], p: Sequence[float], s: float) -> np.ndarray:
    """The distribution closest to ``p`` (on the values ``x``) in Kullback-Leibler
    divergence whose mean is ``s``: ``p_j / (1 + lam (x_j - s))`` normalised, ``lam`` by
    bisection. A measured outcome distribution reweighted to a chosen Elo difference.

    :raises DdzError: ``s`` not strictly between the smallest and largest value of
        positive probability.
    """
    x = np.asarray(x, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    p = p / p.sum()
    d = x - s
    live = p > 0
    if not (d[live].min() < 0 < d[live].max()):
        raise DdzError(f"no distribution on these values has mean {s!r}")
    lo, hi = -1 / d[live].max(), -1 / d[live].min()
    for _ in range(200):
        lam = (lo + hi) / 2
        if np.sum(p * d / (1 + lam * d)) > 0:
            lo = lam
        else:
            hi = lam
    q = p / (1 + lam * d)
    return q / q.sum()


def simulate(x: Sequence[float], p: Sequence[float], sprt: Sprt, runs: int, seed: int = 0,
             max_deals: int = 100_000, block: int = 64) -> Tuple[np.ndarray, np.ndarray]:
    """Run ``runs`` tests on deals drawn independently from the distribution ``p`` over
    the scores ``x``: the test's operating characteristic by simulation (vectorised over
    runs and over blocks of deals; the same decisions as deal-by-deal).

    :returns: ``(decisions, deals)``, both shape ``(runs,)``: +1 for H1, -1 for H0, 0 when
        undecided after ``max_deals``; and the deals each test took.
    """
    x = np.asarray(x, dtype=np.float64)
    cdf = np.cumsum(np.asarray(p, dtype=np.float64) / np.sum(p))
    rng = np.random.default_rng(seed)
    s0, s1 = sprt.scores
    lower, upper = sprt.bounds
    k = x.size
    counts = np.zeros((runs, k))
    alive = np.arange(runs)
    decision = np.zeros(runs, np.int64)
    deals = np.zeros(runs, np.int64)
    n = 0
    while alive.size and n < max_deals:
        draws = np.minimum(np.searchsorted(cdf, rng.random((alive.size, block)), side="right"), k - 1)
        inc = np.zeros((alive.size, block, k))
        np.put_along_axis(inc, draws[..., None], 1.0, axis=2)
        cum = counts[alive][:, None, :] + np.cumsum(inc, axis=1)
        llr = llr_counts(x, cum, s0, s1)
        at = n + 1 + np.arange(block)
        ok = (at >= sprt.min_deals) & (at <= max_deals)
        h1 = (llr >= upper) & ok
        hit = h1 | ((llr <= lower) & ok)
        done = hit.any(axis=1)
        first = np.argmax(hit, axis=1)
        rows = alive[done]
        decision[rows] = np.where(h1[done, first[done]], 1, -1)
        deals[rows] = at[first[done]]
        counts[alive] = cum[:, -1]
        alive = alive[~done]
        n += block
    deals[alive] = min(n, max_deals)
    return decision, deals
