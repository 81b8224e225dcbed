"""Play types and the :class:`Play` value (RULES.md §2).

A play is identified by its type, its main rank, its chain length and its kicker
multiset -- not by its cards alone (DESIGN.md, "Values, not tuples").

Compact code
------------
Every play also has a compact integer code (``Play.code``, ``Play.from_code``), used
by the Cython core's array paths. It fits in 44 bits of an ``int64``::

    bits  0..29  kicker card counts, 2 bits per rank (rank r at bits 2r..2r+1)
    bits 30..33  main rank (0..14)
    bits 34..38  chain length (1 for non-chains, 0 for the pass)
    bits 39..43  PlayType

The pass has code 0. Bits 44..63 are reserved (zero) for the two-deck game.
"""

from __future__ import annotations

import enum
from typing import Iterable, Tuple

from .cards import BIG_JOKER, CHAIN_RANKS, NUM_RANKS, R2, RANK_CHARS, SMALL_JOKER, Rank, is_integer
from .errors import InvalidPlayError, NotationError, quote

__all__ = ["PlayType", "Play", "PASS", "BODY_WIDTH", "MIN_CHAIN", "KICKER_UNITS",
           "CODE_RANK_SHIFT", "CODE_LENGTH_SHIFT", "CODE_TYPE_SHIFT"]


class PlayType(enum.IntEnum):
    """The play types of RULES.md §2, in the table's order (also the move order)."""
    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_STRAIGHT = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14

    @property
    def is_chain(self) -> bool:
        """Straights, pair straights and airplanes (chains of ranks within 3..A)."""
        return self in _CHAINS


_T = PlayType
_CHAINS = frozenset({_T.STRAIGHT, _T.PAIR_STRAIGHT, _T.AIRPLANE, _T.AIRPLANE_SINGLES, _T.AIRPLANE_PAIRS})

#: copies of each body rank, by type (the rocket's body is one B and one R)
BODY_WIDTH = {
    _T.PASS: 0, _T.SINGLE: 1, _T.PAIR: 2, _T.TRIO: 3, _T.TRIO_SINGLE: 3, _T.TRIO_PAIR: 3,
    _T.STRAIGHT: 1, _T.PAIR_STRAIGHT: 2, _T.AIRPLANE: 3, _T.AIRPLANE_SINGLES: 3,
    _T.AIRPLANE_PAIRS: 3, _T.FOUR_TWO_SINGLES: 4, _T.FOUR_TWO_PAIRS: 4, _T.BOMB: 4, _T.ROCKET: 1,
}
#: shortest chain of each chain type (RULES.md §2)
MIN_CHAIN = {_T.STRAIGHT: 5, _T.PAIR_STRAIGHT: 3, _T.AIRPLANE: 2, _T.AIRPLANE_SINGLES: 2,
             _T.AIRPLANE_PAIRS: 2}
#: kickers per unit of body: (how many per chain rank, or fixed, cards per kicker)
#  -> number of kicker *units* = per_rank * length; each unit has ``size`` cards.
KICKER_UNITS = {
    _T.TRIO_SINGLE: (1, 1), _T.TRIO_PAIR: (1, 2), _T.AIRPLANE_SINGLES: (1, 1),
    _T.AIRPLANE_PAIRS: (1, 2), _T.FOUR_TWO_SINGLES: (2, 1), _T.FOUR_TWO_PAIRS: (2, 2),
}

#: the most cards of a play: a one-deck hand holds at most 20 (``Rules.max_hand``)
MAX_PLAY_CARDS = 20

CODE_RANK_SHIFT = 30
CODE_LENGTH_SHIFT = 34
CODE_TYPE_SHIFT = 39


