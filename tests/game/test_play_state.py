"""The play phase in C (``ddz.game._game.PlayState``) against its pure-Python twin
(``ddz.game.playstate.PyPlayState``, legality from ``ddz.core.reference``), the deal's generators
(the deal stream against its documented text and in C against Python; the legacy ``Twister``
against ``random.Random``), and ``Game``'s live ``legal_moves``
view and property convention (issue "Every speed fast")."""

import copy
import pickle
import random

import numpy as np
import pytest

import ddz
from ddz.game.deal import copy_rng, legacy_rng, new_rng, shuffle_deal
from ddz.game.playstate import PyPlayState, play_state
from ddz.core.tables import table

from conftest import CARDS, NO_EXTENSIONS, RULESETS, RULE_IDS
from dealspec import SpecStream

needs_core = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: the compiled core is absent")

# part sizes that fit one deck: 2, 3 and 4 seats
SEAT_SIZES = {2: (20, 17), 3: (20, 17, 17), 4: (13, 13, 13, 12)}


def _hands(rng, sizes):
    deck = rng.permutation(CARDS)
    out, lo = [], 0
    for k in sizes:
        out.append(np.bincount(deck[lo:lo + k], minlength=15).astype(np.uint8))
        lo += k
    return out


def _snapshot(ps):
    return (ps.current, ps.to_beat, ps.to_beat_seat, ps.passes, ps.winner, ps.cards_left,
            ps.plays_made, ps.bombs, ps.rockets, tuple(ps.hand(s) for s in range(ps.seats)),
            ps.history(), len(ps))


@needs_core
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_core_and_twin_step_the_same_games(rules, seats):
    """Random games to the end, both implementations stepped with the same ids: the same
    legal ids, counts and state at every step, refusals of the same illegal ids, and pops
    that return both to the same earlier states."""
    from ddz.game._game import PlayState
    t = table(rules)
    rng = np.random.default_rng(seats * 7 + len(str(rules)))
    n_ids = len(t.plays)
    steps = 0
    for game in range(12):
        hands = _hands(rng, SEAT_SIZES[seats])
        first = int(rng.integers(seats))
        c, p = PlayState(t, hands, first), PyPlayState(t, hands, first)
        trail = []
        while c.current >= 0:
            ids = c.legal_ids()
            assert ids.dtype == np.int32
            assert ids.tolist() == p.legal_ids().tolist()
            assert c.count() == p.count() == len(ids)
            assert c.legal_plays() == p.legal_plays() == [t.plays[i] for i in ids]
            probe = rng.integers(-3, n_ids + 3, size=20).tolist() + [0]
            assert [c.legal(i) for i in probe] == [p.legal(i) for i in probe] == \
                [int(i) in set(ids.tolist()) for i in probe]
            bad = next((i for i in probe if i not in set(ids.tolist())), None)
            if bad is not None:
                before = _snapshot(c)
                assert c.step(bad) is False and p.step(bad) is False
                assert c.advance(bad) == p.advance(bad) == -2
                assert _snapshot(c) == before == _snapshot(p)
            pid = int(rng.choice(ids))
            trail.append(_snapshot(c))
            assert c.advance(pid) == p.advance(pid) == c.current
            assert _snapshot(c) == _snapshot(p)
            steps += 1
        assert c.winner == p.winner >= 0 and c.cards_left[c.winner] == 0
        assert c.count() == 0 and c.legal_ids().size == 0 and c.step(0) is False
        for want in reversed(trail[-10:]):
            assert c.pop() == p.pop()
            assert _snapshot(c) == _snapshot(p) == want
    assert steps > 100


