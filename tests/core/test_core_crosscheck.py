"""The Cython core (``ddz.core.compiled`` over ``ddz.core._core``) against the reference oracle and RLCard.

* every play of the universe classifies and compares identically;
* legal moves agree as sequences (same moves, same order) on random deals, leading and
  responding to plays the other cards can form (so every play type is represented),
  and on every hand of up to 6 cards;
* with ``kickers="repeat"`` the universe is RLCard's action space and the legal moves
  are RLCard's;
* bad input raises the same exception class from both paths; both modules expose the
  same names and signatures; ``DDZ_NO_EXTENSIONS=1`` switches the chooser.

Where a check runs over tens of thousands of positions, the oracle is the reference's own
definition of legal moves evaluated with numpy: its universe (``reference.all_plays``),
in its order, filtered by card containment and ``reference._beats`` (as
``reference._legal_moves`` does); it is tied to ``reference.legal_moves`` itself on
random positions in ``test_legal_moves_random``.
"""

from __future__ import annotations

import inspect
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ddz
from ddz import (PASS, REPEAT_KICKERS, DdzError, ImpossibleHandError, Play, Rules,
                 PlayType, format_cards)
from ddz.core import compiled as fast
from ddz.core import reference
from ddz.core.tables import table
from conftest import (CARDS, DECK, RULE_IDS, RULESETS, deal, play_from, profile_positions, small_hands,
                      universe_arrays as universe)

PROFILE_NAMES = ["rlcard", "douzero", "openspiel"]

pytestmark = pytest.mark.crosscheck   # counted by the guard in conftest.py

T = PlayType
API = ["readings", "classify", "beats", "legal_moves", "count_legal_moves", "all_plays"]


def oracle_codes(hand, beat, rules):
    """``reference._legal_moves`` evaluated with numpy (see the module docstring)."""
    plays, codes, counts, types, lengths, ranks = universe(rules)
    held = (counts <= np.asarray(hand, dtype=np.uint8)).all(axis=1)
    if beat is None:
        return codes[held]
    ok = held & (types >= T.BOMB)
    if beat.type is T.ROCKET:
        ok[:] = False
    elif beat.type is T.BOMB:
        ok &= (types == T.ROCKET) | (ranks > beat.rank)
    else:
        ok |= held & (types == beat.type) & (lengths == beat.length) & (ranks > beat.rank)
    return np.concatenate([[0], codes[ok]])


# -- the universe, classification and comparison ------------------------------------

@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_all_plays_identical(rules):
    ref = reference.all_plays(rules)
    got = fast.all_plays(rules)
    assert got == ref
    assert len(got) == (27471 if rules.repeat_kickers else 12654)
    assert table(rules).codes[1:].tolist() == [p.code for p in ref]


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_every_play_classifies_identically(rules):
    for p in reference.all_plays(rules):
        assert fast.readings(p.counts, rules) == [p], p
        assert fast.classify(p.counts, rules) == p
        assert reference.classify(p.counts, rules) == p
    assert fast.readings(np.zeros(15, np.uint8), rules) == [PASS]


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_random_multisets_classify_identically(rules):
    rng = np.random.default_rng(11)
    for _ in range(4000):
        size = int(rng.integers(0, 21))
        cards = np.bincount(rng.permutation(CARDS)[:size], minlength=15).astype(np.uint8)
        assert fast.readings(cards, rules) == reference.readings(cards, rules), format_cards(cards)
    # multisets that are almost plays: a play plus or minus one card
    plays = reference.all_plays(rules)
    for i in rng.choice(len(plays), 3000, replace=False):
        c = np.array(plays[i].counts, dtype=np.int64)
        r = int(rng.integers(0, 15))
        c[r] += 1 if c[r] < DECK[r] else -1
        assert fast.readings(c, rules) == reference.readings(c, rules), format_cards(c)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_beats_identical(rules):
    plays = reference.all_plays(rules)
    rng = np.random.default_rng(5)
    groups = {}
    for p in plays:
        groups.setdefault((p.type, p.length), []).append(p)
    specials = groups[(T.BOMB, 1)] + groups[(T.ROCKET, 1)]
    beats = table(rules).beats
    for key, members in groups.items():
        if len(members) > 150:   # all pairs of a sample that holds every main rank
            by_rank = {p.rank: p for p in members}
            extra = [members[i] for i in rng.choice(len(members), 150, replace=False)]
            members = list(by_rank.values()) + extra
        for a in members + specials:
            ca = a.code
            for b in members:
                assert beats(ca, b.code) == reference._beats(a, b), (a, b)
                assert beats(b.code, ca) == reference._beats(b, a), (b, a)
    # a large random sample of pairs across groups
    codes = [p.code for p in plays]
    for i, j in rng.integers(0, len(plays), size=(100_000, 2)):
        assert beats(codes[i], codes[j]) == reference._beats(plays[i], plays[j])
    # the public functions, with their argument checking
    # (pairs that cannot share one deck raise the same error from both)
    for i, j in rng.integers(0, len(plays), size=(300, 2)):
        a, b = plays[i], plays[j]
        try:
            expected = reference.beats(a, b, rules)
        except ImpossibleHandError:
            with pytest.raises(ImpossibleHandError):
                fast.beats(a, b, rules)
            continue
        assert fast.beats(a, b, rules) == expected
        assert fast.beats(str(a), str(b), rules) == expected
    assert fast.beats(PASS, plays[0], rules) is False


