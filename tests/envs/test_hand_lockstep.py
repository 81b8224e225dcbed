"""The hand in C (``ddz.game._game``'s ``Hand``: every game of :class:`ddz.envs.CVectorGame`,
and ``CHand`` inside :class:`ddz.Game`) against the pure-Python hand
(:class:`ddz.game.hand.PyHand`: ``ddz.game.auction``, ``ddz.game.deal``, its doubling,
open play and scoring), the oracle (issue 29).

Every game of a vector is stepped beside a reference game (:class:`ReferenceGame`: a
``ddz.Game`` on ``PyHand``) and a ``ddz.Game`` (on ``CHand``), all on the same seed; at
every decision the test compares the seat to act, the legal env ids, the observation (the
pure-Python encoder, :func:`ddz.envs.core.encode_observation_py`, of the reference, and
its packing by :func:`ddz.envs.packed.pack_observations` against a twin vector with packed
rows, ``obs_dtype="packed"``, which keeps card bits from row to row; the
``Observation`` of the other game), the referee's multiplier and the auction's state, and
at the end of each hand the rewards and the ``Result``. It runs a pairwise covering array of the options that change a hand's
flow, each engine profile and the four-player game (500 hands each), and asserts that
every event of RULES.md §3–§7 occurred at least 20 times: spring, anti-spring, redeal,
void hand, forced bid, open play, each bottom-bonus factor, re-rob, redouble, and each
``doubling_bombs`` rule counting a bomb and not counting one. Deals that random play
seldom reaches (the bottom bonus's ×3 and ×4) are chosen by seed (``reset(seeds=...)``).
The product of all the options runs under ``-m slow``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Dict, List, Tuple

import numpy as np
import pytest

import ddz
from ddz import Rules
from ddz.core.implementation import NO_EXTENSIONS
from ddz.envs import env_actions
from ddz.envs.core import encode_observation_py
from ddz.envs.packed import pack_observations
from ddz.game.deal import bottom_bonus_factor, new_rng, shuffled_deal
from ddz.game.hand import PyHand

pytestmark = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: the C hand is absent")

class ReferenceGame(ddz.Game):
    """``ddz.Game`` on the pure-Python hand (the oracle)."""

    _new_hand = staticmethod(PyHand)


def test_the_reference_and_the_product_run_different_hands():
    assert isinstance(ReferenceGame(seed=1)._hand, PyHand)
    assert type(ddz.Game(seed=1)._hand).__name__ == "CHand"
    # issue 42: the product deals, draws and redeals in the C hand (no Python stream), the
    # reference in Python; a given deal takes the reference's route in both
    assert ddz.Game(seed=1)._rng is None and ReferenceGame(seed=1)._rng is not None
    assert ddz.Game(seed=1, deal=ddz.Game(seed=2).deal)._rng is not None


@pytest.mark.parametrize("kw", [{}, {"first_bidder": 2}, {"face_up": (1, None)}])
def test_the_c_route_deals_draws_and_redeals_as_the_reference(kw):
    """Issue 42: ``Game(seed=...)`` on the C hand's own life cycle (``hand_new_hand``, its
    redeals) gives the reference's deals, first bidder and face-up card, given or drawn."""
    rules = Rules(first_bidder="face_up", max_redeals=3) if "face_up" in kw else Rules(max_redeals=3)
    for seed in (0, 7, 2 ** 64 - 1):
        ref = ReferenceGame(rules, seed=seed)
        if "face_up" in kw:      # a card of seat 1's hand, given: that seat bids first
            kw = {"face_up": (1, str(ref.deal.cards[1][3]))}
        games = [ReferenceGame(rules, seed=seed, **kw), ddz.Game(rules, seed=seed, **kw)]
        for _ in range(3):       # everybody passes: redealt from the seed's stream
            for g in games:
                g.step(0)
        a, b = games
        assert (a.deals, a.first_bidder, a.face_up, a.current_player) == (b.deals, b.first_bidder, b.face_up,
                                                                          b.current_player)
        assert a.redeals == b.redeals >= 1


