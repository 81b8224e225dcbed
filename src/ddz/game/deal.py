"""The deal (RULES.md §3, §7): hands, the bottom cards, the shuffle, and the bottom bonus.

How :class:`ddz.Game` deals
---------------------------
``Game(seed=S)`` (``0 <= S < 2**64``) draws from the *deal stream* of ``S``: SplitMix64
(Steele, Lea and Flood 2014) started at ``S``, whose ``k``-th 64-bit word (k = 0, 1, ...)
is ``mix64(S + (k + 1) * 0x9E3779B97F4A7C15 mod 2**64)`` with SplitMix64's output
function ``mix64(z)``: ``z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
z *= 0x94D049BB133111EB; z ^= z >> 31`` (mod 2**64). The stream's 32-bit draws are the
high half of word 0, its low half, the high half of word 1, and so on. Each word is a
function of the seed and its index alone (a counter-based generator), so a deal costs its
~27 words and no seeding, in C as in Python. ``below(n)`` (uniform in ``0 .. n - 1``) is
Lemire's method on the next draw ``x``: ``m = x * n``; while ``m mod 2**32 < 2**32 mod n``
draw again; the result is ``m >> 32``. The shuffle is Fisher–Yates over the deck
positions ``0 .. N - 1`` of :func:`ddz.core.cards.full_deck` of the rule set's decks (for
``i`` from ``N - 1`` down to 1 swap positions ``i`` and ``below(i + 1)``), then the deck
is cut in seat order: 17 cards each to seats 0, 1, 2 and 3 to the bottom (three players,
one deck), or 25 each to seats 0..3 and 8 to the bottom (four players, two decks). Then the
same stream chooses the first bidder (drawn even when ``first_bidder`` is given, so that
redeals do not depend on it): with ``Rules.first_bidder="random"`` ``below(seats)``; with
``"face_up"`` ``k = below(seats * hand_size)`` turns the ``k % hand_size``-th card (in card
order) of seat ``k // hand_size`` face up, and that seat bids first (:attr:`Game.face_up`).
The same seed deals the same cards on every platform, with or without the compiled core
(:class:`PyDealStream` is the pure twin of the core's ``DealStream``). Without a seed a
fresh one is drawn from the operating system and kept in :attr:`Game.seed`, so every game
can be replayed; a seed outside ``0 .. 2**64 - 1`` is a :class:`ddz.DdzError`.

Hand ``j`` (0, 1, ...) of ``VectorGame(n, rules, seed)`` is ``Game(rules, seed=s_j)`` with
``s_j = mix64(seed + (j + 1) * 0xD1B54A32D192ED03 mod 2**64) >> 1``
(:func:`vector_hand_seed`), so any hand of a vector can be replayed from ``(seed, j)``.

Records of version 4 and older were written before the deal stream: their seeded deal is
``random.Random(S).shuffle`` of the deck and ``randrange`` for the first bidder. Replaying
such a record deals with :func:`legacy_rng` (the core's ``Twister``, ``random.Random``'s
Mersenne Twister bit for bit, or ``random.Random`` itself), and a game replayed from one is
written back as version 4 (docs/records.md).

When all players pass the auction (RULES.md §3) the deal is void. With
``Rules.all_pass="redeal"`` (the default) the same generator shuffles the deck again, the
first bidder stays the same, and the new deal is recorded; after ``Rules.max_redeals``
redeals in a row, one more round of passes ends the hand void. With
``Rules.all_pass="void"`` the first round of passes ends it. A void hand is over with a
:class:`Result` whose ``void`` states the reason and whose scores are all 0, so a table
of players who always pass (or time out) still finishes.

A given ``deal`` is a hand per seat and the bottom cards, either all in suited notation
(``"3S 3H TD B"``, see :func:`ddz.core.cards.parse_suited`) or all in rank notation
(``"333T"``), or a :class:`Deal`. Rank notation has no suits, so the bottom-card bonus
cannot tell a flush: ``Rules(bottom_bonus=True)`` with an unsuited deal raises
:class:`ddz.DealError`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..core.cards import (BIG_JOKER, CHAIN_RANKS, NUM_RANKS, RANK_CHARS, SMALL_JOKER, Card, cards_to_counts,
                    deck_counts, format_cards, full_deck, parse_cards, parse_suited)
from ..core.arguments import SEED_LIMIT as _SEED_LIMIT, rules_arg
from ..core.implementation import compiled
from ..errors import DdzError, DealError, quote
from ..core.rules import STANDARD, Rules

__all__ = ["Deal", "bottom_bonus_factor", "bonus_factor", "bottom_flush", "shuffled_deal", "cut_deal", "new_rng", "legacy_rng",
           "copy_rng", "is_legacy_rng", "restored_rng", "shuffle_deal", "PyDealStream", "vector_hand_seed",
           "mix64", "SEED_LIMIT"]

_game = compiled("game._game", "the compiled play phase and the deal's generator (ddz.game._game)")

Counts = Tuple[int, ...]


def _format_suited(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards))


def _parse_part(part: Any, what: str, decks: int) -> Tuple[Counts, Optional[Tuple[Card, ...]]]:
    """(counts, suited cards or None) of one hand or the bottom."""
    if isinstance(part, str):
        if any(ch in "SHCDshcd" for ch in part):
            cards = parse_suited(part)
            return tuple(int(c) for c in cards_to_counts(cards)), tuple(sorted(cards))
        try:
            counts = parse_cards(part, decks=decks)
        except DdzError as exc:
            raise DealError(f"{what}: {exc}") from None
        return tuple(int(c) for c in counts), None
    if isinstance(part, (list, tuple)) and all(isinstance(c, Card) for c in part):
        cards = tuple(sorted(part))
        return tuple(int(c) for c in cards_to_counts(cards)), cards
    raise DealError(f"{what} must be card notation or a list of ddz.Card, not "
                    f"{type(part).__name__}: {part!r}")


@dataclass(frozen=True)
class Deal:
    """One deal (RULES.md §3, §7): a hand per seat and the bottom cards.

    :param hands: one 15-count tuple per seat (3, or 4 in the four-player game).
    :param bottom: a 15-count tuple.
    :param cards: the suited cards of the hands and the bottom (sorted tuples of
        :class:`ddz.Card`, the bottom last), or ``None`` for a deal given in rank notation.

    Build one with :meth:`Deal.parse` (validated) or :meth:`Deal.from_shuffle`.
    """

    hands: Tuple[Counts, ...]
    bottom: Counts
    cards: Optional[Tuple[Tuple[Card, ...], ...]] = None

    @property
    def suited(self) -> bool:
        """``True`` when the deal has suits (needed by ``Rules.bottom_bonus``)."""
        return self.cards is not None

    @classmethod
    def from_shuffle(cls, deck: Sequence[Card], rules: Rules = STANDARD) -> "Deal":
        """Cut a shuffled ``full_deck(rules.decks)`` in seat order: ``rules.hand_size``
        cards to each seat, the rest to the bottom.

        :param deck: a sequence of :class:`ddz.Card`, every card of ``rules.decks`` decks
            once per deck, in any order.
        :param rules: the rule set (its seats, hand size and decks).
        :raises DealError: ``deck`` is not a sequence of exactly those cards.
        """
        rules = rules_arg(rules)
        if not isinstance(deck, Sequence) or isinstance(deck, (str, bytes)) \
                or not all(isinstance(c, Card) for c in deck) or tuple(sorted(deck)) != DECKS[rules.decks][0]:
            raise DealError(f"a deck to cut is a sequence of ddz.Card holding every card of "
                            f"{rules.decks} deck(s) once per deck (full_deck({rules.decks}) shuffled), "
                            f"not {quote(deck)}")
        n, size = rules.seats, rules.hand_size
        parts = [tuple(sorted(deck[i * size:(i + 1) * size])) for i in range(n)]
        parts.append(tuple(sorted(deck[n * size:])))
        counts = [tuple(int(c) for c in cards_to_counts(p)) for p in parts]
        return cls(tuple(counts[:n]), counts[n], tuple(parts))

    @classmethod
    def parse(cls, deal: Any, rules: Rules = STANDARD) -> "Deal":
        """Validate a deal of ``rules`` (its seats, hand and bottom sizes and decks).

        :param deal: a :class:`Deal`; a mapping ``{"hands": [h0, h1, ...], "bottom": b}``;
            or a sequence ``(h0, h1, ..., bottom)``. Each part is rank notation
            (``"33345..."``), suited notation (``"3S 3H 4D ... B R"``) or a list of
            :class:`ddz.Card`; either every part has suits or none has.
        :param rules: the rule set (default: three players, one deck).
        :returns: the :class:`Deal`.
        :raises DealError: wrong structure, a hand of other than ``rules.hand_size``
            cards or a bottom of other than ``rules.bottom_size``, cards missing or
            repeated (together the parts must be exactly the decks), or suits on some
            parts only.
        :raises NotationError: a suited token that is no card.
        :raises DdzError: ``rules`` is not a :class:`ddz.Rules`.
        """
        rules = rules_arg(rules)
        n, decks = rules.seats, rules.decks
        if isinstance(deal, Deal):
            if len(deal.hands) != n:
                raise DealError(f"a deal of {rules!r} has {n} hands, this one {len(deal.hands)}")
            return deal
        if isinstance(deal, Mapping):
            if set(deal) != {"hands", "bottom"}:
                raise DealError(f"a deal mapping has exactly the keys 'hands' and 'bottom', got {sorted(deal)!r}")
            hands = deal["hands"]
            if not isinstance(hands, (list, tuple)) or len(hands) != n:
                raise DealError(f"a deal has {n} hands, got {hands!r}")
            parts = list(hands) + [deal["bottom"]]
        elif isinstance(deal, (list, tuple)) and len(deal) == n + 1:
            parts = list(deal)
        else:
            raise DealError(f"a deal is ({', '.join(f'hand{i}' for i in range(n))}, bottom) or "
                            f"{{'hands': [...], 'bottom': ...}}, got {deal!r}")
        names = [f"hand of seat {i}" for i in range(n)] + ["bottom"]
        parsed = [_parse_part(p, name, decks) for p, name in zip(parts, names)]
        for (counts, _), name, want in zip(parsed, names, [rules.hand_size] * n + [rules.bottom_size]):
            if sum(counts) != want:
                raise DealError(f"the {name} has {sum(counts)} cards, not {want}: {format_cards(counts)!r}")
        suited = [c is not None for _, c in parsed]
        if any(suited) and not all(suited):
            raise DealError("give suits for every hand and the bottom, or for none "
                            f"(suited: {dict(zip(names, suited))})")
        total = [sum(col) for col in zip(*(c for c, _ in parsed))]
        deck = [int(c) for c in deck_counts(decks)]
        if total != deck:
            extra = [RANK_CHARS[r] * (t - d) for r, (t, d) in enumerate(zip(total, deck)) if t > d]
            missing = [RANK_CHARS[r] * (d - t) for r, (t, d) in enumerate(zip(total, deck)) if t < d]
            what = "one deck once" if decks == 1 else f"{decks} decks {decks} times"
            raise DealError(f"a deal holds every card of {what}; extra {''.join(extra)!r}, "
                            f"missing {''.join(missing)!r}")
        cards = None
        if all(suited):
            cards = tuple(c for _, c in parsed)
            seen: Dict[Card, int] = {}
            dup: List[str] = []
            for card in (card for part in cards for card in part):
                seen[card] = seen.get(card, 0) + 1
                if seen[card] == decks + 1:
                    dup.append(str(card))
            if dup:
                raise DealError(f"cards dealt more than {'once' if decks == 1 else f'{decks} times'}: {' '.join(dup)}")
        counts = [c for c, _ in parsed]
        return cls(tuple(counts[:n]), counts[n], cards)

    def to_json(self) -> Dict[str, Any]:
        """``{"hands": [a string per seat], "bottom": string}``: suited notation
        (``"3S 3H ... B"``) when the deal has suits, rank notation otherwise."""
        if self.cards is not None:
            parts = [_format_suited(p) for p in self.cards]
        else:
            parts = [format_cards(c) for c in (*self.hands, self.bottom)]
        return {"hands": parts[:-1], "bottom": parts[-1]}


#: per number of decks, the full deck in card order and the rank of each card (the shuffle's input)
DECKS: Dict[int, Tuple[Tuple[Card, ...], bytes]] = {
    d: (tuple(full_deck(d)), bytes(c.rank for c in full_deck(d))) for d in (1, 2)}
#: the suit of each card of ``full_deck(decks)`` as bytes (0..3 as :class:`ddz.Suit`, 4 for a
#: joker): the compiled deal reads the bottom bonus's flush from it (RULES.md §6)
DECK_SUITS: Dict[int, bytes] = {d: bytes(4 if c.suit is None else int(c.suit) for c in full_deck(d)) for d in (1, 2)}


#: seeds of the deal stream are ints ``0 .. SEED_LIMIT - 1`` (the one bound: core.arguments.seed_arg)
SEED_LIMIT = _SEED_LIMIT
_M64 = SEED_LIMIT - 1
_GAMMA = 0x9E3779B97F4A7C15
_HAND_GAMMA = 0xD1B54A32D192ED03


def mix64(z: int) -> int:
    """SplitMix64's output function of a 64-bit int (module docstring; trusted input)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def vector_hand_seed(seed: int, j: int) -> int:
    """The seed of hand ``j`` (0, 1, ...) of ``VectorGame(n, rules, seed)`` (module
    docstring): an int ``0 .. 2**63 - 1``; ``seed`` and ``j`` are trusted ints ``0 .. 2**64 - 1``."""
    return mix64((seed + (j + 1) * _HAND_GAMMA) & _M64) >> 1


