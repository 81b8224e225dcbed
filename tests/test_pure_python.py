"""The pure-Python leg (``DDZ_NO_EXTENSIONS=1``): the compiled modules cannot be imported
at all, and the whole package works on the reference. Checked in a subprocess, so that it
runs in both legs of CI."""

import json
import os
import subprocess
import sys

import pytest

import ddz
from ddz.core.implementation import env_flag

SCRIPT = r"""
import json, sys
import numpy as np
import ddz
out = {"implementation": ddz.IMPLEMENTATION, "actions": ddz.game.actions.IMPLEMENTATION}
blocked = []
for name in ("ddz.core._core", "ddz.game._actions", "ddz.core.compiled"):
    try:
        __import__(name)
    except ImportError:
        blocked.append(name)
out["blocked"] = blocked
out["loaded"] = sorted(m for m in sys.modules if m in ("ddz.core._core", "ddz.game._actions", "ddz.core.compiled"))
out["classify"] = str(ddz.classify("33344456"))
out["moves"] = [str(p) for p in ddz.legal_moves("BR", "2222")]
out["count"] = ddz.count_legal_moves("33344455", rules=ddz.REPEAT_KICKERS)
space = ddz.ActionSpace(ddz.REPEAT_KICKERS)
out["space"] = [len(space), space.implementation, space.legal_ids("33344455").tolist()[:3]]
game = ddz.Game(seed=3)
ddz.search.bots.play_hand(game, [ddz.RandomBot(0), ddz.RandomBot(1), ddz.RandomBot(2)])
out["zero_sum"] = sum(game.result.scores)
out["table"] = type(ddz.core.tables.table(ddz.STANDARD)).__name__
print(json.dumps(out))
"""


def _run(flag):
    src = os.path.dirname(os.path.dirname(ddz.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("DDZ_NO_EXTENSIONS", None)
    if flag:
        env["DDZ_NO_EXTENSIONS"] = "1"
    res = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                         cwd=os.path.dirname(src), timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_pure_python_leg_runs_without_the_compiled_modules():
    out = _run(True)
    assert out["implementation"] == "reference" and out["actions"] == "reference"
    assert out["blocked"] == ["ddz.core._core", "ddz.game._actions", "ddz.core.compiled"] and out["loaded"] == []
    assert out["table"] == "PyTable"
    assert out["classify"] == "333444+56" and out["moves"] == ["pass", "BR"] and out["count"] == 19
    assert out["space"][:2] == [27472, "reference"] and out["zero_sum"] == 0


def test_both_legs_answer_alike():
    pure = _run(True)
    # this process (either leg) agrees with the pure-Python subprocess
    assert pure["classify"] == str(ddz.classify("33344456"))
    assert pure["count"] == ddz.count_legal_moves("33344455", rules=ddz.REPEAT_KICKERS)
    if ddz.core.implementation.NO_EXTENSIONS:
        return  # no compiled leg to compare with here
    core = _run(False)
    assert core["implementation"] == "core" and core["actions"] == "kernel" and core["blocked"] == []
    assert core["table"] == "RuleTable"
    for key in ("classify", "moves", "count", "zero_sum"):
        assert core[key] == pure[key], key
    assert core["space"][0] == pure["space"][0] and core["space"][2] == pure["space"][2]


# -- DDZ_NO_EXTENSIONS is a boolean (issue 16) -------------------------------------------

@pytest.mark.parametrize("value, on", [
    (None, False), ("", False), ("0", False), ("false", False), ("False", False), ("no", False),
    (" off ", False), ("1", True), ("true", True), ("TRUE", True), ("yes", True), ("on", True),
])
def test_env_flag_reads_booleans(value, on):
    assert env_flag("DDZ_NO_EXTENSIONS", value) is on


@pytest.mark.parametrize("value", ["2", "maybe", "y", "enable", "1.0", "-1"])
def test_env_flag_refuses_anything_else(value):
    with pytest.raises(ddz.DdzError, match=r"DDZ_NO_EXTENSIONS=.* is not a boolean"):
        env_flag("DDZ_NO_EXTENSIONS", value)


def _import_with(value):
    src = os.path.dirname(os.path.dirname(ddz.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("DDZ_NO_EXTENSIONS", None)
    if value is not None:
        env["DDZ_NO_EXTENSIONS"] = value
    return subprocess.run([sys.executable, "-c", "import ddz; print(ddz.IMPLEMENTATION)"], env=env,
                          capture_output=True, text=True, cwd=os.path.dirname(src), timeout=300)


def test_zero_and_false_mean_off():
    """The reported surprise: ``DDZ_NO_EXTENSIONS=0`` used to select the reference. Off
    values choose what an unset variable chooses (the compiled core when it is built)."""
    unset = _import_with(None)
    assert unset.returncode == 0, unset.stderr
    for value in ("0", "false", ""):
        res = _import_with(value)
        assert res.returncode == 0, res.stderr
        assert res.stdout == unset.stdout, value
    on = _import_with("yes")
    assert on.returncode == 0 and on.stdout.strip() == "reference"


def test_a_bad_value_is_an_error_at_import():
    res = _import_with("maybe")
    assert res.returncode != 0 and res.stdout == ""
    assert "DDZ_NO_EXTENSIONS='maybe' is not a boolean" in res.stderr


def test_the_deal_generators_unpickle_in_the_other_leg():
    """A pickled deal stream (or legacy Mersenne Twister) names no compiled module: the
    other leg unpickles it as its own twin, in the same state, drawing the same numbers."""
    import pickle
    from ddz.game.deal import legacy_rng, new_rng
    gens = [new_rng(2 ** 64 - 1), legacy_rng(11)]
    for g in gens:
        g.randrange(5)
    blob = pickle.dumps(gens)
    assert b"ddz.game._game" not in blob
    script = ("import pickle, sys, json\n"
              "gens = pickle.loads(bytes.fromhex(sys.argv[1]))\n"
              "print(json.dumps([[type(g).__name__, [g.randrange(1000) for _ in range(20)]] for g in gens]))\n")
    src = os.path.dirname(os.path.dirname(ddz.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    other = ddz.IMPLEMENTATION != "reference"
    env.pop("DDZ_NO_EXTENSIONS", None)
    if other:
        env["DDZ_NO_EXTENSIONS"] = "1"
    res = subprocess.run([sys.executable, "-c", script, blob.hex()], env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    (stream_type, stream_draws), (_, legacy_draws) = json.loads(res.stdout)
    assert stream_type == ("PyDealStream" if other else "DealStream")
    assert stream_draws == [gens[0].randrange(1000) for _ in range(20)]
    assert legacy_draws == [gens[1].randrange(1000) for _ in range(20)]


def test_a_missing_compiled_module_is_named_once():
    """A broken build (the compiled core missing) is an ImportError that says so once, even
    when the module that failed was imported by another compiled one."""
    script = ("import sys\n"
              "class Block:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'ddz.core._core':\n"
              "            raise ImportError('blocked on purpose')\n"
              "sys.meta_path.insert(0, Block())\n"
              "import ddz\n")
    env = {k: v for k, v in os.environ.items() if k != "DDZ_NO_EXTENSIONS"}
    res = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode != 0
    last = res.stderr.strip().splitlines()[-1]
    assert last.count("failed to import") == 1 and "blocked on purpose" in last, last
