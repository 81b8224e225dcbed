"""ddz.train.dmc (issue 43 item 3): a tiny run writes DouZero-format weights that NeuralBot
plays, and a resumable state; a second run resumes from it. Skips without torch."""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz import DdzError
from ddz.core.implementation import NO_EXTENSIONS
from ddz.neural import NeuralBot, douzero_files, load_checkpoint
from ddz.search.bots import play_hand

pytestmark = pytest.mark.skipif(NO_EXTENSIONS, reason="training steps the compiled vector")


def test_a_tiny_run_then_its_resumption(tmp_path):
    torch = pytest.importorskip("torch")
    from ddz.train import dmc
    lines = []
    r = dmc(tmp_path, 96, num_envs=8, batch_size=32, save_every=64, seed=3, log=lines.append)
    assert r["frames"] >= 96 and r["hands"] > 0 and lines
    files = douzero_files(tmp_path)
    assert all(f.name.endswith(f"_weights_{r['frames']}.ckpt") for f in files.values())
    state = torch.load(tmp_path / "dmc_state.pt", weights_only=True)
    assert state["frames"] == r["frames"] and state["format"] == "ddz-dmc-1"
    mine = load_checkpoint(files["landlord_up"])
    assert all(np.array_equal(mine[k], v.numpy()) for k, v in state["models"]["landlord_up"].items())
    bot = NeuralBot(tmp_path)
    game = ddz.Game(ddz.Rules.profile("douzero"), seed=1)
    play_hand(game, [bot] * 3)
    assert game.phase == ddz.Phase.OVER
    again = dmc(tmp_path, r["frames"] + 64, num_envs=8, batch_size=32, save_every=64, seed=3, log=None)
    assert again["frames"] >= r["frames"] + 64
    assert torch.load(tmp_path / "dmc_state.pt", weights_only=True)["hands"] > state["hands"]


def test_bad_arguments(tmp_path):
    pytest.importorskip("torch")
    from ddz.train import dmc
    for kwargs, text in [({"num_envs": 0}, "num_envs"), ({"objective": "x"}, "objective"),
                         ({"epsilon": 2.0}, "epsilon"), ({"batch_size": 1.5}, "batch_size")]:
        with pytest.raises(DdzError, match=text):
            dmc(tmp_path, 10, **kwargs)
    (tmp_path / "dmc_state.pt").write_bytes(b"")
    with pytest.raises(DdzError, match="training state"):
        dmc(tmp_path, 10)


def test_ship_model_records_the_training_state(tmp_path):
    """tools/ship_model.py on a ddz.train folder: MODEL.json takes the hands, the settings and
    the command from dmc_state.pt (read with torch)."""
    pytest.importorskip("torch")
    import json
    from ddz.train import dmc
    from test_neural_shipped import _ship_tool
    r = dmc(tmp_path / "run", 64, num_envs=8, batch_size=32, save_every=64, seed=5, log=None)
    out = tmp_path / "neural"
    assert _ship_tool().main([str(tmp_path / "run"), "--out", str(out), "--decisions", "10", "--cpu-hours", "0.5"]) == 0
    info = json.loads((out / "MODEL.json").read_text())
    assert (info["frames"], info["hands"], info["cpu_hours"], info["objective"]) == (r["frames"], r["hands"], 0.5, "wp")
    assert info["training_command"].startswith("python -m ddz.train ") and "--batch-size 32 " in info["training_command"]
    assert NeuralBot(out).nets[2].state["dense6.weight"].shape == (1, 512)


def test_a_run_starts_from_a_model_folder(tmp_path):
    """``init=``: a run with no state starts from a model folder's weights (float16 ones
    too, as shipped) and counts frames on from its MODEL.json; a folder of the wrong shapes
    is a DdzError."""
    torch = pytest.importorskip("torch")
    import json
    from ddz.neural import save_checkpoint
    from ddz.train import dmc
    from ddz.train.dmc import _init_from, _net
    r = dmc(tmp_path / "a", 64, num_envs=8, batch_size=32, save_every=64, seed=5, log=None)
    model = tmp_path / "model"
    model.mkdir()
    for p, f in douzero_files(tmp_path / "a").items():
        save_checkpoint(load_checkpoint(f), model / f"{p}.ckpt", dtype="float16")
    (model / "MODEL.json").write_text(json.dumps({"frames": 1000, "hands": 7}))
    nets = [_net(torch, k) for k in range(3)]
    assert _init_from(torch, nets, model) == (1000, 7)
    half = load_checkpoint(model / "landlord.ckpt")
    assert all(np.array_equal(v.numpy(), half[n]) for n, v in nets[0].state_dict().items())
    again = dmc(tmp_path / "b", 1064, num_envs=8, batch_size=32, save_every=64, seed=5, log=None, init=model)
    assert again["frames"] >= 1064 - 1000 and r["frames"] > 0
    assert torch.load(tmp_path / "b" / "dmc_state.pt", weights_only=True)["frames"] >= 1064
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    for p, f in douzero_files(tmp_path / "a").items():       # every seat given the landlord's net
        save_checkpoint(load_checkpoint(douzero_files(tmp_path / "a")["landlord"]), wrong / f"{p}.ckpt")
    with pytest.raises(DdzError, match="does not hold"):
        dmc(tmp_path / "c", 64, num_envs=8, batch_size=32, seed=5, log=None, init=wrong)
