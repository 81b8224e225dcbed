"""What a run plays and what it starts from (issue 40): the bound on a result's size,
the deals left to play, the per-deal values and counts of a resumed run, the running
SPRT, and the progress display."""

from __future__ import annotations

import sys
from typing import Any, List, Optional, Sequence

from ..errors import DdzError
from .results import ArenaResult, totals_of
from .sprt import Sprt, SprtCounter
from .tally import MAX_DEAL_NUMBERS, DealValues, Totals, deal_numbers

__all__ = ["check_size", "deals_to_play", "Counter", "start", "progress"]


def check_size(deals: int, bots: int) -> None:
    """Refuse a run whose per-deal values would not fit a result (MAX_DEAL_NUMBERS)."""
    per = deal_numbers(bots)
    if deals * per > MAX_DEAL_NUMBERS:
        raise DdzError(f"{deals:,} deals of {bots} bots is more than one result holds: at most "
                       f"{MAX_DEAL_NUMBERS // per:,} ({MAX_DEAL_NUMBERS:,} per-deal integers, {per} a deal); "
                       "play several runs over different deals (first_deal=, or other seeds) and merge them")


def deals_to_play(first_deal: int, deals: int, resume: Optional[ArenaResult]) -> List[int]:
    """The deal indices still to play, in order."""
    done = set() if resume is None else {d for _, d in resume.values.keys()}
    return [d for d in range(first_deal, first_deal + deals) if d not in done]


class Counter:
    """The running SPRT and whether it had decided on the deals a resumed run held."""

    def __init__(self, sprt: Sprt, samples: Sequence[float]) -> None:
        self.counter = SprtCounter(sprt)
        self.decided = False
        for x in samples:
            self.decided = self.counter.add(x) is not None
            if self.decided:
                break

    def add(self, sample: float) -> Optional[str]:
        """Count one deal; the decision after it."""
        return self.counter.add(sample)


def start(resume: Optional[ArenaResult], nbots: int, seats: int, seed: int, sprt: Optional[Sprt]) -> tuple:
    """``(values, totals, counter)`` to play on from: empty, or a resumed result's."""
    if resume is None:
        values, totals = DealValues(nbots, seats, seed), Totals(nbots)
    else:
        values, totals = DealValues.concat([resume.values]), totals_of(resume)
    counter = None if sprt is None else Counter(sprt, values.scores()[:, 0].tolist() if len(values) else [])
    return values, totals, counter


def progress(progress: Any, total: int):
    """The progress display: a bar (``True``), lines (``"lines"``) or none."""
    if progress == "lines":
        from .text import ProgressLines   # start-up time: only a run that reports progress
        return ProgressLines(total, sys.stderr)
    from ..terminal import progress_bar   # start-up time: the progress bar (rich) only when one is shown
    return progress_bar(total, "arena", sys.stderr, bool(progress))