# the options of a three-player hand that change its flow, and their values
FACTORS: Dict[str, Tuple] = {
    "auction": ({}, {"bid_rounds": "until_passes"}, {"bidding": "rob"}),
    "all_pass": ({}, {"max_redeals": 0}, {"all_pass": "void"}),
    "doubling_bombs": ("all", "beating", "six_plus"),
    "doubling": (False, True),
    "bottom_bonus": (False, True),
    "first_bidder": ("random", "face_up"),
}


def pairwise_rows() -> List[Dict[str, object]]:
    """A pairwise covering array of :data:`FACTORS`, greedily: each row of the full
    product that covers the most pairs not yet covered (ties: the first), until every pair
    of values of every two factors is in some row."""
    names = list(FACTORS)
    levels = [range(len(FACTORS[n])) for n in names]
    want = {((a, x), (b, y)) for a, b in itertools.combinations(range(len(names)), 2)
            for x in levels[a] for y in levels[b]}
    rows = []
    while want:
        best = max(itertools.product(*levels),
                   key=lambda r: sum(((a, r[a]), (b, r[b])) in want
                                     for a, b in itertools.combinations(range(len(names)), 2)))
        for a, b in itertools.combinations(range(len(names)), 2):
            want.discard(((a, best[a]), (b, best[b])))
        rows.append({n: best[i] for i, n in enumerate(names)})
    return rows


def rules_of(row: Dict[str, int]) -> Rules:
    opts: Dict[str, object] = {}
    for name, i in row.items():
        value = FACTORS[name][i]
        if isinstance(value, dict):
            opts.update(value)
        else:
            opts[name] = value
    return Rules(**opts)


PAIRWISE = [rules_of(r) for r in pairwise_rows()]
OTHERS = [Rules.profile("rlcard"), Rules.profile("douzero"), Rules.profile("openspiel"), Rules.four_player(),
          Rules.four_player(doubling_bombs="six_plus", first_bidder="face_up", all_pass="void")]


def test_the_covering_array_covers_every_pair():
    rows = pairwise_rows()
    names = list(FACTORS)
    for a, b in itertools.combinations(names, 2):
        seen = {(r[a], r[b]) for r in rows}
        assert seen == set(itertools.product(range(len(FACTORS[a])), range(len(FACTORS[b])))), (a, b)
    assert len(rows) <= 12


def seeds_with_bonus(rules: Rules, factors, count: int, start: int) -> List[int]:
    """Hand seeds from ``start`` on whose first deal's bottom has a bonus in ``factors``."""
    out, s = [], start
    while len(out) < count:
        if bottom_bonus_factor(shuffled_deal(new_rng(s), rules)) in factors:
            out.append(s)
        s += 1
    return out


class Styles:
    """The seeded policy: per hand a style, and a random choice among the legal ids.

    ``random``: uniform. ``passive``: passes the auction when it may (redeals, void
    hands). ``spring``: the farmers pass whenever they may. ``anti``: the landlord passes
    whenever it may after its first play, the farmers never pass when they may play."""

    STYLES = ("random", "random", "passive", "spring", "anti")

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def style(self) -> str:
        return self.STYLES[int(self.rng.integers(len(self.STYLES)))]

    def choose(self, game: ddz.Game, style: str, ids: np.ndarray) -> int:
        ids = ids.tolist()
        phase = game.phase.value
        seat = game.current_player
        can_pass = ids[0] == 0
        if phase == "bidding" and style == "passive" and can_pass and self.rng.random() < 0.85:
            return 0
        if phase == "playing":
            lord = game.landlord
            if style == "spring" and seat != lord and can_pass:
                return 0
            if style == "anti":
                if seat == lord and can_pass:
                    return 0
                if seat != lord and can_pass and len(ids) > 1:
                    return ids[1 + int(self.rng.integers(len(ids) - 1))]
        return ids[int(self.rng.integers(len(ids)))]


