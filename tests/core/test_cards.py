"""Card notation, count vectors and suits (RULES.md §1)."""

import numpy as np
import pytest

import ddz
from ddz.core.cards import (BIG_JOKER, Card, RANK_CHARS, SMALL_JOKER, Suit, cards_to_counts,
                       format_cards, full_deck, parse_cards, parse_suited, to_counts)
from ddz.errors import HandError, ImpossibleHandError, NotationError


def counts_of(**kw):
    c = np.zeros(15, dtype=np.uint8)
    for k, v in kw.items():
        c[RANK_CHARS.index(k.lstrip("_"))] = v
    return c


@pytest.mark.parametrize("text, canonical", [
    ("33344456", "33344456"),
    ("65444333", "33344456"),
    ("10 J Q K A", "TJQKA"),
    ("t-j,q+k a", "TJQKA"),
    ("小王大王", "BR"),
    ("rb", "BR"),
    ("2B3", "32B"),
    ("", ""),
])
def test_parse_and_format(text, canonical):
    counts = parse_cards(text)
    assert counts.dtype == np.uint8 and counts.shape == (15,)
    assert format_cards(counts) == canonical
    assert format_cards(parse_cards(canonical)) == canonical


def test_every_rank_char():
    counts = parse_cards(RANK_CHARS)
    assert counts.tolist() == [1] * 15
    assert parse_cards("B")[SMALL_JOKER] == 1 and parse_cards("R")[BIG_JOKER] == 1


@pytest.mark.parametrize("text", ["X", "D", "3D", "BJ", "RJ", "bj", "1", "0", "11", "*", "🂡"])
def test_rejected_spellings(text):
    with pytest.raises(NotationError) as exc:
        parse_cards(text)
    assert repr(text)[1:-1] in str(exc.value) or text in str(exc.value)


def test_jack_after_joker_in_canonical_order_is_fine():
    assert format_cards(parse_cards("JB")) == "JB"


@pytest.mark.parametrize("text, msg", [("33333", "5 copies of '3'"), ("BB", "2 copies of 'small joker'")])
def test_deck_limits(text, msg):
    with pytest.raises(ImpossibleHandError, match=msg):
        parse_cards(text)
    assert parse_cards(text, decks=2).sum() == len(text)


def test_parse_rejects_non_str():
    with pytest.raises(NotationError):
        parse_cards(333)


@pytest.mark.parametrize("bad, err", [
    ([1] * 14, HandError),
    ([[1] * 15], HandError),
    ([1] * 14 + [-1], HandError),
    ([0.5] + [0] * 14, HandError),
    ([True] * 15, HandError),
    ([5] + [0] * 14, ImpossibleHandError),
    ([0] * 13 + [2, 0], ImpossibleHandError),
    (None, HandError),
    ({"3": 1}, HandError),
    (b"333", HandError),
    (np.array(["a"] * 15), HandError),
])
def test_to_counts_bad(bad, err):
    with pytest.raises(err):
        to_counts(bad)


@pytest.mark.parametrize("bad, says", [
    (5, "not int: 5"),
    (3.5, "not float: 3.5"),
])
def test_a_scalar_is_named_by_its_type_not_a_shape(bad, says):
    with pytest.raises(HandError, match=f"hand must be card notation or 15 counts, {says}"):
        to_counts(bad)


def test_a_play_given_as_cards_says_where_its_cards_are():
    import ddz
    for f in (ddz.classify, lambda c: ddz.legal_moves(c, None)):
        with pytest.raises(HandError, match=r"not Play: Play.parse\('33'\) \(a play's cards are play.counts\)"):
            f(ddz.Play.parse("33"))


def test_to_counts_copies_and_accepts_any_int_dtype():
    src = np.array([1] * 15, dtype=np.int64)
    out = to_counts(src)
    assert out.dtype == np.uint8 and out.tolist() == [1] * 15
    out[0] = 3
    assert src[0] == 1  # input untouched
    assert to_counts(tuple([0] * 15)).sum() == 0
    assert to_counts(np.ones(15, dtype=np.int8)).tolist() == [1] * 15


@pytest.mark.parametrize("bad", [[1.0] * 15, np.ones(15), np.ones(15, dtype=np.float32)])
def test_floats_are_refused_even_when_whole(bad):
    with pytest.raises(HandError, match="integer dtype"):
        to_counts(bad)


def test_huge_unsigned_counts_are_too_many_not_negative():
    arr = np.zeros(15, dtype=np.uint64)
    arr[0] = 2**64 - 1
    with pytest.raises(ImpossibleHandError, match="18446744073709551615 copies"):
        to_counts(arr)


def test_messages_quote_long_input_briefly():
    with pytest.raises(NotationError) as exc:
        parse_cards("3" * 100000 + "X")
    assert len(str(exc.value)) < 300 and "100003 characters" in str(exc.value)


def test_suits_and_cards():
    deck = full_deck()
    assert len(deck) == 54 and len(set(deck)) == 54
    assert cards_to_counts(deck).tolist() == [4] * 13 + [1, 1]
    assert [str(c) for c in parse_suited("TS 3h 10D B R")] == ["TS", "3H", "TD", "B", "R"]
    assert Card.parse("TS") == Card(7, Suit.SPADES)
    assert repr(Card.parse("3H")) == "Card.parse('3H')"
    assert sorted([Card.parse("4S"), Card.parse("3D"), Card.parse("R")])[0] == Card.parse("3D")
    with pytest.raises(AttributeError):
        Card.parse("3H").rank = 4
    for bad in ["3", "3X", "BS", "", "ZZ"]:
        with pytest.raises(NotationError):
            Card.parse(bad)
    with pytest.raises(NotationError):
        Card(SMALL_JOKER, Suit.HEARTS)
    with pytest.raises(NotationError):
        Card(3)
    assert len(full_deck(2)) == 108


def test_top_level_names():
    assert ddz.parse_cards is parse_cards and ddz.format_cards is format_cards


def test_format_cards_refuses_more_than_two_decks_hold_by_default():
    assert format_cards([8] * 13 + [2, 2]).endswith("22222222BBRR")      # two full decks
    with pytest.raises(ImpossibleHandError, match="holds 5 copies of 'small joker'; 2 decks hold 2"):
        format_cards([5] * 15)
    with pytest.raises(ImpossibleHandError, match="1 deck|one deck"):
        format_cards([5] + [0] * 14, decks=1)
    assert format_cards([8] * 13 + [8, 8], decks=8).endswith("BBBBBBBBRRRRRRRR")