class PyDealStream:
    """The deal stream of the module docstring in pure Python (the twin of the core's
    ``ddz.game._game.DealStream``, number for number).

    :param seed: an int ``0 .. 2**64 - 1`` (trusted: :class:`ddz.Game` checks it).
    """

    __slots__ = ("_seed", "_drawn", "_word")

    def __init__(self, seed: int = 0) -> None:
        self.setstate(("splitmix64", seed, 0))

    def _draw(self) -> int:
        i = self._drawn
        self._drawn = i + 1
        if i & 1:
            return self._word & 0xFFFFFFFF          # the low half of the word drawn before
        self._word = mix64((self._seed + ((i >> 1) + 1) * _GAMMA) & _M64)
        return self._word >> 32

    def randrange(self, n: int) -> int:
        """``below(n)``: uniform in ``0 .. n - 1``, for ``1 <= n < 2**32``."""
        m = self._draw() * n
        if m & 0xFFFFFFFF < n:
            t = (2 ** 32 - n) % n
            while m & 0xFFFFFFFF < t:
                m = self._draw() * n
        return m >> 32

    def deal(self, ranks: bytes, sizes: Sequence[int]) -> Tuple[list, list]:
        """The deck positions ``0 .. len(ranks) - 1`` shuffled (module docstring) and cut
        into parts of ``sizes``: per part, its positions ascending and its 15 rank counts."""
        order = list(range(len(ranks)))
        below = self.randrange
        for i in range(len(order) - 1, 0, -1):
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        return _cut(order, ranks, sizes)

    def getstate(self) -> Tuple[str, int, int]:
        """``("splitmix64", seed, 32-bit draws so far)``."""
        return ("splitmix64", self._seed, self._drawn)

    def setstate(self, state: Tuple[str, int, int]) -> None:
        """Take a state of :meth:`getstate` (trusted)."""
        _, self._seed, self._drawn = state
        # after an odd number of draws the next is the low half of word drawn // 2
        self._word = mix64((self._seed + ((self._drawn >> 1) + 1) * _GAMMA) & _M64) if self._drawn & 1 else 0

    def __reduce__(self) -> Tuple[Any, Tuple[str, Any]]:
        return (restored_rng, ("stream", self.getstate()))


