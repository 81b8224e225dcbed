"""DouZero's features of a ddz.Game (issue 31): ``ddz.envs.douzero.get_obs`` against
DouZero's own ``douzero.env.env.get_obs`` on hands played in lockstep with DouZero's
``GameEnv``, the compiled encoder against its plain-Python twin, and the bad inputs.

DouZero is installed without its requirements (``tools/test.py``: no torch);
``douzero.env.env`` and ``douzero.env.game`` import numpy and DouZero's move code only.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import ddz
from ddz import interop
from ddz.core.implementation import NO_EXTENSIONS
from ddz.envs import douzero as dzo

DOUZERO = ddz.Rules.profile("douzero")
HANDS = 460           # about 20,700 decisions with the policy below


class _Agent:
    """A DouZero player that plays the move it is told."""

    action = None

    def act(self, infoset):
        return self.action


def _choose(rng, game, obs):
    """The lockstep policy: half the time the move of most cards (the first in ddz's move
    order among equals), else a random move of a random play type (so that rare types,
    such as the airplane without wings, are played too)."""
    legal = obs["legal_actions"]
    if rng.random() < 0.5:
        return max(range(len(legal)), key=lambda i: len(legal[i]))
    space = game.action_space
    by_type = {}
    for k, i in enumerate(obs["action_ids"].tolist()):
        by_type.setdefault(space.play(i).type, []).append(k)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def _deal(seed):
    """DouZero's card_play_data of a seeded deal, and the landlord's seat (seed % 3)."""
    dealt = ddz.Game(DOUZERO, seed=seed)
    dealt.step(3)
    return interop.douzero_card_play_data(dealt), seed % 3


def _four_with_jokers(cards):
    """DouZero's four-with-two whose kickers are both jokers (RULES.md §2.1 forbids it)."""
    return len(cards) == 6 and 20 in cards and 30 in cards and any(cards.count(c) == 4 for c in cards)


def test_lockstep_with_douzero_gameenv():
    """Every decision of HANDS hands: ddz's dict equals DouZero's, row for row, keyed by
    each action's sorted cards; every DouZero move type is played and bomb_num reaches 2."""
    env_mod = pytest.importorskip("douzero.env.env")
    game_mod = pytest.importorskip("douzero.env.game")
    md = pytest.importorskip("douzero.env.move_detector")
    decisions = repeated = 0
    types = set()
    most_bombs = 0
    for seed in range(HANDS):
        data, lord = _deal(seed)
        game = interop.douzero_game(data, lord)
        agents = {n: _Agent() for n in interop.DOUZERO_POSITIONS}
        env = game_mod.GameEnv(agents)
        env.card_play_init({k: list(v) for k, v in data.items()})
        rng = random.Random(seed)
        while not env.game_over:
            info = env.game_infoset
            theirs = env_mod.get_obs(info)
            ours = dzo.get_obs(game)
            pos = ours["position"]
            assert pos == theirs["position"] == info.player_position
            assert pos == interop.DOUZERO_POSITIONS[(game.current_player - lord) % 3]
            for key in ("x_no_action", "z"):
                assert ours[key].dtype == theirs[key].dtype == np.int8
                assert ours[key].shape == theirs[key].shape
                assert np.array_equal(ours[key], theirs[key]), (seed, decisions, key)
            # DouZero's rows by sorted cards (its list repeats a few actions: same rows)
            row = {}
            for j, a in enumerate(theirs["legal_actions"]):
                key = tuple(sorted(a))
                if key in row:
                    repeated += 1
                    assert np.array_equal(theirs["x_batch"][j], theirs["x_batch"][row[key]])
                else:
                    row[key] = j
            mine = [tuple(a) for a in ours["legal_actions"]]
            assert all(a == sorted(a) for a in ours["legal_actions"])
            assert len(set(mine)) == len(mine)                       # distinct
            assert set(mine) <= set(row)
            assert all(_four_with_jokers(list(a)) for a in set(row) - set(mine))
            rows = [row[a] for a in mine]
            for key in ("x_batch", "z_batch"):
                assert ours[key].dtype == theirs[key].dtype == np.float32
                assert ours[key].shape == (len(mine),) + theirs[key].shape[1:]
                assert np.array_equal(ours[key], theirs[key][rows]), (seed, decisions, key)
            assert ours["x_batch"].shape[1] == dzo.X_SIZE[pos]
            k = _choose(rng, game, ours)
            action = list(ours["legal_actions"][k])
            types.add(md.get_move_type(action)["type"])
            agents[pos].action = action
            env.step()
            game.step_id(int(ours["action_ids"][k]))
            most_bombs = max(most_bombs, env.get_bomb_num())
            decisions += 1
        assert game.phase == ddz.Phase.OVER
        assert env.get_winner() == ("landlord" if game.result.winner == "landlord" else "farmer")
    print(f"{decisions} decisions, {repeated} repeated DouZero actions, bomb_num up to {most_bombs}")
    assert decisions >= 20000 and HANDS >= 300
    assert types >= set(range(md.TYPE_0_PASS, md.TYPE_14_4_22 + 1)), sorted(types)
    assert most_bombs >= 2
    assert repeated > 0                  # DouZero's list did repeat actions: ddz's rows are distinct


