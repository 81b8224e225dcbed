"""python_ddz, the OpenSpiel game of every ddz rule set (issue 45): OpenSpiel's own game
checks, the lockstep with OpenSpiel's dou_dizhu under the openspiel profile, and the
resampler of the information state (exact marginals)."""

import random
from math import comb

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ddz  # noqa: E402
from ddz.envs import openspiel as osg  # noqa: E402  (registers python_ddz)
from ddz.envs import openspiel_sample as sample  # noqa: E402
from ddz.envs.openspiel_conf import ParamError  # noqa: E402

CASES = {"default": {}, "rob+doubling": {"bidding": "rob", "doubling": True}, "four_player": {"players": 4}}


@pytest.mark.parametrize("params", list(CASES.values()), ids=list(CASES))
def test_random_sim_test_with_serialisation(params):
    game = pyspiel.load_game("python_ddz", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_parameters_are_rules_fields():
    game = pyspiel.load_game("python_ddz", {"players": 4, "banned": "TRIO_PAIR,BOMB"})
    assert game.conf.rules == ddz.Rules.four_player(banned=frozenset({ddz.PlayType.TRIO_PAIR, ddz.PlayType.BOMB}))
    assert game.num_players() == 4
    assert pyspiel.load_game("python_ddz", {"profile": "openspiel"}).conf.rules == ddz.Rules.profile("openspiel")
    assert (pyspiel.load_game("python_ddz", {"profile": "openspiel", "all_pass": "redeal"}).conf.rules
            == ddz.Rules.profile("openspiel", all_pass="redeal"))
    for bad in ({"bidding": "auction"}, {"banned": "NOPE"}, {"players": 4, "doubling": True},
                {"profile": "openspiel", "doubling": True}, {"start": "33/44"}, {"players": 4, "start": "3/4/5"}):
        with pytest.raises(ParamError):
            osg.DdzGame(bad)


def test_clone_and_information_state_consistency():
    game = pyspiel.load_game("python_ddz", {"bidding": "rob", "doubling": True})
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            action = rng.choice(outcomes)[0]
        else:
            player = state.current_player()
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
            assert copy.information_state_string(player) == state.information_state_string(player)
            assert list(copy.information_state_tensor(player)) == list(state.information_state_tensor(player))
            action = rng.choice(state.legal_actions())
            copy.apply_action(action)
            assert str(copy) != str(state)
        state.apply_action(action)
    assert sum(state.returns()) == 0 and any(state.returns())


def _lockstep(seed, ours, theirs):
    rng = random.Random(seed)
    a, b = ours.new_initial_state(), theirs.new_initial_state()
    steps = 0
    while not b.is_terminal():
        assert a.current_player() == b.current_player(), steps
        if b.is_chance_node():
            oa, ob = a.chance_outcomes(), b.chance_outcomes()
            assert [x for x, _ in oa] == [x for x, _ in ob], steps
            assert all(abs(p - q) < 1e-12 for (_, p), (_, q) in zip(oa, ob))
            action = rng.choice(ob)[0]
        else:
            la, lb = a.legal_actions(), b.legal_actions()
            assert la == lb, (steps, str(b))
            action = rng.choice(lb)
        a.apply_action(action)
        b.apply_action(action)
        steps += 1
    assert a.is_terminal()
    assert a.returns() == b.returns(), (a.returns(), b.returns())
    return a.returns()


def _games():
    return pyspiel.load_game("python_ddz", {"profile": "openspiel"}), pyspiel.load_game("dou_dizhu")


def test_lockstep_with_dou_dizhu():
    ours, theirs = _games()
    results = [_lockstep(seed, ours, theirs) for seed in range(50)]
    assert sum(1 for r in results if any(r)) >= 30


@pytest.mark.slow
def test_lockstep_with_dou_dizhu_1000_games():
    ours, theirs = _games()
    results = [_lockstep(seed, ours, theirs) for seed in range(1000, 2000)]
    assert sum(1 for r in results if max(r) >= 8) > 0     # bombs or springs were scored


# -- the resampler ---------------------------------------------------------------------

def _mid_play_state(seed=3, plays=12):
    """A three-player state in the play phase after ``plays`` play-phase actions."""
    game = pyspiel.load_game("python_ddz")
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while True:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        g = state.ddz_game
        if g.phase is ddz.Phase.PLAYING:
            if n == plays:
                return game, state
            n += 1
        legal = state.legal_actions()
        state.apply_action(legal[-1] if g.phase is not ddz.Phase.PLAYING else rng.choice(legal))


def _exact_marginals(conf, k):
    """P(hidden card of rank r is in the first other seat's hand), by rank: a DP over the
    rank-level splits, each weighed by the number of physical deals (prod C(n_r, c_r))."""
    seat = k.seat
    others = [q for q in range(conf.seats) if q != seat]
    row = k.deals[-1]
    known = [c for c in row if c is not None] + list(k.bottom)
    pool = [0] * 15
    for c in range(conf.ncards):
        if c not in known:
            pool[conf.ranks[c]] += 1
    have = {q: [0] * 15 for q in others}
    for i, c in enumerate(row):
        if c is not None and i % conf.seats in have:
            have[i % conf.seats][conf.ranks[c]] += 1
    for q in others:
        if q == k.landlord:
            for c in k.bottom:
                have[q][conf.ranks[c]] += 1
    need = {q: [max(0, k.played[q][r] - have[q][r]) for r in range(15)] for q in others}
    size1 = sum(1 for i, c in enumerate(row) if c is None and i % conf.seats == others[0])
    # states: (rank index, cards given to seat others[0] so far) -> (weight, weighted c_r by rank)
    table = {0: (1, [0.0] * 15)}
    for r in range(15):
        nxt = {}
        for s1, (w, acc) in table.items():
            for c1 in range(pool[r] + 1):
                c2 = pool[r] - c1
                if c1 < need[others[0]][r] or c2 < need[others[1]][r] or s1 + c1 > size1:
                    continue
                ww = w * comb(pool[r], c1)
                key = s1 + c1
                old_w, old_acc = nxt.get(key, (0, [0.0] * 15))
                new_acc = [old_acc[i] + ww / w * acc[i] if w else 0 for i in range(15)]
                new_acc[r] += ww * (c1 / pool[r] if pool[r] else 0)
                nxt[key] = (old_w + ww, new_acc)
        table = nxt
    w, acc = table[size1]
    return others[0], [a / w for a in acc], pool


def _check_marginals(n, full):
    game, state = _mid_play_state()
    conf = game.conf
    seat = state.current_player()
    k = sample.knowledge_of(state._s, seat)
    q1, exact, pool = _exact_marginals(conf, k)
    places = [i for i in range(q1, conf.ndealt, conf.seats) if k.deals[-1][i] is None]
    hits = {}
    rng = random.Random(11)
    info = state.information_state_string(seat)
    for i in range(n):
        if full:
            st = state.resample_from_infostate(seat, rng)
            assert st.information_state_string(seat) == info
            deal = st._s.dealt
        else:
            deal = sample._draw_deal(conf, k, 0, rng)[0]
        for c in (deal[j] for j in places):
            hits[c] = hits.get(c, 0) + 1
        if True:     # every deal holds the cards each seat has played
            for q in range(conf.seats):
                counts = [0] * 15
                for c in deal[q::conf.seats]:
                    counts[conf.ranks[c]] += 1
                if q == k.landlord:
                    for c in k.bottom:
                        counts[conf.ranks[c]] += 1
                assert all(counts[r] >= k.played[q][r] for r in range(15))
    hidden = [c for c in range(conf.ncards) if c not in k.bottom and c not in k.deals[-1]]
    assert len(hidden) > 20 and any(sum(p) for p in k.played)
    worst = 0.0
    for c in hidden:
        p = exact[conf.ranks[c]]
        f = hits.get(c, 0) / n
        sigma = (p * (1 - p) / n) ** 0.5
        if sigma == 0:
            assert f == p, (c, f, p)
        else:
            worst = max(worst, abs(f - p) / sigma)
    assert worst < 4, worst
    return exact


def test_resampler_marginals():
    exact = _check_marginals(3000, full=False)
    assert len({round(p, 6) for p in exact}) > 2        # the constraints make the marginals differ


@pytest.mark.slow
def test_resampler_10000_full_resamples():
    _check_marginals(10000, full=True)


def test_resampled_states_keep_the_information_state():
    for params in CASES.values():
        game = pyspiel.load_game("python_ddz", params)
        rng = random.Random(2)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            p = state.current_player()
            if n % 9 == 0:
                for _ in range(3):
                    r = state.resample_from_infostate(p, rng)
                    assert r.information_state_string(p) == state.information_state_string(p)
                    assert r.legal_actions() == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1


@pytest.mark.parametrize("params", list(CASES.values()), ids=list(CASES))
def test_python_side_answers_equal_openspiels_own(params):
    """legal_actions() and is_chance_node() are answered in Python (the fast path of a
    Python-driven loop); OpenSpiel's own methods, which C++ algorithms use, agree at
    every step of random hands, chance nodes and the end included."""
    game = pyspiel.load_game("python_ddz", params)
    rng = random.Random(3)
    for _ in range(4):
        s = game.new_initial_state()
        while True:
            assert s.legal_actions() == pyspiel.State.legal_actions(s)
            assert s.is_chance_node() == pyspiel.State.is_chance_node(s)
            if s.is_terminal():
                assert s.legal_actions() == []
                break
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])


def test_bad_arguments_are_named():
    """An outcome that is no card, a seat that is not a seat: a DdzError naming it (no
    IndexError, no wrong text from a negative index); a numpy int is a seat."""
    import numpy as np
    game = pyspiel.load_game("python_ddz")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])          # the first bidder
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0]).startswith("deal ")
    for bad in (max(outcomes) + 1, min(outcomes) - 1):
        with pytest.raises(ddz.DdzError, match=f"chance outcome {bad} is no card"):
            state.action_to_string(pyspiel.PlayerId.CHANCE, bad)
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for bad in ("a", -1, 3, True, 1.0):
        with pytest.raises(ddz.DdzError, match="seat must be 0..2"):
            state.resample_from_infostate(bad, rng)
    seat = state.current_player()
    assert (state.resample_from_infostate(np.int64(seat), rng).information_state_string(seat)
            == state.information_state_string(seat))
