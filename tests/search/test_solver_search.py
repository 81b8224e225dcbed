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


def _searcher_solve(s, pos, features, all_moves):
    s.reset(pos.rules, len(pos.hands), pos.landlord, False, 0, features)
    tb = pos.to_beat
    return s.solve(pos.hands, pos.to_move, 0 if tb is None else tb.code,
                   -1 if pos.last_player is None else pos.last_player, 0, False, all_moves, None, 0.0)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_proof_number_search_gives_the_alpha_beta_answer(rules):
    """Win mode by df-pn (FEAT_DFPN, with and without its options) against alpha-beta:
    the same value, reported moves and principal variation on random two- and
    three-player positions of up to 20 cards (any seat to move, after a play too), and
    the reference minimax's value and winning moves on small ones."""
    from ddz.search import _solver
    from ddz.search.reference_solver import ref_solve
    s = _solver.Searcher(8)
    rng = np.random.default_rng(4141 + (rules is RULESETS[1]))
    variants = (3 | 4, 3 | 4 | 8 | 16 | 32, 1 | 4)
    checked = 0
    for i in range(90):
        seats = 2 if i % 5 == 0 else 3
        total = int(rng.integers(seats + 1, 21 if i % 3 else 11))
        while True:
            cuts = sorted(rng.choice(np.arange(1, total), size=seats - 1, replace=False).tolist())
            parts = np.split(rng.permutation(CARDS)[:total], cuts)
            if max(len(x) for x in parts) <= 20:
                break
        hands = [np.bincount(x, minlength=15).tolist() for x in parts]
        pos = ddz.Position(hands, landlord=int(rng.integers(seats)), to_move=int(rng.integers(seats)),
                           rules=rules)
        moves = [m for m in pos.legal_moves() if m]
        if i % 2 and moves:                    # a position with a play to beat
            m = moves[int(rng.integers(len(moves)))]
            if sum(m.counts) < pos.cards_left[pos.to_move]:
                pos = pos.after(m)
        all_moves = i % 4 == 0
        want = _searcher_solve(s, pos, 3, all_moves)
        for f in variants:
            assert _searcher_solve(s, pos, f, all_moves) == want, (str(pos), f)
        if total <= 9:
            ref = ref_solve(pos.hands, pos.landlord, pos.to_move, pos.to_beat, pos.last_player, rules)
            value, exact, codes, _ = _searcher_solve(s, pos, 3 | 4, True)
            assert exact and value == ref.value, str(pos)
            mover_wins = (value > 0) == (pos.to_move == pos.landlord)
            assert codes and sorted(codes) == sorted(p.code for p in ref.best) if mover_wins else codes == [], str(pos)
            checked += 1
    assert checked >= 10
