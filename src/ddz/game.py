"""The whole game: deal, bid, double, play, score (RULES.md §3–§6).

:class:`Game` is a state machine whose :attr:`Game.phase` goes
``bidding → (doubling) → playing → over``. At every point one seat is to act
(:attr:`Game.current_player`); :meth:`Game.legal_actions` lists what it may do and
:meth:`Game.step` does it. An illegal action raises a :class:`ddz.DdzError` subclass
and leaves the state unchanged.

Actions, by phase
-----------------
* ``bidding`` with ``Rules.bidding="points"`` (叫分): the ints ``0`` (pass), ``1``,
  ``2``, ``3``; the strings ``"pass"``, ``"1"``, ``"2"``, ``"3"`` are accepted too.
* ``bidding`` with ``Rules.bidding="rob"`` (叫地主/抢地主): ``0`` (pass) or ``1`` (call
  the landlord when nobody has, rob otherwise); also ``"pass"``, ``"call"``, ``"rob"``.
* ``doubling`` (``Rules.doubling=True``): ``False`` or ``True`` (double, or redouble for
  the landlord); also ``0``/``1``, ``"pass"``, ``"double"``, ``"redouble"``.
* ``playing``: a :class:`ddz.Play` or play notation (``"333+4"``, ``"pass"``).

Dealing
-------
``Game(seed=S)`` shuffles :func:`ddz.cards.full_deck` with ``random.Random(S).shuffle``
(Python's Mersenne Twister and shuffle algorithm, so the same seed gives the same deal on
every platform and Python version 3.9+), gives cards 0–16 to seat 0, 17–33 to seat 1,
34–50 to seat 2 and 51–53 to the bottom, then (if ``first_bidder`` is not given) draws
the first bidder with ``randrange(3)`` from the same generator (drawn even when given,
so that redeals do not depend on it). Without a seed a fresh
one is drawn from the operating system and kept in :attr:`Game.seed`, so every game can
be replayed. When all players pass (RULES.md §3) the hand is void: the same generator
shuffles the deck again, the first bidder stays the same, and the new deal is recorded.

A given ``deal`` is three hands and the bottom cards, either all in suited notation
(``"3S 3H TD B"``, see :func:`ddz.cards.parse_suited`) or all in rank notation
(``"333T"``), or a :class:`Deal`. Rank notation has no suits, so the bottom-card bonus
cannot tell a flush: ``Rules(bottom_bonus=True)`` with an unsuited deal raises
:class:`ddz.DealError`.
"""

from __future__ import annotations

import enum
import operator
import random
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, moves
from .cards import (BIG_JOKER, CHAIN_RANKS, NUM_RANKS, RANK_CHARS, SMALL_JOKER, Card, is_integer,
                    cards_to_counts, deck_counts, format_cards, full_deck, parse_cards,
                    parse_suited)
from .errors import (ActionIdError, DdzError, DealError, IllegalActionError, InvalidPlayError, NotInHandError,
                     RecordError)
from .play import PASS, Play, PlayType
from .rules import STANDARD, Rules
from .tables import table

if TYPE_CHECKING:
    import numpy.typing as npt

    from .actions import ActionSpace

__all__ = ["Game", "Phase", "Deal", "Result", "Observation", "Action",
           "SEATS", "HAND_SIZE", "BOTTOM_SIZE", "RECORD_FORMAT", "RECORD_VERSION",
           "bottom_bonus_factor"]

SEATS = 3
HAND_SIZE = 17
BOTTOM_SIZE = 3
RECORD_FORMAT = "ddz-record"
RECORD_VERSION = 2

Counts = Tuple[int, ...]
Action = Union[Play, str, int, bool]

_T_PASS = PlayType.PASS
_T_BOMB = PlayType.BOMB
_T_ROCKET = PlayType.ROCKET
_is = operator.is_
_U8 = np.uint8


def _int_arg(value: Any, what: str) -> int:
    """``value`` as a Python int: ints and numpy integers only (not bools, floats or text).

    :raises DdzError: anything else.
    """
    if is_integer(value):
        return int(value)
    raise DdzError(f"{what} must be an int, not {type(value).__name__}: {value!r}")


def _frozen(counts: Any) -> np.ndarray:
    """A read-only ``uint8[15]`` (hands are replaced, never modified, so copies share them)."""
    arr = np.array(counts, dtype=_U8)
    arr.flags.writeable = False
    return arr


_COUNTS_CACHE: Dict[Play, np.ndarray] = {}
_new_tuple = tuple.__new__


def _play_counts(play: Play) -> np.ndarray:
    arr = _COUNTS_CACHE.get(play)
    if arr is None:
        if len(_COUNTS_CACHE) > 100_000:
            _COUNTS_CACHE.clear()
        arr = _COUNTS_CACHE[play] = _frozen(play.counts)
    return arr


class Phase(str, enum.Enum):
    """The phases of a hand, in order (a ``str``, so ``game.phase == "playing"`` works)."""
    BIDDING = "bidding"
    DOUBLING = "doubling"
    PLAYING = "playing"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


# -- the deal --------------------------------------------------------------------

def _format_suited(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards))


