"""The four-player two-deck game's plays (RULES.md §7): the universe, the §8 worked
examples on every implementation, the core against the reference on random two-deck
positions and small hands, and the action space sized for two decks."""

import collections

import numpy as np
import pytest

import ddz
from ddz import DdzError, InvalidPlayError, PlayType, Rules
from ddz.core import reference
from ddz.game.actions import encode_cards, encoding_size
from ddz.core.cards import deck_counts
from ddz.core.tables import table

from conftest import NO_EXTENSIONS

T = PlayType
FOUR = Rules.four_player()
NO_STRAIGHTS = Rules.four_player(straights=False)
DECK2 = deck_counts(2)
CARDS2 = np.repeat(np.arange(15), DECK2)

needs_core = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: the compiled core is absent")


def test_rules_preset_and_options():
    assert FOUR.players == 4 and FOUR.decks == 2 and FOUR.max_hand == 33
    assert (FOUR.hand_size, FOUR.bottom_size, FOUR.seats) == (25, 8, 4)
    assert FOUR == Rules(players=4) and Rules.four_player(doubling_bombs="six_plus").doubling_bombs == "six_plus"
    for bad in ({"doubling": True}, {"bottom_bonus": True}, {"bidding": "rob"}, {"players": 3},
                {"doubling_bombs": "some"}, {"straights": 1}, {"colour": "red"}):
        with pytest.raises(DdzError):
            Rules.four_player(**bad)
    for bad in (5, 2, True, "4", None):
        with pytest.raises(DdzError, match="players"):
            Rules(players=bad)
    with pytest.raises(DdzError, match="all.*beating.*six_plus"):
        Rules(doubling_bombs="effective")
    assert FOUR.excluded == {T.TRIO_SINGLE, T.AIRPLANE_SINGLES, T.FOUR_TWO_SINGLES, T.FOUR_TWO_PAIRS}
    assert NO_STRAIGHTS.forbidden == {T.STRAIGHT} and NO_STRAIGHTS.universe_rules == FOUR.universe_rules


def test_universe_counts(impl):
    plays = impl.all_plays(FOUR)
    assert len(plays) == 7951 and len(impl.all_plays(NO_STRAIGHTS)) == 7915
    assert collections.Counter(p.type for p in plays) == {
        T.SINGLE: 15, T.PAIR: 15, T.TRIO: 13, T.TRIO_PAIR: 182, T.STRAIGHT: 36, T.PAIR_STRAIGHT: 55,
        T.AIRPLANE: 65, T.AIRPLANE_PAIRS: 7504, T.BOMB: 65, T.ROCKET: 1}
    assert {p.width for p in plays if p.type is T.BOMB} == {4, 5, 6, 7, 8}
    assert plays == sorted(plays)


def test_core_universe_is_the_reference_universe():
    assert list(table(FOUR).plays[1:]) == reference.all_plays(FOUR)
    assert table(NO_STRAIGHTS).plays is table(FOUR).plays       # straights decide legality, not ids


# -- RULES.md §8, the four-player rows, and §7's rules one by one ----------------------

def test_worked_examples(impl):
    assert impl.legal_moves("33333", "2222", FOUR) == [ddz.PASS, impl.classify("33333", FOUR)]
    bb = impl.classify("BB", FOUR)
    assert bb.type is T.PAIR and str(bb) == "BB"
    with pytest.raises(DdzError):
        impl.classify("BB")                                   # two small jokers: not one deck
    rocket = impl.classify("BBRR", FOUR)
    assert rocket.type is T.ROCKET and rocket.num_cards == 4
    for text in ("555+8", "333444+BBRR"):
        with pytest.raises(InvalidPlayError, match="not a play"):
            impl.classify(text, FOUR)
    assert impl.legal_moves("RR", "BB", FOUR) == [ddz.PASS, impl.classify("RR", FOUR)]
    assert impl.beats("88888888", "BBRR", FOUR) is False
    assert impl.beats("BBRR", "88888888", FOUR) is True


@pytest.mark.parametrize("a, b, wins", [
    ("33333", "2222", True), ("2222", "33333", False), ("44444", "33333", True),
    ("33333333", "2222222", True), ("RR", "22", True), ("RR", "BB", True), ("BB", "22", True),
    ("555+BB", "444+RR", True), ("3333", "BB", True), ("BBRR", "33333333", True),
])
def test_comparisons(impl, a, b, wins):
    assert impl.beats(a, b, FOUR) is wins


