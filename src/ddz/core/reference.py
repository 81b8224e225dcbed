"""The pure-Python reference rules engine: the test oracle (DESIGN.md).

Written to be obviously correct, not fast, from RULES.md §2 alone, and independently of
the Cython core (it imports nothing below :mod:`ddz.core.play`: never the core, the chooser
or the tables):

* :func:`all_plays` *builds* the universe: for every play type of its own type table
  (:data:`TYPES`), every main part, and every kicker multiset that the kicker rules of
  RULES.md §2.1 allow, generated rule by rule (:func:`kicker_sets`);
* :func:`readings` / :func:`classify` *look a multiset up* in that universe (an inverse
  index from card counts to plays), where the core *recognises* a multiset type by type:
  one misreading of a rule cannot be made the same way in both;
* :func:`legal_moves` keeps, from the universe, the plays the hand contains that beat the
  play to beat (RULES.md §2.3); the tests also classify every sub-multiset of small hands.

Move order (shared by every implementation): the pass first when responding, then plays
sorted by :attr:`ddz.Play.sort_key`: type (in :class:`ddz.PlayType` order), chain length,
width (copies of each body rank: the size of a bomb), main rank, then kickers as ascending
rank tuples compared lexicographically. Plays of the types in ``rules.banned`` are not
plays: they are never read, listed or legal.

Notation is parsed with this module's own classifier (:func:`parse_play`), and Play
arguments are validated with it too. Only argument checking uses numpy (through
:mod:`ddz.core.arguments`); the logic is plain ints.
"""

from __future__ import annotations

import collections
import functools
import itertools
from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from . import arguments as _args
from .cards import BIG_JOKER, CHAIN_RANKS, NUM_RANKS, R2, RA, SMALL_JOKER, CardsLike
from ..errors import InvalidPlayError
from .play import PASS, Play, PlayLike, PlayType, needs_play_grammar, parse_with, play_arg, the_reading, to_beat_arg
from .rules import STANDARD, Rules

__all__ = ["readings", "classify", "beats", "legal_moves", "count_legal_moves", "all_plays",
           "parse_play", "kicker_sets", "trio_rank", "read_beat", "fits", "TYPES"]

T = PlayType
Counts = Tuple[int, ...]


class Shape(NamedTuple):
    """The reference's own description of a play type (RULES.md §2 table)."""
    width: int          # copies of each rank of the main part
    chain: bool         # a run of consecutive ranks within 3..A
    min_length: int     # shortest run (1 for non-chains)
    top: int            # highest main rank
    kickers: int        # kickers per rank of the main part (per play for the fours)
    kicker_size: int    # cards per kicker: 1 (single) or 2 (pair)


#: RULES.md §2, type by type (the rocket, two jokers, is apart: it has no main rank run)
TYPES: Dict[PlayType, Shape] = {
    T.SINGLE: Shape(1, False, 1, BIG_JOKER, 0, 0),
    T.PAIR: Shape(2, False, 1, R2, 0, 0),
    T.TRIO: Shape(3, False, 1, R2, 0, 0),
    T.TRIO_SINGLE: Shape(3, False, 1, R2, 1, 1),
    T.TRIO_PAIR: Shape(3, False, 1, R2, 1, 2),
    T.STRAIGHT: Shape(1, True, 5, RA, 0, 0),
    T.PAIR_STRAIGHT: Shape(2, True, 3, RA, 0, 0),
    T.AIRPLANE: Shape(3, True, 2, RA, 0, 0),
    T.AIRPLANE_SINGLES: Shape(3, True, 2, RA, 1, 1),
    T.AIRPLANE_PAIRS: Shape(3, True, 2, RA, 1, 2),
    T.FOUR_TWO_SINGLES: Shape(4, False, 1, R2, 2, 1),
    T.FOUR_TWO_PAIRS: Shape(4, False, 1, R2, 2, 2),
    T.BOMB: Shape(4, False, 1, R2, 0, 0),
}


def bomb_widths(rules: Rules) -> range:
    """The sizes a BOMB may have: 4 with one deck; 4 to 8 with two (RULES.md §7)."""
    return range(4, 4 * rules.decks + 1)