def _parse_part(part: Any, what: str) -> Tuple[Counts, Optional[Tuple[Card, ...]]]:
    """(counts, suited cards or None) of one hand or the bottom."""
    if isinstance(part, str):
        if any(ch in "SHCDshcd" for ch in part):
            cards = parse_suited(part)
            return tuple(int(c) for c in cards_to_counts(cards)), tuple(sorted(cards))
        try:
            counts = parse_cards(part)
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
    """One deal (RULES.md §3): three hands of 17 cards and 3 bottom cards.

    :param hands: three 15-count tuples.
    :param bottom: a 15-count tuple.
    :param cards: the suited cards of the three hands and the bottom (four sorted
        tuples of :class:`ddz.Card`), or ``None`` for a deal given in rank notation.

    Build one with :meth:`Deal.parse` (validated) or :meth:`Deal.from_shuffle`.
    """

    hands: Tuple[Counts, Counts, Counts]
    bottom: Counts
    cards: Optional[Tuple[Tuple[Card, ...], ...]] = None

    @property
    def suited(self) -> bool:
        """``True`` when the deal has suits (needed by ``Rules.bottom_bonus``)."""
        return self.cards is not None

    @classmethod
    def from_shuffle(cls, deck: Sequence[Card]) -> "Deal":
        """Seat 0 gets ``deck[0:17]``, seat 1 ``deck[17:34]``, seat 2 ``deck[34:51]``,
        the bottom ``deck[51:54]`` (a trusted, shuffled :func:`ddz.cards.full_deck`)."""
        parts = [tuple(sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE])) for i in range(SEATS)]
        parts.append(tuple(sorted(deck[SEATS * HAND_SIZE:])))
        counts = [tuple(int(c) for c in cards_to_counts(p)) for p in parts]
        return cls(tuple(counts[:3]), counts[3], tuple(parts))

    @classmethod
    def parse(cls, deal: Any) -> "Deal":
        """Validate a deal.

        :param deal: a :class:`Deal`; a mapping ``{"hands": [h0, h1, h2], "bottom": b}``;
            or a sequence ``(h0, h1, h2, bottom)``. Each part is rank notation
            (``"33345..."``), suited notation (``"3S 3H 4D ... B R"``) or a list of
            :class:`ddz.Card`; either every part has suits or none has.
        :returns: the :class:`Deal`.
        :raises DealError: wrong structure, a hand of other than 17 cards or a bottom of
            other than 3, cards missing or repeated (together the parts must be exactly
            one deck), or suits on some parts only.
        :raises NotationError: a suited token that is no card.
        """
        if isinstance(deal, Deal):
            return deal
        if isinstance(deal, Mapping):
            if set(deal) != {"hands", "bottom"}:
                raise DealError(f"a deal mapping has exactly the keys 'hands' and 'bottom', got {sorted(deal)!r}")
            hands = deal["hands"]
            if not isinstance(hands, (list, tuple)) or len(hands) != SEATS:
                raise DealError(f"a deal has {SEATS} hands, got {hands!r}")
            parts = list(hands) + [deal["bottom"]]
        elif isinstance(deal, (list, tuple)) and len(deal) == SEATS + 1:
            parts = list(deal)
        else:
            raise DealError(f"a deal is (hand0, hand1, hand2, bottom) or "
                            f"{{'hands': [...], 'bottom': ...}}, got {deal!r}")
        names = ["hand of seat 0", "hand of seat 1", "hand of seat 2", "bottom"]
        parsed = [_parse_part(p, n) for p, n in zip(parts, names)]
        for (counts, _), name, want in zip(parsed, names, [HAND_SIZE] * 3 + [BOTTOM_SIZE]):
            if sum(counts) != want:
                raise DealError(f"the {name} has {sum(counts)} cards, not {want}: {format_cards(counts)!r}")
        suited = [c is not None for _, c in parsed]
        if any(suited) and not all(suited):
            raise DealError("give suits for every hand and the bottom, or for none "
                            f"(suited: {dict(zip(names, suited))})")
        total = [sum(col) for col in zip(*(c for c, _ in parsed))]
        deck = [int(c) for c in deck_counts(1)]
        if total != deck:
            extra = [RANK_CHARS[r] * (t - d) for r, (t, d) in enumerate(zip(total, deck)) if t > d]
            missing = [RANK_CHARS[r] * (d - t) for r, (t, d) in enumerate(zip(total, deck)) if t < d]
            raise DealError(f"a deal holds every card of one deck once; extra {''.join(extra)!r}, "
                            f"missing {''.join(missing)!r}")
        cards = None
        if all(suited):
            cards = tuple(c for _, c in parsed)
            every = [card for part in cards for card in part]
            if len(set(every)) != len(every):
                seen, dup = set(), []
                for card in every:
                    if card in seen:
                        dup.append(str(card))
                    seen.add(card)
                raise DealError(f"cards dealt twice: {' '.join(dup)}")
        counts = [c for c, _ in parsed]
        return cls(tuple(counts[:3]), counts[3], cards)

    def to_json(self) -> Dict[str, Any]:
        """``{"hands": [three strings], "bottom": string}``: suited notation
        (``"3S 3H ... B"``) when the deal has suits, rank notation otherwise."""
        if self.cards is not None:
            parts = [_format_suited(p) for p in self.cards]
        else:
            parts = [format_cards(c) for c in (*self.hands, self.bottom)]
        return {"hands": parts[:3], "bottom": parts[3]}


_DECK = tuple(full_deck())
_DECK_RANKS = tuple(c.rank for c in _DECK)


def _deal_from_order(order: List[int]) -> Deal:
    """The deal of a shuffled ``full_deck()`` given as positions (trusted)."""
    cards, counts = [], []
    for lo, hi in ((0, 17), (17, 34), (34, 51), (51, 54)):
        pos = sorted(order[lo:hi])
        cards.append(tuple(_DECK[i] for i in pos))
        c = [0] * NUM_RANKS
        for i in pos:
            c[_DECK_RANKS[i]] += 1
        counts.append(tuple(c))
    return Deal(tuple(counts[:3]), counts[3], tuple(cards))


