"""Inputs of the compiled modules that crashed the interpreter once (exit 139), each run in
a subprocess of its own, and the happy path checked against :mod:`ddz.core.reference` so
that the kernel-safety tests cannot pass with everything raising. The garbage campaign
that found most of them: ``test_kernel_safety.py``."""

import textwrap

import pytest

import ddz.core.implementation  # noqa: E402

if ddz.core.implementation.NO_EXTENSIONS:
    pytest.skip("DDZ_NO_EXTENSIONS=1: the compiled modules are absent", allow_module_level=True)

import numpy as np  # noqa: E402

import ddz  # noqa: E402
from kernelrun import SEED, STRAIGHT_OF_ONE, _crash_message, _run  # noqa: E402


def _expect_raises(setup, expr, error):
    """Run ``setup`` then ``expr`` in a subprocess; ``expr`` must raise ``ddz.<error>``."""
    script = textwrap.dedent("""
        import faulthandler
        faulthandler.enable()
        import numpy as np
        import ddz
        import ddz.game._actions
        import ddz.core._core
        STRAIGHT_OF_ONE = {straight}
        {setup}
        try:
            result = {expr}
        except Exception as exc:
            print("RAISED", type(exc).__name__, isinstance(exc, ddz.{error}), flush=True)
        else:
            print("RETURNED", repr(result)[:300], flush=True)
    """).format(straight=STRAIGHT_OF_ONE, setup=setup, expr=expr, error=error)
    proc = _run(script, timeout=120)
    assert proc.returncode == 0, f"{expr} crashed: " + _crash_message(proc)
    out = proc.stdout.strip().splitlines()
    assert out and out[-1].startswith("RAISED") and out[-1].endswith("True"), \
        f"{expr}: expected ddz.{error}, got {out[-1:] or proc.stderr[-2000:]}"


REPEAT = 'table = ddz.core.tables.table(ddz.Rules(kickers="repeat"))'
DISTINCT = "table = ddz.core.tables.table(ddz.Rules())"
HAND17 = "hand = ddz.core.cards.to_counts('334455667789TJQKA')" + "\nassert int(hand.sum()) == 17"


def test_legal_codes_of_54_cards_raises():
    _expect_raises(REPEAT, "table.legal_codes(ddz.core.cards.deck_counts(1), 0)", "ImpossibleHandError")


def test_moves_of_54_cards_raises():
    _expect_raises(REPEAT, "table.moves(ddz.core.cards.deck_counts(1), 0)", "ImpossibleHandError")


@pytest.mark.parametrize("setup", [REPEAT, DISTINCT], ids=["repeat", "distinct"])
def test_moves_against_a_code_of_no_play_raises(setup):
    _expect_raises(setup + "\n" + HAND17, "table.moves(hand, STRAIGHT_OF_ONE)", "InvalidPlayError")


def test_legal_codes_batch_of_14_columns_raises():
    _expect_raises(REPEAT, "table.legal_codes_batch(np.zeros((3, 14), np.uint8), np.zeros(3, np.int64))",
                   "HandError")


def test_legal_masks_of_14_columns_raises():
    _expect_raises(REPEAT, "ddz.game._actions.legal_masks(table, np.zeros((2, 14), np.uint8), np.zeros(2, np.int32), "
                           "np.zeros((2, len(table)), bool), 1)", "HandError")


# -- inputs found by writing this file that crash (segfault) ---------------------------------

def test_legal_masks_with_ids_aliasing_the_mask_does_not_crash():
    """``tbs`` is a view of ``mask_arr``'s memory: valid (zeros) when checked, overwritten
    with mask bytes while the kernel runs, then read as ids (out of range). Refusing the
    overlap or returning are both fine: crashing is not."""
    script = textwrap.dedent("""
        import faulthandler
        faulthandler.enable()
        import numpy as np
        import ddz
        import ddz.game._actions

        table = ddz.core.tables.table(ddz.Rules())
        mask = np.zeros((2, len(table)), bool)
        tbs = mask.view(np.uint8).reshape(-1)[0:8].view(np.int32)
        hands = np.array([[1] * 14 + [0]] * 2, np.uint8)
        try:
            ddz.game._actions.legal_masks(table, hands, tbs, mask, 1)
        except Exception as exc:
            print("RAISED", type(exc).__name__)
        print("SURVIVED", flush=True)
    """)
    proc = _run(script, timeout=120)
    assert proc.returncode == 0 and "SURVIVED" in proc.stdout, _crash_message(proc)


