"""Ranks, card notation and count vectors (RULES.md §1).

A *hand* (or any card multiset) is a 15-slot count vector indexed by rank:
index 0..11 are ``3 4 5 6 7 8 9 T J Q K A``, 12 is ``2``, 13 the small joker
``B`` and 14 the big joker ``R``. Ranks are plain ints; the constants below name them.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..errors import HandError, ImpossibleHandError, NotationError, quote

if TYPE_CHECKING:
    from .rules import Rules

__all__ = [
    "Rank", "NUM_RANKS", "RANK_CHARS", "RANK_NAMES", "CHAIN_RANKS",
    "R3", "R4", "R5", "R6", "R7", "R8", "R9", "RT", "RJ", "RQ", "RK", "RA", "R2",
    "SMALL_JOKER", "BIG_JOKER",
    "parse_cards", "format_cards", "format_ranks", "to_counts", "deck_counts",
    "Suit", "Card", "full_deck", "parse_suited", "cards_to_counts",
    "CardsLike", "is_integer",
]

Rank = int  #: a rank index 0..14

NUM_RANKS = 15
RANK_CHARS = "3456789TJQKA2BR"  #: canonical one-character name of each rank
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
              "small joker", "big joker")
CHAIN_RANKS = 12  #: ranks 0..11 (3..A) may form chains; 2 and jokers never do

(R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, R2, SMALL_JOKER, BIG_JOKER) = range(15)

_CHAR_RANK = {c: i for i, c in enumerate(RANK_CHARS)}
_WORD_RANK = {"10": RT, "小王": SMALL_JOKER, "大王": BIG_JOKER}
_IGNORED = set(" \t\n-+,")

CardsLike = Union[str, Sequence[int], np.ndarray]


def is_integer(value: object) -> bool:
    """A Python or numpy integer, and not a bool: what every integer argument of ``ddz``
    accepts (floats, bools and strings are refused, never truncated)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _decks_arg(decks: object) -> int:
    """``decks`` as an int from 1 to 8 (``int``, numpy integers).

    :raises HandError: anything else (a bool, a float, 0, 9...)."""
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)) or not 1 <= decks <= 8:
        raise HandError(f"decks must be a whole number of decks from 1 to 8, not {quote(decks)}")
    return int(decks)


def deck_counts(decks: int = 1) -> np.ndarray:
    """Copies of each rank in ``decks`` full decks.

    :param decks: number of 54-card decks, an int from 1 to 8 (1 for the standard game, 2
        for RULES.md §7).
    :returns: ``uint8[15]``: ``4*decks`` for ranks 0..12, ``decks`` for each joker.
    :raises HandError: ``decks`` is not a whole number from 1 to 8.
    """
    if type(decks) is not int or not 1 <= decks <= 8:
        decks = _decks_arg(decks)
    counts = np.full(NUM_RANKS, 4 * decks, dtype=np.uint8)
    counts[SMALL_JOKER] = counts[BIG_JOKER] = decks
    return counts


def _tokens(text: str) -> List[Rank]:
    ranks: List[Rank] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _IGNORED:
            i += 1
            continue
        two = text[i:i + 2]
        if two.upper() in ("BJ", "RJ"):
            raise NotationError(
                f"ambiguous {two!r} at position {i} in {quote(text)}: 'BJ'/'RJ' are not joker "
                f"names here; write the jokers as B/R and a jack after them apart (e.g. 'JB')")
        if two.upper() in _WORD_RANK:
            ranks.append(_WORD_RANK[two.upper()])
            i += 2
            continue
        rank = _CHAR_RANK.get(ch.upper())
        if rank is None:
            raise NotationError(
                f"unknown card {ch!r} at position {i} in {quote(text)} "
                f"(ranks are {' '.join(RANK_CHARS)}; T or 10 for ten, B/R for the jokers)")
        ranks.append(rank)
        i += 1
    return ranks