def new_rng(seed: int) -> Any:
    """The deal stream of ``seed`` (an int ``0 .. 2**64 - 1``, trusted): the core's
    ``DealStream`` or, without the core, :class:`PyDealStream`; both have ``randrange(n)``,
    ``deal(ranks, sizes)``, ``getstate()`` and ``setstate()``, and draw the same numbers."""
    return PyDealStream(seed) if _game is None else _game.DealStream(seed)


def legacy_rng(seed: int) -> Any:
    """The generator of seeded deals in records of version 4 and older: the core's
    ``Twister`` or, without the core, ``random.Random(seed)``, the same numbers."""
    return random.Random(seed) if _game is None else _game.Twister(seed)


def is_legacy_rng(rng: Any) -> bool:
    """Whether ``rng`` is a :func:`legacy_rng` generator (not a deal stream; ``None``, a
    game whose C hand deals from its own stream, is not)."""
    return (rng is not None and not isinstance(rng, PyDealStream)
            and not (_game is not None and isinstance(rng, _game.DealStream)))


def restored_rng(kind: str, state: Any) -> Any:
    """A generator unpickled: ``kind`` ``"stream"`` (:func:`new_rng`) or ``"legacy"``
    (:func:`legacy_rng`) in ``state``, made by the implementation that is active now, so a
    game pickled with the compiled core unpickles without it, and the other way round."""
    rng = legacy_rng(0) if kind == "legacy" else new_rng(0)
    rng.setstate(state)
    return rng


