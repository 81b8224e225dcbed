"""Engine compatibility profiles (RULES.md §2.5): ``Rules.profile`` and its options
``wings``, ``four_with_two``, ``airplane_rank``, ``beat_reading``, ``chain_from_four`` and
``bomb_on_rocket``, on both implementations; readings of
one card set that are several plays (``AmbiguousPlayError``, ``+`` notation); the
universes against the real packages' own generators when they are installed."""

from __future__ import annotations

import collections
import importlib.util
import random

import pytest

from ddz import AmbiguousPlayError, DdzError, InvalidPlayError, Play, PlayType, Rules
from ddz.core import reference

T = PlayType
PROFILES = ["rlcard", "douzero", "openspiel"]
#: (plays, distinct card sets) of each profile's universe (issue 14)
SIZES = {"rlcard": (27471, 27471), "douzero": (30383, 29984), "openspiel": (26053, 25661)}
DOUZERO = Rules.profile("douzero")
OPENSPIEL = Rules.profile("openspiel")


def _needs(module):
    return pytest.mark.skipif(importlib.util.find_spec(module) is None, reason=f"{module} is not installed")


# -- the profiles and their options ---------------------------------------------------

def test_profiles_are_the_documented_rules():
    assert Rules.profile("rlcard") == Rules(kickers="repeat")
    assert DOUZERO == Rules(kickers="repeat", wings="any", airplane_rank="trios", beat_reading="cards")
    assert OPENSPIEL.move_rules == Rules(kickers="repeat", wings="trios", four_with_two=False,
                                         chain_from_four=False, bomb_on_rocket=True)
    assert Rules.profile("DouZero") == DOUZERO
    assert Rules.profiles() == ("douzero", "openspiel", "rlcard")


def test_openspiel_profile_defaults_to_its_auction():
    assert (OPENSPIEL.first_bidder, OPENSPIEL.bid_rounds, OPENSPIEL.all_pass) == ("face_up", "until_passes", "void")
    mine = Rules.profile("openspiel", all_pass="redeal", first_bidder="random")
    assert (mine.all_pass, mine.first_bidder, mine.bid_rounds) == ("redeal", "random", "until_passes")
    assert mine.move_rules == OPENSPIEL.move_rules
    # rounds are a rule of bids of points: another auction drops that default
    assert Rules.profile("openspiel", bidding="rob").bid_rounds == "once"
    assert Rules.profile("douzero").all_pass == Rules().all_pass


@pytest.mark.parametrize("name", ["pokerth", "", None, 3])
def test_unknown_profile_names_the_profiles(name):
    with pytest.raises(DdzError, match="douzero, openspiel, rlcard"):
        Rules.profile(name)


def test_profile_refuses_its_own_options_and_bad_values():
    with pytest.raises(DdzError, match="fixes wings"):
        Rules.profile("douzero", wings="standard")
    with pytest.raises(DdzError, match="no_such"):
        Rules.profile("rlcard", no_such=1)
    with pytest.raises(DdzError, match="needs kickers='repeat'"):
        Rules(wings="trios")
    with pytest.raises(DdzError, match="wings"):
        Rules(kickers="repeat", wings="bombs")
    with pytest.raises(DdzError, match="four_with_two"):
        Rules(four_with_two=0)
    with pytest.raises(DdzError, match="airplane_rank"):
        Rules(airplane_rank="top")
    with pytest.raises(DdzError, match="beat_reading"):
        Rules(beat_reading="detector")
    with pytest.raises(DdzError, match="chain_from_four"):
        Rules(chain_from_four=None)
    with pytest.raises(DdzError, match="bomb_on_rocket"):
        Rules(bomb_on_rocket=1)
    with pytest.raises(DdzError, match="fixes bomb_on_rocket"):
        Rules.profile("openspiel", bomb_on_rocket=False)


def test_the_options_are_declared():
    decides = {f.name: f.metadata.get("decides") for f in Rules.move_fields()}
    assert decides["wings"] == "plays" and decides["four_with_two"] == "plays"
    for name in ("airplane_rank", "beat_reading", "chain_from_four", "bomb_on_rocket"):
        assert decides[name] == "legality"
    # these compare or forbid plays; they do not renumber them
    assert DOUZERO.universe_rules == Rules(kickers="repeat", wings="any")
    assert OPENSPIEL.universe_rules == Rules(kickers="repeat", wings="trios", four_with_two=False)
    assert Rules.from_json(DOUZERO.to_json()) == DOUZERO


# -- universes -----------------------------------------------------------------------

@pytest.mark.parametrize("name", PROFILES)
def test_universe_sizes(impl, name):
    plays = impl.all_plays(Rules.profile(name))
    assert (len(plays), len({p.counts for p in plays})) == SIZES[name]
    assert plays == sorted(plays) and len(set(plays)) == len(plays)


