"""The arena's statistics (issue 40): the multinomial SPRT's error rates on synthetic
3- and 7-valued deal outcomes, intervals that keep to their range and never have zero
width on small samples, Elo only inside (0, 1), and the Bradley-Terry rating list."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ddz
import ddz.arena
from ddz.arena.sprt import Sprt, SprtCounter, kl_to_mean, llr_counts, simulate, tilt
from ddz.arena.stats import adp_interval, bradley_terry, elo_interval, elo_of, rating_list, wilson, wp_interval
from ddz.arena.tally import DealValues, figures

X3 = np.array([0.0, 0.5, 1.0])                       # douzero mode: both tables won, one, none
P3 = np.array([0.2, 0.6, 0.2])
X7 = np.arange(7) / 6                                 # seven outcomes, as a game-mode pair could have
P7 = np.array([0.03, 0.07, 0.15, 0.5, 0.15, 0.07, 0.03])


@pytest.mark.parametrize("x, p", [(X3, P3), (X7, P7)], ids=["3-valued", "7-valued"])
def test_sprt_error_rates_on_synthetic_outcomes(x, p):
    """750 tests of a bot against itself accept H1 at most alpha + 1% of the time, and 750
    at a true difference of exactly elo1 (the distribution reweighted to score_of(elo1))
    accept H0 at most beta + 1%: 3,000 SPRTs over the two parameters."""
    sprt = Sprt(0, 50)
    same, _ = simulate(x, p, sprt, 750, seed=1)
    better, _ = simulate(x, tilt(x, p, sprt.scores[1]), sprt, 750, seed=2)
    assert (same == 0).sum() == 0 == (better == 0).sum()         # every test decided
    assert (same == 1).mean() <= sprt.alpha + 0.01
    assert (better == -1).mean() <= sprt.beta + 0.01
    assert (same == -1).mean() > 0.9 and (better == 1).mean() > 0.9


def test_the_old_sprt_bug_is_gone():
    """Two deals of 0.5 and 1: the plug-in normal GSPRT's variance came from them; now no
    decision before 30 deals, and the counter agrees with state()."""
    s = Sprt(0, 20)
    assert s.state([1.0, 0.5]).decision is None
    c = SprtCounter(s)
    samples = [1.0, 0.5] * 40
    decisions = [c.add(v) for v in samples]
    assert all(d is None for d in decisions[:29])
    for n in (30, 50, 80):
        assert s.state(samples[:n]).decision == decisions[n - 1]


def _kl_reference(x, p, s):
    """min KL(p, q) with mean s, by bisection on lam (slow, plain)."""
    d = np.asarray(x) - s
    lo, hi = -1 / d.max(), -1 / d.min()
    for _ in range(200):
        lam = (lo + hi) / 2
        if np.sum(p * d / (1 + lam * d)) > 0:
            lo = lam
        else:
            hi = lam
    return float(np.sum(p * np.log(1 + lam * d)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=7, max_size=7), st.floats(0.05, 0.95))
def test_kl_to_mean_against_bisection(counts, s):
    c = np.array(counts, dtype=float)
    c[0] += 0.5
    c[-1] += 0.5
    p = c / c.sum()
    assert kl_to_mean(X7, p, s) == pytest.approx(_kl_reference(X7, p, s), abs=1e-9)


def test_llr_is_zero_at_half_way_and_signed():
    s0, s1 = Sprt(0, 20).scores
    assert llr_counts(X3, np.array([0, 0, 0]), s0, s1) == 0
    assert llr_counts(X3, np.array([10, 80, 30]), s0, s1) > 0 > llr_counts(X3, np.array([30, 80, 10]), s0, s1)


def test_sprt_parameters():
    assert Sprt.parse("0,10,0.05,0.1 min_deals=50") == Sprt(0, 10, 0.05, 0.1, 50)
    for bad in (dict(elo0=0, elo1=10, min_deals=0), dict(elo0=0, elo1=10, min_deals=1.5), dict(elo0=0, elo1=1e9)):
        with pytest.raises(ddz.DdzError):
            Sprt(**bad)
    with pytest.raises(ddz.DdzError):
        Sprt(0, 10).state([0.5, 1.5])


# -- intervals ---------------------------------------------------------------------------------

def test_elo_only_inside_zero_one():
    assert elo_of(0.5) == 0 and elo_of(0) == -math.inf and elo_of(1) == math.inf
    for bad in (2, -0.1, math.nan):
        with pytest.raises(ddz.DdzError):
            elo_of(bad)
    assert elo_interval(1.0, 0.8, 1.0) == (None, [pytest.approx(elo_of(0.8)), None])
    assert elo_interval(0.5, 0.0, 1.0) == (0.0, [None, None])


def test_wilson_and_wp_interval_small_samples():
    assert wp_interval([1]) == (1.0, *wilson(1.0, 1))
    assert wp_interval([0, 1, 1, 0, 1]) == pytest.approx((0.6, *wilson(0.6, 5)))   # 0/1 values: Wilson's interval
    m, lo, hi = wp_interval([0.5, 0.5])                                  # the issue's [-0.240, 0.740]
    assert m == 0.5 and 0 < lo < 0.5 < hi < 1
    m, lo, hi = wp_interval([0.0] * 20)                                  # never won: not [0, 0]
    assert m == 0 and lo == 0 < hi


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([0, 1 / 6, 1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4, 5 / 6, 1]), min_size=1, max_size=29))
def test_wp_interval_stays_in_range(values):
    m, lo, hi = wp_interval(values)
    assert 0 <= lo <= m <= hi <= 1 and hi - lo > 0.01


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([-8, -4, -2, -1, 0, 1, 2, 4, 8]), min_size=1, max_size=29))
def test_adp_interval_stays_in_range(values):
    m, lo, hi = adp_interval(values, -8, 8)
    assert -8 <= lo <= hi <= 8 and hi - lo > 0.01
    assert lo <= m <= hi or m in (-8, 8)
    assert adp_interval(values, -8, 8) == (m, lo, hi)            # a fixed seed: the same interval


def test_adp_interval_of_equal_values_and_bad_input():
    m, lo, hi = adp_interval([2.0] * 10, -4, 4)
    assert m == 2 and lo < 2 < hi
    for bad in (([], -1, 1), ([2], -1, 1), ([0], 1, 1)):
        with pytest.raises(ddz.DdzError):
            adp_interval(*bad)


@st.composite
def _deal_values(draw):
    """Random per-deal integers of 2 or 3 bots (douzero mode: 2 sides per pair)."""
    bots = draw(st.sampled_from([2, 3]))
    n = draw(st.integers(1, 29))
    v = DealValues(bots, 2, seed=0)
    npairs = bots * (bots - 1) // 2
    for d in range(n):
        pairs = []
        for _ in range(npairs):
            wa = draw(st.integers(0, 2))
            bombs = draw(st.integers(0, 2))
            pa = (2 * wa - 2) * 2 ** bombs
            pairs.append((wa, 2 - wa, pa, -pa))
        roles = []
        for _ in range(bots):
            lw, fw = draw(st.integers(0, 1)), draw(st.integers(0, 1))
            roles.append((lw, 4 * lw - 2, 1, fw, 4 * fw - 2, 1))
        v.add(d, pairs, roles)
    return v


@settings(max_examples=40, deadline=None)
@given(_deal_values(), st.booleans())
def test_no_printed_interval_leaves_its_range_or_is_a_point(values, with_sprt):
    names = [f"bot{k}" for k in range(values.bots)]
    pairs = [(a, b) for a in range(values.bots) for b in range(a + 1, values.bots)]
    fig = figures(values, names, pairs, "douzero", Sprt(0, 20) if with_sprt and values.bots == 2 else None)
    M = fig["points_range"]
    rows = [(b["wp"], b["wp_ci"], 0, 1) for b in fig["bots"]] + [(p["wp"], p["wp_ci"], 0, 1) for p in fig["pairs"]]
    rows += [(b["adp"], b["adp_ci"], -M, M) for b in fig["bots"]] + [(p["adp"], p["adp_ci"], -M, M) for p in fig["pairs"]]
    rows += [(p["diff"], p["diff_ci"], -2 * M, 2 * M) for p in fig["pairs"]]
    for b in fig["bots"]:
        for role in b["roles"].values():
            rows += [(role["wp"], role["wp_ci"], 0, 1), (role["adp"], role["adp_ci"], -M, M)]
    for m, (lo, hi), low, high in rows:
        assert low <= lo < hi <= high
        assert lo <= m <= hi or m in (low, high)
    for b in fig["bots"]:
        if b["elo"] is not None:
            lo, hi = b["elo_ci"]
            assert (lo is None or lo < b["elo"]) and (hi is None or b["elo"] < hi)
    for r in fig["ratings"] or []:
        assert r["elo_ci"][0] <= r["elo"] <= r["elo_ci"][1] and math.isfinite(r["elo"])


# -- Bradley-Terry ----------------------------------------------------------------------------

def test_bradley_terry_recovers_the_order_and_stays_finite():
    pairs = [(0, 1), (0, 2), (1, 2)]
    r = bradley_terry(pairs, np.array([75.0, 90.0, 75.0]), np.full(3, 100.0), 3)
    assert r[0] > r[1] > r[2] and abs(r.sum()) < 1e-9
    # logistic: bot 0 against 1 at 75% is about 191 Elo
    assert r[0] - r[1] == pytest.approx(elo_of(0.75), abs=25)
    swept = bradley_terry(pairs, np.array([100.0, 100.0, 50.0]), np.full(3, 100.0), 3)
    assert np.all(np.isfinite(swept)) and swept[0] > swept[1]
    rng = np.random.default_rng(3)
    scores = np.clip(np.array([0.7, 0.8, 0.6]) + rng.normal(0, 0.2, (200, 3)), 0, 1)
    ratings = rating_list(pairs, scores, 3)
    assert [r for r, _, _ in ratings] == sorted([r for r, _, _ in ratings], reverse=True)
    assert all(lo < r < hi for r, lo, hi in ratings)
    assert ratings == rating_list(pairs, scores, 3)          # a fixed seed


def test_the_issue_reproducers_in_a_real_run():
    """Two deals gave [-0.240, 0.740]; a bot against itself stopped within 5 deals."""
    r = ddz.arena.run(["greedy", "random"], deals=2, seed=1)
    for b in r.bots:
        for m, (lo, hi) in [(b["wp"], b["wp_ci"])] + [(v["wp"], v["wp_ci"]) for v in b["roles"].values()]:
            assert 0 <= lo <= m <= hi <= 1 and hi > lo
        assert b["adp_ci"][0] < b["adp_ci"][1]
    for seed in range(3):
        same = ddz.arena.run(["random", "random"], deals=40, seed=seed, mode="game", sprt=Sprt(0, 20))
        assert same.sprt["decision"] is None or same.deals >= 30
