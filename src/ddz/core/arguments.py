"""Argument checking shared by every implementation (reference and core): rule sets,
hands and card multisets (the checks of a play are :mod:`ddz.core.play`'s:
``play_arg``, ``to_beat_arg``; ``together`` is :mod:`ddz.core.cards`').

Both paths call these at the public boundary, so the same bad input raises the same
exception class whichever implementation answers. Inner code trusts what these return.
Nothing here classifies: a check that needs classification takes the asking engine's
``readings`` function, so the reference never reaches the core (and this module imports
no engine).
"""

from __future__ import annotations

from typing import Tuple


from .cards import format_cards, is_integer, to_counts, together, CardsLike  # noqa: F401 (together: re-exported)
from ..errors import DdzError, ImpossibleHandError, quote
from .rules import Rules



#: every seed of ``ddz`` is an int ``0 .. SEED_LIMIT - 1`` (the deal stream's key, 64 bits)
SEED_LIMIT = 2 ** 64


def seed_arg(seed: object, what: str = "a seed", limit: int = SEED_LIMIT) -> int:
    """The one check of a seed given at a boundary (issue 42): an int (or numpy integer;
    not a bool, float or str) ``0 .. 2**64 - 1``, the key of the deal stream
    (``ddz.game.deal``), for :class:`ddz.Game`, :class:`ddz.Match`, the bots, the vectorised
    game and the CLI alike.

    :param what: the seed's name in the message. :param limit: ``SEED_LIMIT``, or a
        larger bound for old records (dealt with ``random.Random``, which takes any int).
    :returns: the seed as a Python int.
    :raises DdzError: anything else, naming ``what`` and the bound.
    """
    if is_integer(seed) and 0 <= seed < limit:
        return int(seed)
    bound = "2**64 - 1" if limit == SEED_LIMIT else "any size"
    raise DdzError(f"{what} is an int 0 .. {bound} (the deal stream's key), got {quote(seed)}")


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
