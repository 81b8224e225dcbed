"""Argument checking shared by every implementation (reference and core).

Both paths call these at the public boundary, so the same bad input raises the same
exception class whichever implementation answers. Inner code trusts what these return.
Nothing here classifies: a check that needs classification takes the asking engine's
``readings`` function, so the reference never reaches the core (and this module imports
no engine).
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple, Union


from .cards import _LIMITS, RANK_NAMES, deck_counts, format_cards, to_counts, CardsLike
from ..errors import DdzError, ImpossibleHandError, InvalidPlayError, quote
from .play import Play, PlayType, parse_with, the_reading  # noqa: F401 (the_reading: re-exported)
from .rules import Rules

PlayLike = Union[Play, str]
Readings = Callable[[Tuple[int, ...], Rules], List[Play]]


def rules_arg(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise DdzError(f"rules must be a ddz.Rules, not {type(rules).__name__}: {quote(rules)}")
    return rules


def hand_arg(hand: CardsLike, rules: Rules, what: str = "hand") -> Tuple[int, ...]:
    """A validated hand as a 15-tuple of ints.

    :raises HandError, NotationError, ImpossibleHandError: see :func:`ddz.core.cards.to_counts`;
        also a hand of more cards than one player can hold (``rules.max_hand``).
    """
    counts = tuple(to_counts(hand, decks=rules.decks, what=what).tolist())
    n = sum(counts)
    if n > rules.max_hand:
        raise ImpossibleHandError(
            f"{what} {format_cards(counts)!r} has {n} cards; a player holds at most {rules.max_hand}")
    return counts


def cards_arg(cards: CardsLike, rules: Rules) -> Tuple[int, ...]:
    """A validated card multiset (any size the deck allows) as a 15-tuple."""
    return tuple(to_counts(cards, decks=rules.decks, what="cards").tolist())


def play_arg(play: PlayLike, rules: Rules, readings: Readings, what: str = "play",
             lookup: Optional[Callable] = None) -> Play:
    """A :class:`Play` that is a play under ``rules`` (the pass included).

    :param readings: the asking engine's classifier, ``readings(counts, rules)`` (each
        engine validates with its own: the reference never reaches the core).
    :param lookup: optionally the engine's ``lookup(text, rules)`` of canonical notation
        (a dict hit; ``None`` when ``text`` is not canonical).
    :raises InvalidPlayError: a ``Play`` that is not a play under ``rules`` (its kickers,
        a banned type...), or notation that forms no play.
    :raises NotationError: bad notation.
    """
    if isinstance(play, Play):
        if play.type is not PlayType.PASS and play not in readings(play.counts, rules):
            if play.type in rules.excluded:
                raise InvalidPlayError(f"{what} {str(play)!r} is a play of the banned type {play.type.name} under {rules!r}")
            raise InvalidPlayError(f"{what} {str(play)!r} is not a play under {rules!r}")
        return play
    if isinstance(play, str):
        if lookup is not None:
            hit = lookup(play, rules)
            if hit is not None:
                return hit
        try:
            return parse_with(play, rules, readings)
        except InvalidPlayError as exc:
            raise InvalidPlayError(f"{what} {quote(play)} is not a play: {exc}") from None
    raise InvalidPlayError(f"{what} must be a ddz.Play or play notation, not {type(play).__name__}: {quote(play)}")


def to_beat_arg(to_beat: Optional[PlayLike], rules: Rules, hand: Tuple[int, ...],
                readings: Readings, lookup: Optional[Callable] = None) -> Optional[Play]:
    """The play to beat, or ``None`` when leading (``readings`` as in :func:`play_arg`).

    :raises InvalidPlayError: not a play, or the pass (pass ``None`` to lead).
    :raises ImpossibleHandError: the hand and the play to beat together hold more copies
        of a rank than the deck.
    """
    if to_beat is None:
        return None
    play = play_arg(to_beat, rules, readings, "the play to beat", lookup)
    if not play:
        raise InvalidPlayError(
            "the play to beat is the pass; give the last non-pass play of the trick, or no play to beat (None) to lead")
    together(hand, play.counts, rules, lambda: f"hand {format_cards(hand)!r}",
             lambda: f"the play to beat {str(play)!r}")
    return play


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
