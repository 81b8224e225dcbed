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

try:
    import gymnasium
    import ddz.envs  # noqa: F401  (registers ddz/DouDizhu-v0)
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")

NOT_IDS = ["3", None, 1.5, [0], True, np.float64(2), np.array([0]), np.array(1.0), {"id": 0}, b"0"]


@needs_gymnasium
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


@needs_gymnasium
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


@needs_gymnasium
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
    with pytest.raises(ddz.IllegalActionError, match="not an action of the bidding phase"):
        game.step_id(1)                            # a play's id in the auction (issue 42: ids in every phase)
    assert issubclass(ddz.ActionTypeError, ddz.ActionIdError) and "ActionTypeError" in ddz.__all__


def test_an_env_table_refuses_a_game_of_another_rule_set():
    """Ids mean other actions under other rules (a four-player game's bid is a play of the
    three-player table): every method of the table refuses such a game, which stays as it was."""
    table = env_actions(ddz.Rules())
    game = ddz.Game(ddz.Rules.four_player(), seed=1)
    before = game.to_record()
    for call in (lambda: table.legal_ids(game), lambda: table.mask(game), lambda: table.game_action(game, 0),
                 lambda: table.step(game, int(game.legal_ids()[-1]))):
        with pytest.raises(ddz.DdzError, match="not this action table's"):
            call()
    assert game.to_record() == before
    table.step(ddz.Game(ddz.Rules(), seed=1), 0)                 # an equal rule set is this table's


@needs_gymnasium
def test_the_vector_env_raises_on_actions_that_are_not_integers():
    try:
        env = gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=2, vectorization_mode="vector_entry_point")
    except ddz.DdzError:
        pytest.skip("the vector env needs the compiled core")
    env.reset(seed=1)
    for bad in (np.zeros(2, np.float32), ["0", "0"], np.zeros(3, np.int64)):
        with pytest.raises(ddz.ActionTypeError):
            env.step(bad)


# -- issue 42: Game speaks the env ids in every phase ----------------------------------------

class _PyHandGame(ddz.Game):
    """``ddz.Game`` on the pure-Python hand: its auction ids come from ``ddz.game.ids``'s
    table, the product's from the C hand (``hand_write_ids``)."""

    from ddz.game.hand import PyHand
    _new_hand = staticmethod(PyHand)


@pytest.mark.parametrize("rules", [ddz.STANDARD, ddz.Rules(bidding="rob", doubling=True),
                                   ddz.Rules(bid_rounds="until_passes", max_redeals=2), ddz.Rules.four_player()],
                         ids=["standard", "rob-doubling", "until-passes", "four-player"])
def test_step_id_legal_ids_and_the_mask_in_every_phase(rules):
    import random
    rng = random.Random(5)
    acts = env_actions(rules)
    phases = set()
    for seed in range(12):
        games = [ddz.Game(rules, seed=seed), _PyHandGame(rules, seed=seed)]
        g = games[0]
        while g.result is None:
            ids = g.legal_ids()
            assert ids.dtype == np.int32 and ids.tolist() == sorted(ids.tolist())
            assert ids.tolist() == games[1].legal_ids().tolist() == acts.legal_ids(g).tolist()
            assert [g.action_of_id(i) for i in ids.tolist()] == g.legal_actions()
            mask = g.action_mask()
            assert mask.shape == (g.num_ids,) == (acts.size,) and np.flatnonzero(mask).tolist() == ids.tolist()
            phases.add(g.phase)
            pick = ids[rng.randrange(len(ids))]
            for x in games:
                x.step_id(pick if rng.random() < 0.5 else int(pick))
            assert games[0].to_record() == games[1].to_record()
        assert g.legal_ids().tolist() == [] and not g.action_mask().any()
    assert ddz.Phase.BIDDING in phases and ddz.Phase.PLAYING in phases
    assert (ddz.Phase.DOUBLING in phases) == rules.doubling and (ddz.Phase.OPENING in phases) == (rules.players == 4)


def test_ids_of_another_phase_are_refused_and_change_nothing():
    g = ddz.Game(ddz.Rules(doubling=True), seed=2)
    p = len(g.action_space)
    before = g.to_record()
    for bad, error in [(p + 4, ddz.IllegalActionError), (p + 6, ddz.ActionIdError), (-1, ddz.ActionIdError),
                       (7, ddz.IllegalActionError), ("0", ddz.ActionTypeError)]:
        with pytest.raises(error):
            g.step_id(bad)
        assert g.to_record() == before
    g.step_id(p + 2)                                          # bid 3: the landlord; doubling follows
    assert g.phase is ddz.Phase.DOUBLING and g.legal_ids().tolist() == [0, p + 4]
    with pytest.raises(ddz.IllegalActionError, match="doubling phase"):
        g.step_id(p)                                           # a bid while doubling
    with pytest.raises(ddz.DdzError, match="int8"):
        g.action_mask(np.zeros(g.num_ids, np.int32))
