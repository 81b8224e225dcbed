"""Actions as the game reads them: bids, doubles, open play and plays given as words,
ints, bools or :class:`ddz.Play` values, each checked against the phase and the legal
actions, with the message that says what was wrong (RULES.md §3–§5, §7).

Actions, by phase
-----------------
* ``bidding`` with ``Rules.bidding="points"`` (叫分): the ints ``0`` (pass), ``1``,
  ``2``, ``3``; the strings ``"pass"``, ``"1"``, ``"2"``, ``"3"`` are accepted too. The
  four-player forced bid (§7) takes the pass away from a hand of four jokers or three
  bombs while nobody has bid. ``Rules.bid_rounds`` says whether each player speaks once
  or bidding goes round (``ddz.game.auction``).
* ``bidding`` with ``Rules.bidding="rob"`` (叫地主/抢地主): ``0`` (pass) or ``1`` (call
  the landlord when nobody has, rob otherwise); also ``"pass"``, ``"call"``, ``"rob"``.
* ``doubling`` (``Rules.doubling=True``): ``False`` or ``True`` (double, or redouble for
  the landlord); also ``0``/``1``, ``"pass"``, ``"double"``, ``"redouble"``.
* ``opening`` (four players, §7): the landlord plays open (``True``, ``"open"``: its hand
  is shown to everyone, ×3) or not (``False``, ``"pass"``).
* ``playing``: a :class:`ddz.Play` or play notation (``"333+4"``, ``"pass"``), or
  :meth:`Game.step_id` with an id of :attr:`Game.action_space`. The play phase runs in
  the core (``ddz.game._game.PlayState``; ``ddz.game.playstate`` without it).
"""

from __future__ import annotations

from typing import Any, Mapping, Tuple

import numpy as np

from ..core.cards import RANK_CHARS, format_cards, is_integer
from ..core.play import Play, PlayType, engine_readings
from ..core.rules import Rules
from ..errors import DdzError, IllegalActionError, InvalidPlayError, NotInHandError
from .auction import _BID_WORDS, _ROB_WORDS
from .deal import Deal

__all__ = ["GameWords"]

_T_PASS = PlayType.PASS


def _int_arg(value: Any, what: str) -> int:
    """``value`` as a Python int: ints and numpy integers only (not bools, floats or text).

    :raises DdzError: anything else.
    """
    if is_integer(value):
        return int(value)
    raise DdzError(f"{what} must be an int, not {type(value).__name__}: {value!r}")


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


class GameWords:
    """The actions :class:`ddz.Game` reads, checked by phase (a part of the class, by
    concept: the game's state lives in ``ddz.game.state``, which composes this mixin).
    Each ``_*_arg`` returns the trusted value or raises, naming why, and never touches the
    state."""

    __slots__ = ()

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
        if pid is None or play not in engine_readings(play.counts, self._move_rules):
            raise InvalidPlayError(f"{str(play)!r} is not a play under {self.rules!r}")
        if any(c > h for c, h in zip(play.counts, hand)):
            raise NotInHandError(f"seat {seat} does not hold {str(play)!r}; its hand is {format_cards(hand)!r}")
        raise IllegalActionError(f"{str(play)!r} does not beat {str(self.to_beat)!r} "
                                 f"(played by seat {ps.to_beat_seat})")

    def _bid_arg(self, action: Any) -> int:
        points = self.rules.bidding != "rob"
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
                raise IllegalActionError(f"a bid of {value} is not higher than the highest bid, {self._hand.bid}")
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