@pytest.mark.parametrize("text", [
    "5558", "555B", "33344456", "4444+56", "4444+5566", "BR", "555+BR", "333444+BBRR",
    "333444+5555", "34567+3",
])
def test_not_plays(impl, text):
    with pytest.raises(InvalidPlayError):
        impl.classify(text, FOUR)


@pytest.mark.parametrize("text, ptype", [
    ("555+BB", T.TRIO_PAIR), ("555+RR", T.TRIO_PAIR), ("333444+55BB", T.AIRPLANE_PAIRS),
    ("33333", T.BOMB), ("44444444", T.BOMB),
    ("3456789TJQKA", T.STRAIGHT), ("33445566778899TTJJQQKKAA", T.PAIR_STRAIGHT),
    ("333444555666777888999TTTJJJQQQKKK", T.AIRPLANE),
    ("333444555666777888+99TTJJQQKKAA", T.AIRPLANE_PAIRS),
])
def test_plays(impl, text, ptype):
    play = impl.classify(text, FOUR)
    assert play.type is ptype and impl.readings(text, FOUR) == [play]


def test_no_straights_option(impl):
    with pytest.raises(InvalidPlayError, match="STRAIGHT"):
        impl.classify("34567", NO_STRAIGHTS)
    moves = impl.legal_moves("345678", None, NO_STRAIGHTS)
    assert moves and all(p.type is not T.STRAIGHT for p in moves)
    assert any(p.type is T.STRAIGHT for p in impl.legal_moves("345678", None, FOUR))
    three = Rules(straights=False)
    assert all(p.type is not T.STRAIGHT for p in impl.legal_moves("3456789", None, three))


def test_hands_beyond_two_decks_or_33_cards_are_refused(impl):
    with pytest.raises(DdzError):
        impl.legal_moves("333333333", None, FOUR)        # nine 3s
    with pytest.raises(DdzError):
        impl.legal_moves("BBB", None, FOUR)
    with pytest.raises(DdzError):
        impl.legal_moves("3333444455556666777788889999TTTTJJ", None, FOUR)   # 34 cards


# -- the core against the reference ----------------------------------------------------

def _deal(rng, size):
    hand = np.bincount(rng.permutation(CARDS2)[:size], minlength=15).astype(np.uint8)
    return hand, DECK2 - hand


def _play_from(rng, cards, plays, counts, types):
    idx = np.flatnonzero((counts <= cards).all(axis=1))
    t = rng.choice(np.unique(types[idx]))
    return plays[int(rng.choice(idx[types[idx] == t]))]


@needs_core
@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", [FOUR, NO_STRAIGHTS], ids=["straights", "no-straights"])
def test_legal_moves_random_positions(rules):
    from ddz.core import compiled as fast
    plays = reference.all_plays(FOUR)
    counts = np.array([p.counts for p in plays], np.uint8)
    types = np.array([int(p.type) for p in plays])
    rng = np.random.default_rng(74)
    seen = set()
    for i in range(400):
        hand, rest = _deal(rng, (25, 33)[i % 2] if i % 3 else int(rng.integers(1, 34)))
        lead = fast.legal_moves(hand, None, rules)
        assert lead == reference.legal_moves(hand, None, rules)
        assert fast.count_legal_moves(hand, None, rules) == len(lead)
        beat = _play_from(rng, rest, plays, counts, types)
        if beat.type in rules.excluded:
            continue
        seen.add(beat.type)
        got = fast.legal_moves(hand, beat, rules)
        assert got == reference.legal_moves(hand, beat, rules), (ddz.format_cards(hand), beat)
        assert fast.legal_moves_array(hand, beat, rules).tolist() == [p.code for p in got]
    assert seen >= {T.SINGLE, T.PAIR, T.TRIO, T.TRIO_PAIR, T.PAIR_STRAIGHT, T.AIRPLANE,
                    T.AIRPLANE_PAIRS, T.BOMB, T.ROCKET}


