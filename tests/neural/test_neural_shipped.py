"""The shipped model (issue 43 item 4): tools/ship_model.py on a random model into a tmp
folder (float16 files, MODEL.json, the size bound, the float16/float32 agreement), the
registry's ``neural`` with no model shipped (a clear DdzError) and with one (it plays), and
the package's own model when there is one. No torch needed."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import pathlib
import sys

import numpy as np
import pytest

import ddz
import ddz.neural.bot
from ddz import CheckpointError, DdzError
from ddz.neural import NeuralBot, load_checkpoint, read_checkpoint
from ddz.search.bots import make_bot, play_hand
from ddz.search import registry
from test_neural_bot import POSITIONS, random_model

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _ship_tool():
    spec = importlib.util.spec_from_file_location("_ddz_tools_ship_model", ROOT / "tools" / "ship_model.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def train_dir(tmp_path_factory):
    """A training folder: two sets of random DouZero weights, at 100 and 2,000 frames."""
    folder = tmp_path_factory.mktemp("train")
    for frames, seed in ((100, 1), (2000, 2)):
        model = random_model(folder / f"m{frames}", seed=seed, action_scale=8.0)
        for p in POSITIONS:
            (folder / f"{p}_weights_{frames}.ckpt").write_bytes((model / f"{p}.ckpt").read_bytes())
    return folder


@pytest.fixture(scope="module")
def shipped(train_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("pkg") / "neural"
    tool = _ship_tool()
    assert tool.main([str(train_dir), "--out", str(out), "--decisions", "60", "--command", "python -m ddz.train x"]) == 0
    return out


def test_ship_model_writes_a_float16_model_and_its_record(train_dir, shipped, capsys):
    tool = _ship_tool()
    assert sorted(f.name for f in shipped.iterdir()) == ["MODEL.json", "landlord.ckpt", "landlord_down.ckpt",
                                                         "landlord_up.ckpt"]
    assert sum(f.stat().st_size for f in shipped.iterdir()) <= tool.LIMIT
    info = json.loads((shipped / "MODEL.json").read_text())
    assert info["frames"] == 2000 and info["training_command"] == "python -m ddz.train x"
    for p in POSITIONS:
        source = train_dir / f"{p}_weights_2000.ckpt"
        assert info["source"][p] == {"file": source.name, "sha256": hashlib.sha256(source.read_bytes()).hexdigest()}
        c = read_checkpoint(shipped / f"{p}.ckpt")
        assert c.dtype == "float16"
        want = load_checkpoint(source)
        assert all(np.array_equal(c.tensors[k], want[k].astype(np.float16).astype(np.float32)) for k in want)
    # the older set by --frames; its agreement check prints the rate
    out = shipped.parent / "older"
    assert tool.main([str(train_dir), "--frames", "100", "--out", str(out), "--decisions", "30"]) == 0
    assert json.loads((out / "MODEL.json").read_text())["frames"] == 100
    assert "agreement: " in capsys.readouterr().out


def test_ship_model_refuses(train_dir, tmp_path, monkeypatch, capsys):
    tool = _ship_tool()
    out = tmp_path / "neural"
    assert tool.main([str(train_dir), "--frames", "999", "--out", str(out)]) == 2
    assert tool.main([str(tmp_path / "missing"), "--out", str(out)]) == 2
    assert "no such training folder" in capsys.readouterr().err
    broken = tmp_path / "broken"
    broken.mkdir()
    for p in POSITIONS:
        (broken / f"{p}_weights_7.ckpt").write_bytes((train_dir / f"{p}_weights_100.ckpt").read_bytes()[:1000])
    assert tool.main([str(broken), "--out", str(out)]) == 2
    assert "landlord_weights_7.ckpt: the checkpoint is not a readable zip" in capsys.readouterr().err
    for f in broken.iterdir():
        f.unlink()
    broken.rmdir()
    # a check failing writes nothing
    monkeypatch.setattr(tool, "LIMIT", 1_000_000)
    assert tool.main([str(train_dir), "--out", str(out), "--decisions", "5"]) == 1
    assert not out.exists() and [f.name for f in tmp_path.iterdir()] == []
    assert "larger than 10 MB" in capsys.readouterr().out


def test_neural_without_a_shipped_model_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ddz.neural.bot, "SHIPPED_MODEL", tmp_path / "none")
    assert "neural" in registry.names()
    for make in (lambda: make_bot("neural", 1), lambda: NeuralBot(), lambda: registry.check_spec("neural")):
        with pytest.raises(DdzError, match="ships no model"):
            make()
    # the arena stops before any match (the registry's check), as for a missing folder
    from ddz.cli import main
    for bot, text in (("neural", "ships no model"), (f"douzero:{tmp_path / 'missing'}", "no such folder")):
        assert main(["arena", bot, "random", "--deals", "1"]) == 2
        assert text in capsys.readouterr().err


def test_neural_plays_the_shipped_model(shipped, monkeypatch):
    monkeypatch.setattr(ddz.neural.bot, "SHIPPED_MODEL", shipped)
    assert registry.check_spec("neural").name == "neural"
    bot = make_bot("neural", 1)
    assert isinstance(bot, NeuralBot) and bot.nets[0].state["dense1.weight"].dtype == np.float32
    game = ddz.Game(ddz.Rules.profile("douzero"), seed=4)
    play_hand(game, [bot, make_bot("random", 2), bot])
    assert game.phase == ddz.Phase.OVER


def test_the_package_model():
    """The model in the package, when this build ships one: at most 10 MB with its record,
    float16, loaded by NeuralBot(); else NeuralBot() says no model is shipped."""
    folder = pathlib.Path(ddz.neural.bot.SHIPPED_MODEL)
    if not (folder / "landlord.ckpt").exists():
        with pytest.raises(CheckpointError, match="ships no model"):
            NeuralBot()
        return
    assert sum(f.stat().st_size for f in folder.iterdir()) <= 10_000_000
    info = json.loads((folder / "MODEL.json").read_text(encoding="utf-8"))
    assert info["frames"] > 0 and set(info["source"]) == set(POSITIONS)
    assert all(read_checkpoint(folder / f"{p}.ckpt").dtype == "float16" for p in POSITIONS)
    assert len(NeuralBot().nets) == 3