class Play:
    """One play: frozen, slotted, hashable; the pass is falsy.

    :param type: a :class:`PlayType`.
    :param rank: main rank 0..14: the rank of a single/pair/trio/bomb, the trio's or the
        four's rank, the *highest* rank of a chain; 14 for the rocket; 0 for the pass.
    :param length: chain length (distinct body ranks) for chains, 1 otherwise, 0 for the pass.
    :param kickers: kicker ranks, one entry per card (a pair kicker of 8s is ``(5, 5)``);
        stored sorted ascending.
    :raises InvalidPlayError: a structure no play can have (wrong kicker count, chain out
        of 3..A, pair kicker not a pair, ...). Whether the kickers are allowed by a rule set
        is checked by :func:`ddz.classify`, not here.

    Attributes ``counts`` (15-tuple of all cards), ``body_counts``, ``kicker_counts``,
    ``num_cards`` and ``code`` (see the module docstring) are derived.
    ``str(play)`` is the canonical notation (``333444+56``, ``BR``, ``pass``) and
    ``Play.parse(str(play)) == play``. Plays sort in move order: type, chain length,
    main rank, then kickers (as ascending rank tuples).
    """

    __slots__ = ("type", "rank", "length", "kickers", "counts", "_hash")
    type: PlayType
    rank: Rank
    length: int
    kickers: Tuple[Rank, ...]
    counts: Tuple[int, ...]

    def __init__(self, type: PlayType, rank: Rank = 0, length: int = 1,
                 kickers: Iterable[Rank] = ()) -> None:
        try:
            t = PlayType(type)
        except ValueError:
            raise InvalidPlayError(f"unknown play type {type!r}") from None
        try:
            kick = tuple(sorted(_integer(k, "kicker rank") for k in kickers))
        except TypeError:
            raise InvalidPlayError(f"kickers must be an iterable of ranks, got {quote(kickers)}") from None
        rank, length = _integer(rank, "main rank"), _integer(length, "chain length")
        counts = _structure(t, rank, length, kick)
        s = object.__setattr__
        s(self, "type", t)
        s(self, "rank", rank)
        s(self, "length", length)
        s(self, "kickers", kick)
        s(self, "counts", counts)
        s(self, "_hash", hash((int(t), rank, length, kick)))

    # -- value semantics --
    def __setattr__(self, name, value):
        raise AttributeError(f"Play is immutable (cannot set {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"Play is immutable (cannot delete {name!r})")

    def __reduce__(self):
        return (Play, (int(self.type), self.rank, self.length, self.kickers))

    def __eq__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return (self.type is other.type and self.rank == other.rank
                and self.length == other.length and self.kickers == other.kickers)

    def __hash__(self):
        return self._hash

    def __bool__(self):
        return self.type is not PlayType.PASS

    @property
    def sort_key(self):
        """``(type, length, rank, kickers)``: the documented move order."""
        return (int(self.type), self.length, self.rank, self.kickers)

    def __lt__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __le__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key <= other.sort_key

    def __gt__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key > other.sort_key

    def __ge__(self, other):
        if not isinstance(other, Play):
            return NotImplemented
        return self.sort_key >= other.sort_key

    # -- derived views --
    @property
    def body_ranks(self) -> Tuple[Rank, ...]:
        """The distinct ranks of the main part, ascending."""
        if self.type is PlayType.PASS:
            return ()
        if self.type is PlayType.ROCKET:
            return (SMALL_JOKER, BIG_JOKER)
        return tuple(range(self.rank - self.length + 1, self.rank + 1))

    @property
    def body_counts(self) -> Tuple[int, ...]:
        """15-tuple: cards of the main part per rank."""
        c = [0] * NUM_RANKS
        w = BODY_WIDTH[self.type]
        for r in self.body_ranks:
            c[r] = w
        return tuple(c)

    @property
    def kicker_counts(self) -> Tuple[int, ...]:
        """15-tuple: kicker cards per rank."""
        c = [0] * NUM_RANKS
        for r in self.kickers:
            c[r] += 1
        return tuple(c)

    @property
    def num_cards(self) -> int:
        """How many cards the play uses (0 for the pass)."""
        return sum(self.counts)

    @property
    def code(self) -> int:
        """The compact ``int64`` code (see the module docstring); 0 for the pass."""
        k = 0
        for r in self.kickers:
            k += 1 << (2 * r)
        return (int(self.type) << CODE_TYPE_SHIFT) | (self.length << CODE_LENGTH_SHIFT) \
            | (self.rank << CODE_RANK_SHIFT) | k

    @classmethod
    def from_code(cls, code: int) -> "Play":
        """The play of a compact code.

        :raises InvalidPlayError: a code that encodes no play structure.
        """
        code = _integer(code, "play code")
        if code < 0 or code >> 44:
            raise InvalidPlayError(f"play code out of range: {code!r}")
        t = (code >> CODE_TYPE_SHIFT) & 31
        if t > PlayType.ROCKET:
            raise InvalidPlayError(f"play code {code!r} has an unknown play type {t}")
        kick = []
        for r in range(NUM_RANKS):
            kick.extend([r] * ((code >> (2 * r)) & 3))
        return cls(PlayType(t), (code >> CODE_RANK_SHIFT) & 15, (code >> CODE_LENGTH_SHIFT) & 31, kick)

    # -- notation --
    def __str__(self) -> str:
        if self.type is PlayType.PASS:
            return "pass"
        w = BODY_WIDTH[self.type]
        body = "".join(RANK_CHARS[r] * w for r in self.body_ranks)
        if self.kickers:
            return body + "+" + "".join(RANK_CHARS[r] for r in self.kickers)
        return body

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, rules=None) -> "Play":
        """Parse a play: ``pass``, plain cards (``33344456``) or body ``+`` kickers
        (``333444+56``). With ``+``, the part before the first ``+`` must be exactly the
        play's main part.

        :param text: the notation (RULES.md §1 spellings accepted).
        :param rules: a :class:`ddz.Rules` (default ``ddz.STANDARD``); decides kickers.
        :raises NotationError: not card notation, or empty.
        :raises ImpossibleHandError: more copies of a rank than the deck holds.
        :raises InvalidPlayError: the cards form no play, or ``+`` splits them elsewhere.
        """
        from .cards import parse_cards
        from .rules import STANDARD
        from . import moves

        if not isinstance(text, str):
            raise NotationError(f"play notation must be a str, not {type(text).__name__}: {quote(text)}")
        rules = STANDARD if rules is None else rules
        t = text.strip()
        if t.lower() in ("pass", "p", "-", "不出", "过"):
            return PASS
        if not t:
            raise NotationError("empty play notation (write 'pass' for the pass)")
        counts = parse_cards(t, decks=rules.decks)
        if not counts.any():
            raise NotationError(f"no cards in play notation {quote(text)} (write 'pass' for the pass)")
        play = moves.classify(counts, rules)
        if "+" in t:
            body_txt, kick_txt = t.split("+", 1)
            if not parse_cards(kick_txt, decks=rules.decks).any():
                raise NotationError(f"no kickers after '+' in {quote(text)}")
            body = tuple(int(c) for c in parse_cards(body_txt, decks=rules.decks))
            if body != play.body_counts:
                raise InvalidPlayError(
                    f"{quote(text)} splits its cards differently from the play they form, {str(play)!r}")
        return play


