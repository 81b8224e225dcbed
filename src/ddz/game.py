"""The whole game: deal, bid, double or play open, play, score (RULES.md §3–§7).

:class:`Game` is a state machine whose :attr:`Game.phase` goes
``bidding → (doubling) → playing → over`` with three players, and
``bidding → opening → playing → over`` with four (``Rules.four_player()``). At every
point one seat is to act (:attr:`Game.current_player`); :meth:`Game.legal_actions` lists
what it may do and :meth:`Game.step` does it. An illegal action raises a
:class:`ddz.DdzError` subclass and leaves the state unchanged.

Actions, by phase
-----------------
* ``bidding`` with ``Rules.bidding="points"`` (叫分): the ints ``0`` (pass), ``1``,
  ``2``, ``3``; the strings ``"pass"``, ``"1"``, ``"2"``, ``"3"`` are accepted too. The
  four-player forced bid (§7) takes the pass away from a hand of four jokers or three
  bombs while nobody has bid. ``Rules.bid_rounds`` says whether each player speaks once
  or bidding goes round (``ddz.auction``).
* ``bidding`` with ``Rules.bidding="rob"`` (叫地主/抢地主): ``0`` (pass) or ``1`` (call
  the landlord when nobody has, rob otherwise); also ``"pass"``, ``"call"``, ``"rob"``.
* ``doubling`` (``Rules.doubling=True``): ``False`` or ``True`` (double, or redouble for
  the landlord); also ``0``/``1``, ``"pass"``, ``"double"``, ``"redouble"``.
* ``opening`` (four players, §7): the landlord plays open (``True``, ``"open"``: its hand
  is shown to everyone, ×3) or not (``False``, ``"pass"``).
* ``playing``: a :class:`ddz.Play` or play notation (``"333+4"``, ``"pass"``), or
  :meth:`Game.step_id` with an id of :attr:`Game.action_space`. The play phase runs in
  the core (``ddz._game.PlayState``; ``ddz.playstate`` without it).

Dealing
-------
``Game(seed=S)`` deals as :mod:`ddz.deal` says: ``random.Random(S).shuffle`` of
``full_deck(rules.decks)`` (Python's Mersenne Twister and shuffle algorithm, re-implemented
bit for bit in the core, so the same seed gives the same deal on every platform and Python
version 3.9+), cut in seat order (17 cards each and 3 to the bottom; 25 each and 8 with
four players). Then the same generator chooses the first bidder (if ``first_bidder`` is
not given; drawn even when given, so that redeals do not depend on it): with
``Rules.first_bidder="random"`` ``randrange(seats)``; with ``"face_up"``
``k = randrange(seats * hand_size)`` turns the ``k % hand_size``-th card (in card order)
of seat ``k // hand_size`` face up, and that seat bids first (:attr:`Game.face_up`).
Without a seed a fresh one is drawn from the operating system and kept in
:attr:`Game.seed`, so every game can be replayed. A seed is an int >= 0: ``random.Random``
seeds with the absolute value, so a negative seed would deal the same cards as its
opposite while records keep them apart; :class:`ddz.DdzError` refuses it.

When all players pass the auction (RULES.md §3) the deal is void. With
``Rules.all_pass="redeal"`` (the default) the same generator shuffles the deck again, the
first bidder stays the same, and the new deal is recorded; after ``Rules.max_redeals``
redeals in a row, one more round of passes ends the hand void. With
``Rules.all_pass="void"`` the first round of passes ends it. A void hand is over with a
:class:`Result` whose ``void`` states the reason and whose scores are all 0, so a table
of players who always pass (or time out) still finishes.

A given ``deal`` is a hand per seat and the bottom cards, either all in suited notation
(``"3S 3H TD B"``, see :func:`ddz.cards.parse_suited`) or all in rank notation
(``"333T"``), or a :class:`Deal`. Rank notation has no suits, so the bottom-card bonus
cannot tell a flush: ``Rules(bottom_bonus=True)`` with an unsuited deal raises
:class:`ddz.DealError`.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _args, moves
from .cards import NUM_RANKS, RANK_CHARS, format_cards, is_integer
from .auction import _BID_WORDS, _ROB_WORDS, Rob, auction, must_bid  # noqa: F401 (must_bid: re-exported)
from .deal import Deal, bottom_bonus_factor, check_bonus_deal, shuffled_deal
from .errors import (ActionIdError, DdzError, DealError, IllegalActionError, InvalidPlayError, NotInHandError,
                     RecordError, quote)
from .play import PASS, Play, PlayType
from .playstate import copy_rng, new_rng, play_state
from .render import render as _render
from .rules import STANDARD, Rules
from .tables import table

if TYPE_CHECKING:
    import numpy.typing as npt

    from .actions import ActionSpace

__all__ = ["Game", "Phase", "Deal", "Result", "Observation", "Action", "LegalMoves",
           "SEATS", "HAND_SIZE", "BOTTOM_SIZE", "RECORD_FORMAT", "RECORD_VERSION",
           "bottom_bonus_factor"]

SEATS = 3          # the three-player game's sizes; Rules.seats, hand_size, bottom_size give each game's
HAND_SIZE = 17
BOTTOM_SIZE = 3
RECORD_FORMAT = "ddz-record"
RECORD_VERSION = 4

Counts = Tuple[int, ...]
Action = Union[Play, str, int, bool]

_T_PASS = PlayType.PASS


def _int_arg(value: Any, what: str) -> int:
    """``value`` as a Python int: ints and numpy integers only (not bools, floats or text).

    :raises DdzError: anything else.
    """
    if is_integer(value):
        return int(value)
    raise DdzError(f"{what} must be an int, not {type(value).__name__}: {value!r}")


_new_tuple = tuple.__new__


class Phase(str, enum.Enum):
    """The phases of a hand, in order (a ``str``, so ``game.phase == "playing"`` works)."""
    BIDDING = "bidding"
    DOUBLING = "doubling"
    OPENING = "opening"
    PLAYING = "playing"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


# enum members read through the class cost as much as a kernel call: read them once
_BIDDING, _DOUBLING, _OPENING, _PLAYING, _OVER = (Phase.BIDDING, Phase.DOUBLING, Phase.OPENING, Phase.PLAYING,
                                                   Phase.OVER)


# -- results and observations ------------------------------------------------------

@dataclass(frozen=True)
class Result:
    """The outcome of a finished hand (RULES.md §5, §6), or of a void one (§3).

    :ivar landlord: the landlord's seat (``None`` for a void hand).
    :ivar winner: ``"landlord"`` or ``"farmers"`` (``None`` for a void hand).
    :ivar winners: the winning seats (``()`` for a void hand).
    :ivar base: the base score (the winning bid; 1 with ``bidding="rob"``; 0 for a void
        hand).
    :ivar bombs: bombs played (each ×2). :ivar rockets: rockets played (each ×2).
    :ivar spring: 春天 (×2). :ivar anti_spring: 反春天 (×2).
    :ivar doubles: doubles and redoubles (each ×2). :ivar robs: robs (each ×2).
    :ivar bottom_bonus: the bottom-card factor (1 when the option is off).
    :ivar multiplier: the product of every factor above (and ×3 for open play).
    :ivar score: S = base × multiplier.
    :ivar scores: settlement per seat (zero-sum): the landlord ±2S, each farmer ∓S; in the
        four-player game the landlord ±3S (RULES.md §7).
    :ivar void: ``None`` for a hand that was played out; for a void hand (everybody
        passed the auction and ``Rules.all_pass`` or ``Rules.max_redeals`` ended it, RULES.md
        §3) the reason, a sentence. A void hand has no landlord, no winner, score 0 and
        scores all 0; test it with ``if result.void:``.
    :ivar open_play: the four-player landlord played open (亮牌, ×3, RULES.md §7).

    ``bombs`` and ``rockets`` count those that doubled the score under
    ``Rules.doubling_bombs`` (RULES.md §6): every one played with ``"all"``.
    """

    landlord: Optional[int]
    winner: Optional[str]
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
    scores: Tuple[int, ...]
    void: Optional[str] = None
    open_play: bool = False

    @classmethod
    def voided(cls, reason: str, seats: int = SEATS) -> "Result":
        """The result of a void hand (RULES.md §3): nobody wins, every score is 0.

        :param reason: why the hand is void (kept in :attr:`void`), a non-empty str.
        :param seats: players at the table (3 or 4).
        :raises DdzError: another reason or number of seats.
        """
        if not isinstance(reason, str) or not reason or not is_integer(seats) or seats not in (3, 4):
            raise DdzError(f"a void result needs a reason (a non-empty str) and 3 or 4 seats, got "
                           f"{quote(reason)} and {quote(seats)}")
        return cls(landlord=None, winner=None, winners=(), base=0, bombs=0, rockets=0,
                   spring=False, anti_spring=False, doubles=0, robs=0, bottom_bonus=1,
                   multiplier=1, score=0, scores=(0,) * int(seats), void=reason)

    @property
    def breakdown(self) -> Dict[str, int]:
        """Each factor of S = base × multiplier, e.g. ``{"bid": 3, "bombs": 4, ...}``:
        ``bid`` is the base, every other entry a factor (1 when it did not apply)."""
        return {"bid": self.base, "bombs": 2 ** self.bombs, "rocket": 2 ** self.rockets,
                "spring": 2 if self.spring else 1, "anti_spring": 2 if self.anti_spring else 1,
                "doubles": 2 ** self.doubles, "robs": 2 ** self.robs,
                "bottom_bonus": self.bottom_bonus, "open_play": 3 if self.open_play else 1}

    def to_json(self) -> Dict[str, Any]:
        """A JSON-serializable dict of every field (``void``: ``null`` or the reason)."""
        return {"landlord": self.landlord, "winner": self.winner, "winners": list(self.winners),
                "base": self.base, "bombs": self.bombs, "rockets": self.rockets,
                "spring": self.spring, "anti_spring": self.anti_spring, "doubles": self.doubles,
                "robs": self.robs, "bottom_bonus": self.bottom_bonus,
                "multiplier": self.multiplier, "score": self.score, "scores": list(self.scores),
                "void": self.void, "open_play": self.open_play}


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
    :ivar bottom: the bottom cards (15 counts) once revealed, else ``None`` (in the
        four-player game they are shown to the landlord only, RULES.md §7).
    :ivar plays: every play so far (passes included), ``(seat, Play)``, in order.
    :ivar cards_left: cards left per seat.
    :ivar to_beat: the play to beat (``None`` when leading or outside the play phase).
    :ivar to_beat_seat: who made it (``None`` likewise).
    :ivar multiplier: the multiplier so far (robs, doubles, bottom bonus, open play, bombs,
        rockets; spring and anti-spring are only known at the end).
    :ivar open_hand: the landlord's cards when it plays open (亮牌, RULES.md §7: visible
        to everyone), else ``None``.
    :ivar face_up: with ``Rules.first_bidder="face_up"`` the card turned face up during the
        deal, ``(seat that received it, card)`` (the card as text: ``"7H"``, or ``"7"`` for a
        deal in rank notation), public; else ``None``.

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
    cards_left: Tuple[int, ...]
    to_beat: Optional[Play]
    to_beat_seat: Optional[int]
    multiplier: int
    open_hand: Optional[Counts] = None
    face_up: Optional[Tuple[int, str]] = None

    @property
    def hand_str(self) -> str:
        """The own hand in canonical notation."""
        return format_cards(self.hand)

    @property
    def is_landlord(self) -> bool:
        """``True`` when the observing seat is the landlord."""
        return self.landlord == self.seat

    @property
    def partners(self) -> Tuple[int, ...]:
        """The other farmers' seats (``()`` for the landlord or before it is known)."""
        lord = self.landlord
        if lord is None or lord == self.seat:
            return ()
        return tuple(s for s in range(len(self.cards_left)) if s != lord and s != self.seat)

    @property
    def partner(self) -> Optional[int]:
        """The other farmer's seat in the three-player game (``None`` for the landlord,
        before it is known, and with four players: see :attr:`partners`)."""
        partners = self.partners
        return partners[0] if len(partners) == 1 else None


