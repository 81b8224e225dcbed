"""What one seat sees (RULES.md §5): :class:`Observation`, and the game's
:meth:`ddz.Game.observation`."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

from ..core.cards import format_cards
from ..core.play import Play
from ..core.rules import Rules
from ..errors import DdzError
from .phase import _DOUBLING, Phase

__all__ = ["Observation", "GameViews"]

Counts = Tuple[int, ...]

_new_tuple = tuple.__new__


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


class GameViews:
    """What a seat of :class:`ddz.Game` sees (a part of the class, by concept: the game's
    state lives in ``ddz.game.state``, which composes this mixin)."""

    __slots__ = ()

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
        h = self._hand
        doubles = h.doubles
        ndoubles = h.ndoubles
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
                h.hand(seat), tuple(h.left), (), None, None, 0)
        else:
            hand, left, plays, played = ps.hand(seat), ps.cards_left, self.plays, ps.bombs + ps.rockets
            b = ps.to_beat
            to_beat, beat_seat = (self._table.plays[b], ps.to_beat_seat) if b else (None, None)
        # RULES.md §7: the four-player bottom is shown to the landlord only
        bottom = None if lord is None or (self.seats == 4 and seat != lord) else self._deals[-1].bottom
        open_hand = None
        if h.open_play:
            open_hand = h.hand(lord) if ps is None else ps.hand(lord)
        # positional tuple.__new__: the NamedTuple's keyword constructor costs twice as much
        return _new_tuple(Observation, (
            seat, self._phase, self._current, self.rules, hand,
            lord, h.bid, tuple(self._bids), h.robs, tuple(doubles),
            bottom, plays, left, to_beat, beat_seat,
            # the multiplier without the doubles this seat may not see yet
            h.multiplier(played) >> (h.ndoubles - ndoubles), open_hand, self.face_up))

    def raw_hand(self, seat: object) -> tuple:
        """``(seat, phase, current, play_state, hand, face_up)`` for ``seat``: the hand object
        itself (``ddz.game.hand``: the C ``CHand``, whose struct the compiled encoder reads as
        it is, or a ``PyHand``; :meth:`raw_observation` has its fields). For the observation
        encoder of :mod:`ddz.envs` (trusted): the objects are the game's own, to read only.

        :raises DdzError: ``seat`` is not a seat."""
        return self._seat_arg(seat), self._phase, self._current, self._ps, self._hand, self.face_up

    def raw_observation(self, seat: object) -> tuple:
        """The fields that :meth:`observation` reads for ``seat``, raw (for
        the compiled observation encoder of :mod:`ddz.envs`, which reads them as
        :meth:`ddz.Game.observation` does, without building the :class:`Observation`):
        ``(seat, phase, current, play_state, hands, cards_left, bottom, landlord, bid, robs,
        bids, doubles, ndoubles, bonus, open_play, face_up)``; ``bottom`` is ``None`` until there
        is a landlord and, with four players, for the farmers (RULES.md §7); ``bonus`` is the
        bottom bonus so far (1 before the landlord), ``open_play`` ``None``/``False``/``True``.

        :raises DdzError: ``seat`` is not a seat."""
        seat = self._seat_arg(seat)
        h = self._hand
        lord = self.landlord
        return (seat, self._phase, self._current, self._ps, [h.hand(s) for s in range(self.seats)], h.left,
                None if lord is None or (self.seats == 4 and seat != lord) else self._deals[-1].bottom, lord,
                h.bid, h.robs, self._bids, h.doubles, h.ndoubles, h.bonus, h.open_play, self.face_up)