@pytest.mark.parametrize("name", PROFILES)
def test_every_play_reads_back(impl, name):
    rules = Rules.profile(name)
    by_cards = collections.defaultdict(list)
    for p in reference.all_plays(rules):
        by_cards[p.counts].append(p)
    for counts, plays in by_cards.items():
        assert impl.readings(counts, rules) == plays
    several = [p for plays in by_cards.values() if len(plays) > 1 for p in plays]
    assert len(several) == SIZES[name][0] - SIZES[name][1] + len({p.counts for p in several})
    for p in several + random.Random(5).sample(reference.all_plays(rules), 500):
        assert Play.parse(str(p), rules) == p
        assert impl.parse_play(str(p), rules) == p if hasattr(impl, "parse_play") else True


def test_openspiel_has_no_four_with_two(impl):
    types = {p.type for p in impl.all_plays(OPENSPIEL)}
    assert T.FOUR_TWO_SINGLES not in types and T.FOUR_TWO_PAIRS not in types
    with pytest.raises(InvalidPlayError, match="not a play"):
        impl.classify("444456", OPENSPIEL)


# -- worked examples (RULES.md §2.5) --------------------------------------------------

@pytest.mark.parametrize("cards, rules, expected", [
    ("4444BR", DOUZERO, Play(T.FOUR_TWO_SINGLES, 1, 1, (13, 14))),
    ("333444BR", DOUZERO, Play(T.AIRPLANE_SINGLES, 1, 2, (13, 14))),
    ("3334445556667777", DOUZERO, Play(T.AIRPLANE_SINGLES, 3, 4, (4, 4, 4, 4))),
    ("444455", DOUZERO, Play(T.FOUR_TWO_SINGLES, 1, 1, (2, 2))),
    ("333444555777", DOUZERO, Play(T.AIRPLANE_SINGLES, 2, 3, (4, 4, 4))),
])
def test_douzero_wings(impl, cards, rules, expected):
    assert impl.classify(cards, rules) == expected


@pytest.mark.parametrize("cards", ["4444BR", "333444BR", "3334445556667777"])
@pytest.mark.parametrize("rules", [Rules(kickers="repeat"), OPENSPIEL], ids=["repeat", "openspiel"])
def test_no_bomb_or_rocket_wings_elsewhere(impl, cards, rules):
    with pytest.raises(InvalidPlayError):
        impl.classify(cards, rules)


@pytest.mark.parametrize("rules", [DOUZERO, OPENSPIEL], ids=["douzero", "openspiel"])
def test_a_trio_next_to_the_chain_is_a_wing(impl, rules):
    expected = [Play(T.AIRPLANE, 3, 4), Play(T.AIRPLANE_SINGLES, 2, 3, (3, 3, 3)),
                Play(T.AIRPLANE_SINGLES, 3, 3, (0, 0, 0))]
    assert impl.readings("333444555666", rules) == expected
    with pytest.raises(AmbiguousPlayError, match="3 readings") as err:
        impl.classify("333444555666", rules)
    assert "'333444555+666'" in str(err.value) and "'444555666+333'" in str(err.value)
    assert list(err.value.readings) == expected
    assert isinstance(err.value, InvalidPlayError)
    # notation with '+' picks one; plain cards the reading without kickers
    assert Play.parse("444555666+333", rules) == expected[2]
    assert Play.parse("333444555+666", rules) == expected[1]
    assert impl.classify("444555666+333", rules) == expected[2]
    assert Play.parse("666555444333", rules) == expected[0]
    assert Play.parse("333444555666", rules) == expected[0]
    with pytest.raises(InvalidPlayError, match="splits its cards differently"):
        Play.parse("333555666+444", rules)
    hand = "777888999TTT"
    assert Play(T.AIRPLANE, 7, 4) in impl.legal_moves(hand, expected[0], rules)
    if rules.beat_reading == "play":    # OpenSpiel: every reading is a play to beat of its own
        assert Play(T.AIRPLANE_SINGLES, 7, 3, (4, 4, 4)) in impl.legal_moves(hand, expected[2], rules)
        assert Play(T.AIRPLANE_SINGLES, 7, 3, (4, 4, 4)) not in impl.legal_moves(hand, expected[0], rules)
    else:                               # DouZero reads the cards: each is the airplane
        for beat in expected[1:]:
            assert impl.legal_moves(hand, beat, rules) == impl.legal_moves(hand, expected[0], rules)


def test_not_ambiguous_under_repeat(impl):
    assert impl.classify("333444555666", Rules(kickers="repeat")) == Play(T.AIRPLANE, 3, 4)


def test_douzero_compares_airplanes_by_the_highest_trio(impl):
    low_chain = Play.parse("333444555+KKK", DOUZERO)     # trios 3, 4, 5 and K: ranks by K
    high_chain = Play.parse("666777888+9TJ", DOUZERO)
    assert impl.beats(low_chain, high_chain, DOUZERO)
    assert not impl.beats(high_chain, low_chain, DOUZERO)
    repeat = Rules(kickers="repeat")
    assert impl.beats(high_chain, low_chain, repeat) and not impl.beats(low_chain, high_chain, repeat)
    moves = impl.legal_moves("333444555KKK2", high_chain, DOUZERO)
    assert low_chain in moves
    assert low_chain not in impl.legal_moves("333444555KKK2", high_chain, repeat)


