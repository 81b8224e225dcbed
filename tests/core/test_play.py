"""The Play value object: notation, codes, value semantics (RULES.md §2)."""

import pickle

import numpy as np

import pytest

import ddz
from ddz import InvalidPlayError, NotationError, PASS, Play, PlayType, Rules

T = PlayType
REPEAT = Rules(kickers="repeat")


@pytest.mark.parametrize("text, canonical", [
    ("333444+56", "333444+56"), ("33344456", "333444+56"), ("65444333", "333444+56"),
    ("4444+5B", "4444+5B"), ("44445B", "4444+5B"), ("555+88", "555+88"), ("34567", "34567"),
    ("RB", "BR"), ("pass", "pass"), ("PASS", "pass"), ("555+R", "555+R"),
    ("9999+6688", "9999+6688"), ("10JQKA", "TJQKA"),
])
def test_parse_canonical(text, canonical):
    p = Play.parse(text)
    assert str(p) == canonical
    assert repr(p) == f"Play.parse({canonical!r})"
    assert Play.parse(str(p)) == p


def test_pass_is_falsy_and_others_truthy():
    assert not PASS and not Play.parse("pass")
    assert Play.parse("3") and Play.parse("BR")


def test_plus_must_split_at_the_main_part():
    with pytest.raises(InvalidPlayError, match="splits"):
        Play.parse("3334+44")
    assert Play.parse("444+3") == Play.parse("3444")


@pytest.mark.parametrize("text, err", [
    ("", NotationError), ("  ", NotationError), ("+", NotationError), ("3X", NotationError),
    ("333+", NotationError), ("333444+ ", NotationError),
    ("33334444", InvalidPlayError), ("34", InvalidPlayError), ("33333", ddz.ImpossibleHandError),
])
def test_parse_errors(text, err):
    with pytest.raises(err):
        Play.parse(text)


def test_parse_uses_rules():
    with pytest.raises(InvalidPlayError):
        Play.parse("444455")
    assert Play.parse("444455", REPEAT) == Play(T.FOUR_TWO_SINGLES, 1, 1, (2, 2))


def test_value_semantics():
    a = Play.parse("333444+56")
    b = Play(T.AIRPLANE_SINGLES, 1, 2, (3, 2))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.rank = 5
    with pytest.raises(AttributeError):
        del a.rank
    assert not hasattr(a, "__dict__")
    assert pickle.loads(pickle.dumps(a)) == a
    assert a != (T.AIRPLANE_SINGLES, 1, 2, (2, 3))
    assert a.counts == tuple(int(c) for c in ddz.parse_cards("33344456"))
    assert a.body_counts == tuple(int(c) for c in ddz.parse_cards("333444"))
    assert a.kicker_counts == tuple(int(c) for c in ddz.parse_cards("56"))
    assert a.num_cards == 8 and a.body_ranks == (0, 1)


def test_fields():
    p = Play.parse("3456789")
    assert (p.type, p.rank, p.length, p.kickers) == (T.STRAIGHT, 6, 7, ())
    r = Play.parse("BR")
    assert (r.type, r.rank, r.length) == (T.ROCKET, 14, 1)
    assert (PASS.type, PASS.rank, PASS.length, PASS.kickers) == (T.PASS, 0, 0, ())


@pytest.mark.parametrize("args, why", [
    ((T.SINGLE, 0.5, 1, ()), "integer"),
    ((T.STRAIGHT, 4.9, 5, ()), "integer"),
    ((T.SINGLE, True, 1, ()), "integer"),
    ((T.SINGLE, 0, 1, None), "iterable"),
    ((T.TRIO_SINGLE, 0, 1, (0,)), "rule 1"),
    ((T.AIRPLANE_SINGLES, 1, 2, (1, 5)), "rule 1"),
    ((T.TRIO_PAIR, 0, 1, (5, 6)), "rule 5"),
    ((T.AIRPLANE_PAIRS, 1, 2, (5, 5, 5, 5)), "rule 5"),
    ((T.AIRPLANE_SINGLES, 11, 9, (0, 0, 0, 1, 1, 1, 2, 2, 2)), "33 cards"),
    ((T.AIRPLANE_SINGLES, 5, 5, (13, 13, 13, 14, 14)), "two decks hold"),
    ((T.BOMB, 0, 1, (), 9), "4 to 8 cards"),
    ((T.BOMB, 0, 1, (), 3), "4 to 8 cards"),
    ((T.ROCKET, 14, 1, (), 3), "BBRR"),
    ((T.PAIR, 0, 1, (), 3), "width 2"),
])
def test_constructor_enforces_what_holds_in_every_rule_set(args, why):
    """Rules 1 and 5 of RULES.md §2.1 and the shapes hold in every rule set, planned ones
    included (the two-deck game, the engine profiles), so the constructor refuses them."""
    with pytest.raises(InvalidPlayError, match=why):
        Play(*args)