def copy_rng(rng: Any) -> Any:
    """An independent generator in the same state as ``rng`` (of :func:`new_rng` or
    :func:`legacy_rng`)."""
    new = legacy_rng(0) if is_legacy_rng(rng) else new_rng(0)
    new.setstate(rng.getstate())
    return new


def _cut(order: List[int], ranks: bytes, sizes: Sequence[int]) -> Tuple[list, list]:
    positions, counts, lo = [], [], 0
    for size in sizes:
        part = tuple(sorted(order[lo:lo + size]))
        c = [0] * 15
        for i in part:
            c[ranks[i]] += 1
        positions.append(part)
        counts.append(tuple(c))
        lo += size
    return positions, counts


def shuffle_deal(rng: Any, ranks: bytes, sizes: Sequence[int]) -> Tuple[list, list]:
    """Shuffle the deck positions with ``rng`` and cut them into parts: a deal stream as
    the module docstring says, a :func:`legacy_rng` as ``random.Random.shuffle`` does.

    :param rng: a generator of :func:`new_rng` or :func:`legacy_rng`.
    :param ranks: the rank (0..14) of each deck position, as bytes.
    :param sizes: the part sizes (they add up to ``len(ranks)``).
    :returns: ``(positions, counts)``: per part, its positions ascending and its 15
        rank counts (tuples of ints).
    """
    if not isinstance(rng, random.Random):
        return rng.deal(ranks, sizes)
    order = list(range(len(ranks)))
    rng.shuffle(order)
    return _cut(order, ranks, sizes)