def test_legal_masks_with_a_lying_array_subclass_does_not_crash():
    """An ndarray subclass whose ``view`` returns a smaller array than its shape says."""
    script = textwrap.dedent("""
        import faulthandler
        faulthandler.enable()
        import numpy as np
        import ddz
        import ddz.game._actions

        class Liar(np.ndarray):
            def view(self, *args, **kwargs):
                return np.zeros((1, self.shape[1]), np.uint8)

        table = ddz.core.tables.table(ddz.Rules())
        rows = 2000
        hands = np.zeros((rows, 15), np.uint8)
        hands[:, :5] = 1
        mask = np.zeros((rows, len(table)), bool).view(Liar)
        try:
            ddz.game._actions.legal_masks(table, hands, np.zeros(rows, np.int32), mask, 1)
        except Exception as exc:
            print("RAISED", type(exc).__name__)
        print("SURVIVED", flush=True)
    """)
    proc = _run(script, timeout=120)
    assert proc.returncode == 0 and "SURVIVED" in proc.stdout, _crash_message(proc)


@pytest.mark.parametrize("expr", [
    "t.index_of(0)",
    "t.legal_codes(np.zeros(15, np.uint8), 0)",
    "t.readings(np.zeros(15, np.uint8))",
    "t.beats(0, 0)",
    "t.ids_of_codes([1])",
    "t.count_legal_batch(np.zeros((1, 15), np.uint8), np.zeros(1, np.int64))",
])
def test_uninitialised_ruletable_does_not_crash(expr):
    """``RuleTable.__new__(RuleTable)`` (``__init__`` never run: NULL hash and codes)."""
    script = textwrap.dedent("""
        import faulthandler
        faulthandler.enable()
        import numpy as np
        import ddz.core._core
        t = ddz.core._core.RuleTable.__new__(ddz.core._core.RuleTable)
        try:
            {expr}
        except Exception as exc:
            print("RAISED", type(exc).__name__)
        print("SURVIVED", flush=True)
    """).format(expr=expr)
    proc = _run(script, timeout=60)
    assert proc.returncode == 0 and "SURVIVED" in proc.stdout, f"{expr}: " + _crash_message(proc)


# -- the solver's entry points that crashed before issue 26 ---------------------------------

@pytest.mark.parametrize("expr, error", [
    ("ddz.search._solver.Searcher(None, 1)", "TypeError"),
    ("ddz.search._solver.Searcher(None)", "TypeError"),
    ("s.ordered_moves(hands, -10**6, 0, -1)", "ValueError"),
    ("s.ordered_moves(hands, 5, 0, -1)", "ValueError"),
    ("s.value(hands, 0, 0, 7, 0, False)", "ValueError"),
    ("s.solve(hands, 2, 0, -1, 0, False)", "ValueError"),
    ("s.solve(hands, 0, STRAIGHT_OF_ONE, 1, 0, False)", "ValueError"),
    ("s.cheap_tests(hands, -3, 0)", "ValueError"),
    ("s.help(None)", "TypeError"),
    ("ddz.search._solver.Searcher(0).solve(hands, 0, 0, -1, 0, False)", "ValueError"),
])
def test_solver_entry_points_raise(expr, error):
    """``ddz.search._solver``'s Searcher checks its seats, codes, hands and table: these crashed
    the process (or read out of bounds) before."""
    script = textwrap.dedent("""
        import faulthandler
        faulthandler.enable()
        import ddz, ddz.search._solver
        STRAIGHT_OF_ONE = {straight}
        s = ddz.search._solver.Searcher(1)
        s.reset(ddz.Rules(), 2, 0, False)
        hands = [ddz.core.cards.to_counts("KK5543").tolist(), ddz.core.cards.to_counts("225543").tolist()]
        try:
            {expr}
        except Exception as exc:
            print("RAISED", type(exc).__name__, flush=True)
        else:
            print("RETURNED", flush=True)
    """).format(straight=STRAIGHT_OF_ONE, expr=expr)
    proc = _run(script, timeout=60)
    assert proc.returncode == 0, f"{expr}: " + _crash_message(proc)
    assert proc.stdout.split() == ["RAISED", error], proc.stdout + proc.stderr[-2000:]


