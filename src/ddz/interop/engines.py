"""What the conversions share: each engine's profile (RULES.md §2.5), the error for a play
an engine cannot express, and the checks of a three-player rule set and of a play."""

from __future__ import annotations

from typing import Union


from ..core import arguments as _args
from .. import core as moves
from ..core.cards import CardsLike, deck_counts
from ..errors import DdzError, InvalidPlayError
from ..core.play import Play
from ..core.rules import Rules

__all__ = ["DOUZERO", "RLCARD", "OPENSPIEL", "NotExpressibleError"]

DOUZERO = Rules.profile("douzero")
"""DouZero's rules (RULES.md §2.5): the DouZero helpers' default."""
RLCARD = Rules.profile("rlcard")
"""RLCard's rules (``kickers="repeat"``): the RLCard helpers' default."""
OPENSPIEL = Rules.profile("openspiel")
"""OpenSpiel's rules, auction included (RULES.md §2.5): the OpenSpiel helpers' default."""

PlayOrCards = Union[Play, CardsLike]


class NotExpressibleError(InvalidPlayError):
    """A play the other implementation cannot express (or the reverse)."""


def _three_player(rules: object, engine: str) -> Rules:
    """``rules`` checked as a :class:`Rules` of the three-player game: every engine here
    plays only that (RULES.md §7 has no counterpart in them).

    :raises DdzError: not a Rules, or ``players=4``."""
    rules = _args.rules_arg(rules)
    if rules.players != 3:
        raise DdzError(f"{engine}'s Dou Dizhu is the three-player one-deck game: {rules!r} (RULES.md §7) "
                       f"has no {engine} counterpart")
    return rules


def _engine_play(p: Play, profile: Rules, engine: str) -> Play:
    """``p`` if its cards are a move of the engine whose plays are ``profile``'s (RULES.md
    §2.5), else :class:`NotExpressibleError` (a four-player bomb of five cards, a pair of
    small jokers, a play another profile's wings allow...)."""
    counts = p.counts
    if p and (any(c > lim for c, lim in zip(counts, _ONE_DECK)) or not moves.readings(counts, profile)):
        raise NotExpressibleError(f"{engine} cannot express {str(p)!r} ({p.type.name}): its cards are no "
                                  f"move of {engine}'s (RULES.md §2.5, §7)")
    return p


_ONE_DECK = tuple(int(c) for c in deck_counts(1))
