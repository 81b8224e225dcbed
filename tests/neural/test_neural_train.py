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
