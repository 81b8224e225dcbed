"""The auction (RULES.md §3, §7): one small state machine per bidding rule.

:func:`auction` returns the auction of a deal for a rule set: :class:`PointsOnce` (叫分,
each player speaks once: the default and the competition rule), :class:`PointsUntilPasses`
(``Rules.bid_rounds="until_passes"``: bidding goes round until two players in a row pass
after a bid) or :class:`Rob` (叫地主/抢地主, ``Rules.bidding="rob"``). :class:`ddz.Game`
asks it for the legal bids, applies trusted ones, and reads how it ended: a landlord
(:attr:`Auction.landlord`) or everybody passing (:attr:`Auction.all_passed`). The words a
person may type for a bid are in :attr:`Auction.words`.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..core.cards import BIG_JOKER, SMALL_JOKER
from ..core.rules import Rules

__all__ = ["Auction", "PointsOnce", "PointsUntilPasses", "Rob", "auction", "must_bid"]

_BID_WORDS = {"pass": 0, "p": 0, "0": 0, "1": 1, "2": 2, "3": 3, "不叫": 0}
_ROB_WORDS = {"pass": 0, "p": 0, "0": 0, "no": 0, "call": 1, "rob": 1, "1": 1, "yes": 1,
              "叫地主": 1, "抢地主": 1, "不叫": 0, "不抢": 0}


def must_bid(hand: Sequence[int], rules: Rules) -> bool:
    """The four-player forced bid (RULES.md §7): a hand of all four jokers or three bombs
    (three ranks with 4+ cards) may not pass while nobody has bid.

    :param hand: 15 counts (the dealt hand). :returns: ``False`` in the three-player game.
    """
    if rules.players != 4:
        return False
    return (hand[SMALL_JOKER] == 2 and hand[BIG_JOKER] == 2) or sum(c >= 4 for c in hand[:13]) >= 3


class Auction:
    """One deal's auction: whose turn it is, the bids so far, and how it ended.

    :ivar current: the seat to speak (meaningless once decided).
    :ivar bids: ``(seat, value)`` of every bid of this deal (0 is the pass).
    :ivar bid: the highest bid (the base score); with ``bidding="rob"`` 1 once somebody called.
    :ivar robs: robs so far (each ×2, RULES.md §6).
    :ivar landlord: the landlord once decided, else ``None``.
    :ivar all_passed: ``True`` when everybody passed (the deal is void, RULES.md §3).
    """

    words: Dict[str, int] = _BID_WORDS

    def __init__(self, rules: Rules, first: int) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.current = first
        self.bids: List[Tuple[int, int]] = []
        self.bid = 0
        self.robs = 0
        self.landlord: Optional[int] = None
        self.all_passed = False

    @property
    def decided(self) -> bool:
        """The auction is over: a landlord, or everybody passed."""
        return self.landlord is not None or self.all_passed

    def legal(self, hand: Sequence[int]) -> List[int]:
        """The legal values for :attr:`current` holding ``hand``: the pass (0) and every
        bid higher than :attr:`bid`, without the pass when the forced bid applies."""
        legal = [0] + list(range(self.bid + 1, 4))
        if not self.bid and must_bid(hand, self.rules):
            legal = legal[1:]
        return legal

    def step(self, value: int) -> bool:
        """Apply a legal ``value`` for :attr:`current` (trusted). Returns ``True`` when it
        was a call (the first of the rob variant), for the record's wording."""
        raise NotImplementedError

    def text(self, value: int, call: bool) -> str:
        """The record's word for a bid of ``value``."""
        return "pass" if not value else str(value)

    def _next(self, seat: int) -> None:
        self.current = (seat + 1) % self.seats


class PointsOnce(Auction):
    """叫分 (RULES.md §3, **default**): in seat order each player speaks once, passing or
    bidding higher than every earlier bid; 3 ends the auction at once."""

    def __init__(self, rules: Rules, first: int) -> None:
        super().__init__(rules, first)
        self._spoken = 0
        self._bidder: Optional[int] = None

    def step(self, value: int) -> bool:
        seat = self.current
        self.bids.append((seat, value))
        self._spoken += 1
        if value:
            self.bid, self._bidder = value, seat
        if value == 3 or self._spoken == self.seats:
            if self._bidder is None:
                self.all_passed = True
            else:
                self.landlord = self._bidder
        else:
            self._next(seat)
        return False


class PointsUntilPasses(PointsOnce):
    """``Rules.bid_rounds="until_passes"`` (RULES.md §3): bidding goes round in seat order;
    a player who passed may bid higher later; it ends when the players after a bid all pass
    in a row (two of them), or at a bid of 3; everybody passing before any bid voids it."""

    def __init__(self, rules: Rules, first: int) -> None:
        super().__init__(rules, first)
        self._passes = 0          # passes in a row since the last bid

    def step(self, value: int) -> bool:
        seat = self.current
        self.bids.append((seat, value))
        if value:
            self.bid, self._bidder, self._passes = value, seat, 0
            if value == 3:
                self.landlord = seat
                return False
        elif self._bidder is None:
            self._spoken += 1
            if self._spoken == self.seats:
                self.all_passed = True
                return False
        else:
            self._passes += 1
            if self._passes == self.seats - 1:
                self.landlord = self._bidder
                return False
        self._next(seat)
        return False


class Rob(Auction):
    """叫地主/抢地主 (``Rules.bidding="rob"``, RULES.md §3): the first to call is the
    candidate; each later player may rob (×2 each); if anyone robbed, the first caller may
    rob once more; the last to call or rob is landlord; the base is 1."""

    words = _ROB_WORDS

    def __init__(self, rules: Rules, first: int) -> None:
        super().__init__(rules, first)
        self._spoken = 0
        self._bidder: Optional[int] = None     # the last to call or rob
        self._caller: Optional[int] = None     # the first to call
        self._final = False                    # the first caller's last word

    def legal(self, hand: Sequence[int]) -> List[int]:
        return [0, 1]

    def step(self, value: int) -> bool:
        seat = self.current
        self.bids.append((seat, value))
        if self._final:
            if value:
                self.robs += 1
                self._bidder = seat
            self.landlord = self._bidder
            return False
        self._spoken += 1
        call = False
        if value:
            if self._caller is None:
                call = True
                self._caller = self._bidder = seat
                self.bid = 1
            else:
                self.robs += 1
                self._bidder = seat
        if self._spoken < self.seats:
            self._next(seat)
        elif self._caller is None:
            self.all_passed = True
        elif self.robs:
            self._final = True
            self.current = self._caller
        else:
            self.landlord = self._bidder
        return call

    def text(self, value: int, call: bool) -> str:
        return "pass" if not value else "call" if call else "rob"


def auction(rules: Rules, first: int) -> Auction:
    """The auction of one deal under ``rules``, ``first`` speaking first."""
    if rules.bidding == "rob":
        return Rob(rules, first)
    if rules.bid_rounds == "until_passes":
        return PointsUntilPasses(rules, first)
    return PointsOnce(rules, first)
