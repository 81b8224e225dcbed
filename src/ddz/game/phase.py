"""Where a hand stands: its phases (:class:`Phase`, RULES.md §3–§5) and the sizes of the
three-player table."""

from __future__ import annotations

import enum
from typing import Any

from ..core.cards import is_integer
from ..errors import DdzError

__all__ = ["Phase", "SEATS", "HAND_SIZE", "BOTTOM_SIZE", "seat_arg"]

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


def seat_arg(seat: Any, seats: int) -> int:
    """``seat`` as a seat of a table of ``seats`` players: an int (or numpy integer, not a
    bool) ``0 .. seats - 1``, the one check of a seat given to a game or its encoders.

    :raises DdzError: anything else."""
    if not is_integer(seat) or not 0 <= seat < seats:
        raise DdzError(f"a seat is 0..{seats - 1}, got {seat!r}")
    return int(seat)