def test_douzero_reads_the_play_to_beat_from_its_cards(impl):
    """``beat_reading="cards"``: DouZero's detector reads 333444555+666 as the airplane
    333444555666, and knows no airplane with singles of four or more trios whose wings hold
    a trio, nor one whose wings hold a bomb: only bombs and the rocket answer those."""
    as_airplane = Play.parse("333444555+666", DOUZERO)
    lenient = Rules(kickers="repeat", wings="any", airplane_rank="trios")
    hand = "777888999TTTJQK22"
    moves = impl.legal_moves(hand, as_airplane, DOUZERO)
    assert Play(T.AIRPLANE, 7, 4) in moves
    assert not any(m.type is T.AIRPLANE_SINGLES for m in moves)
    assert any(m.type is T.AIRPLANE_SINGLES for m in impl.legal_moves(hand, as_airplane, lenient))
    assert impl.beats("777888999TTT", as_airplane, DOUZERO)
    assert not impl.beats("777888999+TTT", as_airplane, DOUZERO)
    for unknown in ("333444555666+7777", "333444555666+777J", "444555666777+3339"):
        beat = Play.parse(unknown, DOUZERO)
        moves = impl.legal_moves("888999TTTJJJQKA2", beat, DOUZERO)
        assert moves == [Play.parse("pass")]
        assert any(m.type is T.AIRPLANE_SINGLES for m in impl.legal_moves("888999TTTJJJQKA2", beat, lenient))
        assert impl.legal_moves("2222", beat, DOUZERO) == [Play.parse("pass"), Play.parse("2222")]
    # a chain of three with a trio apart is still an airplane with singles
    beat = Play.parse("333444555+777", DOUZERO)
    assert Play.parse("999TTTJJJ+KKK", DOUZERO) in impl.legal_moves("999TTTJJJKKK", beat, DOUZERO)


def test_openspiel_chains_do_not_start_at_a_rank_held_in_full(impl):
    for hand, chain in (("33334567", "34567"), ("33334444555", "333444"), ("333344556", "334455")):
        ours = impl.legal_moves(hand, None, OPENSPIEL)
        assert Play.parse(chain, OPENSPIEL) not in ours
        assert Play.parse(chain, OPENSPIEL) in impl.legal_moves(hand, None, Rules(kickers="repeat"))
    # a rank held in full inside the chain, or a chain with kickers, is fine
    assert Play.parse("34567") in impl.legal_moves("344445667", None, OPENSPIEL)
    assert Play.parse("333444+55", OPENSPIEL) in impl.legal_moves("3333444555", None, OPENSPIEL)
    assert Play.parse("89TJQ") in impl.legal_moves("89999TJQ", Play.parse("34567"), OPENSPIEL)
    assert Play.parse("89TJQ") not in impl.legal_moves("88889TJQ", Play.parse("34567"), OPENSPIEL)


def test_openspiel_lets_a_bomb_on_the_rocket(impl):
    rocket = Play.parse("BR")
    assert impl.legal_moves("33336666", rocket, OPENSPIEL) == [Play.parse("pass"), Play.parse("3333"),
                                                                Play.parse("6666")]
    assert impl.legal_moves("33336666", rocket, Rules(kickers="repeat")) == [Play.parse("pass")]
    assert impl.beats("3333", rocket, OPENSPIEL) and impl.beats(rocket, "2222", OPENSPIEL)
    assert not impl.beats("3333", rocket, Rules(kickers="repeat"))


# -- the real engines' universes -------------------------------------------------------

@pytest.mark.slow
@_needs("douzero")
def test_douzero_generator_makes_the_profiles_card_sets():
    from douzero.env.move_generator import MovesGener
    ranks = list(range(3, 15)) + [17, 20, 30]
    deck = [r for r in ranks[:13] for _ in range(4)] + [20, 30]
    theirs = set()
    for move in MovesGener(deck).gen_moves():
        if len(move) <= 20:
            counts = [0] * 15
            for card in move:
                counts[ranks.index(card)] += 1
            theirs.add(tuple(counts))
    assert theirs == {p.counts for p in reference.all_plays(DOUZERO)}


@_needs("pyspiel")
def test_openspiel_actions_are_the_profiles_plays():
    import pyspiel
    state = pyspiel.load_game("dou_dizhu").new_initial_state()
    chars = "3456789TJQKA2BR"
    theirs = collections.Counter()
    for a in range(4, 26057):
        text = state.action_to_string(0, a).replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", "")
        counts = [0] * 15
        for ch in text:
            counts[chars.index(ch)] += 1
        theirs[tuple(counts)] += 1
    assert theirs == collections.Counter(p.counts for p in reference.all_plays(OPENSPIEL))
