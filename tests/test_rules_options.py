"""``ddz.Rules``: options, validation, and the shared move rules."""

import dataclasses

import pytest

import ddz
from ddz import DdzError, Rules


def test_move_rules_keep_only_what_decides_moves():
    a = Rules(kickers="repeat", bidding="rob", doubling=True, bottom_bonus=True)
    assert a.move_rules == Rules(kickers="repeat")
    assert a.move_rules is Rules(kickers="repeat").move_rules
    assert ddz.STANDARD.move_rules is Rules(doubling=True).move_rules
    assert a.move_rules is not ddz.STANDARD.move_rules


def test_game_options_do_not_change_moves(impl):
    plain, dressed = Rules(kickers="repeat"), Rules(kickers="repeat", bidding="rob", doubling=True)
    assert impl.legal_moves("33344455", None, dressed) == impl.legal_moves("33344455", None, plain)
    assert len(impl.all_plays(dressed)) == 27471


@pytest.mark.parametrize("kw", [{"kickers": "many"}, {"bidding": "auction"}, {"doubling": 1},
                                {"bottom_bonus": "yes"}])
def test_bad_options(kw):
    with pytest.raises(DdzError, match=next(iter(kw))):
        Rules(**kw)


def test_frozen_and_hashable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.kickers = "repeat"
    assert r.kickers == "distinct"
    assert len({Rules(), Rules(), Rules(kickers="repeat")}) == 2
