"""Every worked example of RULES.md §1, §2 and the table of §8, on every implementation."""

import pytest

import ddz
from ddz import InvalidPlayError, ImpossibleHandError, Play, PlayType, Rules

T = PlayType
DISTINCT = Rules()
REPEAT = Rules(kickers="repeat")
BOTH = [DISTINCT, REPEAT]


# -- §2 table: one example of each play type ---------------------------------------

@pytest.mark.parametrize("cards, ptype, text", [
    ("7", T.SINGLE, "7"),
    ("B", T.SINGLE, "B"),
    ("99", T.PAIR, "99"),
    ("555", T.TRIO, "555"),
    ("5558", T.TRIO_SINGLE, "555+8"),
    ("555R", T.TRIO_SINGLE, "555+R"),
    ("55588", T.TRIO_PAIR, "555+88"),
    ("22255", T.TRIO_PAIR, "222+55"),
    ("55522", T.TRIO_PAIR, "555+22"),
    ("34567", T.STRAIGHT, "34567"),
    ("3456789TJQKA", T.STRAIGHT, "3456789TJQKA"),
    ("334455", T.PAIR_STRAIGHT, "334455"),
    ("333444", T.AIRPLANE, "333444"),
    ("33344469", T.AIRPLANE_SINGLES, "333444+69"),
    ("3334446699", T.AIRPLANE_PAIRS, "333444+6699"),
    ("555539", T.FOUR_TWO_SINGLES, "5555+39"),
    ("99996688", T.FOUR_TWO_PAIRS, "9999+6688"),
    ("JJJJ", T.BOMB, "JJJJ"),
    ("BR", T.ROCKET, "BR"),
    ("3332", T.TRIO_SINGLE, "333+2"),
    ("33322", T.TRIO_PAIR, "333+22"),
    ("4444B5", T.FOUR_TWO_SINGLES, "4444+5B"),
])
@pytest.mark.parametrize("rules", BOTH, ids=["distinct", "repeat"])
def test_play_types(impl, cards, ptype, text, rules):
    play = impl.classify(cards, rules)
    assert play.type is ptype
    assert str(play) == text
    assert impl.readings(cards, rules) == [play]


@pytest.mark.parametrize("cards", [
    "JQKA2", "3334445", "33334444", "34445555", "4444BR", "666777BR",
    "66667777", "333444BR", "QKA22", "KA2BR", "2345", "3456", "3344",
    "33445", "KKAA22", "QQQKKKAAA222", "3R",
])
def test_not_plays_distinct(impl, cards):
    with pytest.raises(InvalidPlayError, match="not a play"):
        impl.classify(cards, DISTINCT)


@pytest.mark.parametrize("cards", [
    "333444+3+5", "34445555", "4444+55+55", "66667777", "4444+BR",
    "333444+BR", "3334445556667778", "33334444", "3334445", "JQKA2", "666777BR",
])
@pytest.mark.parametrize("rules", BOTH, ids=["distinct", "repeat"])
def test_kicker_rules_never_plays(impl, cards, rules):
    """RULES.md §2.1 rules 1–3 hold under both settings."""
    assert impl.readings(cards, rules) == []
    with pytest.raises(InvalidPlayError):
        impl.classify(cards, rules)


def test_333_plus_3_is_the_bomb(impl):
    """RULES.md §2.1 rule 1: the cards are the bomb 3333, not a trio-single. Written with a
    ``+`` that splits them elsewhere, classify answers as Play.parse does (issue 16): an
    error that names the bomb."""
    assert impl.classify("3333", DISTINCT) == Play(T.BOMB, 0, 1)
    with pytest.raises(InvalidPlayError, match="splits its cards differently from the play they form, '3333'"):
        impl.classify("333+3", DISTINCT)
    with pytest.raises(InvalidPlayError, match="'3333'"):
        Play.parse("333+3", DISTINCT)


@pytest.mark.parametrize("rules", BOTH, ids=["distinct", "repeat"])
def test_5555_plus_55_is_impossible(impl, rules):
    with pytest.raises(ImpossibleHandError, match="6 copies"):
        impl.classify("5555+55", rules)


@pytest.mark.parametrize("cards, repeat_text", [
    ("33344466", "333444+66"),
    ("33344455", "333444+55"),
    ("444455", "4444+55"),
    ("333444555667", "333444555+667"),
    ("333444555777", "333444555+777"),
    ("QQQKKKAAA222", "QQQKKKAAA+222"),  # 2 never extends a chain, so 222 may be a wing
])
def test_repeat_only_plays(impl, cards, repeat_text):
    assert impl.readings(cards, DISTINCT) == []
    assert str(impl.classify(cards, REPEAT)) == repeat_text