def _check_bonus_deal(deal: Deal) -> None:
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

    :param deal: a suited :class:`Deal` (an unsuited one can only be judged when the
        bottom holds a joker; otherwise the flush is unknown).
    :returns: 1, 2, 3 or 4.
    :raises DealError: the deal has no suits and the bottom holds no joker.
    """
    counts = deal.bottom
    ranks = sorted(r for r in range(NUM_RANKS) for _ in range(counts[r]))
    consecutive = (ranks[2] < CHAIN_RANKS and ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1)
    has_joker = counts[SMALL_JOKER] or counts[BIG_JOKER]
    if deal.cards is None:
        if not has_joker:
            raise DealError("the bottom-card bonus needs suits (a flush doubles the score); "
                            "give the deal in suited notation, e.g. '3S 4S 5S'")
        flush = False
    else:
        suits = {c.suit for c in deal.cards[3]}
        flush = not has_joker and len(suits) == 1
    if max(counts) == 3 or (consecutive and flush):
        return 4
    if (counts[SMALL_JOKER] and counts[BIG_JOKER]) or consecutive:
        return 3
    if max(counts) == 2 or flush or counts[BIG_JOKER]:
        return 2
    return 1


# -- results and observations ------------------------------------------------------

@dataclass(frozen=True)
class Result:
    """The outcome of a finished hand (RULES.md §5, §6).

    :ivar landlord: the landlord's seat.
    :ivar winner: ``"landlord"`` or ``"farmers"``.
    :ivar winners: the winning seats.
    :ivar base: the base score (the winning bid; 1 with ``bidding="rob"``).
    :ivar bombs: bombs played (each ×2). :ivar rockets: rockets played (each ×2).
    :ivar spring: 春天 (×2). :ivar anti_spring: 反春天 (×2).
    :ivar doubles: doubles and redoubles (each ×2). :ivar robs: robs (each ×2).
    :ivar bottom_bonus: the bottom-card factor (1 when the option is off).
    :ivar multiplier: the product of every factor above.
    :ivar score: S = base × multiplier.
    :ivar scores: settlement per seat (zero-sum): the landlord ±2S, each farmer ∓S.
    """

    landlord: int
    winner: str
    winners: Tuple[int, ...]
    base: int
    bombs: int
    rockets: int
    spring: bool
    anti_spring: bool
    doubles: int
    robs: int
    bottom_bonus: int
    multiplier: int
    score: int
    scores: Tuple[int, int, int]

    @property
    def breakdown(self) -> Dict[str, int]:
        """Each factor of S = base × multiplier, e.g. ``{"bid": 3, "bombs": 4, ...}``:
        ``bid`` is the base, every other entry a factor (1 when it did not apply)."""
        return {"bid": self.base, "bombs": 2 ** self.bombs, "rocket": 2 ** self.rockets,
                "spring": 2 if self.spring else 1, "anti_spring": 2 if self.anti_spring else 1,
                "doubles": 2 ** self.doubles, "robs": 2 ** self.robs,
                "bottom_bonus": self.bottom_bonus}

    def to_json(self) -> Dict[str, Any]:
        """A JSON-serializable dict of every field."""
        return {"landlord": self.landlord, "winner": self.winner, "winners": list(self.winners),
                "base": self.base, "bombs": self.bombs, "rockets": self.rockets,
                "spring": self.spring, "anti_spring": self.anti_spring, "doubles": self.doubles,
                "robs": self.robs, "bottom_bonus": self.bottom_bonus,
                "multiplier": self.multiplier, "score": self.score, "scores": list(self.scores)}


class Observation(NamedTuple):
    """What one seat sees (RULES.md §5: own hand plus public information).

    :ivar seat: the observing seat. :ivar phase: the :class:`Phase`.
    :ivar current_player: the seat to act (``None`` when the hand is over).
    :ivar rules: the :class:`ddz.Rules`.
    :ivar hand: the seat's own cards (15 counts).
    :ivar landlord: the landlord's seat, or ``None`` during bidding.
    :ivar bid: the highest bid so far (``bidding="rob"``: 1 once someone called).
    :ivar bidding: every bidding action of this deal, ``(seat, value)``.
    :ivar robs: robs so far. :ivar doubles: per seat ``True``/``False`` or ``None``
        (not chosen yet, or chosen but not yet revealed: the farmers' choices are revealed
        together).
    :ivar bottom: the bottom cards (15 counts) once revealed, else ``None``.
    :ivar plays: every play so far (passes included), ``(seat, Play)``, in order.
    :ivar cards_left: cards left per seat.
    :ivar to_beat: the play to beat (``None`` when leading or outside the play phase).
    :ivar to_beat_seat: who made it (``None`` likewise).
    :ivar multiplier: the multiplier so far (robs, doubles, bottom bonus, bombs, rockets;
        spring and anti-spring are only known at the end).

    An immutable named tuple (cheap to build at every turn).
    """

    seat: int
    phase: Phase
    current_player: Optional[int]
    rules: Rules
    hand: Counts
    landlord: Optional[int]
    bid: int
    bidding: Tuple[Tuple[int, int], ...]
    robs: int
    doubles: Tuple[Optional[bool], ...]
    bottom: Optional[Counts]
    plays: Tuple[Tuple[int, Play], ...]
    cards_left: Tuple[int, int, int]
    to_beat: Optional[Play]
    to_beat_seat: Optional[int]
    multiplier: int

    @property
    def hand_str(self) -> str:
        """The own hand in canonical notation."""
        return format_cards(self.hand)

    @property
    def is_landlord(self) -> bool:
        """``True`` when the observing seat is the landlord."""
        return self.landlord == self.seat

    @property
    def partner(self) -> Optional[int]:
        """The other farmer's seat (``None`` for the landlord or before it is known)."""
        if self.landlord is None or self.landlord == self.seat:
            return None
        return 3 - self.landlord - self.seat


# -- the game ----------------------------------------------------------------------

_BID_WORDS = {"pass": 0, "p": 0, "0": 0, "1": 1, "2": 2, "3": 3, "不叫": 0}
_ROB_WORDS = {"pass": 0, "p": 0, "0": 0, "no": 0, "call": 1, "rob": 1, "1": 1, "yes": 1,
              "叫地主": 1, "抢地主": 1, "不叫": 0, "不抢": 0}
_DOUBLE_WORDS = {"pass": False, "p": False, "no": False, "0": False, "false": False,
                 "double": True, "redouble": True, "yes": True, "1": True, "true": True,
                 "加倍": True, "不加倍": False}


def _is_play_notation(text: str, rules: Rules) -> bool:
    """Whether ``text`` reads as a play (for messages about actions out of their phase)."""
    try:
        Play.parse(text, rules)
    except DdzError:
        return False
    return True