def _integer(value, what: str) -> int:
    """``value`` as an int: Python and numpy integers only (not bools, floats or strings)."""
    if is_integer(value):
        return int(value)
    raise InvalidPlayError(f"{what} must be an integer, not {type(value).__name__}: {quote(value)}")


def _bad(t, rank, length, kick, why):
    return InvalidPlayError(
        f"no {t.name} has main rank {rank!r}, length {length!r} and kickers {kick!r}: {why}")


def _structure(t: PlayType, rank: int, length: int, kick: Tuple[int, ...]) -> Tuple[int, ...]:
    """Check the shape of a play (not the rule set) and return its 15 counts."""
    if any(not 0 <= k < NUM_RANKS for k in kick):
        raise _bad(t, rank, length, kick, "kicker rank out of 0..14")
    counts = [0] * NUM_RANKS
    if t is PlayType.PASS:
        if rank or length or kick:
            raise _bad(t, rank, length, kick, "the pass is Play(PlayType.PASS, 0, 0)")
        return tuple(counts)
    if t is PlayType.ROCKET:
        if rank != BIG_JOKER or length != 1 or kick:
            raise _bad(t, rank, length, kick, "the rocket is Play(PlayType.ROCKET, 14, 1)")
        counts[SMALL_JOKER] = counts[BIG_JOKER] = 1
        return tuple(counts)
    if t.is_chain:
        if length < MIN_CHAIN[t] or rank >= CHAIN_RANKS or rank - length + 1 < 0:
            raise _bad(t, rank, length, kick, f"chains need {MIN_CHAIN[t]}+ ranks within 3..A")
    else:
        if length != 1:
            raise _bad(t, rank, length, kick, "non-chains have length 1")
        top = BIG_JOKER if t is PlayType.SINGLE else R2
        if not 0 <= rank <= top:
            raise _bad(t, rank, length, kick, "rank out of range")
    w = BODY_WIDTH[t]
    for r in range(rank - length + 1, rank + 1):
        counts[r] = w
    per, size = KICKER_UNITS.get(t, (0, 0))
    if length * (w + per * size) > MAX_PLAY_CARDS:
        raise _bad(t, rank, length, kick, f"no hand holds more than {MAX_PLAY_CARDS} cards")
    if not per:
        if kick:
            raise _bad(t, rank, length, kick, "this type has no kickers")
        return tuple(counts)
    if len(kick) != per * length * size:
        raise _bad(t, rank, length, kick, f"needs {per * length} kicker(s) of {size} card(s)")
    # RULES.md §2.1 rules 1-3 and 5, which hold under every rule set
    lo = rank - length + 1
    if any(lo <= k <= rank for k in kick):
        raise _bad(t, rank, length, kick, "a kicker never has the rank of the main part (§2.1 rule 1)")
    if SMALL_JOKER in kick and BIG_JOKER in kick:
        raise _bad(t, rank, length, kick, "kickers are never both jokers (§2.1 rule 2)")
    if size == 2:
        pairs = kick[::2]
        if pairs != kick[1::2] or len(set(pairs)) != len(pairs):
            raise _bad(t, rank, length, kick, "pair kickers must be pairs of different ranks (§2.1 rule 5)")
        if pairs and pairs[-1] > R2:
            raise _bad(t, rank, length, kick, "jokers are never a pair kicker (§2.1 rule 3)")
    for k in kick:
        counts[k] += 1
    for k in set(kick):
        if counts[k] >= 4:
            raise _bad(t, rank, length, kick, "kickers never hold four of a rank (§2.1 rule 2)")
        if k >= SMALL_JOKER and counts[k] > 1:
            raise _bad(t, rank, length, kick, "one deck has one of each joker")
        if counts[k] == 3 and t.is_chain and k < CHAIN_RANKS and (k == lo - 1 or k == rank + 1):
            raise _bad(t, rank, length, kick, "a trio next to the chain is never a wing (§2.1)")
    return tuple(counts)


PASS = Play(PlayType.PASS, 0, 0)
"""The pass (falsy)."""