def test_trio_next_to_the_chain_is_never_a_wing(impl):
    assert impl.readings("333444555666", REPEAT) == [Play(T.AIRPLANE, 3, 4)]
    assert impl.readings("3334445556667778", REPEAT) == []


def test_universe_sizes(impl):
    assert len(impl.all_plays(DISTINCT)) == 12654
    assert len(impl.all_plays(REPEAT)) == 27471


# -- §2.2 comparison ----------------------------------------------------------------

@pytest.mark.parametrize("a, b, expected", [
    ("BR", "2222", True),
    ("BR", "3", True),
    ("2222", "BR", False),
    ("3333", "4444+56", True),
    ("3333", "444456", True),
    ("44445566", "3333", False),
    ("4444", "3333", True),
    ("3333", "4444", False),
    ("45678", "345678", False),
    ("45678", "34567", True),
    ("34567", "45678", False),
    ("4", "3", True),
    ("3", "3", False),
    ("44", "3", False),
    ("5555+66", "4444+77", True),   # four-with-two beats only a lower one of its kind
    ("5555+66", "4444+67", True),   # (repeat kickers: both FOUR_TWO_SINGLES)
    ("5555+6677", "4444+67", False),
    ("4444+67", "5555+6677", False),
    ("6666+77", "5555+8899", False),
    ("444+3", "333+4", True),
    ("555+66", "333+4", False),
    ("555666+37", "333444+89", True),
    ("555666777+389", "333444+TJ", False),
    ("2", "B", False),
    ("R", "B", True),
])
def test_beats(impl, a, b, expected):
    rules = REPEAT if "+66" in a or "+77" in a else DISTINCT
    assert impl.beats(a, b, rules) is expected


def test_nothing_beats_a_rocket(impl):
    """The public beats() cannot ask this (two rockets never fit in one deck), so ask
    each implementation's comparison kernel, over every play, the rocket included."""
    rocket = Play.parse("BR")
    compare = (ddz.core.reference._beats if impl is ddz.core.reference
               else lambda a, b: impl._tables(REPEAT).beats(a.code, b.code))
    for play in impl.all_plays(REPEAT) + [ddz.PASS]:
        assert compare(play, rocket) is False
        if play:
            assert compare(rocket, play) is (play != rocket)
    assert impl.beats("BR", "2222") and impl.beats("BR", "33")
    with pytest.raises(ImpossibleHandError, match="small joker"):
        impl.beats("BR", "BR")   # one deck has one rocket


def test_beats_checks_the_deck(impl):
    with pytest.raises(ImpossibleHandError, match="5 copies of '3'"):
        impl.beats("3333", "3")


def test_pass_beats_nothing_and_cannot_be_beaten(impl):
    assert impl.beats(ddz.PASS, "3") is False
    with pytest.raises(InvalidPlayError):
        impl.beats("3", ddz.PASS)


# -- §2.3 and §8 legal moves --------------------------------------------------------

def test_example_hand_move_counts(impl):
    assert impl.count_legal_moves("33344455", None, DISTINCT) == 18
    assert impl.count_legal_moves("33344455", None, REPEAT) == 19
    moves = impl.legal_moves("33344455", None, REPEAT)
    assert Play.parse("333444+55", REPEAT) in moves
    assert Play.parse("333444+55", REPEAT) not in impl.legal_moves("33344455", None, DISTINCT)


def test_no_longer_airplane_beats_with_repeat(impl):
    assert impl.legal_moves("666777888999", Play.parse("333444555JQK", REPEAT), REPEAT) == [ddz.PASS]


def test_rocket_answers_a_bomb(impl):
    assert [str(p) for p in impl.legal_moves("BR", "2222")] == ["pass", "BR"]


def test_leading_never_passes(impl):
    assert [str(p) for p in impl.legal_moves("3")] == ["3"]


def test_pair_cannot_answer_a_single(impl):
    assert impl.legal_moves("33", "4") == [ddz.PASS]


def test_to_beat_not_a_play(impl):
    with pytest.raises(InvalidPlayError, match="33334444"):
        impl.legal_moves("2222", "33334444")


def test_impossible_hand(impl):
    with pytest.raises(ImpossibleHandError, match="5 copies"):
        impl.legal_moves("333334")


def test_move_order_is_documented_order(impl):
    moves = impl.legal_moves("3334445567899TJQKA22")
    assert moves == sorted(moves)
    assert len(set(moves)) == len(moves)
    responding = impl.legal_moves("3334445567899TJQKAB", "66")
    assert responding[0] == ddz.PASS and responding[1:] == sorted(responding[1:])