def shuffled_deal(rng: Any, rules: Rules) -> Deal:
    """The next deal of the generator ``rng`` (:func:`new_rng`, :func:`legacy_rng`): the
    positions of ``full_deck(rules.decks)`` shuffled (:func:`shuffle_deal`), then cut in
    seat order; the sorted positions give each part in card order."""
    ranks = DECKS[rules.decks][1]
    positions, counts = shuffle_deal(rng, ranks, (rules.hand_size,) * rules.seats + (rules.bottom_size,))
    return cut_deal(positions, counts, rules)


def cut_deal(positions: Sequence[Sequence[int]], counts: Sequence[Counts], rules: Rules) -> Deal:
    """The suited :class:`Deal` of a shuffle cut into parts (each seat's, then the
    bottom's): ``positions`` per part its positions in ``full_deck(rules.decks)``
    ascending, ``counts`` its 15 rank counts (tuples of ints; trusted: a generator's, or the
    C hand's ``CHand.dealt``)."""
    deck = DECKS[rules.decks][0]
    n = rules.seats
    cards = tuple([tuple(map(deck.__getitem__, pos)) for pos in positions])
    return Deal(tuple(counts[:n]), counts[n], cards)


def check_bonus_deal(deal: Deal) -> None:
    """A deal that ``Rules(bottom_bonus=True)`` can score: it must have suits.

    :raises DealError: a deal given in rank notation (no suits, so no flush can be told,
        even when a joker in the bottom happens to rule the flush out).
    """
    if deal.cards is None:
        raise DealError("Rules(bottom_bonus=True) needs the suits of the deal (a flush in the bottom "
                        "doubles the score): give every hand and the bottom in suited "
                        "notation, e.g. '3S 4S 5S'")


