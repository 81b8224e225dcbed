"""The reference endgame solver: plain minimax over :mod:`ddz.core.reference` (issue 12).

Written to be obviously correct, not fast: every legal move of the reference engine is
tried at every node, with no transposition table and no move ordering; the only
shortcut is that in win mode a side stops trying moves once one wins. It checks
:func:`ddz.solve` (the Cython search) on small positions, and is what :func:`ddz.solve`
runs under ``DDZ_NO_EXTENSIONS=1``. It imports only the reference side (never the core,
the tables or the chooser).

Rules (RULES.md §5, §6): seats move in order ``0 → 1 (→ 2) → 0``; with two seats a pass
ends the trick, with three the trick ends after two passes in a row; the hand ends when
a seat plays out, and the landlord wins if it was the landlord (two farmers are one
side). Values are from the landlord's side: win mode ``+1``/``-1``; score mode ``±2**k``
with ``k`` the doublings still to come (each bomb or rocket played, spring: the
landlord wins and no farmer has played; anti-spring: a farmer wins and the landlord has
made exactly one play), so that the score is ``base * multiplier * value``.
"""

from __future__ import annotations

import functools
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..core import reference
from ..errors import DdzError
from ..core.play import Play, PlayType
from ..core.rules import Rules

__all__ = ["RefResult", "ref_solve", "LimitReached", "TICK_EVERY"]

TICK_EVERY = 512
"""How often (in positions) :func:`ref_solve` checks its time limit and calls ``tick``."""

Counts = Tuple[int, ...]
_BOMBS = (PlayType.BOMB, PlayType.ROCKET)


class LimitReached(Exception):
    """A node or time limit stopped the reference search (internal)."""


class RefResult(NamedTuple):
    """What :func:`ref_solve` finds.

    :ivar value: the value from the landlord's side (module docstring).
    :ivar best: every legal move of the seat to move that reaches ``value``, in move order.
    :ivar nodes: positions visited.
    """
    value: int
    best: List[Play]
    nodes: int


@functools.lru_cache(maxsize=1 << 14)
def _moves(hand: Counts, to_beat: Optional[Play], rules: Rules) -> Tuple[Play, ...]:
    """The reference engine's legal moves, remembered: a search meets the same hand and
    play to beat many times, and the reference generator scans the whole universe of
    plays when leading."""
    return tuple(reference.trusted_legal_moves(hand, to_beat, rules))


class _Search:
    def __init__(self, seats, landlord, rules, score, node_limit, deadline, memo, tick=None):
        self.seats = seats
        self.tick = tick
        self.landlord = landlord
        self.rules = rules
        self.score = score
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.memo = memo

    def moves(self, hand: Counts, to_beat: Optional[Play]) -> Tuple[Play, ...]:
        return _moves(hand, to_beat, self.rules)

    def child(self, hands, p, to_beat, last, lp, fp, move):
        """(terminal value or None, child state) after seat ``p`` plays ``move``."""
        if not move:
            nxt = (p + 1) % self.seats
            if nxt == last:
                return None, (hands, nxt, None, None, lp, fp)
            return None, (hands, nxt, to_beat, last, lp, fp)
        hand = tuple(h - c for h, c in zip(hands[p], move.counts))
        if p == self.landlord:
            lp += 1
        else:
            fp = True
        if not any(hand):
            if p == self.landlord:
                v = 2 if self.score and not fp else 1
            else:
                v = -2 if self.score and lp == 1 else -1
            return v, None
        hands = hands[:p] + (hand,) + hands[p + 1:]
        return None, (hands, (p + 1) % self.seats, move, p, lp, fp)

    def value(self, hands, p, to_beat, last, lp, fp) -> int:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise LimitReached
        if self.nodes % TICK_EVERY == 0:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise LimitReached
            if self.tick is not None:
                self.tick(self.nodes)
        if self.memo is not None:
            key = (hands, p, to_beat, last, min(lp, 2) if self.score else 0, fp if self.score else False)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        maxing = p == self.landlord
        best = None
        for move in self.moves(hands[p], to_beat):
            v = self.move_value(hands, p, to_beat, last, lp, fp, move)
            if best is None or (v > best if maxing else v < best):
                best = v
            if not self.score and best == (1 if maxing else -1):
                break
        if self.memo is not None:
            self.memo[key] = best
        return best

    def move_value(self, hands, p, to_beat, last, lp, fp, move) -> int:
        v, state = self.child(hands, p, to_beat, last, lp, fp, move)
        if v is None:
            v = self.value(*state)
        if self.score and move.type in _BOMBS:
            v *= 2
        return v


def ref_solve(hands: Sequence[Sequence[int]], landlord: int, to_move: int,
              to_beat: Optional[Play], last_player: Optional[int], rules: Rules, *,
              score: bool = False, landlord_plays: int = 0, farmers_played: bool = False,
              node_limit: Optional[int] = None, time_limit: Optional[float] = None,
              memo: Optional[Dict] = None,
              tick: Optional[Callable[[int], None]] = None) -> RefResult:
    """Solve a position by plain minimax (module docstring for the rules and values).

    The arguments are trusted (they come from a validated :class:`ddz.Position` or a
    test): two or three hands of 15 counts, none empty; the seats; the play to beat
    (``None`` when leading) and its seat.

    :param score: score mode (values ``±2**k``) instead of win mode (``±1``).
    :param node_limit, time_limit: stop after that many positions or seconds.
    :param memo: a dict to remember solved positions in (``None``: plain minimax, the
        oracle of the tests; :func:`ddz.solve` passes one under ``DDZ_NO_EXTENSIONS=1``).
    :param tick: called as ``tick(nodes)`` every :data:`TICK_EVERY` positions with the
        positions visited so far (for progress reports); raising :class:`LimitReached`
        in it stops the search (a cancel), any other exception propagates.
    :returns: a :class:`RefResult`.
    :raises LimitReached: a limit was reached (the caller reports "unknown").
    :raises DdzError: a hand is empty (the position is over).
    """
    hands = tuple(tuple(int(c) for c in h) for h in hands)
    if not all(any(h) for h in hands):
        raise DdzError("the position is over: a seat has no cards")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    s = _Search(len(hands), landlord, rules.move_rules, score, node_limit, deadline, memo, tick)
    s.nodes = 1
    maxing = to_move == landlord
    values = []
    for move in s.moves(hands[to_move], to_beat):
        values.append((move, s.move_value(hands, to_move, to_beat, last_player, landlord_plays,
                                          farmers_played, move)))
    best = max(v for _, v in values) if maxing else min(v for _, v in values)
    return RefResult(best, [m for m, v in values if v == best], s.nodes)
