"""One fixed, seeded set of benchmark positions (DESIGN.md, Performance).

``POSITIONS``: 17- and 20-card hands from random deals, each leading and responding;
the plays to beat are drawn from the *other* cards, cycling through every play type
(SINGLE .. ROCKET), so airplanes, four-with-two, bombs and the rocket all appear.
Rules: ``kickers="repeat"`` (the rule of DouZero, RLCard and OpenSpiel).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import numpy as np

import ddz
from ddz import Play, REPEAT_KICKERS

RULES = REPEAT_KICKERS
SEED = 20240601
DEALS = 1000         # per hand size; each deal gives one leading and one responding position
# (1,000 rather than 100, so that no engine's timing rests on the branch history or
#  caches of a handful of positions replayed again and again)
DECK = np.array([4] * 13 + [1, 1], dtype=np.uint8)
CARDS = np.repeat(np.arange(15), DECK)


@dataclass(frozen=True)
class Position:
    hand: np.ndarray              # uint8[15]
    rest: np.ndarray              # uint8[15]: every card not in the hand
    to_beat: Optional[Play]       # None: leading
    size: int                     # 17 or 20

    @property
    def group(self) -> str:
        return f"{'lead' if self.to_beat is None else 'respond'}{self.size}"


def _make() -> List[Position]:
    rng = np.random.default_rng(SEED)
    plays = ddz.all_plays(RULES)
    counts = np.array([p.counts for p in plays], dtype=np.uint8)
    types = np.array([int(p.type) for p in plays])
    out: List[Position] = []
    k = 0
    for size in (17, 20):
        for _ in range(DEALS):
            perm = rng.permutation(CARDS)
            hand = np.bincount(perm[:size], minlength=15).astype(np.uint8)
            rest = (DECK - hand).astype(np.uint8)
            out.append(Position(hand, rest, None, size))
            idx = np.flatnonzero((counts <= rest).all(axis=1))
            # the next play type (in cycle order) that the other cards can form
            for step in range(14):
                t = 1 + (k + step) % 14
                pick = idx[types[idx] == t]
                if len(pick):
                    break
            k += 1
            out.append(Position(hand, rest, plays[int(rng.choice(pick))], size))
    return out


POSITIONS: List[Position] = _make()
GROUPS = ["lead17", "lead20", "respond17", "respond20"]


def by_group(group: str) -> List[Position]:
    return [p for p in POSITIONS if p.group == group]
