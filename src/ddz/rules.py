"""Rule options (RULES.md). Every difference between rule sets is a field here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import DdzError

__all__ = ["Rules", "STANDARD", "REPEAT_KICKERS"]

_KICKERS = ("distinct", "repeat")
_MOVE_RULES: dict = {}
_BIDDING = ("points", "rob")


@dataclass(frozen=True)
class Rules:
    """A rule set, immutable and hashable.

    :param kickers: ``"distinct"`` (**default**, competition rules: the single kickers of
        one play have pairwise different ranks) or ``"repeat"`` (online platforms, RLCard,
        DouZero: single kickers may share a rank). RULES.md §2.1.
    :param bidding: ``"points"`` (**default**, 叫分: bids of 1, 2 or 3, the base score is
        the winning bid) or ``"rob"`` (叫地主/抢地主: call and rob, each rob doubles, base 1).
        RULES.md §3.
    :param doubling: ``True`` to let the farmers double and the landlord redouble after
        the auction (加倍, RULES.md §4); default ``False``.
    :param bottom_bonus: ``True`` for the bottom-card bonus (底牌翻倍, RULES.md §6): the
        bottom cards multiply the score by 2, 3 or 4; default ``False``.
    :raises DdzError: an unknown option value, or an option of the wrong type.

    Options of RULES.md §7 (the four-player game) become fields here as they are
    implemented. ``bidding``, ``doubling`` and ``bottom_bonus`` only matter to
    :class:`ddz.Game`; the move functions ignore them.
    """

    kickers: Literal["distinct", "repeat"] = "distinct"
    bidding: Literal["points", "rob"] = "points"
    doubling: bool = False
    bottom_bonus: bool = False

    def __post_init__(self) -> None:
        if self.kickers not in _KICKERS:
            raise DdzError(f"Rules.kickers must be one of {_KICKERS}, got {self.kickers!r}")
        if self.bidding not in _BIDDING:
            raise DdzError(f"Rules.bidding must be one of {_BIDDING}, got {self.bidding!r}")
        for name in ("doubling", "bottom_bonus"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise DdzError(f"Rules.{name} must be True or False, got {value!r}")

    @property
    def decks(self) -> int:
        """Decks in play (1 for the three-player game)."""
        return 1

    @property
    def max_hand(self) -> int:
        """The most cards one player can hold: 20 (17 + 3 bottom cards) with one deck."""
        return 20

    @property
    def repeat_kickers(self) -> bool:
        """``True`` for ``kickers="repeat"`` (single kickers may share a rank)."""
        return self.kickers == "repeat"

    @property
    def move_rules(self) -> "Rules":
        """The rule set with only the options that decide plays and legal moves
        (``kickers``; later the deck) and every other option at its default: one shared
        object per distinct value. Per-rule-set tables (play universes, action spaces)
        are keyed by it, so they are built once whatever the bidding or scoring options."""
        shared = _MOVE_RULES.get(self.kickers)
        if shared is None:
            shared = _MOVE_RULES.setdefault(self.kickers, Rules(kickers=self.kickers))
        return shared


STANDARD = Rules()
"""The default rule set (``kickers="distinct"``)."""

REPEAT_KICKERS = Rules(kickers="repeat")
"""RLCard's and DouZero's kicker rule (``kickers="repeat"``)."""
