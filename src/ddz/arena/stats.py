"""Statistics of the arena: means with 95% confidence intervals, Elo, and the SPRT.

Every interval here is a normal interval on per-deal values: the arena plays each deal
at several tables with the seats exchanged (bridge's duplicate scoring), so the luck of
the deal cancels within a deal, and the deals are independent samples of the paired
statistic. ``mean_ci`` takes those per-deal values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from ..errors import DdzError

__all__ = ["Z95", "mean_ci", "elo_of", "score_of", "Sprt", "SprtState"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def mean_ci(values: Sequence[float], z: float = Z95) -> Tuple[float, float, float]:
    """The mean of ``values`` and its normal confidence interval.

    :param values: per-deal values (floats); at least one.
    :param z: the normal quantile (default :data:`Z95`, a 95% interval).
    :returns: ``(mean, low, high)``; with one value, or values all equal, the interval is
        the mean itself (zero width).
    :raises DdzError: no values.
    """
    n = len(values)
    if not n:
        raise DdzError("mean_ci needs at least one value")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def elo_of(score: float) -> float:
    """The logistic Elo difference of an expected score (a win probability) in [0, 1]:
    ``-400 log10(1/score - 1)``; ±inf at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of(elo: float) -> float:
    """The expected score of a logistic Elo difference: ``1 / (1 + 10**(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class SprtState:
    """Where a sequential test stands: ``llr`` and its bounds ``lower``/``upper``, the
    samples seen, and ``decision``: ``"H1"`` (accept elo1: the first bot is stronger by
    about elo1), ``"H0"`` (accept elo0) or ``None`` (undecided)."""

    llr: float
    lower: float
    upper: float
    samples: int
    decision: Optional[str]

    def to_dict(self) -> dict:
        """A JSON-serializable dict of the fields."""
        return {"llr": self.llr, "lower": self.lower, "upper": self.upper, "samples": self.samples,
                "decision": self.decision}


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of the first bot's score against the second, as
    fishtest runs one (``elo0``, ``elo1``, ``alpha``, ``beta``; logistic Elo).

    The samples are the per-deal scores of the first bot (its mean win share over the
    deal's tables, in [0, 1]), so each sample is a duplicate pair of games, as fishtest's
    game pairs. The log-likelihood ratio is the normal (GSPRT) approximation fishtest
    uses: ``LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)`` with ``m`` and ``v`` the mean and
    variance of the samples and ``s0``, ``s1`` the expected scores of ``elo0``, ``elo1``;
    the test stops at ``log(beta / (1 - alpha))`` (H0) or ``log((1 - beta) / alpha)``
    (H1).

    :param elo0: the Elo difference of H0 (e.g. 0).
    :param elo1: the Elo difference of H1, larger than ``elo0`` (e.g. 10).
    :param alpha: the false-positive rate, 0 < alpha < 1 (default 0.05).
    :param beta: the false-negative rate, 0 < beta < 1 (default 0.05).
    :raises DdzError: bad numbers, or ``elo1 <= elo0``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or math.isinf(v):
                raise DdzError(f"Sprt {name} must be a finite number, got {v!r}")
        if not self.elo1 > self.elo0:
            raise DdzError(f"Sprt needs elo1 > elo0, got elo0={self.elo0!r}, elo1={self.elo1!r}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 1:
                raise DdzError(f"Sprt {name} must be between 0 and 1, got {getattr(self, name)!r}")

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """``"elo0,elo1[,alpha[,beta]]"`` or ``"elo0=0 elo1=5 alpha=0.05 beta=0.05"``.

        :raises DdzError: not that form.
        """
        if not isinstance(text, str) or not text.strip():
            raise DdzError(f"an SPRT is 'elo0,elo1[,alpha[,beta]]', got {text!r}")
        parts = [p for p in text.replace(",", " ").split() if p]
        keys = ("elo0", "elo1", "alpha", "beta")
        values = {}
        try:
            for i, p in enumerate(parts):
                if "=" in p:
                    k, v = p.split("=", 1)
                    if k not in keys:
                        raise DdzError(f"unknown SPRT parameter {k!r}; they are {', '.join(keys)}")
                    values[k] = float(v)
                elif i < len(keys):
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

    def state(self, samples: Sequence[float]) -> SprtState:
        """The test after ``samples`` (per-deal scores in [0, 1], in deal order)."""
        lower, upper = self.bounds
        n = len(samples)
        llr = self.llr(n, math.fsum(samples), math.fsum(x * x for x in samples))
        decision = "H1" if llr >= upper else "H0" if llr <= lower else None
        return SprtState(llr, lower, upper, n, decision)

    def llr(self, n: int, total: float, total2: float) -> float:
        """The LLR of ``n`` samples of sum ``total`` and sum of squares ``total2`` (0 with
        fewer than two samples or no variance)."""
        if n < 2:
            return 0.0
        mean = total / n
        var = total2 / n - mean * mean
        if var <= 1e-12:
            return 0.0
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def decided(self, n: int, total: float, total2: float) -> bool:
        """Whether the test has decided after ``n`` samples (running sums, as :meth:`llr`)."""
        lower, upper = self.bounds
        llr = self.llr(n, total, total2)
        return llr >= upper or llr <= lower
