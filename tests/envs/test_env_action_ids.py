"""An action that is no integer id is a bug of the agent, not a move (issue 40, item 7): the
Gymnasium env raises :class:`ddz.ActionTypeError` (a ``DdzError`` and a ``TypeError``)
for ``'3'``, ``None``, ``1.5``, ``[0]``... in either ``illegal_action`` mode, as the
PettingZoo env does, while an integer id that is illegal keeps the documented penalty.
The check is at the id boundary of :class:`ddz.Game` (``step_id``) and of the env action
table."""

import numpy as np
import pytest

import ddz
from ddz.envs.core import env_actions

gymnasium = pytest.importorskip("gymnasium")
import ddz.envs  # noqa: E402  (registers ddz/DouDizhu-v0)

NOT_IDS = ["3", None, 1.5, [0], True, np.float64(2), np.array([0]), np.array(1.0), {"id": 0}, b"0"]


@pytest.mark.parametrize("mode", ["terminate", "raise"])
@pytest.mark.parametrize("action", NOT_IDS, ids=repr)
def test_the_gym_env_raises_on_an_action_that_is_no_integer(mode, action):
    env = gymnasium.make("ddz/DouDizhu-v0", illegal_action=mode)
    env.reset(seed=3)
    with pytest.raises(ddz.ActionTypeError, match="an action is an integer id") as exc:
        env.step(action)
    assert isinstance(exc.value, TypeError) and isinstance(exc.value, ddz.DdzError)
    # nothing happened: a legal id still plays
    mask = env.unwrapped._last_mask
    _, reward, terminated, _, info = env.step(int(np.flatnonzero(mask)[0]))
    assert not info["illegal_action"]


@pytest.mark.parametrize("action", [10 ** 6, -1, np.int64(10 ** 6)], ids=repr)
def test_an_integer_illegal_id_keeps_the_penalty(action):
    env = gymnasium.make("ddz/DouDizhu-v0", illegal_reward=-2.5)
    env.reset(seed=3)
    mask = env.unwrapped._last_mask
    illegal = int(np.flatnonzero(mask == 0)[0])
    for a in (action, illegal, np.int32(illegal)):
        env.reset(seed=3)
        _, reward, terminated, truncated, info = env.step(a)
        assert (reward, terminated, truncated, info["illegal_action"]) == (-2.5, True, False, True)


def test_integer_ids_of_every_kind_are_ids():
    env = gymnasium.make("ddz/DouDizhu-v0")
    for a in (0, np.int64(0), np.uint8(0), np.array(0), np.array(0, np.int16)):
        env.reset(seed=3)
        assert env.step(a)[1:4] == (0.0, False, False) or env.unwrapped.game.result is not None


def test_the_id_boundary_of_game_and_the_env_table():
    game = ddz.Game(seed=1)                        # bidding: the type is checked in any phase
    for bad in ("3", None, 1.5, [0], True):
        with pytest.raises(ddz.ActionTypeError):
            game.step_id(bad)
        with pytest.raises(ddz.ActionTypeError):
            env_actions(game.rules).game_action(game, bad)
    with pytest.raises(ddz.IllegalActionError):
        game.step_id(0)                            # an integer in the wrong phase: as before
    assert issubclass(ddz.ActionTypeError, ddz.ActionIdError) and "ActionTypeError" in ddz.__all__


def test_the_vector_env_raises_on_actions_that_are_not_integers():
    try:
        env = gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=2, vectorization_mode="vector_entry_point")
    except ddz.DdzError:
        pytest.skip("the vector env needs the compiled core")
    env.reset(seed=1)
    for bad in (np.zeros(2, np.float32), ["0", "0"], np.zeros(3, np.int64)):
        with pytest.raises(ddz.ActionTypeError):
            env.step(bad)
