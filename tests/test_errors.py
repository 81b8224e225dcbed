"""Bad input gives the documented error class, from every implementation (DESIGN.md)."""

import numpy as np
import pytest

import ddz
from ddz import (DdzError, HandError, ImpossibleHandError, InvalidPlayError, NotationError,
                 Play, Rules)


def test_hierarchy():
    for cls in (NotationError, HandError, ImpossibleHandError, InvalidPlayError, ddz.NotInHandError):
        assert issubclass(cls, DdzError)
    assert issubclass(DdzError, ValueError)
    assert issubclass(ImpossibleHandError, HandError)


@pytest.mark.parametrize("hand, to_beat, err, text", [
    ("333334", None, ImpossibleHandError, "5 copies"),
    ("3X", None, NotationError, "'X'"),
    ("BJ", None, NotationError, "ambiguous"),
    ([1] * 14, None, HandError, "shape"),
    (np.ones((2, 15), dtype=np.uint8), None, HandError, "shape"),
    (np.array([0.5] * 15), None, HandError, "integer dtype"),
    (np.ones(15), None, HandError, "integer dtype"),
    ([-1] + [0] * 14, None, HandError, "negative"),
    ([9] + [0] * 14, None, ImpossibleHandError, "9 copies"),
    ([4] * 13 + [1, 1], None, ImpossibleHandError, "54 cards"),
    (None, None, HandError, "None"),
    ("2222", "33334444", InvalidPlayError, "33334444"),
    ("2222", "pass", InvalidPlayError, "pass"),
    ("2222", ddz.PASS, InvalidPlayError, "pass"),
    ("2222", "3X", NotationError, "3X"),
    ("2222", 33, InvalidPlayError, "33"),
    ("2222", "2", ImpossibleHandError, "together"),
    ("34", Play.parse("444455", Rules(kickers="repeat")), InvalidPlayError, "4444\\+55"),
])
def test_legal_moves_errors(impl, hand, to_beat, err, text):
    with pytest.raises(err, match=text):
        impl.legal_moves(hand, to_beat)
    with pytest.raises(err):
        impl.count_legal_moves(hand, to_beat)


@pytest.mark.parametrize("cards, err", [
    ("33334444", InvalidPlayError), ("", NotationError), ("3X", NotationError), ("33333", ImpossibleHandError),
    ([0] * 15, None), ([1] * 16, HandError),
])
def test_classify_errors(impl, cards, err):
    if err is None:
        assert impl.classify(cards) == ddz.PASS
        return
    with pytest.raises(err):
        impl.classify(cards)
    if err is not InvalidPlayError and cards != "":   # readings("") is [PASS]: a multiset
        with pytest.raises(err):
            impl.readings(cards)


@pytest.mark.parametrize("rules", ["repeat", None, {"kickers": "repeat"}])
def test_bad_rules_argument(impl, rules):
    with pytest.raises(DdzError, match="Rules"):
        impl.legal_moves("3", None, rules)


def test_bad_rules_values():
    with pytest.raises(DdzError, match="kickers"):
        Rules(kickers="many")


def test_input_not_modified(impl):
    hand = np.array([1] * 13 + [1, 1], dtype=np.uint8)
    hand[:5] = 2
    before = hand.copy()
    impl.legal_moves(hand)
    assert np.array_equal(hand, before)


def test_errors_leave_the_engine_working(impl):
    with pytest.raises(DdzError):
        impl.legal_moves("333334")
    assert impl.count_legal_moves("33344455") == 18


def test_boundary_errors_found_by_a_fresh_user():
    """Bad arguments that used to escape as AttributeError/TypeError or be taken silently."""
    import numpy as np

    import ddz
    for bad in ("repeat", 1, {"kickers": "repeat"}, None):
        if bad is not None:
            with pytest.raises(ddz.DdzError, match="rules must be a ddz.Rules"):
                ddz.Play.parse("333+4", bad)
        with pytest.raises(ddz.DdzError, match="rules must be a ddz.Rules"):
            ddz.tables.table(bad)
    for impl in (ddz.reference, ddz):
        with pytest.raises(ddz.HandError, match="bools"):
            impl.classify([True] + [0] * 14)
        with pytest.raises(ddz.HandError, match="bools"):
            impl.legal_moves([0] * 14 + [np.bool_(True)])


@pytest.mark.parametrize("decks", ["x", 0, 9, True, 2.0, None])
def test_parse_cards_checks_decks(decks):
    with pytest.raises(HandError, match="decks must be a whole number"):
        ddz.parse_cards("334", decks=decks)


def test_parse_cards_takes_numpy_deck_counts():
    assert ddz.parse_cards("3333 3333", decks=np.int64(2))[0] == 8


def test_unknown_rules_field_is_named():
    with pytest.raises(DdzError, match="no field 'bogus'.*kickers"):
        Rules(bogus=1)
    with pytest.raises(DdzError, match="no field 'nope'"):
        Rules.profile("rlcard", nope=2)
    with pytest.raises(DdzError, match="no field 'x'"):
        Rules.four_player(x=1)


def _playing(rules, seed=1):
    game = ddz.Game(rules, seed=seed)
    while game.phase is not ddz.Phase.PLAYING:
        game.step(game.legal_moves[-1])     # the highest bid ends the auction
    return game


def test_legal_moves_refuse_a_bool_index():
    moves = _playing(Rules()).legal_moves
    assert moves[1] == list(moves)[1]
    with pytest.raises(DdzError, match="not True"):
        moves[True]


def test_four_player_half_rocket_names_the_rules():
    game = _playing(Rules.four_player())
    with pytest.raises(InvalidPlayError, match=r"'BR' is not a play under Rules\(players=4\)"):
        game.step("BR")