#: characters of the common spellings (one character per card, any case, separators):
#: such text is counted with str.count, C speed; anything else is tokenised
_PLAIN = frozenset(RANK_CHARS + RANK_CHARS.lower() + "".join(_IGNORED))
_LIMITS = {1: tuple(int(c) for c in deck_counts(1)), 2: tuple(int(c) for c in deck_counts(2))}


def _deck_limit(decks: object) -> Tuple[int, ...]:
    """The copies per rank in ``decks`` decks, for a ``decks`` other than 1 or 2; a
    ``decks`` that is not a whole number from 1 to 8 is a :class:`HandError`."""
    return tuple(int(c) for c in deck_counts(_decks_arg(decks)))


def parse_cards(text: str, *, decks: int = 1) -> np.ndarray:
    """Parse card notation into a count vector (RULES.md §1).

    One character per card (``3``..``9``, ``T`` or ``10``, ``J Q K A 2``, ``B``/``小王``
    small joker, ``R``/``大王`` big joker), case-insensitive, in any order; spaces,
    ``-``, ``+`` and ``,`` are ignored. The empty string is the empty multiset.

    :param text: the notation.
    :param decks: decks in play; the counts are checked against them.
    :returns: ``uint8[15]`` count vector.
    :raises NotationError: a character that is no card (``X``/``D``/``BJ`` are rejected).
    :raises ImpossibleHandError: more copies of a rank than ``decks`` decks hold.
    :raises HandError: ``decks`` is not a whole number from 1 to 8.
    """
    if not isinstance(text, str):
        raise NotationError(f"card notation must be a str, not {type(text).__name__}: {quote(text)}")
    if _PLAIN.issuperset(text):
        up = text.upper()
        if "BJ" not in up and "RJ" not in up:   # those are refused by the tokeniser
            return _checked([up.count(ch) for ch in RANK_CHARS], decks, text)
    counts = [0] * NUM_RANKS
    for r in _tokens(text):
        counts[r] += 1
    return _checked(counts, decks, text)


def _checked(counts: Sequence[int], decks: int, shown: object) -> np.ndarray:
    """``counts`` as ``uint8[15]`` if no rank exceeds ``decks`` decks; ``shown`` names the
    input in the error (a callable is called only then: messages are built when raising)."""
    limit = _LIMITS.get(decks) if type(decks) is int else None
    if limit is None:
        limit = _deck_limit(decks)
    for r, c in enumerate(counts):
        if c > limit[r]:
            if callable(shown):
                shown = shown()
            raise ImpossibleHandError(
                f"{quote(shown)} holds {c} copies of {RANK_NAMES[r]!r}; "
                f"{'one deck holds' if decks == 1 else f'{decks} decks hold'} {int(limit[r])}")
    return np.asarray(counts, dtype=np.uint8)