@pytest.mark.parametrize("args", [
    (T.TRIO_PAIR, 0, 1, (13, 13)),                # 333+BB: a joker pair kicker (two decks, §7)
    (T.FOUR_TWO_SINGLES, 0, 1, (13, 14)),         # both jokers as kickers (DouZero)
    (T.AIRPLANE_SINGLES, 2, 3, (3, 3, 3)),        # a trio next to the chain as wings (OpenSpiel)
    (T.AIRPLANE_SINGLES, 5, 3, (2, 2, 2)),
    (T.AIRPLANE, 6, 7, ()),                       # 21 cards: only a 33-card hand holds it
    (T.FOUR_TWO_SINGLES, 0, 1, (13, 13)),         # two small jokers (two decks)
    (T.PAIR, 13, 1),                              # BB (two decks, §7)
    (T.BOMB, 0, 1, (), 5),                        # 33333 (two decks, §7)
    (T.ROCKET, 14, 1, (), 2),                     # BBRR (two decks, §7)
    (T.AIRPLANE_SINGLES, 1, 2, (5, 5)),           # 333444+55: kickers="repeat" only
])
def test_structures_of_other_rule_sets_are_plays_only_where_the_rules_say(args):
    """Structures that a planned rule set has are Play values (RULES.md §7, engine
    profiles) but no play of the one-deck rule sets unless the rules say so."""
    p = Play(*args)
    assert Play.from_code(p.code) == p and eval(repr(p), vars(ddz)) == p
    one_deck = max(p.counts) <= 4 and max(p.counts[13:]) <= 1
    for rules in (Rules(), REPEAT):
        legal = p in ddz.core.reference.all_plays(rules)
        if one_deck:
            assert (ddz.readings(p.counts, rules) == [p]) == legal
        if not legal:
            for engine in (ddz, ddz.core.reference):   # not a play to beat under these rules
                with pytest.raises(InvalidPlayError, match="not a play"):
                    engine.legal_moves(np.zeros(15, np.uint8), p, rules)
    assert (p in ddz.core.reference.all_plays(REPEAT)) == (args == (T.AIRPLANE_SINGLES, 1, 2, (5, 5)))


def test_constructor_accepts_numpy_integers():
    import numpy as np
    assert Play(T.SINGLE, np.int64(3), np.uint8(1), [np.int32(0)][:0]) == Play.parse("6")


@pytest.mark.parametrize("args", [
    (T.STRAIGHT, 3, 4), (T.STRAIGHT, 12, 5), (T.TRIO, 13), (T.SINGLE, 15), (T.TRIO_SINGLE, 0, 1, ()),
    (T.TRIO_PAIR, 0, 1, (1, 2)), (T.AIRPLANE_PAIRS, 1, 2, (3, 3, 3, 3)), (T.ROCKET, 13),
    (T.PASS, 1, 0), (T.BOMB, 0, 1, (1,)), (99, 0), (T.SINGLE, 0, 1, (20,)), (T.SINGLE, 0, 2),
])
def test_bad_structures(args):
    with pytest.raises(InvalidPlayError):
        Play(*args)


@pytest.mark.parametrize("rules", [Rules(), REPEAT], ids=["distinct", "repeat"])
def test_every_play_round_trips(rules):
    plays = ddz.core.reference.all_plays(rules)
    strings = [str(p) for p in plays]
    assert len(set(strings)) == len(plays)
    codes = [p.code for p in plays]
    assert len(set(codes)) == len(plays) and 0 not in codes
    for p, s, c in zip(plays, strings, codes):
        assert Play.parse(s, rules) == p
        assert Play.from_code(c) == p
    assert plays == sorted(plays)
    assert Play.from_code(0) == PASS


@pytest.mark.parametrize("code", [-1, 1 << 44, 15 << 39, (1 << 39) | (1 << 34) | 3, None, 1.0, "5"])
def test_bad_codes(code):
    with pytest.raises(InvalidPlayError):
        Play.from_code(code)


# -- classify reads notation as Play.parse does (issue 16) -------------------------------

def _answer(f, arg, rules):
    try:
        return repr(f(arg, rules))
    except ddz.DdzError as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("text", ["", "   ", ",", "-", "pass", "P", "不出", "333+", "333+4",
                                  "3+334", "333444+", "+", "33344456", "4444+55"])
@pytest.mark.parametrize("rules", [ddz.STANDARD, REPEAT], ids=["distinct", "repeat"])
def test_classify_of_notation_answers_what_parse_answers(impl, text, rules):
    assert _answer(impl.classify, text, rules) == _answer(Play.parse, text, rules)


def test_classify_empty_text_and_plus_without_kickers_are_errors(impl):
    with pytest.raises(NotationError, match="empty play notation"):
        impl.classify("")
    with pytest.raises(NotationError, match="no kickers after"):
        impl.classify("333+")
    assert impl.classify("pass") == PASS


def test_classify_of_no_counts_is_the_pass(impl):
    """Counts are a multiset, not notation: no cards played is the pass (documented)."""
    assert impl.classify(np.zeros(15, np.uint8)) == PASS
    assert impl.classify([0] * 15) == PASS


@pytest.mark.parametrize("text, rules, constructor", [
    ("33333", Rules.four_player(), True),             # a bomb of five cards
    ("BB", Rules.four_player(), True),                # a pair of small jokers
    ("BBRR", Rules.four_player(), True),              # the four-player rocket
    ("333444+55", Rules(kickers="repeat"), True),     # single kickers of one rank
    ("3333+BR", Rules(kickers="repeat", wings="any"), True),   # both jokers as kickers
    ("3333", Rules.four_player(), False),             # a bomb of four: a play of the default rules
    ("333444+56", Rules(kickers="repeat"), False),
])
def test_repr_uses_the_constructor_form_when_parse_needs_rules(text, rules, constructor):
    """docs/api.md: ``repr`` is ``Play.parse('...')`` when ``Play.parse`` reads it back with
    no rules, else the constructor form, which evaluates back with none."""
    play = Play.parse(text, rules)
    code = repr(play)
    assert eval(code, vars(ddz)) == play
    if constructor:
        assert code.startswith("Play(PlayType.")
        try:
            plain = Play.parse(str(play))            # without the rules: an error or another play
        except ddz.DdzError:
            plain = None
        assert plain != play
    else:
        assert code == f"Play.parse({str(play)!r})" and Play.parse(str(play)) == play
