"""Resampling a ``python_ddz`` state from a seat's information state (for IS-MCTS and the
determinised searchers; docs/openspiel.md).

:func:`resample` draws, uniformly among the deals consistent with what seat ``p`` knows
(its own cards at their places in the deal, the face-up card, the bottom once shown to
it, every play, an open hand), a deal of the hidden cards, then replays the same actions
on it. The draw is exact: the reserved cards of each seat (what it must have held to make
its plays) are drawn first, the rest shuffled into the free places, and the result kept
with probability ``prod 1 / C(c, n)`` over seats and ranks (``n`` cards of a rank
reserved, ``c`` held in the end): the proposal weighs a deal by exactly that product, so
what is kept is uniform. A replay that meets an illegal action (a forced bid of the
four-player game, RULES.md §7, passed by a seat the draw made hold four jokers) is
drawn again. A farmer's double that ``p`` has not seen yet is drawn uniformly.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any, Dict, List, Optional, Tuple

from ..errors import DdzError
from .openspiel_conf import GameConf
from .openspiel_conf import hidden as _hidden, play_env_id

__all__ = ["undealt", "resample", "Knowledge", "knowledge_of"]

_MAX_TRIES = 100000


def undealt(conf: GameConf, dealt: List[int]) -> List[int]:
    """The card numbers not in ``dealt``, ascending."""
    taken = set(dealt)
    return [c for c in range(conf.ncards) if c not in taken]


class Knowledge:
    """What seat ``seat`` knows of one hand, as the resampler needs it.

    :ivar deals: per deal, the card numbers in deal order with ``None`` at every place
        the seat has not seen (the bottom not included).
    :ivar bottom: the current deal's bottom (card numbers) if the seat has seen it.
    :ivar landlord: the landlord's seat, or ``None``.
    :ivar played: per seat, the rank counts it has played in the current deal.
    :ivar held: per seat, exact rank counts of its dealt cards plus the bottom when they
        are public (the landlord's open hand), else ``None``.
    :ivar record: the actions ``(deal, seat, id, phase code)``, hidden doubles as ``None``.
    """

    def __init__(self, seat, first, deals, bottom, landlord, played, held, record) -> None:
        self.seat = seat
        self.first = first
        self.deals = deals
        self.bottom = bottom
        self.landlord = landlord
        self.played = played
        self.held = held
        self.record = record


def knowledge_of(s: Any, seat: int) -> Knowledge:
    """The :class:`Knowledge` of ``seat`` in a state's Python side ``s``."""
    conf = s.conf
    S = conf.seats
    deals = []
    for d, dealt in enumerate(s.old + [s.dealt]):
        row: List[Optional[int]] = [c if i % S == seat else None for i, c in enumerate(dealt)]
        if d == 0 and conf.face_up and s.first is not None and s.first < len(dealt):
            row[s.first] = dealt[s.first]
        deals.append(row)
    g = s.game
    lord = None if g is None else g.landlord
    bottom = None
    if lord is not None and (S == 3 or seat == lord):
        bottom = undealt(conf, s.dealt)
    played = [[0] * 15 for _ in range(S)]
    for d, q, a, code in s.record:
        if code == 3 and d == s.redeals:
            e = play_env_id(conf, a)
            if e:
                for r, n in enumerate(conf.acts.space.play(e).counts):
                    played[q][r] += n
    held: List[Optional[List[int]]] = [None] * S
    if g is not None and lord is not None and lord != seat:
        obs = g.observation(seat)
        if obs.open_hand is not None:
            held[lord] = [obs.open_hand[r] + played[lord][r] for r in range(15)]
    record = [(d, q, None if _hidden(s.record, i, seat) else a, code) for i, (d, q, a, code) in enumerate(s.record)]
    return Knowledge(seat, s.first, deals, bottom, lord, played, held, record)


def _draw_deal(conf: GameConf, k: Knowledge, d: int, rng: random.Random) -> Tuple[List[int], Optional[int]]:
    """One deal ``d`` drawn uniformly among those consistent with ``k``: the card numbers
    in deal order, and (current deal) the bottom is what is left."""
    S = conf.seats
    row = k.deals[d]
    n = len(row)
    current = d == len(k.deals) - 1
    known = [c for c in row if c is not None]
    if current and k.bottom is not None:
        known = known + list(k.bottom)
    taken = set(known)
    pool: Dict[int, List[int]] = {}
    for c in range(conf.ncards):
        if c not in taken:
            pool.setdefault(conf.ranks[c], []).append(c)
    # groups: each other seat's hidden places (the landlord's with a bottom it holds and
    # the seat has not seen), then everything else (the undealt cards and the bottom)
    groups: List[Tuple[List[int], int, List[int], bool]] = []   # (places, extra slots, need, exact)
    complete = n == conf.ndealt
    bottom_hidden = complete and current and k.bottom is None
    lord = k.landlord if current else None
    for q in range(S):
        if q == k.seat:
            continue
        places = [i for i in range(q, n, S) if row[i] is None]
        extra = conf.bottom_size if (bottom_hidden and lord == q) else 0
        need = [0] * 15
        exact = False
        if current:
            have = [0] * 15
            for i in range(q, n, S):
                if row[i] is not None:
                    have[conf.ranks[row[i]]] += 1
            if q == lord and k.bottom is not None:
                for c in k.bottom:
                    have[conf.ranks[c]] += 1
            if k.held[q] is not None:
                need = [k.held[q][r] - have[r] for r in range(15)]
                exact = True
            else:
                need = [max(0, k.played[q][r] - have[r]) for r in range(15)]
        groups.append((places, extra, need, exact))
    for _ in range(_MAX_TRIES):
        left = {r: cards[:] for r, cards in pool.items()}
        contents: List[List[int]] = []
        for places, extra, need, _ in groups:
            got: List[int] = []
            for r in range(15):
                m = need[r]
                if m:
                    avail = left.get(r, [])
                    if m > len(avail):
                        raise DdzError("the information state is inconsistent: a seat played cards that are "
                                       "not left to deal")
                    pick = rng.sample(avail, m)
                    for c in pick:
                        avail.remove(c)
                    got += pick
            contents.append(got)
        rest = [c for r in range(15) for c in left.get(r, [])]
        rng.shuffle(rest)
        weight = 1.0
        ok = True
        for gi, (places, extra, need, exact) in enumerate(groups):
            size = len(places) + extra
            got = contents[gi]
            free = size - len(got)
            if free < 0:
                ok = False
                break
            got += rest[:free]
            del rest[:free]
            counts = [0] * 15
            for c in got:
                counts[conf.ranks[c]] += 1
            for r in range(15):
                if exact and counts[r] != need[r]:
                    ok = False
                if need[r] and counts[r] > need[r]:
                    weight /= comb(counts[r], need[r])
        if not ok:
            raise DdzError("the information state is inconsistent: a public hand does not fit its seat's places")
        if weight < 1.0 and rng.random() >= weight:
            continue
        out: List[Optional[int]] = list(row)
        for gi, (places, extra, need, exact) in enumerate(groups):
            got = contents[gi]
            rng.shuffle(got)
            for i, c in zip(places, got):
                out[i] = c
        return [c for c in out if c is not None] if None not in out else _fail(), None
    raise DdzError("resample: no consistent deal found")   # pragma: no cover


def _fail():   # pragma: no cover
    raise DdzError("resample: a place of the deal was left empty")


def resample(state: Any, seat: int, rng: random.Random) -> Any:
    """A new state of the same game: the hidden cards drawn uniformly among those
    consistent with what ``seat`` knows, the same actions replayed (module docstring).

    :raises DdzError: ``seat`` is not a seat of the game.
    """
    s = state._s
    conf = s.conf
    if not (isinstance(seat, int) and 0 <= seat < conf.seats):
        raise DdzError(f"resample_from_infostate: seat must be 0..{conf.seats - 1}, got {seat!r}")
    if conf.start is not None:
        return state.clone()     # an open endgame: every seat sees everything
    k = knowledge_of(s, seat)
    return replay_knowledge(state.get_game(), k, rng)


def replay_knowledge(game: Any, k: Knowledge, rng: random.Random) -> Any:
    """A state of ``game`` drawn from :class:`Knowledge` ``k`` (see :func:`resample`)."""
    conf = game.conf
    for _ in range(_MAX_TRIES):
        deals = [_draw_deal(conf, k, d, rng)[0] for d in range(len(k.deals))]
        st = game.new_initial_state()
        try:
            if k.first is not None:
                st.apply_action(k.first)
            for d, cards in enumerate(deals):
                for c in cards:
                    st.apply_action(conf.card_base + c)
                for dd, q, a, code in k.record:
                    if dd != d:
                        continue
                    if a is None:      # a double not seen yet: either choice
                        a = rng.choice(st.legal_actions())
                    st.apply_action(a)
        except (DdzError, RuntimeError) as exc:
            if isinstance(exc, RuntimeError) and "llegal" not in str(exc) and "not legal" not in str(exc):
                raise
            continue
        return st
    raise DdzError("resample: every drawn deal was refused by the replay")   # pragma: no cover