# -- the game ----------------------------------------------------------------------

_DOUBLE_WORDS = {"pass": False, "p": False, "no": False, "0": False, "false": False,
                 "double": True, "redouble": True, "yes": True, "1": True, "true": True,
                 "加倍": True, "不加倍": False}
_OPEN_WORDS = {"pass": False, "p": False, "no": False, "0": False, "false": False, "不亮": False,
               "open": True, "yes": True, "1": True, "true": True, "亮牌": True}


def _nth_card(deal: Deal, seat: int, k: int) -> str:
    """The ``k``-th card (0-based, in card order) of ``seat``'s hand in ``deal``, as text."""
    if deal.cards is not None:
        return str(deal.cards[seat][k])
    ranks = [r for r, c in enumerate(deal.hands[seat]) for _ in range(c)]
    return RANK_CHARS[ranks[k]]


def _face_up_arg(face_up: Any, deal: Deal, seats: int) -> Tuple[int, str]:
    """``Game(face_up=...)``: a ``(seat, card)`` pair whose card is in that seat's hand."""
    if not (isinstance(face_up, (tuple, list)) and len(face_up) == 2 and isinstance(face_up[1], str)):
        raise DdzError(f"face_up must be a (seat, card) pair such as (0, '7'), got {face_up!r}")
    seat = _int_arg(face_up[0], f"the face-up card's seat (0..{seats - 1})")
    if not 0 <= seat < seats:
        raise DdzError(f"the face-up card's seat must be 0..{seats - 1}, got {seat!r}")
    card = face_up[1]
    if deal.cards is not None:
        held = any(str(c) == card for c in deal.cards[seat])
    else:
        held = len(card) == 1 and card in RANK_CHARS and deal.hands[seat][RANK_CHARS.index(card)] > 0
    if not held:
        raise DdzError(f"the face-up card {card!r} is not in seat {seat}'s dealt hand "
                       f"({'suited cards such as 7H' if deal.cards is not None else 'one rank character'})")
    return seat, card


