"""One hand around its play phase (RULES.md §3, §4, §6, §7): the auction, doubling, open
play, redeals and the score, as one state machine with two implementations.

* ``CHand`` (``ddz.game._game``), the product: the C hand that :class:`ddz.Game` steps,
  the very functions every game of :class:`ddz.envs.VectorGame` runs (an array of them).
* :class:`PyHand`, the pure-Python reference (the oracle): :mod:`ddz.game.auction`'s
  state machines, :func:`ddz.game.deal.bonus_factor`, and the scoring below; used under
  ``DDZ_NO_EXTENSIONS=1`` and by the lockstep test (``tests/envs/test_hand_lockstep.py``),
  which steps the C hand beside it.

:func:`new_hand` makes the compiled-or-pure choice once. Both take the same calls: the
caller (:class:`ddz.Game`) deals (``deal(hands, bottom, flush)``: the first deal, and
again after a step returned :data:`HAND_DEAL`), asks for the legal words of the seat to
act (``legal_values()``: bids 0..3, 0 the pass and 1 the call/rob of ``bidding="rob"``; or
0/1 to double or to play open), takes one (``step(value)`` → 0, :data:`HAND_VOID` or
:data:`HAND_DEAL`), starts the play phase with ``hand(seat)`` once ``phase`` is
:data:`PLAYING`, and scores it with ``finish(play_state)``.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..core.implementation import compiled
from ..core.rules import Rules
from ..core.tables import table
from .auction import auction
from .deal import DECK_SUITS, DECKS, bonus_factor

__all__ = ["PyHand", "new_hand", "COMPILED", "hand_settings", "hand_rules", "HAND_VOID", "HAND_DEAL",
           "BIDDING", "DOUBLING", "OPENING", "PLAYING", "OVER"]

_game = compiled("game._game", "the compiled hand and play phase (ddz.game._game)")
#: whether :func:`new_hand` makes the C hand (which can deal for itself: ``CHand.new_hand``)
COMPILED = _game is not None

#: phases, as the C hand numbers them
BIDDING, DOUBLING, OPENING, PLAYING, OVER = range(5)
#: ``step`` results besides 0 (the hand goes on): it ended void; everybody passed and the
#: caller deals again
HAND_VOID, HAND_DEAL = 2, 3

def hand_settings(rules: Rules) -> Dict[str, int]:
    """The C hand's settings for ``rules`` (its ``HandConf``): every option of RULES.md
    §3–§7 that changes the flow of a hand, as ints (the move options are in the table,
    ``ddz.core.tables.table(rules.move_rules)``, whose ``plays`` ids it counts). Needs the
    compiled core (the number of each ``doubling_bombs`` rule is its)."""
    return dict(seats=rules.seats, hand_size=rules.hand_size, bottom_size=rules.bottom_size,
                auction=2 if rules.bidding == "rob" else (1 if rules.bid_rounds == "until_passes" else 0),
                doubling=int(rules.doubling), all_void=int(rules.all_pass == "void"),
                max_redeals=rules.max_redeals, bombs_rule=_game._BOMBS_RULES[rules.doubling_bombs],
                plays=len(table(rules.move_rules).plays), decks=rules.decks, four=int(rules.players == 4),
                bonus=int(rules.bottom_bonus), face_up=int(rules.first_bidder == "face_up"))


_HAND_RULES: Dict[Rules, Any] = {}


def hand_rules(rules: Rules) -> Any:
    """The compiled hand's settings of ``rules`` (``ddz.game._game.HandRules``, built once
    per rule set), or ``None`` without the core."""
    hr = _HAND_RULES.get(rules)
    if hr is None and _game is not None:
        hr = _HAND_RULES[rules] = _game.HandRules(table(rules.move_rules), hand_settings(rules),
                                                  DECKS[rules.decks][1], DECK_SUITS[rules.decks])
    return hr


def new_hand(rules: Rules, first: int) -> Any:
    """A hand of ``rules`` whose first bidder is ``first``: the C one (``CHand``), or
    :class:`PyHand` without the core. Nothing is dealt yet (``deal``)."""
    if _game is None:
        return PyHand(rules, first)
    return _game.CHand(hand_rules(rules), first)


class PyHand:
    """The hand in plain Python (module docstring): the reference of ``CHand``.

    :param rules: the :class:`ddz.Rules`. :param first: the first bidder of every deal.
    """

    def __init__(self, rules: Rules, first: int) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.first = first
        self.deals = 0
        self.phase = OVER
        self.current = -1

    # -- the deal --
    def deal(self, hands: Sequence[Sequence[int]], bottom: Sequence[int], flush: bool) -> None:
        """The next deal (15 counts per seat, the bottom's, whether it is one suit); its
        auction begins with the first bidder (RULES.md §3)."""
        self._hands = [tuple(h) for h in hands]
        self._bottom = tuple(bottom)
        self._flush = bool(flush)
        self.left = [sum(h) for h in hands]
        self.deals += 1
        self.phase = BIDDING
        self.current = self.first
        self._auction = auction(self.rules, self.first)
        self.landlord: Optional[int] = None
        self.doubles: List[Optional[bool]] = [None] * self.seats
        self.ndoubles = 0
        self.bonus = 1
        self.open_play: Optional[bool] = None

    def hand(self, seat: int) -> Tuple[int, ...]:
        """The cards of ``seat`` before the play phase (with the bottom once landlord)."""
        return self._hands[seat]

    bid = property(lambda self: self._auction.bid, doc="The highest bid (the base).")
    robs = property(lambda self: self._auction.robs, doc="Robs so far.")

    # -- the words --
    def legal_values(self) -> List[int]:
        """The legal words of the seat to act (module docstring)."""
        if self.phase == BIDDING:
            return self._auction.legal(self._hands[self.current])
        if self.phase in (DOUBLING, OPENING):
            return [0, 1]
        raise ValueError("legal_values: not in the auction, doubling or opening")

    def step(self, value: int) -> int:
        """Take the legal word ``value``: 0, :data:`HAND_VOID` or :data:`HAND_DEAL`.

        :raises ValueError: not legal here (nothing changes)."""
        if value not in self.legal_values():
            raise ValueError(f"the word {value} is not legal here")
        if self.phase == BIDDING:
            a = self._auction
            a.step(value)
            if a.landlord is not None:
                self._set_landlord(a.landlord)
            elif a.all_passed:
                return self._all_passed()
            else:
                self.current = a.current
        elif self.phase == DOUBLING:
            self._double(bool(value))
        else:
            self.open_play = bool(value)       # RULES.md §7: open play, ×3
            self._start_play()
        return 0

    def _all_passed(self) -> int:
        """Everybody passed (RULES.md §3, ``Rules.all_pass``, ``max_redeals``)."""
        if self.rules.all_pass == "void" or self.deals > self.rules.max_redeals:
            self.phase, self.current = OVER, -1
            return HAND_VOID
        return HAND_DEAL

    def _set_landlord(self, seat: int) -> None:
        rules = self.rules
        self.landlord = seat
        self._hands[seat] = tuple(h + b for h, b in zip(self._hands[seat], self._bottom))
        self.left[seat] += rules.bottom_size
        if rules.bottom_bonus:
            self.bonus = bonus_factor(self._bottom, self._flush)
        if rules.doubling:
            self.phase, self.current = DOUBLING, (seat + 1) % self.seats
        elif rules.players == 4:
            self.phase, self.current = OPENING, seat     # RULES.md §7: open play first
        else:
            self._start_play()

    def _double(self, value: bool) -> None:
        """RULES.md §4: the farmers in turn, then the landlord if a farmer doubled."""
        seat, lord = self.current, self.landlord
        self.doubles[seat] = value
        self.ndoubles += value
        if seat == (lord + 1) % self.seats:
            self.current = (lord + 2) % self.seats
        elif seat != lord and any(self.doubles):
            self.current = lord
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase, self.current = PLAYING, self.landlord

    # -- the score --
    def _factor(self) -> int:
        """The factors that are not powers of 2: the bottom bonus and open play (×3)."""
        return self.bonus * 3 if self.open_play else self.bonus

    def multiplier(self, played: int) -> int:
        """The multiplier so far with ``played`` bombs and rockets that count (RULES.md §6)."""
        return self._factor() << (self._auction.robs + self.ndoubles + played)

    def finish(self, ps: Any) -> Tuple[bool, bool, int, int, Tuple[int, ...]]:
        """Score the hand after its play phase ``ps`` ended (RULES.md §6, §7): ``(spring,
        anti_spring, multiplier, score, scores)``."""
        lord = self.landlord
        lord_wins = ps.winner == lord
        nplays = ps.plays_made
        spring = lord_wins and not any(nplays[s] for s in range(self.seats) if s != lord)
        anti = (not lord_wins) and nplays[lord] == 1
        multiplier = self.multiplier(ps.bombs + ps.rockets + spring + anti)
        score = self._auction.bid * multiplier
        sign = 1 if lord_wins else -1
        scores = [-sign * score] * self.seats
        scores[lord] = (self.seats - 1) * sign * score      # ±2S, or ±3S with four players
        self.phase, self.current = OVER, -1
        return spring, anti, multiplier, score, tuple(scores)

    def copy(self) -> "PyHand":
        """An independent copy."""
        return copy.deepcopy(self)
