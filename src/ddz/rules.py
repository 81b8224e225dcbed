"""Rule options (RULES.md). Every difference between rule sets is a field here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import DdzError

__all__ = ["Rules", "STANDARD", "REPEAT_KICKERS"]

_KICKERS = ("distinct", "repeat")


@dataclass(frozen=True)
class Rules:
    """A rule set, immutable and hashable.

    :param kickers: ``"distinct"`` (**default**, competition rules: the single kickers of
        one play have pairwise different ranks) or ``"repeat"`` (online platforms, RLCard,
        DouZero: single kickers may share a rank). RULES.md §2.1.
    :raises DdzError: an unknown option value.

    Options of RULES.md §3–§7 (bidding, doubling, bottom bonus, the four-player game)
    become fields here as they are implemented.
    """

    kickers: Literal["distinct", "repeat"] = "distinct"

    def __post_init__(self) -> None:
        if self.kickers not in _KICKERS:
            raise DdzError(f"Rules.kickers must be one of {_KICKERS}, got {self.kickers!r}")

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
        return self.kickers == "repeat"


STANDARD = Rules()
"""The default rule set (``kickers="distinct"``)."""

REPEAT_KICKERS = Rules(kickers="repeat")
"""RLCard's and DouZero's kicker rule (``kickers="repeat"``)."""
