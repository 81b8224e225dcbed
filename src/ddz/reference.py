"""The pure-Python reference rules engine: the test oracle (DESIGN.md).

Written to be obviously correct, not fast, and independently of the Cython core:

* :func:`readings` tries every play type, chain length and main rank whose main part
  the cards contain, and checks the rest of the cards against the kicker rules of
  RULES.md §2.1 (:func:`single_kickers_ok`, :func:`pair_kickers_ok`);
* :func:`all_plays` lists every main part and every kicker multiset allowed by the same
  two predicates;
* :func:`legal_moves` keeps, from :func:`all_plays`, the plays the hand contains that
  beat the play to beat (RULES.md §2.3).

Move order (shared by every implementation): the pass first when responding, then plays
sorted by :attr:`ddz.Play.sort_key`: type (in :class:`ddz.PlayType` order), chain length,
width (copies of each body rank: the size of a bomb), main rank, then kickers as ascending
rank tuples compared lexicographically. Plays of the types in ``rules.banned`` are not
plays: they are never read, listed or legal.

Only argument checking uses numpy (through :mod:`ddz._args`); the logic is plain ints.
"""

from __future__ import annotations

import functools
import itertools
from typing import Dict, List, Optional, Sequence, Tuple

from . import _args
from .cards import BIG_JOKER, CHAIN_RANKS, NUM_RANKS, R2, SMALL_JOKER, CardsLike
from .errors import InvalidPlayError
from .play import KICKER_UNITS, MIN_CHAIN, PASS, Play, PlayType
from .rules import STANDARD, Rules

__all__ = ["readings", "classify", "beats", "legal_moves", "count_legal_moves", "all_plays",
           "single_kickers_ok", "pair_kickers_ok"]

T = PlayType
Counts = Tuple[int, ...]

# Every type but the pass and the rocket: (type, body width, is a chain, highest body rank).
_SHAPES = [
    (T.SINGLE, 1, False, BIG_JOKER),
    (T.PAIR, 2, False, R2),
    (T.TRIO, 3, False, R2),
    (T.TRIO_SINGLE, 3, False, R2),
    (T.TRIO_PAIR, 3, False, R2),
    (T.STRAIGHT, 1, True, CHAIN_RANKS - 1),
    (T.PAIR_STRAIGHT, 2, True, CHAIN_RANKS - 1),
    (T.AIRPLANE, 3, True, CHAIN_RANKS - 1),
    (T.AIRPLANE_SINGLES, 3, True, CHAIN_RANKS - 1),
    (T.AIRPLANE_PAIRS, 3, True, CHAIN_RANKS - 1),
    (T.FOUR_TWO_SINGLES, 4, False, R2),
    (T.FOUR_TWO_PAIRS, 4, False, R2),
    (T.BOMB, 4, False, R2),
]


def _kicker_units(t: PlayType, length: int) -> Tuple[int, int]:
    """(number of kickers, cards per kicker) of a type and chain length."""
    per, size = KICKER_UNITS.get(t, (0, 0))
    return per * length, size


def single_kickers_ok(kick: Counts, lo: int, hi: int, rules: Rules, chain: bool) -> bool:
    """Are ``kick`` (15 counts) allowed as the single kickers of a main part on ranks
    ``lo..hi``? RULES.md §2.1 rules 1–3 and the ``kickers`` option.

    ``chain`` says whether the main part is an airplane (for the ``"repeat"`` rule that a
    trio next to the chain is never a wing).
    """
    for r in range(NUM_RANKS):
        c = kick[r]
        if not c:
            continue
        if lo <= r <= hi:                       # rule 1: never the main part's rank
            return False
        if c >= 4:                              # rule 2: never four of a rank
            return False
        if c > 1 and not rules.repeat_kickers:  # "distinct": single kickers differ
            return False
        if r >= SMALL_JOKER and c > rules.decks:  # the deck holds one of each joker
            return False
        if c == 3 and chain and r < CHAIN_RANKS and (r == lo - 1 or r == hi + 1):
            return False                        # "repeat": that trio lengthens the airplane
    if kick[SMALL_JOKER] and kick[BIG_JOKER]:   # rule 2: never both jokers
        return False
    return True


def pair_kickers_ok(kick: Counts, lo: int, hi: int) -> bool:
    """Are ``kick`` (15 counts) allowed as pair kickers of a main part on ranks ``lo..hi``?
    Each rank 0 or 2 cards (rule 5: pairs differ), no jokers (rule 3), not a body rank (rule 1).
    """
    for r in range(NUM_RANKS):
        c = kick[r]
        if not c:
            continue
        if c != 2 or r > R2 or lo <= r <= hi:
            return False
    return True


