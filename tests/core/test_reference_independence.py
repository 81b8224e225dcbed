"""The reference is an oracle on its own: with every function of the core, the tables and
the chooser replaced by one that raises, it answers the worked examples of RULES.md §8
and a few hundred random positions exactly as before (issue "An oracle that cannot be
fooled"). Runs in both legs (with and without the compiled modules)."""

import importlib
import sys

import numpy as np
import pytest

import ddz
from ddz import REPEAT_KICKERS as REPEAT, STANDARD
from ddz.core import reference
from conftest import deal, play_from

#: RULES.md §8, the three-player rows: (function name, args)
EXAMPLES = [
    ("classify", ("33334444",)), ("classify", ("333444555666",)), ("classify", ("3334445",)),
    ("classify", ("JQKA2",)), ("classify", ("4444BR",)), ("classify", ("4444B5",)),
    ("classify", ("444455",)), ("classify", ("444455", REPEAT)),
    ("classify", ("33344455",)), ("classify", ("33344455", REPEAT)),
    ("classify", ("34445555",)), ("classify", ("666777BR",)),
    ("count_legal_moves", ("33344455",)), ("count_legal_moves", ("33344455", None, REPEAT)),
    ("legal_moves", ("666777888999", "333444555JQK", REPEAT)),
    ("classify", ("44445566",)), ("classify", ("BR",)),
    ("beats", ("3333", "444456")), ("beats", ("44445566", "3333")), ("beats", ("45678", "345678")),
    ("legal_moves", ("BR", "2222")), ("legal_moves", ("3",)), ("legal_moves", ("33", "4")),
    ("legal_moves", ("2222", "33334444")), ("legal_moves", ("333334",)),
    ("readings", ("333444+56",)), ("parse_play", ("333444+55", REPEAT)), ("parse_play", ("333+",)),
    ("all_plays", (STANDARD,)), ("all_plays", (REPEAT,)),
]


def _answer(fn, args):
    """A comparable outcome: the value, or the exception class and message."""
    try:
        value = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the class and message are what is compared
        return ("raised", type(exc), str(exc))
    if isinstance(value, list):
        return ("value", [(p.code, str(p)) if isinstance(p, ddz.Play) else p for p in value])
    if isinstance(value, ddz.Play):
        return ("value", value.code, str(value), value.type)
    return ("value", value)


def _positions():
    rng = np.random.default_rng(31)
    out = []
    for i in range(300):
        rules = REPEAT if i % 3 else STANDARD
        hand, rest = deal(rng, int(rng.integers(1, 21)))
        beat = None if i % 2 else play_from(rng, rest, rules)
        out.append((hand, beat, rules))
        out.append((ddz.format_cards(hand), None if beat is None else str(beat), rules))
    return out


def _raiser(name):
    def boom(*args, **kwargs):
        raise AssertionError(f"the reference called {name}")
    return boom


def _poison(monkeypatch):
    """Replace every function and class of the core, the tables and the chooser (and the
    classifier the chooser registered for Play.parse) by one that raises."""
    names = ["ddz.core", "ddz.core.tables", "ddz.core.compiled", "ddz.core._core", "ddz.game._actions", "ddz.game.actions",
             "ddz.game.encoding", "ddz.game.action_arguments"]
    poisoned = 0
    for modname in names:
        if modname in ("ddz.core.compiled", "ddz.core._core", "ddz.game._actions") and modname not in sys.modules:
            continue   # the pure-Python leg: they cannot even be imported
        module = importlib.import_module(modname)
        for attr, value in list(vars(module).items()):
            if callable(value) and not attr.startswith("__") and getattr(value, "__module__", modname) == modname:
                monkeypatch.setattr(module, attr, _raiser(f"{modname}.{attr}"))
                poisoned += 1
    monkeypatch.setattr(ddz.core.play, "_ENGINE_READINGS", _raiser("the chooser's classifier"))
    monkeypatch.setattr(ddz.core.play, "_ENGINE_PARSE", _raiser("the chooser's notation reader"))
    monkeypatch.setattr(ddz.core.play, "_ENGINE_MEMO", _raiser("the chooser's texts read"))
    monkeypatch.setattr(ddz.core.play, "_BY_NOTATION", {})
    for cached in (reference._universe, reference._by_cards, reference._index):
        cached.cache_clear()     # rebuilt under the poison, not remembered from before
    for attr in ("classify", "readings", "beats", "legal_moves", "count_legal_moves", "all_plays",
                 "legal_moves_array"):
        monkeypatch.setattr(ddz, attr, _raiser(f"ddz.{attr}"))
    return poisoned


def test_reference_answers_alone(monkeypatch):
    examples_before = [_answer(getattr(reference, f), a) for f, a in EXAMPLES]
    positions = _positions()
    moves_before = [_answer(reference.legal_moves, p) for p in positions]
    assert sum(1 for a in moves_before if a[0] == "value") == len(positions)
    assert any(a[0] == "raised" for a in examples_before)       # the error rows of §8

    poisoned = _poison(monkeypatch)
    assert poisoned >= 10
    with pytest.raises(AssertionError, match="the reference called|the chooser's"):
        ddz.Play.parse("333")                                    # the poison works
    assert [_answer(getattr(reference, f), a) for f, a in EXAMPLES] == examples_before
    assert [_answer(reference.legal_moves, p) for p in positions] == moves_before
