"""ddz.envs: the env action table, the observation layout, VectorGame in lockstep with
independent Games, the PettingZoo env (api_test, seed_test) and the Gymnasium env
(check_env). PettingZoo and Gymnasium tests skip one by one when the package is missing."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import numpy as np
import pytest

import ddz
from ddz import DdzError, IllegalActionError, Rules
from ddz.game.actions import ActionIdError
from ddz.envs import VectorGame, encode_observation, env_actions, observation_layout, observation_size
from ddz.envs import core
from ddz.envs.vector import PyVectorGame
from dealspec import spec_hand_seed

FOUR = Rules.four_player()
RULE_SETS = [ddz.STANDARD, Rules(bidding="rob", doubling=True), Rules(bid_rounds="until_passes",
             first_bidder="face_up", kickers="repeat"), FOUR]
RULE_IDS = ["standard", "rob-doubling", "until-passes-face-up-repeat", "four-player"]


def random_env_action(acts, game, rng):
    ids = acts.legal_ids(game)
    return int(ids[rng.integers(len(ids))])


# -- the action table -------------------------------------------------------------------

def test_action_table_ids_by_phase():
    acts = env_actions(Rules(doubling=True))
    p = len(ddz.ActionSpace())
    assert (acts.plays, acts.size, acts.bid_ids, acts.double_id) == (p, p + 6, (p, p + 1, p + 2), p + 4)
    game = ddz.Game(Rules(doubling=True), seed=7, first_bidder=0)
    assert acts.legal_ids(game).tolist() == [0, p, p + 1, p + 2]
    acts.step(game, p + 1)                      # seat 0 bids 2
    assert game.bid == 2
    assert acts.legal_ids(game).tolist() == [0, p + 2]
    with pytest.raises(IllegalActionError, match="a bid of 1 is not higher"):
        acts.step(game, p)                      # bid 1: not above 2
    with pytest.raises(IllegalActionError, match="not an action of the bidding phase"):
        acts.step(game, 5)
    acts.step(game, 0)
    acts.step(game, 0)
    assert game.phase == "doubling" and game.landlord == 0
    assert acts.legal_ids(game).tolist() == [0, acts.double_id]
    acts.step(game, acts.double_id)
    assert game.actions[-1] == (1, True)
    acts.step(game, 0)
    assert acts.legal_ids(game).tolist() == [0, acts.double_id]      # the landlord may redouble
    acts.step(game, 0)
    assert game.phase == "playing"
    np.testing.assert_array_equal(acts.legal_ids(game), game.legal_action_ids())


def test_action_table_rob_and_open():
    acts = env_actions(Rules(bidding="rob"))
    game = ddz.Game(Rules(bidding="rob"), seed=3, first_bidder=0)
    assert acts.legal_ids(game).tolist() == [0, acts.call_id]
    with pytest.raises(IllegalActionError):
        acts.step(game, acts.bid_ids[0])
    acts.step(game, acts.call_id)
    assert game.bid == 1
    four = env_actions(FOUR)
    game = ddz.Game(FOUR, seed=1)
    while game.phase == "bidding":
        acts_ids = four.legal_ids(game)
        four.step(game, int(acts_ids[-1]))
    assert game.phase == "opening"
    assert four.legal_ids(game).tolist() == [0, four.open_id]
    four.step(game, four.open_id)
    assert game.phase == "playing" and game.observation(0).open_hand is not None


@pytest.mark.parametrize("bad", [-1, 10 ** 6, 1.0, "3", True, None])
def test_action_table_bad_ids(bad):
    acts = env_actions(ddz.STANDARD)
    game = ddz.Game(seed=1)
    before = game.to_record()
    with pytest.raises(ActionIdError):
        acts.step(game, bad)
    assert game.to_record() == before


def test_describe():
    acts = env_actions(ddz.STANDARD)
    assert acts.describe(0) == "pass"
    assert acts.describe(acts.space.id("333+4")) == "333+4"
    assert [acts.describe(acts.plays + k) for k in range(6)] == list(core.AUCTION_ACTIONS)


# -- the observation ----------------------------------------------------------------------

def test_layout_matches_the_documented_table():
    doc = core.__doc__
    names = re.findall(r"^``(\w+)``\s+\S", doc.split("The observation layout")[1], re.M)
    for rules in (ddz.STANDARD, FOUR):
        layout = observation_layout(rules)
        assert [n for n, _, _ in layout] == names
        assert all(a[2] == b[1] for a, b in zip(layout, layout[1:]))
        k, s = 54 * rules.decks, rules.seats
        sizes = dict((n, b - a) for n, a, b in layout)
        assert sizes["played"] == sizes["last_play"] == s * k and sizes["auction"] == 5 * s
    assert observation_size(ddz.STANDARD) == 610 and "610" in doc
    assert observation_size(FOUR) == 1379 and "1,379" in doc


def _block(rules, obs, name):
    for n, a, b in observation_layout(rules):
        if n == name:
            return obs[a:b]
    raise KeyError(name)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_observation_blocks_follow_the_game(rules):
    rng = np.random.default_rng(1)
    acts = env_actions(rules)
    high = core.observation_high(rules)
    game = ddz.Game(rules, seed=11)
    played = np.zeros((rules.seats, 15), np.int64)
    while game.result is None:
        for seat in range(rules.seats):
            x = encode_observation(game, seat)
            assert x.shape == (observation_size(rules),) and x.dtype == np.float32
            assert (x >= 0).all() and (x <= high).all()
            np.testing.assert_array_equal(_block(rules, x, "hand"), ddz.encode_cards(game.hand(seat), rules=rules))
            rel = [(seat + r) % rules.seats for r in range(rules.seats)]
            np.testing.assert_array_equal(_block(rules, x, "cards_left"), [game.cards_left[s] for s in rel])
            np.testing.assert_array_equal(_block(rules, x, "played").reshape(rules.seats, -1),
                                          ddz.encode_cards(played[rel], rules=rules))
            lord = _block(rules, x, "landlord")
            assert lord.sum() == 1
            assert lord[rules.seats] == (game.landlord is None)
            if game.landlord is not None:
                assert lord[(game.landlord - seat) % rules.seats] == 1
            bottom = _block(rules, x, "bottom")
            shown = game.landlord is not None and (rules.seats == 3 or seat == game.landlord)
            assert bottom.any() == shown
            assert _block(rules, x, "phase")[["bidding", "doubling", "opening", "playing", "over"]
                                             .index(game.phase.value)] == 1
        seat = game.current_player
        a = random_env_action(acts, game, rng)
        acts.step(game, a)
        if game.phase in ("playing", "over") and 0 < a < acts.plays:
            played[seat] += acts.space.play(a).counts


def test_observation_hides_other_hands():
    # two deals that differ only in the hands of seats 1 and 2: seat 0 sees the same
    hands = ["33344455566677788", "8999TTTJJJQQQKKKA", "3456789JAAA2222BR"]
    a = ddz.Game(deal=hands + ["TQK"], first_bidder=0)
    b = ddz.Game(deal=[hands[0], hands[2], hands[1], "TQK"], first_bidder=0)
    np.testing.assert_array_equal(encode_observation(a, 0), encode_observation(b, 0))
    assert not np.array_equal(encode_observation(a, 1), encode_observation(b, 1))


# -- VectorGame ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_vector_game_in_lockstep_with_games(rules):
    """Every hand of ``VectorGame`` (the C one where the core is compiled and the rules
    allow, else ``PyVectorGame``) is ``ddz.Game(rules, seed=vg.seeds[i])`` played with the
    same env ids: same hands of every seat, legal ids and masks, seat to act, observation,
    scores, auto-reset."""
    n, seed = 6, 5
    vg = VectorGame(n, rules, seed=seed)
    acts = env_actions(rules)
    hand_seeds = (spec_hand_seed(seed, j) for j in itertools.count())   # ddz.game.deal's documented seeds
    games = [ddz.Game(rules, seed=next(hand_seeds)) for _ in range(n)]
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150 if rules.seats == 3 else 120):
        ids, offsets = vg.legal_ids()
        masks = vg.legal_masks()
        for i, g in enumerate(games):
            np.testing.assert_array_equal(ids[offsets[i]:offsets[i + 1]], acts.legal_ids(g))
            np.testing.assert_array_equal(np.flatnonzero(masks[i]), acts.legal_ids(g))
            assert vg.current_players[i] == g.current_player
            np.testing.assert_array_equal(vg.observations[i], core.encode_observation_py(g, g.current_player))
            np.testing.assert_array_equal(vg.hands(i), [g.hand(s) for s in range(rules.seats)])
            assert vg.seeds[i] == g.seed
        counts = np.diff(offsets)
        actions = ids[offsets[:-1] + rng.integers(0, counts)]
        obs, rewards, dones = vg.step(actions)
        for i in range(n):
            acts.step(games[i], int(actions[i]))
            if games[i].result is not None:
                assert dones[i]
                np.testing.assert_array_equal(rewards[i], games[i].result.scores)
                games[i] = ddz.Game(rules, seed=next(hand_seeds))
                finished += 1
            else:
                assert not dones[i] and not rewards[i].any()
            np.testing.assert_array_equal(obs[i], core.encode_observation_py(games[i], games[i].current_player))
        assert (rewards.sum(axis=1) == 0).all()
    assert finished >= 2          # the auto-reset path ran


def _vector_snapshot(vg):
    ids, offsets = vg.legal_ids()
    return (vg.observations.copy(), ids.copy(), offsets.copy(), vg.current_players.copy(),
            [vg.hands(i) for i in range(vg.num_envs)])


@pytest.mark.parametrize("cls", [VectorGame, PyVectorGame])
def test_vector_game_refuses_bad_actions_and_steps_nothing(cls):
    vg = cls(3, seed=1)
    before = _vector_snapshot(vg)
    ids, offsets = vg.legal_ids()
    good = ids[offsets[:-1]].copy()
    for bad, err, msg in [(good[:2], ActionIdError, "shape"), (good.astype(float), ActionIdError, "int array"),
                          (np.array([0, 0, 10 ** 6]), ActionIdError, r"actions\[2\] = 1000000 is out of range"),
                          (np.array([0, -1, 0], np.int32), ActionIdError, r"actions\[1\] = -1 is out of range"),
                          (np.array([0, 0, 2 ** 40]), ActionIdError, "out of range"),
                          (np.array([True, False, True]), ActionIdError, "int array"),
                          ("abc", ActionIdError, "int array")]:
        with pytest.raises(err, match=msg):
            vg.step(bad)
    illegal = good.copy()
    illegal[2] = 5                 # a play id during the auction
    with pytest.raises(IllegalActionError, match=r"actions\[2\] = 5 .* game 2"):
        vg.step(illegal)
    after = _vector_snapshot(vg)
    for x, y in zip(before[:4], after[:4]):
        np.testing.assert_array_equal(x, y)
    for x, y in zip(before[4], after[4]):
        np.testing.assert_array_equal(x, y)
    with pytest.raises(DdzError):
        vg.legal_masks(out=np.zeros((3, 5), np.int8))
    with pytest.raises(DdzError):
        vg.hands(3)


@pytest.mark.parametrize("kwargs", [dict(num_envs=0), dict(num_envs=2.0), dict(num_envs=2, seed=-1),
                                    dict(num_envs=2, rules="standard"), dict(num_envs=2, reward_scale="x")])
def test_vector_game_bad_arguments(kwargs):
    with pytest.raises(DdzError):
        VectorGame(**kwargs)


def test_vector_game_reward_scale():
    a, b = VectorGame(4, seed=2), VectorGame(4, seed=2, reward_scale=0.5)
    rng = np.random.default_rng(3)
    total_a = total_b = 0.0
    for _ in range(120):
        ids, offsets = a.legal_ids()
        actions = ids[offsets[:-1] + rng.integers(0, np.diff(offsets))]
        total_a += np.abs(a.step(actions)[1]).sum()
        total_b += np.abs(b.step(actions)[1]).sum()
    assert total_a > 0 and total_b == total_a / 2


# -- import hygiene -----------------------------------------------------------------------

def test_import_ddz_imports_no_rl_library():
    # ddz.envs imports gymnasium (when installed) to register its env, never pettingzoo
    code = ("import sys, ddz; a = sorted(m for m in ('pettingzoo', 'gymnasium', 'ddz.envs') if m in sys.modules); "
            "import ddz.envs; print(a, 'pettingzoo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "False"]


# -- PettingZoo ---------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:Observation:UserWarning")   # api_test's notes on Dict observations
@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_pettingzoo_api_test(rules):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from ddz.envs import pettingzoo as pz
    api_test(pz.env(rules=rules), num_cycles=60)
    api_test(pz.raw_env(rules=rules), num_cycles=60)


def test_pettingzoo_seed_test():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import seed_test
    from ddz.envs import pettingzoo as pz
    seed_test(pz.env, num_cycles=100)
    seed_test(lambda **kw: pz.env(rules=FOUR, **kw), num_cycles=100)


def _play_out(e, rng):
    """Random legal actions until every agent is done; returns the summed rewards and the
    agents seen with their observation shapes."""
    totals = {a: 0.0 for a in e.possible_agents}
    shapes = set()
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        shapes.add((obs["observation"].shape, obs["action_mask"].shape))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals, shapes


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_pettingzoo_rewards_are_the_scores(rules):
    pytest.importorskip("pettingzoo")
    from ddz.envs import pettingzoo as pz
    for seed in range(3):
        e = pz.raw_env(rules=rules, reward_scale=0.5)
        e.reset(seed=seed)
        totals, shapes = _play_out(e, np.random.default_rng(seed))
        assert len(shapes) == 1
        scores = e.game.result.scores
        assert totals == {f"seat_{i}": 0.5 * s for i, s in enumerate(scores)}
        assert sum(totals.values()) == 0


def test_pettingzoo_illegal_actions():
    pytest.importorskip("pettingzoo")
    from ddz.envs import pettingzoo as pz
    raw = pz.raw_env()
    raw.reset(seed=0)
    before = raw.game.to_record()
    with pytest.raises(IllegalActionError):
        raw.step(5)                  # a play during the auction
    assert raw.game.to_record() == before
    wrapped = pz.env()
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    wrapped.step(5)
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())
    with pytest.raises(DdzError):
        pz.raw_env(render_mode="rgb_array")
    with pytest.raises(DdzError, match="reset"):
        pz.raw_env().observe("seat_0")


def test_pettingzoo_misuse_is_a_ddz_error():
    pytest.importorskip("pettingzoo")
    from ddz.envs import pettingzoo as pz
    for make in (pz.raw_env, pz.env):       # not an AssertionError, a KeyError or an AttributeError
        e = make()
        with pytest.raises(DdzError, match="call reset"):
            e.step(0)
        with pytest.raises(DdzError, match="call reset"):
            e.observe("seat_0")
        e.reset(seed=1)
        with pytest.raises(DdzError, match="no agent 'seat_9': the agents are seat_0, seat_1, seat_2"):
            e.observe("seat_9")
        assert e.observe("seat_0")["observation"].shape == e.observation_space("seat_0")["observation"].shape


def test_pettingzoo_render(capsys):
    pytest.importorskip("pettingzoo")
    from ddz.envs import pettingzoo as pz
    e = pz.raw_env(render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert text == str(e.game)          # the game's own table (ddz.game.render), every hand shown
    from ddz.game.render import grouped
    for seat in range(3):
        assert grouped(e.game.hand(seat)) in text
    h = pz.raw_env(render_mode="human")
    h.reset(seed=4)
    h.step(0)
    assert capsys.readouterr().out == str(h.game) + "\n\n"


# -- Gymnasium ----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{}, dict(rules=FOUR, opponents="greedy"),
                                    dict(rules=Rules(bidding="rob", doubling=True), seat=2,
                                         opponents=[ddz.GreedyBot(), "random"])])
def test_gymnasium_check_env(kwargs):
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env
    import ddz.envs  # noqa: F401 (registers ddz/DouDizhu-v0)
    env = gymnasium.make("ddz/DouDizhu-v0", **kwargs)
    check_env(env.unwrapped, skip_render_check=True)


def _episode(env, seed, policy_seed):
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    trace = []
    while True:
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append(a)
        obs, reward, term, trunc, info = env.step(a)
        if term or trunc:
            return trace, reward, info


def test_gymnasium_episodes_are_deterministic_and_scored():
    gymnasium = pytest.importorskip("gymnasium")
    import ddz.envs  # noqa: F401
    env = gymnasium.make("ddz/DouDizhu-v0", seat=1, reward_scale=2.0).unwrapped
    for seed in range(4):
        a = _episode(env, seed, 9)
        record = env.game.to_record()
        b = _episode(env, seed, 9)
        assert a[0] == b[0] and env.game.to_record() == record
        assert a[1] == 2.0 * a[2]["result"].scores[1]
        assert not a[2]["illegal_action"]


def test_gymnasium_illegal_actions():
    gymnasium = pytest.importorskip("gymnasium")
    from ddz.envs.gymnasium import DouDizhuEnv
    env = DouDizhuEnv()
    env.reset(seed=0)
    obs, reward, term, _, info = env.step(5)             # a play during the auction
    assert (reward, term, info["illegal_action"]) == (-1.0, True, True)
    assert not obs["action_mask"].any()
    with pytest.raises(DdzError, match="reset"):
        env.step(0)
    strict = DouDizhuEnv(illegal_action="raise")
    strict.reset(seed=0)
    before = strict.game.to_record()
    with pytest.raises(IllegalActionError):
        strict.step(5)
    assert strict.game.to_record() == before
    assert isinstance(gymnasium.spaces.Discrete(1), gymnasium.Space)


@pytest.mark.parametrize("kwargs", [dict(seat=3), dict(seat=True), dict(opponents="smart"),
                                    dict(opponents=["random"]), dict(opponents=[object(), "random"]),
                                    dict(illegal_action="ignore"), dict(reward_scale=None),
                                    dict(render_mode="rgb_array")])
def test_gymnasium_bad_arguments(kwargs):
    pytest.importorskip("gymnasium")
    from ddz.envs.gymnasium import DouDizhuEnv
    with pytest.raises(DdzError):
        DouDizhuEnv(**kwargs)


def test_bad_seeds_and_sizes_are_clear_errors():
    """A seed the envs cannot use and a vector too big are ``DdzError``s, not numpy's or
    Gymnasium's errors."""
    with pytest.raises(DdzError, match="num_envs must be an int from 1 to"):
        VectorGame(10 ** 12)
    pz = pytest.importorskip("ddz.envs.pettingzoo")
    for bad in [-1, "x", 1.5, True]:
        with pytest.raises(DdzError, match="seed"):
            pz.env().reset(seed=bad)
    gymnasium = pytest.importorskip("gymnasium")
    import ddz.envs  # noqa: F401  (registers the env)
    with pytest.raises(DdzError, match="seed"):
        gymnasium.make("ddz/DouDizhu-v0").reset(seed=-2)


def test_envs_name_the_extra_when_pettingzoo_is_missing():
    """Without PettingZoo/Gymnasium, importing the env says which extra installs them."""
    code = ("import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
            "try:\n    import ddz.envs.pettingzoo\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "pip install 'ddz[envs]'" in out.stdout, out.stderr