def pair_top(rules: Rules) -> int:
    """The highest rank of a PAIR: the 2 with one deck; with two, ``BB`` and ``RR`` are
    pairs too, ``RR`` the highest (RULES.md §7)."""
    return R2 if rules.decks == 1 else BIG_JOKER


def kicker_sets(t: PlayType, lo: int, hi: int, rules: Rules) -> Iterator[Tuple[int, ...]]:
    """Every kicker multiset a main part of type ``t`` on ranks ``lo..hi`` may carry under
    ``rules``, as ascending rank tuples (one entry per card) in lexicographic order,
    generated from the rules of RULES.md §2.1 (and §7 for two decks) one by one."""
    shape = TYPES[t]
    units = shape.kickers * (hi - lo + 1)
    if units == 0:
        yield ()
        return
    allowed = [r for r in range(NUM_RANKS) if not lo <= r <= hi]          # rule 1
    if shape.kicker_size == 2:
        pair_ranks = [r for r in allowed if r <= pair_top(rules)]          # rule 3; §7: BB, RR
        for ranks in itertools.combinations(pair_ranks, units):            # rule 5
            if SMALL_JOKER in ranks and BIG_JOKER in ranks:                # §7: never all four jokers
                continue
            yield tuple(r for r in ranks for _ in range(2))
        return
    if rules.kickers == "distinct":                                        # §2.1 "distinct"
        choices = itertools.combinations(allowed, units)
    else:                                                                  # §2.1 "repeat"
        choices = itertools.combinations_with_replacement(allowed, units)
    anything = rules.wings == "any"          # §2.5: four of a rank and both jokers (DouZero)
    for kick in choices:
        copies = collections.Counter(kick)
        if copies[SMALL_JOKER] > 1 or copies[BIG_JOKER] > 1:               # one of each joker
            continue
        if max(copies.values()) > 4:                                       # one deck's copies
            continue
        if not anything:
            if copies[SMALL_JOKER] and copies[BIG_JOKER]:                  # rule 2: not both jokers
                continue
            if max(copies.values()) >= 4:                                  # rule 2: never four
                continue
        if (shape.chain and rules.wings == "standard"
                and any(copies[r] == 3 for r in (lo - 1, hi + 1) if 0 <= r < CHAIN_RANKS)):
            continue                                  # "repeat": that trio lengthens the airplane
        yield kick