# -- legal moves --------------------------------------------------------------------

def check_position(hand, beat, rules, with_reference=True):
    got = fast.legal_moves(hand, beat, rules)
    arr = fast.legal_moves_array(hand, beat, rules)
    assert arr.dtype == np.int64
    assert [p.code for p in got] == arr.tolist()
    assert fast.count_legal_moves(hand, beat, rules) == len(got)
    if with_reference:
        assert got == reference.legal_moves(hand, beat, rules), (format_cards(hand), beat)
    else:
        assert arr.tolist() == oracle_codes(hand, beat, rules).tolist(), (format_cards(hand), beat)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_legal_moves_random(rules):
    """3,000 deals x (leading, responding) = 6,000 positions, against the reference."""
    rng = np.random.default_rng(2024 + rules.repeat_kickers)
    seen = set()
    for i in range(3000):
        hand, rest = deal(rng, 17 if i % 2 else 20)
        check_position(hand, None, rules)
        beat = play_from(rng, rest, rules)
        seen.add(beat.type)
        check_position(hand, beat, rules)
    assert seen == set(T) - {T.PASS}


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_legal_moves_exhaustive_small_hands(rules):
    hands = small_hands(6)
    assert len(hands) == 46440
    plays, codes, counts, *_ = universe(rules)
    small = counts.sum(axis=1) <= 6
    scodes, scounts = codes[small], counts[small]
    for h in hands:
        want = scodes[(scounts <= h).all(axis=1)]
        got = fast.legal_moves_array(h, None, rules)
        assert np.array_equal(got, want), format_cards(h)
        assert table(rules).count_legal(h, 0) == len(want)
    # responding, on a sample, against the reference itself
    rng = np.random.default_rng(3)
    for i in rng.choice(len(hands), 1500, replace=False):
        h = hands[i]
        beat = play_from(rng, DECK - h, rules)
        check_position(h, beat, rules)
        if i % 5 == 0:
            check_position(h, None, rules)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 53), min_size=0, max_size=20, unique=True),
       st.integers(0, 10 ** 9), st.booleans())
