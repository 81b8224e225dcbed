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


def test_rules_hash_is_recomputed_in_another_process():
    """Rules cache their hash; a pickle must not carry it to a process whose string
    hashes differ (Ray workers, multiprocessing)."""
    import os
    import pickle
    import subprocess
    import sys

    r = Rules(kickers="repeat", banned={"BOMB", "TRIO_PAIR"}, doubling=True)
    code = ("import pickle, sys, ddz; r = pickle.loads(sys.stdin.buffer.read()); "
            "s = ddz.Rules(kickers='repeat', banned={'BOMB', 'TRIO_PAIR'}, doubling=True); "
            "print(r == s, hash(r) == hash(s), r in {s}, ddz.core.tables.table(r) is ddz.core.tables.table(s))")
    res = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(r), capture_output=True,
                         env={**os.environ, "PYTHONHASHSEED": "12345"}, check=True)
    assert res.stdout.split() == [b"True"] * 4
    assert pickle.loads(pickle.dumps(r)) == r and hash(pickle.loads(pickle.dumps(r))) == hash(r)


def test_canonical_notation_parses_by_lookup_and_agrees_with_parsing(impl):
    for rules in (Rules(kickers="repeat"), Rules(banned={"TRIO_PAIR"})):
        for p in impl.all_plays(rules)[::97]:
            assert ddz.Play.parse(str(p), rules) == p == ddz.core.play.parse_with(str(p), rules, impl._readings)
    with pytest.raises(ddz.InvalidPlayError):
        ddz.Play.parse("333+55", Rules(banned={"TRIO_PAIR"}))
