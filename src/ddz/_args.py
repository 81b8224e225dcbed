"""Argument checking shared by every implementation (reference and core).

Both paths call these at the public boundary, so the same bad input raises the same
exception class whichever implementation answers. Inner code trusts what these return.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union


from .cards import RANK_NAMES, deck_counts, format_cards, to_counts, CardsLike
from .errors import DdzError, ImpossibleHandError, InvalidPlayError, quote
from .play import Play, PlayType
from .rules import Rules

PlayLike = Union[Play, str]


def rules_arg(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise DdzError(f"rules must be a ddz.Rules, not {type(rules).__name__}: {quote(rules)}")
    return rules


def hand_arg(hand: CardsLike, rules: Rules, what: str = "hand") -> Tuple[int, ...]:
    """A validated hand as a 15-tuple of ints.

    :raises HandError, NotationError, ImpossibleHandError: see :func:`ddz.cards.to_counts`;
        also a hand of more cards than one player can hold (``rules.max_hand``).
    """
    counts = tuple(int(c) for c in to_counts(hand, decks=rules.decks, what=what))
    n = sum(counts)
    if n > rules.max_hand:
        raise ImpossibleHandError(
            f"{what} {format_cards(counts)!r} has {n} cards; a player holds at most {rules.max_hand}")
    return counts


def cards_arg(cards: CardsLike, rules: Rules) -> Tuple[int, ...]:
    """A validated card multiset (any size the deck allows) as a 15-tuple."""
    return tuple(int(c) for c in to_counts(cards, decks=rules.decks, what="cards"))


def play_arg(play: PlayLike, rules: Rules, what: str = "play") -> Play:
    """A :class:`Play` that is a play under ``rules`` (the pass included).

    :raises InvalidPlayError: a ``Play`` whose kickers ``rules`` forbid, or notation that
        forms no play.
    :raises NotationError: bad notation.
    """
    from . import moves  # the chooser: classification by whichever implementation is active

    if isinstance(play, Play):
        if play.type is not PlayType.PASS and moves.readings(play.counts, rules) != [play]:
            raise InvalidPlayError(f"{what} {str(play)!r} is not a play under {rules!r}")
        return play
    if isinstance(play, str):
        try:
            return Play.parse(play, rules)
        except InvalidPlayError as exc:
            raise InvalidPlayError(f"{what} {quote(play)} is not a play: {exc}") from None
    raise InvalidPlayError(f"{what} must be a ddz.Play or play notation, not {type(play).__name__}: {quote(play)}")


def the_reading(found, counts: Tuple[int, ...], rules: Rules) -> Play:
    """The one reading in ``found`` (what ``classify`` returns).

    :raises InvalidPlayError: no reading (the cards form no play), or more than one.
    """
    if len(found) == 1:
        return found[0]
    if not found:
        raise InvalidPlayError(f"{format_cards(counts)!r} is not a play under {rules!r}")
    raise InvalidPlayError(
        f"{format_cards(counts)!r} has {len(found)} readings: {', '.join(map(str, found))}")


def to_beat_arg(to_beat: Optional[PlayLike], rules: Rules, hand: Tuple[int, ...]) -> Optional[Play]:
    """The play to beat, or ``None`` when leading.

    :raises InvalidPlayError: not a play, or the pass (pass ``None`` to lead).
    :raises ImpossibleHandError: the hand and the play to beat together hold more copies
        of a rank than the deck.
    """
    if to_beat is None:
        return None
    play = play_arg(to_beat, rules, "the play to beat")
    if not play:
        raise InvalidPlayError(
            "the play to beat is the pass; give the last non-pass play of the trick, or no play to beat (None) to lead")
    together(hand, play.counts, rules, f"hand {format_cards(hand)!r}", f"the play to beat {str(play)!r}")
    return play


def together(a: Tuple[int, ...], b: Tuple[int, ...], rules: Rules, a_name: str, b_name: str) -> None:
    """Check that two card multisets fit in the deck side by side (a hand and the play
    to beat, or two plays compared).

    :raises ImpossibleHandError: naming both and the rank that overflows.
    """
    limit = deck_counts(rules.decks)
    for r in range(len(a)):
        if a[r] + b[r] > limit[r]:
            raise ImpossibleHandError(
                f"{a_name} and {b_name} together hold {a[r] + b[r]} copies of "
                f"{RANK_NAMES[r]!r}; the deck holds {int(limit[r])}")
