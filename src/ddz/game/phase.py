"""Where a hand stands: its phases (:class:`Phase`, RULES.md §3–§5) and the sizes of the
three-player table."""

from __future__ import annotations

import enum

__all__ = ["Phase", "SEATS", "HAND_SIZE", "BOTTOM_SIZE"]

SEATS = 3          # the three-player game's sizes; Rules.seats, hand_size, bottom_size give each game's
HAND_SIZE = 17
BOTTOM_SIZE = 3

class Phase(str, enum.Enum):
    """The phases of a hand, in order (a ``str``, so ``game.phase == "playing"`` works)."""
    BIDDING = "bidding"
    DOUBLING = "doubling"
    OPENING = "opening"
    PLAYING = "playing"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


# enum members read through the class cost as much as a kernel call: read them once
_BIDDING, _DOUBLING, _OPENING, _PLAYING, _OVER = (Phase.BIDDING, Phase.DOUBLING, Phase.OPENING, Phase.PLAYING,
                                                   Phase.OVER)
