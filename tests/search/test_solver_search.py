"""The compiled endgame search's shortcuts (issue 12) against the core's move generator:
its cheap forced-pass and go-out tests and its packed play counts. A forced pass it
claims wrongly would make the solver wrong, so every claim is checked against the full
move list. Compiled only (listed in conftest's ``collect_ignore`` under
``DDZ_NO_EXTENSIONS=1``); the solver's answers are compared with the reference minimax
in test_solver.py in both legs."""

import numpy as np
import pytest

import ddz
from conftest import CARDS, RULE_IDS, RULESETS


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_search_cheap_tests_against_the_move_generator(rules):
    """The search's shortcuts against the full move list: a forced pass only when just the
    pass answers; going out at once exactly when the whole hand is one legal play; the
    packed play counts equal the core's."""
    from ddz.search import _solver
    s = _solver.Searcher(1)
    s.reset(rules, 2, 0, False)
    plays = ddz.all_plays(rules)
    for p in plays:
        a, b, _, _ = _solver._packed(p.code, [0] * 15)
        assert a == b == sum(c << (4 * r) for r, c in enumerate(p.counts)), str(p)
    rng = np.random.default_rng(31)
    forced = outs = 0
    for _ in range(1500):
        k = int(rng.integers(1, 13 if rng.random() < 0.5 else 5))
        hand = np.bincount(rng.permutation(CARDS)[:k], minlength=15).tolist()
        beat = None if rng.random() < 0.3 else plays[int(rng.integers(len(plays)))]
        code = beat.code if beat is not None else 0
        moves = ddz.legal_moves(hand, beat, rules) if beat is None or all(
            h + c <= lim for h, c, lim in zip(hand, beat.counts, [4] * 13 + [1, 1])) else None
        if moves is None:
            continue
        other = [0] * 15
        other[next(r for r in range(15) if hand[r] < (4 if r < 13 else 1))] = 1
        f, g = s.cheap_tests([hand, other], 0, code)
        if f:
            forced += 1
            assert moves == [ddz.PASS], (hand, str(beat))
        one_play = any(sum(m.counts) == k for m in moves if m)
        assert bool(g) == one_play, (hand, str(beat))
        outs += bool(g)
    assert forced > 50 and outs > 50
