"""Gymnasium's vector API over the C hands (issue 31): ``gymnasium.make_vec("ddz/DouDizhu-v0",
vectorization_mode="vector_entry_point")`` against ``SyncVectorEnv`` of the single env with
the same seeds, step by step. Gymnasium has no vector-env checker: equality with its own
``SyncVectorEnv`` of :class:`ddz.envs.gymnasium.DouDizhuEnv` is the check."""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz import DdzError, IllegalActionError, Rules
from ddz.core.implementation import NO_EXTENSIONS

needs_core = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: the C vector env is absent")


@pytest.fixture
def gym():
    """``(gymnasium, ddz.envs.gymnasium)``, the env registered; the test is skipped
    without Gymnasium (an optional package: the envs extra)."""
    gymnasium = pytest.importorskip("gymnasium")
    import ddz.envs  # noqa: F401  (registers the env)
    from ddz.envs import gymnasium as ddz_gym
    return gymnasium, ddz_gym


def assert_same_infos(a, b):
    assert sorted(a) == sorted(b)
    for key in a:
        if a[key].dtype == object:
            assert list(a[key]) == list(b[key]), key
        else:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@needs_core
@pytest.mark.parametrize("rules, seat", [(ddz.STANDARD, 0), (Rules(bidding="rob", doubling=True, bottom_bonus=True), 2),
                                         (Rules.four_player(), 1), (Rules.profile("openspiel"), 1)],
                         ids=["standard", "rob-doubling-bonus", "four-player", "openspiel"])
def test_vector_env_equals_sync_vector_env_of_the_single_env(gym, rules, seat):
    gymnasium, ddz_gym = gym
    n, steps = 6, 250         # 4 rule sets: 1,000 steps in all
    kwargs = dict(rules=rules, seat=seat, reward_scale=0.25)
    fast = gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    sync = gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=n, vectorization_mode="sync", **kwargs)
    assert isinstance(fast, ddz_gym.DouDizhuVectorEnv) and isinstance(fast, gymnasium.vector.VectorEnv)
    assert fast.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert fast.single_observation_space == sync.single_observation_space
    assert fast.single_action_space == sync.single_action_space
    assert fast.observation_space == sync.observation_space and fast.action_space == sync.action_space
    (of, if_), (os_, is_) = fast.reset(seed=13), sync.reset(seed=13)
    for key in ("observation", "action_mask"):
        np.testing.assert_array_equal(of[key], os_[key])
    assert_same_infos(if_, is_)
    rng = np.random.default_rng(1)
    ends = illegal = 0
    for t in range(steps):
        masks = of["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        if t % 37 == 5:                          # now and then an illegal action
            actions[t % n] = fast.single_action_space.n - 1 if masks[t % n, -1] == 0 else 0
        out_f, out_s = fast.step(actions), sync.step(actions)
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(out_f[0][key], out_s[0][key], err_msg=f"step {t}: {key}")
        for k in (1, 2, 3):
            np.testing.assert_array_equal(out_f[k], out_s[k], err_msg=f"step {t}: output {k}")
        assert out_f[1].dtype == out_s[1].dtype
        assert_same_infos(out_f[4], out_s[4])
        of = out_f[0]
        ends += int(out_f[2].sum())
        illegal += int(out_f[4]["illegal_action"].sum())
    assert ends >= 20 and illegal >= 3       # episodes ended (and were reset) on both sides
    fast.close()
    sync.close()


@needs_core
def test_vector_env_arguments_and_illegal_actions(gym):
    gymnasium, ddz_gym = gym
    DouDizhuVectorEnv = ddz_gym.DouDizhuVectorEnv
    with pytest.raises(DdzError, match="num_envs"):
        DouDizhuVectorEnv(0)
    with pytest.raises(DdzError, match="random"):
        DouDizhuVectorEnv(2, opponents="greedy")
    with pytest.raises(DdzError, match="seat"):
        DouDizhuVectorEnv(2, seat=3)
    with pytest.raises(DdzError, match="render"):
        gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=2, vectorization_mode="vector_entry_point", render_mode="ansi")
    env = DouDizhuVectorEnv(2, illegal_action="raise")
    with pytest.raises(DdzError, match="reset"):
        env.step(np.zeros(2, np.int64))              # no episode yet
    obs, _ = env.reset(seed=[3, 4])
    with pytest.raises(ddz.ActionIdError, match="out of range"):
        env.step(np.array([10 ** 7, 0]))
    with pytest.raises(DdzError, match="seed"):
        env.reset(seed=[1])
    with pytest.raises(ddz.ActionIdError):
        env.step(np.zeros(3, np.int64))
    bad = np.array([0 if obs["action_mask"][0, 0] == 0 else 1, np.flatnonzero(obs["action_mask"][1])[0]])
    before = obs["observation"].copy()
    with pytest.raises(IllegalActionError, match="env 0"):
        env.step(bad)
    again, _ = env.reset(seed=[3, 4])      # nothing was stepped: the same hands from the same seeds
    np.testing.assert_array_equal(again["observation"], before)


def test_vector_env_without_the_core_says_so(gym, monkeypatch):
    """Without the compiled core (as under ``DDZ_NO_EXTENSIONS=1``) the vector env is a
    ``DdzError`` that names the way out, ``vectorization_mode="sync"``."""
    _, ddz_gym = gym
    monkeypatch.setattr(ddz_gym, "_vector", None)
    with pytest.raises(DdzError, match="compiled core.*sync"):
        ddz_gym.DouDizhuVectorEnv(2)
