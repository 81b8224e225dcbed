"""Perfect-information Monte Carlo for the search bots (RULES.md §5): deals sampled
consistent with what a seat has seen (:func:`sample_deals`), each solved exactly
(:func:`solve_sampled`, or :func:`solve_budgeted` under one node budget a decision);
:class:`ddz.SolverBot` and :class:`ddz.ExpertBot` play by them."""

from __future__ import annotations

import random
from typing import List, Optional, Tuple

from ..core.cards import deck_counts
from ..core.play import Play
from ..game.observations import Observation

__all__ = ["solve_sampled", "solve_budgeted", "sample_deals"]


def _positions(obs: Observation):
    """A function of a hand triple: the :class:`ddz.Position` of ``obs``'s moment with
    those hands (the landlord's plays so far, whether a farmer played, the play to beat)."""
    from ..game.position import Position    # above the bots in the import floors (DESIGN.md)
    lord = obs.landlord
    lp = sum(1 for s, p in obs.plays if p and s == lord)
    fp = any(p and s != lord for s, p in obs.plays)
    last = obs.to_beat_seat if obs.to_beat is not None else None
    return lambda hands: Position(hands, landlord=lord, to_move=obs.seat, to_beat=obs.to_beat, last_player=last,
                                  rules=obs.rules, landlord_plays=lp, farmers_played=fp)


def _vote(sols, legal: List[Play], preferred: Play, min_solved: int = 1) -> Optional[Play]:
    """The move that wins in the most exactly solved of ``sols`` (ties: ``preferred``
    when among them, else the first in ``legal``'s order); ``None`` when fewer than
    ``min_solved`` are exact or no move wins in any."""
    wins: dict = {}
    solved = 0
    for sol in sols:
        if not sol.exact:
            continue
        solved += 1
        for m in sol.moves:
            wins[m] = wins.get(m, 0) + 1
    if solved < min_solved or not wins:
        return None
    best = max(wins.values())
    if wins.get(preferred, 0) == best:
        return preferred
    for p in legal:
        if wins.get(p, 0) == best:
            return p
    return None  # pragma: no cover - the solver's moves are legal moves


def solve_sampled(obs: Observation, legal: List[Play], preferred: Play, deals, node_limit: int,
                  give_up: Optional[int] = None) -> Optional[Play]:
    """Perfect-information Monte Carlo (RULES.md §5): solve each sampled deal exactly with
    :func:`ddz.solve` (``all_moves=True``, at most ``node_limit`` positions each) and
    return the move that wins in the most of them; ties go to ``preferred`` when it is
    among them, else to the first in ``legal``'s order.

    :param obs: the play-phase observation of a three-player game.
    :param legal: its legal plays. :param preferred: the tie-break move.
    :param deals: hand triples (:func:`sample_deals`).
    :param node_limit: per solve.
    :param give_up: stop (returning ``None``) when none of the first ``give_up`` deals was
        solved exactly; ``None`` tries them all.
    :returns: the move, or ``None`` when no deal was solved exactly.
    """
    from .solver import solve      # the solver sits above the bots (import floors): imported on use
    position = _positions(obs)
    sols = []
    for k, hands in enumerate(deals):
        if k == give_up and not any(sol.exact for sol in sols):
            return None
        sols.append(solve(position(hands), all_moves=True, node_limit=node_limit))
    return _vote(sols, legal, preferred)


def solve_budgeted(obs: Observation, legal: List[Play], preferred: Play, deals, budget: int, probe: int,
                   node_limit: Optional[int] = None, min_solved: int = 1,
                   probes: int = 1) -> Tuple[Optional[Play], bool]:
    """Perfect-information Monte Carlo under one node budget (RULES.md §5): up to
    ``probes`` of ``deals`` are solved one after the other with :func:`ddz.solve`, each
    within ``probe`` positions, until one is exact; when none is, the position is deemed
    too big and ``(None, False)`` comes back. Otherwise the other deals share what is
    left of ``budget`` evenly (each at most ``node_limit`` too), solved in one
    :func:`ddz.solve_batch` call, and the move that wins in the most exactly solved deals
    is returned; ties go to ``preferred`` when it is among them, else to the first in
    ``legal``'s order. Limited by positions, never by time: the same answer on any
    machine. Every solve is in win mode, ``all_moves=True``, without the line of play.

    :param obs: the play-phase observation of a three-player game.
    :param legal: its legal plays. :param preferred: the tie-break move.
    :param deals: a sequence or iterator of hand triples (:func:`sample_deals`), the
        probes first; the rest are drawn only when a probe is exact.
    :param budget: positions (nodes) for the whole decision, the probes' included (int).
    :param probe: positions for each probe (int).
    :param node_limit: positions per deal after the probes (``None``: no cap but the
        shared budget).
    :param min_solved: fewer exactly solved deals than this (the probe's included) give
        no move.
    :param probes: deals tried as probes at most (int >= 1).
    :returns: ``(move, searched)``: ``searched`` is ``False`` when no probe was exact;
        ``move`` is ``None`` then, or when too few deals were solved, or no move wins in
        any deal.
    """
    from .solver import solve, solve_batch    # imported when a bot first searches (import floors)
    position = _positions(obs)
    deals = iter(deals)
    sols = []
    for _ in range(probes):
        first = next(deals, None)
        if first is None:
            return None, False
        sol = solve(position(first), all_moves=True, node_limit=probe, pv_plies=0)
        budget -= sol.nodes
        if sol.exact:
            sols.append(sol)
            break
    if not sols:
        return None, False
    rest = [position(h) for h in deals]
    if rest:
        limit = budget // len(rest)
        if node_limit is not None:
            limit = min(limit, node_limit)
        if limit >= 1:
            sols += solve_batch(rest, all_moves=True, node_limit=limit, pv_plies=0)
    return _vote(sols, legal, preferred, min_solved), True


def sample_deals(obs: Observation, rng: random.Random, samples: int):
    """``samples`` random hand triples consistent with what a three-player seat has seen
    (RULES.md §5): its own hand, every play so far, each seat's card count, and the bottom
    cards the landlord has not played yet (still in its hand). One ``rng.shuffle`` of
    the unseen cards per deal.

    :returns: a generator of 3-tuples of 15-count tuples, the observing seat's own hand
        at its seat.
    """
    seen = list(obs.hand)
    lord_played = [0] * 15
    for s, p in obs.plays:
        for r, c in enumerate(p.counts):
            seen[r] += c
            if s == obs.landlord:
                lord_played[r] += c
    unseen = [int(d) - s for d, s in zip(deck_counts(1), seen)]
    others = [s for s in range(3) if s != obs.seat]
    # the bottom cards the landlord has not played are still in its hand
    forced = {s: [0] * 15 for s in others}
    if obs.bottom is not None and obs.landlord != obs.seat:
        forced[obs.landlord] = [max(0, b - lp) for b, lp in zip(obs.bottom, lord_played)]
    pool = []
    for r, c in enumerate(unseen):
        pool += [r] * (c - sum(forced[s][r] for s in others))
    for _ in range(samples):
        rng.shuffle(pool)
        hands = [None, None, None]
        hands[obs.seat] = tuple(obs.hand)
        at = 0
        for s in others:
            h = list(forced[s])
            need = obs.cards_left[s] - sum(h)
            for r in pool[at:at + need]:
                h[r] += 1
            at += need
            hands[s] = tuple(h)
        yield hands