# -- the happy path ------------------------------------------------------------------------

RULES = [ddz.Rules(), ddz.Rules(kickers="repeat"), ddz.Rules(banned={"TRIO_PAIR"})]


@pytest.mark.parametrize("rules", RULES, ids=["distinct", "repeat", "banned"])
def test_happy_path_matches_the_reference(rules):
    import ddz.game._actions as actions
    from ddz.core import reference

    table = ddz.core.tables.table(rules)
    rng = np.random.default_rng(SEED)
    deck_ranks = np.repeat(np.arange(15), ddz.core.cards.deck_counts(1))
    checked = 0
    for k in (17, 20, 17, 12, 5):
        hand = np.bincount(rng.permutation(deck_ranks)[:k], minlength=15).astype(np.uint8)
        expected = reference.legal_moves(hand, None, rules)
        assert expected
        np.testing.assert_array_equal(table.legal_codes(hand, 0),
                                      np.array([p.code for p in expected], dtype=np.int64))
        np.testing.assert_array_equal(actions.legal_ids_one(table, hand, 0),
                                      [table.index_of_play[p] for p in expected])
        assert table.moves(hand, 0) == expected
        assert table.count_legal(hand, 0) == len(expected)
        # responding to one of another hand's plays that fits beside this hand
        other = np.bincount(rng.permutation(deck_ranks)[:17], minlength=15).astype(np.uint8)
        for p in reference.legal_moves(other, None, rules)[::37]:
            if not table.fits(hand, p.code):
                continue
            expected = reference.legal_moves(hand, p, rules)
            np.testing.assert_array_equal(table.legal_codes(hand, p.code),
                                          np.array([q.code for q in expected], dtype=np.int64))
            np.testing.assert_array_equal(actions.legal_ids_one(table, hand, table.index_of_play[p]),
                                          [table.index_of_play[q] for q in expected])
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("rules", RULES, ids=["distinct", "repeat", "banned"])
def test_happy_path_batches_agree(rules):
    """The batch kernels (300 rows: the OpenMP path when built with it) agree with the
    one-position calls."""
    import ddz.game._actions as actions

    table = ddz.core.tables.table(rules)
    rng = np.random.default_rng(SEED + 1)
    deck_ranks = np.repeat(np.arange(15), ddz.core.cards.deck_counts(1))
    rows = 300
    hands = np.stack([np.bincount(rng.permutation(deck_ranks)[:k], minlength=15).astype(np.uint8)
                      for k in rng.integers(1, 21, rows)])
    tbs = np.zeros(rows, np.int32)
    expected = [actions.legal_ids_one(table, h, 0) for h in hands]
    for threads in (1, 2):
        ids, offsets = actions.legal_ids_csr(table, hands, tbs, threads)
        assert [ids[offsets[i]:offsets[i + 1]].tolist() for i in range(rows)] == [e.tolist() for e in expected]
        mask = np.zeros((rows, len(table)), bool)
        actions.legal_masks(table, hands, tbs, mask, threads)
        assert [np.flatnonzero(m).tolist() for m in mask] == [e.tolist() for e in expected]
    codes, offsets = table.legal_codes_batch(hands, np.zeros(rows, np.int64))
    assert [codes[offsets[i]:offsets[i + 1]].tolist() for i in range(rows)] == \
        [table.codes[e].tolist() for e in expected]
    np.testing.assert_array_equal(table.count_legal_batch(hands, np.zeros(rows, np.int64)),
                                  [len(e) for e in expected])