def count_hand(game: ddz.Game, events: Counter) -> None:
    """The events of one finished hand of the oracle."""
    r = game.result
    rules = game.rules
    events["hands"] += 1
    events["redeal"] += len(game.deals) - 1
    if r.void:
        events["void"] += 1
        return
    events["spring"] += r.spring
    events["anti_spring"] += r.anti_spring
    events["open_play"] += r.open_play
    if rules.bottom_bonus:
        events[f"bonus_x{r.bottom_bonus}"] += 1
    bidding = game.observation(0).bidding          # this deal's auction, (seat, value)
    caller = next((s for s, v in bidding if v), None)
    if rules.bidding == "rob" and len(bidding) > game.seats and bidding[-1] == (caller, 1):
        events["re_rob"] += 1                         # the first caller robbed once more
    if any(s == r.landlord and v is True for s, v in game.actions if type(v) is bool) and rules.doubling:
        events["redouble"] += 1
    bombs = sum(p.type.name in ("BOMB", "ROCKET") for _, p in game.plays)
    fours = any(p.type.name in ("FOUR_TWO_SINGLES", "FOUR_TWO_PAIRS") for _, p in game.plays)
    rule = rules.doubling_bombs
    if r.bombs + r.rockets:
        events[f"bombs_{rule}_counted"] += 1
    if bombs > r.bombs + r.rockets or (rule == "all" and fours):
        events[f"bombs_{rule}_not_counted"] += 1      # led, too small, or a four with kickers


def lockstep(rules: Rules, hands: int, seed: int, events: Counter, n: int = 40, chosen=()) -> None:
    """Step ``CVectorGame(n, rules, seed)`` beside one :class:`ddz.Game` per game until
    ``hands`` hands ended, comparing everything at every decision (module docstring).
    ``chosen``: hand seeds for the first hands of the first games."""
    acts = env_actions(rules)
    vg = ddz.envs.CVectorGame(n, rules, seed=seed, reward_scale=0.5)
    packed = ddz.envs.CVectorGame(n, rules, seed=seed, reward_scale=0.5, obs_dtype="packed")
    if len(chosen):
        seeds = vg.seeds.copy()
        seeds[:len(chosen)] = chosen
        vg.reset(seeds=seeds)
        packed.reset(seeds=seeds)
    games = [ReferenceGame(rules, seed=int(s)) for s in vg.seeds]
    products = [ddz.Game(rules, seed=int(s)) for s in vg.seeds]
    policy = Styles(seed)
    styles = [policy.style() for _ in range(n)]
    done_hands = 0
    want_obs = np.empty_like(vg.observations)
    while done_hands < hands:
        ids, offsets = vg.legal_ids()
        actions = np.empty(n, np.int32)
        want_ids = []
        for i, g in enumerate(games):
            seat = g.current_player
            row = acts.legal_ids(g)
            want_ids.append(row)
            encode_observation_py(g, seat, want_obs[i])
            lord, bid, robs, ndoubles, redeals, bonus, open_play, mult = vg._core.info(i)
            assert (vg.current_players[i], lord, bid, robs, redeals, mult) == (
                seat, -1 if g.landlord is None else g.landlord, g.bid, g.observation(seat).robs,
                len(g.deals) - 1, g.multiplier), (i, g)
            p = products[i]
            assert p.observation(seat) == g.observation(seat) and p.multiplier == g.multiplier, (i, g)
            np.testing.assert_array_equal(acts.legal_ids(p), row)
            if g.phase.value == "bidding" and row[0] != 0:
                events["forced_bid"] += 1
            actions[i] = policy.choose(g, styles[i], row)
        # one comparison per step (the per-game ones only to name a difference)
        want_packed = pack_observations(want_obs, rules)
        if not (np.array_equal(ids, np.concatenate(want_ids)) and np.array_equal(vg.observations, want_obs)
                and np.array_equal(packed.observations, want_packed)):
            for i, g in enumerate(games):
                np.testing.assert_array_equal(ids[offsets[i]:offsets[i + 1]], want_ids[i],
                                              err_msg=f"legal ids of game {i} ({g!r})")
                np.testing.assert_array_equal(vg.observations[i], want_obs[i], err_msg=f"observation of game {i} ({g!r})")
                np.testing.assert_array_equal(packed.observations[i], want_packed[i],
                                              err_msg=f"packed observation of game {i} ({g!r})")
        _, rewards, dones = vg.step(actions)
        packed.step(actions)
        for i, g in enumerate(games):
            acts.step(g, int(actions[i]))
            acts.step(products[i], int(actions[i]))
            assert (g.result is not None) == bool(dones[i]), (i, g)
            assert products[i].result == g.result, (i, g)
            if dones[i]:
                np.testing.assert_array_equal(rewards[i], np.asarray(g.result.scores, np.float32) * 0.5)
                count_hand(g, events)
                done_hands += 1
                games[i] = ReferenceGame(rules, seed=int(vg.seeds[i]))
                products[i] = ddz.Game(rules, seed=int(vg.seeds[i]))
                styles[i] = policy.style()
            else:
                assert not rewards[i].any()


