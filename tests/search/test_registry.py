"""The one registry of bots and its spec grammar (issue 40 item 2): every built-in by the same
name through make_bot, the CLI, ddz.distributed and the arena; options typed and checked;
py:/cmd:/bare module:Name; the frozen expert-2026-12."""

import hashlib
import importlib.util
import json
import pathlib

import pytest

import ddz
from ddz import distributed
from ddz.arena import bot_spec, run
from ddz.cli.options import _bot_names, split_bot_specs
from ddz.search import registry
from ddz.search.bots import make_bot, play_hand
from ddz.search.expert_2026_12 import ExpertBot202612

BUILTINS = ["random", "greedy", "solver", "expert", "expert-2026-12", "douzero-rlcard", "douzero-random"]
HAS_DOUZERO = importlib.util.find_spec("douzero") is not None


def test_the_builtins_are_registered():
    assert registry.names()[:len(BUILTINS)] == BUILTINS


@pytest.mark.parametrize("name", BUILTINS)
def test_every_builtin_by_the_same_name_everywhere(name, run_cli):
    if name.startswith("douzero") and not HAS_DOUZERO:
        pytest.skip("douzero is not installed")
    bot = make_bot(name, 1)
    assert type(bot) is type(bot_spec(name).make(1)) and callable(bot.act)
    assert _bot_names(name) == [name] and _bot_names(name.upper() + ",greedy,random")[0] == name
    records = distributed.selfplay(1, seed=3, bots=[name] * 3)
    assert records[0]["result"] is not None
    code, out, _ = run_cli("selfplay", "--bots", name, "--games", "1", "--seed", "3", "--quiet")
    assert code == 0 and f"seat 0 ({name})" in out
    r = run([name, "random"], deals=1, seed=2)
    assert r.bots[0]["name"] == name and r.deals == 1 and not r.forfeits


def test_options_are_typed_and_checked():
    spec = registry.parse_spec("Expert: samples=4 , threshold=20")
    assert spec.options == (("samples", 4), ("threshold", 20)) and spec.text == "expert:samples=4,threshold=20"
    assert registry.parse_spec(spec.text) == spec
    bot = make_bot(spec.text, 1)
    assert (bot.samples, bot.threshold) == (4, 20)
    for text, match in [("expert:depth=3", r"no option 'depth'; its options: budget, probe, probes, samples, node_limit, threshold"),
                        ("greedy:x=1", "its options: none"), ("expert:samples=four", "samples is an int"),
                        ("expert:samples=0", "from 1 to"), ("expert:samples=1,samples=2", "twice"),
                        ("expert:samples", "key=value"), ("nobody", "unknown bot 'nobody'"),
                        (3, "a bot spec is a str"), ("", "printable"), ("greedy\x1b[31m", "printable")]:
        with pytest.raises(ddz.DdzError, match=match):
            registry.parse_spec(text)


def test_a_positional_argument_and_later_registrations():
    made = []

    def factory(directory, depth=1, fast=False, seed=None):
        made.append((directory, depth, fast, seed))
        return ddz.GreedyBot()

    registry.register("dirbot", factory, positional="directory",
                      options={"depth": registry.Option(int, "plies", 1, 9), "fast": bool})
    try:
        spec = registry.parse_spec("dirbot:/tmp/m:odel,fast=yes,depth=2")
        assert (spec.positional, spec.options) == ("/tmp/m:odel", (("depth", 2), ("fast", True)))
        assert spec.text == "dirbot:/tmp/m:odel,depth=2,fast=true"
        make_bot(spec.text, 5)
        assert made == [("/tmp/m:odel", 2, True, 5)]
        with pytest.raises(ddz.DdzError, match="needs its directory"):
            registry.parse_spec("dirbot:depth=2")
        with pytest.raises(ddz.DdzError, match="registered already"):
            registry.register("dirbot", factory)
        # a check, called by check_spec with the positional argument, before any bot is made
        checked = []

        def check(directory):
            checked.append(directory)
            if directory == "/missing":
                raise ddz.DdzError("no such folder")
        registry.register("dirbot", factory, positional="directory", check=check, replace=True)
        assert registry.check_spec("dirbot:/tmp/x").positional == "/tmp/x" and checked == ["/tmp/x"]
        with pytest.raises(ddz.DdzError, match="no such folder"):
            registry.check_spec("dirbot:/missing")
        with pytest.raises(ddz.DdzError, match="bot check"):
            registry.register("dirbot", factory, check=3, replace=True)
    finally:
        registry.unregister("dirbot")
    for bad in ("py", "cmd", "Upper", "", "a b"):
        with pytest.raises(ddz.DdzError, match="bot name"):
            registry.register(bad, factory)