@needs_core
@pytest.mark.crosscheck
def test_classification_of_random_multisets_and_every_play():
    from ddz.core import compiled as fast
    for p in reference.all_plays(FOUR):
        assert fast.readings(p.counts, FOUR) == [p]
    rng = np.random.default_rng(9)
    for _ in range(3000):
        cards = np.bincount(rng.permutation(CARDS2)[:int(rng.integers(1, 34))], minlength=15)
        assert fast.readings(cards, FOUR) == reference.readings(cards, FOUR), ddz.format_cards(cards)


@needs_core
@pytest.mark.crosscheck
def test_beats_every_pair_of_a_sample():
    plays = reference.all_plays(FOUR)
    rng = np.random.default_rng(4)
    sample = [p for p in plays if p.type is not T.AIRPLANE_PAIRS] + \
        [plays[i] for i in rng.choice(len(plays), 300, replace=False)]
    beats = table(FOUR).beats
    for a in sample:
        for b in sample:
            assert beats(a.code, b.code) == reference._beats(a, b), (a, b)


@needs_core
@pytest.mark.crosscheck
def test_small_hands_exhaustively():
    """Every two-deck hand of up to 4 cards, leading, against the universe filtered by
    containment; and responding to a sample."""
    from ddz.core import compiled as fast
    import itertools
    plays = reference.all_plays(FOUR)
    counts = np.array([p.counts for p in plays], np.uint8)
    codes = np.array([p.code for p in plays], np.int64)
    small = counts.sum(axis=1) <= 4
    n = 0
    rng = np.random.default_rng(2)
    for size in range(1, 5):
        for combo in itertools.combinations_with_replacement(range(15), size):
            hand = np.bincount(combo, minlength=15).astype(np.uint8)
            if (hand > DECK2).any():
                continue
            want = codes[small & (counts <= hand).all(axis=1)]
            assert fast.legal_moves_array(hand, None, FOUR).tolist() == want.tolist()
            n += 1
            if n % 7 == 0:
                beat = _play_from(rng, DECK2 - hand, plays, counts, np.array([int(p.type) for p in plays]))
                assert fast.legal_moves(hand, beat, FOUR) == reference.legal_moves(hand, beat, FOUR)
    assert n > 3000


# -- the action space -----------------------------------------------------------------

def test_action_space_sized_for_two_decks():
    space = ddz.ActionSpace(FOUR)
    assert len(space) == 7952 and space.play(0) == ddz.PASS
    assert len(ddz.ActionSpace(NO_STRAIGHTS)) == 7952
    rng = np.random.default_rng(5)
    hands = np.stack([_deal(rng, 33)[0] for _ in range(8)] + [_deal(rng, 25)[0] for _ in range(8)])
    tbs = np.zeros(len(hands), np.int32)
    for i in range(1, len(hands), 2):
        rest = np.repeat(np.arange(15), DECK2 - hands[i])
        other = np.bincount(rng.permutation(rest)[:25], minlength=15)
        tbs[i] = space.id(ddz.legal_moves(other, None, FOUR)[-1 - i])
    masks = space.legal_masks(hands, tbs)
    for i, (h, tb) in enumerate(zip(hands, tbs)):
        want = [space.id(p) for p in ddz.legal_moves(h, space.play(int(tb)) if tb else None, FOUR)]
        assert np.flatnonzero(masks[i]).tolist() == want == space.legal_ids(h, int(tb)).tolist()
    assert encoding_size(FOUR) == 108 and encoding_size(Rules()) == 54
    enc = space.encode_actions(np.arange(len(space)))
    assert enc.shape == (7952, 108)
    assert (enc.sum(axis=1) == np.array([p.num_cards for p in space])).all()


def test_two_deck_card_encoding_layout():
    hand = np.array([5] + [0] * 12 + [2, 1], np.uint8)     # 33333BBR
    enc = encode_cards(hand, rules=FOUR)
    assert enc.shape == (108,)
    assert enc[:8].tolist() == [1, 1, 1, 1, 1, 0, 0, 0] and enc[8:104].sum() == 0
    assert enc[104:].tolist() == [1, 1, 1, 0]
    with pytest.raises(DdzError, match="2 decks"):
        encode_cards(np.array([9] + [0] * 14), rules=FOUR)
    with pytest.raises(DdzError, match="one deck"):
        encode_cards(hand)
    one = np.array([2, 0, 4] + [0] * 10 + [1, 0])
    assert encode_cards(one).tolist() == encode_cards(one, rules=Rules()).tolist()
    assert encode_cards(one)[:12].tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