@functools.lru_cache(maxsize=None)
def _universe(rules: Rules) -> Tuple[Play, ...]:
    """Every play of ``rules`` (a ``move_rules`` value), in move order."""
    plays: List[Play] = []
    for t, shape in TYPES.items():
        if t in rules.excluded:
            continue
        per_rank = shape.width + shape.kickers * shape.kicker_size
        if shape.chain:   # the longest chain one hand can hold (RULES.md §2: derived, not fixed)
            lengths = range(shape.min_length, min(CHAIN_RANKS, rules.max_hand // per_rank) + 1)
        else:
            lengths = range(1, 2)
        top = pair_top(rules) if t is T.PAIR else shape.top
        widths = bomb_widths(rules) if t is T.BOMB else (shape.width,)
        for width in widths:
            for length in lengths:
                for hi in range(length - 1, top + 1):
                    for kick in kicker_sets(t, hi - length + 1, hi, rules):
                        plays.append(Play(t, hi, length, kick, width))
    if T.ROCKET not in rules.excluded:    # both jokers: every copy of each (BR, or BBRR)
        plays.append(Play(T.ROCKET, BIG_JOKER, 1, (), rules.decks))
    plays.sort()
    return tuple(plays)


@functools.lru_cache(maxsize=None)
def _by_cards(rules: Rules) -> Dict[Counts, Tuple[Play, ...]]:
    """The inverse of the universe: card counts -> every play with exactly those cards."""
    index: Dict[Counts, List[Play]] = {}
    for p in _universe(rules):
        index.setdefault(p.counts, []).append(p)
    return {k: tuple(v) for k, v in index.items()}


def _readings(counts: Counts, rules: Rules) -> List[Play]:
    """Readings of a validated 15-tuple (the reference's classifier for ``_args``)."""
    if not any(counts):
        return [PASS]
    return list(_by_cards(rules.move_rules).get(tuple(counts), ()))


def readings(cards: CardsLike, rules: Rules = STANDARD) -> List[Play]:
    """Every reading of a card multiset as a play, in move order.

    :param cards: notation, or 15 counts.
    :param rules: the rule set.
    :returns: list of :class:`Play`; ``[PASS]`` for no cards; empty if the cards form no play.
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards``.
    """
    rules = _args.rules_arg(rules)
    return _readings(_args.cards_arg(cards, rules), rules)


def parse_play(text: str, rules: Rules = STANDARD) -> Play:
    """:meth:`ddz.Play.parse` with the reference's classifier (never the core's).

    :raises NotationError, ImpossibleHandError, InvalidPlayError: as :meth:`ddz.Play.parse`.
    """
    return parse_with(text, _args.rules_arg(rules), _readings)


def classify(cards: CardsLike, rules: Rules = STANDARD) -> Play:
    """The play a card multiset forms (RULES.md §2).

    :param cards: 15 counts (all zero: the pass) or notation. Notation is read as
        :meth:`Play.parse` reads it: ``'pass'`` is the pass, ``''`` is an error, and a
        ``+`` must split the body from the kickers (``'333+'`` is an error).
    :returns: the :class:`Play`.
    :raises InvalidPlayError: the cards form no play (the message says so, quoting them),
        or more than one (impossible under the rule sets of RULES.md §2.1), or ``+``
        splits them elsewhere.
    :raises NotationError, HandError, ImpossibleHandError: bad ``cards`` (empty notation
        included).
    """
    rules = _args.rules_arg(rules)
    if isinstance(cards, str) and needs_play_grammar(cards):
        return parse_with(cards, rules, _readings)
    counts = _args.cards_arg(cards, rules)
    if isinstance(cards, str) and not any(counts):
        return parse_with(cards, rules, _readings)   # notation with no card: Play.parse's error
    return the_reading(_readings(counts, rules), counts, rules, _readings)


def beats(play: PlayLike, other: PlayLike, rules: Rules = STANDARD) -> bool:
    """Does ``play`` beat ``other``? RULES.md §2.2.

    :param play: the response (a :class:`Play` or notation); the pass beats nothing.
    :param other: the play to beat (not the pass).
    :returns: ``True`` if ``play`` may be played on ``other``.
    :raises InvalidPlayError: either is not a play under ``rules``, or ``other`` is the pass.
    :raises ImpossibleHandError: the two plays together hold more of a rank than the deck.
    """
    rules = _args.rules_arg(rules)
    play = play_arg(play, rules, _readings)
    other = play_arg(other, rules, _readings, "the play to beat")
    if not other:
        raise InvalidPlayError("nothing beats the pass: give the last non-pass play of the trick")
    _args.together(play.counts, other.counts, rules, lambda: f"{str(play)!r}",
                   lambda: f"the play to beat {str(other)!r}")
    return _beats(play, other, rules)


def trio_rank(play: Play) -> int:
    """The highest rank ``play`` holds exactly three times (RULES.md §2.5, DouZero's
    ``airplane_rank="trios"``): for an airplane, its chain's top or a higher wing trio."""
    return max(r for r, c in enumerate(play.counts) if c == 3)


def read_beat(play: Play, rules: Rules = STANDARD) -> Optional[Play]:
    """The play to beat as ``rules`` read it (RULES.md §2.5 ``beat_reading``): ``play``
    itself, except with ``beat_reading="cards"`` (DouZero reads the cards, not the play):
    an AIRPLANE_SINGLES whose wings are one trio next to its chain is the AIRPLANE of all
    its trios (``333444555+666`` is ``333444555666``); one whose wings hold four of a rank,
    or a trio when its chain is four or more long, is no play DouZero knows, and ``None``
    says that only a bomb or the rocket answers it."""
    if rules.beat_reading != "cards" or play.type is not T.AIRPLANE_SINGLES:
        return play
    copies = collections.Counter(play.kickers)
    lo = play.rank - play.length + 1
    if 4 in copies.values() or (play.length >= 4 and 3 in copies.values()):
        return None
    if len(copies) == 1:
        (r, c), = copies.items()
        if c == 3 and r < CHAIN_RANKS and r in (lo - 1, play.rank + 1):
            return Play(T.AIRPLANE, max(r, play.rank), play.length + 1)
    return play


def _beats(a: Play, b: Play, rules: Rules = STANDARD) -> bool:
    if a.type is T.PASS:
        return False
    if b.type is T.ROCKET:           # nothing beats a rocket; §2.5: a bomb may be played on it
        return rules.bomb_on_rocket and a.type is T.BOMB
    if a.type is T.ROCKET:
        return True
    if a.type is T.BOMB:             # RULES.md §7: more cards first, then the rank
        return b.type is not T.BOMB or (a.width, a.rank) > (b.width, b.rank)
    if b.type is T.BOMB:
        return False
    read = read_beat(b, rules)       # §2.5 beat_reading
    if read is None:
        return False
    b = read
    if a.type is not b.type or a.length != b.length:
        return False
    if a.type is T.AIRPLANE_SINGLES and rules.airplane_rank == "trios":   # §2.5
        return trio_rank(a) > trio_rank(b)
    return a.rank > b.rank


#: the chains that ``chain_from_four=False`` keeps from starting at a rank held in full
_PLAIN_CHAINS = (T.STRAIGHT, T.PAIR_STRAIGHT, T.AIRPLANE)


def fits(play: Play, counts: Sequence[int], rules: Rules = STANDARD) -> bool:
    """Whether ``rules`` let a hand of ``counts`` (which holds ``play``) play ``play``:
    always, except with ``chain_from_four=False`` (OpenSpiel, RULES.md §2.5) a STRAIGHT,
    PAIR_STRAIGHT or AIRPLANE that starts at a rank the hand holds every copy of."""
    return (rules.chain_from_four or play.type not in _PLAIN_CHAINS
            or counts[play.rank - play.length + 1] < 4 * rules.decks)


def all_plays(rules: Rules = STANDARD) -> List[Play]:
    """Every play one deck can form under ``rules`` (the pass not included), in move order.

    :returns: a new list; 12,654 plays with ``kickers="distinct"``, 27,471 with ``"repeat"``
        (RLCard), 30,383 under ``Rules.profile("douzero")`` and 26,053 under ``"openspiel"``
        (RULES.md §2.5); plays of ``rules.banned`` types left out.
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


def legal_moves(hand: CardsLike, to_beat: Optional[PlayLike] = None,
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
    beat = to_beat_arg(to_beat, rules, counts, _readings)
    return _legal_moves(counts, beat, rules)


def _legal_moves(counts: Counts, beat: Optional[Play], rules: Rules) -> List[Play]:
    every, groups, bombs = _index(rules.move_rules)
    h = _pack(counts)
    if beat is None:
        return [p for p, pk in every if _contains(h, pk) and fits(p, counts, rules)]
    out = [PASS]
    read = read_beat(beat, rules)            # §2.5: None, only bombs answer it
    if read is not None and read.type not in (T.BOMB, T.ROCKET):
        out.extend(p for p, pk in groups.get((read.type, read.length), ())
                   if _beats(p, beat, rules) and _contains(h, pk) and fits(p, counts, rules))
    out.extend(p for p, pk in bombs if _contains(h, pk) and _beats(p, beat, rules))
    return out


def count_legal_moves(hand: CardsLike, to_beat: Optional[PlayLike] = None,
                      rules: Rules = STANDARD) -> int:
    """``len(legal_moves(hand, to_beat, rules))``; same arguments and errors."""
    return len(legal_moves(hand, to_beat, rules))


# the entry points on trusted (validated) arguments, for the other packages' hot paths and
# pure twins (ddz.game.playstate, ddz.game.actions, ddz.search.reference_solver)
trusted_readings = _readings
trusted_legal_moves = _legal_moves
trusted_beats = _beats
