"""Property tests (hypothesis) of the legal-move generators against classify + beats.

* soundness: every move returned is a play, formed from the hand, beats the play to beat
  (or is the pass when responding), and appears once;
* completeness: for small hands, every sub-multiset of the hand that classifies as a play
  beating the play to beat is returned.
"""

import itertools

from hypothesis import HealthCheck, given, settings, strategies as st

import ddz
from ddz import PASS
from ddz.core.reference import _readings, _beats
from conftest import CARDS, RULESETS

DECK = CARDS.tolist()   # the 54 cards as ranks


def counts_of(cards):
    c = [0] * 15
    for r in cards:
        c[r] += 1
    return tuple(c)


@st.composite
def positions(draw, max_hand=20):
    """(hand counts, play to beat or None, rules): the play to beat is formed from cards
    outside the hand, so the position is possible."""
    rules = draw(st.sampled_from(RULESETS))
    order = draw(st.permutations(range(len(DECK))))
    size = draw(st.integers(1, max_hand))
    hand = counts_of(DECK[i] for i in order[:size])
    rest = counts_of(DECK[i] for i in order[size:])
    to_beat = None
    if draw(st.booleans()):
        candidates = ddz.core.reference._legal_moves(rest, None, rules)
        # favour long and rare types: pick the type first, then a play of it
        types = sorted({p.type for p in candidates})
        t = draw(st.sampled_from(types))
        to_beat = draw(st.sampled_from([p for p in candidates if p.type == t]))
    return hand, to_beat, rules


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(positions())
def test_moves_are_sound(impl, pos):
    hand, to_beat, rules = pos
    moves = impl.legal_moves(hand, to_beat, rules)
    assert len(set(moves)) == len(moves)
    assert impl.count_legal_moves(hand, to_beat, rules) == len(moves)
    if to_beat is None:
        assert PASS not in moves and moves
    else:
        assert moves[0] == PASS and PASS not in moves[1:]
    for m in moves:
        if not m:
            continue
        assert all(m.counts[r] <= hand[r] for r in range(15))
        assert impl.classify(m.counts, rules) == m
        if to_beat is not None:
            assert impl.beats(m, to_beat, rules)


def sub_multisets(hand):
    for combo in itertools.product(*(range(c + 1) for c in hand)):
        if any(combo):
            yield combo


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(positions(max_hand=12))
def test_moves_are_complete_for_small_hands(impl, pos):
    hand, to_beat, rules = pos
    expected = set()
    for sub in sub_multisets(hand):
        for play in _readings(sub, rules):
            if to_beat is None or _beats(play, to_beat):
                expected.add(play)
    if to_beat is not None:
        expected.add(PASS)
    assert set(impl.legal_moves(hand, to_beat, rules)) == expected
