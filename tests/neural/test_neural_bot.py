"""NeuralBot without torch (issue 43 item 2): its features from the Observation equal
get_obs of the game, its forward pass equals a plain float64 one, it plays whole hands,
bids as ExpertBot, refuses other rule sets, its batched form equals its single one, and it
never imports torch."""

from __future__ import annotations

import dataclasses
import os
import pathlib
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ddz
from ddz import CheckpointError, DdzError
from ddz.core.implementation import NO_EXTENSIONS
from ddz.envs.douzero import get_obs
from ddz.neural import NeuralBot, douzero_files, douzero_shapes, make_neural_bot, observation_features, save_checkpoint
from ddz.neural.model import DouZeroNet
from ddz.search.bots import play_hand

DOUZERO = ddz.Rules.profile("douzero")
POSITIONS = ("landlord", "landlord_down", "landlord_up")


def random_model(folder: pathlib.Path, seed: int = 0, action_scale: float = 1.0) -> pathlib.Path:
    """Three DouZero networks of random weights (uniform within torch's default bound
    1/sqrt(fan_in)), the first layer's 54 action columns times ``action_scale`` (the wider
    model of the equality tests: Q values spread 6 times more at 8), saved as DouZero saves
    them."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for k, p in enumerate(POSITIONS):
        shapes = douzero_shapes(k)
        state = {}
        for name, shape in shapes.items():
            fan_in = 128 if name.startswith("lstm") else shapes[name.replace("bias", "weight")][-1]
            bound = 1 / np.sqrt(fan_in)
            state[name] = rng.uniform(-bound, bound, shape).astype(np.float32)
        state["dense1.weight"][:, -54:] *= action_scale
        save_checkpoint(state, folder / f"{p}.ckpt")
    return folder


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return random_model(tmp_path_factory.mktemp("model"), action_scale=8.0)


def _decisions(hands: int, seed: int = 0):
    """(game, observation, legal) at every play-phase decision of seeded hands of random play."""
    for s in range(seed, seed + hands):
        game = ddz.Game(DOUZERO, seed=s)
        rng = random.Random(s)
        while game.current_player is not None:
            legal = game.legal_actions()
            if game.phase == "playing":
                yield game, game.observation(), legal
            game.step(rng.choice(legal))


def test_features_from_the_observation_equal_get_obs():
    n = 0
    for game, obs, legal in _decisions(12):
        pos, x, z, actions, keep = observation_features(obs, legal)
        theirs = get_obs(game)
        assert POSITIONS[pos] == theirs["position"]
        assert np.array_equal(x, theirs["x_no_action"]) and np.array_equal(z, theirs["z"])
        assert np.array_equal(np.hstack([np.repeat(x[None], len(actions), 0), actions]), theirs["x_batch"])
        assert np.array_equal(game.legal_action_ids()[keep], theirs["action_ids"])
        n += 1
    assert n > 500


def _reference_q(state, x_batch, z):
    """DouZero's forward pass in float64, written out as torch defines it."""
    s = {k: v.astype(np.float64) for k, v in state.items()}
    h = c = np.zeros(128)
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    for t in range(5):
        g = s["lstm.weight_ih_l0"] @ z[t] + s["lstm.bias_ih_l0"] + s["lstm.weight_hh_l0"] @ h + s["lstm.bias_hh_l0"]
        i, f, gg, o = sig(g[:128]), sig(g[128:256]), np.tanh(g[256:384]), sig(g[384:])
        c = f * c + i * gg
        h = o * np.tanh(c)
    x = np.hstack([np.repeat(h[None], len(x_batch), 0), x_batch])
    for k in range(1, 6):
        x = np.maximum(x @ s[f"dense{k}.weight"].T + s[f"dense{k}.bias"], 0)
    return (x @ s["dense6.weight"].T + s["dense6.bias"])[:, 0]


def test_forward_pass_equals_a_plain_one(model):
    bot = NeuralBot(model)
    states = [net.state for net in bot.nets]
    worst = 0.0
    scored = 0
    for game, obs, legal in _decisions(3, seed=100):
        plays, q = bot.q_values(obs, legal)
        if len(plays) < 2:           # (DouZero scores only decisions with a choice)
            continue
        scored += 1
        theirs = get_obs(game)
        want = _reference_q(states[POSITIONS.index(theirs["position"])], theirs["x_batch"].astype(np.float64),
                            theirs["z"].astype(np.float64))
        assert q.dtype == np.float32 and q.shape == want.shape
        worst = max(worst, float(np.abs(q - want).max() / np.abs(want).max()))
        assert [p.counts for p in plays] == [game.action_space.play(int(i)).counts for i in theirs["action_ids"]]
    assert worst <= 1e-5 and scored > 60, (worst, scored)


def test_plays_whole_hands_and_bids_as_expert(model):
    bot = NeuralBot(model, seed=1)
    expert = ddz.ExpertBot()
    for seed in range(3):
        game = ddz.Game(DOUZERO, seed=seed)
        while game.phase != "playing":
            obs, legal = game.observation(), game.legal_actions()
            mine = bot.act(obs, legal)
            assert mine == expert.act(obs, legal)
            game.step(mine)
        play_hand(game, [bot] * 3)
        assert game.phase == ddz.Phase.OVER
    # the top Q's action, the first of its cards in legal's order
    for game, obs, legal in _decisions(1, seed=7):
        plays, q = bot.q_values(obs, legal)
        assert bot.act(obs, legal) is plays[int(np.argmax(q))]