class Game:
    """One hand of three-player Dou Dizhu (RULES.md §3–§6).

    :param rules: the :class:`ddz.Rules` (kickers, bidding, doubling, bottom bonus).
    :param seed: an ``int`` seeding ``random.Random`` for the deal, redeals and the first
        bidder; ``None`` draws one from the operating system (kept in :attr:`seed`).
    :param deal: a deal to use instead of shuffling (see :meth:`Deal.parse`).
    :param first_bidder: seat 0, 1 or 2 to speak first; drawn from the generator if
        ``None``.
    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`, ``seed`` is not an int,
        ``first_bidder`` is not 0..2 (ints and numpy integers are accepted; bools and
        floats are not).
    :raises DealError: a bad ``deal``, or an unsuited deal with ``bottom_bonus``.

    Attributes (read-only): :attr:`phase`, :attr:`current_player`, :attr:`landlord`,
    :attr:`result` (``None`` until the hand is over), :attr:`deal`, :attr:`deals` (every
    deal of this hand, redeals included), :attr:`actions` (``(seat, action)`` in order).
    """

    def __init__(self, rules: Rules = STANDARD, seed: Optional[int] = None,
                 deal: Any = None, first_bidder: Optional[int] = None) -> None:
        rules = _args.rules_arg(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        else:
            seed = _int_arg(seed, "seed (or None)")
        if first_bidder is not None:
            first_bidder = _int_arg(first_bidder, "first_bidder (0, 1, 2 or None)")
            if first_bidder not in (0, 1, 2):
                raise DdzError(f"first_bidder must be 0, 1, 2 or None, got {first_bidder!r}")
        self.rules = rules
        self._move_rules = rules.move_rules
        self.seed = seed
        self._rng = random.Random(seed)
        self._dealt_from_seed = deal is None
        self._pending: List[Deal] = []
        if deal is None:
            first = self._shuffle()
        else:
            first = Deal.parse(deal)
        if rules.bottom_bonus:
            _check_bonus_deal(first)
        drawn = self._rng.randrange(SEATS)  # always drawn, so redeals do not depend on first_bidder
        self.first_bidder = drawn if first_bidder is None else first_bidder
        self._deals: List[Deal] = []
        self._actions: List[Tuple[int, Any]] = []
        self._calls: List[int] = []  # indices into _actions of rob-variant calls (vs robs)
        self._undo: list = []
        self._space = None
        self._start_deal(first)

    # -- set-up --
    def _shuffle(self) -> Deal:
        # Shuffling the positions 0..53 of full_deck() draws exactly the permutation that
        # shuffling full_deck() itself would (shuffle depends only on the length); the
        # sorted positions give each part in card order without comparing Card objects.
        order = list(range(len(_DECK)))
        self._rng.shuffle(order)
        return _deal_from_order(order)

    def _start_deal(self, deal: Deal) -> None:
        self._deals.append(deal)
        self._hands: List[np.ndarray] = [_frozen(h) for h in deal.hands]
        self._left = [HAND_SIZE] * SEATS
        self._phase = Phase.BIDDING
        self._current: Optional[int] = self.first_bidder
        self._spoken = 0
        self._bids: List[Tuple[int, int]] = []
        self._bid = 0
        self._bidder: Optional[int] = None   # highest bidder / last caller-or-robber
        self._caller: Optional[int] = None   # rob variant: the first to call
        self._robs = 0
        self._final_rob = False
        self.landlord: Optional[int] = None
        self._doubles: List[Optional[bool]] = [None, None, None]
        self._ndoubles = 0
        self._bonus = 1
        self._history: List[Tuple[int, Play]] = []
        self._to_beat: Optional[Play] = None
        self._to_beat_seat = -1
        self._passes = 0
        self._nplays = [0, 0, 0]
        self._bombs = 0
        self._rockets = 0
        self.result: Optional[Result] = None
        self._legal: Optional[list] = None
        self._legal_ids = None

    def _redeal(self) -> None:
        # shuffled deals have suits; recorded ones were checked by from_record
        deal = self._pending.pop(0) if self._pending else self._shuffle()
        self._start_deal(deal)

    # -- read-only views --
    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self._phase

    @property
    def current_player(self) -> Optional[int]:
        """The seat to act, or ``None`` when the hand is over."""
        return self._current

    @property
    def deal(self) -> Deal:
        """The deal being played (the last one, after redeals)."""
        return self._deals[-1]

    @property
    def deals(self) -> Tuple[Deal, ...]:
        """Every deal of this hand in order (more than one after all-pass redeals)."""
        return tuple(self._deals)

    @property
    def redeals(self) -> int:
        """How many times the hand was void and redealt (RULES.md §3)."""
        return len(self._deals) - 1

    @property
    def actions(self) -> Tuple[Tuple[int, Any], ...]:
        """Every action so far, over all deals, as ``(seat, action)``: bids as ints,
        doubles as bools, plays as :class:`ddz.Play`."""
        return tuple(self._actions)

    @property
    def plays(self) -> Tuple[Tuple[int, Play], ...]:
        """Every play of the play phase so far, passes included, as ``(seat, Play)``."""
        return tuple(self._history)

    @property
    def bid(self) -> int:
        """The highest bid so far (with ``bidding="rob"``: 1 once someone called)."""
        return self._bid

    @property
    def to_beat(self) -> Optional[Play]:
        """The play to beat, or ``None`` when the player to act leads (or not playing)."""
        return self._to_beat

    def hand(self, seat: int) -> Counts:
        """The cards of ``seat`` (15 counts). :raises DdzError: a seat not 0..2."""
        return tuple(self._hands[self._seat_arg(seat)].tolist())

    def cards_left(self) -> Tuple[int, int, int]:
        """Cards left per seat (RULES.md §5: public)."""
        return tuple(self._left)

    @property
    def multiplier(self) -> int:
        """The multiplier so far (RULES.md §6): robs, doubles, bottom bonus, bombs and
        rockets played; spring and anti-spring count once the hand is over.

        This is the referee's view: it counts a farmer's double before the other farmer
        has chosen. What a player may see is :meth:`observation` ``.multiplier``."""
        if self.result is not None:
            return self.result.multiplier
        return self._bonus << (self._robs + self._ndoubles + self._bombs + self._rockets)

    @staticmethod
    def _seat_arg(seat: Any) -> int:
        if not is_integer(seat) \
                or seat not in (0, 1, 2):
            raise DdzError(f"a seat is 0, 1 or 2, got {seat!r}")
        return int(seat)

    def __repr__(self) -> str:
        return (f"<ddz.Game seed={self.seed} phase={self._phase.value} "
                f"current_player={self._current} landlord={self.landlord}>")

    # -- legal actions --
    def legal_actions(self) -> List[Action]:
        """The legal actions of :attr:`current_player` (RULES.md §3–§5), in a fixed order.

        :returns: a new list: bids ``[0, b+1, ..., 3]`` (``0`` is the pass) or ``[0, 1]``
            (rob variant: pass, call/rob); ``[False, True]`` when doubling; when playing,
            :class:`ddz.Play` values in the move order of :func:`ddz.legal_moves` (the
            pass first when responding); ``[]`` when the hand is over.
        """
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list:
        phase = self._phase
        if phase is Phase.PLAYING:
            legal = moves.legal_moves(self._hands[self._current], self._to_beat, self._move_rules)
        elif phase is Phase.BIDDING:
            if self.rules.bidding == "points":
                legal = [0] + list(range(self._bid + 1, 4))
            else:
                legal = [0, 1]
        elif phase is Phase.DOUBLING:
            legal = [False, True]
        else:
            legal = []
        self._legal = legal
        return legal

    def legal_action_ids(self) -> npt.NDArray[np.int32]:
        """The legal plays as action ids of ``ddz.actions.ActionSpace(rules)`` (play phase).

        Ids are those of :attr:`action_space` (id 0 is the pass), ascending, which is the
        order of :meth:`legal_actions`; :meth:`step_id` plays one, and ``space.play(i)``
        turns an id back into the :class:`ddz.Play`. About one kernel call: the hand and
        the play to beat (by id) go to the kernel as they are.

        :returns: a numpy ``int32`` array (a fresh copy).
        :raises IllegalActionError: not in the play phase (bids and doubles have no ids).
        """
        ids = self._legal_ids
        if ids is None:
            ids = self._compute_legal_ids()
        return ids.copy()

    def _compute_legal_ids(self):
        if self._phase is not Phase.PLAYING:
            raise IllegalActionError(f"action ids exist only in the play phase; the phase is {self._phase.value!r}")
        space = self.action_space
        beat = self._to_beat
        ids = space.legal_ids(self._hands[self._current],
                              None if beat is None else space._t.index_of_play[beat])
        self._legal_ids = ids
        return ids

    def step_id(self, action_id: Union[int, np.integer[Any]]) -> None:
        """Play the action of id ``action_id`` of :attr:`action_space` (play phase): the
        same as ``step(action_space.play(action_id))``, without building or parsing a Play
        on the way in (RULES.md §5).

        :param action_id: an ``int`` or numpy integer.
        :raises ActionIdError: not an integer id of the space.
        :raises IllegalActionError: not in the play phase, or the id's play is not legal
            here (the message says why, as :meth:`step` does).
        :raises NotInHandError: a play whose cards the player does not hold.

        On any error the state is unchanged. Like :meth:`step`, it ends the undo history of
        :meth:`push`.
        """
        ids = self._legal_ids
        if ids is None:
            ids = self._compute_legal_ids()
        if type(action_id) is not int:
            if not is_integer(action_id) or isinstance(action_id, enum.Enum):
                raise ActionIdError(f"an action id is an int, not {type(action_id).__name__}: {action_id!r}")
            action_id = int(action_id)
        k = int(ids.searchsorted(action_id))
        if k < len(ids) and ids[k] == action_id:
            self._apply_play(self._current, self.action_space._t.plays[action_id])
            if self._undo:
                self._undo.clear()
            return
        play = self.action_space.play(action_id)   # raises ActionIdError out of range
        self.step(play)                               # raises, naming why it is illegal
        raise AssertionError("unreachable: step() accepted an id outside the legal ids")  # pragma: no cover

    @property
    def action_space(self) -> ActionSpace:
        """The ``ddz.actions.ActionSpace`` of the game's move rules (shared, immutable)."""
        space = self._space
        if space is None:
            space = self._space = _action_space(self._move_rules)
        return space

    def timeout_action(self) -> Action:
        """What :attr:`current_player` does on a timeout (RULES.md §5): pass when bidding,
        not double, pass when responding, and when leading its lowest single card.

        :returns: the action (pass it to :meth:`step`).
        :raises IllegalActionError: the hand is over.
        """
        phase = self._phase
        if phase is Phase.BIDDING:
            return 0
        if phase is Phase.DOUBLING:
            return False
        if phase is Phase.PLAYING:
            if self._to_beat is not None:
                return PASS
            hand = self._hands[self._current]
            low = next(r for r in range(NUM_RANKS) if hand[r])
            return Play(PlayType.SINGLE, low, 1)
        raise IllegalActionError("the hand is over: nobody is to act")

    # -- acting --
    def step(self, action: Action) -> None:
        """Let :attr:`current_player` take ``action`` (see the module docstring).

        :param action: a bid, a double choice, a :class:`ddz.Play` or play notation.
        :raises IllegalActionError: an action of the wrong kind for the phase, a bid not
            above the highest, a pass when leading, a play that does not beat the play
            to beat, or any action once the hand is over.
        :raises NotInHandError: a play whose cards the player does not hold.
        :raises InvalidPlayError, NotationError: notation or a ``Play`` that is no play
            under the rules.

        On any error the state is unchanged. A step ends the undo history of :meth:`push`.
        """
        phase = self._phase
        if phase is Phase.PLAYING:
            self._apply_play(self._current, self._play_arg(action))
        elif phase is Phase.BIDDING:
            self._apply_bid(self._bid_arg(action))
        elif phase is Phase.DOUBLING:
            self._apply_double(self._double_arg(action))
        else:
            raise IllegalActionError(f"the hand is over; no action is legal (got {action!r})")
        if self._undo:
            self._undo.clear()

    def _play_arg(self, action: Any) -> Play:
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if isinstance(action, Play):
            if any(map(_is, legal, repeat(action))):
                return action
            play = action
        elif isinstance(action, str):
            try:
                play = Play.parse(action, self._move_rules)
            except InvalidPlayError as exc:
                if "is not a play under" not in str(exc):
                    raise
                raise InvalidPlayError(
                    f"{action!r} is not a play (kickers={self.rules.kickers!r})") from None
            except DdzError:
                word = action.strip().lower()
                if word in _BID_WORDS or word in _ROB_WORDS or word in _DOUBLE_WORDS:
                    raise IllegalActionError(
                        f"{action!r} is a bidding or doubling action, but the game is in the "
                        f"play phase: play cards (e.g. '333+4') or 'pass'") from None
                raise
        else:
            raise IllegalActionError(
                f"in the play phase an action is a ddz.Play or play notation, not "
                f"{type(action).__name__}: {action!r}")
        if play in legal:
            return play
        seat = self._current
        hand = self._hands[seat]
        if play.type is _T_PASS:
            raise IllegalActionError(f"seat {seat} leads and cannot pass")
        if play.type in self.rules.banned:
            raise InvalidPlayError(f"{str(play)!r} is a play of the banned type {play.type.name} under {self.rules!r}")
        if play.type is not _T_PASS and moves.readings(play.counts, self._move_rules) != [play]:
            raise InvalidPlayError(f"{str(play)!r} is not a play under {self.rules!r}")
        if any(c > h for c, h in zip(play.counts, hand.tolist())):
            raise NotInHandError(f"seat {seat} does not hold {str(play)!r}; its hand is {format_cards(hand)!r}")
        raise IllegalActionError(f"{str(play)!r} does not beat {str(self._to_beat)!r} "
                                 f"(played by seat {self._to_beat_seat})")

    def _bid_arg(self, action: Any) -> int:
        points = self.rules.bidding == "points"
        words = _BID_WORDS if points else _ROB_WORDS
        if isinstance(action, str):
            value = words.get(action.strip().lower())
            if value is None:
                if _is_play_notation(action, self._move_rules):
                    raise IllegalActionError(
                        f"{action!r} is a play, but the game is in the bidding phase: bid "
                        f"(say one of {', '.join(sorted(set(words) - {'p'}))})")
                raise IllegalActionError(
                    f"not a bidding action: {action!r} (say one of {', '.join(sorted(set(words) - {'p'}))})")
        elif isinstance(action, Play) and not action:
            value = 0
        elif is_integer(action):
            value = int(action)
        else:
            what = ("a play" if isinstance(action, Play) else f"{type(action).__name__}: {action!r}")
            raise IllegalActionError(
                f"the game is in the bidding phase, where an action is a bid (0 = pass"
                f"{', 1, 2, 3' if points else ', 1 = call/rob'}), not {what}"
                f"{f' ({str(action)!r})' if isinstance(action, Play) else ''}")
        legal = self._legal if self._legal is not None else self._compute_legal()
        if value not in legal:
            if points and value in (1, 2, 3):
                raise IllegalActionError(f"a bid of {value} is not higher than the highest bid, {self._bid}")
            raise IllegalActionError(f"not a legal bid: {action!r} (legal: {legal})")
        return value

    def _double_arg(self, action: Any) -> bool:
        if isinstance(action, (bool, np.bool_)):
            return bool(action)
        if isinstance(action, (int, np.integer)) and action in (0, 1):
            return bool(action)
        if isinstance(action, str):
            value = _DOUBLE_WORDS.get(action.strip().lower())
            if value is not None:
                return value
        if isinstance(action, Play) and not action:
            return False
        if isinstance(action, Play) or (isinstance(action, str) and _is_play_notation(action, self._move_rules)):
            raise IllegalActionError(
                f"{str(action)!r} is a play, but the game is in the doubling phase: "
                f"True (double) or False (not)")
        raise IllegalActionError(
            f"in the doubling phase an action is True (double) or False (not), got {action!r}")

    # -- transitions (trusted arguments) --
    def _apply_bid(self, value: int) -> None:
        seat = self._current
        self._actions.append((seat, value))
        self._bids.append((seat, value))
        self._legal = None
        self._legal_ids = None
        if self.rules.bidding == "points":
            self._spoken += 1
            if value:
                self._bid, self._bidder = value, seat
            if value == 3 or self._spoken == SEATS:
                if self._bidder is None:
                    self._redeal()
                else:
                    self._set_landlord(self._bidder)
            else:
                self._current = (seat + 1) % SEATS
            return
        # rob variant (RULES.md §3)
        if self._final_rob:
            if value:
                self._robs += 1
                self._bidder = seat
            self._set_landlord(self._bidder)
            return
        self._spoken += 1
        if value:
            if self._caller is None:
                self._calls.append(len(self._actions) - 1)
                self._caller = self._bidder = seat
                self._bid = 1
            else:
                self._robs += 1
                self._bidder = seat
        if self._spoken < SEATS:
            self._current = (seat + 1) % SEATS
        elif self._caller is None:
            self._redeal()
        elif self._robs:
            self._final_rob = True
            self._current = self._caller
        else:
            self._set_landlord(self._bidder)

    def _set_landlord(self, seat: int) -> None:
        self.landlord = seat
        if self.rules.bidding == "rob":
            self._bid = 1
        deal = self._deals[-1]
        self._hands[seat] = _frozen(self._hands[seat] + np.array(deal.bottom, dtype=_U8))
        self._left[seat] += BOTTOM_SIZE
        if self.rules.bottom_bonus:
            self._bonus = bottom_bonus_factor(deal)
        if self.rules.doubling:
            self._phase = Phase.DOUBLING
            self._current = (seat + 1) % SEATS
        else:
            self._phase = Phase.PLAYING
            self._current = seat

    def _apply_double(self, value: bool) -> None:
        seat = self._current
        self._actions.append((seat, value))
        self._doubles[seat] = value
        self._ndoubles += value
        self._legal = None
        self._legal_ids = None
        lord = self.landlord
        if seat == (lord + 1) % SEATS:
            self._current = (lord + 2) % SEATS
        elif seat != lord and any(self._doubles):
            self._current = lord
        else:
            self._phase = Phase.PLAYING
            self._current = lord

    def _apply_play(self, seat: int, play: Play) -> None:
        self._actions.append((seat, play))
        self._history.append((seat, play))
        self._legal = None
        self._legal_ids = None
        t = play.type
        if t is _T_PASS:
            self._passes += 1
            if self._passes == 2:
                self._to_beat = None
                self._to_beat_seat = -1
            self._current = (seat + 1) % SEATS
            return
        hand = self._hands[seat] - _play_counts(play)
        hand.flags.writeable = False
        self._hands[seat] = hand
        left = self._left[seat] - play.num_cards
        self._left[seat] = left
        self._to_beat = play
        self._to_beat_seat = seat
        self._passes = 0
        self._nplays[seat] += 1
        if t is _T_BOMB:
            self._bombs += 1
        elif t is _T_ROCKET:
            self._rockets += 1
        if left:
            self._current = (seat + 1) % SEATS
        else:
            self._finish(seat)

    def _finish(self, seat: int) -> None:
        lord = self.landlord
        lord_wins = seat == lord
        farmers = tuple(s for s in range(SEATS) if s != lord)
        spring = lord_wins and not any(self._nplays[s] for s in farmers)
        anti = (not lord_wins) and self._nplays[lord] == 1
        doubles = self._ndoubles
        n = self._bombs + self._rockets + spring + anti + doubles + self._robs
        multiplier = self._bonus << n
        score = self._bid * multiplier
        sign = 1 if lord_wins else -1
        scores = [-sign * score] * SEATS
        scores[lord] = 2 * sign * score
        self.result = Result(
            landlord=lord, winner="landlord" if lord_wins else "farmers",
            winners=(lord,) if lord_wins else farmers, base=self._bid, bombs=self._bombs,
            rockets=self._rockets, spring=spring, anti_spring=anti, doubles=doubles,
            robs=self._robs, bottom_bonus=self._bonus, multiplier=multiplier, score=score,
            scores=tuple(scores))
        self._phase = Phase.OVER
        self._current = None

    # undo, for search (perft, bots, solvers): only the play phase
    def push(self, play: Play) -> None:
        """Play one of :meth:`legal_actions` (play phase) so that :meth:`pop` can undo it:
        the search API (perft, bots, solvers). The play must be a legal one, found in the
        position's legal moves (cached, so a search that lists them first pays nothing
        more); anything else is refused and the game is unchanged.

        :param play: a :class:`ddz.Play` of ``legal_actions()``.
        :raises IllegalActionError: not in the play phase, not a Play, or not legal here.
        """
        if self._phase is not Phase.PLAYING:
            raise IllegalActionError(f"push() plays in the play phase; the phase is {self._phase.value!r}")
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if not isinstance(play, Play) or not (any(map(_is, legal, repeat(play))) or play in legal):
            raise IllegalActionError(f"push() takes one of legal_actions(), not {play!r}")
        self._push(play)

    def _push(self, play: Play) -> None:
        """:meth:`push` for a play known to be legal (perft's inner loop)."""
        self._undo.append((self._to_beat, self._to_beat_seat, self._passes, self._current,
                           self._hands[self._current]))
        self._apply_play(self._current, play)

    def pop(self) -> Play:
        """Undo the last :meth:`push`; returns the play undone (:meth:`step` and
        :meth:`step_id` end the push history: only pushes are undone).

        :raises IllegalActionError: nothing pushed to undo.
        """
        if not self._undo:
            raise IllegalActionError("nothing to pop: pop() undoes plays made with push()")
        return self._pop()

    def _pop(self) -> Play:
        seat, play = self._history.pop()
        self._actions.pop()
        (self._to_beat, self._to_beat_seat, self._passes, self._current,
         self._hands[seat]) = self._undo.pop()
        self._legal = None
        self._legal_ids = None
        if play:
            self._left[seat] += play.num_cards
            self._nplays[seat] -= 1
            if play.type is _T_BOMB:
                self._bombs -= 1
            elif play.type is _T_ROCKET:
                self._rockets -= 1
        if self._phase is Phase.OVER:
            self._phase = Phase.PLAYING
            self.result = None
        return play

    # -- observations, copies --
    def observation(self, seat: Optional[int] = None) -> Observation:
        """What ``seat`` sees (RULES.md §5): its own hand and the public information.

        :param seat: 0..2; default :attr:`current_player`.
        :returns: an :class:`Observation` (a frozen snapshot).
        :raises DdzError: a seat not 0..2 (or no seat given once the hand is over).
        """
        if seat is None:
            if self._current is None:
                raise DdzError("the hand is over: give the seat to observe")
            seat = self._current
        else:
            seat = self._seat_arg(seat)
        return self._observation(seat)

    def _observation(self, seat: int) -> Observation:
        """:meth:`observation` for a trusted seat (the bots' loop)."""
        lord = self.landlord
        doubles = self._doubles
        ndoubles = self._ndoubles
        if lord is not None and (doubles[(lord + 1) % 3] is None or doubles[(lord + 2) % 3] is None):
            # RULES.md §4: the farmers' choices are revealed together, so until both have
            # chosen a seat sees only its own, in `doubles` and in the multiplier alike
            shown = [None, None, None]
            shown[seat] = doubles[seat]
            doubles = shown
            ndoubles = int(bool(shown[seat]))
        to_beat = self._to_beat
        # positional tuple.__new__: the NamedTuple's keyword constructor costs twice as much
        return _new_tuple(Observation, (
            seat, self._phase, self._current, self.rules, tuple(self._hands[seat].tolist()),
            lord, self._bid, tuple(self._bids), self._robs, tuple(doubles),
            None if lord is None else self._deals[-1].bottom, tuple(self._history),
            tuple(self._left), to_beat, None if to_beat is None else self._to_beat_seat,
            self._bonus << (self._robs + ndoubles + self._bombs + self._rockets)))

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo) -> "Game":
        return self.clone()

    def clone(self) -> "Game":
        """An independent copy (cheap: copies a few lists; cards and plays are immutable).

        The copy shares nothing mutable with the original and has the same seed
        generator state, so it redeals identically. It starts with no :meth:`push` history
        (a pickled copy keeps it).
        """
        g = Game.__new__(Game)
        d = self.__dict__.copy()
        d["_rng"] = random.Random()
        d["_rng"].setstate(self._rng.getstate())
        for name in ("_pending", "_deals", "_actions", "_calls", "_hands", "_bids", "_doubles",
                     "_history", "_nplays", "_left"):
            d[name] = list(d[name])
        d["_legal"] = None
        d["_legal_ids"] = None
        d["_undo"] = []
        g.__dict__ = d
        return g

    # -- records --
    def to_record(self) -> Dict[str, Any]:
        """The hand as a JSON-serializable record (format in ``docs/records.md``).

        :returns: ``{"format", "version", "rules", "seed", "dealt_from_seed",
            "first_bidder", "deals", "actions", "result"}``; ``result`` is ``None`` while
            the hand is not over.
        """
        actions = []
        calls = set(self._calls)
        for i, (seat, action) in enumerate(self._actions):
            if isinstance(action, Play):
                phase, text = "playing", str(action)
            elif isinstance(action, bool):
                phase, text = "doubling", ("double" if seat != self.landlord else "redouble") if action else "pass"
            else:
                phase = "bidding"
                if not action:
                    text = "pass"
                elif self.rules.bidding == "points":
                    text = str(action)
                else:
                    text = "call" if i in calls else "rob"
            actions.append({"seat": seat, "phase": phase, "action": text})
        r = self.rules
        return {
            "format": RECORD_FORMAT, "version": RECORD_VERSION,
            "rules": r.to_json(),
            "seed": self.seed, "dealt_from_seed": self._dealt_from_seed,
            "first_bidder": self.first_bidder,
            "deals": [d.to_json() for d in self._deals],
            "actions": actions,
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Game":
        """Replay a record (see ``docs/records.md``), checking every action.

        :param record: a dict as made by :meth:`to_record` (e.g. from ``json.load``).
        :returns: the :class:`Game` after the last recorded action.
        :raises RecordError: a malformed record, a deal that the seed does not deal, an
            action by the wrong seat or illegal (the message names the first bad action
            by index and seat), or a result that differs from the replayed one (a
            ``null`` or missing result is not checked: it is computed).
        """
        if not isinstance(record, Mapping):
            raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
        version = record.get("version")
        if (record.get("format") != RECORD_FORMAT or isinstance(version, bool)
                or not isinstance(version, int) or version not in _RULES_ADDED):
            raise RecordError(f"not a {RECORD_FORMAT} record of version 1..{RECORD_VERSION}: "
                              f"format {record.get('format')!r}, version {version!r}")
        missing = {"rules", "seed", "dealt_from_seed", "first_bidder", "deals", "actions"} - set(record)
        if missing:
            raise RecordError(f"the record lacks {sorted(missing)}")
        rules = _record_rules(record["rules"], version)
        deals = record["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("the record has no deals")
        try:
            parsed = [Deal.parse(d) for d in deals]
            seeded = record["dealt_from_seed"]
            if not isinstance(seeded, bool):
                raise RecordError(f"dealt_from_seed must be true or false, got {seeded!r}")
            if not is_integer(record["seed"]):
                raise RecordError(f"the record's seed must be an integer, got {record['seed']!r}")
            game = cls(rules, seed=record["seed"], deal=None if seeded else parsed[0],
                       first_bidder=record["first_bidder"])
        except RecordError:
            raise
        except DdzError as exc:
            raise RecordError(f"bad record header: {exc}") from None
        if not seeded:
            if rules.bottom_bonus:
                for k, d in enumerate(parsed[1:], start=1):
                    try:
                        _check_bonus_deal(d)
                    except DealError as exc:
                        raise RecordError(f"deal {k}: {exc}") from None
            game._pending = parsed[1:]
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("the record's actions must be a list")
        for i, entry in enumerate(actions):
            if not isinstance(entry, Mapping) or "seat" not in entry or "action" not in entry:
                raise RecordError(f"action {i}: not an object with 'seat' and 'action': {entry!r}")
            seat, action = entry["seat"], entry["action"]
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise RecordError(f"action {i}: 'seat' must be an int (0, 1 or 2), not "
                                  f"{type(seat).__name__}: {seat!r}")
            if game._phase is Phase.OVER:
                raise RecordError(f"action {i} (seat {seat}): {action!r} comes after the hand is over")
            if seat != game._current:
                raise RecordError(f"action {i}: recorded for seat {seat!r}, but seat {game._current} is to act")
            phase = entry.get("phase")
            if phase is not None and phase != game._phase.value:
                raise RecordError(f"action {i} (seat {seat}): recorded in phase {phase!r}, "
                                  f"but the game is {game._phase.value!r}")
            if isinstance(action, bool) or not isinstance(action, (str, int)):
                raise RecordError(f"action {i} (seat {seat}): 'action' must be action text such as "
                                  f"'pass', '3' or '333+4', not {type(action).__name__}: {action!r}")
            try:
                game.step(action)
            except DdzError as exc:
                raise RecordError(f"action {i} (seat {seat}, {game._phase.value}) {action!r} is illegal: {exc}") from None
        if len(game._deals) > len(parsed) or (seeded and [d.to_json() for d in game._deals] != deals[:len(game._deals)]):
            raise RecordError(f"the recorded deals differ from what seed {game.seed} deals")
        if len(game._deals) != len(parsed):
            raise RecordError(f"the record has {len(parsed)} deals but its actions use {len(game._deals)}")
        want = record.get("result")
        have = None if game.result is None else game.result.to_json()
        if want is not None and want != have:
            raise RecordError(f"the recorded result {want!r} differs from the replayed one {have!r}")
        return game


#: per record version, the Rules fields added after it: a record of that version lacks
#: them, and they take their defaults (version 2 added ``banned``)
_RULES_ADDED = {1: ("banned",), 2: ()}


def _record_rules(data: Any, version: int) -> Rules:
    """The ``rules`` of a record: an object with exactly every field of :class:`Rules`
    of the record's version (docs/records.md); a missing field is an error, not a
    default, so that a record always says which rules it was played by."""
    added = _RULES_ADDED[version]
    if isinstance(data, Mapping):
        late = sorted(k for k in added if k in data)
        if late:
            raise RecordError(f"the record's rules: a version {version} record has no field(s) {late} "
                              f"(added in a later version)")
    try:
        return Rules.from_json(data, defaults=added)
    except DdzError as exc:
        raise RecordError(f"the record's rules: {exc}") from None


def _action_space(rules: Rules):
    """The :class:`ddz.ActionSpace` of ``rules.move_rules``, kept on the rule set's table."""
    from .actions import ActionSpace  # written alongside; imported lazily
    derived = table(rules).derived
    space = derived.get("action_space")
    if space is None:
        space = derived["action_space"] = ActionSpace(rules.move_rules)
    return space