@needs_core
def test_trick_rules_by_hand():
    """RULES.md §5 for three seats: the pass only when responding, the trick ends after
    two passes and the last player leads, the counters follow bombs and rockets."""
    from ddz.game._game import PlayState
    rules = ddz.Rules()
    t = table(rules)
    idx = t.index_of_play
    hands = [ddz.parse_cards(h) for h in ("333345678BR", "4447", "5559")]
    for make in (PlayState, PyPlayState):
        ps = make(t, hands, 0)
        assert not ps.legal(0)                        # leading: no pass
        assert ps.step(idx[ddz.Play.parse("3333")])
        assert (ps.current, ps.bombs, ps.to_beat_seat) == (1, 1, 0)
        assert not ps.legal(idx[ddz.Play.parse("4")])  # a single does not beat a bomb
        assert ps.step(0) and ps.step(0)              # two passes end the trick
        assert (ps.current, ps.to_beat, ps.to_beat_seat, ps.passes) == (0, 0, -1, 0)
        assert ps.step(idx[ddz.Play.parse("BR")]) and ps.rockets == 1
        assert ps.step(0) and ps.passes == 1 and ps.step(0)
        assert ps.step(idx[ddz.Play.parse("45678")]) and ps.winner == 0 and ps.current == -1
        assert ps.plays_made == (3, 0, 0) and ps.cards_left == (0, 4, 4)
        assert ps.count() == 0 and not ps.step(0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_perft_of_the_two_implementations(seats):
    rules = ddz.Rules(kickers="repeat")
    t = table(rules)
    rng = np.random.default_rng(seats)
    hands = [h[:] for h in _hands(rng, (6,) * seats)]
    ps = play_state(t, hands, 0)
    twin = PyPlayState(t, hands, 0)
    for depth in range(5):
        before = _snapshot(ps)
        assert ps.perft(depth) == twin.perft(depth)
        assert _snapshot(ps) == before
    with pytest.raises(ValueError):
        ps.perft(-1)


@pytest.mark.parametrize("make", ["active", "twin"])
def test_constructor_refuses_bad_positions(make):
    t = table(ddz.Rules())
    cls = PyPlayState if make == "twin" else play_state
    ok = [ddz.parse_cards("345"), ddz.parse_cards("678")]
    bad = [
        ([ok[0]], 0, 0, -1, 0),                                          # one seat
        (ok * 3, 0, 0, -1, 0),                                           # five seats
        (ok, 2, 0, -1, 0),                                               # to_move out of range
        ([ddz.parse_cards("3333"), ddz.parse_cards("3")], 0, 0, -1, 0),  # five 3s in all
        ([np.array([5] + [0] * 14), ok[1]], 0, 0, -1, 0),                # beyond the deck
        ([ddz.parse_cards("333344445555666677778"), ok[1]], 0, 0, -1, 0),  # 21 cards
        (ok, 0, 10 ** 6, 1, 0),                                          # no such play
        (ok, 0, 1, 0, 0),                                                # the beat seat is the mover
        (ok, 0, 1, 1, 1),                                                # too many passes for 2 seats
    ]
    for hands, mover, beat, beat_seat, passes in bad:
        with pytest.raises(ValueError):
            cls(t, hands, mover, beat, beat_seat, passes)
    ps = cls(t, ok, 1, t.index_of_play[ddz.Play.parse("4")], 0, 0)
    assert ps.legal(0) and ps.current == 1 and ps.to_beat_seat == 0


def test_copies_and_pickles_are_independent():
    t = table(ddz.Rules())
    rng = np.random.default_rng(3)
    ps = play_state(t, _hands(rng, (20, 17, 17)), 0)
    for _ in range(5):
        ps.step(int(ps.legal_ids()[-1]))
    for other in (ps.copy(), copy.copy(ps), copy.deepcopy(ps), pickle.loads(pickle.dumps(ps))):
        assert _snapshot(other) == _snapshot(ps)
        other.step(int(other.legal_ids()[0]))
        assert _snapshot(other) != _snapshot(ps)
        assert other.pop() >= 0 and _snapshot(other) == _snapshot(ps)


# -- the deal's generators ----------------------------------------------------------------

LEGACY_SEEDS = [0, 1, 5, -5, 2 ** 32 - 1, 2 ** 32, 2 ** 63 - 1, 3 ** 90, -(3 ** 90)]


def assert_deals_as(rng, shuffle):
    """Three deals of ``rng`` (``shuffle_deal``) are the positions 0..53 shuffled by
    ``shuffle`` (the reference's, called on a list), cut into parts; the counts match."""
    ranks = bytes(int(r) for r in CARDS)
    for sizes in ((17, 17, 17, 3), (54,), (20, 34)):
        positions, counts = shuffle_deal(rng, ranks, sizes)
        order = list(range(54))
        shuffle(order)
        lo = 0
        for part, cnt, k in zip(positions, counts, sizes):
            assert part == tuple(sorted(order[lo:lo + k]))
            assert cnt == tuple(np.bincount(CARDS[list(part)], minlength=15).tolist())
            lo += k


@pytest.mark.parametrize("seed", LEGACY_SEEDS)
def test_legacy_generator_draws_what_random_random_draws(seed):
    """Records of version 4 and older deal with random.Random: legacy_rng (the core's
    Twister) draws exactly its numbers."""
    rng, ref = legacy_rng(seed), random.Random(seed)
    assert rng.getstate() == ref.getstate()
    for _ in range(2):
        assert_deals_as(rng, ref.shuffle)
        assert [rng.randrange(n) for n in (1, 2, 3, 54, 1000)] == [ref.randrange(n) for n in (1, 2, 3, 54, 1000)]
    assert rng.getstate() == ref.getstate()
    twin = copy_rng(rng)
    assert twin.getstate() == rng.getstate() and twin is not rng
    assert [twin.randrange(7) for _ in range(20)] == [rng.randrange(7) for _ in range(20)]
    back = pickle.loads(pickle.dumps(rng))
    assert back.getstate() == rng.getstate()


def test_splitmix64_known_answers():
    """The deal stream of seed 0 is SplitMix64 from state 0, whose first outputs are
    published (e.g. the reference splitmix64.c by Vigna): the words the stream draws."""
    from ddz.game.deal import mix64, _GAMMA
    want = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert [mix64((k + 1) * _GAMMA % 2 ** 64) for k in range(3)] == want
    spec = SpecStream(0)
    assert [spec.word() for _ in range(3)] == want
    # the draws are the words' high halves, then their low halves: below(2**31) of a draw
    # is its top 31 bits
    rng = new_rng(0)
    assert [rng.randrange(2 ** 31) for _ in range(4)] == [want[0] >> 33, (want[0] & 0xFFFFFFFF) >> 1,
                                                          want[1] >> 33, (want[1] & 0xFFFFFFFF) >> 1]


DEAL_SEEDS = [0, 1, 5, 2 ** 32 - 1, 2 ** 32, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 0xDEADBEEFCAFE]


@pytest.mark.parametrize("seed", DEAL_SEEDS)
def test_deal_stream_draws_what_the_documented_stream_draws(seed):
    """new_rng (the core's DealStream, or PyDealStream) against tests/dealspec.py, written
    from ddz.game.deal's docstring: shuffles, below(n) with its rejections, states."""
    rng, spec = new_rng(seed), SpecStream(seed)
    assert_deals_as(rng, spec.shuffle)
    # 2**31 + 1 rejects about half of the words: the rejection path, drawn often
    sizes = [1, 2, 3, 54, 108, 1000, 2 ** 31 + 1, 2 ** 32 - 1] * 8
    assert [rng.randrange(n) for n in sizes] == [spec.below(n) for n in sizes]
    kind, key, drawn = rng.getstate()
    assert (kind, key) == ("splitmix64", seed) and drawn > 3 * 53 + len(sizes)
    twin = copy_rng(rng)
    assert twin.getstate() == rng.getstate() and twin is not rng
    assert [twin.randrange(7) for _ in range(20)] == [rng.randrange(7) for _ in range(20)]
    back = pickle.loads(pickle.dumps(rng))
    assert back.getstate() == rng.getstate() and back.randrange(1000) == rng.randrange(1000)


@needs_core
@pytest.mark.parametrize("seed", DEAL_SEEDS)
def test_deal_stream_in_c_is_the_pure_one(seed):
    from ddz.game._game import DealStream
    from ddz.game.deal import DECKS, PyDealStream
    c, py = DealStream(seed), PyDealStream(seed)
    for decks, sizes in ((1, (17, 17, 17, 3)), (2, (25, 25, 25, 25, 8))):
        assert c.deal(DECKS[decks][1], sizes) == py.deal(DECKS[decks][1], sizes)
    ns = [n for n in range(1, 200)] + [2 ** 31 + 1, 2 ** 32 - 1] * 50
    assert [c.randrange(n) for n in ns] == [py.randrange(n) for n in ns]
    assert c.getstate() == py.getstate()
    py.setstate(c.getstate())
    assert c.randrange(99) == py.randrange(99)


def test_deal_stream_below_is_uniform():
    """below(n) is exactly uniform by construction; a chi-square check over 60,000 draws of
    below(6) (5 degrees of freedom: 20.5 is the 0.999 quantile) catches a biased reduction."""
    rng = new_rng(12345)
    counts = np.bincount([rng.randrange(6) for _ in range(60_000)], minlength=6)
    chi2 = float(((counts - 10_000) ** 2 / 10_000).sum())
    assert chi2 < 20.5, counts


@needs_core
def test_generators_refuse_bad_states_and_ranges():
    from ddz.game._game import DealStream, Twister
    t = Twister(1)
    good = t.getstate()
    for bad in (None, (3,), (2, good[1], None), (3, good[1][:-1], None), (3, (2 ** 32,) * 625, None),
                (3, good[1][:-1] + (625,), None), "state"):
        with pytest.raises(ValueError):
            t.setstate(bad)
    assert t.getstate() == good
    d = DealStream(1)
    d.randrange(5)
    state = d.getstate()
    for bad in (None, (3,), ("splitmix64", -1, 0), ("splitmix64", 1, 2 ** 64), ("mt", 1, 0), ("splitmix64", 1.0, 0),
                ("splitmix64", True, 0), "state"):
        with pytest.raises(ValueError):
            d.setstate(bad)
    assert d.getstate() == state
    for gen in (t, d):
        for n in (0, -1, 2 ** 32):
            with pytest.raises((ValueError, OverflowError)):
                gen.randrange(n)
        with pytest.raises(ValueError):
            gen.deal(bytes(54), (17, 17))
        with pytest.raises(ValueError):
            gen.deal(bytes([15]) + bytes(53), (54,))
    for seed in (1.5, True, "1", None):
        with pytest.raises(TypeError):
            Twister(seed)
        with pytest.raises(TypeError):
            DealStream(seed)
    for seed in (-1, 2 ** 64):
        with pytest.raises(ValueError):
            DealStream(seed)


def test_games_deal_the_documented_shuffle():
    """The module docstring of ddz.game.deal: the deal stream's shuffle of full_deck()."""
    for seed in (0, 7, 2 ** 40):
        deck = ddz.core.cards.full_deck()
        SpecStream(seed).shuffle(deck)
        g = ddz.Game(seed=seed)
        want = [tuple(sorted(deck[i * 17:(i + 1) * 17])) for i in range(3)] + [tuple(sorted(deck[51:]))]
        assert list(g.deal.cards) == want


# -- Game's views -----------------------------------------------------------------------

def _playing(seed=4):
    g = ddz.Game(seed=seed, first_bidder=0)
    g.step(3)
    return g


def test_legal_moves_view_is_live_and_agrees_with_legal_actions():
    g = ddz.Game(seed=2, first_bidder=0)
    view = g.legal_moves
    assert list(view) == g.legal_actions() == [0, 1, 2, 3] and len(view) == 4 and view
    assert 3 in view and "3" not in view and True not in view
    g.step(3)
    acts = g.legal_actions()
    assert view.count() == len(view) == len(acts) and list(view) == acts and view[0] == acts[0]
    assert all(a in view for a in acts) and str(acts[-1]) in view
    other = [p for p in ddz.all_plays() if p not in set(acts)][:50]
    assert not any(p in view for p in other)
    assert "pass" not in view and "not a play" not in view and 3 not in view and None not in view
    g.step(acts[0])
    assert ddz.PASS in view and view.count() == len(g.legal_actions())
    while g.result is None:
        g.step(g.legal_actions()[-1])
    assert not view and len(view) == 0 and list(view) == []
    assert "LegalMoves (0)" in repr(view)


def test_derived_state_is_read_as_properties():
    g = _playing()
    assert g.cards_left == (20, 17, 17) and g.to_beat is None and g.to_beat_seat is None
    lead = g.legal_actions()[3]
    g.step(lead)
    assert g.to_beat == lead and g.to_beat_seat == g.landlord
    assert g.cards_left[g.landlord] == 20 - lead.num_cards
    assert g.plays == ((g.landlord, lead),) and g.actions[-1] == (g.landlord, lead)


def test_step_id_and_step_agree_and_refuse_alike():
    g, h = _playing(), _playing()
    space = g.action_space
    rng = random.Random(1)
    while g.result is None:
        ids = g.legal_action_ids()
        assert [space.play(i) for i in ids] == h.legal_actions()
        bad = next(i for i in range(len(space)) if i not in set(ids.tolist()))
        for wrong in (bad, np.int64(bad)):
            with pytest.raises(ddz.DdzError):
                g.step_id(wrong)
        for wrong in (-1, len(space), 2 ** 70, 1.0, True, "1", None):
            with pytest.raises(ddz.DdzError):
                g.step_id(wrong)
        i = ids[rng.randrange(len(ids))]
        g.step_id(i if rng.random() < 0.5 else int(i))
        h.step(space.play(int(i)))
        assert g.to_record() == h.to_record()
    assert g.result == h.result
    with pytest.raises(ddz.IllegalActionError):
        g.step_id(0)


@needs_core
def test_unbuilt_and_rebuilt_states_are_refused_not_crashed():
    """A PlayState made by ``__new__`` alone, or whose ``__init__`` failed, raises (checked
    in a subprocess: a crash would kill pytest)."""
    import subprocess
    import sys
    code = """
import ddz
from ddz.game._game import PlayState
from ddz.core.tables import table
t = table(ddz.Rules())
bad = PlayState.__new__(PlayState)
calls = [lambda: bad.legal_ids(), lambda: bad.legal_plays(), lambda: bad.count(), lambda: bad.legal(1),
         lambda: bad.step(1), lambda: bad.advance(1), lambda: bad.pop(), lambda: bad.perft(2),
         lambda: bad.copy(), lambda: bad.hand(0), lambda: bad.hand_array(0)]
ps = PlayState(t, [ddz.parse_cards("345"), ddz.parse_cards("678")], 0)
ps.legal_ids()
try:
    ps.__init__(t, [ddz.parse_cards("3")], 0)
except ValueError:
    pass
calls += [lambda: ps.legal_ids(), lambda: ps.step(1)]
refused = 0
for call in calls:
    try:
        call()
    except ValueError:
        refused += 1
ps.__init__(t, [ddz.parse_cards("3"), ddz.parse_cards("4")], 1)
print(refused, len(calls), ps.legal_ids().tolist())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    refused, total, ids = out.stdout.split(maxsplit=2)
    t = table(ddz.Rules())
    assert refused == total and ids.strip() == str([t.index_of_play[ddz.Play.parse("4")]])