def _is_play_notation(text: str, rules: Rules) -> bool:
    """Whether ``text`` reads as a play (for messages about actions out of their phase)."""
    try:
        Play.parse(text, rules)
    except DdzError:
        return False
    return True


class Game:
    """One hand of Dou Dizhu (RULES.md §3–§6), three players or four (§7, with
    ``Rules.four_player()``).

    :param rules: the :class:`ddz.Rules` (players, kickers, bidding, doubling, bottom bonus...).
    :param seed: an ``int`` >= 0 seeding ``random.Random`` for the deal, redeals and the
        first bidder; ``None`` draws one from the operating system (kept in :attr:`seed`).
    :param deal: a deal to use instead of shuffling (see :meth:`Deal.parse`).
    :param first_bidder: the seat (0 .. seats - 1) to speak first; drawn from the generator
        if ``None``.
    :param face_up: with ``Rules.first_bidder="face_up"``, the card turned face up as
        ``(seat, card)``: a card of that seat's dealt hand (its text as in
        :attr:`face_up`: ``"7"`` in a deal of ranks, ``"7H"`` in a suited one); that seat
        bids first (RULES.md §3; to replay another engine's deal, e.g. OpenSpiel's).
        ``None`` (default) draws it from the generator.
    :raises DdzError: ``rules`` is not a :class:`ddz.Rules`, ``seed`` is not an int or is
        negative (``random.Random`` would deal the same cards as its opposite),
        ``first_bidder`` is not a seat (ints and numpy integers are accepted; bools and
        floats are not), ``face_up`` is given with ``first_bidder`` or under rules that
        turn no card, or is not a card of that seat's hand.
    :raises DealError: a bad ``deal``, or an unsuited deal with ``bottom_bonus``.

    Attributes (read-only): :attr:`phase`, :attr:`current_player`, :attr:`landlord`,
    :attr:`result` (``None`` until the hand is over), :attr:`deal`, :attr:`deals` (every
    deal of this hand, redeals included), :attr:`actions` (``(seat, action)`` in order).
    """

    def __init__(self, rules: Rules = STANDARD, seed: Optional[int] = None,
                 deal: Any = None, first_bidder: Optional[int] = None,
                 face_up: Optional[Tuple[int, str]] = None) -> None:
        rules = _args.rules_arg(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        else:
            seed = _int_arg(seed, "seed (or None)")
            if seed < 0:
                raise DdzError(f"a seed is an int >= 0, got {seed!r} (random.Random would deal "
                               f"the same cards for {seed!r} and {-seed!r})")
        seats = rules.seats
        if first_bidder is not None:
            first_bidder = _int_arg(first_bidder, f"first_bidder (0..{seats - 1} or None)")
            if not 0 <= first_bidder < seats:
                raise DdzError(f"first_bidder must be a seat 0..{seats - 1} or None, got {first_bidder!r}")
        self.rules = rules
        self.seats = seats
        self._move_rules = rules.move_rules
        self.seed = seed
        self._rng = new_rng(seed)
        self._dealt_from_seed = deal is None
        self._pending: List[Deal] = []
        if deal is None:
            first = self._shuffle()
        else:
            first = Deal.parse(deal, rules)
        if rules.bottom_bonus:
            check_bonus_deal(first)
        # always drawn, so that redeals do not depend on a first_bidder given or not
        self.face_up: Optional[Tuple[int, str]] = None
        if rules.first_bidder == "face_up":
            k = self._rng.randrange(seats * rules.hand_size)
            drawn = k // rules.hand_size
            if face_up is not None:
                if first_bidder is not None:
                    raise DdzError("give first_bidder or face_up, not both (the face-up card decides who bids first)")
                self.face_up = _face_up_arg(face_up, first, seats)
                drawn = self.face_up[0]
            elif first_bidder is None:
                self.face_up = (drawn, _nth_card(first, drawn, k % rules.hand_size))
        else:
            if face_up is not None:
                raise DdzError(f"face_up={face_up!r}: only Rules(first_bidder='face_up') turns a card face up, "
                               f"not first_bidder={rules.first_bidder!r}")
            drawn = self._rng.randrange(seats)
        self.first_bidder = drawn if first_bidder is None else first_bidder
        self._deals: List[Deal] = []
        self._actions: List[Tuple[int, Any]] = []
        self._calls: List[int] = []  # indices into _actions of rob-variant calls (vs robs)
        self._npushed = 0            # plays made with push() since the last step: pop() undoes them
        self._space = None
        self._table = table(self._move_rules)
        self._start_deal(first)

    # -- set-up --
    def _shuffle(self) -> Deal:
        return shuffled_deal(self._rng, self.rules)

    def _start_deal(self, deal: Deal) -> None:
        self._deals.append(deal)
        self._hands: List[Counts] = list(deal.hands)   # until the play phase; then the play state holds them
        self._left = [self.rules.hand_size] * self.seats
        self._phase = _BIDDING
        self._current: Optional[int] = self.first_bidder
        self._auction = auction(self.rules, self.first_bidder)   # RULES.md §3: ddz.auction
        self.landlord: Optional[int] = None
        self._doubles: List[Optional[bool]] = [None] * self.seats
        self._ndoubles = 0
        self._bonus = 1
        self._open: Optional[bool] = None    # four players: the landlord's open-play choice
        self._ps: Any = None          # the play phase (ddz._game.PlayState), from its start
        self._plays: List[Tuple[int, Play]] = []   # cache of `plays` (pop() truncates it)
        self.result: Optional[Result] = None
        self._legal: Optional[list] = None

    def _redeal(self) -> None:
        # shuffled deals have suits; recorded ones were checked by from_record
        deal = self._pending.pop(0) if self._pending else self._shuffle()
        self._start_deal(deal)

    def _all_passed(self) -> None:
        """Everybody passed the auction (RULES.md §3): redeal, or end the hand void
        (``Rules.all_pass``, ``Rules.max_redeals``)."""
        rules = self.rules
        if rules.all_pass == "void":
            self._void("everybody passed the auction (Rules.all_pass='void')")
        elif len(self._deals) > rules.max_redeals:
            self._void(f"everybody passed the auction of {len(self._deals)} deals in a row "
                       f"(Rules.max_redeals={rules.max_redeals})")
        else:
            self._redeal()

    def _void(self, reason: str) -> None:
        """End the hand void: no landlord, no winner, every score 0."""
        self.result = Result.voided(reason, self.seats)
        self._phase = _OVER
        self._current = None
        self._legal = None

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
        return tuple(self._actions) + self.plays

    @property
    def plays(self) -> Tuple[Tuple[int, Play], ...]:
        """Every play of the play phase so far, passes included, as ``(seat, Play)``."""
        ps = self._ps
        if ps is None:
            return ()
        cache = self._plays   # (seat, Play) of the play state's history, extended as it grows
        n = len(ps)
        if len(cache) < n:
            plays = self._table.plays
            cache.extend([(seat, plays[i]) for seat, i in ps.history(len(cache))])
        return tuple(cache)

    @property
    def bid(self) -> int:
        """The highest bid so far (with ``bidding="rob"``: 1 once someone called)."""
        return self._auction.bid

    @property
    def to_beat(self) -> Optional[Play]:
        """The play to beat, or ``None`` when the player to act leads (or not playing).
        Once the hand is over: the last play."""
        ps = self._ps
        if ps is None:
            return None
        b = ps.to_beat
        return self._table.plays[b] if b else None

    @property
    def to_beat_seat(self) -> Optional[int]:
        """The seat that made :attr:`to_beat`, or ``None``."""
        ps = self._ps
        if ps is None or not ps.to_beat:
            return None
        return ps.to_beat_seat

    def hand(self, seat: int) -> Counts:
        """The cards of ``seat`` (15 counts). :raises DdzError: not a seat (0 .. seats - 1)."""
        seat = self._seat_arg(seat)
        ps = self._ps
        if ps is not None:
            return ps.hand(seat)
        return self._hands[seat]

    @property
    def cards_left(self) -> Tuple[int, ...]:
        """Cards left per seat (RULES.md §5: public), a tuple of ints."""
        ps = self._ps
        if ps is not None:
            return ps.cards_left
        return tuple(self._left)

    @property
    def legal_moves(self) -> "LegalMoves":
        """A live view of the legal moves of :attr:`current_player` (python-chess style):
        ``len()``/``count()``, ``bool()``, ``play in view`` (a fit check and one
        comparison, nothing listed), iteration and indexing in the order of
        :meth:`legal_actions`. It always shows the game's current position."""
        return LegalMoves(self)

    @property
    def multiplier(self) -> int:
        """The multiplier so far (RULES.md §6): robs, doubles, bottom bonus, bombs and
        rockets played; spring and anti-spring count once the hand is over.

        This is the referee's view: it counts a farmer's double before the other farmer
        has chosen. What a player may see is :meth:`observation` ``.multiplier``."""
        if self.result is not None:
            return self.result.multiplier
        ps = self._ps
        played = 0 if ps is None else ps.bombs + ps.rockets
        return self._factor() << (self._auction.robs + self._ndoubles + played)

    def _factor(self) -> int:
        """The factors that are not powers of 2: the bottom bonus and open play (×3)."""
        return self._bonus * 3 if self._open else self._bonus

    def _seat_arg(self, seat: Any) -> int:
        if not is_integer(seat) or not 0 <= seat < self.seats:
            raise DdzError(f"a seat is 0..{self.seats - 1}, got {seat!r}")
        return int(seat)

    def __repr__(self) -> str:
        return (f"<ddz.Game seed={self.seed} phase={self._phase.value} "
                f"current_player={self._current} landlord={self.landlord}>")

    def __str__(self) -> str:
        """The table as text, every hand shown: :meth:`render` with no seat."""
        return _render(self)

    def render(self, seat: Optional[int] = None) -> str:
        """The table as plain text (like python-chess's ``str(board)``): the seed, the
        phase and who is to act; the bid, multiplier and bottom cards; a row per seat with
        its role, cards left, hand grouped by rank and what it said or played in the
        current trick; the play to beat; the result once the hand is over. Every phase of
        the three- and four-player game is drawn (auction, doubling, open play, play,
        over, void). ``str(game)`` is ``game.render()``. Layout: :mod:`ddz.render`.

        :param seat: ``None`` (default): the referee's view, every hand shown. A seat
            (0 .. seats - 1): what that seat may see (RULES.md §5, :meth:`observation`):
            its own hand, the landlord's when it plays open (§7), the bottom cards once
            shown to it, the multiplier it may know; the other hands read ``hidden``
            until the hand is over.
        :returns: a ``str`` of several lines, no trailing newline.
        :raises DdzError: ``seat`` is not a seat.
        """
        return _render(self, seat)

    def _repr_html_(self) -> str:
        """The table in a notebook (Jupyter): every hand drawn with the SVG cards of
        ``ddz serve``, the bottom, the bid, the multiplier and the result
        (:func:`ddz.web.cards.game_html`; imported here, so ``import ddz`` stays light)."""
        from .web.cards import game_html
        return game_html(self)

    # -- legal actions --
    def legal_actions(self) -> List[Action]:
        """The legal actions of :attr:`current_player` (RULES.md §3–§5), in a fixed order.

        :returns: a new list: bids ``[0, b+1, ..., 3]`` (``0`` is the pass) or ``[0, 1]``
            (rob variant: pass, call/rob); ``[False, True]`` when doubling; when playing,
            :class:`ddz.Play` values in the move order of :func:`ddz.legal_moves` (the
            pass first when responding); ``[]`` when the hand is over.
        """
        if self._phase is _PLAYING:
            return self._ps.legal_plays()
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list:
        phase = self._phase
        if phase is _PLAYING:
            return self._ps.legal_plays()
        if phase is _BIDDING:
            legal = self._auction.legal(self._hands[self._current])
        elif phase is _DOUBLING or phase is _OPENING:
            legal = [False, True]
        else:
            legal = []
        self._legal = legal
        return legal

    def legal_action_ids(self) -> npt.NDArray[np.int32]:
        """The legal plays as action ids of ``ddz.actions.ActionSpace(rules)`` (play phase).

        Ids are those of :attr:`action_space` (id 0 is the pass), ascending, which is the
        order of :meth:`legal_actions`; :meth:`step_id` plays one, and ``space.play(i)``
        turns an id back into the :class:`ddz.Play`. One kernel call on the play state.

        :returns: a new numpy ``int32`` array.
        :raises IllegalActionError: not in the play phase (bids and doubles have no ids).
        """
        if self._phase is _PLAYING:
            return self._ps.legal_ids()
        raise IllegalActionError(f"action ids exist only in the play phase; the phase is {self._phase.value!r}")

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
        ps = self._ps
        if ps is not None and type(action_id) is int:
            # the hot path of RL loops: one call into the play state, which refuses
            # anything illegal (and every id once the hand is over) without changing
            try:
                seat = ps.advance(action_id)
            except OverflowError:
                seat = -2
            if seat >= 0:
                self._current = seat
                self._npushed = 0
                return
            if seat == -1:            # the play ended the hand
                self._after_play(ps)
                return
        if self._phase is not _PLAYING:
            raise IllegalActionError(f"action ids exist only in the play phase; the phase is {self._phase.value!r}")
        if not is_integer(action_id) or isinstance(action_id, enum.Enum):
            raise ActionIdError(f"an action id is an int, not {type(action_id).__name__}: {action_id!r}")
        action_id = int(action_id)
        if 0 <= action_id < len(self._table.plays) and ps.step(action_id):
            self._after_play(ps)
            return
        play = self.action_space.play(action_id)   # raises ActionIdError out of range
        self.step(play)                               # raises, naming why it is illegal
        raise AssertionError("unreachable: step() accepted an id that the play state refused")  # pragma: no cover

    def _after_play(self, ps: Any) -> None:
        """Bookkeeping after the play state took a step (any step ends the push history)."""
        self._npushed = 0
        self._moved(ps)

    def _moved(self, ps: Any) -> None:
        """The play state moved on: the next seat acts, or the hand is over."""
        c = ps.current
        if c >= 0:
            self._current = c
        else:
            self._finish(ps.winner)

    @property
    def action_space(self) -> ActionSpace:
        """The ``ddz.actions.ActionSpace`` of the game's move rules (shared, immutable)."""
        space = self._space
        if space is None:
            space = self._space = _action_space(self._move_rules)
        return space

    def position(self) -> Any:
        """The play-phase position as a :class:`ddz.Position` (perfect information: every
        hand), for :func:`ddz.solve`. :raises DdzError: not in the play phase."""
        from .position import Position
        return Position.from_game(self)

    def timeout_action(self) -> Action:
        """What :attr:`current_player` does on a timeout (RULES.md §5): pass when bidding
        (bid 1 when the four-player forced bid forbids the pass), not double, not play
        open, pass when responding, and when leading its lowest single card.

        :returns: the action (pass it to :meth:`step`).
        :raises IllegalActionError: the hand is over.
        """
        phase = self._phase
        if phase is _BIDDING:
            return self._compute_legal()[0]     # the pass, or the lowest bid when it is forced
        if phase is _DOUBLING or phase is _OPENING:
            return False
        if phase is _PLAYING:
            ps = self._ps
            if ps.to_beat:
                return PASS
            hand = ps.hand(ps.current)
            low = next(r for r in range(NUM_RANKS) if hand[r])
            return self._table.plays[self._table.index_of_play[Play(PlayType.SINGLE, low, 1)]]
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
        if phase is _PLAYING:
            ps = self._ps
            pid = self._table.index_of_play.get(action) if isinstance(action, Play) else None
            if pid is None or not ps.step(pid):
                pid = self._play_arg(action)
                ps.step(pid)
            self._after_play(ps)
            return
        if phase is _BIDDING:
            self._apply_bid(self._bid_arg(action))
        elif phase is _DOUBLING:
            self._apply_double(self._double_arg(action))
        elif phase is _OPENING:
            self._apply_open(self._open_arg(action))
        else:
            raise IllegalActionError(f"the hand is over; no action is legal (got {action!r})")
        self._npushed = 0

    def _play_arg(self, action: Any) -> int:
        """The id of a legal play given as a :class:`ddz.Play` or notation; raises, naming
        why, for anything else (the state is not touched)."""
        if isinstance(action, Play):
            play = action
        elif isinstance(action, str):
            try:
                play = Play.parse(action, self._move_rules)
            except InvalidPlayError as exc:
                if "is not a play under" not in str(exc):
                    raise
                raise InvalidPlayError(
                    f"{action!r} is not a play under {self._move_rules!r}") from None
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
        ps = self._ps
        pid = self._table.index_of_play.get(play)
        if pid is not None and ps.legal(pid):
            return pid
        seat = self._current
        hand = ps.hand(seat)
        if play.type is _T_PASS:
            raise IllegalActionError(f"seat {seat} leads and cannot pass")
        if play.type in self.rules.excluded:
            raise InvalidPlayError(f"{str(play)!r} is a play of the banned type {play.type.name} under {self.rules!r}")
        if pid is None or play not in moves.readings(play.counts, self._move_rules):
            raise InvalidPlayError(f"{str(play)!r} is not a play under {self.rules!r}")
        if any(c > h for c, h in zip(play.counts, hand)):
            raise NotInHandError(f"seat {seat} does not hold {str(play)!r}; its hand is {format_cards(hand)!r}")
        raise IllegalActionError(f"{str(play)!r} does not beat {str(self.to_beat)!r} "
                                 f"(played by seat {ps.to_beat_seat})")

    def _bid_arg(self, action: Any) -> int:
        points = not isinstance(self._auction, Rob)
        words = self._auction.words
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
                raise IllegalActionError(f"a bid of {value} is not higher than the highest bid, {self._auction.bid}")
            if points and value == 0 and legal and legal[0] == 1:
                raise IllegalActionError(f"seat {self._current} must bid: it holds all four jokers or three "
                                         "bombs and nobody has bid yet (RULES.md §7)")
            raise IllegalActionError(f"not a legal bid: {action!r} (legal: {legal})")
        return value

    def _double_arg(self, action: Any, words: Mapping[str, bool] = _DOUBLE_WORDS,
                    what: str = "the doubling phase", yes: str = "double") -> bool:
        if isinstance(action, (bool, np.bool_)):
            return bool(action)
        if isinstance(action, (int, np.integer)) and action in (0, 1):
            return bool(action)
        if isinstance(action, str):
            value = words.get(action.strip().lower())
            if value is not None:
                return value
        if isinstance(action, Play) and not action:
            return False
        if isinstance(action, Play) or (isinstance(action, str) and _is_play_notation(action, self._move_rules)):
            raise IllegalActionError(
                f"{str(action)!r} is a play, but the game is in {what}: "
                f"True ({yes}) or False (not)")
        raise IllegalActionError(
            f"in {what} an action is True ({yes}) or False (not), got {action!r}")

    def _open_arg(self, action: Any) -> bool:
        return self._double_arg(action, _OPEN_WORDS, "the opening phase (the landlord may play open, ×3)",
                                "play open")

    # -- transitions (trusted arguments) --
    def _apply_bid(self, value: int) -> None:
        self._actions.append((self._current, value))
        self._legal = None
        a = self._auction
        if a.step(value):
            self._calls.append(len(self._actions) - 1)
        if a.landlord is not None:
            self._set_landlord(a.landlord)
        elif a.all_passed:
            self._all_passed()
        else:
            self._current = a.current

    def _set_landlord(self, seat: int) -> None:
        self.landlord = seat
        deal = self._deals[-1]
        self._hands[seat] = tuple([h + b for h, b in zip(self._hands[seat], deal.bottom)])
        self._left[seat] += self.rules.bottom_size
        if self.rules.bottom_bonus:
            self._bonus = bottom_bonus_factor(deal)
        if self.rules.doubling:
            self._phase = _DOUBLING
            self._current = (seat + 1) % self.seats
        elif self.rules.players == 4:
            self._phase = _OPENING          # RULES.md §7: the landlord may play open first
            self._current = seat
        else:
            self._start_play()

    def _start_play(self) -> None:
        """The play phase begins: the landlord leads (RULES.md §5)."""
        self._phase = _PLAYING
        self._current = self.landlord
        self._ps = play_state(self._table, self._hands, self.landlord, doubling_bombs=self.rules.doubling_bombs)

    def _apply_open(self, value: bool) -> None:
        """The four-player landlord plays open (亮牌, ×3) or not (RULES.md §7)."""
        self._actions.append((self._current, value))
        self._open = value
        self._legal = None
        self._start_play()

    def _apply_double(self, value: bool) -> None:
        seat = self._current
        self._actions.append((seat, value))
        self._doubles[seat] = value
        self._ndoubles += value
        self._legal = None
        lord = self.landlord
        if seat == (lord + 1) % self.seats:
            self._current = (lord + 2) % self.seats
        elif seat != lord and any(self._doubles):
            self._current = lord
        else:
            self._start_play()

    def _finish(self, seat: int) -> None:
        """``seat`` played its last card: score the hand (RULES.md §6)."""
        ps = self._ps
        lord = self.landlord
        lord_wins = seat == lord
        farmers = tuple(s for s in range(self.seats) if s != lord)
        nplays = ps.plays_made
        spring = lord_wins and not any(nplays[s] for s in farmers)
        anti = (not lord_wins) and nplays[lord] == 1
        doubles = self._ndoubles
        bombs, rockets = ps.bombs, ps.rockets
        robs = self._auction.robs
        n = bombs + rockets + spring + anti + doubles + robs
        multiplier = self._factor() << n
        score = self._auction.bid * multiplier
        sign = 1 if lord_wins else -1
        scores = [-sign * score] * self.seats
        scores[lord] = len(farmers) * sign * score      # ±2S, or ±3S with four players
        self.result = Result(
            landlord=lord, winner="landlord" if lord_wins else "farmers",
            winners=(lord,) if lord_wins else farmers, base=self._auction.bid, bombs=bombs,
            rockets=rockets, spring=spring, anti_spring=anti, doubles=doubles,
            robs=robs, bottom_bonus=self._bonus, multiplier=multiplier, score=score,
            scores=tuple(scores), open_play=bool(self._open))
        self._phase = _OVER
        self._current = None

    # undo, for search (perft, bots, solvers): only the play phase
    def push(self, play: Play) -> None:
        """Play one of :meth:`legal_actions` (play phase) so that :meth:`pop` can undo it:
        the search API (perft, bots, solvers). Legality is a fit check and one comparison
        in the play state; anything else is refused and the game is unchanged.

        :param play: a :class:`ddz.Play` legal here.
        :raises IllegalActionError: not in the play phase, not a Play, or not legal here.
        """
        if self._phase is not _PLAYING:
            raise IllegalActionError(f"push() plays in the play phase; the phase is {self._phase.value!r}")
        pid = self._table.index_of_play.get(play) if isinstance(play, Play) else None
        ps = self._ps
        if pid is None or not ps.step(pid):
            raise IllegalActionError(f"push() takes one of legal_actions(), not {play!r}")
        self._npushed += 1
        self._moved(ps)

    def pop(self) -> Play:
        """Undo the last :meth:`push`; returns the play undone (:meth:`step` and
        :meth:`step_id` end the push history: only pushes are undone).

        :raises IllegalActionError: nothing pushed to undo.
        """
        if not self._npushed:
            raise IllegalActionError("nothing to pop: pop() undoes plays made with push()")
        self._npushed -= 1
        ps = self._ps
        pid = ps.pop()
        del self._plays[len(ps):]
        self._current = ps.current
        if self._phase is _OVER:
            self._phase = _PLAYING
            self.result = None
        return self._table.plays[pid]

    # -- observations, copies --
    def observation(self, seat: Optional[int] = None) -> Observation:
        """What ``seat`` sees (RULES.md §5): its own hand and the public information.

        :param seat: 0 .. seats - 1; default :attr:`current_player`.
        :returns: an :class:`Observation` (a frozen snapshot).
        :raises DdzError: not a seat (or no seat given once the hand is over).
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
        if self._phase is _DOUBLING and (doubles[(lord + 1) % 3] is None or doubles[(lord + 2) % 3] is None):
            # RULES.md §4: the farmers' choices are revealed together, so until both have
            # chosen a seat sees only its own, in `doubles` and in the multiplier alike
            shown = [None] * self.seats
            shown[seat] = doubles[seat]
            doubles = shown
            ndoubles = int(bool(shown[seat]))
        ps = self._ps
        if ps is None:
            hand, left, plays, to_beat, beat_seat, played = (
                self._hands[seat], tuple(self._left), (), None, None, 0)
        else:
            hand, left, plays, played = ps.hand(seat), ps.cards_left, self.plays, ps.bombs + ps.rockets
            b = ps.to_beat
            to_beat, beat_seat = (self._table.plays[b], ps.to_beat_seat) if b else (None, None)
        # RULES.md §7: the four-player bottom is shown to the landlord only
        bottom = None if lord is None or (self.seats == 4 and seat != lord) else self._deals[-1].bottom
        open_hand = None
        if self._open:
            open_hand = self._hands[lord] if ps is None else ps.hand(lord)
        # positional tuple.__new__: the NamedTuple's keyword constructor costs twice as much
        return _new_tuple(Observation, (
            seat, self._phase, self._current, self.rules, hand,
            lord, self._auction.bid, tuple(self._auction.bids), self._auction.robs, tuple(doubles),
            bottom, plays, left, to_beat, beat_seat,
            self._factor() << (self._auction.robs + ndoubles + played), open_hand, self.face_up))

    def __getstate__(self) -> Dict[str, Any]:
        # the shared table and action space are looked up again, not pickled
        d = self.__dict__.copy()
        d["_table"] = None
        d["_space"] = None
        return d

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._table = table(self._move_rules)

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
        d["_rng"] = copy_rng(self._rng)
        for name in ("_pending", "_deals", "_actions", "_calls", "_hands", "_doubles", "_left", "_plays"):
            d[name] = list(d[name])
        d["_auction"] = copy.deepcopy(self._auction)
        d["_legal"] = None
        d["_npushed"] = 0
        if self._ps is not None:
            d["_ps"] = self._ps.copy()
        g.__dict__ = d
        return g

    # -- records --
    def to_record(self) -> Dict[str, Any]:
        """The hand as a JSON-serializable record (format in ``docs/records.md``).

        :returns: ``{"format", "version", "rules", "seed", "dealt_from_seed",
            "first_bidder", "face_up", "deals", "actions", "result"}``; ``face_up`` is
            ``{"seat", "card"}`` with ``Rules.first_bidder="face_up"`` (else ``None``);
            ``result`` is ``None`` while the hand is not over.
        """
        actions = []
        calls = set(self._calls)
        for i, (seat, action) in enumerate(self.actions):
            if isinstance(action, Play):
                phase, text = "playing", str(action)
            elif isinstance(action, bool) and self.seats == 4:   # no doubling with four: open play
                phase, text = "opening", "open" if action else "pass"
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
            "face_up": None if self.face_up is None else {"seat": self.face_up[0], "card": self.face_up[1]},
            "deals": [d.to_json() for d in self._deals],
            "actions": actions,
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Game":
        """Replay a record (see ``docs/records.md``), checking every action.

        :param record: a dict as made by :meth:`to_record` (e.g. from ``json.load``).
        :returns: the :class:`Game` after the last recorded action.
        :raises RecordError: a malformed record, a field its version does not have (at
            any level: docs/records.md has one rule for unknown fields), more deals than
            the rules allow in a hand (said before any deal is parsed), a deal that the
            seed does not deal, an action by the wrong seat or illegal (the message names
            the first bad action by index and seat), or a result that differs from the
            replayed one (a ``null`` or missing result is not checked: it is computed).
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
        _known_fields(record, _RECORD_FIELDS, "a record")
        if "meta" in record and not isinstance(record["meta"], dict):
            raise RecordError(f"a record's meta is a JSON object of a tool's notes, not {quote(record['meta'])}")
        rules = _record_rules(record["rules"], version)
        deals = record["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("the record has no deals")
        most = rules.max_redeals + 1 if rules.all_pass == "redeal" else 1
        if len(deals) > most:     # refused before any deal is parsed: copies cost nothing to write
            raise RecordError(f"the record has {len(deals)} deals; its rules allow at most {most} in a hand "
                              f"(all_pass={rules.all_pass!r}, max_redeals={rules.max_redeals}, RULES.md §3)")
        try:
            parsed = [Deal.parse(d, rules) for d in deals]
            seeded = record["dealt_from_seed"]
            if not isinstance(seeded, bool):
                raise RecordError(f"dealt_from_seed must be true or false, got {seeded!r}")
            if not is_integer(record["seed"]):
                raise RecordError(f"the record's seed must be an integer, got {record['seed']!r}")
            fb = record["first_bidder"]     # always written as the seat that spoke first
            if isinstance(fb, bool) or not isinstance(fb, int) or not 0 <= fb < rules.seats:
                raise RecordError(f"the record's first_bidder must be a seat 0..{rules.seats - 1}, got {quote(fb)}")
            face_up = record.get("face_up")
            if isinstance(face_up, Mapping):
                _known_fields(face_up, ("seat", "card"), "the record's face_up")
            if face_up is not None and rules.first_bidder != "face_up":
                raise RecordError(f"the record has a face-up card {face_up!r} but its rules have "
                                  f"first_bidder={rules.first_bidder!r}: only 'face_up' turns one")
            turned = rules.first_bidder == "face_up" and face_up is not None
            want = (face_up.get("seat"), face_up.get("card")) if isinstance(face_up, Mapping) else face_up
            want = tuple(want) if isinstance(want, (list, tuple)) else want
            game = cls(rules, seed=record["seed"], deal=None if seeded else parsed[0],
                       first_bidder=None if turned else record["first_bidder"],
                       face_up=want if turned and not seeded else None)
            if turned:      # the face-up card decides the first bidder: it must be the recorded one
                if game.face_up != want or game.first_bidder != record["first_bidder"]:
                    raise RecordError(f"the recorded face-up card {face_up!r} and first bidder "
                                      f"{record['first_bidder']!r} are not what seed {game.seed} turns: "
                                      f"{game.face_up!r}, seat {game.first_bidder}")
        except RecordError:
            raise
        except DdzError as exc:
            raise RecordError(f"bad record header: {exc}") from None
        if not seeded:
            if rules.bottom_bonus:
                for k, d in enumerate(parsed[1:], start=1):
                    try:
                        check_bonus_deal(d)
                    except DealError as exc:
                        raise RecordError(f"deal {k}: {exc}") from None
            game._pending = parsed[1:]
        else:
            game._check_seeded_deal(deals, 0)
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("the record's actions must be a list")
        for i, entry in enumerate(actions):
            if not isinstance(entry, Mapping) or "seat" not in entry or "action" not in entry:
                raise RecordError(f"action {i}: not an object with 'seat' and 'action': {quote(entry)}")
            if not entry.keys() <= _ACTION_FIELDS:
                _known_fields(entry, _ACTION_FIELDS, f"action {i}")
            seat, action = entry["seat"], entry["action"]
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise RecordError(f"action {i}: 'seat' must be an int (a seat), not "
                                  f"{type(seat).__name__}: {seat!r}")
            if game._phase is _OVER:
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
            dealt = len(game._deals)
            try:
                game.step(action)
            except DdzError as exc:
                raise RecordError(f"action {i} (seat {seat}, {game._phase.value}) {action!r} is illegal: {exc}") from None
            if len(game._deals) != dealt:        # a redeal
                if len(game._deals) > len(parsed):
                    raise RecordError(f"action {i} (seat {seat}): everybody passed, so the hand is "
                                      f"redealt, but the record has only {len(parsed)} deal(s)")
                if seeded:
                    game._check_seeded_deal(deals, dealt)
        if len(game._deals) != len(parsed):
            raise RecordError(f"the record has {len(parsed)} deals but its actions use {len(game._deals)}")
        want = record.get("result")
        if want is None:
            return game
        if not isinstance(want, Mapping):
            raise RecordError(f"the record's result must be an object or null, not {type(want).__name__}: {quote(want)}")
        _known_fields(want, _RESULT_FIELDS, "the recorded result")
        have = None if game.result is None else game.result.to_json()
        if version <= 3 and have is not None:
            for key in ("void", "open_play"):      # results gained them within version 3
                if key not in want:
                    have.pop(key)
        if want != have:
            raise RecordError(f"the recorded result {want!r} differs from the replayed one {have!r}")
        return game

    def _check_seeded_deal(self, deals: List[Any], k: int) -> None:
        """Deal ``k`` of a seeded record must be what the seed dealt.

        :raises RecordError: it is not (a wrong seed, or an edited deal): said before any
            action is replayed on it, so a wrong seed is not reported as an illegal action.
        """
        if self._deals[k].to_json() != deals[k]:
            which = "the first deal" if k == 0 else f"deal {k} (after {k} redeal{'s' if k > 1 else ''})"
            raise RecordError(f"{which} of the record is not what seed {self.seed} deals: the seed "
                              f"or the deal was changed (dealt_from_seed is true)")


class LegalMoves:
    """The live view of :attr:`Game.legal_moves` (python-chess style): the legal actions
    of the seat to act in the game's current position, whatever it is when asked.

    ``len(view)`` and ``view.count()`` count them (in the play phase without listing
    them); ``bool(view)`` is ``False`` only once the hand is over; ``action in view``
    tests one action (in the play phase a :class:`ddz.Play` or notation, by a fit check
    and one comparison); iteration and indexing follow :meth:`Game.legal_actions`.
    """

    __slots__ = ("_game",)

    def __init__(self, game: "Game") -> None:
        self._game = game

    def count(self) -> int:
        """How many legal actions the seat to act has (0 once over)."""
        g = self._game
        if g._phase is _PLAYING:
            return g._ps.count()
        return len(g.legal_actions())

    __len__ = count

    def __bool__(self) -> bool:
        # every phase but the end has a legal action: a pass, a bid, or any single
        return self._game._phase is not _OVER

    def __contains__(self, action: object) -> bool:
        g = self._game
        if g._phase is not _PLAYING:
            return any(type(a) is type(action) and a == action for a in g.legal_actions())
        if isinstance(action, str):
            try:
                action = Play.parse(action, g._move_rules)
            except DdzError:
                return False
        if not isinstance(action, Play):
            return False
        pid = g._table.index_of_play.get(action)
        return pid is not None and g._ps.legal(pid)

    def __iter__(self):
        return iter(self._game.legal_actions())

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer, slice)):   # a list reads True as 1
            raise DdzError(f"legal moves are indexed by an int or a slice, not {quote(index)} ({type(index).__name__})")
        return self._game.legal_actions()[index]

    def __repr__(self) -> str:
        acts = self._game.legal_actions()
        shown = ", ".join(str(a) for a in acts[:10]) + (", ..." if len(acts) > 10 else "")
        return f"<ddz.LegalMoves ({len(acts)}): {shown}>"


