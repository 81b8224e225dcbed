"""The Cython core (``ddz.fast`` over ``ddz._core``) against the reference oracle and RLCard.

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

import functools
import inspect
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ddz
from ddz import (PASS, REPEAT_KICKERS, STANDARD, DdzError, ImpossibleHandError, Play, PlayType,
                 format_cards)
from ddz import _core, fast, reference
from ddz.tables import table

T = PlayType
RULESETS = [STANDARD, REPEAT_KICKERS]
RULE_IDS = ["distinct", "repeat"]
DECK = np.array([4] * 13 + [1, 1], dtype=np.uint8)
CARDS = np.repeat(np.arange(15), DECK)          # the 54 cards as ranks
API = ["readings", "classify", "beats", "legal_moves", "count_legal_moves", "all_plays"]


@functools.lru_cache(maxsize=None)
def universe(rules):
    """Reference universe as arrays: plays, codes, counts[N,15], types, lengths, ranks."""
    plays = reference.all_plays(rules)
    codes = np.array([p.code for p in plays], dtype=np.int64)
    counts = np.array([p.counts for p in plays], dtype=np.uint8)
    types = np.array([int(p.type) for p in plays])
    lengths = np.array([p.length for p in plays])
    ranks = np.array([p.rank for p in plays])
    return plays, codes, counts, types, lengths, ranks


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


def deal(rng, size):
    """A random hand of ``size`` cards and the counts of the other cards."""
    perm = rng.permutation(CARDS)
    hand = np.bincount(perm[:size], minlength=15).astype(np.uint8)
    return hand, DECK - hand


def play_from(rng, cards, rules):
    """A random play the multiset ``cards`` can form: a type first (uniformly among the
    types present), then a play of that type, so rare types are well represented."""
    plays, codes, counts, types, _, _ = universe(rules)
    idx = np.flatnonzero((counts <= cards).all(axis=1))
    present = np.unique(types[idx])
    t = rng.choice(present)
    pick = idx[types[idx] == t]
    return plays[int(rng.choice(pick))]


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
        assert fast.classify(p.counts, rules) is not None
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


def small_hands(limit=6):
    """Every count vector of at most ``limit`` cards (46,440 for 6)."""
    out = []
    cur = [0] * 15

    def rec(r, left):
        if r == 15:
            out.append(tuple(cur))
            return
        for c in range(min(DECK[r], left) + 1):
            cur[r] = c
            rec(r + 1, left - c)
        cur[r] = 0
    rec(0, limit)
    return np.array(out, dtype=np.uint8)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_legal_moves_exhaustive_small_hands(rules):
    hands = small_hands(6)
    assert len(hands) == 46440
    plays, codes, counts, *_ = universe(rules)
    small = counts.sum(axis=1) <= 6
    scodes, scounts = codes[small], counts[small]
    repeat = int(rules.repeat_kickers)
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


# -- RLCard ---------------------------------------------------------------------------

rlcard = pytest.importorskip("rlcard")


def rlcard_action_space():
    path = os.path.join(os.path.dirname(rlcard.__file__), "games", "doudizhu", "jsondata.zip")
    with zipfile.ZipFile(path) as z:
        return z.read("jsondata/action_space.txt").decode().split()


def test_repeat_universe_is_rlcard_action_space():
    actions = rlcard_action_space()
    assert len(actions) == 27472 and "pass" in actions
    ours = [format_cards(p.counts) for p in fast.all_plays(REPEAT_KICKERS)]
    assert len(set(ours)) == len(ours) == 27471
    assert set(ours) == set(actions) - {"pass"}


class _Card:
    def __init__(self, ch):
        self.rank, self.suit = ch, ""


class _Player:
    def __init__(self, text="", played=""):
        self.current_hand = [_Card(c) for c in text]
        self.played_cards = played


def test_legal_moves_equal_rlcard():
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    rng = np.random.default_rng(17)
    for i in range(300):
        hand, rest = deal(rng, 17 if i % 2 else 20)
        text = format_cards(hand)
        ours = {format_cards(p.counts) for p in fast.legal_moves(hand, None, REPEAT_KICKERS)}
        assert ours == DoudizhuJudger.playable_cards_from_hand(text), text
        beat = play_from(rng, rest, REPEAT_KICKERS)
        ours = [format_cards(p.counts) if p else "pass"
                for p in fast.legal_moves(hand, beat, REPEAT_KICKERS)]
        theirs = get_gt_cards(_Player(text), _Player(played=format_cards(beat.counts)))
        assert sorted(ours) == sorted(theirs), (text, str(beat))


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
    ref_fn = ddz.moves._reference_legal_moves_array if name == "legal_moves_array" \
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
    assert fast_fn(strided, None, rules) == ref_fn(strided, None, rules) or name == "legal_moves_array"


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
        inspect.signature(ddz.moves._reference_legal_moves_array)
    assert inspect.signature(fast.legal_moves_array).parameters.keys() == \
        inspect.signature(fast.legal_moves).parameters.keys()


def test_chooser_uses_core():
    assert ddz.IMPLEMENTATION == "core" or os.environ.get("DDZ_NO_EXTENSIONS")
    if ddz.IMPLEMENTATION == "core":
        assert ddz.legal_moves is fast.legal_moves
        assert ddz.legal_moves_array is fast.legal_moves_array


def test_env_switch_subprocess():
    src = os.path.dirname(os.path.dirname(ddz.__file__))
    code = ("import ddz; print(ddz.IMPLEMENTATION, ddz.legal_moves is ddz.reference.legal_moves, "
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
