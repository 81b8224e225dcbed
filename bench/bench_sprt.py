"""The arena's SPRT error rates (issue 40): a bot against itself must accept H1 (the first
bot is stronger) at most alpha + 1% of the time, and at a true difference of exactly elo1
accept H0 at most beta + 1%.

    flock /work/notes/longjob.lock env PYTHONPATH=src python3 bench/bench_sprt.py
    PYTHONPATH=src python3 bench/bench_sprt.py --deals 4000 --runs 1000 --real 0   # quicker

1. Per-deal outcomes recorded from real runs: ``ddz.arena.run(["random", "random"],
   deals=N, mode=M)`` in each mode (random is the fastest bot; its per-deal duplicate
   score takes 3 values in douzero mode, up to 25 in game mode). Their distribution is
   symmetrised (``x`` and ``1 - x`` pooled: a bot against itself has mean 0.5 exactly),
   and reweighted to mean ``score_of(elo1)`` (the closest distribution in KL divergence,
   :func:`ddz.arena.sprt.tilt`) for the H1 case.
2. ``--runs`` SPRTs of each case in each mode by resampling deals from those
   distributions (:func:`ddz.arena.sprt.simulate`: the arena's LLR and stopping rule),
   for the arena's test (30 deals at least), the same without the minimum, and the
   plug-in normal GSPRT the arena used before (issue 27) for comparison.
3. ``--real`` complete arena runs of random against itself with the SPRT (douzero mode,
   seeds 0..real-1): the share that accepts H1, with no resampling at all.
"""

import argparse
import time

import numpy as np

import ddz.arena
from ddz.arena.sprt import Sprt, simulate, tilt


def record(mode: str, deals: int, seed: int) -> np.ndarray:
    """Per-deal duplicate scores of random against itself."""
    r = ddz.arena.run(["random", "random"], deals=deals, seed=seed, mode=mode)
    return r.values.scores()[:, 0]


def distribution(scores: np.ndarray) -> tuple:
    """The values and their probabilities, symmetrised around 0.5."""
    both = np.concatenate([scores, 1 - scores]).round(12)
    x, c = np.unique(both, return_counts=True)
    return x, c / c.sum()


def normal_gsprt(x, p, sprt: Sprt, runs: int, seed: int, max_deals: int = 100_000) -> np.ndarray:
    """Issue 27's test: LLR = n (s1 - s0)(2m - s0 - s1) / (2v), m and v the samples'
    mean and variance, from the second sample, no minimum. +1 H1, -1 H0, 0 undecided."""
    rng = np.random.default_rng(seed)
    s0, s1 = sprt.scores
    lower, upper = sprt.bounds
    cdf = np.cumsum(p)
    total = np.zeros(runs)
    total2 = np.zeros(runs)
    decision = np.zeros(runs, np.int64)
    alive = np.arange(runs)
    for n in range(1, max_deals + 1):
        v = x[np.minimum(np.searchsorted(cdf, rng.random(alive.size), side="right"), x.size - 1)]
        total[alive] += v
        total2[alive] += v * v
        if n < 2:
            continue
        m = total[alive] / n
        var = total2[alive] / n - m * m
        with np.errstate(divide="ignore", invalid="ignore"):
            llr = np.where(var > 1e-12, n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var), 0.0)
        h1, h0 = llr >= upper, llr <= lower
        decision[alive[h1]] = 1
        decision[alive[h0]] = -1
        alive = alive[~(h1 | h0)]
        if not alive.size:
            break
    return decision


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=10000, help="deals recorded per mode (default 10000)")
    ap.add_argument("--runs", type=int, default=2000, help="resampled SPRTs per case (default 2000)")
    ap.add_argument("--real", type=int, default=30, help="complete arena SPRT runs, douzero mode (default 30)")
    ap.add_argument("--elo1", type=float, default=20.0, help="the SPRT's elo1 (elo0 is 0; default 20)")
    args = ap.parse_args()
    sprt = Sprt(0, args.elo1)
    bare = Sprt(0, args.elo1, min_deals=1)
    s1 = sprt.scores[1]
    print(f"SPRT elo0=0 elo1={args.elo1:g} alpha={sprt.alpha} beta={sprt.beta}; limits: H1 rate <= "
          f"{sprt.alpha + 0.01:.2f} for a bot against itself, H0 rate <= {sprt.beta + 0.01:.2f} at elo1")
    for mode in ("douzero", "game"):
        t = time.perf_counter()
        scores = record(mode, args.deals, seed=20261206)
        x, p = distribution(scores)
        q = tilt(x, p, s1)
        print(f"\n{mode} mode: random vs random, {args.deals} deals recorded in {time.perf_counter() - t:.0f} s: "
              f"{x.size} values, variance {np.sum(p * (x - 0.5) ** 2):.4f}, mean as recorded {scores.mean():.4f}")
        for label, test in (("arena (multinomial, >= 30 deals)", sprt), ("multinomial, no minimum", bare)):
            t = time.perf_counter()
            d0, n0 = simulate(x, p, test, args.runs, seed=1)
            d1, n1 = simulate(x, q, test, args.runs, seed=2)
            print(f"  {label:<34} same bot: H1 {np.mean(d0 == 1):6.2%} (deals: median {np.median(n0):.0f}) | "
                  f"at elo1: H0 {np.mean(d1 == -1):6.2%} (median {np.median(n1):.0f}) | "
                  f"undecided {np.sum(d0 == 0) + np.sum(d1 == 0)} | {time.perf_counter() - t:.0f} s")
        t = time.perf_counter()
        o0 = normal_gsprt(x, p, sprt, args.runs, seed=1)
        o1 = normal_gsprt(x, q, sprt, args.runs, seed=2)
        print(f"  {'issue 27 (normal, plug-in variance)':<34} same bot: H1 {np.mean(o0 == 1):6.2%}"
              f"                   | at elo1: H0 {np.mean(o1 == -1):6.2%} | {time.perf_counter() - t:.0f} s")
    if args.real:
        t = time.perf_counter()
        h1 = 0
        deals = []
        for seed in range(args.real):
            r = ddz.arena.run(["random", "random"], deals=100_000, seed=seed, mode="douzero", sprt=sprt)
            h1 += r.sprt["decision"] == "H1"
            deals.append(r.deals)
        print(f"\n{args.real} complete arena runs (random vs random, douzero mode, seeds 0..{args.real - 1}): "
              f"H1 accepted {h1} times ({h1 / args.real:.1%}), deals: median {np.median(deals):.0f}, "
              f"min {min(deals)}; {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