def rules_id(rules: Rules) -> str:
    return repr(rules).replace("Rules(", "").rstrip(")") or "standard"


EVENTS = ("spring", "anti_spring", "redeal", "void", "forced_bid", "open_play", "bonus_x1", "bonus_x2",
          "bonus_x3", "bonus_x4", "re_rob", "redouble", "bombs_all_counted", "bombs_all_not_counted",
          "bombs_beating_counted", "bombs_beating_not_counted", "bombs_six_plus_counted",
          "bombs_six_plus_not_counted")


def run_rule_sets(rule_sets, hands: int) -> Counter:
    """:func:`lockstep` on each rule set (``hands`` hands; deals of the bottom bonus's ×3
    and ×4 chosen by seed), and every event at least 20 times over them all."""
    events: Counter = Counter()
    for k, rules in enumerate(rule_sets):
        chosen = (seeds_with_bonus(rules, (3,), 12, 10 ** 5 * k) + seeds_with_bonus(rules, (4,), 12, 10 ** 5 * k)
                  if rules.bottom_bonus else [])
        lockstep(rules, hands, seed=k, events=events, chosen=chosen)
    missing = {e: events[e] for e in EVENTS if events[e] < 20}
    assert not missing, f"events seen fewer than 20 times: {missing} (all: {dict(events)})"
    return events


def test_c_hand_steps_with_the_python_hand_on_every_flow_option():
    """The covering array, each profile and the four-player game, 500 hands each."""
    run_rule_sets(PAIRWISE + OTHERS, 500)


def full_product() -> List[Rules]:
    """Every combination of :data:`FACTORS` (216 three-player rule sets), and of the
    four-player game's flow options (first bidder × all_pass/max_redeals × doubling_bombs)."""
    names = list(FACTORS)
    out = [rules_of(dict(zip(names, row))) for row in itertools.product(*(range(len(FACTORS[n])) for n in names))]
    for first, redeal, bombs in itertools.product(FACTORS["first_bidder"], FACTORS["all_pass"],
                                                  FACTORS["doubling_bombs"]):
        out.append(Rules.four_player(first_bidder=first, doubling_bombs=bombs, **redeal))
    return out


@pytest.mark.slow
def test_c_hand_steps_with_the_python_hand_on_the_full_product():
    """The full product of the flow options (234 rule sets), 100 hands each (-m slow)."""
    rule_sets = full_product()
    assert len(rule_sets) == 216 + 18 and len(set(rule_sets)) == len(rule_sets)
    run_rule_sets(rule_sets, 100)


def test_the_c_encoder_reads_either_hand():
    """``encode_observation`` reads a ``CHand``'s struct as it is, and a ``PyHand``'s
    fields one by one: the same rows as the reference encoder, in every phase."""
    from ddz.envs import encode_observation
    rng = np.random.default_rng(3)
    for rules in (ddz.STANDARD, Rules(bottom_bonus=True, doubling=True, first_bidder="face_up"),
                  Rules.four_player(first_bidder="face_up")):
        acts = env_actions(rules)
        for seed in range(6):
            product, reference = ddz.Game(rules, seed=seed), ReferenceGame(rules, seed=seed)
            while True:
                for seat in range(rules.seats):
                    want = encode_observation_py(reference, seat)
                    np.testing.assert_array_equal(encode_observation(product, seat), want)
                    np.testing.assert_array_equal(encode_observation(reference, seat), want)
                if reference.result is not None:
                    break
                ids = acts.legal_ids(reference)
                a = int(ids[rng.integers(len(ids))])
                acts.step(reference, a)
                acts.step(product, a)