def test_legal_moves_hypothesis(cards, seed, repeat):
    rules = RULESETS[repeat]
    hand = np.bincount(CARDS[cards], minlength=15).astype(np.uint8) if cards else \
        np.zeros(15, np.uint8)
    check_position(hand, None, rules)
    rng = np.random.default_rng(seed)
    check_position(hand, play_from(rng, DECK - hand, rules), rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_legal_moves_million(rules):
    """1,000,000 random positions per rule set (pytest -m slow), against the numpy oracle."""
    n = int(os.environ.get("DDZ_SLOW_POSITIONS", 1_000_000))
    rng = np.random.default_rng(99 + rules.repeat_kickers)
    for i in range(n // 2):
        hand, rest = deal(rng, int(rng.integers(1, 21)))
        check_position(hand, None, rules, with_reference=False)
        check_position(hand, play_from(rng, rest, rules), rules, with_reference=False)


# -- bad input, names, the chooser ----------------------------------------------------

BAD_HANDS = [
    "333334",                                   # five 3s
    "3X",                                       # not notation
    np.zeros(14, np.uint8),                     # wrong shape
    np.zeros((15, 1), np.uint8),
    np.full(15, 0.5),                           # not integers
    np.zeros(15, bool),
    np.array([5] + [0] * 14, np.uint8),         # over the deck
    np.array([0] * 13 + [2, 0], np.uint8),      # two small jokers
    np.array([-1] + [0] * 14),                  # negative
    np.array([4] * 6 + [0] * 9, np.uint8),      # 24 cards: more than a hand
    "33334444555566667777B",                    # 21 cards
    None,
    b"345",
    {3: 1},
    [1, 2, 3],
]

BAD_BEATS = [
    ("3456", "33334444"),        # not a play
    ("2222", PASS),              # the pass
    ("2222", "pass"),
    ("2222", "XYZ"),             # bad notation
    ("2222", "22"),              # 2s beyond the deck together with the hand
    ("345", 42),                 # wrong type
    ("33344455", Play(T.AIRPLANE_SINGLES, 1, 2, (5, 5))),   # "repeat" only
]


def outcome(fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc)
    return None


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
@pytest.mark.parametrize("name", ["legal_moves", "count_legal_moves", "legal_moves_array"])
def test_bad_input_same_exception(name, rules):
    ref_fn = ddz.core._reference_legal_moves_array if name == "legal_moves_array" \
        else getattr(reference, name)
    fast_fn = getattr(fast, name)
    for hand in BAD_HANDS:
        want = outcome(ref_fn, hand, None, rules)
        assert outcome(fast_fn, hand, None, rules) is want, hand
    for hand, beat in BAD_BEATS:
        want = outcome(ref_fn, hand, beat, rules)
        if not (rules.repeat_kickers and isinstance(beat, Play)):
            assert want is not None and issubclass(want, DdzError), (hand, beat)
        assert outcome(fast_fn, hand, beat, rules) is want, (hand, beat)
    assert outcome(fast_fn, "345", None, "distinct") is outcome(ref_fn, "345", None, "distinct")
    # a valid hand that is not a contiguous uint8 array takes the checked path
    strided = np.zeros(30, np.uint8)[::2]
    strided[0] = 1
    got, want = fast_fn(strided, None, rules), ref_fn(strided, None, rules)
    if name == "legal_moves_array":
        assert got.tolist() == want.tolist() and len(got) == 1
    else:
        assert got == want and want in (1, [Play.parse("3")])


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_bad_input_classify_beats(rules):
    for cards in BAD_HANDS + ["33334444", "JQKA2", "", "3" * 4 + "4" * 4 + "5" * 4 + "6" * 4 + "7777BR"]:
        for name in ("readings", "classify"):
            want = outcome(getattr(reference, name), cards, rules)
            assert outcome(getattr(fast, name), cards, rules) is want, (name, cards)
    for a, b in [("3333", "pass"), ("33334444", "3"), ("3", "33334444"), ("3", 3), (3, "3"),
                 ("pass", "3"), ("44445", "3"), ("4", "3")]:
        want = outcome(reference.beats, a, b, rules)
        assert outcome(fast.beats, a, b, rules) is want, (a, b)
    assert outcome(fast.all_plays, None) is outcome(reference.all_plays, None)


def test_same_names_and_signatures():
    for name in API:
        assert inspect.signature(getattr(fast, name)) == inspect.signature(getattr(reference, name)), name
    assert set(API) <= set(fast.__all__) and set(API) <= set(reference.__all__)
    assert inspect.signature(fast.legal_moves_array) == \
        inspect.signature(ddz.core._reference_legal_moves_array)
    assert inspect.signature(fast.legal_moves_array).parameters.keys() == \
        inspect.signature(fast.legal_moves).parameters.keys()


def test_chooser_uses_core():
    assert ddz.IMPLEMENTATION == "core" or ddz.core.implementation.NO_EXTENSIONS
    if ddz.IMPLEMENTATION == "core":
        assert ddz.legal_moves is fast.legal_moves
        assert ddz.legal_moves_array is fast.legal_moves_array


def test_env_switch_subprocess():
    src = os.path.dirname(os.path.dirname(ddz.__file__))
    code = ("import ddz; print(ddz.IMPLEMENTATION, ddz.legal_moves is ddz.core.reference.legal_moves, "
            "ddz.legal_moves_array('33', '4').tolist(), ddz.legal_moves_array('BR', '2222').tolist())")
    outs = {}
    for flag in ("1", None):
        env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("DDZ_NO_EXTENSIONS", None)
        if flag:
            env["DDZ_NO_EXTENSIONS"] = flag
        res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True, cwd=os.path.dirname(src))
        outs[flag] = res.stdout.split(" ", 2)
    rocket = Play(T.ROCKET, 14, 1).code
    assert outs["1"][:2] == ["reference", "True"]
    assert outs[None][:2] == ["core", "False"]
    assert outs["1"][2] == outs[None][2] == f"[0] [0, {rocket}]\n"


def test_examples_both(impl):
    """A few RULES.md §8 rows on each implementation (the full table is elsewhere)."""
    assert impl.count_legal_moves("33344455") == 18
    assert impl.count_legal_moves("33344455", None, REPEAT_KICKERS) == 19
    assert impl.legal_moves("666777888999", "333444555JQK", REPEAT_KICKERS) == [PASS]
    assert [str(p) for p in impl.legal_moves("BR", "2222")] == ["pass", "BR"]
    assert impl.beats("3333", "444456") is True
    assert impl.beats("44445566", "3333") is False


# -- the cross-check catches a broken core (mutation test) ---------------------------------

class _MutantTable:
    """A rule set's table whose move generation drops its last move or adds one more
    (a play the hand does not hold), everything else delegated to the real table."""

    def __init__(self, real, mode):
        self._real, self._mode = real, mode

    def __getattr__(self, name):
        return getattr(self._real, name)

    def _extra(self, moves):
        return next(p for p in self._real.plays[1:] if p not in moves)

    def _mutate(self, moves):
        moves = list(moves)
        if self._mode == "drop" and moves:
            return moves[:-1]
        if self._mode == "add":
            return moves + [self._extra(moves)]
        return moves

    def moves(self, hand, code=0):
        return self._mutate(self._real.moves(hand, code))

    def legal_codes(self, hand, code=0):
        plays = [self._real.plays[self._real.index_of(c)] for c in self._real.legal_codes(hand, code)]
        return np.array([p.code for p in self._mutate(plays)], dtype=np.int64)

    def count_legal(self, hand, code=0):
        return len(self.moves(hand, code))


@pytest.mark.parametrize("mode", ["drop", "add"])
@pytest.mark.parametrize("with_reference", [True, False], ids=["reference", "numpy-oracle"])
def test_a_core_that_drops_or_adds_a_move_fails_the_cross_check(monkeypatch, mode, with_reference):
    rules = REPEAT_KICKERS
    rng = np.random.default_rng(8)
    positions = []
    for i in range(20):
        hand, rest = deal(rng, 17)
        positions.append((hand, None if i % 2 else play_from(rng, rest, rules)))
    for hand, beat in positions:      # the real core passes
        check_position(hand, beat, rules, with_reference)
    real = table(rules)
    mutant = _MutantTable(real, mode)
    monkeypatch.setattr(fast, "_table", lambda r: mutant if r == rules else table(r))
    failures = 0
    for hand, beat in positions:
        try:
            check_position(hand, beat, rules, with_reference)
        except AssertionError:
            failures += 1
    assert failures == len(positions)


@pytest.mark.parametrize("rules", RULESETS + [Rules(banned={"BOMB", "TRIO_SINGLE"}), Rules.four_player()],
                         ids=RULE_IDS + ["banned", "four"])
def test_beats_of_plain_notation(rules):
    """``beats`` reads plain notation in C on its fast path: the same answers and the same
    refusals as the reference, card order and banned types included."""
    plays = reference.all_plays(rules.universe_rules)
    rng = np.random.default_rng(17)
    checked = 0
    for i, j in rng.integers(0, len(plays), size=(800, 2)):
        a, b = plays[i], plays[j]
        texts = [format_cards(a.counts)[::-1], format_cards(b.counts)]   # not canonical: shuffled order
        try:
            want = reference.beats(texts[0], texts[1], rules)
        except DdzError as exc:
            with pytest.raises(type(exc)):
                fast.beats(texts[0], texts[1], rules)
            continue
        assert fast.beats(texts[0], texts[1], rules) is want
        checked += 1
    assert checked > 100   # most pairs fit one deck; the others must be refused alike

# -- engine profiles (RULES.md §2.5): core against reference ------------------------------

def _profile_positions(rules, n, seed):
    rng = random.Random(seed)
    universe = reference.all_plays(rules)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    for i in range(n):
        rng.shuffle(deck)
        hand = [0] * 15
        for c in deck[:rng.choice((17, 20))]:
            hand[c] += 1
        rest = [(4 if r < 13 else 1) - hand[r] for r in range(15)]
        beat = None
        if i % 5:
            for p in rng.sample(universe, 300):
                if all(a <= b for a, b in zip(p.counts, rest)):
                    beat = p
                    break
        yield hand, beat


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_core_equals_reference_on_random_positions(name):
    rules = Rules.profile(name)
    types = set()
    for hand, beat in _profile_positions(rules, 600, 14):
        assert fast.legal_moves(hand, beat, rules) == reference.legal_moves(hand, beat, rules), (hand, beat)
        assert fast.count_legal_moves(hand, beat, rules) == len(reference.legal_moves(hand, beat, rules))
        if beat is not None:
            types.add(beat.type)
    assert len(types) >= 10


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_core_universe_and_comparison_equal_reference(name):
    rules = Rules.profile(name)
    plays = reference.all_plays(rules)
    assert fast.all_plays(rules) == plays
    rng = random.Random(3)
    airplanes = [p for p in plays if p.type is T.AIRPLANE_SINGLES and p.length == 3]
    for _ in range(3000):
        a, b = rng.sample(airplanes, 2)
        if all(x + y <= (4 if r < 13 else 1) for r, (x, y) in enumerate(zip(a.counts, b.counts))):
            assert fast.beats(a, b, rules) == reference.beats(a, b, rules), (a, b)


@pytest.mark.crosscheck
@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_core_equals_reference_on_positions_the_profile_options_decide(name):
    """Positions drawn for the profiles (plays of the play to beat's type and length in the
    hand; card sets of several readings, wings of a trio, a bomb or the rocket as plays to
    beat): legal moves, and legality of each play in a play state of the core and of the
    reference (``beat_reading``, ``chain_from_four``, ``bomb_on_rocket``: RULES.md §2.5)."""
    from ddz.game.playstate import PyPlayState
    from ddz.game._game import PlayState

    rules = Rules.profile(name)
    t = table(rules)
    seen = set()
    for k, (hand, beat) in enumerate(profile_positions(rules, 300, 41)):
        want = reference.legal_moves(hand, beat, rules)
        assert fast.legal_moves(hand, beat, rules) == want, (hand, beat)
        if k % 5 == 0:            # the play states' own legality test (a fit check and beats)
            tb = 0 if beat is None else t.index_of_play[beat]
            left = [int(d) - h - (beat.counts[r] if beat else 0) for r, (d, h) in enumerate(zip(DECK, hand))]
            ranks = [r for r, c in enumerate(left) for _ in range(c)]     # the others: the rest, alternately
            hands = [hand] + [[ranks[s::2][:20].count(r) for r in range(15)] for s in (0, 1)]
            core = PlayState(t, hands, 0, tb, 1 if tb else -1)
            pure = PyPlayState(t, hands, 0, tb, 1 if tb else -1)
            ids = [t.index_of_play[p] for p in want]
            assert core.legal_ids().tolist() == pure.legal_ids().tolist() == ids
            for pid in range(len(t.plays)) if k == 0 else ids + [i for i in range(0, len(t.plays), 97)]:
                assert core.legal(pid) == pure.legal(pid) == (pid in ids), (hand, beat, t.plays[pid])
        seen.add(beat.type if beat else None)
    assert len(seen) >= 11


# -- notation read in C (RuleTable.play_of_text, issue 24) ----------------------------------

NOTATION_RULES = RULESETS + [Rules(banned={"BOMB", "TRIO_SINGLE"}), Rules.four_player(), Rules.profile("openspiel")]
NOTATION_IDS = RULE_IDS + ["banned", "four", "openspiel"]


def _reference_parse(text, rules):
    try:
        return reference.parse_play(text, rules)
    except DdzError as exc:
        return type(exc)


@pytest.mark.parametrize("rules", NOTATION_RULES, ids=NOTATION_IDS)
def test_notation_read_in_c_is_the_parsers_reading(rules):
    """Canonical notation of every play, its plain cards (any order, case, separators) and
    random card texts: ``play_of_text`` answers what the reference parser answers, or
    ``None`` (the Python parser then reads it); canonical notation is always read in C,
    and Play.parse, classify, beats and legal_moves answer as the reference."""
    t = table(rules)
    rng = random.Random(29)
    universe = reference.all_plays(rules.universe_rules)
    read_in_c = 0
    for p in universe:
        want = _reference_parse(str(p), rules)
        got = t.play_of_text(str(p))
        if p.type in rules.excluded:
            assert got is None and want is not p, str(p)
            continue
        assert want == p and got is t.plays[t.index_of_play[p]], str(p)       # canonical: always in C
        plain = format_cards(p.counts)
        shuffled = "".join(rng.sample(plain, len(plain)))
        for text in (plain, shuffled.lower(), " ".join(shuffled), shuffled.replace(shuffled[:1], shuffled[:1] + ",", 1)):
            got = t.play_of_text(text)
            if got is not None:
                read_in_c += 1
                assert got == _reference_parse(text, rules), (text, got)
            assert t.play_of_text(text, False) in (None, got)
    assert read_in_c > len(universe)          # plain cards of most plays are read in C too
    chars = "3456789TJQKA2BRbr+ -,x10"
    for _ in range(3000):
        if rng.random() < 0.5:                # a play with its '+' moved, added or dropped
            p = universe[rng.randrange(len(universe))]
            text = str(p)
            cut = rng.randrange(len(text) + 1)
            text = text.replace("+", "")[:cut] + "+" + text.replace("+", "")[cut:] if rng.random() < 0.7 else text
        else:
            text = "".join(rng.choice(chars) for _ in range(rng.randrange(0, 12)))
        want = _reference_parse(text, rules)
        got = t.play_of_text(text)
        assert got is None or got == want, (text, got, want)
        try:
            core = Play.parse(text, rules)
        except DdzError as exc:
            core = type(exc)
        assert core == want, (text, core, want)
        try:
            mine = fast.classify(text, rules)
        except DdzError as exc:
            mine = type(exc)
        try:
            theirs = reference.classify(text, rules)
        except DdzError as exc:
            theirs = type(exc)
        assert mine == theirs, (text, mine, theirs)


def test_a_play_to_beat_in_any_notation_gives_the_same_moves():
    """``legal_moves(str, str)`` with the play to beat canonical, as plain cards in any
    order, or as a Play: the same moves (the plain text read in C, issue 24)."""
    for rules in (Rules(), REPEAT_KICKERS):
        for hand, beat in [("3345678TTJQKKA2BR", "55669999"), ("33345678899TJQKA2", "4448"),
                           ("3345789TJQKKA22BR", "66669T"), ("3456789TJQKA22BR", "333444+56")]:
            play = Play.parse(beat, rules)
            want = reference.legal_moves(hand, play, rules)
            for text in (beat, str(play), format_cards(play.counts)[::-1], beat.lower()):
                assert fast.legal_moves(hand, text, rules) == want, (hand, text)
                assert fast.count_legal_moves(hand, text, rules) == len(want)
            assert fast.classify(str(play), rules) == fast.classify(play.counts, rules) == play