def _decisions(hands, start=0):
    """Games at every decision of ``hands`` hands (seeded, the lockstep policy), played
    through ddz alone."""
    out = []
    for seed in range(start, start + hands):
        data, lord = _deal(seed)
        game = interop.douzero_game(data, lord)
        rng = random.Random(seed)
        while game.phase == ddz.Phase.PLAYING:
            out.append(game.clone())
            obs = dzo.get_obs_py(game)
            game.step_id(int(obs["action_ids"][_choose(rng, game, obs)]))
    return out


def _same(a, b):
    assert a.keys() == b.keys() == {"position", "x_batch", "z_batch", "legal_actions", "x_no_action", "z",
                                    "action_ids"}
    assert a["position"] == b["position"]
    assert a["legal_actions"] == b["legal_actions"]
    assert [type(x) for x in a["legal_actions"]] == [type(x) for x in b["legal_actions"]]
    for key in ("x_batch", "z_batch", "x_no_action", "z", "action_ids"):
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape, key
        assert np.array_equal(a[key], b[key]), key


@pytest.mark.crosscheck
@pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: get_obs is the twin itself")
def test_compiled_equals_the_python_twin():
    """The C encoder and get_obs_py give equal dicts at every decision (lists and tuples),
    on games dealt by douzero_game and by Game itself (the auction played)."""
    assert dzo.get_obs is not dzo.get_obs_py and dzo._dz is not None
    games = _decisions(40, start=1000)
    g = ddz.Game(ddz.Rules.profile("douzero", doubling=True), seed=5)
    while g.phase != ddz.Phase.OVER:
        if g.phase == ddz.Phase.PLAYING:
            games.append(g.clone())
        legal = g.legal_actions()
        g.step(legal[-1] if g.phase == ddz.Phase.BIDDING else legal[0])
    for game in games:
        for lists in (True, False):
            _same(dzo.get_obs(game, lists), dzo.get_obs_py(game, lists))


def test_arrays_are_fresh_and_z_batch_is_a_read_only_view():
    game = _decisions(1, start=7)[20]
    a, b = dzo.get_obs(game), dzo.get_obs(game)
    a["x_batch"][:] = 5
    a["x_no_action"][:] = 5
    a["z"][:] = 5
    a["legal_actions"][0].append(99)
    _same(b, dzo.get_obs(game))
    zb = b["z_batch"]
    assert not zb.flags.writeable and zb.strides[0] == 0
    with pytest.raises(ValueError):
        zb[0, 0, 0] = 1.0
    assert np.array_equal(zb[-1], b["z"].astype(np.float32))
    # what a replay buffer keeps (x_no_action, z) does not hold the action rows alive
    for key in ("x_no_action", "z", "action_ids"):
        held = b[key].base if b[key].base is not None else b[key]
        assert held.nbytes < 4 * 1024 and not np.shares_memory(b[key], b["x_batch"])
    t = dzo.get_obs(game, lists=False)
    assert all(type(x) is tuple for x in t["legal_actions"])
    assert [list(x) for x in t["legal_actions"]] == b["legal_actions"]


def test_pass_and_bombs_in_the_features():
    """Hand-made position: the landlord leads a bomb, both farmers pass; the landlord's
    features show the bomb as its last move, bomb_num 1, and z its history."""
    data = {"landlord": [3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 17, 20, 30, 4],
            "landlord_down": [4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9],
            "landlord_up": [10, 10, 10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 17, 17],
            "three_landlord_cards": [4, 20, 30]}
    data["landlord"].sort()
    game = interop.douzero_game(data, 1)
    game.step(interop.douzero_play([3, 3, 3, 3]))
    game.step(ddz.PASS)
    game.step(ddz.PASS)
    obs = dzo.get_obs(game)
    assert obs["position"] == "landlord" and obs["x_batch"].shape[1] == 373
    x = obs["x_no_action"]
    assert x[2 * 54:3 * 54].tolist() == [0] * 54      # last_move: both passed, the landlord leads
    assert x[5 * 54 + 17 - 1] == 1 and x[5 * 54 + 17 + 17 - 1] == 1    # 17 cards left each
    assert x[5 * 54 + 34 + 1] == 1                    # one bomb
    z = obs["z"].reshape(15, 54)
    assert z[:12].sum() == 0 and z[12, :4].tolist() == [1, 1, 1, 1] and z[13:].sum() == 0
    assert [] not in obs["legal_actions"]             # leading: no pass