@ddz.bot_factory
def declared_factory(seed=None):
    return ddz.RandomBot(seed)


def not_declared(seed=None):
    return ddz.RandomBot(seed)


def test_python_specs_are_checked_up_front():
    here = __name__
    assert isinstance(make_bot(f"py:{here}:declared_factory", 1), ddz.RandomBot)
    assert registry.parse_spec("ddz:GreedyBot").text == "py:ddz:GreedyBot"      # the bare module:Name
    assert registry.parse_spec("expert:samples=2").kind == "builtin"            # not a module 'expert'
    for text, match in [("os:system", "neither a bot class"), (f"py:{here}:not_declared", "neither"),
                        (":Class", "the module is missing"), ("py:ddz:", "the class or factory is missing"),
                        ("py:ddz:Play", "class Play has no act"), ("py:no_such_module:Bot", "cannot import"),
                        ("py:ddz:NoSuch", "has no"), ("cmd:", "needs a program")]:
        with pytest.raises(ddz.DdzError, match=match):
            registry.check_spec(text)
    for bots in (["os:system", "greedy"], [":Class", "greedy"]):        # before any table is played
        with pytest.raises(ddz.DdzError):
            run(bots, deals=1)
    with pytest.raises(ddz.DdzError, match="arena"):
        make_bot("cmd:./mybot")


def test_bots_options_continue_the_spec_before():
    assert split_bot_specs("expert:samples=4,threshold=20,greedy,py:m:B") == \
        ["expert:samples=4,threshold=20", "greedy", "py:m:B"]


# -- the frozen expert --------------------------------------------------------------------

FROZEN = pathlib.Path(ddz.__file__).parent / "search" / "expert_2026_12.py"
#: never change these two: expert-2026-12 is the fixed opponent of strength figures over time
FROZEN_SHA256 = "069b5c8e6b65b37686fdfa23759b3ddb75513e34d4a6198f85621424ef121320"
FROZEN_PLAY = "a017fb91a2299ce6674ac1dfe93077cd3a58714d3e59955c4d391b0a368bec37"


def _actions(cls, seeds=range(4)):
    return [play_hand(ddz.Game(seed=s), [cls(seed=10 * s + i) for i in range(3)]).to_record()["actions"]
            for s in seeds]


def test_expert_2026_12_is_frozen():
    assert hashlib.sha256(FROZEN.read_bytes()).hexdigest() == FROZEN_SHA256, "expert_2026_12.py is frozen: never edit it"
    assert hashlib.sha256(json.dumps(_actions(ExpertBot202612)).encode()).hexdigest() == FROZEN_PLAY


def test_later_work_registers_into_the_registry(tmp_path):
    """``douzero:DIR`` (a DouZero model folder run by NeuralBot) and OpenSpiel's searchers
    are registered bots: one name for make_bot and the arena, options checked."""
    import numpy as np
    from ddz.neural import NeuralBot, douzero_shapes, save_checkpoint
    folder = tmp_path / "baseline"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for k, position in enumerate(("landlord", "landlord_up", "landlord_down")):
        state = {n: rng.uniform(-0.05, 0.05, s).astype(np.float32) for n, s in douzero_shapes(k).items()}
        save_checkpoint(state, folder / f"{position}.ckpt")
    spec = registry.parse_spec(f"douzero:{folder}")
    assert spec.positional == str(folder) and registry.parse_spec(spec.text) == spec
    assert isinstance(make_bot(spec.text, 1), NeuralBot)
    with pytest.raises(ddz.DdzError, match="no such folder"):
        make_bot(f"douzero:{tmp_path / 'missing'}", 1)
    assert {"openspiel-mcts", "openspiel-ismcts"} <= set(registry.names())
    with pytest.raises(ddz.DdzError, match="no option 'depth'"):
        registry.parse_spec("openspiel-ismcts:depth=3")
    if importlib.util.find_spec("pyspiel") is None:
        return   # the rest needs open_spiel
    bot = make_bot("openspiel-ismcts:simulations=5", 1)
    assert bot.simulations == 5 and type(bot) is type(bot_spec("openspiel-ismcts:simulations=5").make(1))
    r = run(["openspiel-mcts:simulations=3", "random"], deals=1, seed=2)
    assert r.bots[0]["name"] == "openspiel-mcts:simulations=3" and not r.forfeits


def test_the_command_refuses_nonsense_bots_before_playing(run_cli):
    """``ddz arena os:system greedy`` ran as a match with exit status 0; ``:Class`` gave a traceback."""
    for bot, match in (("os:system", "neither a bot class"), (":Class", "the module is missing")):
        code, out, err = run_cli("arena", bot, "greedy", "--deals", "1")
        assert code == 2 and err.startswith("ddz: error: ") and match in err and out == ""
