"""``ddz arena plot FILE -o chart.png|svg``: a result as a chart (issue 40), with
matplotlib (the optional extra ``plot``: ``pip install "ddz[plot]"``).

Four panels: each bot's WP and its 95% interval; each bot's ADP and its interval; the WP
matrix as a heat map; and the SPRT's LLR over the deals between its bounds (a run with
an SPRT), else the first pair's WP and its interval as the deals came in.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from ..errors import DdzError
from .results import ArenaResult
from .sprt import Sprt, llr_path
from .stats import wp_interval

__all__ = ["plot", "figure"]

_FORMATS = (".png", ".svg")


def _matplotlib():
    try:
        from matplotlib.figure import Figure   # an optional extra: imported only to draw a chart
    except ImportError:
        raise DdzError("ddz arena plot needs matplotlib: pip install \"ddz[plot]\"") from None
    return Figure


def plot(result: ArenaResult, path: str) -> None:
    """Draw ``result`` (:func:`figure`) into ``path``, a ``.png`` or ``.svg`` file.

    :raises DdzError: another extension, matplotlib not installed, the file cannot be
        written.
    """
    if not isinstance(path, str) or os.path.splitext(path)[1].lower() not in _FORMATS:
        raise DdzError(f"a chart is a .png or .svg file, got {path!r}")
    fig = figure(result)
    try:
        fig.savefig(path, dpi=110, metadata={"Software": None} if path.lower().endswith(".png") else {"Date": None})
    except OSError as exc:
        raise DdzError(f"cannot write {path!r}: {exc.strerror or exc}") from None


def _bars(ax: Any, names: list, means: list, cis: list, centre: float, title: str, fmt: str) -> None:
    y = np.arange(len(names))[::-1]
    m = np.array([np.nan if v is None else v for v in means], dtype=float)
    lo = np.array([np.nan if c is None or c[0] is None else c[0] for c in cis], dtype=float)
    hi = np.array([np.nan if c is None or c[1] is None else c[1] for c in cis], dtype=float)
    ax.axvline(centre, color="0.6", lw=1, ls="--")
    ax.errorbar(m, y, xerr=[np.nan_to_num(m - lo), np.nan_to_num(hi - m)], fmt="o", color="C0", ecolor="C0",
                capsize=4, lw=2)
    for yi, v, h in zip(y, m, hi):
        if math.isfinite(v):
            ax.annotate(format(v, fmt), (h if math.isfinite(h) else v, yi), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(names)
    ax.set_ylim(-0.7, len(names) - 0.3)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="0.9")
    ax.margins(x=0.12)


def figure(result: ArenaResult) -> Any:
    """A matplotlib ``Figure`` of the four panels (the module docstring).

    :raises DdzError: matplotlib not installed.
    """
    Figure = _matplotlib()
    r = result
    names = r.names
    fig = Figure(figsize=(11, 7.2), layout="constrained")
    axes = fig.subplots(2, 2)
    fig.suptitle(f"ddz arena: {', '.join(names)} - {r.mode} mode, {r.deals} deals"
                 + ("" if r.seed is None else f", seed {r.seed}") + " (95% intervals)", fontsize=11)
    _bars(axes[0, 0], names, [b["wp"] for b in r.bots], [b["wp_ci"] for b in r.bots], 0.5,
          "WP (duplicate score against the others)", ".3f")
    axes[0, 0].set_xlim(0, 1)
    _bars(axes[0, 1], names, [b["adp"] for b in r.bots], [b["adp_ci"] for b in r.bots], 0.0,
          "ADP (points per deal)", "+.2f")
    ax = axes[1, 0]
    k = len(names)
    mat = np.array([[np.nan if v is None else v for v in row] for row in r.wp_matrix], dtype=float)
    im = ax.imshow(mat, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if math.isfinite(mat[i, j]):
                ax.text(j, i, f"{mat[i, j]:.3f}", ha="center", va="center", fontsize=9,
                        color="white" if abs(mat[i, j] - 0.5) > 0.3 else "black")
    ax.set_xticks(range(k))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_yticks(range(k))
    ax.set_yticklabels(names)
    ax.set_title("WP of the row against the column", fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    _over_deals(axes[1, 1], r)
    return fig


def _over_deals(ax: Any, r: ArenaResult) -> None:
    """The SPRT's LLR over the deals, or the first pair's WP as the deals came in."""
    if r.values is None or not len(r.values):
        ax.text(0.5, 0.5, "no per-deal values in this result (format 1)", ha="center", va="center")
        ax.set_axis_off()
        return
    scores = r.values.scores()[:, 0]
    a, b = r.pairs[0]["bots"]
    if r.sprt is not None and "min_deals" in r.sprt:
        s = r.sprt
        sprt = Sprt(s["elo0"], s["elo1"], s["alpha"], s["beta"], s["min_deals"])
        at, llr = llr_path(sprt, scores.tolist())
        lower, upper = sprt.bounds
        ax.plot(at, llr, color="C0", lw=1.5, label="LLR")
        ax.axhline(upper, color="C2", ls="--", lw=1, label=f"accept H1 (elo {s['elo1']:g})")
        ax.axhline(lower, color="C3", ls="--", lw=1, label=f"accept H0 (elo {s['elo0']:g})")
        ax.axvline(sprt.min_deals, color="0.6", ls=":", lw=1, label=f"no decision before {sprt.min_deals}")
        ax.set_title(f"SPRT of {a} against {b}: " + ({"H1": "H1 accepted", "H0": "H0 accepted"}.get(
            s["decision"]) or "undecided"), fontsize=10)
        ax.set_ylabel("log-likelihood ratio")
    else:
        n = scores.size
        at = np.unique(np.linspace(1, n, min(n, 120)).round().astype(int))
        iv = np.array([wp_interval(scores[:m]) for m in at])
        ax.fill_between(at, iv[:, 1], iv[:, 2], color="C0", alpha=0.25, lw=0, label="95% interval")
        ax.plot(at, iv[:, 0], color="C0", lw=1.5, label=f"WP of {a}")
        ax.axhline(0.5, color="0.6", ls="--", lw=1)
        ax.set_ylim(0, 1)
        ax.set_title(f"WP of {a} against {b} as the deals came in", fontsize=10)
        ax.set_ylabel("WP")
    ax.set_xlabel("deals")
    ax.legend(fontsize=8, loc="best")
    ax.grid(color="0.9")