_ADDED_IN_3 = ("all_pass", "max_redeals", "players", "straights", "doubling_bombs", "first_bidder",
               "bid_rounds", "wings", "four_with_two", "airplane_rank")
_ADDED_IN_4 = ("beat_reading", "chain_from_four", "bomb_on_rocket")

#: per record version, the Rules fields added after it: a record of that version lacks
#: them, and they take their defaults (version 2 added ``banned``, version 3 the fields of
#: ``_ADDED_IN_3``, version 4 those of ``_ADDED_IN_4``)
_RULES_ADDED = {1: ("banned",) + _ADDED_IN_3 + _ADDED_IN_4, 2: _ADDED_IN_3 + _ADDED_IN_4, 3: _ADDED_IN_4,
                4: ()}


#: every field a hand record may hold (docs/records.md); ``result`` and ``face_up`` (version
#: 3; ``null`` in older ones, whose rules have no face-up card) may be missing, and ``meta``
#: (a tool's notes, e.g. the arena's: never read on replay) is optional in every version
_RECORD_FIELDS = frozenset({"format", "version", "rules", "seed", "dealt_from_seed", "first_bidder", "face_up",
                            "deals", "actions", "result", "meta"})
_ACTION_FIELDS = frozenset({"seat", "phase", "action"})
_RESULT_FIELDS = frozenset(f.name for f in dataclasses.fields(Result))


def _known_fields(data: Mapping[str, Any], known: Any, what: str) -> None:
    """The one rule of records for unknown fields (docs/records.md): there are none.

    :raises RecordError: ``data`` has a field outside ``known``, naming it and ``what``.
    """
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise RecordError(f"{what} has unknown field(s) {unknown}; its fields are {sorted(known)} "
                          "(a record holds exactly the fields of its version: docs/records.md)")


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