def to_counts(cards: CardsLike, *, decks: int = 1, what: str = "hand") -> np.ndarray:
    """Validate any card multiset and return it as a fresh count vector.

    :param cards: notation ``str``; or a length-15 sequence / 1-D array of integer counts.
    :param decks: decks in play (limits the counts).
    :param what: how error messages name the argument.
    :returns: ``uint8[15]`` (a new array; the input is never modified).
    :raises NotationError: bad notation text.
    :raises HandError: wrong type, shape or dtype (floats and bools are refused), or
        negative counts.
    :raises ImpossibleHandError: more copies of a rank than the deck holds.
    """
    if isinstance(cards, str):
        return parse_cards(cards, decks=decks)
    if isinstance(cards, (bytes, dict, set, frozenset)) or cards is None:
        raise HandError(f"{what} must be card notation or 15 counts, not {type(cards).__name__}: {quote(cards)}")
    if isinstance(cards, (list, tuple)) and any(isinstance(c, (bool, np.bool_)) for c in cards):
        raise HandError(f"{what} counts must be integers, not bools: {quote(cards)}")
    try:
        arr = np.asarray(cards)
    except Exception as exc:  # ragged lists and the like
        raise HandError(f"{what} is not a vector of 15 counts: {quote(cards)}") from exc
    if arr.shape != (NUM_RANKS,):
        if arr.shape == ():         # not an array at all: name the type, not a shape
            hint = " (a play's cards are play.counts)" if hasattr(cards, "counts") else ""
            raise HandError(f"{what} must be card notation or 15 counts, not {type(cards).__name__}: "
                            f"{quote(cards)}{hint}")
        raise HandError(f"{what} must have shape (15,), got {arr.shape}: {quote(cards)}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        # floats are refused even when whole: a count is an integer, everywhere in ddz
        raise HandError(f"{what} counts must have an integer dtype, got {arr.dtype}: {quote(cards)}")
    if np.any(arr < 0):
        raise HandError(f"{what} has a negative count: {quote(cards)}")
    return _checked(arr.tolist(), decks, lambda: format_cards_unchecked(arr))


def format_cards_unchecked(counts: Iterable[int]) -> str:
    out = []
    for r, c in enumerate(counts):
        out.append(RANK_CHARS[r] * int(min(c, 64)))
    return "".join(out)


def format_cards(counts: CardsLike, decks: int = 2) -> str:
    """Canonical notation of a count vector: ascending by rank, e.g. ``33344456``, ``BR``.

    :param counts: ``int[15]`` counts (any integer dtype), or notation to normalise.
    :param decks: the decks the cards may come from (default 2, the most any rule set of
        RULES.md §1 uses: at most 8 of a rank, 2 of each joker).
    :returns: the canonical string ("" for no cards).
    :raises HandError: wrong shape, dtype or negative counts.
    :raises ImpossibleHandError: more of a rank than ``decks`` decks hold.
    """
    if isinstance(counts, str):
        counts = parse_cards(counts, decks=decks)
    arr = to_counts(counts, decks=decks, what="cards")
    return format_cards_unchecked(arr)


def format_ranks(ranks: Iterable[Rank]) -> str:
    """Notation of a sequence of ranks, sorted ascending (``(0, 0, 14)`` → ``33R``).

    :param ranks: rank indices (ints 0..14), e.g. :attr:`ddz.Play.kickers`.
    :raises HandError: not an iterable of ints from 0 to 14 (a str, a bool, -1...).
    """
    if isinstance(ranks, (str, bytes)) or not isinstance(ranks, Iterable):
        raise HandError(f"ranks must be a sequence of rank indices 0..14, not {type(ranks).__name__}: {quote(ranks)}")
    ranks = list(ranks)
    for r in ranks:
        if not is_integer(r) or not 0 <= r < NUM_RANKS:
            raise HandError(f"a rank is an int from 0 to 14, not {quote(r)} (in {quote(ranks)})")
    return "".join(RANK_CHARS[r] for r in sorted(ranks))


# -- suits and physical cards (dealing, bottom-card bonus; RULES.md §1, §6) --

class Suit(enum.IntEnum):
    """Card suits, in the order of RULES.md §1. Jokers have no suit."""
    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        """The suit's letter in notation: ``S H C D``."""
        return "SHCD"[self]


class Card:
    """One physical card: a rank and a suit (``None`` for the jokers). Immutable.

    ``str(card)`` is rank then suit letter (``TS`` ten of spades, ``3H``), or ``B``/``R``.
    """
    __slots__ = ("rank", "suit")
    rank: Rank
    suit: Optional[Suit]

    def __init__(self, rank: Rank, suit: Optional[Suit] = None) -> None:
        if not is_integer(rank) or not 0 <= rank < NUM_RANKS:
            raise NotationError(f"card rank must be an int 0..14, got {quote(rank)}")
        rank = int(rank)
        if rank >= SMALL_JOKER:
            if suit is not None:
                raise NotationError(f"a joker has no suit, got {quote(suit)}")
        else:
            if suit is None:
                raise NotationError(f"card {RANK_CHARS[rank]!r} needs a suit")
            if not is_integer(suit) or not 0 <= suit < 4:
                raise NotationError(f"a suit is a ddz.Suit or its int 0..3 (S H C D), got {quote(suit)}")
            suit = Suit(suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    def __eq__(self, other):
        return isinstance(other, Card) and (self.rank, self.suit) == (other.rank, other.suit)

    def __hash__(self):
        return hash((self.rank, self.suit))

    def __lt__(self, other):
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    @property
    def sort_key(self):
        """``(rank, suit)`` with jokers' suit as -1: the order of :meth:`__lt__`."""
        return (self.rank, -1 if self.suit is None else int(self.suit))

    def __str__(self):
        return RANK_CHARS[self.rank] + ("" if self.suit is None else self.suit.letter)

    def __repr__(self):
        return f"Card.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse ``"TS"``, ``"10h"``, ``"3D"``, ``"B"``, ``"R"`` (rank, then suit letter).

        :raises NotationError: anything else.
        """
        t = text.strip().upper() if isinstance(text, str) else None
        if not t:
            raise NotationError(f"not a card: {quote(text)}")
        if t in ("B", "R"):
            return cls(_CHAR_RANK[t])
        rank_txt, suit_txt = t[:-1], t[-1:]
        rank = _WORD_RANK.get(rank_txt, _CHAR_RANK.get(rank_txt) if len(rank_txt) == 1 else None)
        if rank is None or suit_txt not in "SHCD" or rank >= SMALL_JOKER:
            raise NotationError(f"not a card: {quote(text)} (write rank then suit, e.g. 'TS', '3H', or 'B'/'R')")
        return cls(rank, Suit("SHCD".index(suit_txt)))


def full_deck(decks: int = 1) -> List[Card]:
    """Every card of ``decks`` decks, in a fixed order (rank, then suit; jokers last).

    :param decks: an int from 1 to 8.
    :returns: a new list of ``54 * decks`` :class:`Card`.
    :raises HandError: ``decks`` is not a whole number from 1 to 8.
    """
    decks = _decks_arg(decks)
    one = [Card(r, s) for r in range(SMALL_JOKER) for s in Suit] + [Card(SMALL_JOKER), Card(BIG_JOKER)]
    return [c for c in one for _ in range(decks)]


def parse_suited(text: str) -> List[Card]:
    """Parse whitespace- or comma-separated suited cards (``"3S 3H TD B"``).

    :returns: a new list of :class:`Card`, in the order written.
    :raises NotationError: ``text`` is not a str, or a token that is no card.
    """
    if not isinstance(text, str):
        raise NotationError(f"suited card notation must be a str, not {type(text).__name__}: {quote(text)}")
    return [Card.parse(tok) for tok in text.replace(",", " ").split()]


def cards_to_counts(cards: Iterable[Card]) -> np.ndarray:
    """Count vector (``uint8[15]``) of physical cards; suits are dropped.

    :param cards: :class:`Card` objects (as many as eight decks hold).
    :raises HandError: not an iterable of :class:`Card`, or more copies of a rank than
        eight decks hold.
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise HandError(f"cards must be an iterable of ddz.Card, not {type(cards).__name__}: {quote(cards)} "
                        "(parse_suited reads text)")
    counts = [0] * NUM_RANKS
    for c in cards:
        if not isinstance(c, Card):
            raise HandError(f"cards must be ddz.Card objects, not {type(c).__name__}: {quote(c)}")
        counts[c.rank] += 1
    return _checked(counts, 8, lambda: format_cards_unchecked(counts))


def together(a: Tuple[int, ...], b: Tuple[int, ...], rules: Rules, a_name: str, b_name: str) -> None:
    """Check that two card multisets fit in the deck side by side (a hand and the play
    to beat, or two plays compared).

    ``a_name`` and ``b_name`` may be callables: they are called only to build the error.

    :raises ImpossibleHandError: naming both and the rank that overflows.
    """
    limit = _LIMITS.get(rules.decks) or deck_counts(rules.decks)
    for r in range(len(a)):
        if a[r] + b[r] > limit[r]:
            if callable(a_name):
                a_name, b_name = a_name(), b_name()
            raise ImpossibleHandError(
                f"{a_name} and {b_name} together hold {a[r] + b[r]} copies of "
                f"{RANK_NAMES[r]!r}; the deck holds {int(limit[r])}")