def bottom_bonus_factor(deal: Deal) -> int:
    """The bottom-card bonus of RULES.md §6 (底牌翻倍): 4 for a trio or a straight flush,
    3 for both jokers or three consecutive ranks within 3..A, 2 for a pair, one suit, or
    the big joker; 1 otherwise. Only the highest factor applies; a joker has no suit.

    :param deal: a suited three-player :class:`Deal` (an unsuited one can only be judged
        when the bottom holds a joker; otherwise the flush is unknown).
    :returns: 1, 2, 3 or 4.
    :raises DealError: the deal has no suits and the bottom holds no joker, or its
        bottom is not 3 cards (the bonus is a three-player rule).
    """
    counts = deal.bottom
    if sum(counts) != 3:
        raise DealError(f"the bottom-card bonus judges 3 bottom cards, not {sum(counts)}")
    if deal.cards is None and not (counts[SMALL_JOKER] or counts[BIG_JOKER]):
        raise DealError("the bottom-card bonus needs suits (a flush doubles the score); "
                        "give the deal in suited notation, e.g. '3S 4S 5S'")
    return bonus_factor(counts, bottom_flush(deal))


def bottom_flush(deal: Deal) -> bool:
    """Whether the bottom cards of ``deal`` are all of one suit (a joker has none; a deal in
    rank notation has no suits: ``False``)."""
    if deal.cards is None:
        return False
    bottom = deal.cards[-1]
    return bool(bottom) and all(c.suit is not None for c in bottom) and len({c.suit for c in bottom}) == 1


def bonus_factor(counts: Sequence[int], flush: bool) -> int:
    """The bottom bonus (RULES.md §6) of three bottom cards given as 15 counts, ``flush``
    saying whether they are of one suit (trusted; :func:`bottom_bonus_factor` checks a
    deal): 4, 3, 2 or 1. The C hand's twin is ``hand_bonus_factor`` (``ddz.game._game``)."""
    ranks = sorted(r for r in range(NUM_RANKS) for _ in range(counts[r]))
    consecutive = (ranks[2] < CHAIN_RANKS and ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1)
    if max(counts) == 3 or (consecutive and flush):
        return 4
    if (counts[SMALL_JOKER] and counts[BIG_JOKER]) or consecutive:
        return 3
    if max(counts) == 2 or flush or counts[BIG_JOKER]:
        return 2
    return 1