def _max_length(width: int, kick_cards_per_rank: int, rules: Rules) -> int:
    """Longest chain one hand can hold (derived from ``rules.max_hand``, RULES.md §2)."""
    return min(CHAIN_RANKS, rules.max_hand // (width + kick_cards_per_rank))


def readings(cards: CardsLike, rules: Rules = STANDARD) -> List[Play]:
    """Every reading of a card multiset as a play, in move order.

    :param cards: notation, or 15 counts.
    :param rules: the rule set.
    :returns: list of :class:`Play`; ``[PASS]`` for no cards; empty if the cards form no play.
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    rules = _args.rules_arg(rules)
    return _readings(_args.cards_arg(cards, rules), rules)


def _readings(counts: Counts, rules: Rules) -> List[Play]:
    n = sum(counts)
    if n == 0:
        return [PASS]
    if n > rules.max_hand:
        return []
    out: List[Play] = []
    if n == 2 and counts[SMALL_JOKER] == 1 and counts[BIG_JOKER] == 1 and T.ROCKET not in rules.banned:
        out.append(Play(T.ROCKET, BIG_JOKER, 1))
    for t, width, chain, top in _SHAPES:
        if t in rules.banned:           # Rules.banned: not a play under these rules
            continue
        kunits, ksize = _kicker_units(t, 1)
        per_rank = width + kunits * ksize
        if n % per_rank:
            continue
        length = n // per_rank
        if chain:
            if length < MIN_CHAIN[t] or length > CHAIN_RANKS:
                continue
        elif length != 1:
            continue
        for hi in range(length - 1, top + 1):
            lo = hi - length + 1
            if any(counts[r] < width for r in range(lo, hi + 1)):
                continue
            rest = list(counts)
            for r in range(lo, hi + 1):
                rest[r] -= width
            rest_t = tuple(rest)
            if ksize == 0:
                ok = not any(rest_t)
            elif ksize == 1:
                ok = single_kickers_ok(rest_t, lo, hi, rules, chain)
            else:
                ok = pair_kickers_ok(rest_t, lo, hi)
            if ok:
                kick = [r for r in range(NUM_RANKS) for _ in range(rest_t[r])]
                out.append(Play(t, hi, length, kick))
    out.sort()
    return out


def classify(cards: CardsLike, rules: Rules = STANDARD) -> Play:
    """The play a card multiset forms (RULES.md §2).

    :param cards: notation or 15 counts; no cards gives the pass.
    :returns: the :class:`Play`.
    :raises InvalidPlayError: the cards form no play (the message says so, quoting them),
        or more than one (impossible under the rule sets of RULES.md §2.1).
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    rules = _args.rules_arg(rules)
    counts = _args.cards_arg(cards, rules)
    return _args.the_reading(_readings(counts, rules), counts, rules)


def beats(play: Play, other: Play, rules: Rules = STANDARD) -> bool:
    """Does ``play`` beat ``other``? RULES.md §2.2.

    :param play: the response (a :class:`Play` or notation); the pass beats nothing.
    :param other: the play to beat (not the pass).
    :returns: ``True`` if ``play`` may be played on ``other``.
    :raises InvalidPlayError: either is not a play under ``rules``, or ``other`` is the pass.
    :raises ImpossibleHandError: the two plays together hold more of a rank than the deck.
    """
    rules = _args.rules_arg(rules)
    play = _args.play_arg(play, rules)
    other = _args.play_arg(other, rules, "the play to beat")
    if not other:
        raise InvalidPlayError("nothing beats the pass: give the last non-pass play of the trick")
    _args.together(play.counts, other.counts, rules, f"{str(play)!r}", f"the play to beat {str(other)!r}")
    return _beats(play, other)


def _beats(a: Play, b: Play) -> bool:
    if a.type is T.PASS or b.type is T.ROCKET:   # nothing beats a rocket
        return False
    if a.type is T.ROCKET:
        return True
    if a.type is T.BOMB:             # RULES.md §7: more cards first, then the rank
        return b.type is not T.BOMB or (a.width, a.rank) > (b.width, b.rank)
    if b.type is T.BOMB:
        return False
    return a.type is b.type and a.length == b.length and a.rank > b.rank


def _kicker_choices(t: PlayType, lo: int, hi: int, rules: Rules, chain: bool):
    """Every allowed kicker multiset (as sorted rank tuples, in lexicographic order)."""
    kunits, ksize = _kicker_units(t, hi - lo + 1)
    if ksize == 0:
        yield ()
        return
    if ksize == 1:
        for combo in itertools.combinations_with_replacement(range(NUM_RANKS), kunits):
            kick = [0] * NUM_RANKS
            for r in combo:
                kick[r] += 1
            if single_kickers_ok(tuple(kick), lo, hi, rules, chain):
                yield combo
    else:
        for combo in itertools.combinations(range(R2 + 1), kunits):
            kick = [0] * NUM_RANKS
            for r in combo:
                kick[r] += 2
            if pair_kickers_ok(tuple(kick), lo, hi):
                yield tuple(r for r in combo for _ in range(2))


@functools.lru_cache(maxsize=None)
def _universe(rules: Rules) -> Tuple[Play, ...]:
    plays: List[Play] = []
    for t, width, chain, top in _SHAPES:
        if t in rules.banned:
            continue
        kunits, ksize = _kicker_units(t, 1)
        lengths = range(MIN_CHAIN[t], _max_length(width, kunits * ksize, rules) + 1) if chain else [1]
        for length in lengths:
            for hi in range(length - 1, top + 1):
                lo = hi - length + 1
                for kick in _kicker_choices(t, lo, hi, rules, chain):
                    plays.append(Play(t, hi, length, kick))
    if T.ROCKET not in rules.banned:
        plays.append(Play(T.ROCKET, BIG_JOKER, 1))
    plays.sort()
    return tuple(plays)


def all_plays(rules: Rules = STANDARD) -> List[Play]:
    """Every play one deck can form under ``rules`` (the pass not included), in move order.

    :returns: a new list; 12,654 plays with ``kickers="distinct"``, 27,471 with ``"repeat"``.
    """
    return list(_universe(_args.rules_arg(rules).move_rules))


# -- legal moves: filter the universe ----------------------------------------------

_FIELD = 5  # bits per rank in the packed form below; counts are < 16


def _pack(counts: Sequence[int]) -> int:
    return sum(c << (_FIELD * r) for r, c in enumerate(counts))


_GUARD = _pack([16] * NUM_RANKS)


def _contains(packed_hand: int, packed_play: int) -> bool:
    # Each 5-bit field holds hand[r] + 16 - play[r], which is >= 16 (guard bit set)
    # exactly when hand[r] >= play[r]; fields never borrow from each other.
    return ((packed_hand | _GUARD) - packed_play) & _GUARD == _GUARD


@functools.lru_cache(maxsize=None)
def _index(rules: Rules):
    """Universe packed for filtering: all plays, by (type, length), and the bombs+rocket."""
    every = [(p, _pack(p.counts)) for p in _universe(rules.move_rules)]
    groups: Dict[Tuple[PlayType, int], list] = {}
    for item in every:
        groups.setdefault((item[0].type, item[0].length), []).append(item)
    bombs = [item for item in every if item[0].type in (T.BOMB, T.ROCKET)]
    return every, groups, bombs


def legal_moves(hand: CardsLike, to_beat: Optional[Play] = None,
                rules: Rules = STANDARD) -> List[Play]:
    """Every legal move for ``hand`` (RULES.md §2.3), in move order.

    :param hand: notation or 15 counts (at most ``rules.max_hand`` cards).
    :param to_beat: the last non-pass play of the trick (a :class:`Play` or notation),
        or ``None`` when leading.
    :param rules: the rule set.
    :returns: list of :class:`Play`: when responding the pass first, then the plays
        that beat ``to_beat``; when leading every play the hand holds (never the pass).
    :raises NotationError, HandError, ImpossibleHandError: bad ``hand``, or a hand that
        holds cards of the play to beat beyond the deck.
    :raises InvalidPlayError: ``to_beat`` is not a play (or is the pass).
    """
    rules = _args.rules_arg(rules)
    counts = _args.hand_arg(hand, rules)
    beat = _args.to_beat_arg(to_beat, rules, counts)
    return _legal_moves(counts, beat, rules)


def _legal_moves(counts: Counts, beat: Optional[Play], rules: Rules) -> List[Play]:
    every, groups, bombs = _index(rules.move_rules)
    h = _pack(counts)
    if beat is None:
        return [p for p, pk in every if _contains(h, pk)]
    out = [PASS]
    if beat.type not in (T.BOMB, T.ROCKET):
        out.extend(p for p, pk in groups.get((beat.type, beat.length), ())
                   if p.rank > beat.rank and _contains(h, pk))
    out.extend(p for p, pk in bombs if _contains(h, pk) and _beats(p, beat))
    return out


def count_legal_moves(hand: CardsLike, to_beat: Optional[Play] = None,
                      rules: Rules = STANDARD) -> int:
    """``len(legal_moves(hand, to_beat, rules))``; same arguments and errors."""
    return len(legal_moves(hand, to_beat, rules))