def test_refuses_other_rule_sets(model):
    bot = NeuralBot(model)
    for rules in (ddz.STANDARD, ddz.Rules.profile("rlcard"), ddz.Rules(players=4)):
        game = ddz.Game(rules, seed=3)
        while game.phase != "playing":
            game.step(ddz.ExpertBot().act(game.observation(), game.legal_actions()))
        with pytest.raises(DdzError, match="douzero"):
            bot.act(game.observation(), game.legal_actions())
    # DouZero's moves under other bidding or scoring options are played
    game = ddz.Game(dataclasses.replace(DOUZERO, doubling=not DOUZERO.doubling), seed=2)
    play_hand(game, [bot] * 3)


def test_bad_models(tmp_path, model):
    with pytest.raises(CheckpointError, match="no such folder"):
        NeuralBot(tmp_path / "missing")
    with pytest.raises(CheckpointError, match="landlord_up"):
        NeuralBot({"landlord": model / "landlord.ckpt"})
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CheckpointError, match="no checkpoint for landlord, landlord_down, landlord_up"):
        NeuralBot(empty)
    with pytest.raises(CheckpointError, match="folder"):
        NeuralBot(12)
    # wrong shapes: a farmer's network as the landlord's; a layer missing
    swapped = tmp_path / "swapped"
    swapped.mkdir()
    for p in POSITIONS:
        (swapped / f"{p}.ckpt").write_bytes((model / "landlord_up.ckpt").read_bytes())
    with pytest.raises(CheckpointError, match=r"dense1.weight has shape \(512, 612\)"):
        NeuralBot(swapped)
    good = NeuralBot(model).nets[0].state
    with pytest.raises(CheckpointError, match="missing"):
        DouZeroNet({k: v for k, v in good.items() if k != "dense3.bias"}, 0)
    with pytest.raises(CheckpointError, match="not finite"):
        DouZeroNet({**good, "dense2.bias": np.full(512, np.nan, np.float32)}, 0)
    with pytest.raises(CheckpointError, match="ships no model|landlord"):
        if not (pathlib.Path(ddz.neural.SHIPPED_MODEL) / "landlord.ckpt").exists():
            NeuralBot()
        else:
            raise CheckpointError("landlord")


def test_train_py_folders_take_the_newest_weights(tmp_path, model):
    out = tmp_path / "douzero_run"
    out.mkdir()
    for p in POSITIONS:
        for frames in (100, 2000, 300):
            (out / f"{p}_weights_{frames}.ckpt").write_bytes((model / f"{p}.ckpt").read_bytes())
    files = douzero_files(out)
    assert {p: f.name for p, f in files.items()} == {p: f"{p}_weights_2000.ckpt" for p in POSITIONS}
    assert isinstance(make_neural_bot(str(out), 3), NeuralBot)


@pytest.mark.skipif(NO_EXTENSIONS, reason="the batched form reads the compiled vector")
def test_the_batched_form_equals_the_single_one(model):
    """act_vector on a CVectorGame: for each game in its play phase the action act chooses
    on the same game (PyVectorGame's, stepped alike); -1 in the auction."""
    from ddz.envs import CVectorGame, PyVectorGame
    bot = NeuralBot(model)
    n = 16
    c, py = CVectorGame(n, DOUZERO, seed=5), PyVectorGame(n, DOUZERO, seed=5)
    rng = np.random.default_rng(0)
    checked = waiting = 0
    for _ in range(40):
        mine = bot.act_vector(c)
        assert mine.dtype == np.int32 and mine.shape == (n,)
        ids, off = c.legal_ids()
        pick = ids[off[:-1] + (rng.random(n) * np.diff(off)).astype(np.int64)]
        for i, game in enumerate(py.games):
            if game.phase != ddz.Phase.PLAYING:
                assert mine[i] == -1
                waiting += 1
                continue
            want = bot.act(game.observation(), game.legal_actions())
            assert c.actions.space.play(int(mine[i])).counts == want.counts
            checked += 1
        pick = np.where(mine >= 0, mine, pick)
        c.step(pick)
        py.step(pick)
    assert checked > 400 and waiting > 20
    with pytest.raises(DdzError, match="douzero"):
        bot.act_vector(CVectorGame(2, ddz.STANDARD))


def test_the_bot_imports_no_torch(model):
    """torch blocked by an import hook: the bot loads, plays and never asks for it."""
    code = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "torch" or name.startswith("torch."):
                    raise ImportError("torch is blocked")
        sys.meta_path.insert(0, Block())
        import ddz
        from ddz.search.bots import play_hand
        bot = ddz.NeuralBot({str(model)!r})
        game = ddz.Game(ddz.Rules.profile("douzero"), seed=1)
        play_hand(game, [bot] * 3)
        assert game.phase == "over"
        assert not any(m == "torch" or m.startswith("torch.") for m in sys.modules)
        print("ok")
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_readme_block_runs(model, capsys):
    """README's "DouZero's networks, without torch" block, on the random model, 3 deals."""
    pytest.importorskip("douzero.evaluation.rlcard_agent")
    from conftest import readme_code
    code = readme_code("DouZero's networks, without torch")
    assert '"baselines/douzero_ADP"' in code and "deals=2000" in code
    code = code.replace('"baselines/douzero_ADP"', repr(str(model))).replace("deals=2000", "deals=3")
    exec(compile(code, "README.md", "exec"), {})
    wp = float(capsys.readouterr().out.split()[0])
    assert 0 <= wp <= 1
