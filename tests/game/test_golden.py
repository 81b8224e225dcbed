"""Golden hands (issue 42): ``ddz.Game`` plays seeded hands of every rule set of
``tools/golden.py`` exactly as the files committed before ``game/`` was rebuilt say —
observations, legal actions, env ids, play ids, encoded observations, records and results
(one digest per hand). The suite replays a slice of 500 hands spread over the rule sets;
``-m slow`` replays all 10,000 of each. A difference prints the hand and both lines;
``python3 tools/golden.py --check --only NAME`` finds it again."""

from __future__ import annotations

import importlib.util
import itertools
import pathlib

import pytest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "golden.py"
_spec = importlib.util.spec_from_file_location("ddz_golden_tool", TOOL)
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

SETS = golden.rule_sets()
SLICE = 500 // len(SETS) + 1
"""Hands per rule set in the suite: 500 in all."""


def _check(name: str, hands: int) -> None:
    rules = SETS[name]
    lines = list(itertools.islice(golden.read(name), hands))
    assert len(lines) == hands, f"{name}: the golden file holds {len(lines)} hands"
    for line in lines:
        got, _ = golden.play_hand(rules, line["hand"])
        assert got == line, f"{name} hand {line['hand']}"


@pytest.mark.parametrize("name", list(SETS))
def test_golden_slice(name):
    _check(name, SLICE)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SETS))
def test_golden_every_hand(name):
    _check(name, 10_000)


def test_a_changed_hand_is_seen():
    """The digest covers the play: another chooser's hand does not match the file."""
    line = next(golden.read("standard"))
    got, parts = golden.play_hand(SETS["standard"], line["hand"] + 1)
    assert got["digest"] != line["digest"] and len(parts) > 10