def test_bad_inputs():
    game = _decisions(1, start=3)[0]
    for bad in (None, "game", 3, interop.douzero_infoset(game), game.position()):
        with pytest.raises(ddz.DdzError, match="ddz.Game"):
            dzo.get_obs(bad)
        with pytest.raises(ddz.DdzError, match="ddz.Game"):
            dzo.get_obs_py(bad)
    for rules in (ddz.STANDARD, ddz.Rules.profile("rlcard"), ddz.Rules.four_player()):
        g = ddz.Game(rules, seed=1)
        while g.phase != ddz.Phase.PLAYING:
            g.step(g.legal_actions()[-1])
        for f in (dzo.get_obs, dzo.get_obs_py):
            with pytest.raises(ddz.DdzError, match="douzero"):
                f(g)
    fresh = ddz.Game(DOUZERO, seed=2)                 # the auction
    over = game.clone()
    while over.phase != ddz.Phase.OVER:
        over.step(over.legal_actions()[-1])
    for g, what in ((fresh, "bidding"), (over, "over")):
        for f in (dzo.get_obs, dzo.get_obs_py):
            with pytest.raises(ddz.DdzError, match=what):
                f(g)
    for f in (dzo.get_obs, dzo.get_obs_py):
        for lists in (1, None, "yes"):
            with pytest.raises(ddz.DdzError, match="lists"):
                f(game, lists)
    from ddz.envs import PyVectorGame
    with pytest.raises(ddz.DdzError, match="CVectorGame"):
        dzo.get_obs_vector(PyVectorGame(2, DOUZERO))
    dzo.get_obs(game)                                 # still fine after the errors
    # equal (not identical) douzero rules with other game options are accepted
    other = interop.douzero_game(interop.douzero_card_play_data(game), game.landlord,
                                 ddz.Rules.profile("douzero", max_redeals=3))
    _same(dzo.get_obs(other), dzo.get_obs_py(game))


def test_docs_example_without_torch():
    """docs/douzero.md's examples that need no torch run as written."""
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "douzero.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "torch" not in b]
    assert len(blocks) == 2
    if NO_EXTENSIONS:                     # the vector example needs the C VectorGame
        blocks = [b for b in blocks if "CVectorGame" not in b]
    for block in blocks:
        exec(compile(block, "docs/douzero.md", "exec"), {})


@pytest.mark.crosscheck
@pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: the C VectorGame is absent")
def test_vector_rows_equal_get_obs_of_each_game():
    """get_obs_vector's ragged block: for every game of a CVectorGame in its play phase, the
    rows, x_no_action, z and ids of get_obs on the same game (PyVectorGame's Game, stepped
    with the same actions); nothing for games in the auction."""
    from ddz.envs import CVectorGame, PyVectorGame
    n = 8
    c, py = CVectorGame(n, DOUZERO, seed=3), PyVectorGame(n, DOUZERO, seed=3)
    rng = np.random.default_rng(0)
    checked = waiting = 0
    for step in range(300):
        o = dzo.get_obs_vector(c)
        assert o["x"].shape == (o["offsets"][-1], 484) and o["x"].dtype == np.float32
        assert o["z"].shape == (n, 5, 162) and o["x_no_action"].shape == (n, 430)
        for i, g in enumerate(py.games):
            a, b = o["offsets"][i], o["offsets"][i + 1]
            if g.phase != ddz.Phase.PLAYING:
                assert o["position"][i] == -1 and a == b and not o["z"][i].any() and not o["x_no_action"][i].any()
                waiting += 1
                continue
            ref = dzo.get_obs(g)
            name = ref["position"]
            assert interop.DOUZERO_POSITIONS[o["position"][i]] == name
            w = dzo.X_SIZE[name]
            assert np.array_equal(o["x"][a:b, :w], ref["x_batch"]) and not o["x"][a:b, w:].any()
            assert np.array_equal(o["x_no_action"][i, :dzo.X_NO_ACTION_SIZE[name]], ref["x_no_action"])
            assert not o["x_no_action"][i, dzo.X_NO_ACTION_SIZE[name]:].any()
            assert np.array_equal(o["z"][i], ref["z"]) and np.array_equal(o["action_ids"][a:b], ref["action_ids"])
            checked += 1
        again = dzo.get_obs_vector(c, reuse=True)             # views of buffers kept on c
        for key, value in o.items():
            assert again[key].shape == value.shape and np.array_equal(again[key], value), key
        ids, off = c.legal_ids()
        c_pick = ids[off[:-1] + (rng.random(n) * np.diff(off)).astype(np.int64)]
        c.step(c_pick)
        py.step(c_pick)
    assert checked > 1500 and waiting > 50
    with pytest.raises(ddz.DdzError, match="CVectorGame"):
        dzo.get_obs_vector(py)
    with pytest.raises(ddz.DdzError, match="douzero"):
        dzo.get_obs_vector(CVectorGame(2, ddz.STANDARD))
    with pytest.raises(ddz.DdzError, match="reuse"):
        dzo.get_obs_vector(c, reuse=1)
